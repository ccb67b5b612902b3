/**
 * The rotation angle between two orientations given as quaternions, the one measure every part uses
 * (the fitter's tolerance, the fit's and trim's error reports, the curve pane's rotation plot): twice
 * the angle between the unit quaternions that slerpPair (sample.ts) finds for the player, from their
 * half-chords (2·atan2(|â − b̂|, |â + b̂|)) — exact to the last digits for tiny angles, where acos of a
 * dot product near 1 loses half of them, and with portable-math's atan2, the same bits on every engine.
 */
import { slerpPair } from './sample';

/** slerpPair's answer here, apart from its own scratch (a caller may hold that one while measuring). */
const PAIR = new Float64Array(5);

/** Rotation angle in radians between orientations a and b (quaternions x, y, z, w; any length, either sign). */
export function quatAngle(ax: number, ay: number, az: number, aw: number, bx: number, by: number, bz: number, bw: number): number {
  return 2 * slerpPair(ax, ay, az, aw, bx, by, bz, bw, PAIR)[4];
}

const DEG = 180 / Math.PI;

/** Rotation angle in degrees between the quaternions at a[ai..ai+3] and b[bi..bi+3]. */
export function quatAngleDeg(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): number {
  return quatAngle(a[ai], a[ai + 1], a[ai + 2], a[ai + 3], b[bi], b[bi + 1], b[bi + 2], b[bi + 3]) * DEG;
}
