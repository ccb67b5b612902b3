// The timeline's view maths: zoom anchors, following the playhead, fitting a range, the first zoom.
// Expected values are worked by hand from the definitions (frame at x = frameStart + x / pxPerFrame).
import { describe, expect, it } from 'vitest';
import {
  MAX_PX_PER_FRAME, MIN_PX_PER_FRAME, fitRange, followFrame, initialView, jumpFrame, medianKeyGap, minFrameStart, xOfFrame, zoomAtFrame, zoomAtX,
} from '../../../renderer/src/editor/timeline-math';

const view = (frameStart: number, pxPerFrame: number, width = 1000) => ({ frameStart, pxPerFrame, width });

describe('zoom anchors', () => {
  it('the wheel keeps the frame under the pointer at the same x', () => {
    // Frame under x=300 at 2 px/frame from 100: 250. Doubled: 4 px/frame, so 250 − 300/4 = 175.
    expect(zoomAtX(view(100, 2), 300, 2)).toEqual({ frameStart: 175, pxPerFrame: 4 });
    // Halved: 1 px/frame, 250 − 300 = −50.
    expect(zoomAtX(view(100, 2), 300, 0.5)).toEqual({ frameStart: -50, pxPerFrame: 1 });
  });

  it('the buttons keep the playhead at its x, ten steps in a row', () => {
    let v = view(2900, 0.5, 1200);
    const x0 = xOfFrame(v, 2962); // (2962 − 2900) · 0.5 = 31
    expect(x0).toBe(31);
    for (let i = 0; i < 10; i++) {
      v = { ...v, ...zoomAtFrame(v, 2962, 1.4) };
      expect(xOfFrame(v, 2962)).toBeCloseTo(31, 9);
    }
    expect(v.pxPerFrame).toBeCloseTo(0.5 * 1.4 ** 10, 9);
  });

  it('a playhead out of sight is brought to the middle', () => {
    // Playhead 4461, view 2970 at 1 px/frame over 1000 px shows 2970–3970: out. After ×2 it is at 500.
    const z = zoomAtFrame(view(2970, 1), 4461, 2);
    expect(z.pxPerFrame).toBe(2);
    expect(z.frameStart).toBe(4461 - 250);
  });

  it('clamps the zoom and still holds the anchor', () => {
    const z = zoomAtX(view(0, 30), 200, 10);
    expect(z.pxPerFrame).toBe(MAX_PX_PER_FRAME);
    expect(z.frameStart + 200 / z.pxPerFrame).toBeCloseTo(200 / 30, 12);
    expect(zoomAtX(view(0, 0.03), 0, 0.1).pxPerFrame).toBe(MIN_PX_PER_FRAME);
  });
});

describe('following the playhead', () => {
  // 1000 px at 2 px/frame: 500 frames across; margin 24 px = 12 frames while playing.
  const v = view(1000, 2);
  it('does not move while the playhead is inside', () => {
    expect(followFrame(v, 1200, 'page', true)).toBe(1000);
    expect(followFrame(v, 1499, 'page', false)).toBe(1000);
  });
  it('pages forward so the playhead is a margin from the left', () => {
    expect(followFrame(v, 1490, 'page', true)).toBe(1490 - 12);
    // Paused (a jump or scrub): only outside the view moves it, to the same margin.
    expect(followFrame(v, 1490, 'page', false)).toBe(1000);
    expect(followFrame(v, 4461, 'page', false)).toBe(4461 - 12);
  });
  it('pages backward so the playhead is a margin from the right, never before frame 0', () => {
    expect(followFrame(v, 900, 'page', false)).toBe(900 - 500 + 12);
    expect(followFrame(v, 900, 'page', true)).toBe(900 - 500 + 12);
    expect(followFrame(v, 1005, 'page', false)).toBe(1000);
    // A loop that wraps to frame 0: the view starts at the left pad.
    expect(followFrame(v, 0, 'page', true)).toBe(minFrameStart(2));
  });
  it('smooth mode keeps the playhead in the middle once it passes it', () => {
    expect(followFrame(v, 1200, 'smooth', true)).toBe(1000);
    expect(followFrame(v, 1251, 'smooth', true)).toBe(1001);
    expect(followFrame(v, 3000, 'smooth', true)).toBe(2750);
    // Paused, smooth behaves as page (a click near the middle does not scroll).
    expect(followFrame(v, 1300, 'smooth', false)).toBe(1000);
  });
  it('every frame of a played span stays visible, paging and smooth', () => {
    for (const mode of ['page', 'smooth'] as const) {
      let s = { ...v, frameStart: minFrameStart(2) };
      for (let f = 0; f < 6000; f += 3.7) {
        s = { ...s, frameStart: followFrame(s, f, mode, true) };
        expect(f).toBeGreaterThanOrEqual(s.frameStart);
        expect(f).toBeLessThanOrEqual(s.frameStart + 500);
      }
    }
  });
});

describe('fitting', () => {
  it('shows a range with 20 px each side', () => {
    // 1000 px − 40 = 960 px for 100..580 (480 frames): 2 px/frame, centred on 340.
    const r = fitRange(1000, 100, 580);
    expect(r.pxPerFrame).toBe(2);
    expect(r.frameStart).toBe(340 - 250);
    expect(xOfFrame({ ...r, width: 1000 }, 100)).toBe(20);
    expect(xOfFrame({ ...r, width: 1000 }, 580)).toBe(980);
  });
  it('a single key shows 30 frames around it', () => {
    const r = fitRange(1000, 500, 500);
    expect(r.pxPerFrame).toBe(32);
    expect(r.frameStart + 500 / 32).toBe(500);
  });
  it('the whole motion starts at the left pad', () => {
    const r = fitRange(1240, 0, 4800);
    expect(r.pxPerFrame).toBe(0.25);
    expect(r.frameStart).toBeCloseTo(minFrameStart(0.25), 9);
  });
});

describe('the first view', () => {
  it('median gap between neighbouring keys of a track', () => {
    // Track 0: 0, 2, 4, 10 (gaps 2, 2, 6); track 1: 5, 35 (gap 30). Sorted gaps 2 2 6 30: median (lower) 2.
    const t = { frames: Uint32Array.from([0, 2, 4, 10, 5, 35]), start: Uint32Array.from([0, 4, 6]) };
    expect(medianKeyGap([t])).toBe(2);
    // A second track set with gaps 30, 30, 30 makes it 2 2 6 30 30 30 30: median 30.
    const u = { frames: Uint32Array.from([0, 30, 60, 90]), start: [0, 4] };
    expect(medianKeyGap([t, u])).toBe(30);
    expect(medianKeyGap([{ frames: [7], start: [0, 1] }])).toBe(0);
  });
  it('zooms in until the median gap is 12 px, from frame 0', () => {
    // 4800 frames over 1240 px fit at 0.25 px/frame: keys 3 frames apart are 0.75 px apart. 12 / 3 = 4 px/frame.
    expect(initialView(1240, 4800, 3)).toEqual({ frameStart: -5, pxPerFrame: 4 });
    // A key every frame: 12 px/frame (under the 16 px/frame cap).
    expect(initialView(1240, 4800, 1).pxPerFrame).toBe(12);
  });
  it('keeps the whole motion when it is already readable', () => {
    // 60 frames over 1000 px: 16 px/frame fit; a 10-frame gap is 160 px.
    const v = initialView(1000, 60, 10);
    expect(v.pxPerFrame).toBeCloseTo(960 / 60, 12);
    expect(v.frameStart).toBeCloseTo(-20 / v.pxPerFrame, 12);
    expect(initialView(1000, 4800, 0).pxPerFrame).toBeCloseTo(960 / 4800, 12);
  });
});

describe('jumpFrame (a frame typed in the frame field)', () => {
  // 500 frames across at 2 px/frame, from frame 1000; a margin of 24 px = 12 frames.
  const v = view(1000, 2);
  it('a frame well inside the view leaves it', () => {
    expect(jumpFrame(v, 1012)).toBe(1000);
    expect(jumpFrame(v, 1488)).toBe(1000);
  });
  it('a frame after the view, before it, or at an edge lands at a third of the width (not at the far edge)', () => {
    expect(jumpFrame(v, 3000)).toBeCloseTo(3000 - 500 / 3);
    expect(jumpFrame(v, 400)).toBeCloseTo(400 - 500 / 3);
    expect(jumpFrame(v, 1495)).toBeCloseTo(1495 - 500 / 3);
    expect(jumpFrame(v, 1003)).toBeCloseTo(1003 - 500 / 3);
  });
  it('never before the first frame’s pad', () => {
    expect(jumpFrame(v, 50)).toBe(minFrameStart(2));
  });
});
