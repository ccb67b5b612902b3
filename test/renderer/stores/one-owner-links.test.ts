// One file, one owner, by any path (finding 5 of the files-across-sessions pass): main says the real path of a
// file read or written (a symbolic link resolved), and the store compares those, so opening walk-link.vmd (a
// link to the open walk.vmd) asks the "already open" question instead of making a second actor over the same
// file, and a scene naming the file by both paths gives the later actor an unsaved copy.
import { beforeEach, describe, expect, it } from 'vitest';
import { okValue } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import { openOntoScene } from '../../../renderer/src/shell/pose-apply';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { answerNext, dance, memoryScene, sceneFile } from './scene-fixtures';

/** walk-link.vmd is a link to walk.vmd: both read the same bytes, and main resolves the link. */
const REAL: Record<string, string> = { '/s/walk.vmd': '/s/walk.vmd', '/s/walk-link.vmd': '/s/walk.vmd', '/s/run.vmd': '/s/run.vmd' };

describe('the same file by a link', () => {
  beforeEach(() => {
    const walk = dance(10);
    const made = memoryScene([
      ['/s/walk.vmd', walk],
      ['/s/walk-link.vmd', walk],
      ['/s/run.vmd', dance(20)],
      ['/s/both.vmdscene', sceneFile({ actors: [{ model: null, motion: 'walk.vmd' }, { model: null, motion: 'walk-link.vmd' }], camera: null })],
    ]);
    const base = made.fake.api as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    setApi(
      new Proxy(base, {
        get: (t, name: string) =>
          name === 'openFile'
            ? async (p: string) => {
                const r = (await t.openFile(p)) as { ok: boolean; value?: object };
                return r.ok ? okValue({ ...r.value, realPath: REAL[p] }) : r;
              }
            : t[name],
      }) as never,
    );
  });

  it('opening the link to the open file asks the "already open" question; Show shows the actor that has it', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/walk.vmd')).toBe(true);
    expect(await scene.addDocument('/s/run.vmd')).toBe(true);
    const done = openOntoScene({ path: '/s/walk-link.vmd' });
    await expect.poll(() => useConfirmStore().current).not.toBeNull();
    // (The untitled two-actor scene is unsaved: Save All and Open / Open and Discard.)
    expect(useConfirmStore().current!.buttons.map((b) => b.choice)).toEqual(['show', 'copy', 'save', 'discard', 'cancel']);
    expect(await answerNext('show')).toMatch(/^walk-link\.vmd is already open \(actor walk\)\./);
    expect(await done).toBe(true);
    expect(scene.entries.map((e) => e.path)).toEqual(['/s/walk.vmd', '/s/run.vmd']);
    expect(scene.activeId).toBe(scene.entries[0].id);
  });

  it('+ Actor with the link shows the tab that has the file', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/walk.vmd')).toBe(true);
    expect(await scene.addDocument('/s/run.vmd')).toBe(true);
    expect(await scene.addDocument('/s/walk-link.vmd')).toBe(false);
    expect(scene.entries.map((e) => e.path)).toEqual(['/s/walk.vmd', '/s/run.vmd']);
  });

  it('a scene naming the file and its link: the later actor holds an unsaved copy', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/both.vmdscene')).toBe(true);
    expect(scene.entries.map((e) => e.path)).toEqual(['/s/walk.vmd', null]);
  });
});
