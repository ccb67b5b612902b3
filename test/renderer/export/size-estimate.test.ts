/**
 * The video dialog's free-space check (renderer/src/export/size-estimate.ts): the file's rough size beside the
 * disk's free space. Figures: a new user's pass wrote 300 frames at 1280 × 720, 30 fps, without music, as
 * "1.6 MB"; mediabunny's QUALITY_HIGH aims H.264 at 3 Mb/s × (pixels ÷ 1080p's)^0.95 × 0.3·e^(2.5538 × 0.75).
 */
import { describe, expect, it } from 'vitest';
import { estimateExportBytes, estimatePngSequenceBytes, spaceShortfall, videoBitrate } from '../../../renderer/src/export/size-estimate';

const MB = 1048576;

describe('the free-space check before a render', () => {
  it('the bitrate is the one the encoder is asked for: 2.83 Mb/s at 720p, 6.11 Mb/s at 1080p (H.264)', () => {
    const byHand = (w: number, h: number) => Math.ceil((3e6 * ((w * h) / (1920 * 1080)) ** 0.95 * 0.3 * Math.exp(2.5538 * 0.75)) / 1000) * 1000;
    expect(videoBitrate('avc', 1280, 720)).toBe(byHand(1280, 720));
    expect(byHand(1280, 720)).toBe(2_829_000);
    expect(videoBitrate('avc', 1920, 1080)).toBe(6_111_000);
  });

  it('300 frames at 720p without music: within a fifth of the 1.6 MB such a render wrote', () => {
    const b = estimateExportBytes({ format: 'mp4', width: 1280, height: 720, seconds: 5, withAudio: false })!;
    expect(b / MB).toBeGreaterThan(1.6 * 0.8);
    expect(b / MB).toBeLessThan(1.6 * 1.2);
    // The music adds 192 kb/s: 5 s is 120,000 bytes (and the 2 % margin).
    const withMusic = estimateExportBytes({ format: 'mp4', width: 1280, height: 720, seconds: 5, withAudio: true })!;
    expect(withMusic - b).toBeGreaterThanOrEqual(120_000);
    expect(withMusic - b).toBeLessThanOrEqual(120_000 * 1.03);
  });

  it('a PNG sequence: the sample’s bytes per pixel × each frame’s pixels, each file in whole 4 KiB blocks', () => {
    // 0.5 bytes a pixel at 1280 × 720: 460,800 bytes, 112.5 blocks, so 113 blocks (462,848 bytes) a file; 300 files.
    expect(estimatePngSequenceBytes(0.5, 1280, 720, 300)).toBe(300 * 462_848);
    expect(estimateExportBytes({ format: 'png', width: 1280, height: 720, seconds: 10, withAudio: true, frames: 300, pngBytesPerPixel: 0.5 })).toBe(300 * 462_848);
    // A tiny picture still takes a block.
    expect(estimatePngSequenceBytes(1, 16, 16, 10)).toBe(10 * 4096);
    expect(estimatePngSequenceBytes(0, 1280, 720, 300)).toBeNull();
  });

  it('a PNG sequence not sampled yet and an empty range have no estimate (nothing is said)', () => {
    expect(estimateExportBytes({ format: 'png', width: 1280, height: 720, seconds: 5, withAudio: false })).toBeNull();
    expect(estimateExportBytes({ format: 'mp4', width: 1280, height: 720, seconds: 0, withAudio: false })).toBeNull();
  });

  it('warns only when the estimate is more than the free space, in whole MB (needed up, free down)', () => {
    // 1 hour at 1080p with music: (6,111,000 + 192,000) b/s × 3600 s ÷ 8 = 2,836,350,000 bytes (2,705 MB), plus 2 %.
    const hour = estimateExportBytes({ format: 'mp4', width: 1920, height: 1080, seconds: 3600, withAudio: true })!;
    expect(Math.round(hour / MB)).toBe(Math.round((2_836_350_000 * 1.02) / MB));
    expect(spaceShortfall(hour, 500 * MB + 123)).toEqual({ neededMb: Math.ceil((2_836_350_000 * 1.02) / MB), freeMb: 500 });
    expect(spaceShortfall(hour, 10_000 * MB)).toBeNull();
    expect(spaceShortfall(100, 100)).toBeNull(); // exactly fits
    expect(spaceShortfall(101, 100)).toEqual({ neededMb: 1, freeMb: 0 });
    // No figure from the platform, or no estimate: silent.
    expect(spaceShortfall(hour, null)).toBeNull();
    expect(spaceShortfall(null, 0)).toBeNull();
  });
});
