// Scene-level actions as a desktop user expects them (the scenefix findings): Save All and Open over an
// untitled scene asks the scene file's name, then opens (Cancel: a notice, the scene kept); adding an actor or
// the camera is an undo step of its own (undo takes it out, redo puts the same document back), so Ctrl+Z
// after + Actor or an import never undoes another document's edit instead; a new edit, or × on a tab, drops
// only that document's redo steps; the title's * says which is unsaved, the scene or the active document.
import { describe, expect, it, vi } from 'vitest';
import { removeFromScene, saveAllWithDialog } from '../../../renderer/src/shell/commands';
import { fileDialogState } from '../../../renderer/src/shell/file-dialog';
import { editLabel } from '../../../renderer/src/editor/edit-labels';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useCurveEditorStore } from '../../../renderer/src/stores/curve-editor';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useEditorActions } from '../../../renderer/src/editor/use-editor-actions';
import { useMusicStore } from '../../../renderer/src/stores/music';
import { renderText, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { documentContent, stepOwner, useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { setApi } from '../../../renderer/src/api';
import { t } from '../../../shared/i18n/strings';
import { readVmd, writeVmd } from '../../../shared/vmd';
import { withFakeAudio } from '../../helpers/fake-audio';
import { answerNext, cameraVmd, dance, editShown, memoryApi } from './scene-fixtures';

let files: Map<string, Uint8Array>;
let fake: ReturnType<typeof memoryApi>;
const song = () => new TextEncoder().encode('RIFF');

withFakeAudio(undefined, () => {
  files = new Map<string, Uint8Array>([
    ['/s/a.vmd', dance(10)],
    ['/s/b.vmd', dance(20)],
    ['/s/laugh.vmd', dance(30)],
    ['/s/camera.vmd', cameraVmd()],
    ['/s/song.wav', song()],
    ['/s/cam.vmdscene', new TextEncoder().encode(JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: null, motion: 'a.vmd' }], camera: 'camera.vmd', activeActor: 0 }))],
  ]);
  fake = memoryApi(files);
  setApi(fake.api);
});

/** The bytes of document `id` as it would be saved. */
const bytesOf = (id: number) => writeVmd(useWorkspaceStore().get(id)!.doc);
/** The undo button's words, as MenuBar shows them (label in the UI's language, then the document). */
const undoText = () => {
  const h = useHistoryStore();
  return `${editLabel(h.undoLabel, (k) => t(k, 'en'))} (${h.undoDoc})`;
};
const redoText = () => {
  const h = useHistoryStore();
  return `${editLabel(h.redoLabel, (k) => t(k, 'en'))} (${h.redoDoc})`;
};
/** A second edit of the shown actor (editShown's curve on its third key). */
function editAnother() {
  useSelectionStore().select([{ kind: 'bone', record: 2 }]);
  useCurveEditorStore().setChannel(0);
  expect(useEditorActions().setCurve([90, 20, 100, 110])).toBe(true);
}

/** A capture's result as Import gives it: a motion that exists nowhere on disk yet. */
function imported(name: string) {
  const r = readVmd(dance(40));
  if (!r.ok) throw new Error('the fixture does not read');
  return documentContent(r.value, { name });
}
const lastNotice = () => renderText(useNotifyStore().items.at(-1)!.text!, 'en');

/** The finding's untitled scene: a dance, a camera added with + Actor, music. */
async function untitledScene() {
  const scene = useSceneStore();
  expect(await scene.openPath('/s/a.vmd')).toBe(true);
  expect(await scene.addDocument('/s/camera.vmd')).toBe(true);
  expect(await useMusicStore().loadBytes('song.wav', song(), '/s/song.wav')).toBe(true);
  expect(scene.unsavedNames).toEqual(['Untitled scene']);
  // The window's Save All (app.ts gives it to the store at start).
  scene.attachSaveAll(saveAllWithDialog);
  return scene;
}

describe('Save All and Open over an untitled scene', () => {
  it('asks the scene file’s name, writes it, then opens the file', async () => {
    const scene = await untitledScene();
    const opening = scene.openPath('/s/laugh.vmd');
    expect(await answerNext('save')).toBe('Opening laugh.vmd replaces the scene. The unsaved changes to Untitled scene will be lost.');
    await vi.waitFor(() => expect(fileDialogState.request?.filter).toBe('scene'));
    // Named after its song, in the folder holding all its files (Save Scene's proposal for an untitled scene).
    expect(fileDialogState.request!.fileName).toBe('song.vmdscene');
    expect(fileDialogState.request!.directory).toBe('/s');
    fileDialogState.resolve!({ path: '/s/a.vmdscene', overwrite: false });
    expect(await opening).toBe(true);
    const saved = JSON.parse(new TextDecoder().decode(files.get('/s/a.vmdscene')!));
    expect(saved.actors.map((a: { motion: string }) => a.motion)).toEqual(['a.vmd']);
    expect(saved.camera).toBe('camera.vmd');
    expect(saved.audio.path).toBe('song.wav');
    expect(scene.entries.map((e) => e.fileName)).toEqual(['laugh.vmd']);
    expect(document.title).toBe('laugh.vmd — VMD Studio');
  });

  it('Cancel in the name dialog: a notice says the file was not opened, and the scene stays as it was', async () => {
    const scene = await untitledScene();
    const opening = scene.openPath('/s/laugh.vmd');
    await answerNext('save');
    await vi.waitFor(() => expect(fileDialogState.request?.filter).toBe('scene'));
    fileDialogState.resolve!(null);
    expect(await opening).toBe(false);
    expect(lastNotice()).toBe('laugh.vmd was not opened: Untitled scene is not saved, and stays open as it is');
    expect(renderText(useNotifyStore().items.at(-1)!.text!, 'ja')).toBe('laugh.vmd は開きませんでした。Untitled scene は保存されていないため、そのまま開いています');
    expect(scene.entries.map((e) => e.fileName)).toEqual(['a.vmd', 'camera.vmd']);
    expect(useMusicStore().loaded).toBe(true);
    expect(scene.unsavedNames).toEqual(['Untitled scene']);
    expect(fake.calls.some((c) => c.name === 'saveScene' || c.name === 'saveFile')).toBe(false);
  });

  it('a document never saved (an import) is asked a name too, before the scene’s', async () => {
    const scene = await untitledScene();
    scene.addImported(imported('walk.vmd'), null);
    const opening = scene.openPath('/s/laugh.vmd');
    await answerNext('save');
    await vi.waitFor(() => expect(fileDialogState.request?.filter).toBe('motion'));
    expect(fileDialogState.request!.fileName).toBe('walk.vmd');
    fileDialogState.resolve!({ path: '/s/walk.vmd', overwrite: false });
    await vi.waitFor(() => expect(fileDialogState.request?.filter).toBe('scene'));
    fileDialogState.resolve!({ path: '/s/a.vmdscene', overwrite: false });
    expect(await opening).toBe(true);
    expect(files.get('/s/walk.vmd')).toEqual(dance(40));
    expect(scene.entries.map((e) => e.fileName)).toEqual(['laugh.vmd']);
  });
});

describe('adding an actor or the camera is an undo step of its own', () => {
  it('+ Actor after an edit of another document: Undo takes the actor out (the edit stays), Redo puts the same document back', async () => {
    const scene = useSceneStore();
    const ws = useWorkspaceStore();
    const hist = useHistoryStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    const a = scene.entries[0];
    editShown('bone');
    const aEdited = bytesOf(a.id);
    expect(await scene.addDocument('/s/b.vmd')).toBe(true);
    const b = scene.entries[1];
    expect(scene.activeId).toBe(b.id);
    expect(undoText()).toBe('add actor (b)');

    // An edit of b, undone, then the adding undone: b is out of the scene and the workspace; a's edit stays.
    editShown('bone');
    const bEdited = bytesOf(b.id);
    expect(hist.undo()).toBe(true);
    expect(undoText()).toBe('add actor (b)');
    expect(hist.undo()).toBe(true);
    expect(scene.entries.map((e) => e.fileName)).toEqual(['a.vmd']);
    expect(ws.get(b.id)).toBeNull();
    expect(scene.activeId).toBe(a.id);
    expect(bytesOf(a.id)).toEqual(aEdited);
    expect(ws.get(a.id)!.dirty).toBe(true);
    expect(redoText()).toBe('add actor (b)');
    expect(undoText()).toBe('curve (a.vmd)');

    // Redo: the same document, with its id, in its place, active; then its edit redoes onto it.
    expect(hist.redo()).toBe(true);
    expect(scene.entries.map((e) => [e.id, e.fileName])).toEqual([
      [a.id, 'a.vmd'],
      [b.id, 'b.vmd'],
    ]);
    expect(scene.activeId).toBe(b.id);
    expect(bytesOf(b.id)).toEqual(files.get('/s/b.vmd'));
    expect(hist.redo()).toBe(true);
    expect(bytesOf(b.id)).toEqual(bEdited);
    expect(hist.canRedo).toBe(false);
  });

  it('an imported capture: Undo takes it out, Redo brings it back still unsaved; the camera VMD is "add camera"', async () => {
    const scene = useSceneStore();
    const hist = useHistoryStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    editShown('bone');
    const { id } = scene.addImported(imported('131_01.vmd'), null);
    expect(undoText()).toBe('add actor (131_01)');
    expect(hist.undo()).toBe(true);
    expect(scene.entries.map((e) => e.fileName)).toEqual(['a.vmd']);
    expect(undoText()).toBe('curve (a.vmd)');
    expect(hist.redo()).toBe(true);
    expect(scene.activeId).toBe(id);
    expect(scene.stateOf({ id }).dirty).toBe(true);
    expect(scene.unsavedNames).toContain('131_01.vmd');

    expect(await scene.addDocument('/s/camera.vmd')).toBe(true);
    expect(undoText()).toBe('add camera (camera.vmd)');
    expect(hist.undo()).toBe(true);
    expect(scene.cameraEntry).toBeNull();
    expect(redoText()).toBe('add camera (camera.vmd)');
    expect(hist.redo()).toBe(true);
    expect(scene.cameraEntry?.fileName).toBe('camera.vmd');
  });

  it('the last document left is not taken out by an undo: its adding leaves the history', async () => {
    const scene = useSceneStore();
    const hist = useHistoryStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    expect(await scene.addDocument('/s/b.vmd')).toBe(true);
    const [a, b] = scene.entries;
    editShown('bone');
    expect(await removeFromScene(a.id)).toBe(true);
    // The removal undoes (a back in its place), then b's edit; then nothing: b's adding left the history, so b stays.
    expect(undoText()).toBe('remove actor (a)');
    expect(hist.undo()).toBe(true);
    expect(scene.entries.map((e) => e.id)).toEqual([a.id, b.id]);
    expect(undoText()).toBe('curve (b.vmd)');
    expect(hist.undo()).toBe(true);
    expect(hist.canUndo).toBe(false);
    expect(scene.entries.map((e) => e.id)).toEqual([a.id, b.id]);
  });
});

describe('redo steps belong to their document', () => {
  it('an edit of the camera, then × on its tab (Don’t Save), leave the actor’s two undone steps to redo', async () => {
    const scene = useSceneStore();
    const hist = useHistoryStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    expect(await scene.addDocument('/s/camera.vmd')).toBe(true);
    const [a, cam] = scene.entries;
    scene.activate(a.id);
    editShown('bone');
    const once = bytesOf(a.id);
    editAnother();
    expect(hist.undo()).toBe(true);
    expect(hist.undo()).toBe(true);
    expect(bytesOf(a.id)).toEqual(files.get('/s/a.vmd'));
    expect(hist.redoStack.map(stepOwner)).toEqual([a.id, a.id]);

    scene.activate(cam.id);
    editShown('camera');
    expect(hist.redoStack.map(stepOwner)).toEqual([a.id, a.id]);
    const removing = removeFromScene(cam.id);
    expect(await answerNext('discard')).toBe('Save the changes to camera.vmd before removing it from the scene?');
    expect(await removing).toBe(true);
    expect(hist.redoStack.map(stepOwner)).toEqual([a.id, a.id]);
    expect(redoText()).toBe('curve (a.vmd)');
    expect(hist.redo()).toBe(true);
    expect(bytesOf(a.id)).toEqual(once);
    expect(hist.redo()).toBe(true);
    expect(hist.canRedo).toBe(false);
    expect(useWorkspaceStore().get(a.id)!.dirty).toBe(true);
  });

  it('a new edit of a document drops its own redo steps, and its saved state among them', async () => {
    const scene = useSceneStore();
    const hist = useHistoryStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    const a = scene.entries[0];
    editShown('bone');
    expect(await useWorkspaceStore().save(a.id)).toBe(true);
    expect(hist.undo()).toBe(true);
    expect(useWorkspaceStore().get(a.id)!.dirty).toBe(true);
    editShown('bone');
    expect(hist.canRedo).toBe(false);
    // The saved state is gone for good: undo back to the file as it was opened is still unsaved.
    expect(hist.undo()).toBe(true);
    expect(useWorkspaceStore().get(a.id)!.dirty).toBe(true);
  });
});

describe('the title’s * says what is unsaved', () => {
  it('on the scene when another document is unsaved; after the active document only when that one is', async () => {
    const scene = useSceneStore();
    // A saved scene (an untitled one is unsaved from the start: scene-loss.test.ts).
    expect(await scene.openPath('/s/cam.vmdscene')).toBe(true);
    const [a, cam] = scene.entries;
    scene.activate(cam.id);
    expect(document.title).toBe('cam.vmdscene — camera.vmd — VMD Studio');
    scene.activate(a.id);
    editShown('bone');
    expect(document.title).toBe('cam.vmdscene * — a.vmd * — VMD Studio');
    scene.activate(cam.id);
    expect(document.title).toBe('cam.vmdscene * — camera.vmd — VMD Studio');
  });
});

describe('an undo or redo that switches to another document says so (nuscene §13: the view jumped with no word)', () => {
  it('names the step and its document when the tab changes; nothing more when the step is the shown document’s', async () => {
    const scene = useSceneStore();
    const hist = useHistoryStore();
    const notify = useNotifyStore();
    expect(await scene.openPath('/s/cam.vmdscene')).toBe(true);
    const [a, cam] = scene.entries;
    scene.activate(a.id);
    editShown('bone');
    scene.activate(cam.id);
    editShown('camera');
    scene.activate(a.id);
    const count = () => notify.items.length;
    const last = (locale: 'en' | 'ja' = 'en') => renderText(notify.items.at(-1)!.text!, locale);

    // a.vmd shown: the undo is the camera's edit, and the editor goes there.
    let n = count();
    expect(hist.undo()).toBe(true);
    expect(scene.activeId).toBe(cam.id);
    expect(count()).toBe(n + 1);
    expect(last()).toBe('Undid curve in camera.vmd');
    expect(last('ja')).toBe('camera.vmd の補間曲線を元に戻しました');

    // The next undo is a.vmd's: back to it, said too (the keyboard's and the menus' undo runs sliced).
    n = count();
    expect(await hist.undoSliced()).toBe(true);
    expect(scene.activeId).toBe(a.id);
    expect(count()).toBe(n + 1);
    expect(last()).toBe('Undid curve in a.vmd');

    // Redo of a.vmd's step, shown: nothing to say.
    n = count();
    expect(hist.redo()).toBe(true);
    expect(count()).toBe(n);
    // Redo of the camera's: the tab changes, said.
    expect(await hist.redoSliced()).toBe(true);
    expect(scene.activeId).toBe(cam.id);
    expect(last()).toBe('Redid curve in camera.vmd');
    expect(last('ja')).toBe('camera.vmd の補間曲線をやり直しました');
  });
});

describe('a redone adding is named (docsfix: "Redid add camera in " with no name)', () => {
  it('names the document a redo adds back, and a new camera with no file by its step alone', async () => {
    const scene = useSceneStore();
    const hist = useHistoryStore();
    const notify = useNotifyStore();
    const last = (locale: 'en' | 'ja' = 'en') => renderText(notify.items.at(-1)!.text!, locale);
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    const a = scene.entries[0];
    expect(await scene.addDocument('/s/camera.vmd')).toBe(true);
    scene.activate(a.id);
    expect(hist.undo()).toBe(true);
    expect(scene.activeId).toBe(a.id);
    expect(hist.redo()).toBe(true);
    expect(scene.activeId).not.toBe(a.id);
    expect(last()).toBe('Redid add camera in camera.vmd');
    // A new camera (no file): nothing to name it by, so the step alone.
    expect(hist.undo()).toBe(true);
    scene.activate(a.id);
    expect(scene.addCamera()).toBe(true);
    scene.activate(a.id);
    expect(hist.undo()).toBe(true);
    expect(hist.redo()).toBe(true);
    expect(scene.activeId).not.toBe(a.id);
    expect(last()).toBe('Redid add camera');
    expect(last('ja')).toMatch(/をやり直しました$/);
  });
});

describe('one camera document', () => {
  it('a camera whose adding was undone does not come back beside a new one: + New camera drops its redo', async () => {
    const scene = useSceneStore();
    const hist = useHistoryStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    expect(await scene.addDocument('/s/camera.vmd')).toBe(true);
    expect(hist.undo()).toBe(true);
    expect(redoText()).toBe('add camera (camera.vmd)');
    expect(scene.addCamera()).toBe(true);
    expect(hist.undoLabel).toBe('add camera');
    expect(hist.canRedo).toBe(false);
    expect(scene.entries.filter((e) => e.kind === 'camera')).toHaveLength(1);
  });
});
