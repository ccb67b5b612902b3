// The whole-motion mirror with the model known and a bone whose other side the model lacks (Gene_light: 右腕xcIK, an
// arm IK on the right only; Gene has no 左腕xcIK). Mirror paste writes no key for such a bone (the mirrored key
// would land on 左腕xcIK, which Gene lacks) and mirroring the pose leaves it alone, so its keys stay as they are;
// the whole-motion mirror (CLI `mirror --model`, the batch, the editor's Whole Motion mirror) now does the same:
// the track keeps its name and its values, and the report lists it. Before, its keys were renamed 左腕xcIK with
// X / rotation Y, Z negated: a track that does nothing on Gene, and Gene's own arm IK lost its keys.
// Expected records are worked out by hand from the keys below: 右腕 ⇄ 左腕 with position X and rotation Y, Z
// negated (0.5 → -0.5: exact in float32), センター mirrored in place, 右腕xcIK as it is. Records are read field
// by field here.
import { describe, expect, it } from 'vitest';
import { applyDiff, copyKeys, drain, mirrorDiffSteps, mirrorPasteKeys, mirrorTracksSteps, revertDiff } from '../../../shared/key-edits';
import { mirror } from '../../../shared/motion-ops';
import { blockFromRecords, buildTracks, decodeName, encodeBoneRecord, withBlocks, writeVmd, type VmdDocument } from '../../../shared/vmd';
import { corpusModel, corpusMotion, corpusPresent } from '../../helpers/corpus';
import { accepted } from '../../helpers/key-edit';

type BoneKey = { name: string; frame: number; position: number[]; rotation: number[] };

/** The bone keys of a document, read field by field: name 15 | frame u32 | position 3 × f32 | rotation 4 × f32 | curves 64. */
function boneKeys(doc: VmdDocument): BoneKey[] {
  const b = doc.bone.bytes, v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: BoneKey[] = [];
  for (let o = 0; o < b.length; o += 111) {
    const f = (at: number, n: number) => Array.from({ length: n }, (_, i) => v.getFloat32(o + at + 4 * i, true));
    out.push({ name: decodeName(b, o, 15), frame: v.getUint32(o + 15, true), position: f(19, 3), rotation: f(31, 4) });
  }
  return out;
}

const KEYS: BoneKey[] = [
  { name: 'センター', frame: 0, position: [1.5, 0, -2], rotation: [0, 0, 0, 1] },
  { name: '右腕', frame: 0, position: [0, 0, 0], rotation: [0.5, 0.5, 0.5, 0.5] },
  { name: '右腕xcIK', frame: 0, position: [1.25, 2, 3], rotation: [0.5, 0.5, -0.5, 0.5] },
  { name: '右腕xcIK', frame: 10, position: [-0.75, 1, 0], rotation: [0, 0.5, 0, 0.75] },
];
/** KEYS mirrored on Gene, by hand. */
const MIRRORED: BoneKey[] = [
  { name: 'センター', frame: 0, position: [-1.5, 0, -2], rotation: [0, 0, 0, 1] },
  { name: '左腕', frame: 0, position: [0, 0, 0], rotation: [0.5, -0.5, -0.5, 0.5] },
  KEYS[2],
  KEYS[3],
];

describe.skipIf(!corpusPresent)('the whole-motion mirror leaves a one-sided bone of the model as it is (Gene_light 右腕xcIK)', () => {
  const gene = corpusModel('gene/Gene_light.pmx');
  const bones = gene.bones.map((b) => b.name);
  const stand = corpusMotion('gene/motion/stand.vmd');
  const doc = withBlocks(stand, { bone: blockFromRecords('bone', KEYS.map((k) => encodeBoneRecord(k))) });

  it('the fixture: Gene has 右腕xcIK, both arms and センター, and no 左腕xcIK', () => {
    expect(bones).toEqual(expect.arrayContaining(['右腕xcIK', '右腕', '左腕', 'センター']));
    expect(bones).not.toContain('左腕xcIK');
    expect(boneKeys(doc)).toEqual(KEYS);
  });

  it('mirror paste writes no key for it (what the whole-motion mirror follows)', () => {
    const clip = copyKeys(doc, [{ kind: 'bone', record: 1 }, { kind: 'bone', record: 3 }]);
    const r = accepted(mirrorPasteKeys(doc, buildTracks(doc), clip, 100, 'all', [], bones));
    const added = boneKeys(r.doc).filter((k) => k.frame === 100);
    expect(added).toEqual([{ ...MIRRORED[1], frame: 100 }]);
  });

  it('mirror (CLI, batch) keeps its keys, name and values, lists it, and mirroring twice gives the bytes back', () => {
    const r = mirror(doc, { modelBones: bones });
    if (!r.ok) throw new Error(r.error.message);
    expect(boneKeys(r.value.doc)).toEqual(MIRRORED);
    expect(r.value.report.oneSidedBones).toEqual(['右腕xcIK']);
    // Two keys changed (センター's X, the arm); the one-sided bone's two are kept, not changed.
    expect(r.value.report.byKind.bone).toMatchObject({ kept: 4, changed: 2 });
    const back = mirror(r.value.doc, { modelBones: bones });
    if (!back.ok) throw new Error(back.error.message);
    expect(writeVmd(back.value.doc)).toEqual(writeVmd(doc));
  });

  it('without a model, unchanged: 右腕xcIK is mirrored onto 左腕xcIK and nothing is listed', () => {
    const r = mirror(doc);
    if (!r.ok) throw new Error(r.error.message);
    expect(boneKeys(r.value.doc).slice(2)).toEqual([
      { name: '左腕xcIK', frame: 0, position: [-1.25, 2, 3], rotation: [0.5, -0.5, 0.5, 0.5] },
      { name: '左腕xcIK', frame: 10, position: [0.75, 1, 0], rotation: [0, -0.5, 0, 0.75] },
    ]);
    expect(r.value.report.oneSidedBones).toBeUndefined();
  });

  it("the editor's Whole Motion mirror step does the same: bytes, report, tracks, and undo", () => {
    const step = drain(mirrorDiffSteps(doc, { modelBones: bones }, 'mirror'));
    const after = applyDiff(doc, step.diff);
    expect(boneKeys(after)).toEqual(MIRRORED);
    expect(step.report.oneSidedBones).toEqual(['右腕xcIK']);
    expect(step.report.byKind.bone).toMatchObject({ kept: 4, changed: 2 });
    // The tracks the editor updates in place (no rebuild) are those a rebuild of the mirrored motion gives.
    const tracks = drain(mirrorTracksSteps(buildTracks(doc), after, step.diff));
    expect(tracks).not.toBeNull();
    const rebuilt = buildTracks(after);
    expect(tracks?.bones.names).toEqual(rebuilt.bones.names);
    expect(tracks?.bones.position).toEqual(rebuilt.bones.position);
    expect(tracks?.bones.rotation).toEqual(rebuilt.bones.rotation);
    expect(writeVmd(revertDiff(after, step.diff))).toEqual(writeVmd(doc));
  });
});
