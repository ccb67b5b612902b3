/**
 * Fewest keys for a linear track (morph weights), with key values chosen freely within tolerance.
 *
 * Keys sit on integer frames and play linearly between them; the promise is |played − sampled| ≤ tol
 * at every integer frame. Pinning each key to its sample (track-fit.ts) wastes keys where the input's
 * corner falls between two frames (a re-timing): a key a little off its sample can often serve both
 * sides. So, greedily from the first key: the lines leaving key a whose value lies in the interval V_a
 * and that stay within tol at a+1 … b form a convex polygon in (value at a, slope); the segment is
 * extended while the polygon is not empty, and the values those lines reach at the furthest b are the
 * next key's interval. The first and last keys are pinned to their samples (the motion before and
 * after the window, or the hold, meets them). Key values are then chosen backwards, each in the middle
 * of what the segment allows, rounded to float32 as the file stores them, and the result is checked by
 * playing it; the caller falls back to the pinned fit if the check fails.
 */

const F = Math.fround;

/** A convex polygon in (v, m) as parallel vertex lists; clipped in place by half-planes. */
class Poly {
  v: number[] = [];
  m: number[] = [];

  static box(v0: number, v1: number, m0: number, m1: number): Poly {
    const p = new Poly();
    p.v = [v0, v1, v1, v0];
    p.m = [m0, m0, m1, m1];
    return p;
  }

  /** Keeps the part where v + d·m ≤ c (dir = 1) or v + d·m ≥ c (dir = −1). */
  clip(d: number, c: number, dir: 1 | -1): void {
    const { v, m } = this;
    const n = v.length;
    const nv: number[] = [], nm: number[] = [];
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const fi = dir * (v[i] + d * m[i] - c), fj = dir * (v[j] + d * m[j] - c);
      if (fi <= 0) {
        nv.push(v[i]);
        nm.push(m[i]);
      }
      if ((fi < 0 && fj > 0) || (fi > 0 && fj < 0)) {
        const t = fi / (fi - fj);
        nv.push(v[i] + (v[j] - v[i]) * t);
        nm.push(m[i] + (m[j] - m[i]) * t);
      }
    }
    this.v = nv;
    this.m = nm;
  }

  get empty(): boolean {
    return this.v.length === 0;
  }

  /** [min, max] of v + d·m over the polygon. */
  range(d: number): [number, number] {
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < this.v.length; i++) {
      const x = this.v[i] + d * this.m[i];
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    return [lo, hi];
  }

  /** [min, max] of v over the polygon's points with v + d·m = y (the lines through (d, y)). */
  startsThrough(d: number, y: number): [number, number] {
    let lo = Infinity, hi = -Infinity;
    const { v, m } = this;
    const n = v.length;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const fi = v[i] + d * m[i] - y, fj = v[j] + d * m[j] - y;
      if (fi === 0) {
        lo = Math.min(lo, v[i]);
        hi = Math.max(hi, v[i]);
      }
      if ((fi < 0 && fj > 0) || (fi > 0 && fj < 0)) {
        const x = v[i] + (v[j] - v[i]) * (fi / (fi - fj));
        lo = Math.min(lo, x);
        hi = Math.max(hi, x);
      }
    }
    return [lo, hi];
  }
}

export interface LinearFit {
  /** Key frames, ascending, from g0 to g1. */
  frames: number[];
  /** Key values (float32), one per frame. */
  values: number[];
}

/**
 * Fits keys at integer frames g0…g1 to samples `s` (sample j at frame g0 + j/perFrame) so that linear
 * playback is within `tol` of every sample; null when the check after rounding fails (the caller then
 * uses the pinned fit).
 */
export function fitLinearFree(s: Float64Array, perFrame: number, g0: number, g1: number, tol: number): LinearFit | null {
  const R = perFrame;
  if (g1 <= g0) return { frames: [g0], values: [F(s[0])] };
  let scale = 1;
  for (let j = 0; j < s.length; j++) scale = Math.max(scale, Math.abs(s[j]));
  // Room for float32 rounding of the key values and the player's arithmetic.
  const t = tol - 4e-7 * scale;
  if (!(t > 0)) return null;
  const at = (g: number) => s[R * (g - g0)];
  const first = F(at(g0)), last = F(at(g1));
  const M = 4 * scale + 4 * tol + 1; // no slope between two samples within tolerance is steeper
  const knots: number[] = [g0];
  const polys: Poly[] = [];
  let lo = first, hi = first;
  let a = g0;
  while (a < g1) {
    let poly = Poly.box(lo, hi, -M, M);
    let b = a;
    for (;;) {
      const g = b + 1;
      if (g > g1) break;
      const trial = new Poly();
      trial.v = poly.v.slice();
      trial.m = poly.m.slice();
      const d = g - a;
      if (g === g1) {
        trial.clip(d, last, 1);
        trial.clip(d, last, -1);
      } else {
        trial.clip(d, at(g) + t, 1);
        trial.clip(d, at(g) - t, -1);
      }
      if (trial.empty) break;
      poly = trial;
      b = g;
    }
    if (b === a) return null; // cannot happen for a two-point segment; be safe
    knots.push(b);
    polys.push(poly);
    [lo, hi] = poly.range(b - a);
    if (b === g1) break;
    a = b;
  }
  // Values backwards: each segment's start is the middle of the starts of its lines through the end.
  const values = new Array<number>(knots.length);
  values[knots.length - 1] = last;
  for (let i = knots.length - 2; i >= 0; i--) {
    if (i === 0) {
      values[0] = first;
      break;
    }
    const [vlo, vhi] = polys[i].startsThrough(knots[i + 1] - knots[i], values[i + 1]);
    if (!(vlo <= vhi)) return null;
    values[i] = F((vlo + vhi) / 2);
  }
  // Check after rounding, the way the player plays a morph.
  for (let k = 0; k + 1 < knots.length; k++) {
    const f0 = knots[k], f1 = knots[k + 1], w0 = values[k], w1 = values[k + 1];
    for (let j = R * (f0 - g0); j <= R * (f1 - g0); j++) {
      const f = g0 + j / R;
      const p = f <= f0 ? w0 : w0 + (w1 - w0) * ((f - f0) / (f1 - f0));
      if (Math.abs(p - s[j]) > tol) return null;
    }
  }
  return { frames: knots, values };
}
