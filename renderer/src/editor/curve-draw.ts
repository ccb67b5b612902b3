/**
 * The curve editor's canvas drawing, as pure functions of a 2D context and plain data: the 0..127
 * square (grid, diagonal, border, axis labels), the active channel's curve with its handles (other
 * channels faint when overlaid), and the live plot strip under the square (the channel's value on each
 * frame from the previous key to this one). While a fit preview is in force the strip shows its overlay
 * instead: the original's plot of the active track with the result's drawn over it (drawFitLines, which
 * the Whole Motion dialog's preview draws with too). CurveEditor.vue keeps the state and the pointer handling.
 */
import type { ChannelSeries } from '../../../shared/key-edits';
import type { FitPlot } from '../stores/fit-preview';
import { bezierPoint, type Curve } from '../../../shared/vmd/bezier';
import { CANVAS_FONTS, CHANNEL_COLORS, CURVE_COLORS as C, type Canvas2D } from './palette';

export interface Square {
  /** Left and bottom of the 0..127 square in CSS px, and its side. */
  ox: number;
  oy: number;
  size: number;
}

/** The square plus the plot strip under it (top and height, CSS px). */
export interface CurveLayout extends Square {
  plotTop: number;
  plotHeight: number;
}

/** Everything one drawing of the curve editor shows. */
export interface CurveScene {
  /** Canvas size in CSS px and the device pixel ratio. */
  width: number;
  height: number;
  dpr: number;
  layout: CurveLayout;
  /** The active key's curves per channel as shown (with a drag's draft), or null: no key with curves. */
  curves: readonly Curve[] | null;
  channel: number;
  /** Other channels drawn faintly behind the active one. */
  overlay: boolean;
  /** The handle being dragged or picked (1 or 2), 0 for none. */
  handle: 0 | 1 | 2;
  /** The live plot's values, or null (the first key of a track has no segment). */
  series: ChannelSeries | null;
  /** The current frame (marked in the plot when inside the segment). */
  frame: number;
  /** A fit preview's overlay for the active track: drawn in the plot strip instead of the live plot. */
  fit?: FitPlot | null;
}

/** A box in CSS px. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Keys marked on the result's line only while they are at least this many px apart on average. */
const FIT_KEY_SPACING = 4;

/**
 * A fit preview's two plots in a box, on one vertical scale: the original wide and grey, the result
 * thin and orange over it (where they agree the orange sits inside the grey), and the result's keys
 * as small orange squares on its line when the plot has them and room for them. Returns the series drawn.
 */
export function drawFitLines(ctx: Canvas2D, box: Box, fit: FitPlot): number {
  const { original: a, result: b } = fit;
  let lo = Infinity, hi = -Infinity;
  for (const s of [a, b]) for (const v of s) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  const span = hi - lo || 1;
  const line = (s: Float64Array, color: string, width: number) => {
    const n = s.length;
    ctx.beginPath();
    for (let i = 0; i < n; i++) {
      const x = box.x + (n > 1 ? (i / (n - 1)) * box.w : box.w / 2), y = box.y + box.h - 4 - ((s[i] - lo) / span) * (box.h - 8);
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.stroke();
  };
  line(a, C.fitOriginal, 3);
  line(b, C.fitResult, 1.2);
  const keys = fit.keys;
  if (keys && keys.length && b.length > 1 && keys.length * FIT_KEY_SPACING <= box.w) {
    ctx.fillStyle = C.fitResult;
    for (const u of keys) {
      // The result's value at the key: the sample nearest to it.
      const i = Math.round(u * (b.length - 1));
      const x = box.x + u * box.w, y = box.y + box.h - 4 - ((b[i] - lo) / span) * (box.h - 8);
      ctx.fillRect(x - 2, y - 2, 4, 4);
    }
  }
  return 2;
}

export function toPx(sq: Square, vx: number, vy: number): [number, number] {
  return [sq.ox + (vx / 127) * sq.size, sq.oy - (vy / 127) * sq.size];
}

export function fromPx(sq: Square, px: number, py: number): [number, number] {
  const q = (v: number) => Math.max(0, Math.min(127, Math.round(v)));
  return [q(((px - sq.ox) / sq.size) * 127), q(((sq.oy - py) / sq.size) * 127)];
}

/** Pixels of a curve's two control points (x1, y1) and (x2, y2). */
export function handlePoints(sq: Square, c: Curve): [[number, number], [number, number]] {
  return [toPx(sq, c[0], c[1]), toPx(sq, c[2], c[3])];
}

/** A plotted value as the plot labels and the caption show it: 3 significant-ish decimals. */
export function formatPlotValue(v: number): string {
  const a = Math.abs(v);
  return a >= 100 ? v.toFixed(1) : a >= 10 ? v.toFixed(2) : v.toFixed(3);
}

/** Strokes the Bézier of a curve inside the square. */
export function strokeCurve(ctx: Canvas2D, sq: Square, c: Curve, color: string, width: number) {
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

/** Draws the whole curve editor canvas. */
export function drawCurveEditor(ctx: Canvas2D, scene: CurveScene): void {
  const { width: w, height: h, dpr, layout: s, curves } = scene;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = C.bg;
  ctx.fillRect(0, 0, w, h);
  // No key with curves: a faint empty square only (the hint over it says what to do; no plot strip).
  ctx.globalAlpha = curves ? 1 : 0.45;
  drawSquare(ctx, s);
  ctx.globalAlpha = 1;
  if (curves) drawCurves(ctx, s, curves, scene.channel, scene.overlay, scene.handle);
  if (scene.fit) drawFitPlot(ctx, s, scene.fit);
  else if (curves) drawPlot(ctx, s, scene.series, CHANNEL_COLORS[scene.channel], scene.frame);
}

/** The plot strip with a fit preview's overlay over the whole track, its first and last frame under it. */
function drawFitPlot(ctx: Canvas2D, s: CurveLayout, fit: FitPlot) {
  const py0 = s.plotTop, ph = s.plotHeight;
  ctx.fillStyle = C.plotBg;
  ctx.fillRect(s.ox, py0, s.size, ph);
  ctx.strokeStyle = C.border;
  ctx.strokeRect(s.ox + 0.5, py0 + 0.5, s.size - 1, ph - 1);
  drawFitLines(ctx, { x: s.ox, y: py0, w: s.size, h: ph }, fit);
  plotFrameLabels(ctx, s, fit.from, fit.to);
  ctx.textAlign = 'start';
}

/** The plot's first and last frame under its two ends (leaves the text right-aligned, in plot text colour). */
function plotFrameLabels(ctx: Canvas2D, s: CurveLayout, from: number, to: number): void {
  const y = s.plotTop + s.plotHeight + 3;
  ctx.fillStyle = C.plotText;
  ctx.font = CANVAS_FONTS.small;
  ctx.textBaseline = 'top';
  ctx.fillText(`${from}`, s.ox, y);
  ctx.textAlign = 'right';
  ctx.fillText(`${to}`, s.ox + s.size, y);
}

/** Grid: eighths of the square, the diagonal, the border, the 0 and 127 labels. */
function drawSquare(ctx: Canvas2D, s: CurveLayout) {
  ctx.fillStyle = C.square;
  ctx.fillRect(s.ox, s.oy - s.size, s.size, s.size);
  ctx.strokeStyle = C.grid;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let i = 1; i < 8; i++) {
    const p = Math.round(s.ox + (i / 8) * s.size) + 0.5;
    ctx.moveTo(p, s.oy - s.size);
    ctx.lineTo(p, s.oy);
    const q = Math.round(s.oy - (i / 8) * s.size) + 0.5;
    ctx.moveTo(s.ox, q);
    ctx.lineTo(s.ox + s.size, q);
  }
  ctx.stroke();
  ctx.strokeStyle = C.diagonal;
  ctx.setLineDash([4, 4]);
  ctx.beginPath();
  ctx.moveTo(s.ox, s.oy);
  ctx.lineTo(s.ox + s.size, s.oy - s.size);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.strokeStyle = C.border;
  ctx.strokeRect(s.ox + 0.5, s.oy - s.size + 0.5, s.size - 1, s.size - 1);
  ctx.font = CANVAS_FONTS.small;
  ctx.fillStyle = C.axisText;
  ctx.textBaseline = 'top';
  ctx.fillText('0', s.ox - 4, s.oy + 3);
  ctx.fillText('127', s.ox + s.size - 16, s.oy + 3);
  ctx.textBaseline = 'middle';
  ctx.fillText('127', s.ox - 24, s.oy - s.size + 4);
}

/** The other channels faintly (overlay), then the active one with its handle arms and handles. */
function drawCurves(ctx: Canvas2D, s: Square, curves: readonly Curve[], ch: number, overlay: boolean, handle: 0 | 1 | 2) {
  if (overlay) {
    curves.forEach((c, i) => {
      if (i !== ch) strokeCurve(ctx, s, c, CHANNEL_COLORS[i] + '99', 1.5);
    });
  }
  const c = curves[ch];
  const col = CHANNEL_COLORS[ch];
  const [p0x, p0y] = toPx(s, 0, 0), [p3x, p3y] = toPx(s, 127, 127);
  const [[h1x, h1y], [h2x, h2y]] = handlePoints(s, c);
  // Handle arms.
  ctx.strokeStyle = C.arm;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(p0x, p0y);
  ctx.lineTo(h1x, h1y);
  ctx.moveTo(p3x, p3y);
  ctx.lineTo(h2x, h2y);
  ctx.stroke();
  strokeCurve(ctx, s, c, col, 2.5);
  for (const [i, hx, hy] of [[1, h1x, h1y], [2, h2x, h2y]] as const) {
    ctx.beginPath();
    ctx.arc(hx, hy, handle === i ? 7 : 6, 0, Math.PI * 2);
    ctx.fillStyle = handle === i ? C.handleFillActive : C.handleFill;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = handle === i ? C.handleRingActive : col;
    ctx.stroke();
    if (handle === i) {
      // The focus ring: this handle has the arrow keys (the pane's hint line says so too).
      ctx.beginPath();
      ctx.arc(hx, hy, 11, 0, Math.PI * 2);
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = C.handleRingActive;
      ctx.stroke();
    }
  }
}

/** The live plot strip under the square: filled area, line, one dot per frame, the current frame, labels. */
function drawPlot(ctx: Canvas2D, s: CurveLayout, ser: ChannelSeries | null, col: string, frame: number) {
  const py0 = s.plotTop, ph = s.plotHeight;
  ctx.fillStyle = C.plotBg;
  ctx.fillRect(s.ox, py0, s.size, ph);
  ctx.strokeStyle = C.border;
  ctx.strokeRect(s.ox + 0.5, py0 + 0.5, s.size - 1, ph - 1);
  if (!ser) return;
  const n = ser.values.length;
  let lo = Math.min(ser.start, ser.end), hi = Math.max(ser.start, ser.end);
  for (let i = 0; i < n; i++) { lo = Math.min(lo, ser.values[i]); hi = Math.max(hi, ser.values[i]); }
  const span = hi - lo || 1;
  const X = (i: number) => s.ox + (n > 1 ? (i / (n - 1)) * s.size : s.size / 2);
  const Y = (v: number) => py0 + ph - 6 - ((v - lo) / span) * (ph - 12);
  ctx.beginPath();
  ctx.moveTo(X(0), py0 + ph);
  for (let i = 0; i < n; i++) ctx.lineTo(X(i), Y(ser.values[i]));
  ctx.lineTo(X(n - 1), py0 + ph);
  ctx.closePath();
  ctx.fillStyle = col + '22';
  ctx.fill();
  ctx.beginPath();
  for (let i = 0; i < n; i++) (i ? ctx.lineTo : ctx.moveTo).call(ctx, X(i), Y(ser.values[i]));
  ctx.strokeStyle = col;
  ctx.lineWidth = 1.5;
  ctx.stroke();
  // One dot per frame: what playback actually hits.
  if (n <= 120) {
    ctx.fillStyle = col;
    for (let i = 0; i < n; i++) ctx.fillRect(X(i) - 1.5, Y(ser.values[i]) - 1.5, 3, 3);
  }
  if (frame >= ser.from && frame <= ser.to && n > 1) {
    const x = X(frame - ser.from);
    ctx.fillStyle = C.plotCursor;
    ctx.fillRect(Math.round(x), py0, 1, ph);
  }
  plotFrameLabels(ctx, s, ser.from, ser.to);
  // The strip's scale: its top is the largest value, its bottom the smallest (a falling curve's start is at the top).
  plotValueLabel(ctx, s, formatPlotValue(lo), py0 + ph - 12);
  plotValueLabel(ctx, s, formatPlotValue(hi), py0 + 2);
  ctx.textAlign = 'start';
}

/**
 * A value on the plot strip's scale at height y (text top): left of the strip where the pane leaves room
 * for it, else inside the strip's left edge on a dark backing, so a narrow pane never cuts off a minus sign.
 */
function plotValueLabel(ctx: Canvas2D, s: CurveLayout, text: string, y: number): void {
  const w = ctx.measureText(text).width;
  if (w + 4 <= s.ox) {
    ctx.textAlign = 'right';
    ctx.fillText(text, s.ox - 4, y);
    return;
  }
  ctx.fillStyle = C.plotLabelBacking;
  ctx.fillRect(s.ox + 1, y - 1, w + 5, 12);
  ctx.fillStyle = C.plotText;
  ctx.textAlign = 'left';
  ctx.fillText(text, s.ox + 3, y);
}
