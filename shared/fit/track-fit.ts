/**
 * Fitting one track, sampled on a half-frame grid, with keys at integer frames whose curves play back
 * within tolerance at every sample (every integer and every half frame of the window).
 *
 * Method: recursive split at the worst sample. A segment [a, b] between two keys is tried as follows,
 * for each channel group (channels that share one curve):
 *  1. the key values at a and b are the samples there (as the file will store them: float32, or whole
 *     numbers for the camera's fov);
 *  2. a curve cannot overshoot (control points 0..127), so a sample that leaves the range between the
 *     key values by more than the tolerance (a turning point), or a rotation that leaves the arc between
 *     the key rotations, cannot be met: the segment is split at the worst such sample;
 *  3. otherwise the curve's control points are fitted by least squares (curve-fit.ts), rounded to the
 *     0..127 grid and checked by playing the segment the way MMD does (bezierProgress, slerp);
 *     where rounding broke the tolerance a small search on the grid looks for a curve that meets it;
 *  4. if any group still strays, the segment is split at its worst sample (the nearer integer frame
 *     of a half frame), and both halves are tried again.
 * A one-frame segment is always accepted: its integer frames are the keys themselves. After the split a
 * merge pass tries to remove each key that was not forced by fitting its two neighbours' segment.
 */
import { bezierProgress } from '../vmd/bezier';
import { slerpPair } from '../vmd/sample';
import { fitCurve, refineCurve } from './curve-fit';

/** Channels that share one curve (one bone position axis, the camera's three angles, …). */
export interface CurveGroup {
  kind: 'curve';
  /** One array per channel, a sample per half frame. */
  comps: Float64Array[];
  /** Largest allowed |played − sampled| per channel. */
  tol: number;
  /** Key values are stored as whole numbers (the camera's fov). */
  integer?: boolean;
}

/** A rotation timed by one curve: slerp between the key rotations. */
export interface QuatGroup {
  kind: 'quat';
  /** x, y, z, w per sample. */
  q: Float64Array;
  /** Largest allowed rotation angle between played and sampled orientation, in radians. */
  tol: number;
}

/** Channels MMD interpolates linearly (morph weights): keys only, no curve. */
export interface LinearGroup {
  kind: 'linear';
  comps: Float64Array[];
  tol: number;
}

export type FitGroup = CurveGroup | QuatGroup | LinearGroup;

export interface SampledWindow {
  /** First and last key frame of the window (integers); sample j is at frame g0 + j/perFrame. */
  g0: number;
  g1: number;
  /** Samples per frame: 2 (every integer and half frame, the default) or 1 (integer frames only). */
  perFrame?: 1 | 2;
  groups: FitGroup[];
  /** Frames strictly inside the window that must stay keys (step changes: physics flag, perspective). */
  forced?: readonly number[];
  /**
   * Curves (4 per curve/quat group, 0..127) known to reproduce the input exactly on [a, b], e.g. the
   * input's own curve when a and b are consecutive input keys; null when there is none.
   */
  hint?: (a: number, b: number) => Uint8Array | null;
  /** Camera: keys one frame apart play as a cut, so a two-frame segment is not split for half frames. */
  noUnitSegments?: boolean;
}

export interface WindowFit {
  /** Key frames, ascending, from g0 to g1. */
  frames: number[];
  /** Per key, the curves (4 per curve/quat group) of the segment ending there; null for the first key. */
  curves: (Uint8Array | null)[];
}

const LINEAR: readonly number[] = [20, 20, 107, 107];

function hyp4(a: number, b: number, c: number, d: number): number {
  return Math.sqrt(a * a + b * b + c * c + d * d);
}
const F = Math.fround;
const CHUNK = 64;

class Fitter {
  readonly n: number;
  readonly err: Float64Array;
  readonly gerr: Float64Array;
  readonly ts: Float64Array;
  readonly ps: Float64Array;
  readonly ws: Float64Array;
  readonly cp = new Float64Array(4);
  readonly probe = new Uint8Array(4);
  readonly qa = new Float64Array(4);
  readonly qb = new Float64Array(4);
  /** Key value and span per channel of the group being evaluated. */
  readonly kv = new Float64Array(16);
  readonly curveGroups: number;
  readonly R: number;

  constructor(readonly w: SampledWindow) {
    this.R = w.perFrame ?? 2;
    this.n = this.R * (w.g1 - w.g0) + 1;
    this.err = new Float64Array(this.n);
    this.gerr = new Float64Array(this.n);
    let maxComps = 1;
    for (const g of w.groups) if (g.kind === 'curve') maxComps = Math.max(maxComps, g.comps.length);
    this.ts = new Float64Array(maxComps * this.n);
    this.ps = new Float64Array(maxComps * this.n);
    this.ws = new Float64Array(maxComps * this.n);
    this.curveGroups = w.groups.filter((g) => g.kind !== 'linear').length;
  }

  keyValue(g: CurveGroup | LinearGroup, c: number, j: number): number {
    const v = g.comps[c][j];
    return g.kind === 'curve' && g.integer ? Math.round(v) : F(v);
  }

  /** Max normalised error of a curve group played with curve (x1, y1, x2, y2 in 0..1); optionally writes per-sample errors into gerr. */
  evalCurve(g: CurveGroup | LinearGroup, ja: number, jb: number, x1: number, y1: number, x2: number, y2: number, write: boolean): number {
    const inv = 1 / (jb - ja);
    const nc = g.comps.length;
    const itol = 1 / g.tol;
    let worst = 0;
    const linear = g.kind === 'linear' || (x1 === y1 && x2 === y2);
    const gerr = this.gerr;
    if (nc === 1) {
      // One channel (every bone axis, morphs, most camera groups): key values read once.
      const s = g.comps[0];
      const va = this.keyValue(g, 0, ja), dv = this.keyValue(g, 0, jb) - va;
      for (let j = ja + 1; j < jb; j++) {
        const t = (j - ja) * inv;
        const y = linear ? t : bezierProgress(x1, y1, x2, y2, t);
        const e = Math.abs(va + dv * y - s[j]) * itol;
        if (write) gerr[j] = e;
        if (e > worst) worst = e;
      }
      return worst;
    }
    const kv = this.kv;
    for (let c = 0; c < nc; c++) {
      kv[2 * c] = this.keyValue(g, c, ja);
      kv[2 * c + 1] = this.keyValue(g, c, jb) - kv[2 * c];
    }
    for (let j = ja + 1; j < jb; j++) {
      const t = (j - ja) * inv;
      const y = linear ? t : bezierProgress(x1, y1, x2, y2, t);
      let e = 0;
      for (let c = 0; c < nc; c++) {
        const d = Math.abs(kv[2 * c] + kv[2 * c + 1] * y - g.comps[c][j]) * itol;
        if (d > e) e = d;
      }
      if (write) gerr[j] = e;
      if (e > worst) worst = e;
    }
    return worst;
  }

  loadQuats(g: QuatGroup, ja: number, jb: number): void {
    for (let i = 0; i < 4; i++) {
      this.qa[i] = F(g.q[4 * ja + i]);
      this.qb[i] = F(g.q[4 * jb + i]);
    }
  }

  evalQuat(g: QuatGroup, ja: number, jb: number, x1: number, y1: number, x2: number, y2: number, write: boolean): number {
    const inv = 1 / (jb - ja);
    const itol = 1 / g.tol;
    const q = g.q, gerr = this.gerr;
    // slerpInto (shared/vmd/sample.ts) with the per-pair work (slerpPair: sign, angle) done once: the
    // same arithmetic, so the same played rotations.
    const ax = F(q[4 * ja]), ay = F(q[4 * ja + 1]), az = F(q[4 * ja + 2]), aw = F(q[4 * ja + 3]);
    const p = slerpPair(ax, ay, az, aw, F(q[4 * jb]), F(q[4 * jb + 1]), F(q[4 * jb + 2]), F(q[4 * jb + 3]));
    const bx = p[0], by = p[1], bz = p[2], bw = p[3], th = p[4];
    const small = th < 1e-10;
    const sth = Math.sin(th);
    const linear = x1 === y1 && x2 === y2;
    let worst = 0;
    for (let j = ja + 1; j < jb; j++) {
      const t = (j - ja) * inv;
      const y = linear ? t : bezierProgress(x1, y1, x2, y2, t);
      let sa: number, sb: number;
      if (small) {
        sa = 1 - y;
        sb = y;
      } else {
        sa = Math.sin((1 - y) * th) / sth;
        sb = Math.sin(y * th) / sth;
      }
      const e = quatAngle(sa * ax + sb * bx, sa * ay + sb * by, sa * az + sb * bz, sa * aw + sb * bw, q[4 * j], q[4 * j + 1], q[4 * j + 2], q[4 * j + 3]) * itol;
      if (write) gerr[j] = e;
      if (e > worst) worst = e;
    }
    return worst;
  }

  evalGroup(g: FitGroup, ja: number, jb: number, c: ArrayLike<number>, o: number, scale: number, write: boolean): number {
    const x1 = c[o] * scale, y1 = c[o + 1] * scale, x2 = c[o + 2] * scale, y2 = c[o + 3] * scale;
    return g.kind === 'quat' ? this.evalQuat(g, ja, jb, x1, y1, x2, y2, write) : this.evalCurve(g, ja, jb, x1, y1, x2, y2, write);
  }

  /**
   * Turning points and fitting points of a curve group: returns the worst normalised excursion (a
   * sample outside what any monotonic curve can reach) with gerr filled, and fills ts/ps/ws with
   * the samples' progress clamped to 0..1; `scale` is the group's span in tolerances.
   */
  preparePoints(g: CurveGroup | QuatGroup, ja: number, jb: number): { excursion: number; m: number; scale: number } {
    const inv = 1 / (jb - ja);
    let m = 0, excursion = 0, scale = 0;
    const { ts, ps, ws, gerr } = this;
    for (let j = ja + 1; j < jb; j++) gerr[j] = 0;
    if (g.kind === 'curve') {
      const itol = 1 / g.tol;
      for (let c = 0; c < g.comps.length; c++) {
        const s = g.comps[c];
        const va = this.keyValue(g, c, ja), vb = this.keyValue(g, c, jb);
        const range = vb - va;
        const lo = Math.min(va, vb), hi = Math.max(va, vb);
        const useful = Math.abs(range) > 0.05 * g.tol;
        const w = useful ? (range * itol) ** 2 : 0;
        if (useful) scale = Math.max(scale, Math.abs(range) * itol);
        for (let j = ja + 1; j < jb; j++) {
          const v = s[j];
          const ex = (v < lo ? lo - v : v > hi ? v - hi : 0) * itol;
          if (ex > gerr[j]) gerr[j] = ex;
          if (ex > excursion) excursion = ex;
          if (useful) {
            const p = (v - va) / range;
            ts[m] = (j - ja) * inv;
            ps[m] = p < 0 ? 0 : p > 1 ? 1 : p;
            ws[m] = w;
            m++;
          }
        }
      }
      return { excursion, m, scale };
    }
    // Rotation: project each sample onto the great circle through the key rotations.
    this.loadQuats(g, ja, jb);
    const qa = this.qa, qb = this.qb, q = g.q;
    const na = 1 / (Math.sqrt(qa[0] * qa[0] + qa[1] * qa[1] + qa[2] * qa[2] + qa[3] * qa[3]) || 1);
    let nb = 1 / (Math.sqrt(qb[0] * qb[0] + qb[1] * qb[1] + qb[2] * qb[2] + qb[3] * qb[3]) || 1);
    if (qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3] < 0) nb = -nb;
    const a0 = qa[0] * na, a1 = qa[1] * na, a2 = qa[2] * na, a3 = qa[3] * na;
    const b0 = qb[0] * nb, b1 = qb[1] * nb, b2 = qb[2] * nb, b3 = qb[3] * nb;
    const th = 2 * Math.atan2(hyp4(a0 - b0, a1 - b1, a2 - b2, a3 - b3), hyp4(a0 + b0, a1 + b1, a2 + b2, a3 + b3));
    const itol = 2 / g.tol; // rotation angle = 2 × the angle between unit quaternions
    if (th < 1e-9) {
      for (let j = ja + 1; j < jb; j++) {
        const ex = quatAngle(a0, a1, a2, a3, q[4 * j], q[4 * j + 1], q[4 * j + 2], q[4 * j + 3]) / g.tol;
        gerr[j] = ex;
        if (ex > excursion) excursion = ex;
      }
      return { excursion, m: 0, scale: 0 };
    }
    const ct = Math.cos(th), st = Math.sin(th);
    const e0 = (b0 - ct * a0) / st, e1 = (b1 - ct * a1) / st, e2 = (b2 - ct * a2) / st, e3 = (b3 - ct * a3) / st;
    const ch = Math.cos(th / 2), sh = Math.sin(th / 2);
    const m0 = ch * a0 + sh * e0, m1 = ch * a1 + sh * e1, m2 = ch * a2 + sh * e2, m3 = ch * a3 + sh * e3;
    const w = (th * itol) ** 2;
    scale = th * itol;
    for (let j = ja + 1; j < jb; j++) {
      let x = q[4 * j], y = q[4 * j + 1], z = q[4 * j + 2], ww = q[4 * j + 3];
      let nq = 1 / (hyp4(x, y, z, ww) || 1);
      if (x * m0 + y * m1 + z * m2 + ww * m3 < 0) nq = -nq;
      x *= nq; y *= nq; z *= nq; ww *= nq;
      const c1 = x * a0 + y * a1 + z * a2 + ww * a3;
      const c2 = x * e0 + y * e1 + z * e2 + ww * e3;
      const yp = Math.atan2(c2, c1) / th;
      const yc = yp < 0 ? 0 : yp > 1 ? 1 : yp;
      // Distance to the nearest point of the arc: the chord to cos·e1 + sin·e2.
      const cc = Math.cos(yc * th), ss = Math.sin(yc * th);
      const p0 = cc * a0 + ss * e0, p1 = cc * a1 + ss * e1, p2 = cc * a2 + ss * e2, p3 = cc * a3 + ss * e3;
      const ex = 2 * Math.atan2(hyp4(x - p0, y - p1, z - p2, ww - p3), hyp4(x + p0, y + p1, z + p2, ww + p3)) * itol;
      gerr[j] = ex;
      if (ex > excursion) excursion = ex;
      ts[m] = (j - ja) * inv;
      ps[m] = yc;
      ws[m] = w;
      m++;
    }
    return { excursion, m, scale };
  }

  /**
   * Fits one curve/quat group on [ja, jb]; writes its curve (0..127) into out at o and per-sample
   * errors into gerr. Returns the worst normalised error (≤ 1 means within tolerance).
   */
  fitGroup(g: CurveGroup | QuatGroup, ja: number, jb: number, out: Uint8Array, o: number, unit: boolean): number {
    const { excursion, m, scale } = this.preparePoints(g, ja, jb);
    if (excursion > 1 && !unit) {
      for (let i = 0; i < 4; i++) out[o + i] = LINEAR[i];
      return excursion;
    }
    if (m === 0) {
      for (let i = 0; i < 4; i++) out[o + i] = LINEAR[i];
      return this.evalGroup(g, ja, jb, out, o, 1 / 127, true);
    }
    const cp = this.cp;
    fitCurve(this.ts, this.ps, this.ws, m, cp);
    for (let i = 0; i < 4; i++) out[o + i] = Math.max(0, Math.min(127, Math.round(cp[i] * 127)));
    // Every evaluation of the curve left in `out` writes gerr, so the last one is the answer.
    let e = this.evalGroup(g, ja, jb, out, o, 1 / 127, true);
    if (e <= 1) return e;
    let eu = this.evalGroup(g, ja, jb, cp, 0, 1, false);
    // Not hopeless (within a quarter of the span): refine on the vertical error itself.
    if (eu > 1 && eu <= Math.max(2, 0.25 * scale)) {
      refineCurve(this.ts, this.ps, this.ws, m, cp);
      eu = this.evalGroup(g, ja, jb, cp, 0, 1, false);
      for (let i = 0; i < 4; i++) out[o + i] = Math.max(0, Math.min(127, Math.round(cp[i] * 127)));
      e = this.evalGroup(g, ja, jb, out, o, 1 / 127, true);
    }
    // Did rounding break it? Then look for a grid point nearby that meets the tolerance.
    if (e > 1 && eu <= 1 + scale / 127) {
      this.searchGrid(g, ja, jb, out, o, e);
      e = this.evalGroup(g, ja, jb, out, o, 1 / 127, true);
    }
    return e;
  }

  /** Coordinate descent on the 0..127 grid, minimising the worst error; stops once within tolerance. */
  searchGrid(g: FitGroup, ja: number, jb: number, out: Uint8Array, o: number, e0: number): number {
    let best = e0;
    const c = this.probe;
    for (let round = 0; round < 24 && best > 1; round++) {
      let bi = -1, bv = 0, be = best;
      for (let i = 0; i < 4; i++) {
        for (let d = -1; d <= 1; d += 2) {
          const v = out[o + i] + d;
          if (v < 0 || v > 127) continue;
          for (let k = 0; k < 4; k++) c[k] = out[o + k];
          c[i] = v;
          const e = this.evalGroup(g, ja, jb, c, 0, 1 / 127, false);
          if (e < be) {
            be = e; bi = i; bv = v;
          }
        }
      }
      if (bi < 0) break;
      out[o + bi] = bv;
      best = be;
    }
    return best;
  }

  /**
   * Tries segment [a, b]: the curves when it fits, else the worst sample index (err filled). With
   * `quick` (the merge pass, which only needs to know whether it fits) it stops at the first group
   * that strays and returns worst −1.
   */
  fitSegment(a: number, b: number, quick = false): { curves: Uint8Array } | { worst: number } {
    const w = this.w;
    const ja = this.R * (a - w.g0), jb = this.R * (b - w.g0);
    const unit = b - a === 1;
    const curves = new Uint8Array(4 * this.curveGroups);
    const hinted = w.hint?.(a, b);
    if (hinted) {
      let ok = true;
      let ci = 0;
      for (const g of w.groups) {
        if (g.kind === 'linear') {
          if (this.evalCurve(g, ja, jb, 0, 0, 1, 1, false) > 1) ok = false;
        } else {
          if (this.evalGroup(g, ja, jb, hinted, 4 * ci, 1 / 127, false) > 1) ok = false;
          ci++;
        }
        if (!ok) break;
      }
      if (ok) return { curves: hinted };
    }
    const err = this.err;
    for (let j = ja + 1; j < jb; j++) err[j] = 0;
    let worst = 0;
    let ci = 0;
    for (const g of w.groups) {
      const e = g.kind === 'linear' ? this.evalCurve(g, ja, jb, 0, 0, 1, 1, true) : this.fitGroup(g, ja, jb, curves, 4 * ci++, unit);
      if (quick && e > 1 && !unit && !(w.noUnitSegments && b - a === 2)) return { worst: -1 };
      if (e > worst) worst = e;
      for (let j = ja + 1; j < jb; j++) if (this.gerr[j] > err[j]) err[j] = this.gerr[j];
    }
    if (worst <= 1 || unit) return { curves };
    if (w.noUnitSegments && b - a === 2 && err[ja + this.R] <= 1) return { curves };
    let wj = ja + 1;
    for (let j = ja + 2; j < jb; j++) if (err[j] > err[wj]) wj = j;
    return { worst: wj };
  }

  /** The integer frame to split [a, b] at, given the worst sample index. */
  splitFrame(a: number, b: number, wj: number): number {
    const g0 = this.w.g0;
    if (this.R === 1) return g0 + wj;
    if (wj % 2 === 0) return g0 + wj / 2;
    const lo = g0 + (wj - 1) / 2, hi = lo + 1;
    if (lo <= a) return hi;
    if (hi >= b) return lo;
    return this.err[wj - 1] >= this.err[wj + 1] ? lo : hi;
  }
}

/** Rotation angle (radians) between two orientations given as quaternions (any length, either sign). */
export function quatAngle(ax: number, ay: number, az: number, aw: number, bx: number, by: number, bz: number, bw: number): number {
  const na = 1 / (Math.sqrt(ax * ax + ay * ay + az * az + aw * aw) || 1);
  let nb = 1 / (Math.sqrt(bx * bx + by * by + bz * bz + bw * bw) || 1);
  if (ax * bx + ay * by + az * bz + aw * bw < 0) nb = -nb;
  const dx = ax * na - bx * nb, dy = ay * na - by * nb, dz = az * na - bz * nb, dw = aw * na - bw * nb;
  const sx = ax * na + bx * nb, sy = ay * na + by * nb, sz = az * na + bz * nb, sw = aw * na + bw * nb;
  return 4 * Math.atan2(Math.sqrt(dx * dx + dy * dy + dz * dz + dw * dw), Math.sqrt(sx * sx + sy * sy + sz * sz + sw * sw));
}

/** Fits a sampled window: key frames and the curves of each segment. Deterministic. */
export function fitWindow(w: SampledWindow, opts: { merge?: boolean } = {}): WindowFit {
  if (w.g1 <= w.g0) return { frames: [w.g0], curves: [null] };
  const f = new Fitter(w);
  const forced = [...new Set((w.forced ?? []).filter((x) => x > w.g0 && x < w.g1))].sort((a, b) => a - b);
  // Long windows start as chunks of at most CHUNK frames: a split from the whole window down costs a
  // pass over every sample per level; the merge pass removes chunk ends that turn out unnecessary.
  const bounds: number[] = [];
  const ends = [w.g0, ...forced, w.g1];
  for (let i = 0; i < ends.length - 1; i++) {
    bounds.push(ends[i]);
    const len = ends[i + 1] - ends[i];
    const parts = Math.ceil(len / CHUNK);
    for (let p = 1; p < parts; p++) bounds.push(ends[i] + Math.round((p * len) / parts));
  }
  bounds.push(w.g1);
  const frames: number[] = [w.g0];
  const curves: (Uint8Array | null)[] = [null];
  // Left to right: the stack holds segment ends still to fit after the current one.
  for (let i = 1; i < bounds.length; i++) {
    const stack: number[] = [bounds[i]];
    let a = bounds[i - 1];
    while (stack.length) {
      const b = stack[stack.length - 1];
      const r = f.fitSegment(a, b);
      if ('curves' in r) {
        frames.push(b);
        curves.push(r.curves);
        stack.pop();
        a = b;
      } else {
        stack.push(f.splitFrame(a, b, r.worst));
      }
    }
  }
  if (opts.merge !== false && frames.length > 2) {
    const keep = new Set(forced);
    // Merge pass: drop a key when the segment over its neighbours fits.
    const outF: number[] = [frames[0]];
    const outC: (Uint8Array | null)[] = [null];
    for (let i = 1; i < frames.length; i++) {
      const fr = frames[i];
      const last = outF.length - 1;
      if (last > 0 && !keep.has(outF[last])) {
        const r = f.fitSegment(outF[last - 1], fr, true);
        if ('curves' in r) {
          outF[last] = fr;
          outC[last] = r.curves;
          continue;
        }
      }
      outF.push(fr);
      outC.push(curves[i]);
    }
    return { frames: outF, curves: outC };
  }
  return { frames, curves };
}
