// Registering a bone key from a pose (shared/key-edits/bone-key.ts), on the corpus's wavefile_v2.vmd: what
// the file then plays at that frame is the pose (sampled by the codec's own player), both neighbouring
// segments keep their curves, every other record keeps its bytes, and undo gives the original bytes back.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../helpers/corpus';
import { BONE, buildTracks, readVmd, sampleBoneInto, writeVmd } from '../../shared/vmd';
import { emptyVmd } from '../../shared/vmd/vmd-build';
import { applyDiff, registerBoneKey, revertDiff, type BonePose } from '../../shared/key-edits';
import type { VmdDocument } from '../../shared/vmd/vmd-document';

const WAVE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');

function load(): VmdDocument {
  const r = readVmd(new Uint8Array(readFileSync(WAVE)));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
const rec = (d: VmdDocument, i: number) => Buffer.from(d.bone.bytes.subarray(i * BONE.SIZE, (i + 1) * BONE.SIZE)).toString('hex');
/** A turn of `deg` degrees about a unit axis, as x, y, z, w. */
function turn(axis: [number, number, number], deg: number): [number, number, number, number] {
  const h = (deg * Math.PI) / 360, s = Math.sin(h);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(h)];
}
function played(d: VmdDocument, name: string, frame: number) {
  const t = buildTracks(d);
  const track = t.bones.index.get(name)!;
  const pos = new Float64Array(3), rot = new Float64Array(4);
  sampleBoneInto(t.bones, track, frame, pos, rot, 0);
  return { pos: Array.from(pos), rot: Array.from(rot) };
}
const expectClose = (a: number[], b: readonly number[], tol: number) => b.forEach((v, i) => expect(Math.abs(a[i] - v), `[${i}] ${a[i]} vs ${v}`).toBeLessThan(tol));

describe('registerBoneKey', () => {
  const doc = load();
  const tracks = buildTracks(doc);
  const b = tracks.bones;
  const arm = b.index.get('右腕')!;
  const [a, e] = [b.start[arm], b.start[arm + 1]];
  const gapKey = (() => {
    for (let k = a; k + 1 < e; k++) if (b.frames[k + 1] - b.frames[k] >= 4) return k;
    throw new Error('no gap');
  })();
  const pose: BonePose = { position: [0.25, -0.5, 1.5], rotation: turn([0.6, 0, 0.8], 40) };

  it('between two keys: a new key there plays the pose; the file plays as before outside the two segments it splits', () => {
    const f = b.frames[gapKey] + 2;
    const out = registerBoneKey(doc, tracks, { track: arm }, f, pose);
    if (!out.ok) throw new Error(out.error.message);
    expect(out.value.replaced).toBe(false);
    expect(out.value.record).toBe(doc.bone.count);
    for (let i = 0; i < doc.bone.count; i++) if (rec(out.value.doc, i) !== rec(doc, i)) throw new Error(`record ${i} changed`);
    const p = played(out.value.doc, '右腕', f);
    expectClose(p.pos, pose.position, 1e-6);
    expectClose(p.rot, pose.rotation, 1e-6);
    // The new key's curves are the split segment's (those of the key after it).
    const newRec = out.value.doc.bone.bytes.subarray(out.value.record! * BONE.SIZE, (out.value.record! + 1) * BONE.SIZE);
    const nextRec = doc.bone.bytes.subarray(b.record[gapKey + 1] * BONE.SIZE, (b.record[gapKey + 1] + 1) * BONE.SIZE);
    expect(Buffer.from(newRec.subarray(BONE.INTERPOLATION, BONE.INTERPOLATION + 64)).equals(Buffer.from(nextRec.subarray(BONE.INTERPOLATION, BONE.INTERPOLATION + 64)))).toBe(true);
    // Before the previous key and after the next one nothing moves.
    for (const g of [b.frames[gapKey] - 1, b.frames[gapKey + 1] + 1]) {
      if (g < 0) continue;
      expect(played(out.value.doc, '右腕', g)).toEqual(played(doc, '右腕', g));
    }
    expect(Buffer.from(writeVmd(revertDiff(out.value.doc, out.value.diff))).equals(Buffer.from(writeVmd(doc)))).toBe(true);
    expect(Buffer.from(writeVmd(applyDiff(doc, out.value.diff))).equals(Buffer.from(writeVmd(out.value.doc)))).toBe(true);
  });

  it('on a key: the same record takes the pose, its name, curves and physics bytes unchanged', () => {
    const k = gapKey, record = b.record[k];
    const out = registerBoneKey(doc, tracks, { track: arm }, b.frames[k], pose);
    if (!out.ok) throw new Error(out.error.message);
    expect(out.value.replaced).toBe(true);
    expect(out.value.record).toBe(record);
    expect(out.value.doc.bone.count).toBe(doc.bone.count);
    const before = Buffer.from(doc.bone.bytes.subarray(record * BONE.SIZE, (record + 1) * BONE.SIZE));
    const after = Buffer.from(out.value.doc.bone.bytes.subarray(record * BONE.SIZE, (record + 1) * BONE.SIZE));
    // Only the 28 bytes of position and rotation differ.
    for (let i = 0; i < BONE.SIZE; i++) if (i < BONE.POSITION || i >= BONE.ROTATION + 16) expect(after[i], `byte ${i}`).toBe(before[i]);
    expectClose(played(out.value.doc, '右腕', b.frames[k]).rot, pose.rotation, 1e-6);
    for (let i = 0; i < doc.bone.count; i++) if (i !== record && rec(out.value.doc, i) !== rec(doc, i)) throw new Error(`record ${i} changed`);
  });

  it('a bone the motion has no key of gets a track under its model name, with linear curves', () => {
    const out = registerBoneKey(doc, tracks, { name: 'ポーズ用' }, 30, pose);
    if (!out.ok) throw new Error(out.error.message);
    const t = buildTracks(out.value.doc);
    expect(tracks.bones.names).not.toContain('ポーズ用');
    expect(t.bones.names).toContain('ポーズ用');
    expectClose(played(out.value.doc, 'ポーズ用', 30).pos, pose.position, 1e-6);
    // An empty motion takes its first key the same way.
    const blank = emptyVmd();
    const first = registerBoneKey(blank, buildTracks(blank), { name: '左腕' }, 0, pose);
    if (!first.ok) throw new Error(first.error.message);
    expect(buildTracks(first.value.doc).bones.names).toEqual(['左腕']);
  });

  it('stores a name over 15 bytes cut there, as MMD does, and keys the same track again under it', () => {
    // とても長いボーンの名前です: 13 two-byte characters, 26 bytes; the field holds the first 15: seven characters
    // (とても長いボー, 82 C6 82 C4 82 E0 92 B7 82 A2 83 7B 81 5B) and the lead byte of ン (83).
    const long = registerBoneKey(doc, tracks, { name: 'とても長いボーンの名前です' }, 0, pose);
    if (!long.ok) throw new Error(long.error.message);
    const back = readVmd(writeVmd(long.value.doc));
    if (!back.ok) throw new Error(back.error.message);
    const t = buildTracks(back.value);
    const k = t.bones.names.indexOf('とても長いボー');
    expect(k).toBeGreaterThanOrEqual(0);
    const rec = back.value.bone.bytes.subarray(t.bones.record[t.bones.start[k]] * BONE.SIZE);
    expect(Array.from(rec.subarray(0, 15))).toEqual([0x82, 0xc6, 0x82, 0xc4, 0x82, 0xe0, 0x92, 0xb7, 0x82, 0xa2, 0x83, 0x7b, 0x81, 0x5b, 0x83]);
    // A second key of it, by the model's whole name, goes to that track (not a second one).
    const again = registerBoneKey(back.value, t, { name: 'とても長いボーンの名前です' }, 10, pose);
    if (!again.ok) throw new Error(again.error.message);
    const t2 = buildTracks(again.value.doc);
    expect(t2.bones.names.filter((n) => n.startsWith('とても'))).toEqual(['とても長いボー']);
    expect(t2.bones.start[k + 1] - t2.bones.start[k]).toBe(2);
  });

  it('refuses a name Shift_JIS cannot hold, a frame out of range and a pose that is not a number', () => {
    const long = registerBoneKey(doc, tracks, { name: 'Bone 💃' }, 0, pose);
    expect(!long.ok && long.error.detail.key).toBe('editor.refusal.boneNameNotStorable');
    const neg = registerBoneKey(doc, tracks, { track: arm }, -5, pose);
    expect(!neg.ok && neg.error.detail.key).toBe('editor.refusal.frameOutOfRange');
    const nan = registerBoneKey(doc, tracks, { track: arm }, 10, { position: [NaN, 0, 0], rotation: [0, 0, 0, 1] });
    expect(!nan.ok && nan.error.detail.key).toBe('editor.refusal.poseNotFinite');
  });
});
