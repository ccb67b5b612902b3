/**
 * Frames as the time a DAW or MMM user reads (nusync 7: "the chorus at 0:42" meant working out 42 × 30):
 * m:ss.xx at the playhead, beside the frame field, and m:ss on the ruler's labels at coarse zoom.
 */
import { FPS } from '../../../shared/vmd/vmd-layout';

/** `frame` at 30 fps as m:ss.xx (hundredths, rounded; h:mm:ss.xx from an hour on): frame 45 → "0:01.50". */
export function clockText(frame: number): string {
  const cs = Math.round((Math.max(0, frame) / FPS) * 100);
  const h = Math.floor(cs / 360_000), m = Math.floor(cs / 6000) % 60, s = Math.floor(cs / 100) % 60, x = cs % 100;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${h ? `${h}:${two(m)}` : m}:${two(s)}.${two(x)}`;
}

/** A whole second's frame as m:ss (h:mm:ss from an hour on), for the ruler: frame 1800 → "1:00". */
export function rulerClockText(frame: number): string {
  return clockText(frame).slice(0, -3);
}
