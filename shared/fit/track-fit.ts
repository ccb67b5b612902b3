/**
 * Fitting one track, sampled on a half-frame grid, with keys at integer frames whose curves play back
 * within tolerance at every sample (every integer and every half frame of the window).
 *
 * Method: left to right, each key as far from the one before as a segment fits (farthestFit: doubling,
 * then halving back). A segment [a, b] between two keys is tried as follows, for each channel group
 * (channels that share one curve):
 *  1. the key values at a and b are the samples there (as the file will store them: float32, or whole
 *     numbers for the camera's fov);
 *  2. a curve cannot overshoot (control points 0..127), so a sample that leaves the range between the
 *     key values by more than the tolerance (a turning point), or a rotation that leaves the arc between
 *     the key rotations, cannot be met: the segment does not fit;
 *  3. otherwise the curve's control points are fitted by least squares (curve-fit.ts), rounded to the
 *     0..127 grid and checked by playing the segment the way MMD does (bezierProgress, slerp);
 *     where rounding broke the tolerance a small search on the grid looks for a curve that meets it;
 *     where the fit still strays (segments of up to STRONG_MAX samples), a search of the whole grid
 *     (strongSearch: branch and bound over x1, x2, with y1, y2 exact from the progress each sample allows).
 * A one-frame segment always fits: its integer frames are the keys themselves. For the camera, where
 * keys one frame apart play as a cut, the keys around each one-frame segment are chosen again
 * (noUnitSegments, noUnitRepair). A merge pass then tries to remove each key that was not forced by
 * fitting its two neighbours' segment.
 *
 * With `freeValues` (a re-timing: the input's corners fall between output frames, so pinned values put
 * a key on both sides of one) a last pass lets a key's stored value leave its sample by up to the
 * tolerance (each position axis; the rotation by an angle): a key goes when its neighbours, moved
 * toward the motion on the far side, can carry both their segments (FreeValuePass). Every move is
 * checked by the same play-back of stored values and rounded curves, and the whole result again at the
 * end; where anything strays the pinned fit stands.
 */
import { bezierProgress, solveBezierX } from '../vmd/bezier';
import { atan2, cos, sin } from '../vmd/portable-math';
import { quatAngle } from '../vmd/quat-angle';
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
  perFrame?: number;
  groups: FitGroup[];
  /** Frames strictly inside the window that must stay keys (step changes: physics flag, perspective). */
  forced?: readonly number[];
  /**
   * A segment from key frame a known to reproduce the input exactly: its end b and its curves (4 per
   * curve/quat group, 0..127), e.g. the input's own curve when a and b play consecutive input keys;
   * null when there is none. The fit tries it first from a, and wherever it tries [a, b].
   */
  hint?: (a: number) => { b: number; curves: Uint8Array } | null;
  /** Camera: keys one frame apart play as a cut, so a two-frame segment is not split for half frames. */
  noUnitSegments?: boolean;
  /**
   * Key values may leave their samples by up to the tolerance (a re-timing, whose corners fall between
   * output frames): after the split and merge passes, a pass drops keys whose neighbours can serve both
   * sides with values moved off their samples. Curve and quat groups only (ignored with linear groups).
   */
  freeValues?: boolean;
  /**
   * Where the least-squares fit misses a segment of up to STRONG_MAX samples, search the whole 0..127
   * grid (strongSearch), in the first pass: a re-timing, whose corners fall between output frames and
   * need curves near the grid's corners. Implied by freeValues.
   */
  search?: boolean;
}

export interface WindowFit {
  /** Key frames, ascending, from g0 to g1. */
  frames: number[];
  /** Per key, the curves (4 per curve/quat group) of the segment ending there; null for the first key. */
  curves: (Uint8Array | null)[];
  /**
   * With `freeValues`: per key, the values to store (float32, or whole numbers for integer groups),
   * every channel of the curve/quat groups in group order (a quat group's x, y, z, w); absent when
   * every key keeps its sample.
   */
  values?: Float64Array[];
}

const LINEAR: readonly number[] = [20, 20, 107, 107];

function hyp4(a: number, b: number, c: number, d: number): number {
  return Math.sqrt(a * a + b * b + c * c + d * d);
}
const F = Math.fround;

/**
 * The great-circle arc of R⁴ from unit quaternion a to b (b on a's side): set() gives th, the angle
 * between them, and for th ≥ 1e-9 the unit tangent e at a (b = cos th·a + sin th·e) and the arc's
 * midpoint m; nearest(q, j) projects sample j onto the arc and returns half the angle between the
 * unit sample and the arc's nearest point (a quarter of the rotation between them), with its progress
 * along the arc, 0..1, in `progress`.
 */
export class Arc {
  a0 = 0; a1 = 0; a2 = 0; a3 = 0;
  e0 = 0; e1 = 0; e2 = 0; e3 = 0;
  m0 = 0; m1 = 0; m2 = 0; m3 = 0;
  th = 0;
  progress = 0;

  set(a0: number, a1: number, a2: number, a3: number, b0: number, b1: number, b2: number, b3: number): number {
    const th = 2 * atan2(hyp4(a0 - b0, a1 - b1, a2 - b2, a3 - b3), hyp4(a0 + b0, a1 + b1, a2 + b2, a3 + b3));
    this.th = th;
    this.a0 = a0; this.a1 = a1; this.a2 = a2; this.a3 = a3;
    if (th < 1e-9) return th;
    const ct = cos(th), st = sin(th);
    const e0 = (b0 - ct * a0) / st, e1 = (b1 - ct * a1) / st, e2 = (b2 - ct * a2) / st, e3 = (b3 - ct * a3) / st;
    this.e0 = e0; this.e1 = e1; this.e2 = e2; this.e3 = e3;
    const ch = cos(th / 2), sh = sin(th / 2);
    this.m0 = ch * a0 + sh * e0; this.m1 = ch * a1 + sh * e1; this.m2 = ch * a2 + sh * e2; this.m3 = ch * a3 + sh * e3;
    return th;
  }

  /**
   * As the class says. With `within`, the cos² of an angle between unit quaternions (at most 1): -1
   * where the unit sample's foot on the circle lies on the arc and the sample surely within that angle
   * of it (the progress is set all the same).
   */
  nearest(q: Float64Array, j: number, unit?: Float64Array, within = 2): number {
    const a0 = this.a0, a1 = this.a1, a2 = this.a2, a3 = this.a3, e0 = this.e0, e1 = this.e1, e2 = this.e2, e3 = this.e3, th = this.th;
    const o = 4 * j;
    let x = q[o], y = q[o + 1], z = q[o + 2], w = q[o + 3];
    const flip = x * this.m0 + y * this.m1 + z * this.m2 + w * this.m3 < 0;
    if (unit) {
      // The sample times 1/|sample|, worked out once (Fitter.unitQ: the same expression), and
      // x·(−n) is −(x·n) exactly: the same values as below.
      x = unit[o]; y = unit[o + 1]; z = unit[o + 2]; w = unit[o + 3];
      if (flip) {
        x = -x; y = -y; z = -z; w = -w;
      }
    } else {
      let nq = 1 / (hyp4(x, y, z, w) || 1);
      if (flip) nq = -nq;
      x *= nq; y *= nq; z *= nq; w *= nq;
    }
    const xe = x * e0 + y * e1 + z * e2 + w * e3, xa = x * a0 + y * a1 + z * a2 + w * a3;
    const yp = atan2(xe, xa) / th;
    const yc = yp < 0 ? 0 : yp > 1 ? 1 : yp;
    this.progress = yc;
    // On the arc's span, the nearest point is the sample's foot on the circle, and the angle to it has
    // cosine² xa² + xe²: surely within `within` (a cos²), the angle is not needed.
    if (yc === yp && xa * xa + xe * xe >= within * (1 + 1e-9)) return -1;
    // The chord to the nearest point of the arc, cos·a + sin·e.
    const cc = cos(yc * th), ss = sin(yc * th);
    const p0 = cc * a0 + ss * e0, p1 = cc * a1 + ss * e1, p2 = cc * a2 + ss * e2, p3 = cc * a3 + ss * e3;
    return atan2(hyp4(x - p0, y - p1, z - p2, w - p3), hyp4(x + p0, y + p1, z + p2, w + p3));
  }
}

const excursionArc = new Arc();

/** cos² of an angle (radians) between unit quaternions: Arc.nearest's `within` for samples no further than it from the arc. */
function cosSquared(angle: number): number {
  const c = cos(angle); // portable-math's, as every function the fitter calls (portable-math.test)
  return c * c;
}

class Fitter {
  readonly n: number;
  readonly gerr: Float64Array;
  readonly ts: Float64Array;
  readonly ps: Float64Array;
  readonly ws: Float64Array;
  readonly cp = new Float64Array(4);
  readonly probe = new Uint8Array(4);
  readonly qa = new Float64Array(4);
  readonly qb = new Float64Array(4);
  readonly arc = new Arc();
  /** Key value and span per channel of the group being evaluated. */
  readonly kv = new Float64Array(16);
  readonly curveGroups: number;
  readonly R: number;
  /**
   * Stored key values per sample when they may leave the samples (the free-value pass's own fitter):
   * a curve group's one array per channel, a quat group's one array of x, y, z, w; null when every
   * key is its sample (float32, or whole numbers for integer groups).
   */
  readonly keys: Map<FitGroup, Float64Array[]> | null;
  /**
   * Whether a curve the least-squares fit misses is searched for on the grid itself (strongSearch): in a
   * re-timing whose corners fall between output frames (freeValues), in its first pass and its free-value
   * pass, and in a camera's re-timing (search), in its first pass. Elsewhere (reduce, a bone slow-down)
   * it found little when it searched a coarse grid: on baked wavefile_v2, 26 keys fewer of 13,548 for
   * half the time again. The window's fitter sets it for its first pass; the free-value pass's is built with it.
   */
  strong: boolean;
  /**
   * Whether callers only ask whether a segment fits (fitSegment: the split, merge and repair passes),
   * not by how much: then an evaluation stops at the first sample past the tolerance, and the
   * turning-point scan at the first excursion. The free-value pass compares errors: its own fitter is built without it.
   * Either way the same curves are fitted and the same segments fit.
   */
  readonly checkOnly: boolean;
  /** Per quat group, each sample divided by its length (as slerpPair normalises it), computed once. */
  readonly unitQ: Map<QuatGroup, Float64Array>;
  /**
   * The order fitSegment tries the groups in: the one that strayed last first, so that a segment that
   * does not fit is found out by its likeliest group before the others are fitted. Each group's fit
   * depends on that group alone, so the order changes the work, never the answer.
   */
  readonly order: number[];
  /** Curve slot (4 bytes each) per group index; −1 for linear groups. */
  readonly slot: Int32Array;
  /**
   * Per sample j, the last sample k ≥ j such that every channel of every group holds sample j's value
   * from j to k (a bone that does not move over a stretch); see stillSpan.
   */
  readonly stillTo: Int32Array;

  /**
   * A fitter over window w. `keys`, `checkOnly` and `strong` as the fields say (by default: the samples
   * as key values, checks that stop at the tolerance, no grid search); `unitQ` the unit samples of
   * another fitter over the same window, shared instead of computed again.
   */
  constructor(
    readonly w: SampledWindow,
    opts: { keys?: Map<FitGroup, Float64Array[]>; checkOnly?: boolean; strong?: boolean; unitQ?: Map<QuatGroup, Float64Array> } = {},
  ) {
    this.keys = opts.keys ?? null;
    this.checkOnly = opts.checkOnly ?? true;
    this.strong = opts.strong ?? false;
    this.R = w.perFrame ?? 2;
    this.n = this.R * (w.g1 - w.g0) + 1;
    this.gerr = new Float64Array(this.n);
    let maxComps = 1;
    for (const g of w.groups) if (g.kind === 'curve') maxComps = Math.max(maxComps, g.comps.length);
    this.ts = new Float64Array(maxComps * this.n);
    this.ps = new Float64Array(maxComps * this.n);
    this.ws = new Float64Array(maxComps * this.n);
    this.curveGroups = w.groups.filter((g) => g.kind !== 'linear').length;
    this.order = w.groups.map((_, i) => i);
    this.slot = new Int32Array(w.groups.length);
    let ci = 0;
    w.groups.forEach((g, i) => (this.slot[i] = g.kind === 'linear' ? -1 : ci++));
    this.stillTo = stillRuns(w.groups, this.n);
    this.unitQ = opts.unitQ ?? new Map();
    for (const g of w.groups) {
      if (g.kind !== 'quat' || opts.unitQ) continue;
      const q = g.q, u = new Float64Array(q.length);
      for (let j = 0; j < q.length; j += 4) {
        const x = q[j], y = q[j + 1], z = q[j + 2], ww = q[j + 3];
        const nb = 1 / (Math.sqrt(x * x + y * y + z * z + ww * ww) || 1);
        u[j] = x * nb; u[j + 1] = y * nb; u[j + 2] = z * nb; u[j + 3] = ww * nb;
      }
      this.unitQ.set(g, u);
    }
  }

  /**
   * Whether [a, b] is a still stretch whose every part fits as surely as the whole: every sample of every
   * group the same from a to b, each quat group's samples its stored keys (float32 already) and its
   * tolerance far above rounding (1e-9 rad). Then any segment inside plays its one value: a curve or
   * linear group with the same error at every sample of every segment (key values equal: played =
   * the key value exactly), a quat group within a few ulps (~1e-14 rad) of the sample. So fitSegment(a, b)
   * fitting means every segment inside fits, as farthestFit's doubling would find step by step.
   */
  stillSpan(a: number, b: number): boolean {
    if (this.keys !== null) return false;
    const ja = this.R * (a - this.w.g0), jb = this.R * (b - this.w.g0);
    if (this.stillTo[ja] < jb) return false;
    for (const g of this.w.groups) {
      if (g.kind !== 'quat') continue;
      if (!(g.tol > 1e-9)) return false;
      const q = g.q, o = 4 * ja;
      if (F(q[o]) !== q[o] || F(q[o + 1]) !== q[o + 1] || F(q[o + 2]) !== q[o + 2] || F(q[o + 3]) !== q[o + 3]) return false;
    }
    return true;
  }

  keyValue(g: CurveGroup | LinearGroup, c: number, j: number): number {
    if (this.keys !== null) {
      const k = this.keys.get(g);
      if (k) return k[c][j];
    }
    const v = g.comps[c][j];
    return g.kind === 'curve' && g.integer ? Math.round(v) : F(v);
  }

  /**
   * Max normalised error of a curve group played with curve (x1, y1, x2, y2 in 0..1); optionally writes
   * per-sample errors into gerr. Past `bound` it stops: the answer is then some sample's error above
   * `bound`, not necessarily the largest (Infinity: the largest, every sample).
   */
  evalCurve(g: CurveGroup | LinearGroup, ja: number, jb: number, x1: number, y1: number, x2: number, y2: number, write: boolean, bound = Infinity): number {
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
        if (e > worst) {
          worst = e;
          if (e > bound) return e;
        }
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
      if (e > worst) {
        worst = e;
        if (e > bound) return e;
      }
    }
    return worst;
  }

  /** The key rotations of a quat group (float32 as stored), when they may leave the samples. */
  quatKeys(g: QuatGroup): Float64Array | null {
    return this.keys === null ? null : this.keys.get(g)?.[0] ?? null;
  }

  loadQuats(g: QuatGroup, ja: number, jb: number): void {
    const k = this.quatKeys(g);
    for (let i = 0; i < 4; i++) {
      this.qa[i] = k ? k[4 * ja + i] : F(g.q[4 * ja + i]);
      this.qb[i] = k ? k[4 * jb + i] : F(g.q[4 * jb + i]);
    }
  }

  /**
   * The arc between the key rotations of [ja, jb] (stored values, unit, b on a's side) into `arc`; returns
   * the angle between them (see Arc.set: a always, the tangent and midpoint when it is ≥ 1e-9).
   */
  setArc(g: QuatGroup, ja: number, jb: number): number {
    this.loadQuats(g, ja, jb);
    const qa = this.qa, qb = this.qb;
    const na = 1 / (Math.sqrt(qa[0] * qa[0] + qa[1] * qa[1] + qa[2] * qa[2] + qa[3] * qa[3]) || 1);
    let nb = 1 / (Math.sqrt(qb[0] * qb[0] + qb[1] * qb[1] + qb[2] * qb[2] + qb[3] * qb[3]) || 1);
    if (qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3] < 0) nb = -nb;
    return this.arc.set(qa[0] * na, qa[1] * na, qa[2] * na, qa[3] * na, qb[0] * nb, qb[1] * nb, qb[2] * nb, qb[3] * nb);
  }

  /** evalCurve for a rotation: the angle between the played and the sampled orientation, per tolerance. */
  evalQuat(g: QuatGroup, ja: number, jb: number, x1: number, y1: number, x2: number, y2: number, write: boolean, bound = Infinity): number {
    const inv = 1 / (jb - ja);
    const itol = 1 / g.tol;
    const q = g.q, u = this.unitQ.get(g)!, gerr = this.gerr;
    // slerpInto (shared/vmd/sample.ts) with the per-pair work (slerpPair: sign, angle) done once: the
    // same arithmetic, so the same played rotations.
    this.loadQuats(g, ja, jb);
    const qa = this.qa, qb = this.qb;
    const ax = qa[0], ay = qa[1], az = qa[2], aw = qa[3];
    const p = slerpPair(ax, ay, az, aw, qb[0], qb[1], qb[2], qb[3]);
    const bx = p[0], by = p[1], bz = p[2], bw = p[3], th = p[4];
    const small = th < 1e-10;
    const sth = sin(th);
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
        sa = sin((1 - y) * th) / sth;
        sb = sin(y * th) / sth;
      }
      // quatAngle(played, sample), written out with the sample's normalisation done once (unitQ): the
      // same operations on the same values (−x·n is −(x·n) exactly), so the same angle to the bit.
      const px = sa * ax + sb * bx, py = sa * ay + sb * by, pz = sa * az + sb * bz, pw = sa * aw + sb * bw;
      const o = 4 * j;
      let ux = u[o], uy = u[o + 1], uz = u[o + 2], uw = u[o + 3];
      if (px * q[o] + py * q[o + 1] + pz * q[o + 2] + pw * q[o + 3] < 0) {
        ux = -ux; uy = -uy; uz = -uz; uw = -uw;
      }
      const na = 1 / (Math.sqrt(px * px + py * py + pz * pz + pw * pw) || 1);
      const dx = px * na - ux, dy = py * na - uy, dz = pz * na - uz, dw = pw * na - uw;
      const sx = px * na + ux, sy = py * na + uy, sz = pz * na + uz, sw = pw * na + uw;
      const e = 2 * (2 * atan2(Math.sqrt(dx * dx + dy * dy + dz * dz + dw * dw), Math.sqrt(sx * sx + sy * sy + sz * sz + sw * sw))) * itol;
      if (write) gerr[j] = e;
      if (e > worst) {
        worst = e;
        if (e > bound) return e;
      }
    }
    return worst;
  }

  evalGroup(g: FitGroup, ja: number, jb: number, c: ArrayLike<number>, o: number, scale: number, write: boolean, bound = Infinity): number {
    const x1 = c[o] * scale, y1 = c[o + 1] * scale, x2 = c[o + 2] * scale, y2 = c[o + 3] * scale;
    return g.kind === 'quat' ? this.evalQuat(g, ja, jb, x1, y1, x2, y2, write, bound) : this.evalCurve(g, ja, jb, x1, y1, x2, y2, write, bound);
  }

  /** preparePoints' fitting points and the group's span in tolerances (fields, not an object per call). */
  pm = 0;
  pscale = 0;

  /**
   * Turning points and fitting points of a curve group: returns the worst normalised excursion (a
   * sample outside what any monotonic curve can reach) with gerr filled, and fills ts/ps/ws with
   * the samples' progress clamped to 0..1 (their count in pm); pscale is the group's span in
   * tolerances. It returns at the first excursion past `stop` (≥ 1; a lower bound of the worst, gerr
   * and the points left part-filled): the caller then only needs to know it strays that far.
   */
  preparePoints(g: CurveGroup | QuatGroup, ja: number, jb: number, stop: number): number {
    const inv = 1 / (jb - ja);
    let m = 0, excursion = 0, scale = 0;
    const { ts, ps, ws, gerr } = this;
    for (let j = ja + 1; j < jb; j++) gerr[j] = 0;
    this.pm = 0;
    this.pscale = 0;
    if (g.kind === 'curve') {
      const itol = 1 / g.tol;
      for (let c = 0; c < g.comps.length; c++) {
        const s = g.comps[c];
        const va = this.keyValue(g, c, ja), vb = this.keyValue(g, c, jb);
        const range = vb - va;
        const lo = Math.min(va, vb), hi = Math.max(va, vb);
        const useful = Math.abs(range) > 0.05 * g.tol;
        const w = useful ? range * itol * (range * itol) : 0;
        if (useful) scale = Math.max(scale, Math.abs(range) * itol);
        for (let j = ja + 1; j < jb; j++) {
          const v = s[j];
          const ex = (v < lo ? lo - v : v > hi ? v - hi : 0) * itol;
          if (ex > gerr[j]) gerr[j] = ex;
          if (ex > excursion) {
            excursion = ex;
            if (ex > stop) return ex;
          }
          if (useful) {
            const p = (v - va) / range;
            ts[m] = (j - ja) * inv;
            ps[m] = p < 0 ? 0 : p > 1 ? 1 : p;
            ws[m] = w;
            m++;
          }
        }
      }
      this.pm = m;
      this.pscale = scale;
      return excursion;
    }
    // Rotation: project each sample onto the great circle through the key rotations.
    const q = g.q, arc = this.arc;
    const th = this.setArc(g, ja, jb);
    const itol = 2 / g.tol; // rotation angle = 2 × the angle between unit quaternions
    const unit = this.unitQ.get(g)!;
    if (th < 1e-9) {
      // quatAngle(a, sample) written out (slerpPair's arithmetic) with a's normalisation done once and
      // the sample's read from unitQ (its same expression; −x·n is −(x·n) exactly): the same angle to the bit.
      const a0 = arc.a0, a1 = arc.a1, a2 = arc.a2, a3 = arc.a3;
      const na = 1 / (Math.sqrt(a0 * a0 + a1 * a1 + a2 * a2 + a3 * a3) || 1);
      const x0 = a0 * na, x1 = a1 * na, x2 = a2 * na, x3 = a3 * na;
      for (let j = ja + 1; j < jb; j++) {
        const o = 4 * j;
        let u0 = unit[o], u1 = unit[o + 1], u2 = unit[o + 2], u3 = unit[o + 3];
        if (a0 * q[o] + a1 * q[o + 1] + a2 * q[o + 2] + a3 * q[o + 3] < 0) {
          u0 = -u0; u1 = -u1; u2 = -u2; u3 = -u3;
        }
        const d0 = x0 - u0, d1 = x1 - u1, d2 = x2 - u2, d3 = x3 - u3;
        const s0 = x0 + u0, s1 = x1 + u1, s2 = x2 + u2, s3 = x3 + u3;
        const ex = (2 * (2 * atan2(Math.sqrt(d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3), Math.sqrt(s0 * s0 + s1 * s1 + s2 * s2 + s3 * s3)))) / g.tol;
        gerr[j] = ex;
        if (ex > excursion) {
          excursion = ex;
          if (ex > stop) return ex;
        }
      }
      return excursion;
    }
    const w = th * itol * (th * itol);
    scale = th * itol;
    // A checking fitter only asks whether the excursion passes `stop` (fitGroup) and never reads gerr
    // back (the free-value pass's fitter does, to pick its worst sample): the samples surely within
    // `stop` of the arc are not measured (nearest gives -1 for them). Past it, they are, as before.
    // (The excursion is a shortcut: the played rotation lies on the arc, so a sample further from it
    // than the tolerance fails the play-back too.)
    const within = this.checkOnly && stop !== Infinity ? cosSquared(stop / itol) : 2;
    for (let j = ja + 1; j < jb; j++) {
      const ex = 2 * arc.nearest(q, j, unit, within) * itol;
      const yc = arc.progress;
      gerr[j] = ex;
      if (ex > excursion) {
        excursion = ex;
        if (ex > stop) return ex;
      }
      ts[m] = (j - ja) * inv;
      ps[m] = yc;
      ws[m] = w;
      m++;
    }
    this.pm = m;
    this.pscale = scale;
    return excursion;
  }

  /**
   * Fits one curve/quat group on [ja, jb]; writes its curve (0..127) into out at o and per-sample
   * errors into gerr. Returns the worst normalised error (≤ 1 means within tolerance) where that is
   * at most `bound` (by default 1 with checkOnly, else Infinity), else some sample's error past it
   * (gerr then part-filled).
   */
  fitGroup(g: CurveGroup | QuatGroup, ja: number, jb: number, out: Uint8Array, o: number, unit: boolean, bound = this.checkOnly ? 1 : Infinity): number {
    // `bound` (≥ 1): how far evaluations of the curve left in `out` need to go. The answer is exact up
    // to it; past it, some sample's error past it. The curve found is the same either way.
    const excursion = this.preparePoints(g, ja, jb, unit ? Infinity : bound);
    const m = this.pm, scale = this.pscale;
    if (excursion > 1 && !unit) {
      for (let i = 0; i < 4; i++) out[o + i] = LINEAR[i];
      return excursion;
    }
    if (m === 0) {
      for (let i = 0; i < 4; i++) out[o + i] = LINEAR[i];
      return this.evalGroup(g, ja, jb, out, o, 1 / 127, true, bound);
    }
    const cp = this.cp;
    fitCurve(this.ts, this.ps, this.ws, m, cp);
    for (let i = 0; i < 4; i++) out[o + i] = Math.max(0, Math.min(127, Math.round(cp[i] * 127)));
    // Every evaluation of the curve left in `out` writes gerr, so the last one is the answer.
    let e = this.evalGroup(g, ja, jb, out, o, 1 / 127, true, bound);
    if (e <= 1) return e;
    // Past max(2, scale / 4) (≥ 1 + scale / 127) neither step below is taken, whatever the exact value.
    const hopeless = Math.max(2, 0.25 * scale);
    let eu = this.evalGroup(g, ja, jb, cp, 0, 1, false, hopeless);
    // Not hopeless (within a quarter of the span): refine on the vertical error itself.
    if (eu > 1 && eu <= hopeless) {
      // Under this cost (the weighted squares; every point's weight is its span in tolerances, squared)
      // no point can be past 1 + scale / 127 tolerances, as the steps below need. A searching fitter
      // (strong: the re-timing) refines to the end: its free values lean on every curve it finds.
      refineCurve(this.ts, this.ps, this.ws, m, cp, 6, this.strong ? 0 : m * (1 + scale / 127) ** 2);
      eu = this.evalGroup(g, ja, jb, cp, 0, 1, false, 1 + scale / 127);
      for (let i = 0; i < 4; i++) out[o + i] = Math.max(0, Math.min(127, Math.round(cp[i] * 127)));
      e = this.evalGroup(g, ja, jb, out, o, 1 / 127, true, bound);
    }
    // Did rounding break it? Then look for a grid point nearby that meets the tolerance.
    if (e > 1 && eu <= 1 + scale / 127) {
      // The search compares errors: it starts from the exact one.
      if (bound !== Infinity) e = this.evalGroup(g, ja, jb, out, o, 1 / 127, true);
      this.searchGrid(g, ja, jb, out, o, e);
      e = this.evalGroup(g, ja, jb, out, o, 1 / 127, true, bound);
    }
    // The grid search is spent where it pays: a re-timing's first pass and its free-value pass.
    // A miss by many tolerances can still be a curve of the grid's corners (a steep start or end): on
    // wavefile_v2 ×1.5, searching only misses within 20 tolerances keeps 21 keys more, for no time saved.
    if (e > 1 && this.strong && jb - ja <= STRONG_MAX && this.strongSearch(g, ja, jb, out, o)) e = this.evalGroup(g, ja, jb, out, o, 1 / 127, true, bound);
    return e;
  }

  /**
   * Where the fits above miss: the progress each interior sample allows (an interval of y, from the
   * key values and the tolerance) and a search of the whole 0..127 grid for a curve through every
   * interval, by branch and bound over x1, x2 (searchBox) with y1, y2 bounded exactly by the intervals
   * (y is linear in y1, y2 once x1, x2 fix s). A curve found is checked by the same play-back as every
   * other; false when none is found. The fits above miss curves near the corners of the square (a steep
   * start or end) that short segments across a re-timed corner need.
   */
  strongSearch(g: CurveGroup | QuatGroup, ja: number, jb: number, out: Uint8Array, o: number): boolean {
    const L = jb - ja, m = L - 1;
    if (m < 1) return false;
    if (!this.progressIntervals(g, ja, jb)) return false;
    const lo = SLO, hi = SHI;
    // Monotone progress must pass through every interval in order.
    let mx = 0;
    for (let i = 0; i < m; i++) {
      if (lo[i] > mx) mx = lo[i];
      if (mx > hi[i]) return false;
    }
    // The tables hold s as float32 (off by up to ~1e-7 in progress): widened by 1e-6, no box holding a
    // curve within the intervals is dropped for that. Every curve found is played back anyway.
    for (let i = 0; i < m; i++) {
      lo[i] -= 1e-6;
      hi[i] += 1e-6;
    }
    const tab = sigmaTable(L);
    this.sTab = tab;
    this.sm = m;
    this.sG = g;
    this.sJa = ja;
    this.sJb = jb;
    this.culprit = 0;
    if (!this.searchBox(0, 127, 0, 127, 0, 127, 0, 127)) return false;
    for (let i = 0; i < 4; i++) out[o + i] = this.probe[i];
    return true;
  }

  /** The search under way (strongSearch → searchBox → searchPair): its table, interior samples, group and segment. */
  sTab: SigmaTable | null = null;
  sm = 0;
  sG: CurveGroup | QuatGroup | null = null;
  sJa = 0;
  sJb = 0;
  /** The sample that emptied the last box dropped: tried first on the next (it often empties it too). */
  culprit = 0;

  /**
   * Branch and bound over the control points x1 ∈ [a1, b1], x2 ∈ [a2, b2]: s, the curve parameter at
   * each sample's time, falls for larger x1 or x2, so the box bounds it by its corners; the progress
   * rises with s, y1 and y2, so each sample bounds y1 and y2 (given the other's range) by the
   * progress at the box's least s (at most its interval's top) and greatest s (at least its bottom).
   * An empty range drops the box; a single pair tries every y1 with the y2 range the samples leave, each
   * curve checked by the play-back. The curve found is left in `probe`.
   */
  searchBox(a1: number, b1: number, a2: number, b2: number, y1lo: number, y1hi: number, y2lo: number, y2hi: number): boolean {
    const tab = this.sTab!, m = this.sm, lo = SLO, hi = SHI;
    const pl = tab.row(b1, b2), ph = tab.row(a1, a2);
    const S = tab.s;
    let i = this.culprit;
    for (let k = 0; k < m; k++, i = i + 1 === m ? 0 : i + 1) {
      // Upper: the progress at the least s with y1, y2 at their lowest stays under hi.
      let sv = S[pl + i], u = 1 - sv;
      let B1 = 3 * u * u * sv, B2 = 3 * u * sv * sv;
      const r = (hi[i] - sv * sv * sv) * 127;
      const h1 = Math.floor((r - B2 * y2lo) / B1), h2 = Math.floor((r - B1 * y1lo) / B2);
      if (h1 < y1hi) y1hi = h1;
      if (h2 < y2hi) y2hi = h2;
      // Lower: the progress at the greatest s with y1, y2 at their highest reaches lo.
      sv = S[ph + i];
      u = 1 - sv;
      B1 = 3 * u * u * sv;
      B2 = 3 * u * sv * sv;
      const q = (lo[i] - sv * sv * sv) * 127;
      const l1 = Math.ceil((q - B2 * y2hi) / B1), l2 = Math.ceil((q - B1 * y1hi) / B2);
      if (l1 > y1lo) y1lo = l1;
      if (l2 > y2lo) y2lo = l2;
      if (y1lo > y1hi || y2lo > y2hi) {
        this.culprit = i;
        return false;
      }
    }
    if (pl === ph) return this.searchPair(a1, a2, y1lo, y1hi, y2lo, y2hi);
    if (b1 - a1 >= b2 - a2) {
      const mid = (a1 + b1) >> 1;
      return this.searchBox(a1, mid, a2, b2, y1lo, y1hi, y2lo, y2hi) || this.searchBox(mid + 1, b1, a2, b2, y1lo, y1hi, y2lo, y2hi);
    }
    const mid = (a2 + b2) >> 1;
    return this.searchBox(a1, b1, a2, mid, y1lo, y1hi, y2lo, y2hi) || this.searchBox(a1, b1, mid + 1, b2, y1lo, y1hi, y2lo, y2hi);
  }

  /** One x1, x2 pair: every y1 in range with the y2 range every sample leaves, checked by the play-back. */
  searchPair(x1: number, x2: number, y1lo: number, y1hi: number, y2lo: number, y2hi: number): boolean {
    const tab = this.sTab!, m = this.sm, lo = SLO, hi = SHI;
    const p = tab.row(x1, x2), S = tab.s;
    const b1 = SB1, b2 = SB2, b3 = SB3, c = this.probe;
    for (let i = 0; i < m; i++) {
      const sv = S[p + i], u = 1 - sv;
      b1[i] = (3 * u * u * sv) / 127;
      b2[i] = (3 * u * sv * sv) / 127;
      b3[i] = sv * sv * sv;
    }
    const g = this.sG!;
    let last = 0;
    for (let y1 = y1lo; y1 <= y1hi; y1++) {
      let l = y2lo, h = y2hi;
      for (let q = -1; q < m; q++) {
        const i = q < 0 ? last : q;
        const base = b3[i] + b1[i] * y1;
        const li = Math.ceil((lo[i] - base) / b2[i]), hh = Math.floor((hi[i] - base) / b2[i]);
        if (li > l) l = li;
        if (hh < h) h = hh;
        if (l > h) {
          last = i;
          break;
        }
      }
      for (let y2 = l; y2 <= h; y2++) {
        c[0] = x1; c[1] = y1; c[2] = x2; c[3] = y2;
        if (this.evalGroup(g, this.sJa, this.sJb, c, 0, 1 / 127, false, 1) <= 1) return true;
      }
    }
    return false;
  }

  /**
   * The interval of progress y each interior sample of [ja, jb] allows, into SLO/SHI (index i − 1 for
   * sample ja + i); false when some sample allows none, or when every curve plays the same (keys
   * equal), so there is nothing to search.
   */
  progressIntervals(g: CurveGroup | QuatGroup, ja: number, jb: number): boolean {
    const L = jb - ja;
    if (g.kind === 'curve') {
      // Each channel's interval, intersected: one curve times every channel of the group.
      for (let i = 1; i < L; i++) {
        SLO[i - 1] = 0;
        SHI[i - 1] = 1;
      }
      const tl = g.tol;
      let moving = false;
      for (let c = 0; c < g.comps.length; c++) {
        const s = g.comps[c];
        const va = this.keyValue(g, c, ja), dv = this.keyValue(g, c, jb) - va;
        if (!(Math.abs(dv) > 1e-9 * tl)) {
          // A channel that holds still is played as its key value whatever the curve: in or out.
          for (let i = 1; i < L; i++) if (!(Math.abs(s[ja + i] - va) <= tl)) return false;
          continue;
        }
        moving = true;
        for (let i = 1; i < L; i++) {
          let l = (s[ja + i] - tl - va) / dv, h = (s[ja + i] + tl - va) / dv;
          if (l > h) {
            const x = l;
            l = h;
            h = x;
          }
          if (l > SLO[i - 1]) SLO[i - 1] = l;
          if (h < SHI[i - 1]) SHI[i - 1] = h;
          if (SLO[i - 1] > SHI[i - 1]) return false;
        }
      }
      return moving;
    }
    const q = g.q, arc = this.arc;
    const th = this.setArc(g, ja, jb);
    if (!(th > 1e-7)) return false;
    const { a0, a1, a2, a3, e0, e1, e2, e3, m0, m1, m2, m3 } = arc;
    // A played point at angle φ' along the arc is within the tolerance of a sample at angle φ, at
    // distance r (cos of its angle off the circle), when r·cos(φ − φ') ≥ cos(tol / 2).
    const cmin = cos(g.tol / 2);
    for (let i = 1; i < L; i++) {
      const j = ja + i;
      let x = q[4 * j], y = q[4 * j + 1], z = q[4 * j + 2], w = q[4 * j + 3];
      const n = 1 / (hyp4(x, y, z, w) || 1);
      x *= n; y *= n; z *= n; w *= n;
      let ca = x * a0 + y * a1 + z * a2 + w * a3, ce = x * e0 + y * e1 + z * e2 + w * e3;
      // On the arc's side (toward its midpoint), as Arc.nearest takes a sample.
      if (x * m0 + y * m1 + z * m2 + w * m3 < 0) {
        ca = -ca;
        ce = -ce;
      }
      const r = Math.sqrt(ca * ca + ce * ce);
      const ratio = cmin / r;
      if (!(ratio <= 1)) return false;
      const d = atan2(Math.sqrt(Math.max(0, 1 - ratio * ratio)), ratio);
      const phi = atan2(ce, ca);
      const l = (phi - d) / th - 1e-6, h = (phi + d) / th + 1e-6;
      SLO[i - 1] = l < 0 ? 0 : l;
      SHI[i - 1] = h > 1 ? 1 : h;
      if (SLO[i - 1] > SHI[i - 1]) return false;
    }
    return true;
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
          // Past the best so far it cannot win: its evaluation stops there.
          const e = this.evalGroup(g, ja, jb, c, 0, 1 / 127, false, be);
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
   * Tries segment [a, b]: its curves when every group plays within tolerance at every interior sample,
   * else null (it stops at the first group that strays). A one-frame segment always fits: its integer
   * frames are the keys themselves (for the camera a cut: see noUnitSegments, which never leaves one).
   */
  fitSegment(a: number, b: number): Uint8Array | null {
    const w = this.w, groups = w.groups, order = this.order, slot = this.slot;
    const ja = this.R * (a - w.g0), jb = this.R * (b - w.g0);
    const unit = b - a === 1;
    const h = w.hint?.(a);
    const hinted = h && h.b === b ? h.curves : null;
    if (hinted) {
      let ok = true;
      for (let i = 0; i < groups.length && ok; i++) {
        const g = groups[i];
        if (g.kind === 'linear') ok = this.evalCurve(g, ja, jb, 0, 0, 1, 1, false, 1) <= 1;
        else ok = this.evalGroup(g, ja, jb, hinted, 4 * slot[i], 1 / 127, false, 1) <= 1;
      }
      if (ok) return hinted;
    }
    const curves = new Uint8Array(4 * this.curveGroups);
    for (let k = 0; k < order.length; k++) {
      const i = order[k], g = groups[i];
      const e = g.kind === 'linear' ? this.evalCurve(g, ja, jb, 0, 0, 1, 1, true, this.checkOnly ? 1 : Infinity) : this.fitGroup(g, ja, jb, curves, 4 * slot[i], unit);
      if (e > 1 && !unit) {
        // The group that strayed goes first next time (see order).
        for (let x = k; x > 0; x--) order[x] = order[x - 1];
        order[0] = i;
        return null;
      }
    }
    return curves;
  }
}

/** Fitter.stillTo: per sample, the last sample up to which every channel of every group keeps its value. */
function stillRuns(groups: readonly FitGroup[], n: number): Int32Array {
  const to = new Int32Array(n);
  if (n === 0) return to;
  to[n - 1] = n - 1;
  for (let j = n - 2; j >= 0; j--) {
    let same = true;
    for (let i = 0; i < groups.length && same; i++) {
      const g = groups[i];
      if (g.kind === 'quat') {
        const q = g.q, o = 4 * j;
        same = q[o] === q[o + 4] && q[o + 1] === q[o + 5] && q[o + 2] === q[o + 6] && q[o + 3] === q[o + 7];
      } else for (let c = 0; c < g.comps.length && same; c++) same = g.comps[c][j] === g.comps[c][j + 1];
    }
    to[j] = same ? to[j + 1] : j;
  }
  return to;
}

/**
 * Longest segment (samples) the strong search takes on. On wavefile_v2 ×1.5: 16 keeps 17,088 keys, 32
 * keeps 16,961, 64 keeps 16,958 (its tables twice the size again).
 */
const STRONG_MAX = 32;
const SLO = new Float64Array(STRONG_MAX), SHI = new Float64Array(STRONG_MAX);
const SB1 = new Float64Array(STRONG_MAX), SB2 = new Float64Array(STRONG_MAX), SB3 = new Float64Array(STRONG_MAX);
/**
 * Per segment length L: s solving x(s) = i/L (i = 1..L−1) for x1, x2 pairs of the 0..127 grid, held as
 * float32, each pair's row worked out the first time a search asks for it and kept in a pool that grows
 * with the rows asked for (a search touches a few thousand of the 16,384 pairs; on wavefile_v2 ×1.5 up to
 * 15,000 at one L). The bounds multiply by the Bernstein terms of s (B1 = 3(1−s)²s, B2 = 3(1−s)s², s³);
 * they are worked out from s where used: a few multiplications cost less than reading them from a pool
 * six times the size (55 MB of doubles on that dance, where the search waited on memory).
 */
class SigmaTable {
  /** Per row entry: s. */
  s = new Float32Array(0);
  readonly at = new Int32Array(128 * 128).fill(-1);
  used = 0;
  readonly m: number;
  constructor(readonly L: number) {
    this.m = L - 1;
  }

  /** Offset of pair (x1, x2)'s row in s (valid until the next call: the pool may grow). */
  row(x1: number, x2: number): number {
    const p = (x1 << 7) | x2;
    const at = this.at[p];
    if (at >= 0) return at;
    const m = this.m, o = this.used;
    if (o + m > this.s.length) {
      const grown = new Float32Array(Math.max(1024 * m, 2 * this.s.length));
      grown.set(this.s);
      this.s = grown;
    }
    for (let i = 1; i <= m; i++) this.s[o + i - 1] = solveBezierX(x1 / 127, x2 / 127, i / this.L);
    this.used = o + m;
    this.at[p] = o;
    return o;
  }
}
const sigmaTables: SigmaTable[] = [];
function sigmaTable(L: number): SigmaTable {
  return (sigmaTables[L] ??= new SigmaTable(L));
}

/** How far (fractions of the tolerance) a free-value pass tries moving a key toward its target. */
const MOVES: readonly number[] = [0.95, 0.5];
/** Largest move (fraction of the tolerance) a rotation key's search may make. */
const SEARCH_LIMIT = 0.95;

/**
 * A candidate stored value for the key at sample jk of group g: the motion through sample jNear and
 * the point `far` (the values at sample jFar) carried on to jk — a line in time per channel; for a
 * rotation the great circle through the two, either at jk's time along it or (`project`) its nearest
 * point — and the key moved from its sample toward that target by at most `frac` of the tolerance,
 * rounded as stored. Writes the channels into out; false when there is no such move.
 */
function freeCandidate(g: CurveGroup | QuatGroup, jk: number, jNear: number, jFar: number, far: ArrayLike<number>, project: boolean, frac: number, out: Float64Array): boolean {
  const t = (jk - jFar) / (jNear - jFar);
  if (g.kind === 'curve') {
    if (g.integer) return false;
    let any = false;
    for (let c = 0; c < g.comps.length; c++) {
      const s = g.comps[c];
      const base = s[jk];
      const d = far[c] + (s[jNear] - far[c]) * t - base;
      const lim = frac * g.tol;
      const v = F(base + (d > lim ? lim : d < -lim ? -lim : d));
      if (!(Math.abs(v - base) <= 0.99 * g.tol)) return false;
      if (v !== F(base)) any = true;
      out[c] = v;
    }
    return any;
  }
  const q = g.q;
  const nb = 1 / (hyp4(q[4 * jNear], q[4 * jNear + 1], q[4 * jNear + 2], q[4 * jNear + 3]) || 1);
  const b0 = q[4 * jNear] * nb, b1 = q[4 * jNear + 1] * nb, b2 = q[4 * jNear + 2] * nb, b3 = q[4 * jNear + 3] * nb;
  let na = 1 / (hyp4(far[0], far[1], far[2], far[3]) || 1);
  if (far[0] * b0 + far[1] * b1 + far[2] * b2 + far[3] * b3 < 0) na = -na;
  const a0 = far[0] * na, a1 = far[1] * na, a2 = far[2] * na, a3 = far[3] * na;
  const nk = 1 / (hyp4(q[4 * jk], q[4 * jk + 1], q[4 * jk + 2], q[4 * jk + 3]) || 1);
  let c0 = q[4 * jk] * nk, c1 = q[4 * jk + 1] * nk, c2 = q[4 * jk + 2] * nk, c3 = q[4 * jk + 3] * nk;
  let e0: number, e1: number, e2: number, e3: number;
  const ct = a0 * b0 + a1 * b1 + a2 * b2 + a3 * b3;
  if (project) {
    // The circle through b and a: b and the unit part of a orthogonal to b.
    let u0 = a0 - ct * b0, u1 = a1 - ct * b1, u2 = a2 - ct * b2, u3 = a3 - ct * b3;
    const nu = hyp4(u0, u1, u2, u3);
    if (!(nu > 1e-9)) return false;
    u0 /= nu; u1 /= nu; u2 /= nu; u3 /= nu;
    const pb = c0 * b0 + c1 * b1 + c2 * b2 + c3 * b3, pu = c0 * u0 + c1 * u1 + c2 * u2 + c3 * u3;
    e0 = pb * b0 + pu * u0; e1 = pb * b1 + pu * u1; e2 = pb * b2 + pu * u2; e3 = pb * b3 + pu * u3;
    const ne = hyp4(e0, e1, e2, e3);
    if (!(ne > 1e-9)) return false;
    e0 /= ne; e1 /= ne; e2 /= ne; e3 /= ne;
  } else {
    // slerp(a, b, t) carried past b.
    const th = atan2(hyp4(a0 - b0, a1 - b1, a2 - b2, a3 - b3), hyp4(a0 + b0, a1 + b1, a2 + b2, a3 + b3)) * 2;
    if (th < 1e-9) {
      e0 = b0; e1 = b1; e2 = b2; e3 = b3;
    } else {
      const st = sin(th), sa = sin((1 - t) * th) / st, sb = sin(t * th) / st;
      e0 = sa * a0 + sb * b0; e1 = sa * a1 + sb * b1; e2 = sa * a2 + sb * b2; e3 = sa * a3 + sb * b3;
      const ne = hyp4(e0, e1, e2, e3) || 1;
      e0 /= ne; e1 /= ne; e2 /= ne; e3 /= ne;
    }
  }
  if (c0 * e0 + c1 * e1 + c2 * e2 + c3 * e3 < 0) {
    c0 = -c0; c1 = -c1; c2 = -c2; c3 = -c3;
  }
  // th: the angle between the unit quaternions (half the rotation angle between the orientations).
  const th = atan2(hyp4(c0 - e0, c1 - e1, c2 - e2, c3 - e3), hyp4(c0 + e0, c1 + e1, c2 + e2, c3 + e3)) * 2;
  if (!(th > 1e-12)) return false;
  const u = Math.min(1, (frac * g.tol) / (2 * th));
  const st = sin(th), sa = sin((1 - u) * th) / st, sb = sin(u * th) / st;
  let m0 = sa * c0 + sb * e0, m1 = sa * c1 + sb * e1, m2 = sa * c2 + sb * e2, m3 = sa * c3 + sb * e3;
  const nm = 1 / (hyp4(m0, m1, m2, m3) || 1);
  m0 = F(m0 * nm); m1 = F(m1 * nm); m2 = F(m2 * nm); m3 = F(m3 * nm);
  if (!(quatAngle(m0, m1, m2, m3, c0, c1, c2, c3) <= 0.99 * g.tol)) return false;
  out[0] = m0; out[1] = m1; out[2] = m2; out[3] = m3;
  return true;
}

/**
 * Largest rotation angle (radians) from the samples strictly between ja and jb of q to the great-circle
 * arc between unit quaternions a and b (the part of a rotation's error no curve can take back).
 */
function arcExcursion(a: ArrayLike<number>, b: ArrayLike<number>, q: Float64Array, ja: number, jb: number): number {
  const a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
  const s = a0 * b[0] + a1 * b[1] + a2 * b[2] + a3 * b[3] < 0 ? -1 : 1;
  const th = excursionArc.set(a0, a1, a2, a3, s * b[0], s * b[1], s * b[2], s * b[3]);
  let worst = 0;
  if (th < 1e-9) {
    for (let j = ja + 1; j < jb; j++) worst = Math.max(worst, quatAngle(a0, a1, a2, a3, q[4 * j], q[4 * j + 1], q[4 * j + 2], q[4 * j + 3]));
    return worst;
  }
  for (let j = ja + 1; j < jb; j++) {
    const ex = 4 * excursionArc.nearest(q, j);
    if (ex > worst) worst = ex;
  }
  return worst;
}

/** out = exp(v) ⊗ c: c turned by the rotation vector v (angle |v|, radians), unit. */
function turnQuat(c: ArrayLike<number>, vx: number, vy: number, vz: number, out: Float64Array): void {
  const ang = Math.sqrt(vx * vx + vy * vy + vz * vz);
  const k = ang > 0 ? sin(ang / 2) / ang : 0.5;
  const dx = vx * k, dy = vy * k, dz = vz * k, dw = cos(ang / 2);
  out[0] = dw * c[0] + dx * c[3] + dy * c[2] - dz * c[1];
  out[1] = dw * c[1] - dx * c[2] + dy * c[3] + dz * c[0];
  out[2] = dw * c[2] + dx * c[1] - dy * c[0] + dz * c[3];
  out[3] = dw * c[3] - dx * c[0] - dy * c[1] - dz * c[2];
}

const searchQ = new Float64Array(4), searchC = new Float64Array(4);

/**
 * A rotation key's value for the free-value pass, by pattern search over moves v (|v| ≤ `limit`
 * radians) of the sample at jk: minimises the larger arc excursion of the key's two segments (to the
 * keys `other` at jo and, when jf ≥ 0, `far` at jf). Writes the stored (float32) quaternion into out;
 * false when it gains nothing over the sample.
 */
function searchQuatKey(g: QuatGroup, jk: number, jo: number, other: ArrayLike<number>, jf: number, far: ArrayLike<number>, limit: number, out: Float64Array): boolean {
  const q = g.q;
  const c = searchC;
  const nk = 1 / (hyp4(q[4 * jk], q[4 * jk + 1], q[4 * jk + 2], q[4 * jk + 3]) || 1);
  for (let i = 0; i < 4; i++) c[i] = q[4 * jk + i] * nk;
  const [o0, o1] = jo < jk ? [jo, jk] : [jk, jo];
  const [f0, f1] = jf < jk ? [jf, jk] : [jk, jf];
  const cost = (vx: number, vy: number, vz: number) => {
    turnQuat(c, vx, vy, vz, searchQ);
    const e = jo < jk ? arcExcursion(other, searchQ, q, o0, o1) : arcExcursion(searchQ, other, q, o0, o1);
    if (jf < 0) return e;
    return Math.max(e, jf < jk ? arcExcursion(far, searchQ, q, f0, f1) : arcExcursion(searchQ, far, q, f0, f1));
  };
  let vx = 0, vy = 0, vz = 0;
  const c0 = cost(0, 0, 0);
  let bestC = c0;
  let step = limit / 2;
  const v = [0, 0, 0];
  while (step > limit / 10) {
    let moved = false;
    for (let axis = 0; axis < 3; axis++) for (let d = -1; d <= 1; d += 2) {
      v[0] = vx; v[1] = vy; v[2] = vz;
      v[axis] += d * step;
      const len = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      if (len > limit) for (let i = 0; i < 3; i++) v[i] *= limit / len;
      const e = cost(v[0], v[1], v[2]);
      if (e < bestC) {
        bestC = e;
        vx = v[0]; vy = v[1]; vz = v[2];
        moved = true;
      }
    }
    if (!moved) step /= 2;
  }
  if (!(bestC < c0)) return false;
  turnQuat(c, vx, vy, vz, out);
  for (let i = 0; i < 4; i++) out[i] = F(out[i]);
  return quatAngle(out[0], out[1], out[2], out[3], c[0], c[1], c[2], c[3]) <= 0.99 * g.tol;
}

/** A key's best move whose merged fit strays by at most this (in tolerances) is refined by a search on the fits. */
const FREE_REFINE = 1.4;
/** Fits (pairs) one such refinement may spend. */
const FREE_REFINE_EVALS = 20;

/** A merged segment whose fit strays by more than this (in tolerances) is not tried with moved keys. */
const FREE_PRUNE = 2.0;

/** The groups a free-value pass moves: a curve group's channels or a quat group's x, y, z, w. */
type ValueGroup = CurveGroup | QuatGroup;

function widthOf(g: ValueGroup): number {
  return g.kind === 'curve' ? g.comps.length : 4;
}

/**
 * The free-value pass (SampledWindow.freeValues) over a fitted window, changing frames and curves in
 * place. For each key not forced, its neighbours' segment is tried per group with the current values;
 * where a group strays (by less than FREE_PRUNE), the previous or the next key's value is moved toward
 * targets (freeCandidate) — the one nearer the worst sample first, then both — with the moved key's
 * other segment refitted too. The key goes when every group fits. Each try is the fitter's own check
 * (stored values, rounded curves, every sample); at the end the whole result is checked again, and
 * null (frames/curves to be discarded) is returned when anything strays or nothing changed.
 *
 * It owns its fitter: one built over the same window that reads key values from this pass's `keys`
 * (moved values) and weighs every evaluation to the end (moves are compared by their errors), while
 * the window's own fitter keeps playing the samples. Its scratch (the three curve slots, the
 * candidate and search vectors) are fields, reused by every key.
 */
class FreeValuePass {
  private readonly f: Fitter;
  private readonly groups: ValueGroup[];
  private readonly G: number;
  /** Stored key values per sample (float32, or whole numbers for integer groups), as Fitter.keys reads them. */
  private readonly keys = new Map<FitGroup, Float64Array[]>();
  /** Curve slots (4 bytes per group) of the segments [ll, l], [l, nx] and [nx, nn] around the key tried. */
  private readonly cLL: Uint8Array;
  private readonly cLN: Uint8Array;
  private readonly cNN: Uint8Array;
  private readonly cand = new Float64Array(4);
  private readonly farV = new Float64Array(4);
  private readonly farK = new Float64Array(4);
  /** trySide's best move so far (and its error of [l, nx], bestE) and the key's value before it. */
  private readonly best = new Float64Array(4);
  private readonly before = new Float64Array(4);
  private bestE = Infinity;
  /** Per group, the values of l and nx before the key's tries. */
  private readonly saved: Float64Array[][];
  /** refineKey's sample, move, probe and probed value, and its best cost so far (bestC). */
  private readonly base = new Float64Array(4);
  private readonly vec = new Float64Array(4);
  private readonly probe = new Float64Array(4);
  private readonly at = new Float64Array(4);
  private bestC = Infinity;

  /** The pass for windows of curve and quat groups only; null when the window has a linear group. */
  static over(w: SampledWindow, unitQ: Map<QuatGroup, Float64Array>): FreeValuePass | null {
    const groups: ValueGroup[] = [];
    for (const g of w.groups) if (g.kind !== 'linear') groups.push(g);
    return groups.length === w.groups.length ? new FreeValuePass(w, groups, unitQ) : null;
  }

  private constructor(w: SampledWindow, groups: ValueGroup[], unitQ: Map<QuatGroup, Float64Array>) {
    this.groups = groups;
    this.G = groups.length;
    for (const g of groups) {
      if (g.kind === 'curve') this.keys.set(g, g.comps.map((s) => s.map((v) => (g.integer ? Math.round(v) : F(v)))));
      else this.keys.set(g, [g.q.map(F)]);
    }
    this.f = new Fitter(w, { keys: this.keys, checkOnly: false, strong: true, unitQ });
    this.cLL = new Uint8Array(4 * this.G);
    this.cLN = new Uint8Array(4 * this.G);
    this.cNN = new Uint8Array(4 * this.G);
    this.saved = groups.map(() => [new Float64Array(4), new Float64Array(4)]);
  }

  private getKey(g: ValueGroup, j: number, out: Float64Array): void {
    const k = this.keys.get(g)!;
    if (g.kind === 'curve') for (let c = 0; c < k.length; c++) out[c] = k[c][j];
    else for (let c = 0; c < 4; c++) out[c] = k[0][4 * j + c];
  }

  private setKey(g: ValueGroup, j: number, v: ArrayLike<number>): void {
    const k = this.keys.get(g)!;
    if (g.kind === 'curve') for (let c = 0; c < k.length; c++) k[c][j] = v[c];
    else for (let c = 0; c < 4; c++) k[0][4 * j + c] = v[c];
  }

  private static sampleOf(g: ValueGroup, j: number, out: Float64Array): void {
    if (g.kind === 'curve') for (let c = 0; c < g.comps.length; c++) out[c] = g.comps[c][j];
    else for (let c = 0; c < 4; c++) out[c] = g.q[4 * j + c];
  }

  private jOf(fr: number): number {
    return this.f.R * (fr - this.f.w.g0);
  }

  /** The fit of [a, b] and its error: exact up to `bound` (≥ 1), past it only known to be past it (see fitGroup). */
  private fitErr(g: ValueGroup, a: number, b: number, out: Uint8Array, o: number, bound = Infinity): number {
    return this.f.fitGroup(g, this.jOf(a), this.jOf(b), out, o, b - a === 1, bound);
  }

  /** The interior sample of [ja, jb] that strays most in the last fit (gerr). */
  private worstOf(ja: number, jb: number): number {
    const gerr = this.f.gerr;
    let wj = ja + 1;
    for (let j = ja + 2; j < jb; j++) if (gerr[j] > gerr[wj]) wj = j;
    return wj;
  }

  /** Whether key k's other segment ([far, k] for side 0 into cLL, [k, far] for side 1 into cNN) fits; true without one. */
  private otherFits(g: ValueGroup, o: number, side: 0 | 1, k: number, far: number): boolean {
    return far < 0 || (side === 0 ? this.fitErr(g, far, k, this.cLL, o, 1) : this.fitErr(g, k, far, this.cNN, o, 1)) <= 1;
  }

  /** Sets the key at jk to cand and fits both its segments: the error of [l, nx], Infinity when the other strays. */
  private tryCand(g: ValueGroup, o: number, side: 0 | 1, l: number, nx: number, far: number, k: number, jk: number): number {
    this.setKey(g, jk, this.cand);
    if (!this.otherFits(g, o, side, k, far)) return Infinity;
    // Only an error under the best so far is kept: past it, the evaluation stops.
    const e = this.fitErr(g, l, nx, this.cLN, o, this.bestE);
    if (e < this.bestE && e > 1) {
      this.bestE = e;
      this.best.set(this.cand);
    }
    return e;
  }

  /**
   * Moves the key of `side` (0: l, whose other segment is [far = ll, l]; 1: nx, with [nx, far = nn])
   * through the candidates, then, for a near miss, refines the best. Returns the error of [l, nx] for
   * the move it settles on, among those whose other segment fits: ≤ 1 means done (the key holds that
   * move, cLN and the other segment's slot its curves). Otherwise the key holds the best such move
   * when `keepBest` (its other segment's slot refitted), else its value before.
   */
  private trySide(g: ValueGroup, o: number, side: 0 | 1, l: number, nx: number, far: number, jw: number, keepBest: boolean): number {
    const k = side === 0 ? l : nx;
    const jk = this.jOf(k), jo = this.jOf(side === 0 ? nx : l), dir = side === 0 ? 1 : -1;
    const { cand, farV, farK, best, before } = this;
    this.bestE = Infinity;
    this.getKey(g, jk, before);
    best.set(before);
    if (g.kind === 'quat') {
      // First the move that keeps both of the key's segments nearest their arcs.
      this.getKey(g, jo, farV);
      if (far >= 0) this.getKey(g, this.jOf(far), farK);
      if (searchQuatKey(g, jk, jo, farV, far >= 0 ? this.jOf(far) : -1, farK, SEARCH_LIMIT * g.tol, cand) && this.tryCand(g, o, side, l, nx, far, k, jk) <= 1) return 1;
    }
    // Targets: through the worst sample and the other key (for a rotation, the great circle's nearest
    // point), through the nearest sample and the other key, and on from the two nearest samples.
    const near = jk + dir, beyond = Math.max(0, Math.min(this.f.n - 1, jk + 2 * dir));
    for (let t = 0; t < 3; t++) {
      const jNear = t === 0 ? jw : near, jFar = t === 2 ? beyond : jo;
      if (jNear === jFar || (t === 1 && near === jw)) continue;
      if (jFar === jo) this.getKey(g, jFar, farV);
      else FreeValuePass.sampleOf(g, jFar, farV);
      for (const frac of MOVES) {
        if (freeCandidate(g, jk, jNear, jFar, farV, t < 2, frac, cand) && this.tryCand(g, o, side, l, nx, far, k, jk) <= 1) return 1;
      }
    }
    // A near miss: a pattern search on the fits themselves, from the best move so far.
    if (this.bestE <= FREE_REFINE && this.refineKey(g, o, side, l, nx, far, k, jk) <= 1) return 1;
    if (keepBest && this.bestE < Infinity) {
      this.setKey(g, jk, best);
      this.otherFits(g, o, side, k, far);
    } else this.setKey(g, jk, before);
    return this.bestE;
  }

  /**
   * refineKey's cost of move v of key k (at jk) from `base`: the larger error of its two fits, Infinity
   * when the stored value would leave the tolerance; the key is left set to it.
   */
  private refineCost(g: ValueGroup, o: number, side: 0 | 1, l: number, nx: number, far: number, k: number, jk: number, v: Float64Array): number {
    const { at, base } = this;
    if (g.kind === 'quat') {
      turnQuat(base, v[0], v[1], v[2], at);
      for (let c = 0; c < 4; c++) at[c] = F(at[c]);
      if (!(quatAngle(at[0], at[1], at[2], at[3], base[0], base[1], base[2], base[3]) <= 0.99 * g.tol)) return Infinity;
    } else {
      for (let c = 0; c < g.comps.length; c++) {
        at[c] = F(base[c] + v[c]);
        if (!(Math.abs(at[c] - base[c]) <= 0.99 * g.tol)) return Infinity;
      }
    }
    this.setKey(g, jk, at);
    // The merged segment first: a probe no better than the best so far needs no second fit.
    const bestC = this.bestC;
    const em = this.fitErr(g, l, nx, this.cLN, o, bestC);
    if (em >= bestC) return em;
    const eo = far < 0 ? 0 : side === 0 ? this.fitErr(g, far, k, this.cLL, o, bestC) : this.fitErr(g, k, far, this.cNN, o, bestC);
    return Math.max(eo, em);
  }

  /**
   * Pattern search over moves of key k's value (a rotation vector for a quat group, one offset per
   * channel for a curve group) starting from `best`, on the larger error of its two fits ([l, nx] and
   * its other segment). Returns ≤ 1 with the key set and cLN and the other slot written when both fit.
   */
  private refineKey(g: ValueGroup, o: number, side: 0 | 1, l: number, nx: number, far: number, k: number, jk: number): number {
    const dims = g.kind === 'quat' ? 3 : g.comps.length;
    const limit = 0.95 * g.tol;
    const { base, vec, probe, best } = this;
    FreeValuePass.sampleOf(g, jk, base);
    if (g.kind === 'quat') {
      const nb = 1 / (hyp4(base[0], base[1], base[2], base[3]) || 1);
      for (let c = 0; c < 4; c++) base[c] *= nb;
      // The rotation vector of best ⊗ base⁻¹.
      const b = best, c0 = base;
      let dx = b[3] * -c0[0] + b[0] * c0[3] + b[1] * -c0[2] - b[2] * -c0[1];
      let dy = b[3] * -c0[1] - b[0] * -c0[2] + b[1] * c0[3] + b[2] * -c0[0];
      let dz = b[3] * -c0[2] + b[0] * -c0[1] - b[1] * -c0[0] + b[2] * c0[3];
      let dw = b[3] * c0[3] + b[0] * c0[0] + b[1] * c0[1] + b[2] * c0[2];
      if (dw < 0) {
        dx = -dx; dy = -dy; dz = -dz; dw = -dw;
      }
      const sn = Math.sqrt(dx * dx + dy * dy + dz * dz);
      const ang = 2 * atan2(sn, dw);
      const kk = sn > 0 ? ang / sn : 0;
      vec[0] = dx * kk; vec[1] = dy * kk; vec[2] = dz * kk;
    } else for (let c = 0; c < dims; c++) vec[c] = best[c] - base[c];
    this.bestC = Infinity;
    this.bestC = this.refineCost(g, o, side, l, nx, far, k, jk, vec);
    if (this.bestC <= 1) return this.bestC;
    let step = limit / 4;
    let evals = 0;
    while (step > limit / 32 && evals < FREE_REFINE_EVALS) {
      let moved = false;
      for (let axis = 0; axis < dims && this.bestC > 1; axis++) for (let d = -1; d <= 1 && this.bestC > 1; d += 2) {
        probe.set(vec);
        probe[axis] += d * step;
        let len = 0;
        for (let c = 0; c < dims; c++) len += probe[c] * probe[c];
        len = Math.sqrt(len);
        if (len > limit) for (let c = 0; c < dims; c++) probe[c] *= limit / len;
        const e = this.refineCost(g, o, side, l, nx, far, k, jk, probe);
        evals++;
        if (e < this.bestC) {
          this.bestC = e;
          vec.set(probe);
          moved = true;
        }
      }
      if (this.bestC <= 1) return this.bestC; // the last probe was the winner: key, cLN and the other slot hold it
      if (!moved) step /= 2;
    }
    return Infinity;
  }

  /**
   * Tries to drop the key frames[i] (with neighbours l, nx and their far neighbours ll, nn, −1 where
   * none) by moving l's and nx's values per group; how[gi] gets bit 1 where l moved, bit 2 where nx
   * moved. True when every group's [l, nx] fits (cLN, cLL and cNN hold the curves); else every value
   * is back as it was.
   */
  private dropKey(l: number, nx: number, ll: number, nn: number, how: Int8Array): boolean {
    const { groups, saved } = this;
    const jl = this.jOf(l), jn = this.jOf(nx);
    let gi = 0;
    for (; gi < this.G; gi++) {
      const g = groups[gi], o = 4 * gi;
      // Past FREE_PRUNE the key stays whatever the exact error: the evaluation stops there.
      const e0 = this.fitErr(g, l, nx, this.cLN, o, FREE_PRUNE);
      if (e0 <= 1) continue;
      if (e0 > FREE_PRUNE) break;
      const jw = this.worstOf(jl, jn);
      this.getKey(g, jl, saved[gi][0]);
      this.getKey(g, jn, saved[gi][1]);
      const first: 0 | 1 = jw - jl <= jn - jw ? 0 : 1;
      let done = false;
      // The key nearer the worst sample moved; then, with its best move kept, the other one too;
      // then the other one alone.
      const farFirst = first === 0 ? ll : nn, farSecond = first === 0 ? nn : ll;
      const second: 0 | 1 = first === 0 ? 1 : 0;
      const e1 = this.trySide(g, o, first, l, nx, farFirst, jw, true);
      if (e1 <= 1) {
        how[gi] = first === 0 ? 1 : 2;
        done = true;
      } else {
        if (e1 < Infinity) {
          this.fitErr(g, l, nx, this.cLN, o);
          if (this.trySide(g, o, second, l, nx, farSecond, this.worstOf(jl, jn), false) <= 1) {
            how[gi] = 3;
            done = true;
            // Both slots as accepted: the first key's other segment with its kept move, and the merged one.
            if (farFirst >= 0) {
              if (first === 0) this.fitErr(g, ll, l, this.cLL, o);
              else this.fitErr(g, nx, nn, this.cNN, o);
            }
            this.fitErr(g, l, nx, this.cLN, o);
          } else this.setKey(g, first === 0 ? jl : jn, saved[gi][first]);
        }
        if (!done && this.trySide(g, o, second, l, nx, farSecond, jw, false) <= 1) {
          how[gi] = second === 0 ? 1 : 2;
          done = true;
        }
      }
      if (!done) {
        this.setKey(g, jl, saved[gi][0]);
        this.setKey(g, jn, saved[gi][1]);
        break;
      }
    }
    if (gi === this.G) return true;
    for (let h = 0; h < gi; h++) if (how[h]) {
      this.setKey(groups[h], jl, saved[h][0]);
      this.setKey(groups[h], jn, saved[h][1]);
    }
    return false;
  }

  /** Runs the pass over frames and curves (changed in place): the values to store per key, or null (see the class). */
  run(frames: number[], curves: (Uint8Array | null)[], keep: Set<number>): Float64Array[] | null {
    const G = this.G;
    let changed = false;
    let i = 1;
    while (i < frames.length - 1) {
      if (keep.has(frames[i])) {
        i++;
        continue;
      }
      const l = frames[i - 1], nx = frames[i + 1];
      const ll = i >= 2 ? frames[i - 2] : -1, nn = i + 2 < frames.length ? frames[i + 2] : -1;
      // Per group, bit 1: l moved, bit 2: nx moved.
      const how = new Int8Array(G);
      if (!this.dropKey(l, nx, ll, nn, how)) {
        i++;
        continue;
      }
      changed = true;
      if (ll >= 0) {
        const c = curves[i - 1]!.slice();
        for (let h = 0; h < G; h++) if (how[h] & 1) c.set(this.cLL.subarray(4 * h, 4 * h + 4), 4 * h);
        curves[i - 1] = c;
      }
      if (nn >= 0) {
        const c = curves[i + 2]!.slice();
        for (let h = 0; h < G; h++) if (how[h] & 2) c.set(this.cNN.subarray(4 * h, 4 * h + 4), 4 * h);
        curves[i + 2] = c;
      }
      curves[i + 1] = this.cLN.slice();
      frames.splice(i, 1);
      curves.splice(i, 1);
    }
    if (!changed || !this.check(frames, curves)) return null;
    return this.values(frames);
  }

  /**
   * The whole result again, as it will be stored: every segment with its curves and key values, and
   * every key within tolerance of its own sample.
   */
  private check(frames: number[], curves: (Uint8Array | null)[]): boolean {
    const v = new Float64Array(4);
    for (let k = 0; k < frames.length; k++) {
      const jb = this.jOf(frames[k]);
      for (let h = 0; h < this.G; h++) {
        const g = this.groups[h];
        this.getKey(g, jb, v);
        if (g.kind === 'curve') {
          for (let c = 0; c < g.comps.length; c++) if (!(Math.abs(v[c] - g.comps[c][jb]) <= g.tol)) return false;
        } else if (!(quatAngle(v[0], v[1], v[2], v[3], g.q[4 * jb], g.q[4 * jb + 1], g.q[4 * jb + 2], g.q[4 * jb + 3]) <= g.tol)) return false;
        if (k > 0 && this.f.evalGroup(g, this.jOf(frames[k - 1]), jb, curves[k]!, 4 * h, 1 / 127, false, 1) > 1) return false;
      }
    }
    return true;
  }

  /** Per key of frames, every channel of every group in group order (WindowFit.values). */
  private values(frames: number[]): Float64Array[] {
    const v = new Float64Array(4);
    const values: Float64Array[] = [];
    let total = 0;
    for (const g of this.groups) total += widthOf(g);
    for (const fr of frames) {
      const out = new Float64Array(total);
      let o = 0;
      for (const g of this.groups) {
        this.getKey(g, this.jOf(fr), v);
        for (let c = 0; c < widthOf(g); c++) out[o++] = v[c];
      }
      values.push(out);
    }
    return values;
  }
}

/** Within this many frames of the window's (or a forced key's) end, a segment to the end is tried first. */
const END_REACH = 64;

/**
 * The farthest frame b ≤ e such that [a, b] fits, with its curves: the segment is doubled from two
 * frames until it strays or reaches e, then the last doubling is halved back to the longest that fits.
 * A part of a segment that fits nearly always fits too, so this is the longest in practice. Where it
 * is not (a curve that only whole grid values reproduce at a tight tolerance), two segments are tried
 * first: the window's hinted one from a (the input's own curve), and one to e within END_REACH frames,
 * so a track that one curve plays ends as that one curve.
 */
function farthestFit(f: Fitter, a: number, e: number): { b: number; curves: Uint8Array } {
  // A still stretch to e: every step of the doubling below would fit, ending with this same segment.
  if (e - a > 1 && f.stillSpan(a, e)) {
    const c = f.fitSegment(a, e);
    if (c) return { b: e, curves: c };
  }
  if (e - a > 2 && e - a <= END_REACH) {
    const c = f.fitSegment(a, e);
    if (c) return { b: e, curves: c };
  }
  let lo = a + 1, hi = -1;
  let curves: Uint8Array | null = null;
  // The hinted segment (the input's own curve) plays exactly, where parts of it may not at a tight tolerance.
  const h = f.w.hint?.(a);
  if (h && h.b > lo && h.b <= e) {
    const c = f.fitSegment(a, h.b);
    if (c) {
      lo = h.b;
      curves = c;
    }
  }
  for (let step = 2; lo < e; step *= 2) {
    const b = Math.min(e, a + step);
    if (b <= lo) continue;
    const c = f.fitSegment(a, b);
    if (!c) {
      hi = b;
      break;
    }
    lo = b;
    curves = c;
  }
  while (hi > 0 && hi - lo > 1) {
    const m = (lo + hi) >> 1;
    const c = f.fitSegment(a, m);
    if (c) {
      lo = m;
      curves = c;
    } else hi = m;
  }
  return { b: lo, curves: curves ?? f.fitSegment(a, lo)! };
}

/** Keys on each side of a one-frame segment that noUnitRepair may choose again, widened up to this. */
const REPAIR_REACH = 3;
/** Tolerance factors a repair settles for where none within the tolerance is found (the least that fits). */
const REPAIR_RELAX: readonly number[] = [1.25, 1.5, 2, 3, 5, 8, 16, 64, 1024];

/**
 * Takes out the one-frame segments the left-to-right pass left (noUnitSegments), in place: for each,
 * the keys between a kept key on each side (one key away, then up to REPAIR_REACH) are chosen again
 * as the fewest keys with every segment two frames or longer that fits (repairSpan). Where none fits
 * within the tolerance, the keys one away on each side take the choice that fits the tightest
 * multiple of it (REPAIR_RELAX): a re-timed corner can need keys on two neighbouring frames (one
 * channel turning at one, another at the next; wavefile_camera ×1.5 at 111 and 112), and a cut there
 * would hold the half frame between them further off than the segment that strays least. A forced
 * stretch of one frame keeps its one-frame segment.
 */
function noUnitRepair(f: Fitter, frames: number[], curves: (Uint8Array | null)[], ends: number[]): void {
  const fixed = new Set(ends);
  const tols = f.w.groups.map((g) => g.tol);
  /** The span around the one-frame segment at i: `reach` keys out on each side, not past a fixed key. */
  const spanAt = (i: number, reach: number): [number, number] => {
    let lo = i, hi = i + 1;
    for (let r = 0; r < reach && !fixed.has(frames[lo]); r++) lo--;
    for (let r = 0; r < reach && !fixed.has(frames[hi]); r++) hi++;
    return [lo, hi];
  };
  for (let i = 0; i + 1 < frames.length; i++) {
    if (frames[i + 1] - frames[i] !== 1) continue;
    if (fixed.has(frames[i]) && fixed.has(frames[i + 1])) continue; // a stretch of one frame
    let lo = 0, hi = 0;
    let span = moveOneKey(f, frames, i, fixed);
    if (span) [lo, hi] = spanAt(i, 1);
    for (let reach = 1; reach <= REPAIR_REACH && !span; reach++) {
      [lo, hi] = spanAt(i, reach);
      span = repairSpan(f, frames[lo], frames[hi]);
    }
    if (!span) {
      [lo, hi] = spanAt(i, 1);
      span = relaxedRepair(f, frames, i, fixed, tols);
    }
    if (!span) continue;
    frames.splice(lo + 1, hi - lo - 1, ...span.frames);
    curves.splice(lo + 1, hi - lo, ...span.curves);
    i = lo + span.frames.length; // on from the span's end (the loop's i++ lands on it)
  }
}

/** Frames on each side of a one-frame segment that a relaxed repair may take up (1, 2, then 3). */
const RELAX_REACH = 3;

/**
 * noUnitRepair's last resort for the one-frame segment [P, Q] = [frames[i], frames[i + 1]] inside the
 * span [A, B] of spanAt(i, 1): the fewest keys over [P − m, Q + m] (m = 1, 2, 3, within the span)
 * whose segments fit the tolerance times each factor of REPAIR_RELAX in turn, the first that fits,
 * then bisected down toward the factor before it (RELAX_BISECT steps);
 * keys at P − m and Q + m (where they are not A and B) with segments to A and B that fit the
 * tolerance itself, so the looser fit stays within a few frames of the corner. Restores the
 * tolerances. Returns the keys strictly inside [A, B] with the curves of each segment, or null.
 */
function relaxedRepair(f: Fitter, frames: number[], i: number, fixed: Set<number>, tols: number[]): { frames: number[]; curves: Uint8Array[] } | null {
  const P = frames[i], Q = frames[i + 1];
  const A = fixed.has(P) ? P : frames[i - 1], B = fixed.has(Q) ? Q : frames[i + 2];
  const groups = f.w.groups;
  // Per m: the inner span's ends and the outer segments' curves (fitted at the tolerance itself).
  const ends: { a: number; b: number; left: Uint8Array | null; right: Uint8Array | null }[] = [];
  for (let m = 1; m <= RELAX_REACH; m++) {
    let a = Math.max(A, P - m), b = Math.min(B, Q + m);
    if (a - A === 1) a = A;
    if (B - b === 1) b = B;
    const left = a > A ? f.fitSegment(A, a) : null, right = b < B ? f.fitSegment(b, B) : null;
    if ((a > A && !left) || (b < B && !right)) continue;
    ends.push({ a, b, left, right });
  }
  const tryFactor = (k: number): { frames: number[]; curves: Uint8Array[] } | null => {
    groups.forEach((g, h) => (g.tol = tols[h] * k));
    for (const { a, b, left, right } of ends) {
      const inner = repairSpan(f, a, b);
      if (!inner) continue;
      return {
        frames: [...(a > A ? [a] : []), ...inner.frames, ...(b < B ? [b] : [])],
        curves: [...(left ? [left] : []), ...inner.curves, ...(right ? [right] : [])],
      };
    }
    return null;
  };
  let out: { frames: number[]; curves: Uint8Array[] } | null = null;
  for (let i = 0; i < REPAIR_RELAX.length && !out; i++) {
    out = tryFactor(REPAIR_RELAX[i]);
    if (!out) continue;
    // Between the last factor that did not fit and this one, the least that fits (bisection): the
    // list's steps grow to 8× and more, and a corner settles for the step above what it needs.
    let lo = i > 0 ? REPAIR_RELAX[i - 1] : 1, hi = REPAIR_RELAX[i];
    for (let r = 0; r < RELAX_BISECT && hi - lo > 0.01 * lo; r++) {
      const m = (lo + hi) / 2;
      const o = tryFactor(m);
      if (o) {
        out = o;
        hi = m;
      } else lo = m;
    }
  }
  groups.forEach((g, h) => (g.tol = tols[h]));
  return out;
}

/** Bisection steps of relaxedRepair between two factors of REPAIR_RELAX. */
const RELAX_BISECT = 6;

/** How far noUnitRepair's first try moves one key of a one-frame segment (0: the key goes). */
const REPAIR_MOVE = 4;

/**
 * The first, cheap try of noUnitRepair for the one-frame segment [frames[i], frames[i + 1]]: one of its
 * keys (not fixed) goes, or moves away from the other by up to REPAIR_MOVE frames, where both segments
 * it then ends are two frames or longer and fit. The span is [frames[i − 1], frames[i + 1]] or
 * [frames[i], frames[i + 2]] as spanAt(i, 1) gives it: null when the keys on either side are not both
 * inside it, or nothing fits.
 */
function moveOneKey(f: Fitter, frames: number[], i: number, fixed: Set<number>): { frames: number[]; curves: Uint8Array[] } | null {
  const P = frames[i], Q = frames[i + 1];
  const pIn = !fixed.has(P), qIn = !fixed.has(Q); // inside the span, free to go or move
  const A = pIn ? frames[i - 1] : P, B = qIn ? frames[i + 2] : Q;
  for (let d = 0; d <= REPAIR_MOVE; d++) {
    for (const side of [0, 1]) {
      if (side === 0 ? !pIn : !qIn) continue;
      // The moved key (P earlier or Q later by d; gone when d = 0) and the other one where it is inside.
      const inner: number[] = [];
      if (side === 0) {
        if (d > 0) inner.push(P - d);
        if (qIn) inner.push(Q);
      } else {
        if (pIn) inner.push(P);
        if (d > 0) inner.push(Q + d);
      }
      let prev = A;
      const curves: Uint8Array[] = [];
      for (const y of [...inner, B]) {
        const c = y - prev >= 2 ? f.fitSegment(prev, y) : null;
        if (!c) break;
        curves.push(c);
        prev = y;
      }
      if (curves.length === inner.length + 1) return { frames: inner, curves };
    }
  }
  return null;
}

/**
 * The fewest keys strictly inside [A, B] such that every segment from A to B is two frames or longer
 * and fits, with the curves of each segment (B's last), or null when none is found. Backward over the
 * frames: level[x] is the fewest segments from x to B; a frame x takes the lowest level whose nearest
 * frame b ≥ x + 2 fits [x, b]. A part of a segment that fits nearly always fits, so the nearest frame
 * of a level stands for the level, and a segment [x, b] that strays is not tried again from further
 * back; every segment taken is one that was fitted.
 */
function repairSpan(f: Fitter, A: number, B: number): { frames: number[]; curves: Uint8Array[] } | null {
  if (B - A < 2) return null;
  const n = B - A;
  const level = new Int32Array(n + 1).fill(-1);
  const next = new Int32Array(n + 1);
  const seg: (Uint8Array | null)[] = new Array(n + 1).fill(null);
  level[n] = 0;
  // Per level, its frame nearest x so far (scanning backward) and the frame whose segment last strayed.
  const nearest: number[] = [n];
  const strayed: number[] = [-1];
  for (let x = n - 2; x >= 0; x--) {
    for (let k = 0; k < nearest.length; k++) {
      let b = nearest[k];
      if (b < x + 2) {
        // The nearest of this level is too close: the next one out at the same level.
        b = -1;
        for (let y = x + 2; y <= n; y++) if (level[y] === k) {
          b = y;
          break;
        }
        if (b < 0) continue;
      }
      if (strayed[k] === b) continue;
      const c = f.fitSegment(A + x, A + b);
      if (!c) {
        strayed[k] = b;
        continue;
      }
      level[x] = k + 1;
      next[x] = b;
      seg[x] = c;
      if (nearest.length === k + 1) {
        nearest.push(x);
        strayed.push(-1);
      } else nearest[k + 1] = x;
      break;
    }
  }
  if (level[0] < 0) return null;
  const frames: number[] = [], curves: Uint8Array[] = [];
  for (let x = 0; x < n; x = next[x]) {
    curves.push(seg[x]!);
    if (next[x] < n) frames.push(A + next[x]);
  }
  return { frames, curves };
}

/** Fits a sampled window: key frames and the curves of each segment. Deterministic. */
export function fitWindow(w: SampledWindow, opts: { merge?: boolean } = {}): WindowFit {
  if (w.g1 <= w.g0) return { frames: [w.g0], curves: [null] };
  const f = new Fitter(w);
  const forced = [...new Set((w.forced ?? []).filter((x) => x > w.g0 && x < w.g1))].sort((a, b) => a - b);
  const ends = [w.g0, ...forced, w.g1];
  const frames: number[] = [w.g0];
  const curves: (Uint8Array | null)[] = [null];
  // Left to right, each key as far from the one before as a segment fits.
  f.strong = !!w.freeValues || !!w.search;
  for (let i = 1; i < ends.length; i++) {
    for (let a = ends[i - 1]; a < ends[i]; ) {
      const r = farthestFit(f, a, ends[i]);
      frames.push(r.b);
      curves.push(r.curves);
      a = r.b;
    }
  }
  if (w.noUnitSegments) noUnitRepair(f, frames, curves, ends);
  f.strong = false;
  if (opts.merge !== false && frames.length > 2) {
    const keep = new Set(forced);
    // Merge pass: drop a key when the segment over its neighbours fits.
    const outF: number[] = [frames[0]];
    const outC: (Uint8Array | null)[] = [null];
    for (let i = 1; i < frames.length; i++) {
      const fr = frames[i];
      const last = outF.length - 1;
      if (last > 0 && !keep.has(outF[last])) {
        const c = f.fitSegment(outF[last - 1], fr);
        if (c) {
          outF[last] = fr;
          outC[last] = c;
          continue;
        }
      }
      outF.push(fr);
      outC.push(curves[i]);
    }
    if (w.freeValues && outF.length > 2) {
      const ff = outF.slice(), fc = outC.slice();
      const values = FreeValuePass.over(w, f.unitQ)?.run(ff, fc, keep) ?? null;
      if (values) return { frames: ff, curves: fc, values };
    }
    return { frames: outF, curves: outC };
  }
  return { frames, curves };
}
