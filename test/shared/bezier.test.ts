import { describe, expect, it } from 'vitest';
import { bezierProgress, quantiseCurve, splitCurveAfter, curveProgress } from '../../shared/vmd';

import { bezierReference as reference } from '../helpers/bezier';

describe('Bézier progress', () => {
  it('is exact on linear curves and at the ends', () => {
    expect(bezierProgress(20 / 127, 20 / 127, 107 / 127, 107 / 127, 0.37)).toBe(0.37);
    expect(bezierProgress(0.9, 0.1, 0.1, 0.9, 0)).toBe(0);
    expect(bezierProgress(0.9, 0.1, 0.1, 0.9, 1)).toBe(1);
  });

  it('solves x(s) = t to better than 1e-7 on hard curves (steep, flat, end-clamped)', () => {
    let worst = 0;
    const pts = [0, 1, 5, 20, 64, 107, 120, 126, 127];
    for (const x1 of pts) for (const y1 of pts) for (const x2 of pts) for (const y2 of [0, 64, 127]) {
      for (let i = 1; i < 50; i++) {
        const t = i / 50 + 0.0013;
        if (t >= 1) continue;
        const a = bezierProgress(x1 / 127, y1 / 127, x2 / 127, y2 / 127, t);
        const b = reference(x1 / 127, y1 / 127, x2 / 127, y2 / 127, t);
        worst = Math.max(worst, Math.abs(a - b));
      }
    }
    expect(worst).toBeLessThan(1e-7);
  });

  it('splitting at t and re-quantising keeps the later part of the motion within 1/127-grid error', () => {
    const c = [100, 10, 30, 120] as const;
    const t = 0.3;
    const part = quantiseCurve(splitCurveAfter(c, t));
    const y0 = curveProgress(c, t);
    let worst = 0;
    for (let i = 0; i <= 20; i++) {
      const u = i / 20;
      const original = (curveProgress(c, t + (1 - t) * u) - y0) / (1 - y0);
      worst = Math.max(worst, Math.abs(curveProgress(part, u) - original));
    }
    expect(worst).toBeLessThan(0.03);
    // Unquantised, the split is exact.
    const exact = splitCurveAfter(c, t);
    for (let i = 1; i < 10; i++) {
      const u = i / 10;
      const original = (curveProgress(c, t + (1 - t) * u) - y0) / (1 - y0);
      expect(bezierProgress(exact[0], exact[1], exact[2], exact[3], u)).toBeCloseTo(original, 9);
    }
  });
});
