// shared/vmd/quat-angle.ts: the one rotation-angle measure (fit tolerance, error reports, plots).
// Checked on rotations built from an axis and an angle: the angle comes back for any length and either
// sign of the quaternions, and tiny angles keep their digits (acos of the dot product does not).
import { describe, expect, it } from 'vitest';
import { quatAngle, quatAngleDeg } from '../../shared/vmd';
import { axisAngle, qmul } from '../helpers/quat';
import { rng } from '../helpers/rng';


const angleOf = (a: number[], b: number[]) => quatAngle(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]);

describe('quatAngle', () => {
  it('gives back the angle of the rotation between two orientations, whatever their length or sign', () => {
    const next = rng(7);
    for (let i = 0; i < 200; i++) {
      const base = axisAngle([next() - 0.5, next() - 0.5, next() - 0.5], 6 * next());
      const rad = Math.PI * next();
      const turned = qmul(base, axisAngle([next() - 0.5, next() - 0.5, next() - 0.5], rad));
      const scale = 0.5 + 2 * next(), sign = next() < 0.5 ? -1 : 1;
      expect(angleOf(base, turned)).toBeCloseTo(rad, 12);
      expect(angleOf(base.map((v) => v * scale), turned.map((v) => v * sign))).toBeCloseTo(rad, 12);
    }
  });

  it('keeps the digits of tiny angles, where 2·acos(|dot|) loses them', () => {
    const base = axisAngle([1, 2, 3], 1.1);
    for (const rad of [1e-4, 1e-6, 1e-8]) {
      const turned = qmul(base, axisAngle([-2, 0.5, 1], rad));
      expect(Math.abs(angleOf(base, turned) - rad) / rad).toBeLessThan(1e-7);
      // The formula it replaced in the plots, for contrast: already percent-level off at 1e-8.
      const dot = base.reduce((s, v, c) => s + v * turned[c], 0);
      if (rad === 1e-8) expect(Math.abs(2 * Math.acos(Math.min(1, Math.abs(dot))) - rad) / rad).toBeGreaterThan(1e-3);
    }
  });

  it('quatAngleDeg reads the quaternions at offsets and answers in degrees', () => {
    const a = axisAngle([0, 1, 0], 0), b = axisAngle([0, 1, 0], Math.PI / 2);
    const packed = new Float32Array([9, 9, ...a, ...b]);
    expect(quatAngleDeg(packed, 2, packed, 6)).toBeCloseTo(90, 5);
    expect(quatAngleDeg(packed, 2, packed, 2)).toBe(0);
  });
});
