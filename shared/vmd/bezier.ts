/**
 * MMD's interpolation curve: a cubic Bézier from (0,0) to (1,1) with control points (x1,y1), (x2,y2)
 * in 0..1 (the file stores 0..127). Progress at time fraction t: solve x(s) = t for s, return y(s).
 * Solved to ~1e-12 with Newton steps kept inside a bisection bracket (x(s) is monotonic for
 * control points in [0,1]); a fixed 15-step bisection, as some players use, is off by up to 1e-4.
 */

export type Curve = readonly [x1: number, y1: number, x2: number, y2: number];

/** MMD's default for new keys: control points on the diagonal, i.e. linear. */
export const LINEAR_CURVE: Curve = [20, 20, 107, 107];

function bez(p1: number, p2: number, s: number): number {
  const u = 1 - s;
  return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s;
}

function bezDerivative(p1: number, p2: number, s: number): number {
  const u = 1 - s;
  return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2);
}

/**
 * Parameter s where x(s) = t: Newton's method from `from` (t by default, where the player starts; a
 * start outside 0..1 is t too), inside a bracket that halves wherever a step would leave it.
 */
export function solveBezierX(x1: number, x2: number, t: number, from = t): number {
  if (t <= 0) return 0;
  if (t >= 1) return 1;
  let lo = 0;
  let hi = 1;
  let s = from > 0 && from < 1 ? from : t;
  for (let i = 0; i < 64; i++) {
    const x = bez(x1, x2, s) - t;
    if (Math.abs(x) < 1e-13) return s;
    if (x > 0) hi = s;
    else lo = s;
    const d = bezDerivative(x1, x2, s);
    let next = d > 1e-9 ? s - x / d : (lo + hi) / 2;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (hi - lo < 1e-15) return next;
    s = next;
  }
  return s;
}

/** Progress (0..1) at time fraction t for control points given in 0..1. */
export function bezierProgress(x1: number, y1: number, x2: number, y2: number, t: number): number {
  if (t <= 0) return 0;
  if (t >= 1) return 1;
  if (x1 === y1 && x2 === y2) return t; // on the diagonal: linear
  return bez(y1, y2, solveBezierX(x1, x2, t));
}

/** Progress for a curve stored as 0..127 integers. */
export function curveProgress(c: Curve, t: number): number {
  return bezierProgress(c[0] / 127, c[1] / 127, c[2] / 127, c[3] / 127, t);
}

/** Point on the curve at parameter s (for drawing). */
export function bezierPoint(x1: number, y1: number, x2: number, y2: number, s: number): [number, number] {
  return [bez(x1, x2, s), bez(y1, y2, s)];
}

/**
 * Splits a curve at time fraction t (de Casteljau at the s where x(s) = t) and returns the part
 * after t, renormalised to the unit square, as unquantised control points in 0..1.
 * Used by trim: the first kept key's curve must describe only the motion after the cut.
 */
export function splitCurveAfter(c: Curve, t: number): [number, number, number, number] {
  const x1 = c[0] / 127, y1 = c[1] / 127, x2 = c[2] / 127, y2 = c[3] / 127;
  const s = solveBezierX(x1, x2, t);
  // de Casteljau on P0=(0,0), P1, P2, P3=(1,1); the right half is Q0=B(s), Q1, Q2, P3.
  const lerp = (a: number, b: number) => a + (b - a) * s;
  const p12x = lerp(x1, x2), p12y = lerp(y1, y2);
  const p23x = lerp(x2, 1), p23y = lerp(y2, 1);
  const q1x = lerp(p12x, p23x), q1y = lerp(p12y, p23y);
  const p01x = lerp(0, x1), p01y = lerp(0, y1);
  const q0x = lerp(p01x, p12x) + (q1x - lerp(p01x, p12x)) * s;
  const q0y = lerp(p01y, p12y) + (q1y - lerp(p01y, p12y)) * s;
  const wx = 1 - q0x, wy = 1 - q0y;
  const norm = (v: number, o: number, w: number) => (w > 1e-12 ? (v - o) / w : v);
  return [norm(q1x, q0x, wx), norm(q1y, q0y, wy), norm(p23x, q0x, wx), norm(p23y, q0y, wy)];
}

/** Quantises control points in 0..1 to the file's 0..127 grid. */
export function quantiseCurve(c: readonly number[]): Curve {
  const q = (v: number) => Math.max(0, Math.min(127, Math.round(v * 127)));
  return [q(c[0]), q(c[1]), q(c[2]), q(c[3])];
}
