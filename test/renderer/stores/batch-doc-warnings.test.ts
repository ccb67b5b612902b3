// Whole Motion's notice after an edit (new-user pass nujp 1): its warning was the edit's English line in a
// Japanese UI ("1 bone key landed on a frame already taken…"), and the counts called the keys left out 統合
// (merged). Now the warning follows the UI language and the count says 除外 (left out).
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, okValue, type VmdStudioApi } from '../../../shared/ipc/contract';
import { buildVmd, writeVmd } from '../../../shared/vmd';
import { speed } from '../../../shared/motion-ops';
import { setApi } from '../../../renderer/src/api';
import { useBatchStore } from '../../../renderer/src/stores/batch';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';

function quietApi(): VmdStudioApi {
  return new Proxy({} as Record<string, unknown>, {
    get: (_t, name: string) => async (...args: unknown[]) => (name === 'setSettings' ? okValue({ ...DEFAULT_SETTINGS, ...(args[0] as object) }) : name === 'listRecent' ? okValue([]) : okValue(undefined)),
  }) as unknown as VmdStudioApi;
}

describe('Whole Motion notice: the edit\'s warnings in the UI language', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setApi(quietApi());
  });

  it('speed ×2 with a key on a taken frame: Japanese warning and 除外 in Japanese, the English line in English', () => {
    // 腕 at 0, 1, 2 twice as fast: 0→0, 1→1 (0.5 rounds away from zero), 2→1 taken.
    const doc = buildVmd({ bones: [0, 1, 2].map((frame) => ({ name: '腕', frame, position: [0, 0, 0], rotation: [0, 0, 0, 1] })) });
    expect(useSceneStore().openBytes('ダンス.vmd', writeVmd(doc), '/m/ダンス.vmd')).toBe(true);
    const r = speed(doc, { factor: 2 });
    if (!r.ok) throw new Error(r.error.message);
    useBatchStore().announce(r.value.report, 'speed');
    const n = useNotifyStore().items.at(-1)!;
    expect(n.kind).toBe('warning');
    expect(noticeLines(n, 'ja').detail).toBe('キー: 維持 2, 追加 0, 削除 0, 同一フレームで除外 1 · ボーンのキー 1 個が既にキーのあるフレームに重なったため除外しました（ファイル内で先のキーを使用）');
    expect(noticeLines(n, 'en').detail).toBe('keys: 2 kept, 0 added, 0 dropped, 1 left out on a frame already taken · 1 bone key landed on a frame already taken and was left out (the first in the file kept)');
  });
});
