// The rows of the track list and the timeline in a scene (issue 13, timeline-rows.ts): the actor's groups
// then the group "Camera" with the camera document's camera and light rows, each row naming the document
// its keys come from; the same rows (ids, indices, key counts) whichever of the two is active; a row to add
// a camera document when the scene has none; an actor motion's own camera keys under their own ids. Then
// through the stores: the rows follow an edit of the camera document at once, the keys a row's hit test
// and drawing read are its own document's, and undo of a camera edit made from the actor's view goes back
// to the camera document and restores its bytes, the actor's untouched.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { nextTick } from 'vue';
import { buildTracks, readVmd, writeVmd, type VmdDocument } from '../../../shared/vmd';
import { setApi } from '../../../renderer/src/api';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { useEditorActions } from '../../../renderer/src/editor/use-editor-actions';
import { buildRows, buildSceneRows, CAMERA_GROUP, isOwnRow, NO_DOC, rowTracks, type Row } from '../../../renderer/src/editor/timeline-rows';
import { createTimelineView } from '../../../renderer/src/editor/timeline-view';
import { buildFixture, SJIS } from '../../helpers/vmd-fixtures';
import { cameraVmd, dance, memoryApi } from '../stores/scene-fixtures';

function parse(bytes: Uint8Array): VmdDocument {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** A row as [type, id, doc, keys or count]: what the lists show, from which document. */
const brief = (rows: readonly Row[]) => rows.map((r) => [r.type, r.id, r.doc, r.type === 'group' ? r.count : r.keys]);

const DANCE = buildTracks(parse(dance(10)));
const CAMERA = buildTracks(parse(cameraVmd()));

/**
 * A fresh store set over an in-memory file system holding a dance (/s/a.vmd) and `camera` as
 * /s/cam/camera.vmd; `open()` opens the dance, adds the camera document and shows the actor.
 */
function twoDocScene(camera: () => Uint8Array) {
  let files = new Map<string, Uint8Array>();
  beforeEach(() => {
    setActivePinia(createPinia());
    files = new Map([
      ['/s/a.vmd', dance(10)],
      ['/s/cam/camera.vmd', camera()],
    ]);
    setApi(memoryApi(files).api);
  });
  return {
    files: () => files,
    async open() {
      const doc = useWorkspaceStore();
      const scene = useSceneStore();
      await useSceneStore().openPath('/s/a.vmd');
      expect(await scene.addDocument('/s/cam/camera.vmd')).toBe(true);
      const [actor, cam] = scene.entries;
      scene.activate(actor.id);
      return { doc, scene, actor, cam };
    },
  };
}

describe('scene rows (pure)', () => {
  it('the actor’s groups, then Camera with the camera document’s camera and light rows, each naming its document', () => {
    const rows = buildSceneRows({ actor: { doc: 1, tracks: DANCE }, camera: { doc: 2, tracks: CAMERA } }, new Set());
    // dance(): センター at 0, 10, 20 (3 keys) and no IK keys; cameraVmd(): camera keys at 0, 15, 40, no light.
    expect(brief(rows)).toEqual([
      ['group', 'ik', 1, 0],
      ['track', 'ik', 1, 0],
      ['group', 'bone:center', 1, 3],
      ['track', 'bone:0', 1, 3],
      ['group', CAMERA_GROUP, 2, 3],
      ['track', 'camera', 2, 3],
      ['track', 'light', 2, 0],
      ['track', 'shadow', 2, 0],
    ]);
    expect(rows[4]).toMatchObject({ label: 'editor.group.camera', members: [{ kind: 'camera', track: 0 }, { kind: 'light', track: 0 }, { kind: 'shadow', track: 0 }] });
    // The actor's rows are exactly its own document's rows (buildRows), tagged with its id.
    expect(rows.slice(0, 4).map(({ doc: _d, ...r }) => r)).toEqual(buildRows(DANCE, new Set()));
  });

  it('folds the camera group like any other: its row alone, summarising both tracks', () => {
    const rows = buildSceneRows({ actor: { doc: 1, tracks: DANCE }, camera: { doc: 2, tracks: CAMERA } }, new Set([CAMERA_GROUP, 'bone:center']));
    expect(brief(rows)).toEqual([
      ['group', 'ik', 1, 0],
      ['track', 'ik', 1, 0],
      ['group', 'bone:center', 1, 3],
      ['group', CAMERA_GROUP, 2, 3],
    ]);
    expect(rows[3]).toMatchObject({ collapsed: true });
  });

  it('with no camera document the group holds one row that adds it, of no document', () => {
    const rows = buildSceneRows({ actor: { doc: 1, tracks: DANCE }, camera: null }, new Set());
    expect(brief(rows.slice(-2))).toEqual([
      ['group', CAMERA_GROUP, NO_DOC, 0],
      ['track', 'camera-add', NO_DOC, 0],
    ]);
    expect(rows[rows.length - 1]).toMatchObject({ add: 'camera', name: 'scene.addCamera' });
    expect(rowTracks(rows[rows.length - 1], 1, DANCE, new Map([[1, DANCE]]))).toBeNull();
    // A camera-only scene: the camera group alone.
    expect(brief(buildSceneRows({ actor: null, camera: { doc: 5, tracks: CAMERA } }, new Set()))).toEqual([
      ['group', CAMERA_GROUP, 5, 3],
      ['track', 'camera', 5, 3],
      ['track', 'light', 5, 0],
      ['track', 'shadow', 5, 0],
    ]);
  });

  it('an actor motion’s own camera and light keys keep their rows under actor-camera / actor-light, folded on their own', () => {
    const both = buildTracks(parse(buildFixture({
      bones: [{ name: SJIS.センター, frame: 0 }],
      cameras: [{ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }, { frame: 9, distance: -40, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }],
    })));
    const rows = buildSceneRows({ actor: { doc: 1, tracks: both }, camera: { doc: 2, tracks: CAMERA } }, new Set([CAMERA_GROUP]));
    expect(brief(rows).slice(-3)).toEqual([
      ['group', 'actor-camera', 1, 2],
      ['track', 'actor-camera', 1, 2],
      ['group', CAMERA_GROUP, 2, 3],
    ]);
    expect(new Set(rows.map((r) => r.type + r.id)).size).toBe(rows.length);
    const folded = buildSceneRows({ actor: { doc: 1, tracks: both }, camera: { doc: 2, tracks: CAMERA } }, new Set(['actor-camera']));
    expect(brief(folded).slice(-5)).toEqual([
      ['group', 'actor-camera', 1, 2],
      ['group', CAMERA_GROUP, 2, 3],
      ['track', 'camera', 2, 3],
      ['track', 'light', 2, 0],
      ['track', 'shadow', 2, 0],
    ]);
  });

  it('a row’s keys come from its own document: the editor’s tracks for the active one, the kept ones for the other', () => {
    const rows = buildSceneRows({ actor: { doc: 1, tracks: DANCE }, camera: { doc: 2, tracks: CAMERA } }, new Set());
    const cam = rows.find((r) => r.id === 'camera' && r.type === 'track')!;
    const bone = rows.find((r) => r.id === 'bone:0')!;
    // Actor active: the bone row is its own, the camera row the kept camera document's.
    expect(isOwnRow(bone, 1)).toBe(true);
    expect(isOwnRow(cam, 1)).toBe(false);
    expect(rowTracks(bone, 1, DANCE, new Map([[2, CAMERA]]))).toBe(DANCE);
    expect(rowTracks(cam, 1, DANCE, new Map([[2, CAMERA]]))).toBe(CAMERA);
    // Camera active: the other way round.
    expect(rowTracks(cam, 2, CAMERA, new Map([[1, DANCE]]))).toBe(CAMERA);
    expect(rowTracks(bone, 2, CAMERA, new Map([[1, DANCE]]))).toBe(DANCE);
    // A row with no document named (a lone document outside a scene) is the active one's.
    expect(isOwnRow(buildRows(DANCE, new Set())[0], 7)).toBe(true);
  });
});

describe('scene rows through the stores', () => {
  const two = twoDocScene(cameraVmd);
  const scene2 = two.open;

  it('shows the same rows with the actor or the camera document active, each from its document; an edit shows at once', async () => {
    const { doc, scene, actor, cam } = await scene2();
    const tv = createTimelineView();
    const withActor = brief(tv.rows.value);
    expect(withActor.slice(-4)).toEqual([
      ['group', CAMERA_GROUP, cam.id, 3],
      ['track', 'camera', cam.id, 3],
      ['track', 'light', cam.id, 0],
      ['track', 'shadow', cam.id, 0],
    ]);
    expect(tv.activeDoc.value).toBe(actor.id);
    expect([...tv.others.value!.keys()]).toEqual([cam.id]);
    expect(tv.ownRows.value.every((r) => r.doc === actor.id)).toBe(true);
    // Range select and reveal see only the active document's groups.
    expect(tv.ownRows.value.some((r) => r.id === CAMERA_GROUP)).toBe(false);

    scene.activate(cam.id);
    expect(doc.fileName).toBe('camera.vmd');
    expect(brief(tv.rows.value)).toEqual(withActor);
    expect(tv.activeDoc.value).toBe(cam.id);
    expect([...tv.others.value!.keys()]).toEqual([actor.id]);
    // The actor's rows read the kept actor document: its センター track holds frames 0, 10, 20.
    const bone = tv.rows.value.find((r) => r.id === 'bone:0')!;
    expect([...rowTracks(bone, tv.activeDoc.value, doc.tracks, tv.others.value)!.bones.frames]).toEqual([0, 10, 20]);

    // A key inserted on the camera row at frame 25: the camera group counts it at once.
    useSelectionStore().setActiveTrack({ kind: 'camera', track: 0 });
    useTimeStore().seek(25);
    expect(useEditorActions().insertKeyAtCursor()).toBe(true);
    expect(brief(tv.rows.value).slice(-4)).toEqual([
      ['group', CAMERA_GROUP, cam.id, 4],
      ['track', 'camera', cam.id, 4],
      ['track', 'light', cam.id, 0],
      ['track', 'shadow', cam.id, 0],
    ]);
    // Back on the actor: the camera row still shows the edited document (its kept snapshot).
    scene.activate(actor.id);
    const camRow = tv.rows.value.find((r) => r.type === 'track' && r.id === 'camera')!;
    expect([...rowTracks(camRow, tv.activeDoc.value, doc.tracks, tv.others.value)!.camera.frames]).toEqual([0, 15, 25, 40]);
  });

  it('a camera key moved from the actor’s view: undo from the actor goes back to the camera document and restores it', async () => {
    const { doc, scene, actor, cam } = await scene2();
    // What a press on the camera row's key does (Timeline.vue): the camera document made active, the key selected.
    expect(scene.activate(cam.id)).toBe(true);
    const sel = useSelectionStore();
    const rec = doc.tracks!.camera.record[1]; // the key at frame 15
    sel.select([{ kind: 'camera', record: rec }]);
    expect(useEditorActions().moveSelected(3)).toBe(true);
    expect([...doc.tracks!.camera.frames]).toEqual([0, 18, 40]);
    expect(useHistoryStore().undoDoc).toBe('camera.vmd');
    // Back to the actor (a click on its rows), then undo: the step is the camera document's.
    scene.activate(actor.id);
    expect(useHistoryStore().undo()).toBe(true);
    expect(scene.activeId).toBe(cam.id);
    expect(writeVmd(doc.doc!)).toEqual(two.files().get('/s/cam/camera.vmd'));
    expect(doc.dirty).toBe(false);
    expect(useWorkspaceStore().get(actor.id)!.dirty).toBe(false);
    expect(writeVmd(useWorkspaceStore().get(actor.id)!.doc)).toEqual(two.files().get('/s/a.vmd'));
  });

  it('a scene with no camera document: the add row makes an empty one, active, with camera and light rows', async () => {
    const doc = useWorkspaceStore();
    const scene = useSceneStore();
    await useSceneStore().openPath('/s/a.vmd');
    const tv = createTimelineView();
    expect(tv.rows.value[tv.rows.value.length - 1]).toMatchObject({ id: 'camera-add', doc: NO_DOC });
    expect(scene.addCamera()).toBe(true);
    expect(scene.entries.map((e) => e.kind)).toEqual(['actor', 'camera']);
    const cam = scene.cameraEntry!;
    expect(scene.activeId).toBe(cam.id);
    expect(brief(tv.rows.value).slice(-4)).toEqual([
      ['group', CAMERA_GROUP, cam.id, 0],
      ['track', 'camera', cam.id, 0],
      ['track', 'light', cam.id, 0],
      ['track', 'shadow', cam.id, 0],
    ]);
    // The actor's rows stay above it; a second add only shows the existing camera document.
    expect(tv.rows.value[0].doc).toBe(scene.actors[0].id);
    scene.activate(scene.actors[0].id);
    expect(scene.addCamera()).toBe(false);
    expect(scene.activeId).toBe(cam.id);
    expect(scene.entries).toHaveLength(2);
  });

  it('a switch that leaves none of the new document’s rows in view scrolls to them; one with them in view moves nothing', async () => {
    const { scene, actor, cam } = await scene2();
    const tv = createTimelineView();
    // 8 rows (the actor's ik group and row, center group and row; Camera, camera, light, self-shadow), 2 in view.
    expect(tv.rows.value).toHaveLength(8);
    tv.view.height = 26 + 44;
    tv.view.scrollY = 0;
    scene.activate(cam.id);
    await nextTick();
    // The camera group (row 4) to the top: 88 px, within the most the rows scroll (8·22 − 44 = 132).
    expect(tv.view.scrollY).toBe(88);
    scene.activate(actor.id);
    await nextTick();
    expect(tv.view.scrollY).toBe(0);
    // Rows 3 (the actor's センター) and 4 (Camera) in view: the camera's switch keeps the scroll (a press there).
    tv.view.scrollY = 66;
    scene.activate(cam.id);
    await nextTick();
    expect(tv.view.scrollY).toBe(66);
  });

  it('paste puts camera keys in the camera document and model keys in the actor, whichever is shown', async () => {
    const { doc, scene, actor, cam } = await scene2();
    const actions = useEditorActions();
    const sel = useSelectionStore();
    scene.activate(cam.id);
    sel.select([{ kind: 'camera', record: doc.tracks!.camera.record[1] }]); // the key at 15
    expect(actions.copySelectedKeys()).toBe(true);
    // Shown: the actor (a click on its rows). Paste at 30 (the scene runs to 40): into the camera document, made active.
    scene.activate(actor.id);
    useTimeStore().seek(30);
    expect(useTimeStore().frame).toBe(30);
    expect(actions.pasteKeysAtCursor()).toBe(true);
    expect(scene.activeId).toBe(cam.id);
    expect([...doc.tracks!.camera.frames]).toEqual([0, 15, 30, 40]);
    expect(writeVmd(useWorkspaceStore().get(actor.id)!.doc)).toEqual(two.files().get('/s/a.vmd'));
    // A bone key copied on the actor, pasted while the camera document is shown: into the actor.
    scene.activate(actor.id);
    sel.select([{ kind: 'bone', record: 0 }]);
    expect(actions.copySelectedKeys()).toBe(true);
    scene.activate(cam.id);
    useTimeStore().seek(25);
    expect(actions.pasteKeysAtCursor()).toBe(true);
    expect(scene.activeId).toBe(actor.id);
    expect([...doc.tracks!.bones.frames]).toEqual([0, 10, 20, 25]);
    expect(useWorkspaceStore().get(cam.id)!.tracks.camera.frames.length).toBe(4);
  });
});

describe('the self-shadow row (issue 13)', () => {
  // A camera file with two self-shadow keys (mode 1 at frame 5, mode 2 at frame 30), written field by field.
  const SHADOW_CAM = buildFixture({
    cameras: [{ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }, { frame: 40, distance: -40, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }],
    shadows: [{ frame: 30, mode: 2, distance: 0.05 }, { frame: 5, mode: 1, distance: 0.01125 }],
  });
  /** Byte offset of shadow record i in SHADOW_CAM: header 50, five counts, two 61-byte camera records. */
  const shadowAt = (i: number) => 50 + 4 + 4 + 4 + 2 * 61 + 4 + 4 + 9 * i;

  it('sits after Light in the Camera group, its keys from the camera document', () => {
    const cam = buildTracks(parse(SHADOW_CAM));
    const rows = buildSceneRows({ actor: { doc: 1, tracks: DANCE }, camera: { doc: 2, tracks: cam } }, new Set());
    expect(brief(rows).slice(-4)).toEqual([
      ['group', CAMERA_GROUP, 2, 4],
      ['track', 'camera', 2, 2],
      ['track', 'light', 2, 0],
      ['track', 'shadow', 2, 2],
    ]);
    const row = rows[rows.length - 1];
    expect(row).toMatchObject({ kind: 'shadow', track: 0, name: 'editor.track.shadow', group: CAMERA_GROUP });
    expect(rowTracks(row, 1, DANCE, new Map([[2, cam]]))!.shadow.frames).toEqual(new Uint32Array([5, 30]));
    // Folded: the group's summary covers the self-shadow track too.
    const folded = buildSceneRows({ actor: null, camera: { doc: 2, tracks: cam } }, new Set([CAMERA_GROUP]));
    expect(folded).toHaveLength(1);
    expect(folded[0]).toMatchObject({ type: 'group', count: 4, members: [{ kind: 'camera' }, { kind: 'light' }, { kind: 'shadow' }] });
  });

  it('an actor motion’s own self-shadow keys keep a row under actor-shadow', () => {
    const own = buildTracks(parse(buildFixture({ bones: [{ name: SJIS.センター, frame: 0 }], shadows: [{ frame: 3, mode: 1, distance: 0.02 }] })));
    const rows = buildSceneRows({ actor: { doc: 1, tracks: own }, camera: { doc: 2, tracks: CAMERA } }, new Set(['actor-shadow']));
    const ids = brief(rows).map((r) => r.slice(0, 3).join(' '));
    expect(ids).toContain('group actor-shadow 1');
    expect(ids).not.toContain('track actor-shadow 1'); // folded under its scene id
    expect(ids.slice(-1)).toEqual(['track shadow 2']);
    expect(new Set(rows.map((r) => r.type + r.id)).size).toBe(rows.length);
  });

  describe('through the stores', () => {
    const two = twoDocScene(() => SHADOW_CAM);
    const scene2 = two.open;

    it('move, value edit and delete of a self-shadow key are one undo step each, bytes back exactly', async () => {
      const { doc, scene, cam } = await scene2();
      const hist = useHistoryStore();
      const actions = useEditorActions();
      scene.activate(cam.id);
      const sel = useSelectionStore();
      sel.select([{ kind: 'shadow', record: 1 }]); // the key at frame 5 (second in the file)
      expect(actions.moveSelected(2)).toBe(true);
      let bytes = writeVmd(doc.doc!);
      // Only the frame field of that record changed.
      const diff = [...bytes.keys()].filter((i) => bytes[i] !== SHADOW_CAM[i]);
      expect(diff.every((i) => i >= shadowAt(1) && i < shadowAt(1) + 4)).toBe(true);
      expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(shadowAt(1), true)).toBe(7);
      expect([...doc.tracks!.shadow.frames]).toEqual([7, 30]);

      expect(actions.editSelected({ shadowMode: 0 })).toBe(true);
      bytes = writeVmd(doc.doc!);
      expect(bytes[shadowAt(1) + 4]).toBe(0);
      expect(hist.undo()).toBe(true);
      expect(writeVmd(doc.doc!)[shadowAt(1) + 4]).toBe(1);
      expect(hist.undo()).toBe(true);
      expect(writeVmd(doc.doc!)).toEqual(SHADOW_CAM);

      sel.select([{ kind: 'shadow', record: 0 }]);
      expect(actions.deleteSelected()).toBe(true);
      expect([...doc.tracks!.shadow.frames]).toEqual([5]);
      expect(writeVmd(doc.doc!).length).toBe(SHADOW_CAM.length - 9);
      expect(hist.undo()).toBe(true);
      expect(writeVmd(doc.doc!)).toEqual(SHADOW_CAM);
    });

    it('insert on the self-shadow row takes the key in force; copied self-shadow keys paste into the camera document', async () => {
      const { doc, scene, actor, cam } = await scene2();
      const actions = useEditorActions();
      const sel = useSelectionStore();
      scene.activate(cam.id);
      sel.setActiveTrack({ kind: 'shadow', track: 0 });
      useTimeStore().seek(12);
      expect(actions.insertKeyAtCursor()).toBe(true);
      expect([...doc.tracks!.shadow.frames]).toEqual([5, 12, 30]);
      const added = sel.active!;
      expect(added.kind).toBe('shadow');
      const b = writeVmd(doc.doc!);
      // Appended as the third record (the IK count follows it): frame 12, mode 1 and distance of the key at 5.
      const v = new DataView(b.buffer, b.byteOffset);
      expect([v.getUint32(shadowAt(2), true), b[shadowAt(2) + 4], v.getFloat32(shadowAt(2) + 5, true)]).toEqual([12, 1, Math.fround(0.01125)]);
      // Copy it, show the actor, paste at 20: the key goes into the camera document, made active.
      expect(actions.copySelectedKeys()).toBe(true);
      scene.activate(actor.id);
      useTimeStore().seek(20);
      expect(actions.pasteKeysAtCursor()).toBe(true);
      expect(scene.activeId).toBe(cam.id);
      expect([...doc.tracks!.shadow.frames]).toEqual([5, 12, 20, 30]);
      expect(writeVmd(useWorkspaceStore().get(actor.id)!.doc)).toEqual(two.files().get('/s/a.vmd'));
    });
  });
});
