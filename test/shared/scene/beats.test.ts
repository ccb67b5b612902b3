import { describe, expect, it } from 'vitest';
import { beatFrames, nearestBeat, snapToBeat } from '../../../shared/scene/beats';

describe('beat grid → motion frames', () => {
  it('120 BPM is a beat every 15 frames from the first beat, over the song', () => {
    // First beat at 1/3 s (frame 10); a 3 s song holds beats at 1/3, 5/6, … 17/6 s: six of them.
    const f = beatFrames({ bpm: 120, firstBeat: 1 / 3 }, 3, 0);
    expect([...f].map((x) => Math.round(x * 1e9) / 1e9)).toEqual([10, 25, 40, 55, 70, 85]);
  });

  it('the offset moves every marker by it (an intro of 6 frames: each beat 6 frames earlier)', () => {
    const f = beatFrames({ bpm: 100, firstBeat: 0.2 }, 10, 6);
    const g = beatFrames({ bpm: 100, firstBeat: 0.2 }, 10, 0);
    expect(f.length).toBe(g.length);
    for (let i = 0; i < f.length; i++) expect(f[i]).toBeCloseTo(g[i] - 6, 9);
    expect(g[1] - g[0]).toBeCloseTo(18, 9); // 0.6 s per beat
  });

  it('a first beat reported a period late is brought back to the song start; an hour stays exact', () => {
    const f = beatFrames({ bpm: 150, firstBeat: 0.1 + 0.4 * 3 }, 3600, 0);
    expect(f[0]).toBeCloseTo(3, 9);
    expect(f.length).toBe(9000);
    expect(f[8999]).toBeCloseTo(3 + 8999 * 12, 6); // 0.4 s = 12 frames a beat
  });

  it('no tempo, no beats', () => {
    expect(beatFrames({ bpm: 0, firstBeat: 0 }, 10, 0).length).toBe(0);
    expect(beatFrames({ bpm: NaN, firstBeat: 0 }, 10, 0).length).toBe(0);
    expect(beatFrames({ bpm: 120, firstBeat: 0 }, 0, 0).length).toBe(0);
  });
});

describe('snapping a dragged key to the nearest beat', () => {
  const beats = [10, 25.4, 40, 55.6];

  it('finds the nearest beat on either side and at the ends', () => {
    expect(nearestBeat(beats, -100)).toBe(0);
    expect(nearestBeat(beats, 17)).toBe(0);
    expect(nearestBeat(beats, 18)).toBe(1);
    expect(nearestBeat(beats, 47.8)).toBe(2); // tie goes to the earlier beat
    expect(nearestBeat(beats, 1e6)).toBe(3);
    expect(nearestBeat([], 5)).toBe(-1);
  });

  it('snaps to the beat’s whole frame within the distance, else leaves the drag alone', () => {
    expect(snapToBeat(beats, 23.2, 3)).toBe(25);
    expect(snapToBeat(beats, 57, 3)).toBe(56);
    expect(snapToBeat(beats, 21, 3)).toBeNull(); // 4.4 frames from 25.4
    expect(snapToBeat(beats, 32, 3)).toBeNull();
    expect(snapToBeat([], 32, 3)).toBeNull();
    expect(snapToBeat([-0.6, 20], 0, 1)).toBeNull(); // would be frame −1
  });
});
