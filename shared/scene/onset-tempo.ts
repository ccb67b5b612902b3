/**
 * A steady beat found from the song's onsets over the full band: the second pass of Beats (stores/music.ts)
 * when web-audio-beat-detector finds none. That library lowpasses the song before it looks for peaks, so it
 * hears kicks and bass only: a click track or a metronome (a 1 kHz click every 0.5 s), what people time to,
 * was "no steady beat". Here every band counts: the onset envelope is the rise of the loudness (RMS over
 * 5 ms hops, all channels), its autocorrelation gives the period, and a straight line fitted through the
 * onsets nearest each beat gives the exact tempo and the first beat (as beats.ts takes them).
 *
 * Pure maths on the samples, so it runs the same in the app and in the tests; a song of 5 minutes is a few
 * million multiply-adds.
 */
import type { BeatGrid } from './beats';

/** Tempos looked for, beats per minute (the period's lag range of the autocorrelation). */
export const MIN_BPM = 60;
export const MAX_BPM = 200;
/** Hop of the onset envelope, seconds. */
const HOP_SECONDS = 0.005;
/** The shortest lag scoring at least this share of the best one is the beat (a 120 BPM click also repeats at 60). */
const NEAR_BEST = 0.85;
/** An autocorrelation peak under this share of the envelope's variance is no steady beat. */
const MIN_PERIODICITY = 0.3;
/** Fewer onsets than this on the grid is no steady beat. */
const MIN_BEATS = 8;
/** An onset rises by at least this share of the loudest hop's RMS. */
const MIN_RISE = 0.1;

/** The loudness rise per hop (≥ 0) of the channels mixed, the hop in samples and the loudest hop's RMS. */
export function onsetEnvelope(channels: readonly Float32Array[], sampleRate: number): { env: Float64Array; hop: number; loudest: number } {
  const hop = Math.max(1, Math.round(sampleRate * HOP_SECONDS));
  const len = channels.length ? Math.min(...channels.map((c) => c.length)) : 0;
  const n = Math.floor(len / hop);
  const env = new Float64Array(n);
  let prev = 0, loudest = 0;
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (const c of channels) {
      for (let j = i * hop, end = j + hop; j < end; j++) sum += c[j] * c[j];
    }
    const rms = Math.sqrt(sum / (hop * channels.length));
    // A rise of the loudness between this hop and the one before (a fall is no onset).
    env[i] = Math.max(0, rms - prev);
    prev = rms;
    loudest = Math.max(loudest, rms);
  }
  return { env, hop, loudest };
}

/** Sub-hop position of a peak at `i` from its neighbours (a parabola through the three). */
function refinePeak(a: ArrayLike<number>, i: number): number {
  if (i <= 0 || i >= a.length - 1) return i;
  const l = a[i - 1], c = a[i], r = a[i + 1];
  const d = l - 2 * c + r;
  return d < 0 ? i + (0.5 * (l - r)) / d : i;
}

/** Index of the largest value of `a` in [lo, hi] (clamped to the array); −1 when empty. */
function argMax(a: ArrayLike<number>, lo: number, hi: number): number {
  let best = -1;
  for (let i = Math.max(0, Math.ceil(lo)); i <= Math.min(a.length - 1, Math.floor(hi)); i++) if (best < 0 || a[i] > a[best]) best = i;
  return best;
}

/**
 * The onsets nearest the beats of the line `t = phase + k·period` (hops), each searched within an eighth of a
 * period of where the line puts it, kept when it rises as much as a quarter of the strong ones and at least
 * `floor`: (k, position).
 */
function onsetsOnGrid(env: Float64Array, phase: number, period: number, floor: number): { k: number; at: number }[] {
  const found: { k: number; at: number; v: number }[] = [];
  const k0 = Math.ceil((-phase - period / 8) / period);
  for (let k = k0; phase + k * period - period / 8 < env.length; k++) {
    const c = phase + k * period;
    const i = argMax(env, c - period / 8, c + period / 8);
    if (i >= 0 && env[i] > 0) found.push({ k, at: refinePeak(env, i), v: env[i] });
  }
  const strong = found.map((f) => f.v).sort((a, b) => a - b)[Math.floor(found.length * 0.9)] ?? 0;
  return found.filter((f) => f.v >= strong / 4 && f.v >= floor);
}

/** Least-squares line through (k, at): at = phase + k·period. */
function fitLine(pts: { k: number; at: number }[]): { phase: number; period: number } {
  const n = pts.length;
  let sk = 0, st = 0, skk = 0, skt = 0;
  for (const p of pts) {
    sk += p.k;
    st += p.at;
    skk += p.k * p.k;
    skt += p.k * p.at;
  }
  const period = (n * skt - sk * st) / (n * skk - sk * sk);
  return { phase: (st - period * sk) / n, period };
}

/**
 * The song's steady beat from its onsets over the full band, or null when it has none (too few onsets on one
 * grid, or no period that repeats). `channels`: the decoded samples, at `sampleRate`.
 */
export function onsetBeatGrid(channels: readonly Float32Array[], sampleRate: number): BeatGrid | null {
  const { env, hop, loudest } = onsetEnvelope(channels, sampleRate);
  // A rise under this is the wobble of a steady sound's loudness from hop to hop, not an onset.
  const floor = MIN_RISE * loudest;
  const hopsPerSecond = sampleRate / hop;
  const minLag = Math.floor((60 / MAX_BPM) * hopsPerSecond);
  const maxLag = Math.ceil((60 / MIN_BPM) * hopsPerSecond);
  if (env.length < maxLag * 4) return null;
  // Autocorrelation of the envelope less its mean (noise rises a little on every hop: that is no beat), per
  // overlapping pair, so long lags are not scored lower for having fewer pairs.
  let mean = 0;
  for (let i = 0; i < env.length; i++) mean += env[i];
  mean /= env.length;
  const centred = env.map((v) => v - mean);
  let variance = 0;
  for (let i = 0; i < env.length; i++) variance += centred[i] * centred[i];
  variance /= env.length;
  if (!(variance > 0)) return null;
  const acf = new Float64Array(maxLag + 2);
  for (let lag = minLag - 1; lag <= maxLag + 1; lag++) {
    let s = 0;
    for (let i = 0; i + lag < env.length; i++) s += centred[i] * centred[i + lag];
    acf[lag] = s / (env.length - lag);
  }
  let best = minLag;
  for (let lag = minLag; lag <= maxLag; lag++) if (acf[lag] > acf[best]) best = lag;
  if (acf[best] < MIN_PERIODICITY * variance) return null;
  // The beat is the shortest period that repeats about as well: a click every 0.5 s also lines up every 1 s.
  let lag = best;
  for (let l = minLag; l < best; l++) {
    if (acf[l] >= NEAR_BEST * acf[best] && acf[l] >= acf[l - 1] && acf[l] >= acf[l + 1]) {
      lag = l;
      break;
    }
  }
  let period = refinePeak(acf, lag);
  // The phase whose comb of beats collects the most onset.
  let phase = 0, phaseScore = -1;
  for (let p = 0; p < Math.ceil(period); p++) {
    let s = 0;
    for (let c = p; c < env.length; c += period) s += env[Math.round(c)] ?? 0;
    if (s > phaseScore) {
      phaseScore = s;
      phase = p;
    }
  }
  // The line through the onsets nearest the beats, twice: the second search follows the first line.
  let pts = onsetsOnGrid(env, phase, period, floor);
  if (pts.length < MIN_BEATS) return null;
  ({ phase, period } = fitLine(pts));
  pts = onsetsOnGrid(env, phase, period, floor);
  if (pts.length < MIN_BEATS) return null;
  ({ phase, period } = fitLine(pts));
  if (!(period > 0)) return null;
  let bpm = (60 * hopsPerSecond) / period;
  // A tempo a hair from a whole number is that number (songs are made at whole BPM; the hops' rounding is not).
  if (Math.abs(bpm - Math.round(bpm)) < 0.1) bpm = Math.round(bpm);
  const seconds = 60 / bpm;
  let first = phase / hopsPerSecond;
  first -= Math.floor(first / seconds) * seconds;
  // A beat a few milliseconds before the next period is the song's first sample (an onset at 0 read a hop early).
  if (seconds - first < 2 * HOP_SECONDS) first = 0;
  return { bpm, firstBeat: first };
}
