import { describe, expect, it } from 'vitest';
import { buildPeakPyramid, columnPeaks, rangePeaks } from '../../../shared/scene/peaks';
import { mulberry32 as rng } from '../../helpers/rng';

function noise(n: number, seed: number): Float32Array {
  const r = rng(seed);
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = (r() * 2 - 1) * (0.2 + 0.8 * Math.abs(Math.sin(i / 500)));
  return a;
}

/** The reference: every sample of every channel in [s0, s1). */
function brute(chs: Float32Array[], s0: number, s1: number): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (const c of chs) for (let i = Math.max(0, s0); i < Math.min(s1, c.length); i++) {
    min = Math.min(min, c[i]);
    max = Math.max(max, c[i]);
  }
  return min === Infinity ? null : { min, max };
}

describe('peak pyramid', () => {
  const chs = [noise(10_007, 1), noise(10_007, 2)];

  it('has levels of halving resolution down to one block', () => {
    const p = buildPeakPyramid(chs, 44_100, 64);
    expect(p.levels.map((l) => l.min.length)).toEqual([157, 79, 40, 20, 10, 5, 3, 2, 1]);
    expect(p.levels.map((l) => l.block)).toEqual([64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384]);
    // Top level = the whole song.
    expect({ min: p.levels[8].min[0], max: p.levels[8].max[0] }).toEqual(brute(chs, 0, 10_007));
  });

  it('any sample range equals a brute-force min/max (several block sizes)', () => {
    const r = rng(7);
    for (const B of [1, 4, 64, 256]) {
      const p = buildPeakPyramid(chs, 44_100, B);
      for (let k = 0; k < 400; k++) {
        const a = Math.floor(r() * 10_100) - 50;
        const len = Math.floor(r() ** 3 * 10_000);
        expect(rangePeaks(p, a, a + len), `B=${B} [${a}, ${a + len})`).toEqual(brute(chs, a, a + len));
      }
      expect(rangePeaks(p, 0, 10_007)).toEqual(brute(chs, 0, 10_007));
      expect(rangePeaks(p, 10_007, 20_000)).toBeNull();
      expect(rangePeaks(p, 500, 500)).toBeNull();
    }
  });

  it('channels of different lengths', () => {
    const p = buildPeakPyramid([noise(1000, 3), noise(700, 4)], 48_000, 16);
    const both = [noise(1000, 3), noise(700, 4)];
    for (const [a, b] of [[0, 1000], [650, 760], [699, 701], [900, 1000]]) expect(rangePeaks(p, a, b)).toEqual(brute(both, a, b));
  });

  it('answers the aligned interior from the pyramid, not from the samples', () => {
    const a = noise(4096, 5);
    const p = buildPeakPyramid([a], 44_100, 64);
    const want = brute([a], 100, 4000)!;
    // Wipe the samples inside [128, 3968): a query that scanned them would now see zeros there.
    const wiped = a.slice();
    a.fill(0, 128, 3968);
    const got = rangePeaks(p, 100, 4000)!;
    expect(got).toEqual(want);
    a.set(wiped);
  });

  it('columns at every zoom and offset equal brute force over the same samples', () => {
    const sr = 8000;
    const song = [noise(8000 * 12, 11), noise(8000 * 12, 12)]; // 12 s = 360 frames
    const p = buildPeakPyramid(song, sr, 64);
    for (const fpc of [0.01, 0.37, 1, 2.5, 7.3, 40]) {
      for (const offset of [-45, 0, 12.5]) {
        for (const first of [-30, 0, 101.25]) {
          const cols = 200;
          const got = columnPeaks(p, first, fpc, cols, offset);
          for (let c = 0; c < cols; c++) {
            // Column c covers motion frames [first + c·fpc, first + (c+1)·fpc); frame f is at song time (f + offset) / 30.
            const s0 = Math.floor(((first + c * fpc + offset) / 30) * sr + 1e-9);
            const s1 = Math.max(s0 + 1, Math.floor(((first + (c + 1) * fpc + offset) / 30) * sr + 1e-9));
            const want = brute(song, s0, s1);
            const where = `fpc=${fpc} offset=${offset} first=${first} column ${c}`;
            if (!want) {
              expect(Number.isNaN(got.min[c]) && Number.isNaN(got.max[c]), where).toBe(true);
            } else {
              expect(got.min[c], where).toBe(want.min);
              expect(got.max[c], where).toBe(want.max);
            }
          }
        }
      }
    }
  });

  it('clicks at known frames peak in exactly those columns; an offset moves them by it', () => {
    const sr = 44_100;
    const song = new Float32Array(sr * 5); // 5 s of silence, clicks at 1.0 s, 1.5 s, 3.3 s
    const clickFrames = [30, 45, 99];
    for (const f of clickFrames) {
      const s = Math.round((f / 30) * sr);
      for (let i = 0; i < 40; i++) song[s + i] = 0.9 * (1 - i / 40);
    }
    const p = buildPeakPyramid([song], sr);
    const loud = (offset: number) => {
      const cols = columnPeaks(p, 0, 1, 150, offset);
      return Array.from(cols.max.keys()).filter((c) => cols.max[c] > 0.5);
    };
    expect(loud(0)).toEqual([30, 45, 99]);
    expect(loud(10)).toEqual([20, 35, 89]); // song 10 frames ahead: each click 10 frames earlier
    expect(loud(-7)).toEqual([37, 52, 106]);
    // Zoomed out, 3 frames per column: click at frame 45 is in column 15, at 99 in column 33.
    const z = columnPeaks(p, 0, 3, 50, 0);
    expect(Array.from(z.max.keys()).filter((c) => z.max[c] > 0.5)).toEqual([10, 15, 33]);
    // Before the song (offset −30: the song starts at frame 30) columns are empty, NaN.
    const before = columnPeaks(p, 0, 1, 40, -30);
    expect(Number.isNaN(before.max[29])).toBe(true);
    expect(before.max[30]).toBe(0);
  });

  it('reuses the output arrays when they are large enough', () => {
    const p = buildPeakPyramid([noise(5000, 9)], 8000);
    const out = { min: new Float32Array(64), max: new Float32Array(64) };
    expect(columnPeaks(p, 0, 1, 32, 0, out)).toBe(out);
    expect(columnPeaks(p, 0, 1, 65, 0, out)).not.toBe(out);
  });

  it('an empty song has no levels and only empty columns', () => {
    const p = buildPeakPyramid([new Float32Array(0)], 44_100);
    expect(p.levels).toHaveLength(0);
    expect(Number.isNaN(columnPeaks(p, 0, 1, 4, 0).max[2])).toBe(true);
  });
});
