/** Error notices: the codec's exact English line, or in Japanese a line by error code with the English kept below. */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { readVmd } from '../../../shared/vmd';
import { describeError, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { useDocumentStore } from '../../../renderer/src/stores/document';
import { setApi } from '../../../renderer/src/api';

const okVoid = async () => ({ ok: true, value: undefined });

describe('error notices', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setApi(new Proxy({}, { get: () => okVoid }) as never);
  });

  it('English: file, the codec message and the byte offset; the code below', () => {
    expect(describeError({ code: 'E_VMD_COUNT', message: 'bone count 9 needs 999 bytes, 12 left', file: '/m/a.vmd', offset: 50 }, 'en')).toEqual({
      message: 'a.vmd: bone count 9 needs 999 bytes, 12 left (at byte 50)',
      detail: 'E_VMD_COUNT',
    });
  });

  it('Japanese: the line says what is wrong by code, with the offset; the English message stays in the detail', () => {
    expect(describeError({ code: 'E_VMD_COUNT', message: 'bone count 9 needs 999 bytes, 12 left', file: 'C:\\m\\a.vmd', offset: 50 }, 'ja')).toEqual({
      message: 'a.vmd: キーの数がファイルの大きさと合いません（壊れたファイル）（50 バイト目）',
      detail: 'E_VMD_COUNT: bone count 9 needs 999 bytes, 12 left',
    });
    // A code without a translation keeps the English line.
    expect(describeError({ code: 'E_SOMETHING_NEW', message: 'odd', file: 'x.vmd' }, 'ja')).toEqual({ message: 'x.vmd: odd', detail: 'E_SOMETHING_NEW' });
  });

  it('a file that is not a VMD, opened with the UI in Japanese, gives a Japanese notice', () => {
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'ja' };
    const bytes = new TextEncoder().encode('not a motion at all, just some text long enough');
    const r = readVmd(bytes);
    expect(r.ok).toBe(false);
    expect(useDocumentStore().openBytes('b.vmd', bytes, '/b.vmd')).toBe(false);
    const n = useNotifyStore().items.at(-1)!;
    expect(n.kind).toBe('error');
    expect(n.message).toBe(`b.vmd: VMD ファイルではありません（${r.ok ? '' : r.error.offset} バイト目）`);
    expect(n.detail).toBe(`E_VMD_MAGIC: ${r.ok ? '' : r.error.message}`);
  });
});
