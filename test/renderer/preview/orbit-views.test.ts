// The preview's side views (orbit.ts sideView, MMD's 視点 panel): each turns the view about its target at the
// distance it has; the start view is where the preview opens. Expected eyes are worked out by hand from the
// target and the distance (a 3-4-12 box: distance 13).
import { describe, expect, it } from 'vitest';
import { sideView, START_EYE, START_TARGET } from '../../../renderer/src/preview/orbit';

const target = [1, 10, -2] as const;
// 3, 4, 12 from the target: 13 away.
const eye = [1 + 3, 10 + 4, -2 + 12] as const;

describe('sideView', () => {
  it('front: the eye on +z of the target (the model faces +z), the distance kept', () => {
    const v = sideView('front', eye, target);
    expect(v.target).toEqual([1, 10, -2]);
    expect(v.eye[0]).toBeCloseTo(1, 9);
    expect(v.eye[1]).toBeCloseTo(10, 9);
    expect(v.eye[2]).toBeCloseTo(11, 9);
  });
  it('back, left and right', () => {
    const b = sideView('back', eye, target).eye;
    expect([b[0], b[1], b[2]].map((x) => Math.round(x * 1e9) / 1e9)).toEqual([1, 10, -15]);
    // Left of the front view: the eye on −x.
    const l = sideView('left', eye, target).eye;
    expect(l.map((x) => Math.round(x * 1e9) / 1e9)).toEqual([-12, 10, -2]);
    const r = sideView('right', eye, target).eye;
    expect(r.map((x) => Math.round(x * 1e9) / 1e9)).toEqual([14, 10, -2]);
  });
  it('top: from above, 13 away, the front a hair toward +z (an orbit straight down has no up)', () => {
    const v = sideView('top', eye, target).eye;
    expect(v[0]).toBeCloseTo(1, 9);
    expect(v[1]).toBeCloseTo(23, 6);
    expect(v[2]).toBeGreaterThan(-2);
    expect(v[2]).toBeLessThan(-2 + 0.01);
  });
  it('start: the opening view whatever the view now (MMD’s default, a little further and higher)', () => {
    expect(START_EYE).toEqual([0, 16, 52]);
    expect(START_TARGET).toEqual([0, 10, 0]);
    expect(sideView('start', eye, target)).toEqual({ eye: [0, 16, 52], target: [0, 10, 0] });
  });
  it('an eye on the target (no distance) takes the start view’s distance', () => {
    const v = sideView('front', target, target).eye;
    // |(0, 6, 52)| = √2740.
    expect(v[2] - target[2]).toBeCloseTo(Math.sqrt(2740), 9);
  });
});
