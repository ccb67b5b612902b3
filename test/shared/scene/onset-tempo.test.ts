// The full-band beat finder (nusync finding 2): a plain click track — a 1 kHz click every 0.5 s, louder every
// 2 s, over a quiet 440 Hz tone, the song web-audio-beat-detector called "no steady beat" — is 120 BPM with its
// beats on frames 0, 15, 30 …; the same at 48 kHz, with a lead-in, at another tempo and for a low kick; noise
// and silence have none. The signals are made here, with their beats known by construction.
import { describe, expect, it } from 'vitest';
import { beatFrames } from '../../../shared/scene/beats';
import { onsetBeatGrid } from '../../../shared/scene/onset-tempo';

/** `seconds` of a mono signal at `rate`: a burst of `hz` (decaying over 10 ms, 30 ms long) at each of `at` s, plus `bed`. */
function clicks(rate: number, seconds: number, at: number[], hz: number, loud: (k: number) => number, bed = 0): Float32Array {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) out[i] = bed * Math.sin((2 * Math.PI * 440 * i) / rate);
  at.forEach((t, k) => {
    const s0 = Math.round(t * rate);
    for (let i = 0; i < rate * 0.03 && s0 + i < out.length; i++) out[s0 + i] += loud(k) * Math.sin((2 * Math.PI * hz * i) / rate) * Math.exp(-i / (rate * 0.01));
  });
  return out;
}
const every = (period: number, first: number, seconds: number) => Array.from({ length: Math.floor((seconds - first) / period - 1e-9) + 1 }, (_, k) => first + k * period);
const accent = (k: number) => (k % 4 === 0 ? 0.9 : 0.5);

describe('onset beat grid (full band)', () => {
  it('a 1 kHz click every 0.5 s (louder every 2 s, over a quiet tone) is 120 BPM with beats on frames 0, 15, 30 …', () => {
    for (const rate of [44_100, 48_000]) {
      const song = clicks(rate, 30, every(0.5, 0, 30), 1000, accent, 0.05);
      const g = onsetBeatGrid([song], rate)!;
      expect(g, `${rate} Hz`).not.toBeNull();
      expect(Math.abs(g.bpm - 120), `${rate} Hz: ${g.bpm}`).toBeLessThanOrEqual(0.5);
      const frames = [...beatFrames(g, 30, 0)];
      expect(frames.length).toBe(60);
      // Every beat within a third of a frame of 15·k, so each lands on that frame.
      frames.forEach((f, k) => expect(Math.abs(f - 15 * k), `${rate} Hz beat ${k} at ${f}`).toBeLessThan(1 / 3));
      expect(frames.slice(0, 4).map(Math.round)).toEqual([0, 15, 30, 45]);
    }
  });

  it('stereo, a lead-in (the first click at frame 10) and another tempo (100 BPM)', () => {
    const rate = 44_100;
    const left = clicks(rate, 20, every(0.6, 10 / 30, 20), 2000, () => 0.6);
    const g = onsetBeatGrid([left, left.map((x) => x * 0.5)], rate)!;
    expect(Math.abs(g.bpm - 100)).toBeLessThanOrEqual(0.5);
    const frames = [...beatFrames(g, 20, 0)];
    // 0.6 s = 18 frames from frame 10.
    expect(frames.slice(0, 4).map(Math.round)).toEqual([10, 28, 46, 64]);
    frames.forEach((f, k) => expect(Math.abs(f - (10 + 18 * k))).toBeLessThan(1 / 3));
  });

  it('a 60 Hz kick every 0.5 s is 120 BPM too', () => {
    const g = onsetBeatGrid([clicks(44_100, 20, every(0.5, 0.25, 20), 60, () => 0.9)], 44_100)!;
    expect(Math.abs(g.bpm - 120)).toBeLessThanOrEqual(0.5);
    // The kicks are at 0.25 s + 0.5 s·k: frames 7.5 + 15k.
    [...beatFrames(g, 20, 0)].forEach((f, k) => expect(Math.abs(f - (7.5 + 15 * k))).toBeLessThan(1 / 3));
  });

  it('noise, a steady tone and silence have no steady beat', () => {
    // mulberry32: a fixed seed, so the noise is the same on every run.
    let seed = 7;
    const rnd = () => {
      let x = (seed = (seed + 0x6d2b79f5) | 0);
      x = Math.imul(x ^ (x >>> 15), x | 1);
      x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
      return (((x ^ (x >>> 14)) >>> 0) / 2 ** 32) * 2 - 1;
    };
    const noise = Float32Array.from({ length: 44_100 * 10 }, () => 0.3 * rnd());
    expect(onsetBeatGrid([noise], 44_100)).toBeNull();
    // A steady tone's loudness wobbles a little from hop to hop (a hop is not a whole number of its cycles).
    for (const hz of [97, 440, 1000, 3001]) {
      const tone = Float32Array.from({ length: 44_100 * 10 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * hz * i) / 44_100));
      expect(onsetBeatGrid([tone], 44_100), `${hz} Hz`).toBeNull();
    }
    expect(onsetBeatGrid([new Float32Array(44_100 * 10)], 44_100)).toBeNull();
    expect(onsetBeatGrid([new Float32Array(100)], 44_100)).toBeNull();
  });
});
