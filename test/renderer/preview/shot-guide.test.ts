// Where the output frame lies in the free view (renderer/src/preview/shot-guide.ts): Register view keeps the
// orbit camera's vertical view angle, so the shot spans the pane's height and height × aspect of its width.
import { describe, expect, it } from 'vitest';
import { freeViewShotRect } from '../../../renderer/src/preview/shot-guide';

describe('freeViewShotRect', () => {
  it('a wide pane: the 16:9 shot centred, full height, bars left and right', () => {
    const r = freeViewShotRect(1600, 600, 16 / 9);
    expect(r.width).toBeCloseTo((600 * 16) / 9, 9);
    expect(r.x).toBeCloseTo((1600 - (600 * 16) / 9) / 2, 9);
    expect([r.y, r.height, r.clipped]).toEqual([0, 600, false]);
  });
  it('a tall pane (the side preview): the shot is wider than the view, its side borders out of it', () => {
    const r = freeViewShotRect(474, 745, 16 / 9);
    expect(r.height).toBe(745);
    expect(r.width).toBeCloseTo(745 * 16 / 9, 9);
    expect(r.x).toBeLessThan(0);
    expect(r.clipped).toBe(true);
  });
  it('a 4:3 output in a 16:9 pane', () => {
    const r = freeViewShotRect(1280, 720, 4 / 3);
    expect([r.x, r.width, r.clipped]).toEqual([160, 960, false]);
  });
});
