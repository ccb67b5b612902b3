/**
 * Beat marker lines over the music row's waveform, a pure function of a 2D context and plain data: one
 * device-pixel line at each beat's column (the same column mapping the waveform and the timeline's keys
 * use), only for the beats in view (found by binary search, so a long song costs only what is visible).
 */
import { nearestBeat } from '../../../shared/scene/beats';
import { WAVE_COLORS } from './palette';

type Ctx = Pick<CanvasRenderingContext2D, 'fillStyle' | 'fillRect'>;

export const BEAT_COLOR = WAVE_COLORS.beat;

/**
 * Draws the beats (motion frames, ascending) whose column lies in [0, width): column = floor((frame −
 * frameStart) × pxPerFrame), with `pxPerFrame` in device pixels. Returns how many lines it drew.
 */
export function drawBeatLines(ctx: Ctx, beats: ArrayLike<number>, frameStart: number, pxPerFrame: number, width: number, height: number, dpr: number): number {
  if (!beats.length || !(pxPerFrame > 0)) return 0;
  let i = nearestBeat(beats, frameStart);
  while (i > 0 && beats[i] >= frameStart) i--;
  ctx.fillStyle = BEAT_COLOR;
  const lw = Math.max(1, Math.round(dpr));
  let n = 0;
  for (; i < beats.length; i++) {
    const x = Math.floor((beats[i] - frameStart) * pxPerFrame + 1e-6);
    if (x >= width) break;
    if (x < 0) continue;
    ctx.fillRect(x, 0, lw, height);
    n++;
  }
  return n;
}
