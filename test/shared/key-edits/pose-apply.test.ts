// Applying a pose to a motion at a frame (shared/key-edits/pose-apply.ts), with real files of the corpus: the
// poses threejs/vpds/01.vpd (93 bones) and mc-mmd-rust 微笑.vpd (morphs only) onto wavefile_v2.vmd. The VPD's
// values are read here by an independent parse of its text (not the codec's readVpd), and the keys are read
// back from the result's records.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../helpers/corpus';
import { BONE, MORPH, buildTracks, readVmd, readVpd, writeVmd } from '../../../shared/vmd';
import { applyPose, revertDiff } from '../../../shared/key-edits';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';

const WAVE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const POSE = corpusPath('threejs/vpds/01.vpd');
const SMILE = corpusPath('mc-mmd-rust/CustomMorphs/微笑.vpd');
/**
 * The first row of MMD's linear curves in a bone key as MMD writes it: x1 of X, Y, then two bytes MMD keeps 0
 * (where physics is switched off), then y1, x2, y2 of the four channels (20, 107, 107).
 */
const LINEAR_ROW = [20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107];

function load(): VmdDocument {
  const r = readVmd(new Uint8Array(readFileSync(WAVE)));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
function pose(path: string) {
  const r = readVpd(new Uint8Array(readFileSync(path)));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** The VPD's text, parsed here: bones (name, position, quaternion) and morphs (name, weight), in file order. */
function parseVpdText(path: string) {
  const text = new TextDecoder('shift_jis').decode(readFileSync(path)).replace(/\/\/[^\n]*/g, '');
  const bones: { name: string; pos: number[]; rot: number[] }[] = [];
  const morphs: { name: string; weight: number }[] = [];
  for (const m of text.matchAll(/Bone\d+\{([^\r\n]*)\s*([^;]*);\s*([^;]*);\s*\}/g)) {
    bones.push({ name: m[1].trim(), pos: m[2].split(',').map(Number), rot: m[3].split(',').map(Number) });
  }
  for (const m of text.matchAll(/Morph\d+\{([^\r\n]*)\s*([^;]*);\s*\}/g)) morphs.push({ name: m[1].trim(), weight: Number(m[2]) });
  return { bones, morphs };
}

const f32 = (x: number) => Math.fround(x);
/** The bone key of `name` at `frame` in a document: its record's values and curves, and how many keys it has there. */
function boneKeyAt(d: VmdDocument, name: string, frame: number) {
  const t = buildTracks(d).bones;
  const track = t.index.get(name);
  if (track === undefined) return null;
  const hits: number[] = [];
  for (let k = t.start[track]; k < t.start[track + 1]; k++) if (t.frames[k] === frame) hits.push(t.record[k]);
  if (!hits.length) return null;
  const r = hits[0];
  const v = new DataView(d.bone.bytes.buffer, d.bone.bytes.byteOffset + r * BONE.SIZE, BONE.SIZE);
  return {
    count: hits.length,
    pos: [0, 1, 2].map((c) => v.getFloat32(BONE.POSITION + 4 * c, true)),
    rot: [0, 1, 2, 3].map((c) => v.getFloat32(BONE.ROTATION + 4 * c, true)),
    curves: Array.from(d.bone.bytes.subarray(r * BONE.SIZE + BONE.INTERPOLATION, r * BONE.SIZE + BONE.INTERPOLATION + 64)),
  };
}

describe('applyPose', () => {
  const doc = load();
  const tracks = buildTracks(doc);
  const vpd = parseVpdText(POSE);
  const original = writeVmd(doc);

  it('keys every bone of 01.vpd at frame 120 with the file’s values; undo gives back the exact bytes', () => {
    expect(vpd.bones.length).toBe(93);
    const out = applyPose(doc, tracks, pose(POSE), 120, { label: 'apply pose 01.vpd at 120' });
    if (!out.ok) throw new Error(out.error.message);
    expect(out.value.diff.label).toBe('apply pose 01.vpd at 120');
    expect(out.value.bones).toBe(new Set(vpd.bones.map((b) => b.name)).size);
    expect(out.value.missingBones).toEqual([]);
    for (const b of vpd.bones) {
      const k = boneKeyAt(out.value.doc, b.name, 120);
      expect(k, b.name).not.toBeNull();
      expect(k!.count, b.name).toBe(1);
      expect(k!.pos, b.name).toEqual(b.pos.map(f32));
      const len = Math.hypot(...b.rot);
      k!.rot.forEach((x, c) => expect(Math.abs(x - b.rot[c] / len), `${b.name} [${c}]`).toBeLessThan(1e-6));
    }
    // Nothing else changed: the other bones' keys and the first records keep their bytes.
    const before = doc.bone.bytes, after = out.value.doc.bone.bytes;
    const replaced = out.value.replaced;
    expect(out.value.doc.bone.count).toBe(doc.bone.count + out.value.bones - replaced);
    const keptCount = doc.bone.count;
    let same = 0;
    for (let i = 0; i < keptCount; i++) if (Buffer.from(before.subarray(i * BONE.SIZE, (i + 1) * BONE.SIZE)).equals(Buffer.from(after.subarray(i * BONE.SIZE, (i + 1) * BONE.SIZE)))) same++;
    expect(same).toBe(keptCount - replaced);
    const undone = revertDiff(out.value.doc, out.value.diff);
    expect(Buffer.from(writeVmd(undone)).equals(Buffer.from(original))).toBe(true);
  });

  it('a new key has MMD’s linear curves; a key already at the frame is replaced in place (one key there, its curves kept)', () => {
    const b = tracks.bones;
    const center = b.index.get('センター')!;
    const keyed = b.frames[b.start[center] + 1];
    const curvesBefore = boneKeyAt(doc, 'センター', keyed)!.curves;
    const p = pose(POSE);
    const atKey = applyPose(doc, tracks, p, keyed);
    if (!atKey.ok) throw new Error(atKey.error.message);
    const k = boneKeyAt(atKey.value.doc, 'センター', keyed)!;
    expect(k.count).toBe(1);
    expect(k.pos).toEqual(vpd.bones.find((x) => x.name === 'センター')!.pos.map(f32));
    expect(k.curves).toEqual(curvesBefore);
    expect(atKey.value.replaced).toBeGreaterThan(0);
    // A frame far past the motion's end has no keys: every key is new, with linear curves.
    const late = applyPose(doc, tracks, p, 99999);
    if (!late.ok) throw new Error(late.error.message);
    expect(late.value.replaced).toBe(0);
    const n = boneKeyAt(late.value.doc, 'センター', 99999)!;
    expect(n.curves.slice(0, 16)).toEqual(LINEAR_ROW);
  });

  it('bones the model lacks are left out and named; frame out of range and nothing to key are refused', () => {
    const p = pose(POSE);
    const known = vpd.bones.slice(0, 10).map((b) => b.name);
    const out = applyPose(doc, tracks, p, 120, { knownBones: known });
    if (!out.ok) throw new Error(out.error.message);
    expect(out.value.bones).toBe(new Set(known).size);
    expect(out.value.missingBones).toEqual(vpd.bones.slice(10).map((b) => b.name));
    expect(boneKeyAt(out.value.doc, vpd.bones[50].name, 120)).toBeNull();
    expect(applyPose(doc, tracks, p, -1).ok).toBe(false);
    const none = applyPose(doc, tracks, p, 120, { knownBones: [], knownMorphs: [] });
    expect(none.ok).toBe(false);
  });

  it('morph entries become morph keys at the frame (微笑.vpd)', () => {
    const smile = parseVpdText(SMILE);
    expect(smile.morphs.length).toBeGreaterThan(3);
    const out = applyPose(doc, tracks, pose(SMILE), 30);
    if (!out.ok) throw new Error(out.error.message);
    expect(out.value.morphs).toBe(smile.morphs.length);
    const t = buildTracks(out.value.doc).morphs;
    for (const m of smile.morphs) {
      const track = t.index.get(m.name);
      expect(track, m.name).toBeDefined();
      const hits = [];
      for (let k = t.start[track!]; k < t.start[track! + 1]; k++) if (t.frames[k] === 30) hits.push(t.record[k]);
      expect(hits.length, m.name).toBe(1);
      const w = new DataView(out.value.doc.morph.bytes.buffer, out.value.doc.morph.bytes.byteOffset + hits[0] * MORPH.SIZE, MORPH.SIZE).getFloat32(MORPH.WEIGHT, true);
      expect(w, m.name).toBe(f32(m.weight));
    }
    expect(Buffer.from(writeVmd(revertDiff(out.value.doc, out.value.diff))).equals(Buffer.from(original))).toBe(true);
  });

  it('as with bones, a morph key already at the frame takes the weight in place (its other bytes kept); names the model lacks are listed, a weight that is not a number skipped', () => {
    const t = tracks.morphs;
    const track = t.names.findIndex((_, i) => t.start[i + 1] > t.start[i]);
    const name = t.names[track];
    const at = t.start[track];
    const frame = t.frames[at], record = t.record[at];
    const p = { ...pose(SMILE), bones: [], morphs: [{ name, weight: 0.25 }, { name: 'ないモーフ', weight: 1 }, { name: 'あ', weight: NaN }] };
    const out = applyPose(doc, tracks, p, frame, { knownMorphs: [name, 'あ'] });
    if (!out.ok) throw new Error(out.error.message);
    expect([out.value.morphs, out.value.replaced, out.value.missingMorphs, out.value.skipped]).toEqual([1, 1, ['ないモーフ'], ['あ']]);
    expect(out.value.doc.morph.count).toBe(doc.morph.count);
    const before = doc.morph.bytes.subarray(record * MORPH.SIZE, (record + 1) * MORPH.SIZE);
    const after = out.value.doc.morph.bytes.subarray(record * MORPH.SIZE, (record + 1) * MORPH.SIZE);
    expect(new DataView(after.buffer, after.byteOffset, MORPH.SIZE).getFloat32(MORPH.WEIGHT, true)).toBe(0.25);
    expect(Array.from(after.subarray(0, MORPH.WEIGHT))).toEqual(Array.from(before.subarray(0, MORPH.WEIGHT)));
  });
});
