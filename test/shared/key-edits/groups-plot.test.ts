// Frame groups, presets and the live plot, checked against names and values worked out by hand.
import { describe, expect, it } from 'vitest';
import { buildTracks, buildVmd, sampleBoneInto, buildBoneInterpolation, curveProgress } from '../../../shared/vmd';
import { boneGroup, groupBones, channelSeries, CURVE_PRESETS, presetById, angleBetween } from '../../../shared/key-edits';

describe('bone frame groups', () => {
  it('sorts standard bone names into MMD-like groups', () => {
    const cases: [string, string][] = [
      ['センター', 'center'], ['グルーブ', 'center'], ['全ての親', 'center'], ['下半身', 'center'],
      ['上半身', 'upper'], ['上半身2', 'upper'], ['首', 'upper'], ['頭', 'upper'], ['両目', 'upper'],
      ['左腕', 'arms'], ['右ひじ', 'arms'], ['左手首', 'arms'], ['右肩', 'arms'], ['左手捩', 'arms'],
      ['左足', 'legs'], ['右ひざ', 'legs'], ['左足ＩＫ', 'legs'], ['右つま先ＩＫ', 'legs'], ['左足首', 'legs'],
      ['左親指１', 'fingers'], ['右人指２', 'fingers'], ['左小指３', 'fingers'],
      ['髪', 'others'], ['スカート前', 'others'], ['ネクタイ', 'others'],
    ];
    for (const [n, g] of cases) expect([n, boneGroup(n)]).toEqual([n, g]);
  });

  it('orders groups and bones root to tip, left before right', () => {
    const names = ['右腕', '髪', '左腕', '右ひじ', '上半身', 'センター', '左ひじ', '首'];
    const groups = groupBones(names);
    expect(groups.map((g) => g.id)).toEqual(['center', 'upper', 'arms', 'others']);
    expect(groups[2].tracks.map((t) => names[t])).toEqual(['左腕', '右腕', '左ひじ', '右ひじ']);
    expect(groups[1].tracks.map((t) => names[t])).toEqual(['上半身', '首']);
  });

  it('puts bones without a standard place after the standard ones by name, whatever the file order', () => {
    const names = ['腰飾り先', 'センター先', 'センター', '腰飾り', '下半身先', '下半身'];
    const order = (ns: string[]) => groupBones(ns).map((g) => g.tracks.map((t) => ns[t]));
    expect(order(names)).toEqual([['センター', '下半身', 'センター先', '下半身先', '腰飾り', '腰飾り先']]);
    // Any other file order gives the same rows.
    expect(order([...names].reverse())).toEqual(order(names));
    expect(order([names[3], names[0], names[5], names[1], names[4], names[2]])).toEqual(order(names));
  });
});

describe('presets', () => {
  it('are valid 0..127 curves with unique ids', () => {
    expect(new Set(CURVE_PRESETS.map((p) => p.id)).size).toBe(CURVE_PRESETS.length);
    for (const p of CURVE_PRESETS) for (const v of p.curve) expect(Number.isInteger(v) && v >= 0 && v <= 127).toBe(true);
    expect(presetById('mmd-default')!.curve).toEqual([20, 20, 107, 107]);
    // Ease-in starts slower than linear, ease-out faster.
    expect(curveProgress(presetById('ease-in')!.curve, 0.25)).toBeLessThan(0.2);
    expect(curveProgress(presetById('ease-out')!.curve, 0.25)).toBeGreaterThan(0.3);
  });
});

describe('live plot', () => {
  const half = Math.SQRT1_2;
  const doc = buildVmd({
    bones: [
      { name: 'センター', frame: 10, position: [0, 2, 0], rotation: [0, 0, 0, 1] },
      { name: 'センター', frame: 20, position: [10, 2, -4], rotation: [0, half, 0, half], interpolation: buildBoneInterpolation([[63, 0, 64, 127], [20, 20, 107, 107], [20, 20, 107, 107], [127, 0, 0, 127]]) },
    ],
  });
  const tracks = buildTracks(doc);

  it('gives the channel value per frame between the previous key and this key', () => {
    const s = channelSeries(tracks, { kind: 'bone', record: 1 }, doc.bone.count, 0, [63, 0, 64, 127])!;
    expect([s.from, s.to, s.values.length]).toEqual([10, 20, 11]);
    expect(s.values[0]).toBe(0);
    expect(s.values[10]).toBe(10);
    // Independent check against the sampler, which reads the stored curve.
    const pos = [0, 0, 0], rot = [0, 0, 0, 0];
    for (let i = 0; i <= 10; i++) {
      sampleBoneInto(tracks.bones, 0, 10 + i, pos, rot, 0);
      expect(s.values[i]).toBeCloseTo(pos[0], 4);
    }
    // Symmetric S-curve: halfway is half.
    expect(s.values[5]).toBeCloseTo(5, 6);
    // A dragged curve (not yet stored) changes the series.
    const lin = channelSeries(tracks, { kind: 'bone', record: 1 }, doc.bone.count, 0, [0, 0, 127, 127])!;
    expect(lin.values[2]).toBeCloseTo(2, 6);
  });

  it('gives the rotation as angle turned, in degrees', () => {
    expect(angleBetween(tracks.bones.rotation, 0, 1)).toBeCloseTo(90, 4);
    const s = channelSeries(tracks, { kind: 'bone', record: 1 }, doc.bone.count, 3, [0, 0, 127, 127])!;
    expect(s.unit).toBe('degrees');
    expect(s.values[0]).toBe(0);
    expect(s.values[10]).toBeCloseTo(90, 4);
    expect(s.values[5]).toBeCloseTo(45, 4);
  });

  it('is null for the first key of a track', () => {
    expect(channelSeries(tracks, { kind: 'bone', record: 0 }, doc.bone.count, 0, [0, 0, 127, 127])).toBeNull();
  });
});
