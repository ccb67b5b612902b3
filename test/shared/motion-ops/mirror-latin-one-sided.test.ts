// A one-sided bone named in Latin letters (cape_L where the model has no cape_R) is left as it is by every mirror
// that knows the model, as a one-sided 右/左 bone is (mirror-bone-one-sided.test.ts): the whole-motion mirror (CLI
// `mirror --model`, the batch, the editor's Whole Motion mirror) keeps its keys, name and values, and lists it
// ("one-sided bones left as they are"); mirror paste writes no key for it; mirroring the pose leaves it alone.
// Before, sidePairs made no pair of it (one of the two names is the model's), so the name stayed and the rule
// took it for a centre bone: its keys were mirrored in place (position X, rotation Y and Z negated) and nothing
// was listed. The spellings are side-names.ts's: _L, .L, Left…, R_ (and a key for the side the model lacks,
// leg_L where the model has leg_R only). The model is a list of names made here; expected keys are by hand:
// arm_L ⇄ arm_R and センター with position X and rotation Y, Z negated, every one-sided key as written.
import { describe, expect, it } from 'vitest';
import { applyDiff, copyKeys, drain, mirrorDiffSteps, mirrorPasteKeys, mirrorPoseAt, revertDiff } from '../../../shared/key-edits';
import { mirror } from '../../../shared/motion-ops';
import { buildTracks, buildVmd, decodeName, writeVmd, type VmdDocument } from '../../../shared/vmd';
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

const MODEL = ['センター', 'arm_L', 'arm_R', 'cape_L', 'hair.L', 'LeftEar', 'R_Tail', 'leg_R'];
const KEYS: BoneKey[] = [
  { name: 'センター', frame: 0, position: [1.5, 0, -2], rotation: [0, 0, 0, 1] },
  { name: 'arm_L', frame: 0, position: [0, 0, 0], rotation: [0.5, 0.5, 0.5, 0.5] },
  { name: 'cape_L', frame: 0, position: [1.25, 2, 3], rotation: [0.5, 0.5, -0.5, 0.5] },
  { name: 'hair.L', frame: 5, position: [0.5, 0, 0], rotation: [0, 0.5, 0, 0.75] },
  { name: 'LeftEar', frame: 0, position: [-0.75, 1, 0], rotation: [0, 0.5, 0, 0.75] },
  { name: 'R_Tail', frame: 10, position: [0.25, 0, 0], rotation: [0.5, -0.5, 0.5, 0.5] },
  { name: 'leg_L', frame: 0, position: [0.5, 0, 0], rotation: [0.5, 0.5, 0.5, 0.5] },
];
/** KEYS mirrored on MODEL, by hand. */
const MIRRORED: BoneKey[] = [
  { name: 'センター', frame: 0, position: [-1.5, 0, -2], rotation: [0, 0, 0, 1] },
  { name: 'arm_R', frame: 0, position: [0, 0, 0], rotation: [0.5, -0.5, -0.5, 0.5] },
  ...KEYS.slice(2),
];
const ONE_SIDED = ['cape_L', 'hair.L', 'LeftEar', 'R_Tail', 'leg_L'];

describe('the mirrors leave a one-sided bone named in Latin letters as it is', () => {
  const doc = buildVmd({ bones: KEYS.map((k) => ({ name: k.name, frame: k.frame, position: k.position as [number, number, number], rotation: k.rotation as [number, number, number, number] })) });

  it('the fixture', () => {
    expect(boneKeys(doc)).toEqual(KEYS);
  });

  it('mirror (CLI mirror --model, the batch) keeps their keys, name and values, lists them, and mirroring twice gives the bytes back', () => {
    const r = mirror(doc, { modelBones: MODEL });
    if (!r.ok) throw new Error(r.error.message);
    expect(boneKeys(r.value.doc)).toEqual(MIRRORED);
    expect(r.value.report.oneSidedBones).toEqual(ONE_SIDED);
    expect(r.value.report.byKind.bone).toMatchObject({ kept: 7, changed: 2 });
    const back = mirror(r.value.doc, { modelBones: MODEL });
    if (!back.ok) throw new Error(back.error.message);
    expect(writeVmd(back.value.doc)).toEqual(writeVmd(doc));
  });

  it("the editor's Whole Motion mirror does the same, and undoes to the bytes", () => {
    const step = drain(mirrorDiffSteps(doc, { modelBones: MODEL }, 'mirror'));
    const after = applyDiff(doc, step.diff);
    expect(boneKeys(after)).toEqual(MIRRORED);
    expect(step.report.oneSidedBones).toEqual(ONE_SIDED);
    expect(writeVmd(revertDiff(after, step.diff))).toEqual(writeVmd(doc));
  });

  it('mirror paste writes arm_R from a copied arm_L key and nothing for copied cape_L and hair.L keys', () => {
    const clip = copyKeys(doc, [{ kind: 'bone', record: 1 }, { kind: 'bone', record: 2 }, { kind: 'bone', record: 3 }]);
    const r = accepted(mirrorPasteKeys(doc, buildTracks(doc), clip, 100, 'all', [], MODEL));
    expect(boneKeys(r.doc).filter((k) => k.frame >= 100)).toEqual([{ ...MIRRORED[1], frame: 100 }]);
    // cape_L alone: nothing to paste, and the refusal says why.
    const cape = mirrorPasteKeys(doc, buildTracks(doc), copyKeys(doc, [{ kind: 'bone', record: 2 }]), 100, 'all', [], MODEL);
    expect(cape.ok).toBe(false);
    if (!cape.ok) expect(cape.error.detail).toEqual({ key: 'editor.refusal.noCounterpartOnModel' });
  });

  it('mirroring the pose leaves cape_L as it is and still swaps the arms', () => {
    const tracks = buildTracks(doc);
    const alone = mirrorPoseAt(doc, tracks, 0, [tracks.bones.index.get('cape_L')!], MODEL);
    expect(alone.ok).toBe(false);
    if (!alone.ok) expect(alone.error.detail).toEqual({ key: 'editor.refusal.noCounterpartOnModel' });
    const r = accepted(mirrorPoseAt(doc, tracks, 0, undefined, MODEL));
    const at0 = (d: VmdDocument, name: string) => boneKeys(d).find((k) => k.name === name && k.frame === 0);
    expect(at0(r.doc, 'cape_L')).toEqual(KEYS[2]);
    expect(at0(r.doc, 'LeftEar')).toEqual(KEYS[4]);
    expect(at0(r.doc, 'arm_R')).toEqual(MIRRORED[1]);
  });

  it('without a model, a clear Latin pair swaps as before (cape_L → cape_R) and nothing is listed', () => {
    const r = mirror(doc);
    if (!r.ok) throw new Error(r.error.message);
    expect(boneKeys(r.value.doc)[2]).toEqual({ name: 'cape_R', frame: 0, position: [-1.25, 2, 3], rotation: [0.5, -0.5, 0.5, 0.5] });
    expect(r.value.report.oneSidedBones).toBeUndefined();
  });
});
