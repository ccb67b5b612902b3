/**
 * Keys the editor writes from numbers hold +0 where the value is zero, as MMD writes them, never −0 (the
 * sign bit alone, 0x80000000): a handle drag's pose (three.js → MMD flips z and the quaternion's x and y, so
 * an untouched 0 came out −0), a typed −0 or angles, a camera view, a morph weight, an inserted key.
 * The byte mirror of existing records (mirror paste, Whole Motion mirror) flips sign bits, an involution on
 * the raw bytes, and leaves an exact zero (+0 or −0) as it is (shared/motion-ops/mirror.ts).
 */
import { describe, expect, it } from 'vitest';
import { BONE, CAMERA, MORPH, buildTracks, buildVmd } from '../../../shared/vmd';
import { editValues, insertKey, registerBoneKey, registerCameraKey, registerMorphKey, type EditOutcome, type KeyEdit } from '../../../shared/key-edits';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';

const ONE = 0x3f800000; // 1.0f

function doc(): VmdDocument {
  return buildVmd({
    bones: [
      { name: '左腕', frame: 0, position: [0, 2, -0], rotation: [0, 0, 0, 1] },
      { name: '左腕', frame: 100, position: [-0, 2, -0], rotation: [0, 0, 0, 1] },
      { name: 'センター', frame: 0, position: [1, 1, 1], rotation: [0, 0, 0, 1] },
    ],
    morphs: [{ name: 'あ', frame: 0, weight: 0 }],
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

describe('keys the editor writes from numbers hold +0, not −0', () => {
  it('a registered pose (a handle drag: its z and quaternion x, y change sign) writes +0', () => {
    const d = doc();
    const t = buildTracks(d);
    const pose = { position: [0, 0, -0] as [number, number, number], rotation: [-0, -0, 0, 1] as [number, number, number, number] };
    // A new key on a track, a key replaced, a bone new to the motion.
    for (const target of [{ track: t.bones.index.get('左腕')! }, { name: '右腕' }]) {
      const e = ok(registerBoneKey(d, t, target, 82, pose));
      expect(boneBits(e.doc, e.record)).toEqual([0, 0, 0, 0, 0, 0, ONE]);
    }
    const e = ok(registerBoneKey(d, t, { track: t.bones.index.get('左腕')! }, 0, pose));
    expect(e.record).toBe(0);
    expect(boneBits(e.doc, 0)).toEqual([0, 0, 0, 0, 0, 0, ONE]);
  });

  it('a typed −0 and a rotation typed as angles write +0', () => {
    const d = doc();
    const t = buildTracks(d);
    const e = ok(editValues(d, [{ kind: 'bone', record: 2 }], { position: [-0, -0, -0], euler: [0, 0, -0] }));
    expect(boneBits(e.doc, 2)).toEqual([0, 0, 0, 0, 0, 0, ONE]);
    const c = ok(registerCameraKey(d, t, 20, { distance: -0, target: [-0, -0, -0], rotation: [-0, -0, -0], fov: 30 }));
    const cv = c.doc.camera.view, o = c.record * CAMERA.SIZE;
    expect([0, 1, 2].map((k) => cv.getUint32(o + CAMERA.TARGET + 4 * k, true))).toEqual([0, 0, 0]);
    expect([0, 1, 2].map((k) => cv.getUint32(o + CAMERA.ROTATION + 4 * k, true))).toEqual([0, 0, 0]);
    expect(cv.getUint32(o + CAMERA.DISTANCE, true)).toBe(0);
    const m = ok(registerMorphKey(d, t, 'あ', 20, -0));
    expect(m.doc.morph.view.getUint32(m.record * MORPH.SIZE + MORPH.WEIGHT, true)).toBe(0);
  });

  it('a key inserted after the last key, which holds −0, holds +0 (Enter at the playhead)', () => {
    const d = doc();
    expect(boneBits(d, 1)[0]).toBe(0x80000000); // the file's own −0 stays in its keys
    const t = buildTracks(d);
    // After its last key the track holds that key's values, −0 included (between keys 0 and −0 give +0).
    const e = ok(insertKey(d, t, { kind: 'bone', track: t.bones.index.get('左腕')! }, 150));
    expect(boneBits(e.doc, e.record)).toEqual([0, 0x40000000, 0, 0, 0, 0, ONE]);
  });
});
