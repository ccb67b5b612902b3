// Adaptive playback resolution: steps down only on slow frames, judges half a second at a time (a short
// hitch does not count), keeps a step only when it made frames faster, never goes back up while playing
// otherwise, and resets on pause.
import { describe, expect, it } from 'vitest';
import { AdaptiveScale } from '../../../renderer/src/preview/adaptive-scale';

/** Plays n frames whose interval depends on the current scale; returns [frame index, new scale] per change. */
function play(a: AdaptiveScale, n: number, cost: (scale: number) => number): [number, number][] {
  const changes: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const s = a.frame(cost(a.scale));
    if (s !== null) changes.push([i, s]);
  }
  return changes;
}

describe('AdaptiveScale', () => {
  it('keeps full resolution at 60 fps, even with a hitch every 10 frames', () => {
    const a = new AdaptiveScale();
    let i = 0;
    expect(play(a, 300, () => (i++ % 10 === 0 ? 50 : 16.7))).toEqual([]);
    expect(a.scale).toBe(1);
  });

  it('a third of a second of slow frames inside otherwise fast playback changes nothing', () => {
    const a = new AdaptiveScale();
    let i = 0;
    expect(play(a, 300, () => (i++ >= 10 && i <= 14 ? 80 : 16.7))).toEqual([]);
  });

  it('pixel-bound and a little slow (30 fps): steps 1 → 0.75 → 0.5, each step judged on half a second', () => {
    const a = new AdaptiveScale();
    // Interval shrinks with the pixel count (scale²): 33 ms at full size, 22 at 0.75, 14 at 0.5.
    const changes = play(a, 200, (s) => 8 + 25 * s * s);
    // 16 frames of 33 ms make the first half second (15 × 33 = 495 ms is not yet enough).
    expect(changes).toEqual([[15, 0.75], [38, 0.5]]);
    expect(a.scale).toBe(0.5);
  });

  it('very slow: straight to the lowest scale after half a second', () => {
    const a = new AdaptiveScale();
    expect(play(a, 4, (s) => 30 + 100 * s * s)).toEqual([[3, 0.5]]);
  });

  it('vertex-bound (fewer pixels do not help): undoes the step, then leaves it until the next play', () => {
    const a = new AdaptiveScale();
    expect(play(a, 100, () => 60)).toEqual([[8, 0.5], [17, 1]]);
    expect(a.scale).toBe(1);
    // Paused and played again: it may try once more.
    expect(a.reset()).toBeNull();
    expect(play(a, 9, () => 60)).toEqual([[8, 0.5]]);
  });

  it('reset (pause) restores full resolution once', () => {
    const a = new AdaptiveScale();
    play(a, 100, (s) => 8 + 25 * s * s);
    expect(a.scale).toBe(0.5);
    expect(a.reset()).toBe(1);
    expect(a.reset()).toBeNull();
    expect(a.scale).toBe(1);
  });

  it('does nothing when turned off', () => {
    const a = new AdaptiveScale();
    a.enabled = false;
    expect(play(a, 100, () => 200)).toEqual([]);
  });
});
