/** Output frames → MMD frames, sizes and names of the video export (renderer/src/export/frame-times.ts). */
import { describe, expect, it } from 'vitest';
import { heightIssue, mmdFrameAt, outputFrameCount, outputSeconds, outputSize, sequenceFramePath, songStartInOutput } from '../../../renderer/src/export/frame-times';

describe('export frame times', () => {
  it('frames 0–89 are 3 s: 90 output frames at 30 fps, 180 at 60, every other one a half frame', () => {
    const r = { from: 0, to: 89 };
    expect([outputFrameCount(r, 30), outputFrameCount(r, 60), outputSeconds(r, 30), outputSeconds(r, 60)]).toEqual([90, 180, 3, 3]);
    expect([0, 1, 45, 89].map((i) => mmdFrameAt(r, 30, i))).toEqual([0, 1, 45, 89]);
    expect([0, 1, 90, 91, 179].map((i) => mmdFrameAt(r, 60, i))).toEqual([0, 0.5, 45, 45.5, 89.5]);
    expect(mmdFrameAt({ from: 100, to: 200 }, 30, 5)).toBe(105);
    expect(outputFrameCount({ from: 10, to: 9 }, 30)).toBe(0);
  });

  it('24 and 25 fps: a range of 30 fps motion makes range/30 × fps frames, sampled between the motion’s frames', () => {
    const r = { from: 0, to: 89 };
    // 90 MMD frames are 3 s: 72 frames at 24 fps, 75 at 25, both 3 s long.
    expect([outputFrameCount(r, 24), outputFrameCount(r, 25), outputSeconds(r, 24), outputSeconds(r, 25)]).toEqual([72, 75, 3, 3]);
    // Output frame i at i / fps s: MMD frame 30 i / fps.
    expect([0, 1, 4, 71].map((i) => mmdFrameAt(r, 24, i))).toEqual([0, 1.25, 5, 88.75]);
    expect([0, 1, 5, 74].map((i) => mmdFrameAt(r, 25, i))).toEqual([0, 1.2, 6, 88.8]);
    expect(mmdFrameAt({ from: 300, to: 599 }, 24, 24)).toBe(330);
    expect(outputFrameCount({ from: 300, to: 599 }, 25)).toBe(250);
  });

  it('places the song: audio time = (frame + offset) / 30', () => {
    // Offset 6: the song's 0.2 s plays at frame 0, so it started 0.2 s before the output.
    expect(songStartInOutput({ from: 0, to: 89 }, 6)).toBeCloseTo(-0.2, 12);
    // Starting the export at frame 30 with offset −60: the song starts 1 s into the output.
    expect(songStartInOutput({ from: 30, to: 89 }, -60)).toBeCloseTo(1, 12);
  });

  it('sizes: 720p, 1080p, the scene aspect at a height (even numbers)', () => {
    expect(outputSize('720p', 16 / 9, 0)).toEqual({ width: 1280, height: 720, rounded: false });
    expect(outputSize('1080p', 16 / 9, 0)).toEqual({ width: 1920, height: 1080, rounded: false });
    // In the Frame's aspect: a 4:3 Frame is not filmed 16:9 (which showed more at the sides than the Frame).
    expect(outputSize('720p', 4 / 3, 0)).toEqual({ width: 960, height: 720, rounded: false });
    expect(outputSize('1080p', 4 / 3, 0)).toEqual({ width: 1440, height: 1080, rounded: false });
    expect(outputSize('scene', 4 / 3, 600)).toEqual({ width: 800, height: 600, rounded: false });
    // 1080 × 2.35 = 2538 exactly.
    expect(outputSize('scene', 2.35, 1080)).toEqual({ width: 2538, height: 1080, rounded: false });
    expect(outputSize('scene', 16 / 9, 481).height % 2).toBe(0);
  });

  it('a portrait Frame: 720p and 1080p name the short side, as phones and upload sites say (1080 × 1920, not 608 × 1080)', () => {
    expect(outputSize('1080p', 9 / 16, 0)).toEqual({ width: 1080, height: 1920, rounded: false });
    expect(outputSize('720p', 9 / 16, 0)).toEqual({ width: 720, height: 1280, rounded: false });
    expect(outputSize('1080p', 3 / 4, 0)).toEqual({ width: 1080, height: 1440, rounded: false });
    // Other height stays a height: 1920 lines of 9:16 is 1080 wide.
    expect(outputSize('scene', 9 / 16, 1920)).toEqual({ width: 1080, height: 1920, rounded: false });
  });

  it('an odd size is said as rounded; a height out of 16–4320 is refused (heightIssue), not clamped silently', () => {
    // 563 lines of 16:9: 1000.9 wide; even numbers: 564 lines, 1002.7 → 1002.
    expect(outputSize('scene', 16 / 9, 563)).toEqual({ width: 1002, height: 564, rounded: true });
    // 1001 lines: 1002 lines, 1781.3 → 1782 wide.
    expect(outputSize('scene', 16 / 9, 1001)).toEqual({ width: 1782, height: 1002, rounded: true });
    // 720 lines of 2.35: 1692 wide exactly; of 1.85: 1332 exactly; 721 lines: rounded.
    expect(outputSize('scene', 1.85, 720).rounded).toBe(false);
    expect(outputSize('scene', 1.85, 721).rounded).toBe(true);
    expect([0, -5, 15].map(heightIssue)).toEqual(['small', 'small', 'small']);
    expect([16, 720, 4320].map(heightIssue)).toEqual([null, null, null]);
    expect([4321, 99999].map(heightIssue)).toEqual(['large', 'large']);
    expect([NaN, 720.5, '' as unknown as number].map(heightIssue)).toEqual(['invalid', 'invalid', 'invalid']);
  });

  it('names the pictures of a PNG sequence after the chosen name', () => {
    expect(sequenceFramePath('/a/b/clip.png', 7)).toBe('/a/b/clip_000007.png');
    expect(sequenceFramePath('C:\\v\\clip.PNG', 123456)).toBe('C:\\v\\clip_123456.png');
  });
});
