// The recent list (finding 9 of the files-across-sessions pass): a long path is cut in its middle, keeping the
// root, the last folders and the name in view (two same-named files in deep folders look different), and an
// entry whose file is gone, clicked, says "not found in FOLDER — removed from the list" instead of a bare
// "not found" (main takes it off the list).
import { describe, expect, it } from 'vitest';
import { okValue, type RecentFile } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import { middleCut } from '../../../renderer/src/paths';
import { runCommand } from '../../../renderer/src/shell/commands';
import { renderText, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { dance, memoryScene } from '../stores/scene-fixtures';

describe('middleCut', () => {
  it('keeps a short path whole', () => {
    expect(middleCut('/tmp/work/walk.vmd', 40)).toBe('/tmp/work/walk.vmd');
  });

  it('keeps the root, the first folder, and as many last folders as fit', () => {
    // 30 cells allowed: "/tmp/…" (6) + "/sprint.vmd" (11) = 17; "/d6" 20, "/d5" 23, "/d4" 26, "/d3" 29; "/d2" would make 32.
    expect(middleCut('/tmp/long-folder-name-number-one/d2/d3/d4/d5/d6/sprint.vmd', 30)).toBe('/tmp/…/d3/d4/d5/d6/sprint.vmd');
  });

  it('counts a Japanese character as two cells', () => {
    // "/tmp/…" is 6 cells, "/アイドル.vmd" 13 (1 + 4 × 2 + 4), "/その6" 6: 25 ≤ 26; one more "/その5" would make 31.
    expect(middleCut('/tmp/とても長いフォルダ名/その1/その2/その3/その4/その5/その6/アイドル.vmd', 26)).toBe('/tmp/…/その6/アイドル.vmd');
  });

  it('a Windows path keeps its drive and separators', () => {
    expect(middleCut('C:\\Users\\yuki\\Downloads\\MMD\\dance\\v2\\final\\walk.vmd', 30)).toBe('C:\\Users\\…\\v2\\final\\walk.vmd');
  });

  it('a last part too long alone is cut in its middle', () => {
    expect(middleCut('/a/' + 'x'.repeat(40) + '.vmd', 11)).toBe('xxxxx…x.vmd');
  });
});

describe('a recent entry whose file is gone', () => {
  it('clicked: the notice names its folder and says it left the list', async () => {
    const { fake } = memoryScene([['/s/run.vmd', dance(5)]]);
    // Main's list: an open of a file that is gone takes it off (electron/services/file-service.ts openFile).
    let recent: RecentFile[] = [
      { path: '/home/yuki/MMD/work/walk.vmd', name: 'walk.vmd', openedAt: 2 },
      { path: '/s/run.vmd', name: 'run.vmd', openedAt: 1 },
    ];
    const base = fake.api as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    setApi(
      new Proxy(base, {
        get: (t, name: string) =>
          name === 'listRecent'
            ? async () => okValue(recent)
            : name === 'openFile'
              ? async (p: string) => {
                  const r = (await t.openFile(p)) as { ok: boolean };
                  if (!r.ok) recent = recent.filter((x) => x.path !== p);
                  return r;
                }
              : t[name],
      }) as never,
    );
    const settings = useSettingsStore();
    await settings.refreshRecent();
    await runCommand('openRecent', '/home/yuki/MMD/work/walk.vmd');
    expect(settings.recent.map((r) => r.path)).toEqual(['/s/run.vmd']);
    const items = useNotifyStore().items;
    // One notice: the warning, in place of the bare "not found" error.
    expect(items.map((n) => n.kind)).toEqual(['warning']);
    expect(renderText(items[0].text!, 'en')).toBe('walk.vmd was not found in /home/yuki/MMD/work (moved, renamed or deleted) — removed from the recent list');
    expect(renderText(items[0].text!, 'ja')).toBe('walk.vmd が /home/yuki/MMD/work に見つかりません（移動・名前の変更・削除）。最近使ったファイルの一覧から外しました');
  });
});
