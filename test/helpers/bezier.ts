/**
 * MMD's interpolation curve worked out independently of shared/vmd/bezier.ts, for tests: x(s) = t solved
 * by 200 bisection steps in plain double arithmetic, then y(s). Control points in 0..1.
 */
export function bezierReference(x1: number, y1: number, x2: number, y2: number, t: number): number {
  const b = (p1: number, p2: number, s: number) => 3 * (1 - s) ** 2 * s * p1 + 3 * (1 - s) * s * s * p2 + s ** 3;
  let lo = 0, hi = 1;
  for (let i = 0; i < 200; i++) {
    const m = (lo + hi) / 2;
    if (b(x1, x2, m) < t) lo = m;
    else hi = m;
  }
  return b(y1, y2, (lo + hi) / 2);
}
