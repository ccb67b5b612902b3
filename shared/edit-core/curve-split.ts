/**
 * Cutting an interpolation curve in time, for trim: the part of a segment after a cut (the first kept
 * key), before a cut (a hold key at the end of the range) or between two cuts (both in one segment).
 * All built on splitCurveAfter (de Casteljau, shared/vmd/bezier.ts); the part before t is the part
 * after 1 − t of the curve turned 180° about (½, ½), turned back. Results are unquantised (0..1);
 * quantiseCurve puts them back on the file's 0..127 grid.
 */
import { splitCurveAfter, type Curve } from '../vmd/bezier';

type Ctrl = [number, number, number, number];

/** The curve traced backwards and rotated: control points (1−x2, 1−y2), (1−x1, 1−y1), in 0..127. */
function turn127(c: Curve): Curve {
  return [127 - c[2], 127 - c[3], 127 - c[0], 127 - c[1]];
}

function turn01(c: Ctrl): Ctrl {
  return [1 - c[2], 1 - c[3], 1 - c[0], 1 - c[1]];
}

/** The part after time fraction t, in 0..1 (t in (0, 1)). */
export function curveAfter(c: Curve, t: number): Ctrl {
  return splitCurveAfter(c, t);
}

/** The part before time fraction t, renormalised to the unit square, in 0..1. */
export function curveBefore(c: Curve, t: number): Ctrl {
  return turn01(splitCurveAfter(turn127(c), 1 - t));
}

/** The part between time fractions t0 < t1, renormalised, in 0..1. */
export function curveBetween(c: Curve, t0: number, t1: number): Ctrl {
  const after = t0 > 0 ? splitCurveAfter(c, t0) : ([c[0] / 127, c[1] / 127, c[2] / 127, c[3] / 127] as Ctrl);
  if (t1 >= 1) return after;
  const scaled: Curve = [after[0] * 127, after[1] * 127, after[2] * 127, after[3] * 127];
  return curveBefore(scaled, (t1 - t0) / (1 - t0));
}
