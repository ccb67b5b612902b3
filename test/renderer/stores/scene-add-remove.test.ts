// Adding a document to a scene and taking one out ("×" on its tab): a new actor's notice names its model;
// a removed one's unsaved changes are asked about first, its file is left as it is, the other documents and
// their undo steps stay, and the scene file marks the change.
import { beforeEach, describe, expect, it } from 'vitest';
import { writeVmd } from '../../../shared/vmd';
import { removeFromScene } from '../../../renderer/src/shell/commands';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { renderText, useNotifyStore } from '../../../renderer/src/stores/notify';
import { answerNext, memoryApi, memoryScene, dance, cameraVmd, editShown } from './scene-fixtures';

const sceneFile = (actors: string[], camera: string | null) =>
  new TextEncoder().encode(JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: actors.map((m) => ({ model: null, motion: m })), camera, activeActor: 0 }));

describe('removing a document from the scene', () => {
  let files: Map<string, Uint8Array>;
  let original: Map<string, Uint8Array>;
  let fake: ReturnType<typeof memoryApi>;
  beforeEach(async () => {
    ({ files, original, fake } = memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/b.vmd', dance(20)],
      ['/s/c.vmd', dance(30)],
      ['/s/camera.vmd', cameraVmd()],
      ['/s/trio.vmdscene', sceneFile(['a.vmd', 'b.vmd', 'c.vmd'], 'camera.vmd')],
    ]));
    expect(await useSceneStore().openPath('/s/trio.vmdscene')).toBe(true);
  });
  const names = () => useSceneStore().entries.map((e) => e.fileName);
  const saves = () => fake.calls.filter((c) => c.name === 'saveFile' || c.name === 'saveScene').map((c) => c.args[0]);

  it('a clean actor goes without a question; the next actor is shown, the scene file is unsaved, nothing is written', async () => {
    const scene = useSceneStore();
    const [, b, c] = scene.entries;
    scene.activate(b.id);
    expect(await removeFromScene(b.id)).toBe(true);
    expect(useConfirmStore().current).toBeNull();
    expect(names()).toEqual(['a.vmd', 'c.vmd', 'camera.vmd']);
    expect(scene.activeId).toBe(c.id);
    expect(useWorkspaceStore().fileName).toBe('c.vmd');
    expect(scene.sceneChanged).toBe(true);
    expect(scene.unsavedNames).toEqual(['trio.vmdscene']);
    expect(saves()).toEqual([]);
    // Saving the scene names the two actors left, and the camera.
    expect(await scene.saveTo('/s/trio.vmdscene', true)).toBe(true);
    const saved = JSON.parse(new TextDecoder().decode(files.get('/s/trio.vmdscene')!));
    expect(saved.actors.map((a: { motion: string }) => a.motion)).toEqual(['a.vmd', 'c.vmd']);
    expect(saved.camera).toBe('camera.vmd');
    expect(files.get('/s/b.vmd')).toEqual(original.get('/s/b.vmd'));
  });

  it('an unsaved one is asked about: Cancel keeps it, Save writes it then removes it, Don’t Save drops its edit', async () => {
    const scene = useSceneStore();
    const [a, b, , cam] = scene.entries;
    scene.activate(a.id);
    editShown('bone');
    let done = removeFromScene(a.id);
    expect(await answerNext('cancel')).toBe('Save the changes to a.vmd before removing it from the scene?');
    expect(await done).toBe(false);
    expect(names()).toEqual(['a.vmd', 'b.vmd', 'c.vmd', 'camera.vmd']);
    expect(scene.unsavedNames).toEqual(['a.vmd']);

    done = removeFromScene(a.id);
    await answerNext('save');
    expect(await done).toBe(true);
    expect(saves()).toEqual(['/s/a.vmd']);
    // Its file was just written: the notice says it stays, not that it is unchanged (nuscene §11).
    const last = useNotifyStore().items.at(-1)!.text!;
    expect(renderText(last, 'en')).toBe('Removed a from the scene (its file stays; Ctrl+Z puts it back)');
    expect(renderText(last, 'ja')).toBe('a をシーンから外しました（ファイルはそのまま残ります。Ctrl+Z で戻せます）');
    expect(files.get('/s/a.vmd')).not.toEqual(original.get('/s/a.vmd'));
    expect(names()).toEqual(['b.vmd', 'c.vmd', 'camera.vmd']);
    expect(scene.activeId).toBe(b.id);

    scene.activate(cam.id);
    editShown('camera');
    done = removeFromScene(cam.id);
    expect(await answerNext('discard')).toBe('Save the changes to camera.vmd before removing it from the scene?');
    expect(await done).toBe(true);
    expect(names()).toEqual(['b.vmd', 'c.vmd']);
    expect(scene.cameraEntry).toBeNull();
    expect(files.get('/s/camera.vmd')).toEqual(original.get('/s/camera.vmd'));
    // The camera document was active: the actor shown with it before is shown now.
    expect(scene.activeId).toBe(b.id);
    expect(scene.anyDirty).toBe(true); // the scene file: two documents fewer
    expect(scene.entries.some((e) => scene.stateOf(e).dirty)).toBe(false);
  });

  it('× is one undo step: Ctrl+Z puts the document back in its place with its edit and unsaved mark, then its own steps undo', async () => {
    const scene = useSceneStore();
    const hist = useHistoryStore();
    const ws = useWorkspaceStore();
    const [a, b] = scene.entries;
    scene.activate(a.id);
    editShown('bone');
    scene.activate(b.id);
    editShown('bone');
    const editedB = writeVmd(ws.get(b.id)!.doc);
    scene.activate(a.id);
    expect(hist.depth).toBe(2);
    const done = removeFromScene(b.id);
    await answerNext('discard');
    expect(await done).toBe(true);
    expect(names()).toEqual(['a.vmd', 'c.vmd', 'camera.vmd']);
    expect(ws.get(b.id)).toBeNull();
    expect(hist.depth).toBe(3);
    expect(hist.undoLabel).toBe('remove actor');
    // Undo: b is back in its place (second), shown, with its edit, still unsaved; its file was never written.
    expect(hist.undo()).toBe(true);
    expect(names()).toEqual(['a.vmd', 'b.vmd', 'c.vmd', 'camera.vmd']);
    expect(scene.activeId).toBe(b.id);
    expect(writeVmd(ws.get(b.id)!.doc)).toEqual(editedB);
    expect(ws.get(b.id)!.dirty).toBe(true);
    expect(files.get('/s/b.vmd')).toEqual(original.get('/s/b.vmd'));
    // Redo takes it out again; undo again, then its own edit and a's undo, each on its own document.
    expect(hist.redo()).toBe(true);
    expect(names()).toEqual(['a.vmd', 'c.vmd', 'camera.vmd']);
    expect(hist.undo()).toBe(true);
    expect(hist.undoDoc).toBe('b.vmd');
    expect(hist.undo()).toBe(true);
    expect(writeVmd(ws.get(b.id)!.doc)).toEqual(original.get('/s/b.vmd'));
    expect(ws.get(b.id)!.dirty).toBe(false);
    expect(hist.undo()).toBe(true);
    expect(writeVmd(ws.get(a.id)!.doc)).toEqual(original.get('/s/a.vmd'));
    expect(hist.canUndo).toBe(false);
    expect(saves()).toEqual([]);
  });

  it('a removed document whose file was opened again meanwhile comes back as an unsaved copy with no file', async () => {
    const scene = useSceneStore();
    const ws = useWorkspaceStore();
    const [, b] = scene.entries;
    expect(await removeFromScene(b.id)).toBe(true);
    // b.vmd opened again beside the rest (a document installed outside the history: the workspace's add).
    const r = await ws.read('/s/b.vmd');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const again = ws.add(r.value);
    expect(useHistoryStore().undo()).toBe(true);
    expect(ws.get(b.id)!.path).toBeNull();
    expect(ws.get(b.id)!.dirty).toBe(true);
    expect(ws.ownerOf('/s/b.vmd')!.id).toBe(again);
  });

  it('removing the actor the camera follows says the camera no longer follows its bone (nufollow §7); another actor’s notice does not', async () => {
    const scene = useSceneStore();
    const [a, b] = scene.entries;
    expect(scene.setCameraFollow({ actorId: b.id, bone: '頭' })).toBe(true);
    expect(await removeFromScene(a.id)).toBe(true);
    let last = useNotifyStore().items.at(-1)!.text!;
    expect(renderText(last, 'en')).toBe('Removed a from the scene (its file stays; Ctrl+Z puts it back)');
    expect(await removeFromScene(b.id)).toBe(true);
    last = useNotifyStore().items.at(-1)!.text!;
    expect(renderText(last, 'en')).toBe('Removed b from the scene (its file stays; Ctrl+Z puts it back): the camera no longer follows 頭, it plays as its keys say');
    expect(renderText(last, 'ja')).toBe('b をシーンから外しました（ファイルはそのまま残ります。Ctrl+Z で戻せます）。カメラは 頭 に追従しなくなり、キーのとおりに動きます');
  });

  it('the last document stays (no “×” for it): opening another file replaces it', async () => {
    memoryScene([['/s/a.vmd', dance(10)]]);
    expect(await useSceneStore().openPath('/s/a.vmd')).toBe(true);
    const scene = useSceneStore();
    expect(await removeFromScene(scene.entries[0].id)).toBe(false);
    expect(scene.removeEntry(scene.entries[0].id)).toBe(false);
    expect(names()).toEqual(['a.vmd']);
  });
});

describe('adding an actor', () => {
  it('says which model the new actor dances on, and how to give it another', async () => {
    const { fake } = memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/b.vmd', dance(20)],
    ]);
    expect(await useSceneStore().openPath('/s/a.vmd')).toBe(true);
    expect(await useSceneStore().addDocument('/s/b.vmd')).toBe(true);
    const last = useNotifyStore().items.at(-1)!;
    expect(renderText(last.text!, 'en')).toBe('b.vmd added as a new actor on the built-in figure: Model… in the preview gives it another model');
    expect(renderText(last.text!, 'ja')).toBe('b.vmd を新しいアクターとして 標準のフィギュア に追加しました。プレビューの「モデル…」で別のモデルにできます');
    expect(fake.calls.some((c) => c.name === 'openFile' && c.args[0] === '/s/b.vmd')).toBe(true);
  });
});
