/**
 * The music row's waveform drawing, a pure function of a 2D context and plain data: one device-pixel
 * column per entry of the column peaks (min/max of the samples under it, shared/scene/peaks.ts), the
 * middle line and the playhead. MusicRow.vue computes the peaks for the timeline's view and calls it.
 */
import type { ColumnPeaks } from '../../../shared/scene/peaks';
import { WAVE_COLORS as C, type Canvas2D } from './palette';

export interface WaveformScene {
  /** Canvas size in device pixels and the device pixel ratio. */
  width: number;
  height: number;
  dpr: number;
  /** Peaks per device-pixel column (NaN where no sound), or null: no song. */
  columns: ColumnPeaks | null;
  /** The playhead's device-pixel x (drawn when inside the canvas). */
  headX: number;
}

export function drawWaveform(ctx: Canvas2D, scene: WaveformScene): void {
  const { width: w, height: h, dpr, columns: cols } = scene;
  ctx.fillStyle = C.bg;
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = C.mid;
  ctx.fillRect(0, Math.floor(h / 2), w, Math.max(1, Math.round(dpr)));
  if (cols) {
    const half = h / 2 - 1;
    ctx.fillStyle = C.wave;
    for (let x = 0; x < w; x++) {
      const lo = cols.min[x], hi = cols.max[x];
      if (Number.isNaN(lo)) continue;
      const y0 = Math.floor(h / 2 - hi * half), y1 = Math.ceil(h / 2 - lo * half);
      ctx.fillRect(x, y0, 1, Math.max(1, y1 - y0));
    }
  }
  const hx = scene.headX;
  if (hx >= 0 && hx < w) {
    ctx.fillStyle = C.head;
    ctx.fillRect(hx, 0, Math.max(1, Math.round(dpr)), h);
  }
}
