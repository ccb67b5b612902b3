import { describe, expect, it } from 'vitest';
import {
  buildBoneInterpolation,
  getBoneCurve,
  getBoneCurves,
  getCameraCurve,
  hasCopies,
  physicsFlag,
  physicsOff,
  physicsOnPairOf,
  setBoneCurve,
  setBoneCurves,
  setCameraCurve,
  setPhysicsOff,
} from '../../shared/vmd';
import { DEFAULT_INTERP, interpBlock } from '../helpers/vmd-fixtures';

const curves = [
  [10, 20, 30, 40],
  [11, 21, 31, 41],
  [12, 22, 32, 42],
  [13, 23, 33, 43],
];

/** The four rows must be the true row shifted by 0..3 bytes (except flag bytes 2–3 and the tails). */
function expectConsistent(ip: Uint8Array, c: number[][]) {
  const row: number[] = [];
  for (let ch = 0; ch < 4; ch++) [row[ch], row[ch + 4], row[ch + 8], row[ch + 12]] = c[ch];
  for (let j = 0; j < 16; j++) if (j !== 2 && j !== 3) expect(ip[j]).toBe(row[j]);
  for (let r = 1; r <= 3; r++) for (let j = 0; j < 16 - r; j++) expect(ip[16 * r + j]).toBe(row[j + r]);
}

describe('bone interpolation (64 bytes)', () => {
  it('reads MMD’s default block as four linear curves', () => {
    const ip = Uint8Array.from(DEFAULT_INTERP);
    expect(getBoneCurves(ip)).toEqual([
      [20, 20, 107, 107],
      [20, 20, 107, 107],
      [20, 20, 107, 107],
      [20, 20, 107, 107],
    ]);
  });

  it('reads x1 of Z and rotation from bytes 17 and 18, not from the physics flag in bytes 2 and 3', () => {
    const ip = Uint8Array.from(interpBlock(curves, [99, 15]));
    expect(ip[2]).toBe(99);
    expect(ip[17]).toBe(12);
    expect(ip[18]).toBe(13);
    expect(getBoneCurve(ip, 2)).toEqual([12, 22, 32, 42]);
    expect(getBoneCurve(ip, 3)).toEqual([13, 23, 33, 43]);
    expect(physicsFlag(ip)).toEqual([99, 15]);
    expect(physicsOff(ip)).toBe(true);
  });

  it('reads x1 of Z and rotation from bytes 2 and 3 when a tool left rows 1–3 empty', () => {
    const ip = new Uint8Array(64);
    ip.set(interpBlock(curves).slice(0, 16));
    ip[2] = 12;
    ip[3] = 13;
    expect(hasCopies(ip)).toBe(false);
    expect(getBoneCurve(ip, 2)[0]).toBe(12);
    expect(getBoneCurve(ip, 3)[0]).toBe(13);
    expect(physicsFlag(ip)).toBeNull();
  });

  it('setting one curve rewrites all four rows consistently and keeps the flag pair and tail bytes', () => {
    const ip = Uint8Array.from(interpBlock(curves, [99, 15]));
    ip[31] = 1;
    ip[63] = 5;
    setBoneCurve(ip, 3, [1, 2, 3, 4]);
    const expected = curves.map((c) => [...c]);
    expected[3] = [1, 2, 3, 4];
    expectConsistent(ip, expected);
    expect([ip[2], ip[3]]).toEqual([99, 15]);
    expect(ip[31]).toBe(1);
    expect(ip[63]).toBe(5);
    expect(getBoneCurves(ip)).toEqual(expected);
  });

  it('setting a curve on a rows-empty block fills the rows and keeps reading the same values', () => {
    const ip = new Uint8Array(64);
    ip.set(interpBlock(curves).slice(0, 16));
    ip[2] = 12;
    ip[3] = 13;
    setBoneCurves(ip, { 0: [5, 6, 7, 8] });
    const expected = curves.map((c) => [...c]);
    expected[0] = [5, 6, 7, 8];
    expect(getBoneCurves(ip)).toEqual(expected);
    expectConsistent(ip, expected);
  });

  it('toggles the physics flag without touching curve values', () => {
    const ip = Uint8Array.from(interpBlock(curves));
    setPhysicsOff(ip, true);
    expect([ip[2], ip[3]]).toEqual([99, 15]);
    expect(getBoneCurves(ip)).toEqual(curves);
    // On again: the pair MMD writes on a physics-on key, x1 of Z and rotation.
    setPhysicsOff(ip, false);
    expect([ip[2], ip[3]]).toEqual([12, 13]);
    expect(physicsOff(ip)).toBe(false);
  });

  it("physics on in a motion whose physics-on keys hold 0/0 writes 0/0; a key already on keeps its bytes", () => {
    const ip = Uint8Array.from(interpBlock(curves));
    setPhysicsOff(ip, true);
    setPhysicsOff(ip, false, 'zeros');
    expect([ip[2], ip[3]]).toEqual([0, 0]);
    expect(getBoneCurves(ip)).toEqual(curves);
    // Already on (0/0, or the copy): ticking "on" again changes nothing, whatever the convention.
    for (const start of [[0, 0], [12, 13]]) {
      const on = Uint8Array.from(interpBlock(curves));
      [on[2], on[3]] = start;
      const before = on.slice();
      setPhysicsOff(on, false, 'copy');
      setPhysicsOff(on, false, 'zeros');
      expect(on).toEqual(before);
    }
  });

  it("a motion's physics-on convention: 0/0 where more physics-on keys hold 0/0 than the x1 copy", () => {
    // Records of 64 bytes (the block alone): pairs written by hand, x1 of Z and rotation 12, 13 in each.
    const records = (pairs: number[][]) => {
      const out = new Uint8Array(64 * pairs.length);
      pairs.forEach(([a, b], i) => {
        out.set(interpBlock(curves), 64 * i);
        out[64 * i + 2] = a;
        out[64 * i + 3] = b;
      });
      return out;
    };
    const of = (pairs: number[][]) => physicsOnPairOf(records(pairs), pairs.length, 64, 0);
    expect(of([[0, 0], [0, 0], [12, 13]])).toBe('zeros');
    // Physics-off keys tell nothing; a tie, or no key that tells, keeps MMD's copy.
    expect(of([[0, 0], [12, 13], [99, 15], [99, 15]])).toBe('copy');
    expect(of([[99, 15]])).toBe('copy');
    expect(of([])).toBe('copy');
  });

  it('bytes 2–3: a pair repeating x1 of Z and rotation (MMD’s files) follows a new curve; 99/15 and a tool’s 0/0 stay', () => {
    // MMD-style: row 0 whole, bytes 2–3 = 12, 13.
    const mirrored = Uint8Array.from(interpBlock(curves));
    mirrored[2] = 12;
    mirrored[3] = 13;
    setBoneCurves(mirrored, { 2: [70, 1, 2, 3], 3: [71, 4, 5, 6] });
    expect([mirrored[2], mirrored[3]]).toEqual([70, 71]);
    expect(getBoneCurve(mirrored, 2)).toEqual([70, 1, 2, 3]);
    // Only rotation changes: byte 2 keeps Z's x1.
    setBoneCurves(mirrored, { 3: [40, 4, 5, 6] });
    expect([mirrored[2], mirrored[3]]).toEqual([70, 40]);
    // A physics-off key stays off, whatever the curve.
    const off = Uint8Array.from(interpBlock(curves));
    setPhysicsOff(off, true);
    setBoneCurves(off, { 2: [70, 1, 2, 3], 3: [71, 4, 5, 6] });
    expect([off[2], off[3]]).toEqual([99, 15]);
    // A tool's 0/0 (not a copy of the curve) stays 0/0.
    const tool = Uint8Array.from(interpBlock(curves));
    tool[2] = 0;
    tool[3] = 0;
    setBoneCurves(tool, { 3: [71, 4, 5, 6] });
    expect([tool[2], tool[3]]).toEqual([0, 0]);
    // A new x1 pair of 99/15 would read as physics off in MMD: the old pair stays.
    const risky = Uint8Array.from(interpBlock(curves));
    risky[2] = 12;
    risky[3] = 13;
    setBoneCurves(risky, { 2: [99, 1, 2, 3], 3: [15, 4, 5, 6] });
    expect([risky[2], risky[3]]).toEqual([12, 13]);
    expect(physicsOff(risky)).toBe(false);
  });

  it('builds the documented default block from linear curves', () => {
    const lin = [20, 20, 107, 107] as const;
    const built = buildBoneInterpolation([lin, lin, lin, lin], [0, 0]);
    expect(Array.from(built)).toEqual(DEFAULT_INTERP);
  });
});

describe('camera interpolation (24 bytes)', () => {
  it('stores each of the six curves as x1, x2, y1, y2', () => {
    const ip = new Uint8Array(24);
    for (let ch = 0; ch < 6; ch++) ip.set([ch, 100 + ch, 50 + ch, 120 + ch], ch * 4);
    expect(getCameraCurve(ip, 0)).toEqual([0, 50, 100, 120]);
    expect(getCameraCurve(ip, 5)).toEqual([5, 55, 105, 125]);
    setCameraCurve(ip, 4, [1, 2, 3, 4]);
    expect(Array.from(ip.subarray(16, 20))).toEqual([1, 3, 2, 4]);
    expect(getCameraCurve(ip, 3)).toEqual([3, 53, 103, 123]);
  });
});
