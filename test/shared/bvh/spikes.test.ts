// Capture glitches (shared/bvh/spikes.ts) on a BVH written here: a chest that turns smoothly about Z and, at
// frames 30–32, flips 170° about X and back (the kind of flip CMU 131_01's RThumb has). Expected values come
// from how the file is built: the flip frames are off the smooth turn by exactly 170°, and the mended frames
// are the smooth turn itself (Z = 0.5° per frame, X = 0). A fast real turn (60° in one frame, kept) and a
// fast swing (±10° per frame, back and forth) are not glitches.
import { describe, expect, it } from 'vitest';
import { readBvh, type BvhMotion } from '../../../shared/bvh/bvh-reader';
import { findSpikes, removeSpikes } from '../../../shared/bvh/spikes';

/** Hips (6 channels, still) and Chest (Z X Y rotation channels per `chest(f)`), 120 fps. */
function capture(frames: number, chest: (f: number) => [number, number, number]): BvhMotion {
  const rows: string[] = [];
  for (let f = 0; f < frames; f++) rows.push(['0 10 0 0 0 0', ...chest(f)].join(' '));
  const text = `HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Chest
  {
    OFFSET 0 5 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    End Site
    {
      OFFSET 0 5 0
    }
  }
}
MOTION
Frames: ${frames}
Frame Time: 0.0083333
${rows.join('\n')}
`;
  const r = readBvh(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const CHEST = 1;

describe('capture glitches', () => {
  const flip = capture(60, (f) => [0.5 * f, f >= 30 && f <= 32 ? 170 : 0, 0]);

  it('finds a flip out and back: its frames and how far it was off', () => {
    const s = findSpikes(flip, [0, CHEST], 120);
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({ joint: CHEST, from: 30, to: 32 });
    // Z(θ)·X(170°) against Z(θ) at the same θ (the slerp of the frames either side is the smooth turn itself).
    expect(s[0].deg).toBeCloseTo(170, 4);
  });

  it('replaces it by the interpolation of the frames either side, other frames and joints untouched', () => {
    const { motion, fixed } = removeSpikes(flip, findSpikes(flip, [CHEST], 120));
    expect(fixed).toHaveLength(1);
    const J = motion.joints[CHEST];
    for (let f = 0; f < 60; f++) {
      const o = f * motion.channelCount + J.channelStart;
      expect(motion.values[o], `Z at ${f}`).toBeCloseTo(0.5 * f, 3);
      expect(motion.values[o + 1], `X at ${f}`).toBeCloseTo(0, 3);
      expect(motion.values[o + 2], `Y at ${f}`).toBeCloseTo(0, 3);
    }
    // The hips' channels are as they were.
    for (let f = 0; f < 60; f++) for (let c = 0; c < 6; c++) expect(motion.values[f * motion.channelCount + c]).toBe(flip.values[f * flip.channelCount + c]);
    expect(findSpikes(motion, [CHEST], 120)).toEqual([]);
  });

  it('a fast real turn (60° in one frame, then held) and a fast swing are not glitches', () => {
    const turn = capture(60, (f) => [f < 30 ? 0 : 60, 0, 0]);
    expect(findSpikes(turn, [CHEST], 120)).toEqual([]);
    const swing = capture(60, (f) => [10 * Math.abs((f % 12) - 6), 0, 0]);
    expect(findSpikes(swing, [CHEST], 120)).toEqual([]);
    // Out and back over longer than 0.1 s (20 frames at 120 fps): a held pose, not a glitch.
    const held = capture(80, (f) => [0, f >= 30 && f < 50 ? 170 : 0, 0]);
    expect(findSpikes(held, [CHEST], 120)).toEqual([]);
  });
});
