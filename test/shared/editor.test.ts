// Pure editing logic over real corpus files and hand-built documents: every edit touches only the
// bytes it should, and reverting its diff gives back the original bytes exactly.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { corpusDir } from '../helpers/corpus';
import {
  buildTracks, buildVmd, readVmd, writeVmd, samplePose, getBoneCurves, hasCopies, BONE, CAMERA,
  quaternionToEulerDegrees, type VmdDocument, type Curve,
} from '../../shared/vmd';
import {
  applyDiff, revertDiff, setCurves, pasteCurves, copyCurves, applyCurveToAllChannels, moveKeys, deleteKeys, replacedCount,
  insertKey, copyKeys, pasteKeys, editValues, locate, diffBytes, type EditOutcome, type KeyRef,
} from '../../shared/key-edits';
import { accepted as ok } from '../helpers/key-edit';

const corpus = corpusDir;
function load(rel: string): { doc: VmdDocument; bytes: Uint8Array } {
  const bytes = new Uint8Array(readFileSync(path.join(corpus, rel)));
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return { doc: r.value, bytes };
}
/** Byte offsets where two files differ. */
function differing(a: Uint8Array, b: Uint8Array): number[] {
  expect(a.length).toBe(b.length);
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) out.push(i);
  return out;
}
/** Fast byte equality (deep toEqual on megabytes is slow). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0;
}
/** Offset of the bone block's first record in a written file (header 30 + model 20 + count 4). */
const BONE_START = 54;

describe('curve edits on a real dance (wavefile_v2)', () => {
  const { doc, bytes } = load('mmd-viewer-js/vmd/wavefile_v2.vmd');
  const tracks = buildTracks(doc);

  it('rewrites only the 64 interpolation bytes of the edited key, four rows consistent', () => {
    const ref: KeyRef = { kind: 'bone', record: 1234 };
    const before = getBoneCurves(doc.bone.bytes, 1234 * BONE.SIZE + BONE.INTERPOLATION);
    const curve: Curve = [90, 10, 30, 117];
    const r = ok(setCurves(doc, [ref], { 3: curve }));
    const out = writeVmd(r.doc);
    const diffs = differing(bytes, out);
    const lo = BONE_START + 1234 * 111 + 47;
    expect(diffs.length).toBeGreaterThan(0);
    for (const d of diffs) expect(d >= lo && d < lo + 64).toBe(true);
    const ip = out.subarray(lo, lo + 64);
    // Rotation channel 3: x1 at row0[3] is the physics byte, true copy at 18 (row 1 shifted by 1).
    expect([ip[18], ip[7], ip[11], ip[15]]).toEqual([90, 10, 30, 117]);
    expect([ip[16 + 6], ip[16 + 10], ip[16 + 14]]).toEqual([10, 30, 117]); // row 1 = row0 shifted by 1
    expect([ip[32 + 5], ip[32 + 9], ip[32 + 13]]).toEqual([10, 30, 117]); // row 2 shifted by 2
    expect([ip[48 + 4], ip[48 + 8], ip[48 + 12]]).toEqual([10, 30, 117]); // row 3 shifted by 3
    const orig = bytes.subarray(lo, lo + 64);
    // MMD wrote this file: bytes 2–3 repeat x1 of Z and rotation (a physics-on key). Byte 3 follows the new
    // rotation x1 (players that read row 0 see the new curve); byte 2, Z's x1, is unchanged.
    expect([orig[2], orig[3]]).toEqual([orig[17], orig[18]]);
    expect([ip[2], ip[3]]).toEqual([orig[2], 90]);
    const after = getBoneCurves(r.doc.bone.bytes, 1234 * BONE.SIZE + BONE.INTERPOLATION);
    expect(after.slice(0, 3)).toEqual(before.slice(0, 3));
    expect(after[3]).toEqual(curve);
    // The diff holds one record, not the document.
    expect(r.diff.blocks).toHaveLength(1);
    expect(r.diff.blocks[0].patches).toHaveLength(1);
    expect(diffBytes(r.diff)).toBe(222);
    // Undo gives the original file back byte for byte.
    expect(differing(bytes, writeVmd(revertDiff(r.doc, r.diff)))).toEqual([]);
  });

  it('pastes a copied curve onto many keys on chosen channels only', () => {
    const src = copyCurves(doc, { kind: 'bone', record: 10 })!;
    const targets: KeyRef[] = [20, 30, 40, 50].map((record) => ({ kind: 'bone', record }));
    const r = ok(pasteCurves(doc, targets, src, [0, 3]));
    for (const t of targets) {
      const c = getBoneCurves(r.doc.bone.bytes, t.record * BONE.SIZE + BONE.INTERPOLATION);
      const orig = getBoneCurves(doc.bone.bytes, t.record * BONE.SIZE + BONE.INTERPOLATION);
      expect(c[0]).toEqual(src.curves[0]);
      expect(c[3]).toEqual(src.curves[3]);
      expect(c[1]).toEqual(orig[1]);
      expect(c[2]).toEqual(orig[2]);
    }
    const all = ok(applyCurveToAllChannels(doc, targets.slice(0, 1), [1, 2, 3, 4]));
    expect(getBoneCurves(all.doc.bone.bytes, 20 * BONE.SIZE + BONE.INTERPOLATION)).toEqual([[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]);
  });

  it('pastes the curve shown when copied onto each ticked channel (MMD), and a paste that changes nothing has an empty diff', () => {
    // A source key whose rotation curve differs from its X curve, and a target whose X differs from it.
    const curvesOf = (record: number) => getBoneCurves(doc.bone.bytes, record * BONE.SIZE + BONE.INTERPOLATION);
    const same = (a: readonly number[], b: readonly number[]) => a.every((v, i) => v === b[i]);
    let from = 0;
    while (same(curvesOf(from)[3], curvesOf(from)[0])) from++;
    const rot = curvesOf(from)[3];
    let to = from + 1;
    while (same(curvesOf(to)[0], rot)) to++;
    const src = copyCurves(doc, { kind: 'bone', record: from }, 3)!;
    expect(src.channel).toBe(3);
    const r = ok(pasteCurves(doc, [{ kind: 'bone', record: to }], src, [0]));
    const c = getBoneCurves(r.doc.bone.bytes, to * BONE.SIZE + BONE.INTERPOLATION);
    expect(c[0]).toEqual([...rot]);
    expect(c.slice(1)).toEqual(curvesOf(to).slice(1));
    // Onto X and Rot both: the one rotation curve on each.
    const both = ok(pasteCurves(doc, [{ kind: 'bone', record: to }], src, [0, 3]));
    const b = getBoneCurves(both.doc.bone.bytes, to * BONE.SIZE + BONE.INTERPOLATION);
    expect([b[0], b[3]]).toEqual([[...rot], [...rot]]);
    // Pasting it again where it already is writes nothing.
    const again = ok(pasteCurves(r.doc, [{ kind: 'bone', record: to }], src, [0]));
    expect(again.diff.blocks.every((k) => k.patches.length === 0)).toBe(true);
  });

  it('replaces the key a move lands on (as MMD) and moves otherwise', () => {
    const t = tracks.bones;
    // A track with at least three keys: moving key 1 onto key 2's frame replaces key 2.
    let tr = 0;
    while (t.start[tr + 1] - t.start[tr] < 3) tr++;
    const k = t.start[tr] + 1;
    const ref: KeyRef = { kind: 'bone', record: t.record[k] };
    const gap = t.frames[k + 1] - t.frames[k];
    const onto = ok(moveKeys(doc, tracks, [ref], gap));
    expect(replacedCount(onto.diff)).toBe(1);
    expect(onto.doc.bone.count).toBe(doc.bone.count - 1);
    const gone = t.record[k + 1];
    // Every record but the replaced one is kept in file order, the moved one with its new frame only.
    const ot = buildTracks(onto.doc);
    const moved = ref.record - (gone < ref.record ? 1 : 0);
    expect(locate(ot, { kind: 'bone', record: moved }, onto.doc.bone.count)!.frame).toBe(t.frames[k + 1]);
    expect(ot.bones.start[tr + 1] - ot.bones.start[tr]).toBe(t.start[tr + 1] - t.start[tr] - 1);
    expect(sameBytes(writeVmd(revertDiff(onto.doc, onto.diff)), bytes)).toBe(true);
    // Moving both keys 1 and 2 by the same gap replaces key 3 only when it is in the way.
    const both = ok(moveKeys(doc, tracks, [ref, { kind: 'bone', record: t.record[k + 1] }], gap));
    const occupied = t.start[tr + 1] > k + 2 && t.frames[k + 2] === t.frames[k + 1] + gap;
    expect(replacedCount(both.diff)).toBe(occupied ? 1 : 0);
    // Before frame 0 is refused.
    const early = moveKeys(doc, tracks, [{ kind: 'bone', record: t.record[t.start[tr]] }], -1 - t.frames[t.start[tr]]);
    expect(!early.ok && early.error.code).toBe('E_RANGE');
    // A free move changes exactly the 4 frame bytes.
    const free = t.frames[k] + 1 < t.frames[k + 1] ? 1 : -1;
    const r = ok(moveKeys(doc, tracks, [ref], free));
    const d = differing(bytes, writeVmd(r.doc));
    const lo = BONE_START + ref.record * 111 + 15;
    for (const x of d) expect(x >= lo && x < lo + 4).toBe(true);
    const nt = buildTracks(r.doc);
    expect(locate(nt, ref, r.doc.bone.count)!.frame).toBe(t.frames[k] + free);
  });

  it('inserts a key that holds the pose the motion already had there', () => {
    const t = tracks.bones;
    let tr = 0;
    while (t.start[tr + 1] - t.start[tr] < 2 || t.frames[t.start[tr] + 1] - t.frames[t.start[tr]] < 4) tr++;
    const f = t.frames[t.start[tr]] + 2;
    const name = t.names[tr];
    const poseBefore = samplePose(tracks, f).bones[name];
    const r = ok(insertKey(doc, tracks, { kind: 'bone', track: tr }, f));
    expect(r.doc.bone.count).toBe(doc.bone.count + 1);
    expect(r.record).toBe(doc.bone.count);
    const after = samplePose(buildTracks(r.doc), f).bones[name];
    for (let c = 0; c < 3; c++) expect(after.position[c]).toBeCloseTo(poseBefore.position[c], 5);
    for (let c = 0; c < 4; c++) expect(after.rotation[c]).toBeCloseTo(poseBefore.rotation[c], 5);
    // Inserting again at the same frame is refused.
    expect(!insertKey(r.doc, buildTracks(r.doc), { kind: 'bone', track: tr }, f).ok).toBe(true);
    // The rest of the file is unchanged: the old bytes are a prefix (before the appended record).
    const out = writeVmd(r.doc);
    expect(out.length).toBe(bytes.length + 111);
    expect(sameBytes(out.subarray(0, 50), bytes.subarray(0, 50))).toBe(true);
    expect(new DataView(out.buffer).getUint32(50, true)).toBe(doc.bone.count + 1);
    const end = BONE_START + doc.bone.bytes.length;
    expect(sameBytes(out.subarray(BONE_START, end), bytes.subarray(BONE_START, end))).toBe(true);
    expect(sameBytes(out.subarray(end + 111), bytes.subarray(end))).toBe(true);
    expect(differing(bytes, writeVmd(revertDiff(r.doc, r.diff)))).toEqual([]);
  });

  it('deletes, copies and pastes keys, each undone exactly', () => {
    const refs: KeyRef[] = [5, 500, 7000].map((record) => ({ kind: 'bone', record }));
    const del = ok(deleteKeys(doc, refs));
    expect(del.doc.bone.count).toBe(doc.bone.count - 3);
    // Record 6 moved down to 5 (one removed before it).
    expect(sameBytes(del.doc.bone.bytes.subarray(5 * 111, 6 * 111), doc.bone.bytes.subarray(6 * 111, 7 * 111))).toBe(true);
    expect(differing(bytes, writeVmd(revertDiff(del.doc, del.diff)))).toEqual([]);
    expect(sameBytes(writeVmd(applyDiff(doc, del.diff)), writeVmd(del.doc))).toBe(true);

    const t = tracks.bones;
    const tr = 0;
    const a = t.start[tr];
    const clip = copyKeys(doc, [{ kind: 'bone', record: t.record[a] }, { kind: 'bone', record: t.record[a + 1] }]);
    expect(clip.items.map((i) => i.offset)).toEqual([0, t.frames[a + 1] - t.frames[a]]);
    // Paste onto the track's own second key: the first pasted key overwrites it in place.
    const at = t.frames[a + 1];
    const pasted = ok(pasteKeys(doc, tracks, clip, at));
    expect(pasted.records[0]).toEqual({ kind: 'bone', record: t.record[a + 1] });
    const rec = pasted.doc.bone.bytes.subarray(t.record[a + 1] * 111, t.record[a + 1] * 111 + 111);
    expect(rec.subarray(19)).toEqual(doc.bone.bytes.subarray(t.record[a] * 111 + 19, t.record[a] * 111 + 111));
    expect(new DataView(rec.buffer, rec.byteOffset).getUint32(15, true)).toBe(at);
    expect(differing(bytes, writeVmd(revertDiff(pasted.doc, pasted.diff)))).toEqual([]);
  });
});

describe('camera curves (wavefile_camera)', () => {
  const { doc, bytes } = load('threejs/vmds/wavefile_camera.vmd');
  it('writes x1, x2, y1, y2 of the chosen channel only', () => {
    expect(doc.camera.count).toBeGreaterThan(5);
    const r = ok(setCurves(doc, [{ kind: 'camera', record: 3 }], { 4: [11, 22, 33, 44] }));
    const ip = r.doc.camera.bytes.subarray(3 * 61 + CAMERA.INTERPOLATION, 3 * 61 + CAMERA.INTERPOLATION + 24);
    expect(Array.from(ip.subarray(16, 20))).toEqual([11, 33, 22, 44]);
    const out = writeVmd(r.doc);
    const d = differing(bytes, out);
    expect(d.length).toBeGreaterThan(0);
    expect(d.length).toBeLessThanOrEqual(4);
    expect(differing(bytes, writeVmd(revertDiff(r.doc, r.diff)))).toEqual([]);
  });
});

describe('hand-built documents', () => {
  const doc = buildVmd({
    bones: [
      { name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { name: 'センター', frame: 10, position: [10, 0, 0], rotation: [0, Math.SQRT1_2, 0, Math.SQRT1_2] },
      { name: '左腕', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
    ],
    morphs: [
      { name: 'あ', frame: 0, weight: 0 },
      { name: 'あ', frame: 10, weight: 1 },
    ],
  });
  const tracks = buildTracks(doc);

  it('keeps the physics flag of a physics-off key when its curves change', () => {
    const r0 = ok(editValues(doc, [{ kind: 'bone', record: 1 }], { physicsOff: true }));
    const ip0 = r0.doc.bone.bytes.subarray(111 + 47, 111 + 111);
    expect([ip0[2], ip0[3]]).toEqual([99, 15]);
    const r = ok(setCurves(r0.doc, [{ kind: 'bone', record: 1 }], { 2: [64, 0, 64, 127], 3: [5, 6, 7, 8] }));
    const ip = r.doc.bone.bytes.subarray(111 + 47, 111 + 111);
    expect([ip[2], ip[3]]).toEqual([99, 15]);
    expect(hasCopies(ip)).toBe(true);
    expect(getBoneCurves(ip)).toEqual([[20, 20, 107, 107], [20, 20, 107, 107], [64, 0, 64, 127], [5, 6, 7, 8]]);
  });

  it('edits one component on many keys and keeps the others', () => {
    const r = ok(editValues(doc, [{ kind: 'bone', record: 0 }, { kind: 'bone', record: 1 }], { position: [undefined, 5, undefined], euler: [undefined, undefined, 30] }));
    const v = r.doc.bone.view;
    expect(v.getFloat32(19, true)).toBe(0);
    expect(v.getFloat32(23, true)).toBe(5);
    expect(v.getFloat32(111 + 19, true)).toBe(10);
    expect(v.getFloat32(111 + 23, true)).toBe(5);
    const q = [0, 1, 2, 3].map((c) => v.getFloat32(111 + 31 + 4 * c, true));
    const e = quaternionToEulerDegrees(q);
    expect(e[1]).toBeCloseTo(90, 3);
    expect(e[2]).toBeCloseTo(30, 3);
    const w = ok(editValues(doc, [{ kind: 'morph', record: 1 }], { weight: 0.25 }));
    expect(w.doc.morph.view.getFloat32(23 + 19, true)).toBe(0.25);
  });

  it('inserts morph keys at the interpolated weight', () => {
    const r = ok(insertKey(doc, tracks, { kind: 'morph', track: 0 }, 4));
    expect(r.doc.morph.view.getFloat32(2 * 23 + 19, true)).toBeCloseTo(0.4, 6);
    expect(r.doc.morph.bytes.subarray(46, 46 + 15)).toEqual(doc.morph.bytes.subarray(0, 15));
  });

  it('applies then reverts a mixed chain of edits back to the same bytes', () => {
    let d = doc;
    const diffs = [];
    const steps: ((x: VmdDocument) => EditOutcome)[] = [
      (x) => setCurves(x, [{ kind: 'bone', record: 1 }], { 0: [1, 2, 3, 4] }),
      (x) => insertKey(x, buildTracks(x), { kind: 'bone', track: 0 }, 5),
      (x) => deleteKeys(x, [{ kind: 'bone', record: 0 }, { kind: 'morph', record: 0 }]),
      (x) => moveKeys(x, buildTracks(x), [{ kind: 'bone', record: 1 }], 3),
    ];
    const snapshots = [writeVmd(d)];
    for (const s of steps) {
      const r = ok(s(d));
      diffs.push(r.diff);
      d = r.doc;
      snapshots.push(writeVmd(d));
    }
    for (let i = diffs.length - 1; i >= 0; i--) {
      d = revertDiff(d, diffs[i]);
      expect(writeVmd(d)).toEqual(snapshots[i]);
    }
    for (let i = 0; i < diffs.length; i++) {
      d = applyDiff(d, diffs[i]);
      expect(writeVmd(d)).toEqual(snapshots[i + 1]);
    }
  });
});
