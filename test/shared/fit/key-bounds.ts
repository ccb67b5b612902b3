/**
 * Lower bounds on how few keys any re-timed track can have, for the fitter's corpus tests. Written
 * from the format's rules and the player only (shared/vmd/sample.ts), nothing from shared/fit:
 * output frame g must play the input at g·K within tolerance at every integer frame, and keys sit on
 * integer frames.
 *
 * Each bound comes from a relaxation: a property every segment between two consecutive output keys
 * must have, whatever key values and curves are chosen; before the first key and after the last the
 * track holds one value (see holdReach). The property is hereditary (a sub-range of a range that has
 * it has it too), so the furthest-reaching greedy cover is optimal for the relaxed problem: from the
 * furthest frame the first key can be at, step to the furthest frame each segment can reach, until
 * the frames left can hold. Its key count is a lower bound for the real problem (float32 key values
 * only make the real problem harder).
 *
 * - Morphs (linear between keys): the samples of a segment [a, b] at a…b lie within tol of one line (the
 *   samples: the input at g·K, a peak between output frames at the frame that shows it, morph-reference.ts).
 *   Exact test: a slope m exists with |s_j − s_i − m·(j − i)| ≤ 2·tol for every pair i < j.
 * - Bones: (1) each position axis plays va + (vb − va)·y(t) with y monotonic (curve control points
 *   0..127 cannot overshoot), so its samples lie within tol of a monotonic sequence: s_i − s_j ≤ 2·tol
 *   for all i < j, or the same the other way; (2) the rotation plays a slerp between the key
 *   rotations, so the played quaternions lie in one plane through the origin of R⁴ and the samples
 *   lie within chord δ = 2·sin(tol/4) of them. For three samples that bounds the volume they span:
 *   |s_i∧s_j∧s_k| ≤ δ·(|s_i∧s_j| + |s_i∧s_k| + |s_j∧s_k| + 3δ) (expand s = p + d, multilinearity,
 *   |x∧Y| ≤ |x|·|Y|, p_i∧p_j∧p_k = 0); (3) the played rotation moves one way along that arc (the
 *   curve cannot overshoot), so for i < j < k the rotation angles between played orientations add up,
 *   d(p_i, p_k) = d(p_i, p_j) + d(p_j, p_k), and with each sample within tol of its played orientation
 *   (d is a metric) d(s_i, s_j) + d(s_j, s_k) − d(s_i, s_k) ≤ 6·tol: a turn back by more than about
 *   three tolerances needs a key. Every triple of a segment spanning at most W frames is checked (all
 *   triples would cost a cube of the segment length; a subset keeps the bound sound).
 */
import { morphReference } from '../../helpers/morph-reference';
import { buildTracks, sampleBoneInto, type VmdDocument } from '../../../shared/vmd';

export interface KeyBound {
  name: string;
  /** Keys the input track has. */
  input: number;
  /** No re-timed track within tolerance has fewer keys than this. */
  lowerBound: number;
}

/**
 * Greedy cover: the first key is at `first` or before (frames before it hold one value), each segment
 * from p reaches `reach(p)` at most, and the last key must be at `last` or after.
 */
function greedyKeys(first: number, last: number, reach: (a: number) => number): number {
  let p = first;
  let keys = 1;
  while (p < last) {
    p = reach(p);
    keys++;
  }
  return keys;
}

/**
 * How far a hold can reach from frame `from` (stepping by dir): a hold plays one value v, so the
 * values it covers span at most 2·tol per channel; `near(from, g)` tests what else applies.
 */
function holdReach(from: number, n: number, dir: 1 | -1, values: ArrayLike<number>, stride: number, tol: number, near: (a: number, g: number) => boolean = () => true): number {
  const lo: number[] = [], hi: number[] = [];
  for (let c = 0; c < stride; c++) lo[c] = hi[c] = values[stride * from + c];
  let p = from;
  for (;;) {
    const g = p + dir;
    if (g < 0 || g >= n || !near(from, g)) break;
    let ok = true;
    for (let c = 0; c < stride; c++) {
      const v = values[stride * g + c];
      if (Math.max(hi[c], v) - Math.min(lo[c], v) > 2 * tol) ok = false;
    }
    if (!ok) break;
    for (let c = 0; c < stride; c++) {
      const v = values[stride * g + c];
      lo[c] = Math.min(lo[c], v);
      hi[c] = Math.max(hi[c], v);
    }
    p = g;
  }
  return p;
}

/** Lower bound per morph track of `doc` re-timed by `factor` within `tol` (weight). */
export function morphKeyBounds(doc: VmdDocument, factor: number, tol: number): KeyBound[] {
  const m = buildTracks(doc).morphs;
  const out: KeyBound[] = [];
  for (let t = 0; t < m.names.length; t++) {
    const a0 = m.start[t], e = m.start[t + 1];
    const n = Math.ceil(m.frames[e - 1] / factor) + 2;
    const s = new Float64Array(n);
    const ref = morphReference(m, t, factor);
    for (let g = 0; g < n; g++) s[g] = ref.at(g);
    const reach = (a: number) => {
      // Incremental: adding frame b adds the pairs (i, b).
      let lo = -Infinity, hi = Infinity, b = a;
      while (b + 1 < n) {
        const j = b + 1;
        let l2 = lo, h2 = hi;
        for (let i = a; i < j; i++) {
          l2 = Math.max(l2, (s[j] - s[i] - 2 * tol) / (j - i));
          h2 = Math.min(h2, (s[j] - s[i] + 2 * tol) / (j - i));
        }
        if (l2 > h2) break;
        lo = l2; hi = h2; b = j;
      }
      return b;
    };
    const first = holdReach(0, n, 1, s, 1, tol), last = holdReach(n - 1, n, -1, s, 1, tol);
    out.push({ name: m.names[t], input: e - a0, lowerBound: greedyKeys(first, last, reach) });
  }
  return out;
}

/** Triples of samples at most this many frames apart are tested (see the header). */
const W = 24;

function wedge2(x: ArrayLike<number>, xo: number, y: ArrayLike<number>, yo: number): number {
  let xx = 0, yy = 0, xy = 0;
  for (let c = 0; c < 4; c++) {
    xx += x[xo + c] * x[xo + c];
    yy += y[yo + c] * y[yo + c];
    xy += x[xo + c] * y[yo + c];
  }
  return Math.sqrt(Math.max(0, xx * yy - xy * xy));
}

/** |x∧y∧z| for unit vectors in R⁴: √det of their Gram matrix. */
function wedge3(q: Float64Array, i: number, j: number, k: number): number {
  const d = (u: number, v: number) => q[4 * u] * q[4 * v] + q[4 * u + 1] * q[4 * v + 1] + q[4 * u + 2] * q[4 * v + 2] + q[4 * u + 3] * q[4 * v + 3];
  const a = d(i, j), b = d(i, k), c = d(j, k);
  return Math.sqrt(Math.max(0, 1 + 2 * a * b * c - a * a - b * b - c * c));
}

/** Lower bound per bone track of `doc` re-timed by `factor` within `posTol` (units) and `rotTolDeg`. */
export function boneKeyBounds(doc: VmdDocument, factor: number, posTol: number, rotTolDeg: number): KeyBound[] {
  const bt = buildTracks(doc).bones;
  const delta = 2 * Math.sin((rotTolDeg * Math.PI) / 180 / 4);
  const out: KeyBound[] = [];
  const p = [0, 0, 0], r = [0, 0, 0, 1];
  for (let t = 0; t < bt.names.length; t++) {
    const a0 = bt.start[t], e = bt.start[t + 1];
    const n = Math.ceil(bt.frames[e - 1] / factor) + 2;
    const P = new Float64Array(3 * n), Q = new Float64Array(4 * n);
    for (let g = 0; g < n; g++) {
      sampleBoneInto(bt, t, g * factor, p, r, 0);
      P.set(p, 3 * g);
      const len = Math.hypot(r[0], r[1], r[2], r[3]) || 1;
      for (let c = 0; c < 4; c++) Q[4 * g + c] = r[c] / len;
    }
    const tol = (rotTolDeg * Math.PI) / 180;
    /** Rotation angle between the orientations of samples u and v. */
    const angle = (u: number, v: number) => 2 * Math.acos(Math.min(1, Math.abs(Q[4 * u] * Q[4 * v] + Q[4 * u + 1] * Q[4 * v + 1] + Q[4 * u + 2] * Q[4 * v + 2] + Q[4 * u + 3] * Q[4 * v + 3])));
    /** Tests (2) and (3) for samples a, j, b with j between the other two (in either time order). */
    const rotOk = (a: number, j: number, b: number) =>
      angle(a, j) + angle(j, b) - angle(a, b) <= 6 * tol &&
      wedge3(Q, a, j, b) <= delta * (wedge2(Q, 4 * a, Q, 4 * j) + wedge2(Q, 4 * a, Q, 4 * b) + wedge2(Q, 4 * j, Q, 4 * b) + 3 * delta);
    /** Furthest b from a (stepping by dir) such that the range between them passes both tests. */
    const scan = (a: number, dir: 1 | -1) => {
      const up = [true, true, true], down = [true, true, true];
      const mx = [P[3 * a], P[3 * a + 1], P[3 * a + 2]], mn = [...mx];
      let b = a;
      for (;;) {
        const j = b + dir;
        if (j < 0 || j >= n) break;
        let ok = true;
        const nu = [...up], nd = [...down];
        for (let c = 0; c < 3 && ok; c++) {
          const v = P[3 * j + c];
          // In time order: going right j is latest; going left j is earliest (the tests swap).
          if (dir === 1) {
            nu[c] = up[c] && mx[c] - v <= 2 * posTol;
            nd[c] = down[c] && v - mn[c] <= 2 * posTol;
          } else {
            nu[c] = up[c] && v - mn[c] <= 2 * posTol;
            nd[c] = down[c] && mx[c] - v <= 2 * posTol;
          }
          ok = nu[c] || nd[c];
        }
        // Every triple of the range within W frames: a property of all its sub-ranges too.
        for (let i = j - dir; ok && i !== a - dir && Math.abs(j - i) <= W; i -= dir) for (let h = i - dir; ok && h !== a - dir && Math.abs(j - h) <= W; h -= dir) ok = rotOk(h, i, j);
        if (!ok) break;
        for (let c = 0; c < 3; c++) {
          up[c] = nu[c];
          down[c] = nd[c];
          mx[c] = Math.max(mx[c], P[3 * j + c]);
          mn[c] = Math.min(mn[c], P[3 * j + c]);
        }
        b = j;
      }
      return b;
    };
    // A held rotation is within tol of every frame it covers, so they are within 2·tol of the first.
    const cosHold = Math.cos(((2 * rotTolDeg * Math.PI) / 180) / 2);
    const near = (a: number, g: number) => Math.abs(Q[4 * a] * Q[4 * g] + Q[4 * a + 1] * Q[4 * g + 1] + Q[4 * a + 2] * Q[4 * g + 2] + Q[4 * a + 3] * Q[4 * g + 3]) >= cosHold;
    const first = holdReach(0, n, 1, P, 3, posTol, near), last = holdReach(n - 1, n, -1, P, 3, posTol, near);
    out.push({ name: bt.names[t], input: e - a0, lowerBound: greedyKeys(first, last, (a) => scan(a, 1)) });
  }
  return out;
}
