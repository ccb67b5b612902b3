/**
 * The rotation angle between two orientations given as quaternions, the one measure every part uses
 * (the fitter's tolerance, the fit's and trim's error reports, the curve pane's rotation plot).
 * Computed as 4·atan2(|a − b|, |a + b|) on the unit quaternions with b turned to a's side: exact to the
 * last digits for tiny angles, where acos of a dot product near 1 loses half of them, and with
 * portable-math's atan2, the same bits on every engine.
 */
import { atan2 } from './portable-math';

/** Rotation angle in radians between orientations a and b (quaternions x, y, z, w; any length, either sign). */
export function quatAngle(ax: number, ay: number, az: number, aw: number, bx: number, by: number, bz: number, bw: number): number {
  const na = 1 / (Math.sqrt(ax * ax + ay * ay + az * az + aw * aw) || 1);
  let nb = 1 / (Math.sqrt(bx * bx + by * by + bz * bz + bw * bw) || 1);
  if (ax * bx + ay * by + az * bz + aw * bw < 0) nb = -nb;
  const dx = ax * na - bx * nb, dy = ay * na - by * nb, dz = az * na - bz * nb, dw = aw * na - bw * nb;
  const sx = ax * na + bx * nb, sy = ay * na + by * nb, sz = az * na + bz * nb, sw = aw * na + bw * nb;
  return 4 * atan2(Math.sqrt(dx * dx + dy * dy + dz * dz + dw * dw), Math.sqrt(sx * sx + sy * sy + sz * sz + sw * sw));
}

const DEG = 180 / Math.PI;

/** Rotation angle in degrees between the quaternions at a[ai..ai+3] and b[bi..bi+3]. */
export function quatAngleDeg(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): number {
  return quatAngle(a[ai], a[ai + 1], a[ai + 2], a[ai + 3], b[bi], b[bi + 1], b[bi + 2], b[bi + 3]) * DEG;
}
