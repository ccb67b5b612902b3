// The model's bones on the timeline for a motion made for it (new-user pass nuscratch, finding 3: after New on Gene the
// timeline had only "Display · IK" and "Camera", no bone rows, so 右腕 could not be clicked there as in MMD's frame
// window). A motion whose header names the shown model lists the model's display-frame bones: those without keys as rows
// with no track (add: 'bone', keys 0) in their groups, which picking (a click) marks for Enter; a motion for another
// model, a pose, and a model's bones outside every display frame add none. Keys, counts and group members are as before.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { buildTracks, buildVmd } from '../../../shared/vmd';
import { buildRows, type Row } from '../../../renderer/src/editor/timeline-rows';
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

  it('a new motion for the shown model lists its display-frame bones; one for another model does not', () => {
    const preview = usePreviewStore();
    preview.setModel({ name: 'ジェネ / Gene', path: '/m/Gene_light.pmx', format: 'pmx', bones: 3, morphs: 0, vertices: 0, rigidBodies: 0, notes: [] });
    preview.setOutline({ groups: [{ name: 'センター', bones: ['センター'] }, { name: '腕', bones: ['右腕', '左腕'] }, { name: '', bones: ['右腕捩1'] }], morphs: [], physicsBones: [] });
    useSceneStore().newMotion('New motion.vmd', 'ジェネ / Gene');
    const tv = createTimelineView();
    const unkeyed = () => tv.rows.value.filter((r) => r.type === 'track' && r.add === 'bone').map((r) => (r.type === 'track' ? r.name : ''));
    expect(unkeyed().sort()).toEqual(['センター', '右腕', '左腕'].sort());
    useSceneStore().newMotion('New motion.vmd', '初音ミク');
    expect(unkeyed()).toEqual([]);
  });
});
