// The Morphs group on the timeline (new-user pass numorph 4 and 5). A motion shown on a model lists the model's morphs,
// keyed or not, by MMD's panels (目, リップ, 眉, その他) and in the model's order within each, not by kana; the morphs and
// bones the model lacks are marked (`missing`, dimmed with a tooltip in the track list). A face-only motion's bone groups,
// which hold only the model's empty rows, start folded (a click opens one) so the morphs are in sight.
import { describe, expect, it } from 'vitest';
import { buildTracks, buildVmd } from '../../../shared/vmd';
import { buildRows, type Row } from '../../../renderer/src/editor/timeline-rows';

const brief = (rows: readonly Row[]) => rows.map((r) => (r.type === 'group' ? ['group', r.id, r.collapsed] : [r.name, r.keys, r.add ?? (r.missing ? 'missing' : '')]));
const MODEL = {
  bones: ['センター', '左腕', '右腕', '頭'],
  // The model's order: a mouth morph first, then eyes, brows, other, and another eye morph.
  morphs: [{ name: 'あ', panel: 'mouth' }, { name: 'まばたき', panel: 'eyes' }, { name: '困る', panel: 'brows' }, { name: '照れ', panel: 'other' }, { name: 'ウィンク', panel: 'eyes' }, { name: 'い', panel: 'mouth' }],
};

describe('the Morphs group on a model', () => {
  it('lists the model’s morphs by panel in the model’s order, then the ones the model lacks, marked', () => {
    // A face motion made for another model: い and まばたき keyed, なごみ and はぅ that the model lacks.
    const d = buildVmd({ morphs: [{ name: 'なごみ', frame: 0, weight: 1 }, { name: 'い', frame: 0, weight: 1 }, { name: 'い', frame: 9, weight: 0 }, { name: 'はぅ', frame: 3, weight: 1 }, { name: 'まばたき', frame: 5, weight: 1 }] });
    const rows = buildRows(buildTracks(d), new Set(), { modelBones: ['センター'], model: MODEL });
    const morphs = brief(rows.slice(rows.findIndex((r) => r.id === 'morph')));
    expect(morphs).toEqual([
      ['group', 'morph', false],
      ['まばたき', 1, ''], ['ウィンク', 0, 'morph'], // 目
      ['あ', 0, 'morph'], ['い', 2, ''], // リップ
      ['困る', 0, 'morph'], // 眉
      ['照れ', 0, 'morph'], // その他
      ['なごみ', 1, 'missing'], ['はぅ', 1, 'missing'], // the model lacks them
    ]);
    // The group's count and members: the keys and tracks only.
    const g = rows.find((r) => r.id === 'morph')!;
    expect(g.type === 'group' && [g.count, g.members.length]).toEqual([5, 4]);
    // Without a model: the motion's morphs by name, none marked, as before.
    const bare = buildRows(buildTracks(d), new Set());
    expect(brief(bare.slice(bare.findIndex((r) => r.id === 'morph') + 1)).map((r) => r[0] + ':' + r[2])).toEqual(['い:', 'なごみ:', 'はぅ:', 'まばたき:']);
  });

  it('marks bone tracks the model lacks', () => {
    const d = buildVmd({ bones: ['左腕', '右ダミー'].map((name) => ({ name, frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] })) });
    const rows = buildRows(buildTracks(d), new Set(), { modelBones: ['左腕'], model: MODEL });
    const marked = rows.filter((r) => r.type === 'track' && r.missing).map((r) => (r.type === 'track' ? r.name : ''));
    expect(marked).toEqual(['右ダミー']);
  });

  it('folds the bone groups of a face-only motion until one is opened; a motion with bone keys keeps them open', () => {
    const face = buildTracks(buildVmd({ morphs: [{ name: 'まばたき', frame: 5, weight: 1 }] }));
    const groups = (rows: Row[]) => rows.filter((r) => r.type === 'group').map((r) => [r.id, r.type === 'group' && r.collapsed]);
    const folded = buildRows(face, new Set(), { modelBones: ['センター', '左腕', '右腕'], model: MODEL });
    expect(groups(folded)).toEqual([['ik', false], ['bone:center', true], ['bone:arms', true], ['morph', false]]);
    // No bone row listed: the morphs come right after the folded groups.
    expect(folded.some((r) => r.type === 'track' && r.kind === 'bone')).toBe(false);
    // Opened by a click (its fold entry): only that group.
    const armsId = folded.find((r) => r.id === 'bone:arms')!;
    expect(armsId.type === 'group' && armsId.foldId).toBe('open:bone:arms');
    const opened = buildRows(face, new Set(['open:bone:arms']), { modelBones: ['センター', '左腕', '右腕'], model: MODEL });
    expect(groups(opened)).toEqual([['ik', false], ['bone:center', true], ['bone:arms', false], ['morph', false]]);
    // A motion with a bone key: every group open as before, folded by its own id only.
    const dance = buildTracks(buildVmd({ bones: [{ name: '左腕', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }], morphs: [{ name: 'まばたき', frame: 5, weight: 1 }] }));
    expect(groups(buildRows(dance, new Set(), { modelBones: ['センター', '左腕', '右腕'], model: MODEL }))).toEqual([['ik', false], ['bone:center', false], ['bone:arms', false], ['morph', false]]);
  });
});
