/**
 * A bone's or morph's pose at a frame where it may have no key (shared/key-edits/pose-at.ts): copied as it
 * plays there and pasted at another frame, shown, and typed into (a key registered there, +0 for a typed −0).
 * Built by hand: MMD's linear curves, so the values halfway between two keys are worked out here.
 */
import { describe, expect, it } from 'vitest';
import { BONE, MORPH, buildTracks, buildVmd, writeVmd } from '../../../shared/vmd';
import { copyFaceAt, copyPoseAt, pasteKeys, poseSummaryAt, revertDiff, setValuesAt, type KeyEdit } from '../../../shared/key-edits';
import type { EditOutcome } from '../../../shared/key-edits';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';

const S = Math.SQRT1_2;
const H = [0, Math.sin(Math.PI / 8), 0, Math.cos(Math.PI / 8)];

function doc(): VmdDocument {
  return buildVmd({
    bones: [
      { name: '左腕', frame: 0, position: [0, 2, 0], rotation: [0, 0, 0, 1] },
      { name: '左腕', frame: 100, position: [10, 2, -4], rotation: [0, S, 0, S] },
      { name: 'センター', frame: 0, position: [1, 1, 1], rotation: [0, 0, 0, 1] },
    ],
    morphs: [
      { name: 'あ', frame: 0, weight: 0 },
      { name: 'あ', frame: 10, weight: 1 },
    ],
  });
}

function ok<T extends KeyEdit>(o: EditOutcome<T>): T {
  if (!o.ok) throw new Error(o.error.message);
  return o.value;
}

/** The raw 32 bits of a bone record's float fields: position x, y, z, rotation x, y, z, w. */
function boneBits(d: VmdDocument, r: number): number[] {
  return [0, 1, 2, 3, 4, 5, 6].map((c) => d.bone.view.getUint32(r * BONE.SIZE + BONE.POSITION + 4 * c, true));
}
const boneFloats = (d: VmdDocument, r: number) => [0, 1, 2, 3, 4, 5, 6].map((c) => d.bone.view.getFloat32(r * BONE.SIZE + BONE.POSITION + 4 * c, true));

describe('the pose at a frame without a key', () => {
  it('copyPoseAt takes the key at that frame byte for byte, else the pose in between; paste puts it at the playhead', () => {
    const d = doc();
    const t = buildTracks(d);
    const arm = { kind: 'bone' as const, track: t.bones.index.get('左腕')! };
    const atKey = copyPoseAt(d, t, [arm], 100);
    expect(Buffer.from(atKey.items[0].bytes).equals(Buffer.from(d.bone.bytes.subarray(BONE.SIZE, 2 * BONE.SIZE)))).toBe(true);

    const clip = copyPoseAt(d, t, [arm, { kind: 'morph', track: t.morphs.index.get('あ')! }], 50);
    expect(clip.items.map((it) => [it.kind, it.offset])).toEqual([['bone', 0], ['morph', 0]]);
    const e = ok(pasteKeys(d, t, clip, 70));
    expect(e.doc.bone.count).toBe(4);
    const v = boneFloats(e.doc, 3);
    expect(e.doc.bone.view.getUint32(3 * BONE.SIZE + BONE.FRAME, true)).toBe(70);
    expect(v.slice(0, 3)).toEqual([5, 2, -2]);
    v.slice(3).forEach((x, c) => expect(x).toBeCloseTo(H[c], 6));
    // The morph after its last key holds it: weight 1, at 70.
    expect(e.doc.morph.count).toBe(3);
    expect(e.doc.morph.view.getUint32(2 * MORPH.SIZE + MORPH.FRAME, true)).toBe(70);
    expect(e.doc.morph.view.getFloat32(2 * MORPH.SIZE + MORPH.WEIGHT, true)).toBe(1);
    // A track without keys gives nothing.
    expect(copyPoseAt(d, t, [{ kind: 'bone', track: 99 }], 50).items).toEqual([]);
  });

  it('poseSummaryAt shows the values at that frame', () => {
    const d = doc();
    const t = buildTracks(d);
    const s = poseSummaryAt(d, t, { kind: 'bone', track: t.bones.index.get('左腕')! }, 50)!;
    expect(s.kind).toBe('bone');
    expect(s.count).toBe(1);
    expect(s.frame.value).toBe(50);
    expect(s.numbers.position!.map((f) => f.value)).toEqual([5, 2, -2]);
    expect(s.numbers.quaternion!.map((f) => f.value)).toEqual(H.map((x) => Math.round(x * 1e5) / 1e5));
  });

  it('setValuesAt adds a key with the in-between pose and the typed field, or edits the key there; one edit, undone whole', () => {
    const d = doc();
    const before = writeVmd(d);
    const t = buildTracks(d);
    const arm = { kind: 'bone' as const, track: t.bones.index.get('左腕')! };
    const e = ok(setValuesAt(d, t, arm, 50, { position: [undefined, 7, undefined] }));
    expect(e.record).toBe(3);
    expect(e.doc.bone.count).toBe(4);
    expect(boneFloats(e.doc, 3).slice(0, 3)).toEqual([5, 7, -2]);
    expect(e.doc.bone.view.getUint32(3 * BONE.SIZE + BONE.FRAME, true)).toBe(50);
    expect(writeVmd(revertDiff(e.doc, e.diff))).toEqual(before);
    // A relative entry adds to the in-between value.
    const r = ok(setValuesAt(d, t, arm, 50, { offset: { position: [1, undefined, undefined] } }));
    expect(boneFloats(r.doc, 3)[0]).toBe(6);
    // On a key: that key takes it, no record added.
    const k = ok(setValuesAt(d, t, arm, 100, { position: [3, undefined, undefined] }));
    expect(k.record).toBe(1);
    expect(k.doc.bone.count).toBe(3);
    expect(boneFloats(k.doc, 1).slice(0, 3)).toEqual([3, 2, -4]);
    // A morph too.
    const m = ok(setValuesAt(d, t, { kind: 'morph', track: 0 }, 5, { weight: 0.25 }));
    expect(m.doc.morph.count).toBe(3);
    expect(m.doc.morph.view.getFloat32(2 * MORPH.SIZE + MORPH.WEIGHT, true)).toBe(0.25);
  });

  it('a typed −0 registers +0 (MMD writes +0; the sign bit alone is not a value the editor writes)', () => {
    const d = doc();
    const t = buildTracks(d);
    const n = ok(setValuesAt(d, t, { kind: 'bone', track: t.bones.index.get('左腕')! }, 40, { position: [undefined, -0, -0] }));
    expect(boneBits(n.doc, n.record).slice(1, 3)).toEqual([0, 0]);
  });

  it('a bone without keys (track −1, its model name) is at rest: shown, copied and typed into as MMD does for a bone never keyed', () => {
    const d = doc();
    const t = buildTracks(d);
    const arm = { kind: 'bone' as const, track: -1, name: '右腕' };
    const s = poseSummaryAt(d, t, arm, 30)!;
    expect(s.frame.value).toBe(30);
    expect(s.numbers.position!.map((f) => f.value)).toEqual([0, 0, 0]);
    expect(s.numbers.quaternion!.map((f) => f.value)).toEqual([0, 0, 0, 1]);
    // Copy: one key at offset 0 named 右腕 (Shift_JIS 89 45 98 72), the rest pose.
    const clip = copyPoseAt(d, t, [arm], 30);
    expect(clip.items.length).toBe(1);
    expect([...clip.items[0].bytes.subarray(0, 5)]).toEqual([0x89, 0x45, 0x98, 0x72, 0]);
    // Z typed 30°: about Z alone, so q = (0, 0, sin 15°, cos 15°) whatever the Euler order.
    const e = ok(setValuesAt(d, t, arm, 30, { euler: [undefined, undefined, 30] }));
    expect(e.doc.bone.count).toBe(4);
    expect(e.record).toBe(3);
    expect(e.doc.bone.view.getUint32(3 * BONE.SIZE + BONE.FRAME, true)).toBe(30);
    const v = boneFloats(e.doc, 3);
    expect(v.slice(0, 3)).toEqual([0, 0, 0]);
    [0, 0, Math.sin(Math.PI / 12), Math.cos(Math.PI / 12)].forEach((x, c) => expect(v[3 + c]).toBeCloseTo(x, 6));
    expect([...e.doc.bone.bytes.subarray(3 * BONE.SIZE, 3 * BONE.SIZE + 5)]).toEqual([0x89, 0x45, 0x98, 0x72, 0]);
    expect(writeVmd(revertDiff(e.doc, e.diff))).toEqual(writeVmd(d));
    // A name Shift_JIS cannot store is refused, not written as '?'.
    expect(setValuesAt(d, t, { kind: 'bone', track: -1, name: '腕\u{1F600}' }, 30, { euler: [undefined, undefined, 30] }).ok).toBe(false);
  });

  it('copyFaceAt takes every morph at that frame, keyed or in between, and paste registers the face at another frame in one step', () => {
    // The new-user pass's face (numorph 7): at 30 笑い and あ have keys, まばたき lies halfway between 0 (20) and 1 (40),
    // い has one key later on (before it, playback holds it: 0.25). ウ has keys at 30 and 70, so the paste replaces its 70.
    const d = buildVmd({
      bones: [{ name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }],
      morphs: [
        { name: '笑い', frame: 30, weight: 1 },
        { name: 'あ', frame: 0, weight: 0 },
        { name: 'あ', frame: 30, weight: 0.625 },
        { name: 'まばたき', frame: 20, weight: 0 },
        { name: 'まばたき', frame: 40, weight: 1 },
        { name: 'い', frame: 100, weight: 0.25 },
        { name: 'ウ', frame: 30, weight: 0.75 },
        { name: 'ウ', frame: 70, weight: 0.125 },
      ],
    });
    const t = buildTracks(d);
    const clip = copyFaceAt(d, t, 30);
    expect(clip.items.length).toBe(5);
    expect(clip.items.every((it) => it.kind === 'morph' && it.offset === 0)).toBe(true);
    const e = ok(pasteKeys(d, t, clip, 70));
    // Four keys added (ウ's at 70 replaced), one edit: its diff undoes the whole paste.
    expect(e.doc.morph.count).toBe(8 + 4);
    const after = buildTracks(e.doc).morphs;
    const at70 = (name: string) => {
      const tr = after.index.get(name)!;
      const ks: number[] = [];
      for (let k = after.start[tr]; k < after.start[tr + 1]; k++) if (after.frames[k] === 70) ks.push(after.weight[k]);
      return ks;
    };
    expect(at70('笑い')).toEqual([1]);
    expect(at70('あ')).toEqual([0.625]);
    expect(at70('まばたき')).toEqual([0.5]);
    expect(at70('い')).toEqual([0.25]);
    expect(at70('ウ')).toEqual([0.75]);
    expect(writeVmd(revertDiff(e.doc, e.diff))).toEqual(writeVmd(d));
    // A motion without morph keys gives nothing to copy.
    const bare = buildVmd({ bones: [{ name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }] });
    expect(copyFaceAt(bare, buildTracks(bare), 30).items).toEqual([]);
  });
});
