/**
 * A morph track's peaks under a re-timing by K (output frame g plays the input at g·K). Blinks and mouth
 * shapes are spikes of one to three frames (0@100, 1@101, 0@102): twice as fast, the 1 plays at 50.5,
 * between two output frames, and a re-timing that only meets the input at output frames (50 and 51 play
 * 0 and 0) drops the blink while every output frame is "within tolerance" (new-user pass numorph 1).
 *
 * So a morph key that is a strict local extreme of its track (above or below the nearest key of another
 * value on both sides; every key of a plateau at the top counts) and plays between two output frames is
 * given one output frame that shows it: the nearest (half away from zero, as speed rounds), or the other
 * of the two when an earlier peak has it. Extremes that play at an output frame keep theirs. Where both
 * frames are taken the peak has none (`at` null): a measure compares it with the nearer of the two.
 *
 * The fitter keys each peak's value at its frame (motion-fit.ts, morphWindow) and the measure compares
 * that frame with the peak (measure.ts): one rule, read by both.
 */

/** An input extreme that plays between two output frames. */
export interface MorphPeak {
  /** Input frame and weight of the key. */
  frame: number;
  weight: number;
  /** Its time in output frames (frame / K). */
  time: number;
  /** The output frame that shows it, or null when both neighbours are taken by other peaks. */
  at: number | null;
}

/** Indices (a ≤ i < e) of the keys that are strict local extremes of the track (plateaus included). */
export function morphExtremes(weights: ArrayLike<number>, a: number, e: number): number[] {
  const out: number[] = [];
  // Runs of one value: a run is an extreme when a run of another value lies on each side and both are
  // below it, or both above.
  let prevValue: number | null = null;
  let i = a;
  while (i < e) {
    let j = i + 1;
    while (j < e && weights[j] === weights[i]) j++;
    const v = weights[i];
    if (prevValue !== null && j < e) {
      const next = weights[j];
      if ((v - prevValue) * (v - next) > 0) for (let k = i; k < j; k++) out.push(k);
    }
    prevValue = v;
    i = j;
  }
  return out;
}

/**
 * The peaks of keys [a, e) (frames ascending) re-timed by `factor` that play between output frames, each
 * with its output frame (see the header); no output frame past `last`.
 */
export function placeMorphPeaks(frames: ArrayLike<number>, weights: ArrayLike<number>, a: number, e: number, factor: number, last = Infinity): MorphPeak[] {
  const ext = morphExtremes(weights, a, e);
  if (ext.length === 0) return [];
  const taken = new Set<number>();
  const between: MorphPeak[] = [];
  for (const i of ext) {
    const time = frames[i] / factor;
    const r = Math.round(time);
    if (Math.abs(time - r) < 1e-9) taken.add(r);
    else between.push({ frame: frames[i], weight: weights[i], time, at: null });
  }
  for (const p of between) {
    const lo = Math.floor(p.time), hi = lo + 1;
    const near = p.time - lo >= 0.5 ? hi : lo;
    for (const g of [near, near === hi ? lo : hi]) {
      if (g > last || taken.has(g)) continue;
      taken.add(g);
      p.at = g;
      break;
    }
  }
  return between;
}
