import { describe, expect, it } from 'vitest';
import { BEAT_COLOR, drawBeatLines } from '../../../renderer/src/editor/beat-draw';

function fakeCtx() {
  const rects: number[][] = [];
  return { rects, ctx: { fillStyle: '' as string | CanvasGradient | CanvasPattern, fillRect: (x: number, y: number, w: number, h: number) => void rects.push([x, y, w, h]) } };
}

describe('beat marker lines', () => {
  it('one full-height line per beat in view, at the timeline column of its frame', () => {
    const { rects, ctx } = fakeCtx();
    // 2 device px per frame from frame 20, 100 px wide: frames 20 ≤ f < 70 are in view.
    const n = drawBeatLines(ctx, [5, 19.9, 20, 33.25, 69.9, 70, 90], 20, 2, 100, 44, 1);
    expect(n).toBe(3);
    expect(rects).toEqual([
      [0, 0, 1, 44],
      [26, 0, 1, 44],
      [99, 0, 1, 44],
    ]);
    expect(ctx.fillStyle).toBe(BEAT_COLOR);
  });

  it('lines are a device pixel thick at any pixel ratio; nothing for no beats', () => {
    const { rects, ctx } = fakeCtx();
    drawBeatLines(ctx, [10], 0, 4, 200, 88, 2);
    expect(rects).toEqual([[40, 0, 2, 88]]);
    expect(drawBeatLines(ctx, [], 0, 4, 200, 88, 2)).toBe(0);
  });
});
