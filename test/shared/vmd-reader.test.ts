import { describe, expect, it } from 'vitest';
import {
  absentBlocks,
  boneName,
  bonePosition,
  boneRotation,
  cameraKey,
  frameOf,
  ikKey,
  lightKey,
  morphName,
  morphWeight,
  readVmd,
  shadowKey,
  writeVmd,
} from '../../shared/vmd';
import { ByteWriter, DEFAULT_INTERP, SJIS, boneRecord, buildFixture, header } from '../helpers/vmd-fixtures';

describe('readVmd on hand-built files', () => {
  const bytes = buildFixture({
    bones: [
      { name: SJIS.センター, frame: 5, pos: [1, 2, 3], rot: [0, 0.5, 0, 0.8660254] },
      { name: SJIS.左腕, frame: 0 },
    ],
    morphs: [{ name: SJIS.まばたき, frame: 7, weight: 0.25 }],
    cameras: [{ frame: 3, distance: -45, target: [0, 10, 0], rotation: [0.1, 0.2, 0.3], fov: 30, perspective: 0 }],
    lights: [{ frame: 9, color: [0.6, 0.5, 0.4], direction: [-0.5, -1, 0.5] }],
    shadows: [{ frame: 11, mode: 1, distance: 0.08 }],
    ik: [{ frame: 2, visible: 1, iks: [{ name: 'leftIK', enabled: 0 }, { name: 'rightIK', enabled: 1 }] }],
  });

  it('reads every block and field at its documented offset', () => {
    const r = readVmd(bytes);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const d = r.value;
    expect(d.bone.count).toBe(2);
    expect(boneName(d.bone, 0)).toBe('センター');
    expect(boneName(d.bone, 1)).toBe('左腕');
    expect(frameOf(d.bone, 0)).toBe(5);
    expect(bonePosition(d.bone, 0)).toEqual([1, 2, 3]);
    expect(boneRotation(d.bone, 0)[1]).toBeCloseTo(0.5, 6);
    expect(morphName(d.morph, 0)).toBe('まばたき');
    expect(morphWeight(d.morph, 0)).toBe(0.25);
    const cam = cameraKey(d.camera, 0);
    expect(cam.frame).toBe(3);
    expect(cam.distance).toBe(-45);
    expect(cam.target).toEqual([0, 10, 0]);
    expect(cam.fov).toBe(30);
    expect(lightKey(d.light, 0).direction).toEqual([-0.5, -1, 0.5]);
    expect(shadowKey(d.shadow, 0)).toMatchObject({ frame: 11, mode: 1 });
    const ik = ikKey(d.ik, 0);
    expect(ik).toMatchObject({ frame: 2, visible: 1 });
    expect(ik.iks).toEqual([{ name: 'leftIK', enabled: 0 }, { name: 'rightIK', enabled: 1 }]);
    expect(d.blocksPresent).toBe(6);
    expect(writeVmd(d)).toEqual(bytes);
  });

  it('accepts files that end after any block, remembers which were absent, and writes them back the same', () => {
    for (let blocks = 0; blocks <= 6; blocks++) {
      const b = buildFixture({ bones: [{ name: 'a', frame: 1 }], blocks });
      const r = readVmd(b);
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      expect(r.value.blocksPresent).toBe(blocks);
      expect(absentBlocks(r.value).length).toBe(6 - blocks);
      expect(writeVmd(r.value)).toEqual(b);
    }
  });

  it('keeps 1–3 stray bytes after the last block (too short for a count) and writes them back', () => {
    const b = buildFixture({ blocks: 2 });
    const withTail = Uint8Array.from([...b, 7, 8]);
    const r = readVmd(withTail);
    expect(r.ok && r.value.trailing.length).toBe(2);
    if (r.ok) {
      expect(r.diagnostics[0].offset).toBe(b.length);
      expect(writeVmd(r.value)).toEqual(withTail);
    }
  });

  it('reads version 0001 files with a 10-byte model name', () => {
    const w = header(new ByteWriter(), 1, 'old');
    w.u32(1);
    boneRecord(w, { name: 'x', frame: 4 });
    const b = w.done();
    const r = readVmd(b);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.modelName.length).toBe(10);
      expect(boneName(r.value.bone, 0)).toBe('x');
      expect(frameOf(r.value.bone, 0)).toBe(4);
      expect(writeVmd(r.value)).toEqual(b);
    }
  });

  it('respects a Uint8Array view at a non-zero byteOffset (Node Buffer pooling)', () => {
    const big = new Uint8Array(bytes.length + 13);
    big.set(bytes, 13);
    const view = big.subarray(13);
    const r = readVmd(view);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(boneName(r.value.bone, 0)).toBe('センター');
      expect(writeVmd(r.value)).toEqual(bytes);
    }
  });

  it('drops the U+FFFD left by a character cut at the end of the 15-byte field, keeping raw bytes', () => {
    // 7 two-byte characters (14 bytes) + the lead byte of an 8th: the field cuts it in half.
    const name = [...SJIS.センター, ...SJIS.左腕, 0x98, 0x72, 0x8d];
    const b = buildFixture({ bones: [{ name, frame: 0 }] });
    const r = readVmd(b);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(boneName(r.value.bone, 0)).toBe('センター左腕腕');
      expect(writeVmd(r.value)).toEqual(b);
    }
  });
});

describe('readVmd on bad input', () => {
  it('rejects a wrong magic with E_VMD_MAGIC at offset 0', () => {
    const r = readVmd(new TextEncoder().encode('PK\u0003\u0004 not a motion at all, just some zip'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'E_VMD_MAGIC', offset: 0 });
  });

  it('rejects a header cut before the model name ends', () => {
    const r = readVmd(buildFixture({}).subarray(0, 40));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('E_VMD_TRUNCATED');
  });

  it('rejects a count that promises more records than the bytes hold, before allocating', () => {
    const w = header(new ByteWriter());
    w.u32(4_000_000_000);
    boneRecord(w, { name: 'a', frame: 0 });
    const r = readVmd(w.done());
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('E_VMD_COUNT');
      expect(r.error.offset).toBe(50);
      expect(r.error.message).toMatch(/bone block promises 4000000000/);
    }
  });

  it('rejects a block truncated in the middle of a record and names its offset', () => {
    const full = buildFixture({ bones: [{ name: 'a', frame: 0 }, { name: 'b', frame: 1 }] });
    const cut = full.subarray(0, 54 + 111 + 50);
    const r = readVmd(cut);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'E_VMD_COUNT', offset: 50 });
  });

  it('rejects an IK record whose IK count runs past the end', () => {
    const w = header(new ByteWriter());
    for (let i = 0; i < 5; i++) w.u32(0);
    w.u32(1).u32(0).u8(1).u32(1000);
    const r = readVmd(w.done());
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('E_VMD_COUNT');
      expect(r.error.offset).toBe(50 + 5 * 4 + 4 + 5); // header+name, five empty counts, IK count, then the record's IK-count field
    }
  });

  it('uses the documented default interpolation block unchanged in fixtures', () => {
    expect(DEFAULT_INTERP.length).toBe(64);
  });
});
