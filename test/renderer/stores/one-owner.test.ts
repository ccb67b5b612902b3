// One file, one owner (finding 2 of the byte audit): a motion opened again while it is open must not become a
// second document over the same file, or Save All writes the file twice and the first one's edits are lost.
// Opened again it shows the tab that has it and says so; added anyway, the new actor holds an unsaved copy
// with no file (Save asks for its name); a scene file naming one motion twice gives the later actor such a
// copy; Save As onto another open document's file and Save All over a file two documents have are refused,
// nothing written, the message naming both.
import { beforeEach, describe, expect, it } from 'vitest';
import { openOntoScene } from '../../../renderer/src/shell/pose-apply';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { renderText, useNotifyStore } from '../../../renderer/src/stores/notify';
import { answerNext, dance, editShown, memoryApi, memoryScene } from './scene-fixtures';

const sceneFile = (actors: string[]) =>
  new TextEncoder().encode(JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: actors.map((m) => ({ model: null, motion: m })), camera: null, activeActor: 0 }));

const lines = () => useNotifyStore().items.flatMap((n) => (n.text ? [renderText(n.text, 'en')] : []));

describe('one file, one owner', () => {
  let files: Map<string, Uint8Array>;
  let original: Map<string, Uint8Array>;
  let fake: ReturnType<typeof memoryApi>;
  beforeEach(() => {
    ({ files, original, fake } = memoryScene([
      ['/s/walk.vmd', dance(10)],
      ['/s/run.vmd', dance(20)],
      ['/s/duet.vmdscene', sceneFile(['walk.vmd', 'run.vmd', 'walk.vmd'])],
    ]));
  });
  const writes = () => fake.calls.filter((c) => c.name === 'saveFile').map((c) => c.args[0]);

  it('Open… of the file open as an actor: "Show actor walk" shows its tab and says it is open; nothing is added', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/walk.vmd')).toBe(true);
    expect(await scene.addDocument('/s/run.vmd')).toBe(true);
    const [walk, run] = scene.entries;
    expect(scene.activeId).toBe(run.id);
    const done = openOntoScene({ path: '/s/walk.vmd' });
    expect(await answerNext('show')).toBe(
      'walk.vmd is already open (actor walk). Show it, add a copy as a new actor (unsaved: Save asks for its name, so the two never write one file), or open it on its own, which replaces the scene. Opening it on its own loses the unsaved changes to Untitled scene.',
    );
    expect(await done).toBe(true);
    expect(scene.entries.map((e) => e.id)).toEqual([walk.id, run.id]);
    expect(scene.activeId).toBe(walk.id);
    expect(lines().at(-1)).toBe('walk.vmd is already open (actor walk)');
    expect(renderText(useNotifyStore().items.at(-1)!.text!, 'ja')).toBe('walk.vmd はすでに開いています（アクター walk）');
  });

  it('+ Actor with the open file: its tab is shown, no second document', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/walk.vmd')).toBe(true);
    expect(await scene.addDocument('/s/run.vmd')).toBe(true);
    expect(await scene.addDocument('/s/walk.vmd')).toBe(false);
    expect(scene.entries.map((e) => e.path)).toEqual(['/s/walk.vmd', '/s/run.vmd']);
    expect(scene.activeId).toBe(scene.entries[0].id);
    expect(lines().at(-1)).toBe('walk.vmd is already open (actor walk)');
  });

  it('added anyway: the new actor is an unsaved copy with no file; Save All writes walk.vmd once (the first actor’s edits) and asks a name for the copy', async () => {
    const scene = useSceneStore();
    const ws = useWorkspaceStore();
    expect(await scene.openPath('/s/walk.vmd')).toBe(true);
    const done = openOntoScene({ path: '/s/walk.vmd' });
    await answerNext('copy');
    expect(await done).toBe(true);
    const [walk, copy] = scene.entries;
    expect(scene.entries).toHaveLength(2);
    expect(walk.path).toBe('/s/walk.vmd');
    expect(copy.path).toBeNull();
    expect(copy.dirty).toBe(true);
    expect(scene.activeId).toBe(copy.id);
    expect(lines().at(-1)).toBe('walk.vmd added as a new actor on the built-in figure, as an unsaved copy (the file stays with actor walk): Save asks for its name');
    // Both edited, as in the audit; Save All.
    editShown('bone');
    scene.activate(walk.id);
    editShown('bone');
    const walkBytes = ws.get(walk.id)!.doc;
    const r = await scene.saveAll();
    expect(r.needsName).toEqual([copy.id]);
    expect(writes()).toEqual(['/s/walk.vmd']);
    expect(files.get('/s/walk.vmd')).not.toEqual(original.get('/s/walk.vmd'));
    expect(ws.get(walk.id)!.doc).toBe(walkBytes);
    expect(walk.dirty).toBe(false);
    expect(copy.dirty).toBe(true);
  });

  it('a scene file naming walk.vmd for two actors: the later one is an unsaved copy, said in a notice', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/duet.vmdscene')).toBe(true);
    expect(scene.entries.map((e) => e.path)).toEqual(['/s/walk.vmd', '/s/run.vmd', null]);
    expect(scene.entries.map((e) => e.dirty)).toEqual([false, false, true]);
    const [first, , third] = scene.entries;
    expect(lines()).toContain(
      `The scene names walk.vmd for ${scene.partName(first.id)} and ${scene.partName(third.id)}: ${scene.partName(third.id)} holds an unsaved copy, so the two never write one file; Save asks for its name`,
    );
  });

  it('Save As onto the file another open document has is refused, naming both; nothing is written', async () => {
    const scene = useSceneStore();
    const ws = useWorkspaceStore();
    expect(await scene.openPath('/s/walk.vmd')).toBe(true);
    expect(await scene.addDocument('/s/run.vmd')).toBe(true);
    const [, run] = scene.entries;
    editShown('bone');
    expect(await ws.saveAs('/s/walk.vmd', { overwrite: true }, run.id)).toBe(false);
    expect(writes()).toEqual([]);
    expect(run.path).toBe('/s/run.vmd');
    expect(lines().at(-1)).toBe('run was not saved as walk.vmd: walk has that file open, and one would write over the other’s edits. Choose another name');
  });

  it('Save All over a file two documents have writes neither, naming both, and saves the rest', async () => {
    const scene = useSceneStore();
    const ws = useWorkspaceStore();
    expect(await scene.openPath('/s/walk.vmd')).toBe(true);
    expect(await scene.addDocument('/s/run.vmd')).toBe(true);
    files.set('/s/other.vmd', dance(30));
    expect(await scene.addDocument('/s/other.vmd')).toBe(true);
    const [walk, run, other] = scene.entries;
    // Two owners of walk.vmd, as a session before this rule could end up: run's document says walk.vmd too.
    ws.get(run.id)!.path = '/s/walk.vmd';
    for (const e of [walk, run, other]) {
      scene.activate(e.id);
      editShown('bone');
    }
    const r = await scene.saveAll();
    expect(r.ok).toBe(false);
    expect(writes()).toEqual(['/s/other.vmd']);
    expect(files.get('/s/walk.vmd')).toEqual(original.get('/s/walk.vmd'));
    expect(lines()).toContain('walk.vmd was not saved: it is the file of both walk and run, and one would write over the other’s edits. Save As… one of them under another name');
  });
});
