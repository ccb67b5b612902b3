/**
 * The video dialog's time estimate before a render, from this computer's earlier renders. A frame costs a part
 * that does not depend on the picture's size (posing, skinning, physics, handing the frame to the encoder) and a
 * part that grows with its pixels (drawing, encoding); a render also has a start-up (the encoder, the audio, the
 * first frame's shaders). The old estimate was one figure, elapsed ÷ frames ÷ megapixels, from any render of 10
 * frames or more: a 10-frame test render's start-up spread over its frames, and scaled by the pixel count alone,
 * said "about 11 min" for a 720p render that took 71 s.
 * Each render of SAMPLE_MIN_FRAMES or more gives a sample: its steady milliseconds per frame (after the first
 * frame) at its size; the start-up is kept apart. With samples at two sizes or more the two parts are fitted
 * (least squares, neither below 0); with one, PER_FRAME_SHARE of it is taken as the size-free part.
 * A video warmed up from frame 0 first simulates the frames before its range (physics only, not drawn): those steps
 * are in the estimate too (they were left out, so a range late in a long dance took minutes more than said), at
 * the last warm-up's measured ms per step, else at WARM_UP_SHARE of a frame's size-free part.
 */

/** One render's speed: its steady ms per frame at its size (megapixels). */
export interface SpeedSample {
  megapixels: number;
  msPerFrame: number;
}

export interface SpeedRecord {
  /** The latest sample at each size, newest last (at most MAX_SAMPLES). */
  samples: SpeedSample[];
  /** The last render's start-up (ms until its first frame was done). */
  startupMs: number;
  /** The last warm-up's ms per physics step (frames simulated before the range, not drawn); absent until one is measured. */
  warmUpMsPerStep?: number;
}

/** A render's physics warm-up: the frames simulated before its range, and how long they took (ms). */
export interface WarmUpTiming {
  steps: number;
  ms: number;
}

/** Fewer frames than this say too little about the steady speed (a test render of a few frames is start-up). */
export const SAMPLE_MIN_FRAMES = 20;
export const MAX_SAMPLES = 4;
/**
 * With one size known, the share of a frame's time taken as size-free. Chromium's software rasteriser here:
 * 640 × 360 and 1280 × 720 (four times the pixels) rendered at 3.0 and 4.2 frames/s (start-up included), so
 * most of a frame's cost is not the pixels'; a GPU draws the pixels faster still.
 */
export const PER_FRAME_SHARE = 0.75;
/**
 * Before a warm-up has been measured, one step of it is taken as this share of a frame's size-free part: a step
 * poses the scene and steps physics as a frame does, and draws and hands over nothing, so it costs at most that.
 */
export const WARM_UP_SHARE = 1;

const finitePositive = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;

/** A record read back from the settings, where it is kept as JSON text (anything else: null). */
export function readSpeedRecord(v: unknown): SpeedRecord | null {
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return null;
    }
  }
  if (!v || typeof v !== 'object') return null;
  const r = v as Partial<SpeedRecord>;
  const samples = Array.isArray(r.samples) ? r.samples.filter((s): s is SpeedSample => !!s && finitePositive(s.megapixels) && finitePositive(s.msPerFrame)) : [];
  if (samples.length === 0) return null;
  const startupMs = typeof r.startupMs === 'number' && Number.isFinite(r.startupMs) && r.startupMs >= 0 ? r.startupMs : 0;
  return { samples: samples.slice(-MAX_SAMPLES), startupMs, ...(finitePositive(r.warmUpMsPerStep) ? { warmUpMsPerStep: r.warmUpMsPerStep } : {}) };
}

/**
 * The record after a render of `frames` frames at `megapixels`: `steadyMsPerFrame` is its time per frame after
 * the first, `startupMs` the time to its first frame, `warmUp` its physics warm-up (steps and ms) where it had one.
 * A render under SAMPLE_MIN_FRAMES adds no sample; a warm-up under SAMPLE_MIN_FRAMES steps is no measure either.
 */
export function addSpeedSample(record: SpeedRecord | null, frames: number, megapixels: number, steadyMsPerFrame: number, startupMs: number, warmUp?: WarmUpTiming): SpeedRecord | null {
  const measured = warmUp && warmUp.steps >= SAMPLE_MIN_FRAMES && finitePositive(warmUp.ms) ? warmUp.ms / warmUp.steps : undefined;
  const warmUpMsPerStep = measured ?? record?.warmUpMsPerStep;
  const warm = warmUpMsPerStep !== undefined ? { warmUpMsPerStep } : {};
  if (!(frames >= SAMPLE_MIN_FRAMES) || !finitePositive(megapixels) || !finitePositive(steadyMsPerFrame)) return record && measured !== undefined ? { ...record, ...warm } : record;
  // A size within 5% of a sample's is that size again: the newer speed replaces it.
  const others = (record?.samples ?? []).filter((s) => Math.abs(s.megapixels - megapixels) > 0.05 * megapixels);
  return { samples: [...others, { megapixels, msPerFrame: steadyMsPerFrame }].slice(-MAX_SAMPLES), startupMs: Math.max(0, startupMs || 0), ...warm };
}

/** The size-free and per-megapixel parts of a frame's time (ms), from the samples. */
export function frameCostModel(samples: readonly SpeedSample[]): { perFrame: number; perMegapixel: number } | null {
  if (samples.length === 0) return null;
  const n = samples.length;
  const mx = samples.reduce((a, s) => a + s.megapixels, 0) / n, my = samples.reduce((a, s) => a + s.msPerFrame, 0) / n;
  const sxx = samples.reduce((a, s) => a + (s.megapixels - mx) ** 2, 0);
  if (n >= 2 && sxx > 1e-6 * mx * mx) {
    const slope = Math.max(0, samples.reduce((a, s) => a + (s.megapixels - mx) * (s.msPerFrame - my), 0) / sxx);
    const intercept = my - slope * mx;
    // Neither part below 0: all of it per pixel when the line would cross below the origin.
    return intercept >= 0 ? { perFrame: intercept, perMegapixel: slope } : { perFrame: 0, perMegapixel: my / mx };
  }
  const last = samples[n - 1];
  return { perFrame: PER_FRAME_SHARE * last.msPerFrame, perMegapixel: ((1 - PER_FRAME_SHARE) * last.msPerFrame) / last.megapixels };
}

/** What one physics warm-up step costs (ms): the last one measured, else WARM_UP_SHARE of a frame's size-free part. */
export function warmUpStepMs(record: SpeedRecord | null): number | null {
  if (record?.warmUpMsPerStep !== undefined) return record.warmUpMsPerStep;
  const m = record ? frameCostModel(record.samples) : null;
  return m ? WARM_UP_SHARE * m.perFrame : null;
}

/**
 * The estimated render time (ms) of `frames` frames at `megapixels`, after `warmUpSteps` frames of physics warm-up
 * (simulated from frame 0 up to the range, not drawn); null without a record.
 */
export function estimateRenderMs(record: SpeedRecord | null, frames: number, megapixels: number, warmUpSteps = 0): number | null {
  const m = record ? frameCostModel(record.samples) : null;
  if (!m || !(frames > 0)) return null;
  const warm = warmUpSteps > 0 ? warmUpSteps * warmUpStepMs(record)! : 0;
  return record!.startupMs + warm + frames * (m.perFrame + m.perMegapixel * megapixels);
}
