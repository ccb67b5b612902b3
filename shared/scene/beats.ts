/**
 * Beat markers as pure maths: a constant-tempo beat grid (a tempo in BPM and the first beat's time, as a
 * beat detector such as web-audio-beat-detector's `guess` reports it) turned into motion frames through
 * the music offset, and snapping a dragged frame to the nearest beat.
 *
 * Beats live in song time; the frames follow the offset (frame = (audio time − offset) × 30, see
 * audio-sync.ts), so changing the offset moves the markers with the waveform without detecting again.
 */
import { frameAtAudioTime } from './audio-sync';

/** A steady beat: `bpm` beats per minute, the first at `firstBeat` seconds into the song. */
export interface BeatGrid {
  bpm: number;
  firstBeat: number;
}

/**
 * The motion frames (fractional, ascending) of every beat of `grid` within a song of `duration` s, with
 * the music offset `offsetFrames`. Empty for a tempo that is not a positive finite number.
 */
export function beatFrames(grid: BeatGrid, duration: number, offsetFrames: number): Float64Array {
  if (!(grid.bpm > 0) || !Number.isFinite(grid.bpm) || !Number.isFinite(grid.firstBeat) || !(duration > 0)) return new Float64Array(0);
  const period = 60 / grid.bpm;
  // The first beat at or after the song's start (a detector may report one a period late or early).
  const first = grid.firstBeat - Math.floor(grid.firstBeat / period) * period;
  const n = Math.max(0, Math.ceil((duration - first) / period));
  const out = new Float64Array(n);
  // Each beat from its index (never by adding up periods), so the last is as exact as the first.
  for (let k = 0; k < n; k++) out[k] = frameAtAudioTime(first + k * period, offsetFrames);
  return out;
}

/** Index of the beat nearest `frame` in ascending `beats` (−1 when there are none). */
export function nearestBeat(beats: ArrayLike<number>, frame: number): number {
  let lo = 0, hi = beats.length;
  if (hi === 0) return -1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (beats[mid] < frame) lo = mid + 1;
    else hi = mid;
  }
  if (lo === 0) return 0;
  if (lo === beats.length) return lo - 1;
  return frame - beats[lo - 1] <= beats[lo] - frame ? lo - 1 : lo;
}

/**
 * Where a key dragged to `frame` lands with beat snapping on: the whole frame nearest the nearest beat
 * when that beat is within `maxDistance` frames (the caller converts its few pixels with the zoom), else
 * null (the drag keeps its own rounding). Never a negative frame.
 */
export function snapToBeat(beats: ArrayLike<number>, frame: number, maxDistance: number): number | null {
  const i = nearestBeat(beats, frame);
  if (i < 0 || !(Math.abs(beats[i] - frame) <= maxDistance)) return null;
  const f = Math.round(beats[i]);
  return f < 0 ? null : f;
}
