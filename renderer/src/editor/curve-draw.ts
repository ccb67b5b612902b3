/** Drawing helpers for the curve editor canvas (pure functions of a 2D context and numbers). */
import { bezierPoint, type Curve } from '../../../shared/vmd/bezier';

/** Colours per channel: bone X, Y, Z, rotation; camera adds distance and fov. */
export const CHANNEL_COLORS = ['#ff6b6b', '#5fd068', '#4da3ff', '#f5c542', '#c77dff', '#37d5d6'];

export interface Square {
  /** Left and bottom of the 0..127 square in CSS px, and its side. */
  ox: number;
  oy: number;
  size: number;
}

export function toPx(sq: Square, vx: number, vy: number): [number, number] {
  return [sq.ox + (vx / 127) * sq.size, sq.oy - (vy / 127) * sq.size];
}

export function fromPx(sq: Square, px: number, py: number): [number, number] {
  const q = (v: number) => Math.max(0, Math.min(127, Math.round(v)));
  return [q(((px - sq.ox) / sq.size) * 127), q(((sq.oy - py) / sq.size) * 127)];
}

/** Strokes the Bézier of a curve inside the square. */
export function strokeCurve(ctx: CanvasRenderingContext2D, sq: Square, c: Curve, color: string, width: number) {
  ctx.beginPath();
  const x1 = c[0] / 127, y1 = c[1] / 127, x2 = c[2] / 127, y2 = c[3] / 127;
  for (let i = 0; i <= 64; i++) {
    const [bx, by] = bezierPoint(x1, y1, x2, y2, i / 64);
    const px = sq.ox + bx * sq.size, py = sq.oy - by * sq.size;
    if (i === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  }
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.stroke();
}

/** SVG path of a curve in a w×h box (preset thumbnails). */
export function curveSvgPath(c: Curve, w: number, h: number): string {
  const x1 = (c[0] / 127) * w, y1 = h - (c[1] / 127) * h, x2 = (c[2] / 127) * w, y2 = h - (c[3] / 127) * h;
  return `M0,${h} C${x1.toFixed(1)},${y1.toFixed(1)} ${x2.toFixed(1)},${y2.toFixed(1)} ${w},0`;
}
