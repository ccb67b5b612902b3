// The fitter's shortcuts (issue 31: the CLI's reduce of a baked dance at 100k keys per CPU-second): each
// is checked against what it stands for, worked out here independently.
// - Arc.nearest with `within`: -1 only for samples within that angle of the arc (its nearest point found
//   here by a search along the arc), and for every sample well within it whose foot lies on the arc;
// - refineCurve with a target: stops early only where the cost cannot come near the target, and gives
//   the same curve where it can;
// - solveBezierX from another start: the same x(s) = t to 1e-13, and t's own start for a start outside 0..1.
import { describe, expect, it } from 'vitest';
import { Arc } from '../../../shared/fit/track-fit';
import { refineCurve } from '../../../shared/fit/curve-fit';
import { solveBezierX } from '../../../shared/vmd/bezier';
import { rng } from '../../helpers/rng';
import { bezierReference } from '../../helpers/bezier';

type Q = [number, number, number, number];
const dot = (a: Q, b: Q) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
const unit = (a: Q): Q => {
  const n = Math.sqrt(dot(a, a));
  return [a[0] / n, a[1] / n, a[2] / n, a[3] / n];
};
/** Angle between unit quaternions as 4-vectors, either sign: 2·atan2(|a − b|, |a + b|), b on a's side. */
const angle = (a: Q, b: Q) => {
  const g = dot(a, b) < 0 ? -1 : 1;
  let d = 0, s = 0;
  for (let c = 0; c < 4; c++) {
    d += (a[c] - g * b[c]) ** 2;
    s += (a[c] + g * b[c]) ** 2;
  }
  return 2 * Math.atan2(Math.sqrt(d), Math.sqrt(s));
};
/** The point of the great circle from a to b (b on a's side) at fraction k of the angle between them. */
const along = (a: Q, b: Q, k: number): Q => {
  const th = angle(a, b);
  const sa = Math.sin((1 - k) * th) / Math.sin(th), sb = Math.sin(k * th) / Math.sin(th);
  return unit([sa * a[0] + sb * b[0], sa * a[1] + sb * b[1], sa * a[2] + sb * b[2], sa * a[3] + sb * b[3]]);
};

describe('Arc.nearest with a bound (preparePoints in a checking fitter)', () => {
  it('says -1 only for samples within the angle of the arc (found by searching the arc), and for all well within it', () => {
    const r = rng(31);
    const gauss = () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
    let skipped = 0, wellWithin = 0, skippedWellWithin = 0;
    for (let trial = 0; trial < 40; trial++) {
      const a = unit([gauss(), gauss(), gauss(), gauss()]);
      let b = unit([a[0] + 0.8 * gauss(), a[1] + 0.8 * gauss(), a[2] + 0.8 * gauss(), a[3] + 0.8 * gauss()]);
      if (dot(a, b) < 0) b = [-b[0], -b[1], -b[2], -b[3]];
      const arc = new Arc();
      arc.set(...a, ...b);
      // The bound: 0.002–0.05 rad between unit quaternions (a rotation of 0.23°–5.7°).
      const limit = 0.002 + 0.048 * r();
      const within = Math.cos(limit) ** 2;
      const n = 200;
      const q = new Float64Array(4 * n);
      for (let j = 0; j < n; j++) {
        // Near the arc (a little past its ends too), off it by up to twice the bound, at any length and sign.
        const p = along(a, b, -0.1 + 1.2 * r());
        const off = 2 * limit * r();
        const d: Q = [gauss(), gauss(), gauss(), gauss()];
        const s: Q = unit([p[0] + off * d[0], p[1] + off * d[1], p[2] + off * d[2], p[3] + off * d[3]]);
        const len = (0.5 + r()) * (r() < 0.5 ? -1 : 1);
        for (let c = 0; c < 4; c++) q[4 * j + c] = s[c] * len;
      }
      for (let j = 0; j < n; j++) {
        const exact = arc.nearest(q, j);
        const progress = arc.progress;
        const fast = arc.nearest(q, j, undefined, within);
        expect(arc.progress).toBe(progress);
        const s = unit([q[4 * j], q[4 * j + 1], q[4 * j + 2], q[4 * j + 3]]);
        // The arc's nearest point to the sample: the angle to the arc's points falls, then rises (the
        // samples lie near it), so a ternary search over the arc's fraction finds it.
        let lo = 0, hi = 1;
        for (let k = 0; k < 200; k++) {
          const m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
          if (angle(s, along(a, b, m1)) <= angle(s, along(a, b, m2))) hi = m2;
          else lo = m1;
        }
        const best = angle(s, along(a, b, (lo + hi) / 2));
        if (fast === -1) {
          skipped++;
          expect(best).toBeLessThanOrEqual(limit * (1 + 1e-6));
        } else expect(fast).toBe(exact);
        // nearest gives half that angle.
        expect(Math.abs(2 * exact - best)).toBeLessThan(1e-9);
        if (best < 0.99 * limit && progress > 0 && progress < 1) {
          wellWithin++;
          if (fast === -1) skippedWellWithin++;
        }
      }
    }
    expect(skipped).toBeGreaterThan(1000);
    expect(skippedWellWithin).toBe(wellWithin);
  });
});

describe('refineCurve with a target (fitGroup: the cost a curve within tolerance needs)', () => {
  /** Points of progress against time: m samples of `progress`, each weighing a span of 100 tolerances. */
  function points(m: number, progress: (t: number) => number) {
    const ts = new Float64Array(m), ps = new Float64Array(m), ws = new Float64Array(m);
    for (let i = 0; i < m; i++) {
      ts[i] = (i + 1) / (m + 1);
      ps[i] = progress(ts[i]);
      ws[i] = 100 * 100; // a span of 100 tolerances
    }
    return { ts, ps, ws };
  }
  const target = (m: number) => m * (1 + 100 / 127) ** 2;

  it('where the points lie on a curve, the same curve in as many steps as without a target', () => {
    for (const [x1, y1, x2, y2] of [[0.3, 0.1, 0.7, 0.9], [0.05, 0.6, 0.4, 1], [0.8, 0.2, 0.9, 0.5]]) {
      const m = 24;
      const { ts, ps, ws } = points(m, (t) => bezierReference(x1, y1, x2, y2, t));
      const start = [x1 + 0.1, y1 - 0.05, x2 - 0.1, y2 + 0.05].map((v) => Math.min(1, Math.max(0, v)));
      const free = Float64Array.from(start), aimed = Float64Array.from(start);
      const n1 = refineCurve(ts, ps, ws, m, free);
      const n2 = refineCurve(ts, ps, ws, m, aimed, 6, target(m));
      expect(n2).toBe(n1);
      expect([...aimed]).toEqual([...free]);
      for (let i = 0; i < 4; i++) expect(Math.abs(aimed[i] - [x1, y1, x2, y2][i])).toBeLessThan(0.02);
    }
  });

  it('where no curve comes near (a step halfway), it stops after a step or two', () => {
    const m = 30;
    const { ts, ps, ws } = points(m, (t) => (t < 0.5 ? 0.02 * t : 0.98 + 0.02 * t));
    const free = Float64Array.from([0.3, 0.3, 0.7, 0.7]), aimed = Float64Array.from(free);
    const n1 = refineCurve(ts, ps, ws, m, free);
    const n2 = refineCurve(ts, ps, ws, m, aimed, 6, target(m));
    expect(n1).toBeGreaterThan(2);
    expect(n2).toBeLessThanOrEqual(2);
    // What it stops at is still on the way down: no worse than where it started.
    let cost = 0;
    for (let i = 0; i < m; i++) cost += ws[i] * (bezierReference(aimed[0], aimed[1], aimed[2], aimed[3], ts[i]) - ps[i]) ** 2;
    expect(cost).toBeGreaterThan(target(m));
  });
});

describe('solveBezierX from another start (the refinement starts each point where it was)', () => {
  it('solves x(s) = t to 1e-13 from any start in 0..1, and starts from t for one outside', () => {
    const r = rng(7);
    for (let k = 0; k < 2000; k++) {
      const x1 = r(), x2 = r(), t = 0.001 + 0.998 * r(), from = r();
      const s = solveBezierX(x1, x2, t, from);
      const x = 3 * (1 - s) * (1 - s) * s * x1 + 3 * (1 - s) * s * s * x2 + s * s * s;
      expect(Math.abs(x - t)).toBeLessThan(1e-12);
      for (const bad of [NaN, -0.5, 0, 1, 7]) expect(solveBezierX(x1, x2, t, bad)).toBe(solveBezierX(x1, x2, t));
    }
  });
});
