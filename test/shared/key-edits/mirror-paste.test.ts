// Mirror paste (反転貼り付け), paste on the other side only, and mirror the pose in place, on hand-built
// documents. Expected records are written out here from the rule itself (左 8D B6 ↔ 右 89 45, the sign
// bit of position X and rotation Y, Z flipped), never produced by the code under test.
import { describe, expect, it } from 'vitest';
import {
  blockFromRecords, buildTracks, buildVmd, decodeName, encodeCameraRecord, encodeIkRecord, ikBlockFromRecords, withBlocks, writeVmd, BONE, CAMERA,
  type VmdDocument,
} from '../../../shared/vmd';
import {
  copyKeys, mirrorClipboard, mirrorPasteKeys, mirrorPoseAt, revertDiff,
} from '../../../shared/key-edits';
import { accepted as ok } from '../../helpers/key-edit';

/** Bone records of a document as [name, frame, position, rotation] rows, in record order. */
function bones(doc: VmdDocument): { name: string; frame: number; pos: number[]; rot: number[]; bytes: Uint8Array }[] {
  const out = [];
  for (let i = 0; i < doc.bone.count; i++) {
    const o = i * BONE.SIZE, v = doc.bone.view;
    out.push({
      name: decodeName(doc.bone.bytes, o, 15),
      frame: v.getUint32(o + BONE.FRAME, true),
      pos: [0, 1, 2].map((c) => v.getFloat32(o + BONE.POSITION + 4 * c, true)),
      rot: [0, 1, 2, 3].map((c) => v.getFloat32(o + BONE.ROTATION + 4 * c, true)),
      bytes: doc.bone.bytes.slice(o, o + BONE.SIZE),
    });
  }
  return out;
}

/**
 * The rule by hand: 左 (8D B6) → 右 (89 45) in the first two bytes, frame set, three sign bits flipped
 * where the value is not an exact zero (a zero is its own mirror and keeps its bytes).
 */
function mirroredByHand(src: Uint8Array, frame: number): Uint8Array {
  const r = src.slice();
  const v = new DataView(r.buffer);
  expect([r[0], r[1]]).toEqual([0x8d, 0xb6]);
  r[0] = 0x89;
  r[1] = 0x45;
  v.setUint32(BONE.FRAME, frame, true);
  for (const at of [19, 31 + 4, 31 + 8]) if (v.getFloat32(at, true) !== 0) r[at + 3] ^= 0x80; // position x, rotation y, z
  return r;
}

const Q = [0.1, 0.2, 0.3, Math.sqrt(1 - 0.14)];

describe('mirror paste', () => {
  const doc = buildVmd({
    bones: [
      { name: 'センター', frame: 0, position: [1, 2, 3], rotation: [0, 0, 0, 1] },
      { name: '左腕', frame: 5, position: [0.5, -1, 2], rotation: Q },
      { name: '右腕', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { name: '右腕', frame: 20, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
    ],
  });
  const tracks = buildTracks(doc);
  const srcBytes = doc.bone.bytes.slice(BONE.SIZE, 2 * BONE.SIZE);

  it('writes a copied 左腕 key as a 右腕 key with the mirror rule applied, overwriting the key there', () => {
    const clip = copyKeys(doc, [{ kind: 'bone', record: 1 }]);
    const r = ok(mirrorPasteKeys(doc, tracks, clip, 20));
    const out = bones(r.doc);
    expect(out).toHaveLength(4); // the 右腕 key at 20 was replaced in place, nothing appended
    expect(out[3].name).toBe('右腕');
    expect(out[3].bytes).toEqual(mirroredByHand(srcBytes, 20));
    expect(out[3].pos).toEqual([-0.5, -1, 2]);
    expect(out[3].rot.map((x) => Math.abs(x))).toEqual(out[1].rot.map((x) => Math.abs(x)));
    expect([Math.sign(out[3].rot[1]), Math.sign(out[3].rot[2])]).toEqual([-1, -1]);
    // Everything else as it was; the source key too.
    for (const i of [0, 1, 2]) expect(out[i].bytes).toEqual(bones(doc)[i].bytes);
    expect(r.records).toEqual([{ kind: 'bone', record: 3 }]);
    expect(r.diff.label).toBe('mirror paste');
    expect(writeVmd(revertDiff(r.doc, r.diff))).toEqual(writeVmd(doc));
  });

  it('appends when the other side has no key at that frame, and mirrors a centre bone onto itself', () => {
    const clip = copyKeys(doc, [{ kind: 'bone', record: 0 }, { kind: 'bone', record: 1 }]);
    const r = ok(mirrorPasteKeys(doc, tracks, clip, 100));
    const out = bones(r.doc);
    expect(out).toHaveLength(6);
    expect(out[4]).toMatchObject({ name: 'センター', frame: 100, pos: [-1, 2, 3] });
    expect(out[5].bytes).toEqual(mirroredByHand(srcBytes, 105)); // offsets kept: 左腕 was 5 frames after センター
  });

  it('pastes only the keys with a side in "other side" mode', () => {
    const clip = copyKeys(doc, [{ kind: 'bone', record: 0 }, { kind: 'bone', record: 1 }]);
    const r = ok(mirrorPasteKeys(doc, tracks, clip, 100, 'otherSide'));
    const out = bones(r.doc);
    expect(out).toHaveLength(5);
    expect(out[4].bytes).toEqual(mirroredByHand(srcBytes, 105));
    expect(out.filter((b) => b.name === 'センター')).toHaveLength(1);
    expect(r.diff.label).toBe('paste on the other side');
    // Nothing with a side: refused, nothing changes.
    const centre = copyKeys(doc, [{ kind: 'bone', record: 0 }]);
    const refused = mirrorPasteKeys(doc, tracks, centre, 100, 'otherSide');
    expect(!refused.ok && refused.error.code).toBe('E_EMPTY');
  });

  it('mirroring a clipboard twice gives the same bytes (an involution) and leaves the original alone', () => {
    const clip = copyKeys(doc, [{ kind: 'bone', record: 0 }, { kind: 'bone', record: 1 }]);
    const before = clip.items.map((it) => it.bytes.slice());
    const twice = mirrorClipboard(mirrorClipboard(clip));
    expect(twice.items.map((it) => it.bytes)).toEqual(before);
    expect(clip.items.map((it) => it.bytes)).toEqual(before);
  });
});

describe('mirror the pose in place', () => {
  const s = Math.sin(Math.PI / 8), c = Math.cos(Math.PI / 8);
  const doc = buildVmd({
    bones: [
      { name: '左腕', frame: 10, position: [0, 0, 0], rotation: Q },
      { name: '右腕', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { name: '右腕', frame: 20, position: [0, 0, 0], rotation: [0, Math.SQRT1_2, 0, Math.SQRT1_2] },
      { name: 'センター', frame: 10, position: [4, 5, 6], rotation: [0, 0, 0, 1] },
      { name: '左足', frame: 0, position: [1, 0, 0], rotation: [0.6, 0, 0, 0.8] },
    ],
  });
  const tracks = buildTracks(doc);

  it('swaps the two sides at the frame (a key there byte for byte, else the interpolated pose)', () => {
    const r = ok(mirrorPoseAt(doc, tracks, 10));
    const out = bones(r.doc);
    const at = (name: string, frame: number) => out.filter((b) => b.name === name && b.frame === frame);
    // 右腕 at 10: the mirror of 左腕's key there, exactly.
    expect(at('右腕', 10).map((b) => b.bytes)).toEqual([mirroredByHand(doc.bone.bytes.slice(0, BONE.SIZE), 10)]);
    // 左腕 at 10 (key overwritten in place): the mirror of 右腕 halfway from identity to 90° about Y = 45°.
    const left = at('左腕', 10);
    expect(left).toHaveLength(1);
    expect(out[0].name).toBe('左腕');
    [0, -s, 0, c].forEach((x, i) => expect(left[0].rot[i]).toBeCloseTo(x, 5));
    // The centre bone mirrors onto itself.
    expect(at('センター', 10)[0].pos).toEqual([-4, 5, 6]);
    // 右足 has no track: it gets the mirror of 左足, and 左足 the mirror of the rest pose.
    expect(at('右足', 10)[0]).toMatchObject({ pos: [-1, 0, 0] });
    expect(at('右足', 10)[0].rot.map((x) => x + 0)).toEqual([0.6000000238418579, 0, 0, 0.800000011920929]);
    const leftLeg = at('左足', 10)[0];
    expect(leftLeg.pos.every((x) => x === 0) && leftLeg.rot.slice(0, 3).every((x) => x === 0) && leftLeg.rot[3] === 1).toBe(true);
    expect(r.diff.label).toBe('mirror pose');
    expect(writeVmd(revertDiff(r.doc, r.diff))).toEqual(writeVmd(doc));
  });

  it('mirrors only the bones in scope and their counterparts', () => {
    const r = ok(mirrorPoseAt(doc, tracks, 10, [tracks.bones.index.get('左腕')!]));
    const out = bones(r.doc);
    expect(out.filter((b) => b.frame === 10).map((b) => b.name).sort()).toEqual(['センター', '右腕', '左腕'].sort());
    expect(out.find((b) => b.name === 'センター')!.pos).toEqual([4, 5, 6]);
  });
});

describe('mirror paste of camera, morph and IK keys', () => {
  const base = buildVmd({ morphs: [{ name: 'ウィンク左', frame: 0, weight: 0.7 }, { name: 'あ', frame: 0, weight: 0.2 }] });
  const doc = withBlocks(base, {
    camera: blockFromRecords('camera', [encodeCameraRecord({ frame: 0, distance: -30, target: [1, 10, 2], rotation: [0.1, 0.2, 0.3], fov: 30, perspective: 0 })]),
    ik: ikBlockFromRecords([encodeIkRecord({ frame: 0, visible: 1, iks: [{ name: '左足ＩＫ', enabled: 1 }, { name: '右足ＩＫ', enabled: 0 }] })]),
  });
  const tracks = buildTracks(doc);

  it('negates the camera target X and the Y and Z angles, swaps morph and IK names, keeps weights', () => {
    const clip = copyKeys(doc, [{ kind: 'camera', record: 0 }, { kind: 'morph', record: 0 }, { kind: 'morph', record: 1 }, { kind: 'ik', record: 0 }]);
    const r = ok(mirrorPasteKeys(doc, tracks, clip, 50));
    const cam = r.doc.camera.view, co = r.doc.camera.size; // the pasted camera key is record 1
    expect(r.doc.camera.count).toBe(2);
    expect([0, 1, 2].map((c) => cam.getFloat32(co + CAMERA.TARGET + 4 * c, true))).toEqual([-1, 10, 2]);
    expect([0, 1, 2].map((c) => cam.getFloat32(co + CAMERA.ROTATION + 4 * c, true))).toEqual([Math.fround(0.1), -Math.fround(0.2), -Math.fround(0.3)]);
    expect(cam.getFloat32(co + CAMERA.DISTANCE, true)).toBe(-30);
    const names = Array.from({ length: r.doc.morph.count }, (_, i) => decodeName(r.doc.morph.bytes, i * 23, 15));
    expect(names).toEqual(['ウィンク左', 'あ', 'ウィンク右', 'あ']);
    expect(r.doc.morph.view.getFloat32(2 * 23 + 19, true)).toBe(Math.fround(0.7));
    const ik = r.doc.ik.bytes.subarray(r.doc.ik.offsets[1]);
    expect(decodeName(ik, 9, 20)).toBe('右足ＩＫ');
    expect(ik[9 + 20]).toBe(1);
    expect(decodeName(ik, 9 + 21, 20)).toBe('左足ＩＫ');
    expect(ik[9 + 21 + 20]).toBe(0);
  });

  it('"other side" keeps only the morph with a side', () => {
    const clip = copyKeys(doc, [{ kind: 'camera', record: 0 }, { kind: 'morph', record: 0 }, { kind: 'morph', record: 1 }]);
    const r = ok(mirrorPasteKeys(doc, tracks, clip, 50, 'otherSide'));
    expect(r.doc.camera.count).toBe(1);
    expect(r.doc.morph.count).toBe(3);
    expect(decodeName(r.doc.morph.bytes, 2 * 23, 15)).toBe('ウィンク右');
  });
});
