/**
 * A min/max peak pyramid for drawing a song's waveform at any zoom without touching every sample:
 * computed once from the decoded channel data, then each pixel column's min and max come from a few
 * precomputed blocks.
 *
 *   level 0     min/max of each run of `baseBlock` samples (all channels together)
 *   level k     min/max of each run of baseBlock·2^k samples, from level k−1 by pairs
 *
 * The pyramid keeps references to the channel arrays (the decoded buffer already holds them) for the
 * ragged ends of a column, so a query is exact: a column's min/max equals a brute-force scan of its
 * samples. A column of n samples reads at most 2·baseBlock samples plus ~2·log2(n / baseBlock) blocks,
 * whatever the zoom, picking the coarsest level that fits inside the column.
 */
import { audioTimeAtFrame } from './audio-sync';

export interface PeakPyramid {
  readonly sampleRate: number;
  /** Samples per channel. */
  readonly length: number;
  readonly baseBlock: number;
  /** levels[k].min[i] / .max[i]: extremes of samples [i·B·2^k, (i+1)·B·2^k) over all channels. */
  readonly levels: readonly { min: Float32Array; max: Float32Array; block: number }[];
  readonly channels: readonly Float32Array[];
}

/** Min and max per pixel column; NaN in both where the column holds no audio (before or after the song). */
export interface ColumnPeaks {
  min: Float32Array;
  max: Float32Array;
}

/**
 * Builds the pyramid. `baseBlock` (a power of two, default 64) trades memory for the ragged-edge work:
 * a 4-minute stereo song at 44.1 kHz has 10.6 M samples and 2 × 165 k floats at level 0, about 2.6 MB in all.
 */
export function buildPeakPyramid(channels: readonly Float32Array[], sampleRate: number, baseBlock = 64): PeakPyramid {
  if (!(baseBlock >= 1) || (baseBlock & (baseBlock - 1)) !== 0) throw new RangeError('baseBlock must be a power of two');
  const length = channels.reduce((n, c) => Math.max(n, c.length), 0);
  const levels: { min: Float32Array; max: Float32Array; block: number }[] = [];
  let n = Math.ceil(length / baseBlock);
  if (n > 0) {
    const min = new Float32Array(n).fill(Infinity);
    const max = new Float32Array(n).fill(-Infinity);
    for (const ch of channels) {
      for (let b = 0; b < n; b++) {
        const end = Math.min(ch.length, (b + 1) * baseBlock);
        let lo = min[b];
        let hi = max[b];
        for (let i = b * baseBlock; i < end; i++) {
          const v = ch[i];
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
        min[b] = lo;
        max[b] = hi;
      }
    }
    levels.push({ min, max, block: baseBlock });
    while (n > 1) {
      const prev = levels[levels.length - 1];
      const m = Math.ceil(n / 2);
      const lo = new Float32Array(m);
      const hi = new Float32Array(m);
      for (let i = 0; i < m; i++) {
        const a = 2 * i;
        const b = Math.min(a + 1, n - 1);
        lo[i] = Math.min(prev.min[a], prev.min[b]);
        hi[i] = Math.max(prev.max[a], prev.max[b]);
      }
      levels.push({ min: lo, max: hi, block: prev.block * 2 });
      n = m;
    }
  }
  return { sampleRate, length, baseBlock, levels, channels };
}

/** Scans raw samples [s0, s1) of every channel into out = [min, max]. */
function scanRaw(p: PeakPyramid, s0: number, s1: number, out: number[]): void {
  for (const ch of p.channels) {
    const end = Math.min(s1, ch.length);
    for (let i = s0; i < end; i++) {
      const v = ch[i];
      if (v < out[0]) out[0] = v;
      if (v > out[1]) out[1] = v;
    }
  }
}

/**
 * Exact min and max over samples [s0, s1) (clamped to the song), or null for an empty range. The
 * interior is covered by the largest aligned blocks, the ragged ends by raw samples.
 */
export function rangePeaks(p: PeakPyramid, s0: number, s1: number): { min: number; max: number } | null {
  s0 = Math.max(0, Math.floor(s0));
  s1 = Math.min(p.length, Math.floor(s1));
  if (s1 <= s0) return null;
  const out = [Infinity, -Infinity];
  const B = p.baseBlock;
  const b0 = Math.ceil(s0 / B);
  const b1 = Math.floor(s1 / B);
  if (b1 <= b0) {
    scanRaw(p, s0, s1, out);
  } else {
    scanRaw(p, s0, b0 * B, out);
    scanRaw(p, b1 * B, s1, out);
    // Blocks [b0, b1) at level 0, climbing while both ends stay aligned (a segment-tree walk).
    let lo = b0;
    let hi = b1;
    for (let k = 0; lo < hi; k++) {
      const L = p.levels[k];
      if (lo & 1) {
        if (L.min[lo] < out[0]) out[0] = L.min[lo];
        if (L.max[lo] > out[1]) out[1] = L.max[lo];
        lo++;
      }
      if (hi & 1) {
        hi--;
        if (L.min[hi] < out[0]) out[0] = L.min[hi];
        if (L.max[hi] > out[1]) out[1] = L.max[hi];
      }
      lo >>= 1;
      hi >>= 1;
    }
  }
  return { min: out[0], max: out[1] };
}

/**
 * First sample of the column that starts at motion frame `frame`: the song sample playing at that frame.
 * Column c of a view from `firstFrame` at `framesPerColumn` covers samples
 * [columnSample(firstFrame + c·fpc), columnSample(firstFrame + (c+1)·fpc)), at least one sample wide.
 */
export function sampleAtFrame(p: Pick<PeakPyramid, 'sampleRate'>, frame: number, offsetFrames: number): number {
  return Math.floor(audioTimeAtFrame(frame, offsetFrames) * p.sampleRate + 1e-9);
}

/**
 * Min/max per pixel column for the view starting at motion frame `firstFrame`, `framesPerColumn` frames
 * wide per column (any zoom: fractions of a frame up to minutes), with the song shifted by `offsetFrames`.
 * Reuses `out` when it has room for `columns`.
 */
export function columnPeaks(
  p: PeakPyramid,
  firstFrame: number,
  framesPerColumn: number,
  columns: number,
  offsetFrames: number,
  out?: ColumnPeaks,
): ColumnPeaks {
  const res = out && out.min.length >= columns ? out : { min: new Float32Array(columns), max: new Float32Array(columns) };
  let s0 = sampleAtFrame(p, firstFrame, offsetFrames);
  for (let c = 0; c < columns; c++) {
    const s1 = sampleAtFrame(p, firstFrame + (c + 1) * framesPerColumn, offsetFrames);
    const r = rangePeaks(p, s0, Math.max(s1, s0 + 1));
    res.min[c] = r ? r.min : NaN;
    res.max[c] = r ? r.max : NaN;
    s0 = s1;
  }
  return res;
}
