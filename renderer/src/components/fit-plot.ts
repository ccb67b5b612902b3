/**
 * The before/after plot of a fit (FitPreview.vue: the fit preview's track; BakePlot.vue: a bone a bake keys,
 * in the physics and IK bake dialogs): drawn at the size its box is shown (and the screen's pixel ratio), not stretched from a fixed
 * buffer, on the curve editor's background, with the overlay the caller builds for that many columns.
 */
import { drawFitLines } from '../editor/curve-draw';
import { CURVE_COLORS } from '../editor/palette';
import { fitCanvasToBox } from '../editor/canvas-size';
import type { FitPlot } from '../stores/fit-preview';

/**
 * Draws the plot on `canvas`, sized to `box`. `overlay(columns)` gives the lines (null: the background
 * only). Returns the lines drawn, null for none, or undefined when the canvas has no 2D context (nothing
 * was done).
 */
export function drawFitPlot(canvas: HTMLCanvasElement, box: HTMLElement, overlay: (columns: number) => FitPlot | null): FitPlot | null | undefined {
  const ctx = canvas.getContext('2d');
  if (!ctx) return undefined;
  const { w, h, dpr } = fitCanvasToBox(canvas, box, 120, 60);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = CURVE_COLORS.bg;
  ctx.fillRect(0, 0, w, h);
  const o = overlay(Math.max(2, Math.floor(w)));
  if (o) drawFitLines(ctx, { x: 0, y: 0, w, h }, o);
  return o;
}
