// The scene's documents in the renderer (issue 13): the workspace keeps every document the editor can
// show, each with its bytes and dirty mark; one undo history across the scene with
// each step naming its document; Save All; the window title; a scene file with two actors and a camera
// written and reopened, a missing file named while the rest opens.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { nextTick } from 'vue';
import { writeVmd, CAMERA } from '../../../shared/vmd';
import { parseScene } from '../../../shared/scene/scene-file';
import { setApi } from '../../../renderer/src/api';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useCurveEditorStore } from '../../../renderer/src/stores/curve-editor';
import { useEditorActions } from '../../../renderer/src/editor/use-editor-actions';
import { memoryApi, dance, cameraVmd } from './scene-fixtures';

const live = () => writeVmd(useWorkspaceStore().doc!);

/** Sets the active key's X curve (bone) or the first channel (camera) to a fixed shape: one undo step. */
function editCurve(kind: 'bone' | 'camera', record: number) {
  useSelectionStore().select([{ kind, record }]);
  useCurveEditorStore().setChannel(0);
  expect(useEditorActions().setCurve([100, 30, 107, 107])).toBe(true);
}

describe('scene store', () => {
  let files: Map<string, Uint8Array>;
  let fake: ReturnType<typeof memoryApi>;
  beforeEach(() => {
    setActivePinia(createPinia());
    files = new Map([
      ['/s/a.vmd', dance(10)],
      ['/s/b.vmd', dance(20)],
      ['/s/cam/camera.vmd', cameraVmd()],
    ]);
    fake = memoryApi(files);
    setApi(fake.api);
  });

  it('a lone motion opens as a one-actor scene, a camera VMD as the camera document, and the title is as before', async () => {
    const scene = useSceneStore();
    expect(await useSceneStore().openPath('/s/a.vmd')).toBe(true);
    expect(scene.entries.map((e) => e.kind)).toEqual(['actor']);
    expect(scene.active?.fileName).toBe('a.vmd');
    expect(document.title).toBe('a.vmd — VMD Studio');
    expect(await useSceneStore().openPath('/s/cam/camera.vmd')).toBe(true);
    expect(scene.entries.map((e) => e.kind)).toEqual(['camera']);
    expect(scene.actors).toHaveLength(0);
  });

  it('tells main when the active document is a camera motion (the native menu turns its exports off), and when not', async () => {
    const scene = useSceneStore();
    const sent = () => fake.calls.filter((c) => c.name === 'setDocumentState').at(-1)?.args[0] as Record<string, unknown>;
    await scene.openPath('/s/cam/camera.vmd');
    expect(sent()).toMatchObject({ name: 'camera.vmd', stageMotion: 'camera' });
    await scene.openPath('/s/a.vmd');
    expect(sent()).toMatchObject({ name: 'a.vmd' });
    expect(sent()).not.toHaveProperty('stageMotion');
    // In a scene: the camera document active says so; an actor's does not.
    await scene.addDocument('/s/cam/camera.vmd');
    const [a, cam] = scene.entries;
    scene.activate(cam.id);
    expect(sent()).toMatchObject({ name: 'camera.vmd', scene: 'Untitled scene', stageMotion: 'camera' });
    scene.activate(a.id);
    expect(sent()).toMatchObject({ name: 'a.vmd' });
    expect(sent()).not.toHaveProperty('stageMotion');
  });

  it('switching documents keeps each one’s bytes and dirty mark; the title names the scene and says unsaved', async () => {
    const scene = useSceneStore();
    const doc = useWorkspaceStore();
    await useSceneStore().openPath('/s/a.vmd');
    expect(await scene.addDocument('/s/b.vmd')).toBe(true);
    expect(await scene.addDocument('/s/cam/camera.vmd')).toBe(true);
    expect(scene.entries.map((e) => [e.kind, e.fileName])).toEqual([
      ['actor', 'a.vmd'],
      ['actor', 'b.vmd'],
      ['camera', 'camera.vmd'],
    ]);
    const [a, b, cam] = scene.entries;
    expect(scene.activeId).toBe(cam.id);
    expect(doc.fileName).toBe('camera.vmd');
    // Two actors and a camera with no scene file: the arrangement is unsaved (kept nowhere yet).
    expect(document.title).toBe('Untitled scene * — camera.vmd — VMD Studio');

    scene.activate(a.id);
    expect(live()).toEqual(files.get('/s/a.vmd'));
    editCurve('bone', 1);
    const aEdited = live();
    expect(aEdited).not.toEqual(files.get('/s/a.vmd'));
    expect(doc.dirty).toBe(true);

    scene.activate(b.id);
    expect(live()).toEqual(files.get('/s/b.vmd'));
    expect(doc.dirty).toBe(false);
    expect(document.title).toBe('Untitled scene * — b.vmd — VMD Studio'); // another document is unsaved: the * on the scene, none after b.vmd
    // Main is told which: its close prompt names them.
    expect(fake.calls.filter((c) => c.name === 'setDocumentState').at(-1)?.args[0]).toEqual({ path: '/s/b.vmd', name: 'b.vmd', dirty: true, unsaved: ['a.vmd', 'Untitled scene'], scene: 'Untitled scene', nameDirty: false });
    expect(scene.stateOf(a).dirty).toBe(true);
    expect(writeVmd(useWorkspaceStore().get(a.id)!.doc)).toEqual(aEdited);

    scene.activate(a.id);
    expect(live()).toEqual(aEdited);
    expect(doc.dirty).toBe(true);
    expect(doc.path).toBe('/s/a.vmd');
    // The time line covers the longest document (the camera's last key at 40).
    expect(scene.sceneLastFrame()).toBe(40);
  });

  it('one history across the scene: each step names its document; undo goes back to that document and its saved state', async () => {
    const scene = useSceneStore();
    const doc = useWorkspaceStore();
    const hist = useHistoryStore();
    await useSceneStore().openPath('/s/a.vmd');
    await scene.addDocument('/s/cam/camera.vmd');
    const [a, cam] = scene.entries;

    scene.activate(a.id);
    editCurve('bone', 1);
    const aEdited = live();
    scene.activate(cam.id);
    editCurve('camera', 1);
    const camEdited = live();
    // The camera's adding is a step too (below the two edits).
    expect(hist.depth).toBe(3);
    expect(hist.undoDoc).toBe('camera.vmd');

    // Undo the camera step (shown), then the actor's (switches to it).
    expect(hist.undo()).toBe(true);
    expect(live()).toEqual(files.get('/s/cam/camera.vmd'));
    expect(doc.dirty).toBe(false);
    expect(hist.undoDoc).toBe('a.vmd');
    expect(hist.redoDoc).toBe('camera.vmd');
    expect(hist.undo()).toBe(true);
    expect(scene.activeId).toBe(a.id);
    expect(live()).toEqual(files.get('/s/a.vmd'));
    expect(doc.dirty).toBe(false);
    // Every document is back to its file; the untitled scene itself (an actor and a camera) has none yet.
    expect(scene.unsavedNames).toEqual(['Untitled scene']);

    // Redo both: the camera step goes back to the camera document.
    expect(hist.redo()).toBe(true);
    expect(live()).toEqual(aEdited);
    expect(hist.redo()).toBe(true);
    expect(scene.activeId).toBe(cam.id);
    expect(live()).toEqual(camEdited);
    expect(scene.stateOf(a).dirty).toBe(true);
    expect(doc.dirty).toBe(true);
  });

  it('Save All writes exactly the unsaved documents, each to its own file; undo after it marks only that document dirty', async () => {
    const scene = useSceneStore();
    const doc = useWorkspaceStore();
    const hist = useHistoryStore();
    await useSceneStore().openPath('/s/a.vmd');
    await scene.addDocument('/s/b.vmd');
    await scene.addDocument('/s/cam/camera.vmd');
    const [a, b, cam] = scene.entries;
    scene.activate(a.id);
    editCurve('bone', 1);
    const aEdited = live();
    scene.activate(cam.id);
    editCurve('camera', 2);
    const camEdited = live();
    scene.activate(b.id);
    const bBefore = files.get('/s/b.vmd');

    const r = await scene.saveAll();
    expect(r).toEqual({ ok: true, needsName: [] });
    const saved = fake.calls.filter((c) => c.name === 'saveFile').map((c) => c.args[0]);
    expect(saved.sort()).toEqual(['/s/a.vmd', '/s/cam/camera.vmd']);
    expect(files.get('/s/a.vmd')).toEqual(aEdited);
    expect(files.get('/s/cam/camera.vmd')).toEqual(camEdited);
    expect(files.get('/s/b.vmd')).toBe(bBefore);
    // Every document is written; the untitled scene has no file to write (the window's Save All asks its name:
    // scene-loss.test.ts), so it alone stays unsaved.
    expect(scene.unsavedNames).toEqual(['Untitled scene']);
    // Only the 24 interpolation bytes of camera key 2 differ from the original camera file.
    const orig = cameraVmd();
    const diffAt: number[] = [];
    camEdited.forEach((v, i) => v !== orig[i] && diffAt.push(i));
    const key2 = 30 + 20 + 4 + 4 + 4 + 2 * CAMERA.SIZE; // header, model name, empty bone and morph counts, camera count, records 0 and 1
    expect(diffAt.length).toBeGreaterThan(0);
    expect(diffAt.every((i) => i >= key2 + CAMERA.INTERPOLATION && i < key2 + CAMERA.INTERPOLATION + 24)).toBe(true);

    expect(hist.undo()).toBe(true); // the camera's step: back to the camera document, now unsaved again
    expect(scene.activeId).toBe(cam.id);
    expect(doc.dirty).toBe(true);
    expect(scene.stateOf(a).dirty).toBe(false);
    expect(scene.stateOf(b).dirty).toBe(false);
  });

  it('making an actor on the built-in figure active asks the preview for the figure; a model actor asks for its model', async () => {
    files.set('/s/m.pmx', new Uint8Array([1]));
    files.set(
      '/s/mixed.vmdscene',
      new TextEncoder().encode(JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: 'm.pmx', motion: 'a.vmd' }, { model: null, motion: 'b.vmd' }], activeActor: 0 })),
    );
    const scene = useSceneStore();
    const preview = usePreviewStore();
    expect(await useSceneStore().openPath('/s/mixed.vmdscene')).toBe(true);
    expect(preview.modelRequest).toEqual({ path: '/s/m.pmx' });
    // The pane loads it (what PreviewPane does with the request).
    preview.modelRequest = null;
    preview.setModel({ name: 'M', path: '/s/m.pmx', format: 'pmx', bones: 1, morphs: 0, vertices: 1, rigidBodies: 0, notes: [] });
    const [a, b] = scene.actors;
    expect(scene.activate(b.id)).toBe(true);
    expect(preview.modelRequest).toEqual({ figure: true });
    preview.modelRequest = null;
    preview.setModel(null);
    expect(scene.activate(a.id)).toBe(true);
    expect(preview.modelRequest).toEqual({ path: '/s/m.pmx' });
    // The figure actor keeps its figure, the model actor its model.
    expect(scene.actors.map((x) => x.model)).toEqual(['/s/m.pmx', null]);
    // The pane loads the model; then "use the figure" in the preview puts the active actor on the figure.
    preview.setModel({ name: 'M', path: '/s/m.pmx', format: 'pmx', bones: 1, morphs: 0, vertices: 1, rigidBodies: 0, notes: [] });
    await nextTick();
    preview.setModel(null);
    await nextTick();
    expect(scene.actors.map((x) => x.model)).toEqual([null, null]);
  });

  it('saves a scene of two actors and a camera with relative paths and reopens it the same; a missing file is named and the rest opens', async () => {
    const scene = useSceneStore();
    const doc = useWorkspaceStore();
    await useSceneStore().openPath('/s/a.vmd');
    await scene.addDocument('/s/b.vmd');
    await scene.addDocument('/s/cam/camera.vmd');
    const [, b] = scene.entries;
    scene.setHidden(b.id, true);
    scene.activate(b.id);
    expect(await scene.saveTo('/s/duet.vmdscene', false)).toBe(true);
    const text = new TextDecoder().decode(files.get('/s/duet.vmdscene'));
    const json = JSON.parse(text);
    expect(json.actors.map((x: { motion: string; hidden: boolean }) => [x.motion, x.hidden])).toEqual([
      ['a.vmd', false],
      ['b.vmd', true],
    ]);
    expect(json.camera).toBe('cam/camera.vmd');
    expect(json.activeActor).toBe(1);
    expect(document.title).toBe('duet.vmdscene — b.vmd — VMD Studio');

    // Reopen in a fresh window.
    setActivePinia(createPinia());
    setApi(fake.api);
    const s2 = useSceneStore();
    expect(await useSceneStore().openPath('/s/duet.vmdscene')).toBe(true);
    expect(s2.entries.map((e) => [e.kind, e.path, e.hidden])).toEqual([
      ['actor', '/s/a.vmd', false],
      ['actor', '/s/b.vmd', true],
      ['camera', '/s/cam/camera.vmd', false],
    ]);
    expect(s2.active?.fileName).toBe('b.vmd');
    for (const e of s2.entries) expect(writeVmd(useWorkspaceStore().get(e.id)!.doc)).toEqual(files.get(e.path!));
    const round = parseScene(new TextEncoder().encode(text), '/s/duet.vmdscene');
    expect(round.ok && s2.current().actors).toEqual(round.ok && round.value.actors);

    // The first actor's motion is gone: named in a warning; the other actor and the camera open.
    files.delete('/s/a.vmd');
    setActivePinia(createPinia());
    setApi(fake.api);
    const s3 = useSceneStore();
    expect(await useSceneStore().openPath('/s/duet.vmdscene')).toBe(true);
    const warn = useNotifyStore().items.find((n) => n.kind === 'warning');
    expect(warn && noticeLines(warn, 'en').message).toContain('a.vmd');
    expect(warn && noticeLines(warn, 'en').message).toContain('actor 1 motion');
    // The actor whose motion is missing has a new empty one; the scene still names the missing file.
    expect(s3.entries.map((e) => [e.kind, useWorkspaceStore().get(e.id)!.info.counts.bone])).toEqual([
      ['actor', 0],
      ['actor', 3],
      ['camera', 0],
    ]);
    expect(writeVmd(useWorkspaceStore().get(s3.entries[2].id)!.doc)).toEqual(files.get('/s/cam/camera.vmd'));
    expect(writeVmd(useWorkspaceStore().doc!)).toEqual(files.get('/s/b.vmd'));
    expect(s3.current().actors.map((x) => x.motion)).toEqual(['/s/a.vmd', '/s/b.vmd']);
  });
});
