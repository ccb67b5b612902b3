// Mirror and names written in Latin letters (shared/motion-ops/side-names.ts): Gene's morphs (ARKit's
// eyeBlinkLeft / eyeBlinkRight, Blender's brow_laugh_geo_L / _R), PMX English bone names (arm_L, hair IK_L,
// L toe), BVH joints (LeftShoulder, CMU's LThumb), VRM humanoid names (leftUpperArm). The model names are read
// from the corpus with the project's PMX reader; the motions are built here. Expected names are written out
// here, and the mirrored values are read back from the record bytes with a DataView (position X negated,
// rotation (x, y, z, w) → (x, −y, −z, w), as for 左/右).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildTracks, buildVmd, encodeIkRecord, ikBlockFromRecords, readVmd, withBlocks, writeVmd, BONE, IK, MORPH, type VmdDocument } from '../../../shared/vmd';
import { mirror } from '../../../shared/motion-ops';
import { applyDiff, copyKeys, drain, mirrorDiffSteps, mirrorPasteKeys, mirrorPoseAt, revertDiff } from '../../../shared/key-edits';
import { corpusFiles, corpusModel, corpusPath, corpusPresent, relName } from '../../helpers/corpus';
import { accepted } from '../../helpers/key-edit';

function must<T extends { ok: boolean }>(r: T): Extract<T, { ok: true }> {
  if (!r.ok) throw new Error(JSON.stringify((r as unknown as { error: unknown }).error));
  return r as Extract<T, { ok: true }>;
}

const sjis = new TextDecoder('shift_jis');
/** A name field's text up to its NUL. */
function nameAt(b: Uint8Array, o: number, n: number): string {
  let len = 0;
  while (len < n && b[o + len] !== 0) len++;
  return sjis.decode(b.subarray(o, o + len));
}
const f32 = (x: number) => Math.fround(x);

interface RawBone { name: string; frame: number; pos: number[]; rot: number[] }
/** Bone keys read from the record bytes: name 15, frame u32 at 15, position 3×f32 at 19, rotation 4×f32 at 31. */
function rawBones(doc: VmdDocument): RawBone[] {
  const b = doc.bone.bytes, v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: RawBone[] = [];
  for (let i = 0, o = 0; i < doc.bone.count; i++, o += 111) {
    out.push({ name: nameAt(b, o, 15), frame: v.getUint32(o + 15, true), pos: [0, 1, 2].map((c) => v.getFloat32(o + 19 + 4 * c, true)), rot: [0, 1, 2, 3].map((c) => v.getFloat32(o + 31 + 4 * c, true)) });
  }
  return out;
}
/** Morph keys read from the record bytes as "name@frame=weight", sorted: name 15, frame u32 at 15, weight f32 at 19. */
function rawMorphs(doc: VmdDocument): string[] {
  const b = doc.morph.bytes, v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: string[] = [];
  for (let i = 0, o = 0; i < doc.morph.count; i++, o += 23) out.push(`${nameAt(b, o, 15)}@${v.getUint32(o + 15, true)}=${v.getFloat32(o + 19, true)}`);
  return out.sort();
}
/** The keys of `names` renamed by `to` (a name not in it stays), in rawMorphs' form. */
const renamed = (keys: [string, number, number][], to: Record<string, string>) => keys.map(([n, f, w]) => `${to[n] ?? n}@${f}=${f32(w)}`).sort();
/** Both ways of [a, b] pairs, as a lookup. */
const both = (pairs: readonly (readonly [string, string])[]) => Object.fromEntries(pairs.flatMap(([a, b]) => [[a, b], [b, a]]));
/** As a VMD's 15-byte name field holds an ASCII name. */
const cut15 = (s: string) => s.slice(0, 15);

/** Gene's sided morphs, [left, right] as the model names them, and some of its morphs that have no side. */
const GENE_PAIRS = [
  ['eyeBlinkLeft', 'eyeBlinkRight'], ['browDownLeft', 'browDownRight'], ['jawLeft', 'jawRight'], ['mouthLeft', 'mouthRight'],
  ['mouthSmileLeft', 'mouthSmileRight'], ['eyeLookDownLeft', 'eyeLookDownRight'], ['browOuterUpLeft', 'browOuterUpRight'],
  ['mouthLowerDownLeft', 'mouthLowerDownRight'], ['mouthUpperUpLeft', 'mouthUpperUpRight'],
  ['brow_sad_geo_L', 'brow_sad_geo_R'], ['eye_wink_geo_L', 'eye_wink_geo_R'], ['eye_close_geo_L', 'eye_close_geo_R'],
] as const;
const GENE_CENTRE = ['eyeBlink', 'browInnerUp', 'jawOpen', 'tongueOut', 'eye_star_geo_C', 'brow_surprise_geo_', 'mouth_a_geo_C', 'jawOpen+mouthClose'];
/** Gene's brow_laugh_geo_L and _R are 16 bytes: a VMD holds both as brow_laugh_geo_, which has no other side. */
const GENE_CUT_ALIKE = ['brow_laugh_geo_L', 'brow_laugh_geo_R'];

describe.skipIf(!corpusPresent)('mirror: Gene\'s morph names in Latin letters', () => {
  const model = corpusPresent ? corpusModel('gene/Gene_light.pmx').morphs.map((m) => m.name) : [];
  // Each pair's left name keyed at frame i, the right at i + 100; the names cut to the field as a VMD holds them.
  const keys: [string, number, number][] = [];
  GENE_PAIRS.forEach(([l, r], i) => keys.push([cut15(l), i, 0.25 + i / 100], [cut15(r), 100 + i, 0.5 + i / 100]));
  GENE_CENTRE.forEach((n, i) => keys.push([cut15(n), 200 + i, 0.75]));
  keys.push([cut15(GENE_CUT_ALIKE[0]), 300, 1]);
  const doc = buildVmd({ morphs: keys.map(([name, frame, weight]) => ({ name, frame, weight })) });
  const swapped = both(GENE_PAIRS.map(([l, r]) => [cut15(l), cut15(r)] as const));

  it('the corpus model holds both names of each pair and the side-less ones', () => {
    for (const n of [...GENE_PAIRS.flat(), ...GENE_CENTRE, ...GENE_CUT_ALIKE]) expect(model).toContain(n);
    expect(cut15(GENE_CUT_ALIKE[0])).toBe(cut15(GENE_CUT_ALIKE[1]));
  });

  it('swaps each pair, keys and weights with their names, with the model and without; names without a side stay', () => {
    expect(rawMorphs(must(mirror(doc, { modelMorphs: model })).value.doc)).toEqual(renamed(keys, swapped));
    expect(rawMorphs(must(mirror(doc)).value.doc)).toEqual(renamed(keys, swapped));
    const r = must(mirror(doc, { modelMorphs: model })).value;
    expect(r.report.byKind.morph.changed).toBe(GENE_PAIRS.length * 2);
    expect(r.report.morphsSwapped).toContain('eyeBlinkLeft ⇄ eyeBlinkRight');
    expect(r.report.morphsSwapped).toContain('mouthLowerDownL ⇄ mouthLowerDownR');
  });

  it('a lone cut name (mouthLowerDownL, of mouthLowerDownLeft) swaps where the model names both sides, not on a guess', () => {
    const lone = buildVmd({ morphs: [{ name: 'mouthLowerDownL', frame: 3, weight: 1 }, { name: 'eyeBlinkLeft', frame: 4, weight: 1 }] });
    expect(rawMorphs(must(mirror(lone, { modelMorphs: model })).value.doc)).toEqual(['eyeBlinkRight@4=1', 'mouthLowerDownR@3=1']);
    // Without a model: the whole word Left is clear, the cut L is not (mouthLowerDownL could be anything).
    expect(rawMorphs(must(mirror(lone)).value.doc)).toEqual(['eyeBlinkRight@4=1', 'mouthLowerDownL@3=1']);
  });

  it('on a model that has one name of a pair and not the other, the key stays where it is', () => {
    const lone = buildVmd({ morphs: [{ name: 'eyeBlinkLeft', frame: 4, weight: 1 }] });
    expect(rawMorphs(must(mirror(lone, { modelMorphs: model.filter((n) => n !== 'eyeBlinkRight') })).value.doc)).toEqual(['eyeBlinkLeft@4=1']);
  });
});

/**
 * Sided bone names of the corpus: PMX English names (mmd-viewer-js's miku.pmd, Gene), BVH joints (CMU 131_01),
 * and the styles the brief names (VRM humanoid, Blender, VRoid, all caps), each with its other side.
 */
const BONE_PAIRS = [
  ['arm_L', 'arm_R'], ['hair IK_L', 'hair IK_R'], ['L toe', 'R toe'], ['L hair7', 'R hair7'], ['LeftThumb1', 'RightThumb1'],
  ['LeftIndex_End', 'RightIndex_End'], ['eye_L end', 'eye_R end'], ['LeftShoulder', 'RightShoulder'], ['LeftHip', 'RightHip'],
  ['leftUpperArm', 'rightUpperArm'], ['Arm_L', 'Arm_R'], ['arm.L', 'arm.R'], ['arm_l', 'arm_r'], ['J_Bip_L_UpperAr', 'J_Bip_R_UpperAr'],
  ['LEFT_HAND', 'RIGHT_HAND'], ['LThumb', 'RThumb'], ['LHipJoint', 'RHipJoint'],
] as const;
/** Names with no side: letters inside words, CMU's lhand (no separator), a lone weak name (its other side not in the motion). */
const BONE_STAY = ['Eyelid', 'Ball', 'Leftover', 'Bright', 'lhand', 'lowerback', 'Hips', 'LFingers'];

describe('mirror: bone and IK names in Latin letters', () => {
  it.skipIf(!corpusPresent)('the names are the corpus\'s: the models\' English bone names and the capture\'s joints', () => {
    const en = [...corpusModel('mmd-viewer-js/model/low_miku/miku.pmd').bones, ...corpusModel('gene/Gene_light.pmx').bones].map((b) => b.nameEn);
    for (const n of ['arm_L', 'arm_R', 'hair IK_L', 'hair IK_R', 'L toe', 'R toe', 'L hair7', 'R hair7', 'LeftThumb1', 'LeftIndex_End', 'RightIndex_End', 'eye_L end']) expect(en).toContain(n);
    const joints = [...readFileSync(corpusPath('bvh11/resources/131_01.bvh'), 'latin1').matchAll(/(?:ROOT|JOINT) (\S+)/g)].map((m) => m[1]);
    for (const n of ['LeftShoulder', 'RightShoulder', 'LeftHip', 'RightHip', 'LThumb', 'RThumb', 'LHipJoint', 'RHipJoint', 'lhand', 'lowerback', 'Hips', 'LFingers']) expect(joints).toContain(n);
  });

  // Every name keyed once with values of its own (position, a unit quaternion).
  const names = [...BONE_PAIRS.flat(), ...BONE_STAY];
  const value = (i: number) => {
    const q = [0.1 + i / 100, -0.2, 0.3 - i / 200, 0];
    q[3] = Math.sqrt(1 - q[0] ** 2 - q[1] ** 2 - q[2] ** 2);
    return { position: [1 + i, 2 - i, 3 + i / 2], rotation: q };
  };
  const doc = withBlocks(buildVmd({ bones: names.map((name, i) => ({ name, frame: i, ...value(i) })) }), {
    ik: ikBlockFromRecords([encodeIkRecord({ frame: 0, visible: 1, iks: [{ name: 'leg IK_L', enabled: 1 }, { name: 'leg IK_R', enabled: 0 }, { name: 'necktie IK', enabled: 1 }] })]),
  });
  const other = both(BONE_PAIRS);

  it('swaps each pair; each key lands on the other name with position X and rotation Y, Z negated', () => {
    const out = rawBones(must(mirror(doc)).value.doc);
    const before = rawBones(doc);
    expect(out.map((k) => k.name)).toEqual(before.map((k) => other[k.name] ?? k.name));
    out.forEach((k, i) => {
      const b = before[i];
      expect(k.frame).toBe(b.frame);
      expect(k.pos).toEqual([-b.pos[0], b.pos[1], b.pos[2]]);
      expect(k.rot).toEqual([b.rot[0], -b.rot[1], -b.rot[2], b.rot[3]]);
    });
    // Mirroring twice gives the file back.
    expect(Buffer.from(writeVmd(must(mirror(must(mirror(doc)).value.doc)).value.doc)).equals(Buffer.from(writeVmd(doc)))).toBe(true);
  });

  it('swaps the display/IK keys\' bone names, each flag staying with its bone', () => {
    const ik = must(mirror(doc)).value.doc.ik;
    const at = (j: number) => ik.offsets[0] + IK.HEADER + j * IK.ITEM;
    expect([0, 1, 2].map((j) => [nameAt(ik.bytes, at(j), 20), ik.bytes[at(j) + 20]])).toEqual([['leg IK_R', 1], ['leg IK_L', 0], ['necktie IK', 1]]);
  });

  it('with a model: a pair swaps when the model has both names (a weak one too); not when it has one', () => {
    const m = (bones: string[]) => rawBones(must(mirror(doc, { modelBones: bones })).value.doc).map((k) => k.name);
    // LFingers alone in the motion, RFingers in the model with it: swaps. arm_L in the model without arm_R: stays.
    const names1 = m(['LFingers', 'RFingers', 'arm_L']);
    expect(names1[names.indexOf('LFingers')]).toBe('RFingers');
    expect(names1[names.indexOf('arm_L')]).toBe('arm_L');
    expect(names1[names.indexOf('arm_R')]).toBe('arm_R');
    // Pairs the model names neither side of go by the names' own pattern.
    expect(names1[names.indexOf('LeftShoulder')]).toBe('RightShoulder');
  });

  it('the editor\'s Mirror step writes the same bytes, undo gives them back; mirror paste and mirror pose find the other side', () => {
    const step = drain(mirrorDiffSteps(doc, {}, 'mirror'));
    const next = applyDiff(doc, step.diff);
    expect(Buffer.from(writeVmd(next)).equals(Buffer.from(writeVmd(must(mirror(doc)).value.doc)))).toBe(true);
    expect(step.report).toEqual(must(mirror(doc)).value.report);
    expect(Buffer.from(writeVmd(revertDiff(next, step.diff))).equals(Buffer.from(writeVmd(doc)))).toBe(true);

    const tracks = buildTracks(doc);
    const rec = (n: string) => names.indexOf(n);
    // Paste on the other side: the LeftShoulder key goes to RightShoulder at frame 50; Ball has no other side.
    const clip = copyKeys(doc, [{ kind: 'bone', record: rec('LeftShoulder') }, { kind: 'bone', record: rec('Ball') }]);
    const pasted = rawBones(accepted(mirrorPasteKeys(doc, tracks, clip, 50, 'otherSide')).doc).filter((k) => k.frame === 50);
    const src = rawBones(doc)[rec('LeftShoulder')];
    expect(pasted).toEqual([{ name: 'RightShoulder', frame: 50, pos: [-src.pos[0], src.pos[1], src.pos[2]], rot: [src.rot[0], -src.rot[1], -src.rot[2], src.rot[3]] }]);
    const onlyBall = mirrorPasteKeys(doc, tracks, copyKeys(doc, [{ kind: 'bone', record: rec('Ball') }]), 50, 'otherSide');
    expect(!onlyBall.ok && onlyBall.error.code).toBe('E_EMPTY');
    // Mirror pose at frame 60 on leftUpperArm: it takes rightUpperArm's pose mirrored, and the other way round.
    const posed = rawBones(accepted(mirrorPoseAt(doc, tracks, 60, [tracks.bones.index.get('leftUpperArm')!])).doc).filter((k) => k.frame === 60);
    const l = rawBones(doc)[rec('leftUpperArm')], r = rawBones(doc)[rec('rightUpperArm')];
    expect(posed.map((k) => k.name).sort()).toEqual(['leftUpperArm', 'rightUpperArm']);
    expect(posed.find((k) => k.name === 'leftUpperArm')!.pos).toEqual([-r.pos[0], r.pos[1], r.pos[2]]);
    expect(posed.find((k) => k.name === 'rightUpperArm')!.rot).toEqual([l.rot[0], -l.rot[1], -l.rot[2], l.rot[3]]);
  });
});

/** Every track's keys as "name@frame", sorted, read from the bytes: bones and morphs. */
function trackKeys(doc: VmdDocument): string[] {
  const out: string[] = [];
  const b = doc.bone.bytes, m = doc.morph.bytes;
  for (let i = 0; i < doc.bone.count; i++) out.push(`b:${nameAt(b, i * BONE.SIZE, 15)}@${new DataView(b.buffer, b.byteOffset).getUint32(i * BONE.SIZE + 15, true)}`);
  for (let i = 0; i < doc.morph.count; i++) out.push(`m:${nameAt(m, i * MORPH.SIZE, 15)}@${new DataView(m.buffer, m.byteOffset).getUint32(i * MORPH.SIZE + 15, true)}`);
  return out.sort();
}

/** The morph name of every record, in record order. */
const morphNames = (d: VmdDocument) => Array.from({ length: d.morph.count }, (_, i) => nameAt(d.morph.bytes, i * MORPH.SIZE, 15));
/** Some sided morphs of Gene's motions, as their 15-byte fields hold them, both ways. */
const SIDED = both([
  ['eyeBlinkLeft', 'eyeBlinkRight'], ['eyeLookDownLeft', 'eyeLookDownRigh'], ['mouthLowerDownL', 'mouthLowerDownR'], ['mouthStretchLef', 'mouthStretchRig'],
  ['eye_wink_geo_L', 'eye_wink_geo_R'], ['brow_sad_geo_L', 'brow_sad_geo_R'],
]);

describe('mirror twice gives every corpus motion back', () => {
  const files = corpusFiles('.vmd');
  const gene = corpusPresent ? corpusModel('gene/Gene_light.pmx') : null;
  it.skipIf(!files.length)('without a model and, for Gene\'s motions, with Gene: names and keys as before, bytes too', () => {
    let swappedLatin = 0;
    for (const f of files) {
      const doc = must(readVmd(new Uint8Array(readFileSync(f)))).value;
      const opts = [{}];
      if (relName(f).startsWith('gene/')) opts.push({ modelMorphs: gene!.morphs.map((x) => x.name), modelBones: gene!.bones.map((x) => x.name) });
      for (const o of opts) {
        const once = must(mirror(doc, o)).value.doc;
        const twice = must(mirror(once, o)).value.doc;
        expect(trackKeys(twice), relName(f)).toEqual(trackKeys(doc));
        expect(Buffer.from(writeVmd(twice)).equals(Buffer.from(writeVmd(doc))), relName(f)).toBe(true);
        // Once: each record of a sided name (Gene's keys both sides alike) is the other side's (records keep their order).
        const before = morphNames(doc), after = morphNames(once);
        before.forEach((n, i) => {
          if (!(n in SIDED)) return;
          expect(after[i], `${relName(f)} record ${i}`).toBe(SIDED[n]);
          swappedLatin++;
        });
      }
    }
    expect(swappedLatin).toBeGreaterThan(200);
  });

  it('a lone ウィンク左 comes back on a model that names both sides (without one, see mirror.ts: ウィンク右 pairs with ウィンク)', () => {
    const doc = buildVmd({ morphs: [{ name: 'ウィンク左', frame: 0, weight: 1 }] });
    const model = ['ウィンク', 'ウィンク左', 'ウィンク右'];
    const once = must(mirror(doc, { modelMorphs: model })).value.doc;
    expect(rawMorphs(once)).toEqual(['ウィンク右@0=1']);
    expect(rawMorphs(must(mirror(once, { modelMorphs: model })).value.doc)).toEqual(['ウィンク左@0=1']);
  });
});
