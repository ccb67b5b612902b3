// The model's bones on the timeline (new-user pass nuscratch, finding 3: after New on Gene the timeline had only
// "Display · IK" and "Camera", no bone rows, so 右腕 could not be clicked there as in MMD's frame window). A motion shown
// on a model lists the model's display-frame bones: those without keys as rows with no track (add: 'bone', keys 0) in
// their groups, which picking (a click) marks for Enter. Any model motion does, whatever model its header names (fix
// job fixrows: a dance made for 初音ミク shown on Gene listed none of Gene's unkeyed bones, so 左目 had to be picked in the
// preview); a camera/light-only motion, a pose, and a model's bones outside every display frame add none. In a scene the
// actor gets them only while the preview shows its own model. Keys, counts and group members are as before.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { blockFromRecords, buildTracks, buildVmd, emptyCameraVmd, encodeCameraRecord, encodeLightRecord, withBlocks, writeVmd } from '../../../shared/vmd';
import { buildRows, displayFrameBones, modelRowBones, type Row } from '../../../renderer/src/editor/timeline-rows';
import { documentContent } from '../../../renderer/src/stores/workspace';
import { createTimelineView } from '../../../renderer/src/editor/timeline-view';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { setQuietApi } from '../../helpers/quiet-api';

setQuietApi();

const brief = (rows: readonly Row[]) => rows.map((r) => (r.type === 'group' ? ['group', r.id, r.count, r.members.length] : [r.id, r.track, r.keys, r.add ?? '']));

describe('the model’s bones on the timeline', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('buildRows: the bones without keys get rows with no track in their groups; the keyed ones stay as they were', () => {
    const d = buildVmd({ bones: [{ name: '左腕', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }] });
    const tracks = buildTracks(d);
    const rows = buildRows(tracks, new Set(), { modelBones: ['センター', '左腕', '右腕'] });
    expect(brief(rows)).toEqual([
      ['group', 'ik', 0, 1],
      ['ik', 0, 0, ''],
      ['group', 'bone:center', 0, 0],
      ['bone-model:センター', -1, 0, 'bone'],
      ['group', 'bone:arms', 1, 1],
      ['bone:0', 0, 1, ''],
      ['bone-model:右腕', -1, 0, 'bone'],
    ]);
    // Without the model's bones, as before; a pose gets none.
    expect(brief(buildRows(tracks, new Set())).map((r) => r[0] === 'group' ? r[1] : r[0])).toEqual(['ik', 'ik', 'bone:arms', 'bone:0']);
    expect(buildRows(tracks, new Set(), { pose: true, modelBones: ['右腕'] }).some((r) => r.type === 'track' && r.add)).toBe(false);
  });

  const gene = () => {
    const preview = usePreviewStore();
    preview.setModel({ name: 'ジェネ / Gene', path: '/m/Gene_light.pmx', format: 'pmx', bones: 4, morphs: 0, vertices: 0, rigidBodies: 0, notes: [] });
    preview.setOutline({ groups: [{ name: 'センター', bones: ['センター'] }, { name: '腕', bones: ['右腕', '左腕'] }, { name: '目', bones: ['左目'] }, { name: '', bones: ['右腕捩1'] }], morphs: [], physicsBones: [] });
    return preview;
  };
  const unkeyedOf = (tv: ReturnType<typeof createTimelineView>) => () =>
    tv.rows.value.filter((r) => r.type === 'track' && r.add === 'bone').map((r) => (r.type === 'track' ? r.name : '')).sort();

  it('a new motion lists the shown model’s display-frame bones whatever model its header names', () => {
    gene();
    useSceneStore().newMotion('New motion.vmd', 'ジェネ / Gene');
    const unkeyed = unkeyedOf(createTimelineView());
    expect(unkeyed()).toEqual(['センター', '右腕', '左腕', '左目'].sort());
    // Made for another model (before: no rows), as MMD's frame window lists the loaded model's bones.
    useSceneStore().newMotion('New motion.vmd', '初音ミク');
    expect(unkeyed()).toEqual(['センター', '右腕', '左腕', '左目'].sort());
  });

  it('a dance made for 初音ミク shown on Gene: Gene’s unkeyed display-frame bones get rows beside its keyed tracks', () => {
    gene();
    const dance = buildVmd({
      model: '初音ミク',
      bones: [
        { name: '左腕', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
        // A bone Gene lacks keeps its row (a keyed track), as before.
        { name: 'ミクの髪', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      ],
    });
    useSceneStore().openRead(documentContent(dance, { name: 'dance.vmd', path: '/d/dance.vmd' }));
    const tv = createTimelineView();
    expect(unkeyedOf(tv)()).toEqual(['センター', '右腕', '左目'].sort());
    const tracks = tv.rows.value.filter((r) => r.type === 'track' && !r.add && r.kind === 'bone').map((r) => (r.type === 'track' ? [r.name, r.keys] : []));
    expect(tracks.sort()).toEqual([['ミクの髪', 1], ['左腕', 1]].sort());
  });

  it('a camera or light motion lists none of the model’s bones', () => {
    gene();
    const cam = withBlocks(buildVmd({ model: '初音ミク' }), {
      camera: blockFromRecords('camera', [encodeCameraRecord({ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 })]),
    });
    useSceneStore().openBytes('camera.vmd', writeVmd(cam), null);
    const unkeyed = unkeyedOf(createTimelineView());
    expect(unkeyed()).toEqual([]);
    // An empty one with MMD's camera header (a New camera motion) neither.
    useSceneStore().openBytes('new camera.vmd', writeVmd(emptyCameraVmd()), null);
    expect(unkeyed()).toEqual([]);
  });

  it('in a scene, only while the preview shows the actor’s own model', () => {
    const preview = gene();
    useSceneStore().newMotion('New motion.vmd', '初音ミク');
    const unkeyed = unkeyedOf(createTimelineView());
    expect(unkeyed()).toEqual(['センター', '右腕', '左腕', '左目'].sort());
    // The actor is on another model the preview has not shown yet (a switch of actor while it loads, or a model the
    // capture dialog lends the preview): Gene's bones are not the actor's.
    useSceneStore().entries[0].model = '/m/Other.pmx';
    expect(unkeyed()).toEqual([]);
    // Its model in the preview: its bones.
    preview.setModel({ name: 'Other', path: '/m/Other.pmx', format: 'pmx', bones: 1, morphs: 0, vertices: 0, rigidBodies: 0, notes: [] });
    preview.setOutline({ groups: [{ name: '頭', bones: ['頭'] }], morphs: [], physicsBones: [] });
    expect(unkeyed()).toEqual(['頭']);
  });

  it('modelRowBones: any model motion, whatever its header; not a camera/light-only motion nor a pose', () => {
    const frames = displayFrameBones([{ name: 'センター', bones: ['センター'] }, { name: '', bones: ['右腕捩1'] }, { name: '目', bones: ['左目'] }]);
    expect(frames).toEqual(['センター', '左目']);
    const key = { name: '左腕', frame: 0, position: [0, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number] };
    const dance = buildTracks(buildVmd({ model: '初音ミク', bones: [key] }));
    expect(modelRowBones(dance, '初音ミク', frames)).toEqual(['センター', '左目']);
    expect(modelRowBones(dance, '初音ミク', frames, true)).toBeUndefined();
    expect(modelRowBones(buildTracks(buildVmd({ model: '初音ミク', morphs: [{ name: 'あ', frame: 0, weight: 1 }] })), '初音ミク', frames)).toEqual(['センター', '左目']);
    // No keys at all: a New motion, whatever its header says, but MMD's camera header.
    expect(modelRowBones(buildTracks(buildVmd({})), '', frames)).toEqual(['センター', '左目']);
    expect(modelRowBones(buildTracks(emptyCameraVmd()), 'カメラ・照明', frames)).toBeUndefined();
    // Light keys and no model keys, whatever the header: a light motion.
    const light = withBlocks(buildVmd({ model: '初音ミク' }), { light: blockFromRecords('light', [encodeLightRecord({ frame: 0, color: [0.6, 0.6, 0.6], direction: [-0.5, -1, 0.5] })]) });
    expect(modelRowBones(buildTracks(light), '初音ミク', frames)).toBeUndefined();
    // Bone keys under the camera header: it drives a model.
    expect(modelRowBones(dance, 'カメラ・照明', frames)).toEqual(['センター', '左目']);
    expect(modelRowBones(null, '', frames)).toBeUndefined();
  });
});
