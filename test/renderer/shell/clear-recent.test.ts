// Clear Recent asks first (new-user pass nuprefs 10: one click emptied the list, with no way back): it names how many
// files go and that the files stay; Cancel (or Esc) keeps the list, Clear the list empties it. The native menu's
// item sends the same command (electron/main.ts), so it asks the same question.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { okValue, type RecentFile } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import { runCommand } from '../../../renderer/src/shell/commands';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { renderText } from '../../../renderer/src/stores/notify';
import { useSettingsStore } from '../../../renderer/src/stores/settings';

let list: RecentFile[];
let cleared = 0;
beforeEach(() => {
  setActivePinia(createPinia());
  cleared = 0;
  list = [
    { path: '/m/walk.vmd', name: 'walk.vmd', openedAt: 3 },
    { path: '/m/run.vmd', name: 'run.vmd', openedAt: 2 },
    { path: '/m/Gene.pmx', name: 'Gene.pmx', openedAt: 1 },
  ];
  const api = {
    listRecent: async () => okValue(list),
    clearRecent: async () => {
      cleared++;
      list = [];
      return okValue(list);
    },
  };
  setApi(new Proxy(api, { get: (o, k) => (o as Record<string | symbol, unknown>)[k] ?? (async () => ({ ok: true, value: undefined })) }) as never);
  useSettingsStore().recent = list;
});

const question = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return useConfirmStore().current;
};

describe('Clear Recent', () => {
  it('asks first, naming how many files go (en, ja); Cancel keeps the list', async () => {
    const done = runCommand('clearRecent');
    const q = await question();
    expect(q).not.toBeNull();
    expect(renderText(q!.message, 'en')).toBe('Remove 3 files from the Open Recent list? The files themselves stay where they are.');
    expect(renderText(q!.message, 'ja')).toBe('「最近使ったファイル」の一覧から 3 件を消去しますか？ ファイル自体はそのまま残ります。');
    expect(q!.buttons.map((b) => b.choice)).toEqual(['discard', 'cancel']);
    useConfirmStore().answer('cancel');
    await done;
    expect(cleared).toBe(0);
    expect(useSettingsStore().recent.map((r) => r.name)).toEqual(['walk.vmd', 'run.vmd', 'Gene.pmx']);
  });

  it('"Clear the list" empties it', async () => {
    const done = runCommand('clearRecent');
    await question();
    useConfirmStore().answer('discard');
    await done;
    expect(cleared).toBe(1);
    expect(useSettingsStore().recent).toEqual([]);
  });
});
