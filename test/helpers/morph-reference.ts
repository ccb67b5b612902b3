/**
 * What a re-timed morph track must play at each output frame, for the fitter's tests: the input at g·K,
 * except where a peak of the input plays between two output frames (speed's promise since new-user pass
 * numorph 1: a blink twice as fast still blinks). Written here from that rule, nothing from shared/fit:
 * a key above (below) the nearest key of another value on each side is a peak; one that plays at
 * time f/K, not a whole frame, is shown at the nearer whole frame (half up), or at the other of the two
 * when an earlier peak (in frame order) or a peak on a whole frame has it; with both taken, at none.
 */
import { sampleMorph, type MorphTracks } from '../../shared/vmd';

export interface MorphReference {
  /** The value output frame g must play (undefined past the samples asked for). */
  at: (g: number) => number;
  /** Peaks given no frame: their time in output frames and their weight. */
  unplaced: { time: number; weight: number }[];
}

export function morphReference(m: MorphTracks, t: number, factor: number): MorphReference {
  const a = m.start[t], e = m.start[t + 1];
  const shown = new Map<number, number>();
  const unplaced: { time: number; weight: number }[] = [];
  if (factor !== 1) {
    const peaks: { time: number; weight: number }[] = [];
    for (let i = a; i < e; i++) {
      let p = i - 1, n = i + 1;
      while (p >= a && m.weight[p] === m.weight[i]) p--;
      while (n < e && m.weight[n] === m.weight[i]) n++;
      if (p < a || n >= e || (m.weight[i] - m.weight[p]) * (m.weight[i] - m.weight[n]) <= 0) continue;
      peaks.push({ time: m.frames[i] / factor, weight: m.weight[i] });
    }
    const taken = new Set<number>();
    const between = peaks.filter((p) => {
      const whole = Math.abs(p.time - Math.round(p.time)) < 1e-9;
      if (whole) taken.add(Math.round(p.time));
      return !whole;
    });
    for (const p of between) {
      const lo = Math.floor(p.time), hi = Math.ceil(p.time);
      const order = p.time - lo < 0.5 ? [lo, hi] : [hi, lo];
      const g = order.find((x) => !taken.has(x));
      if (g === undefined) unplaced.push(p);
      else {
        taken.add(g);
        shown.set(g, p.weight);
      }
    }
  }
  return { at: (g) => shown.get(g) ?? sampleMorph(m, t, g * factor), unplaced };
}
