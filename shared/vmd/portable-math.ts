/**
 * sin, cos and atan2 with the same bits on every JavaScript engine. They are computed with + − × ÷ and
 * sqrt only, whose results IEEE 754 fixes to the bit; Math.sin, Math.cos and Math.atan2 are not fixed,
 * and V8 versions differ in the last bit (Node 20 and Debian's Chromium give different results for the
 * same arguments). A fit that lands at its tolerance then keeps another key, so the CLI (Node), the
 * batch (Electron's main process) and the editor (Chromium, Electron's renderer) would write different
 * files for one motion and one option set. The player (sample.ts) and the fitter (shared/fit) use these.
 *
 * Accuracy: within a few units in the last place. sin and cos reduce the argument by π/2 in three parts
 * (exact for |x| < 2^19·π/2; beyond that, never met by the format's angles, they are Math's) and sum
 * the Taylor series on |r| ≤ π/4 to r¹⁷ and r¹⁶ (what is left: below 1e-17); atan takes its argument to 0..1, then to within 1/16
 * of zero by atan t = atan c + atan((t − c)/(1 + t·c)) with c the nearest eighth (atan c a constant),
 * and sums its series to below 1e-19.
 */

/** π/2 in three parts; the first two have their low bits clear, so k·P1 and k·P2 are exact for |k| < 2^20. */
const P1 = 1.5707963267341256;
const P2 = 6.077100506303966e-11;
const P3 = 2.0222662487959506e-21;
const TWO_OVER_PI = 0.6366197723675814;
const PI = 3.141592653589793;
const PI_2 = 1.5707963267948966;
const PI_4 = 0.7853981633974483;
const LIMIT = 823549.6654375269; // 2^19·π/2

// Taylor coefficients: (−1)^k/(2k+1)! for sin, (−1)^k/(2k)! for cos, (−1)^k/(2k+1) for atan.
const S1 = -1 / 6, S2 = 1 / 120, S3 = -1 / 5040, S4 = 1 / 362880, S5 = -1 / 39916800, S6 = 1 / 6227020800;
const S7 = -1 / 1307674368000, S8 = 1 / 355687428096000;
const C1 = -1 / 2, C2 = 1 / 24, C3 = -1 / 720, C4 = 1 / 40320, C5 = -1 / 3628800, C6 = 1 / 479001600;
const C7 = -1 / 87178291200, C8 = 1 / 20922789888000;
const A1 = -1 / 3, A2 = 1 / 5, A3 = -1 / 7, A4 = 1 / 9, A5 = -1 / 11, A6 = 1 / 13, A7 = -1 / 15;

/** sin r for |r| ≤ π/4 (a little more after reduction). */
function sinKernel(r: number): number {
  const z = r * r;
  return r + r * z * (S1 + z * (S2 + z * (S3 + z * (S4 + z * (S5 + z * (S6 + z * (S7 + z * S8)))))));
}

/** cos r for |r| ≤ π/4 (a little more after reduction). */
function cosKernel(r: number): number {
  const z = r * r;
  return 1 + z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * (C6 + z * (C7 + z * C8)))))));
}

export function sin(x: number): number {
  // Small enough to inline where it is called: the common case here, the rest out of line.
  return x <= PI_4 && x >= -PI_4 ? (x === 0 ? x : sinKernel(x)) : reduced(x, 0);
}

/**
 * sin x (quarter = 0) or cos x = sin(x + π/2) (quarter = 1) for |x| > π/4: x = k·π/2 + r, and the
 * kernel and sign that quadrant k + quarter takes.
 */
function reduced(x: number, quarter: 0 | 1): number {
  const a = x < 0 ? -x : x;
  if (!(a < LIMIT)) return quarter ? Math.cos(x) : Math.sin(x); // NaN, ±Infinity, or an angle no motion has
  const k = Math.round(x * TWO_OVER_PI);
  const r = x - k * P1 - k * P2 - k * P3;
  switch ((k + quarter) & 3) {
    case 0:
      return sinKernel(r);
    case 1:
      return cosKernel(r);
    case 2:
      return -sinKernel(r);
    default:
      return -cosKernel(r);
  }
}

export function cos(x: number): number {
  return x <= PI_4 && x >= -PI_4 ? cosKernel(x) : reduced(x, 1);
}

/** atan(i/8), i = 0…8, each the double nearest the true value. */
const ATAN_EIGHTHS = [0, 0.12435499454676144, 0.24497866312686414, 0.35877067027057225, 0.4636476090008061, 0.5585993153435624, 0.6435011087932844, 0.7188299996216245, 0.7853981633974483];

/** atan u for |u| ≤ 1/16: its series to u¹⁵. */
function atanSmall(u: number): number {
  const z = u * u;
  return u + u * z * (A1 + z * (A2 + z * (A3 + z * (A4 + z * (A5 + z * (A6 + z * A7))))));
}

/** atan t for 0 ≤ t ≤ 1: atan c + atan((t − c)/(1 + t·c)) with c the nearest eighth, |u| ≤ 1/16. */
function atanUnit(t: number): number {
  // c = 0 (the same sum as below, without its no-op steps): small angles are the common case.
  if (t < 0.0625) return atanSmall(t);
  const i = Math.round(t * 8);
  const c = i / 8;
  return ATAN_EIGHTHS[i] + atanSmall((t - c) / (1 + t * c));
}

/** The angle of (x, y) from the positive x axis, in −π..π, with Math.atan2's signed zeros and infinities. */
export function atan2(y: number, x: number): number {
  // The common case inline (a small angle in the first octant: the fitter's errors), the rest out of line.
  if (x > 0 && y > 0 && y < 0.0625 * x) return atanSmall(y / x);
  return atan2General(y, x);
}

function atan2General(y: number, x: number): number {
  if (x !== x || y !== y) return NaN;
  const ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
  let a: number;
  if (ay === 0) a = 0;
  else if (ay <= ax) a = ax === Infinity ? (ay === Infinity ? PI_4 : 0) : atanUnit(ay / ax);
  else a = PI_2 - atanUnit(ax / ay);
  if (x < 0 || (x === 0 && 1 / x < 0)) a = PI - a;
  return y < 0 || (y === 0 && 1 / y < 0) ? -a : a;
}
