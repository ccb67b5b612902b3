// What a capture import and a humanoid export say about what they cannot carry: map rows that lose a part
// to another row or name a model bone that plays no part (import-bvh on CMU's 131_01, miku.pmd), keyed bones
// that reach no joint (export-bvh of wavefile_v2 on miku.pmd: 左袖 and 右袖 are keyed off rest, checked
// here from the motion's own keys), and morphs no expression takes; えー, the only e-vowel morph wavefile's
// model has, exports as VRM's ee.
import { describe, expect, it } from 'vitest';
import { readBvh, type BvhMotion } from '../../../shared/bvh/bvh-reader';
import { importBvh } from '../../../shared/bvh/import';
import { exportBvh } from '../../../shared/bvh/export';
import { motionToVrma } from '../../../shared/bvh/vrma';
import { buildTracks } from '../../../shared/vmd';
import { corpusModel, corpusMotion, corpusPresent, readCorpus } from '../../helpers/corpus';

/** The capture's first n frames (an import fits every frame; the map is what is checked). */
function firstFrames(m: BvhMotion, n: number): BvhMotion {
  return { ...m, frameCount: n, values: m.values.slice(0, n * m.channelCount) };
}

describe.skipIf(!corpusPresent)('import-bvh --map rows that cannot do what they say', () => {
  const miku = corpusModel('mmd-viewer-js/model/low_miku/miku.pmd');
  const b = readBvh(readCorpus('bvh11/resources/131_01.bvh'));
  if (!b.ok) throw new Error(b.error.message);
  const walk = firstFrames(b.value, 12);

  it('a row taking a part another joint had names that joint and where it had it from', () => {
    // CMU's table maps Chest → chest and Chest2 → upperChest; 上半身2 is the chest's MMD bone.
    const r = importBvh(walk, miku, { footIk: false, map: new Map([['Chest2', '上半身2'], ['LeftWrist', 'leftHand'], ['lhand', 'leftHand']]) });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.report.warnings).toEqual([
      'map row Chest2 → chest takes the part from joint Chest (in the cmu-max table), which is left unmapped',
      'map row lhand → leftHand takes the part from joint LeftWrist (by an earlier row), which is left unmapped',
    ]);
    expect(r.value.report.unmappedJoints).toEqual(expect.arrayContaining(['Chest', 'LeftWrist']));
  });

  it('a row naming a bone the model has but no part plays is told apart from a typo, and why it is left out', () => {
    const r = importBvh(walk, miku, { footIk: false, map: new Map([['Neck', 'ﾈｸﾀｲ１'], ['Head', 'ネクタイ９'], ['LeftToe', '左人差指１']]) });
    if (!r.ok) throw new Error(r.error.message);
    const w = r.value.report.warnings;
    expect(w).toContain('map rows naming no humanoid part or bone (left out): ネクタイ９');
    expect(w.find((x) => x.startsWith('map rows naming a bone of the model that plays no humanoid part'))).toMatch(/: ﾈｸﾀｲ１$/);
    // 左人差指１ is 人指１ as MMD models spell it: the index finger's base, which miku.pmd lacks (a part bound to nothing).
    expect(r.value.report.unboundParts).toContain('leftIndexProximal');
    expect(w.join('\n')).not.toContain('左人差指１');
  });
});

describe.skipIf(!corpusPresent)('humanoid exports say what the motion moves that they leave out', () => {
  const miku = corpusModel('mmd-viewer-js/model/low_miku/miku.pmd');
  const wave = corpusMotion('mmd-viewer-js/vmd/wavefile_v2.vmd');
  const tracks = buildTracks(wave);

  it('export-bvh: bones the motion moves off rest that reach no joint (左袖, 右袖)', () => {
    // The motion moves both sleeves somewhere (this file's own look at the keys).
    for (const n of ['左袖', '右袖']) {
      const t = tracks.bones.index.get(n)!;
      let turned = false;
      for (let k = tracks.bones.start[t]; k < tracks.bones.start[t + 1]; k++) turned ||= Math.abs(tracks.bones.rotation[4 * k + 3]) < 1 - 1e-6 || [0, 1, 2].some((c) => Math.abs(tracks.bones.position[3 * k + c]) > 1e-6);
      expect(turned, n).toBe(true);
    }
    const r = exportBvh(wave, miku);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.text).not.toMatch(/袖/);
    expect(r.value.report.leftOutBones).toEqual(['左袖', '右袖']);
  });

  it("export-vrma: えー is VRM's ee where the motion keys no え; morphs no expression takes are listed", () => {
    expect(tracks.morphs.index.has('えー')).toBe(true);
    expect(tracks.morphs.index.has('え')).toBe(false);
    const r = motionToVrma(wave, miku);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.report.expressions).toContainEqual({ expression: 'ee', morph: 'えー' });
    expect(r.value.vrma.expressions.ee).toBeGreaterThanOrEqual(0);
    expect(r.value.report.unusedMorphs).toEqual(['真面目', '上', 'にやり']);
  });
});
