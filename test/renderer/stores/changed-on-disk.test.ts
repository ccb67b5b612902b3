// A file another program changed while it is open (finding 4 of the files-across-sessions pass): opened again
// (Open…, Open Recent, a file handed over), the "already open" question says the file on disk differs from the
// version open (the document keeps main's stamp: size, modification time, inode) and offers Reload from disk,
// asking first over unsaved edits; "Add a copy" copies the document that is open, not the newer file.
import { beforeEach, describe, expect, it } from 'vitest';
import { okValue, type FileStamp } from '../../../shared/ipc/contract';
import { writeVmd } from '../../../shared/vmd';
import { setApi } from '../../../renderer/src/api';
import { openOntoScene } from '../../../renderer/src/shell/pose-apply';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { answerNext, dance, editShown, memoryScene } from './scene-fixtures';

const WALK = dance(10);
const STAND = dance(30);

describe('a file changed on disk, opened again', () => {
  let files: Map<string, Uint8Array>;
  const stamps = new Map<string, FileStamp>();
  const choices = () => useConfirmStore().current!.buttons.map((b) => b.choice);
  beforeEach(() => {
    const made = memoryScene([['/s/walk.vmd', WALK]]);
    files = made.files;
    stamps.clear();
    stamps.set('/s/walk.vmd', { size: WALK.length, mtimeNs: '1000', ino: '7' });
    // The in-memory bridge, with main's stamp on each file read by path.
    const base = made.fake.api as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    setApi(
      new Proxy(base, {
        get: (t, name: string) =>
          name === 'openFile'
            ? async (p: string) => {
                const r = (await t.openFile(p)) as { ok: boolean; value?: object };
                return r.ok ? okValue({ ...r.value, stamp: stamps.get(p) }) : r;
              }
            : t[name],
      }) as never,
    );
  });
  /** Another program writes `bytes` over walk.vmd: another size and time, a new inode (a temp renamed over it). */
  const overwrite = (bytes: Uint8Array) => {
    files.set('/s/walk.vmd', bytes);
    stamps.set('/s/walk.vmd', { size: bytes.length, mtimeNs: '2000', ino: '8' });
  };
  const shownBytes = () => Buffer.from(writeVmd(useWorkspaceStore().doc!));

  it('unchanged on disk: the question is the plain "already open" one, with no Reload', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/walk.vmd')).toBe(true);
    const done = openOntoScene({ path: '/s/walk.vmd' });
    await expect.poll(() => useConfirmStore().current).not.toBeNull();
    expect(choices()).toEqual(['show', 'copy', 'discard', 'cancel']);
    expect(await answerNext('cancel')).toMatch(/^walk\.vmd is already open \(actor walk\)\. Show it,/);
    expect(await done).toBe(false);
  });

  it('changed on disk: the question says so; Show keeps the open version, Reload from disk takes the new one as one undo step, unedited', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/walk.vmd')).toBe(true);
    overwrite(STAND);
    let done = openOntoScene({ path: '/s/walk.vmd' });
    await expect.poll(() => useConfirmStore().current).not.toBeNull();
    expect(choices()).toEqual(['show', 'reload', 'copy', 'discard', 'cancel']);
    expect(await answerNext('show')).toBe(
      'walk.vmd is already open (actor walk), and the file on disk has changed since it was opened or last saved (another program wrote it). Show the version that is open, reload it from disk, add a copy of the open version as a new actor (unsaved), or open the file on its own, which replaces the scene.',
    );
    expect(await done).toBe(true);
    expect(shownBytes().equals(Buffer.from(WALK))).toBe(true);

    done = openOntoScene({ path: '/s/walk.vmd' });
    await answerNext('reload');
    expect(await done).toBe(true);
    const ws = useWorkspaceStore();
    expect(shownBytes().equals(Buffer.from(STAND))).toBe(true);
    expect(scene.entries).toHaveLength(1);
    expect(ws.path).toBe('/s/walk.vmd');
    expect(ws.dirty).toBe(false);
    expect(ws.get(scene.entries[0].id)!.stamp).toEqual({ size: STAND.length, mtimeNs: '2000', ino: '8' });
    expect(useHistoryStore().undoLabel).toBe('reload walk.vmd');
    // Reloaded, the file and the document agree again: no Reload offered.
    done = openOntoScene({ path: '/s/walk.vmd' });
    await expect.poll(() => useConfirmStore().current).not.toBeNull();
    expect(choices()).toEqual(['show', 'copy', 'discard', 'cancel']);
    await answerNext('cancel');
    await done;
    // Undo gives back the version that was open.
    useHistoryStore().undo();
    expect(shownBytes().equals(Buffer.from(WALK))).toBe(true);
  });

  it('Reload over unsaved edits asks first: Cancel keeps the edits', async () => {
    const scene = useSceneStore();
    const ws = useWorkspaceStore();
    expect(await scene.openPath('/s/walk.vmd')).toBe(true);
    editShown('bone');
    const edited = shownBytes();
    overwrite(STAND);
    let done = openOntoScene({ path: '/s/walk.vmd' });
    await answerNext('reload');
    expect(await answerNext('cancel')).toBe('walk.vmd (actor walk) has unsaved changes. Reloading it from disk discards them (Undo gives them back).');
    expect(await done).toBe(false);
    expect(shownBytes().equals(edited)).toBe(true);
    expect(ws.dirty).toBe(true);

    done = openOntoScene({ path: '/s/walk.vmd' });
    await answerNext('reload');
    await answerNext('reload');
    expect(await done).toBe(true);
    expect(shownBytes().equals(Buffer.from(STAND))).toBe(true);
    expect(ws.dirty).toBe(false);
  });

  it('Add a copy copies the document that is open (its edits), not the newer file', async () => {
    const scene = useSceneStore();
    const ws = useWorkspaceStore();
    expect(await scene.openPath('/s/walk.vmd')).toBe(true);
    editShown('bone');
    const edited = shownBytes();
    overwrite(STAND);
    const done = openOntoScene({ path: '/s/walk.vmd' });
    await answerNext('copy');
    expect(await done).toBe(true);
    expect(scene.entries).toHaveLength(2);
    const copy = scene.entries[1];
    expect(copy.path).toBeNull();
    expect(Buffer.from(writeVmd(ws.get(copy.id)!.doc)).equals(edited)).toBe(true);
  });
});
