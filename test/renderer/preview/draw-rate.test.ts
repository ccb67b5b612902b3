// The preview says when it draws well below the motion's 30 frames a second while playing ("Preview 5 fps —
// frames skipped"), and takes it back when it keeps up or stops. A fake clock: the times are given.
import { describe, expect, it } from 'vitest';
import { DrawRate } from '../../../renderer/src/preview/draw-rate';

/** Draws every `stepMs` from `from` to `to` (ms), the last answer returned. */
function drawEvery(r: DrawRate, from: number, to: number, stepMs: number): number | null {
  let last: number | null = null;
  for (let t = from; t <= to; t += stepMs) last = r.draw(t);
  return last;
}

describe('DrawRate', () => {
  it('5 draws a second (200 ms apart): nothing in the first second, then 5', () => {
    const r = new DrawRate();
    expect(r.draw(0)).toBeNull();
    expect(r.draw(200)).toBeNull();
    expect(r.draw(800)).toBeNull(); // under a second of playing: no whole second to count
    expect(drawEvery(r, 1000, 3000, 200)).toBe(5); // (2000, 3000]: 2200 … 3000
  });

  it('60 draws a second: never said', () => {
    const r = new DrawRate();
    const seen = new Set<number | null>();
    for (let i = 0; i <= 300; i++) seen.add(r.draw((i * 1000) / 60));
    expect([...seen]).toEqual([null]);
  });

  it('said below 20, taken back only at 24 or more (no flicker about the threshold)', () => {
    const r = new DrawRate();
    expect(drawEvery(r, 0, 2000, 100)).toBe(10); // 10 a second
    expect(drawEvery(r, 2050, 4000, 50)).toBe(20); // 20 a second: still said (not yet 24)
    expect(drawEvery(r, 4040, 6000, 40)).toBeNull(); // 25 a second: keeps up
    expect(drawEvery(r, 6050, 8000, 50)).toBeNull(); // 20 a second again: not said until below 20
    expect(drawEvery(r, 8100, 10000, 100)).toBe(10);
  });

  it('reset (playing stopped or started again): nothing until a whole second is drawn again', () => {
    const r = new DrawRate();
    expect(drawEvery(r, 0, 2000, 250)).toBe(4);
    r.reset();
    expect(r.draw(5000)).toBeNull();
    expect(r.draw(5500)).toBeNull();
    expect(r.draw(6000)).toBe(2); // (5000, 6000]: 5500, 6000
  });
});
