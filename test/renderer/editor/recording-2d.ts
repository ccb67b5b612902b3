/**
 * A 2D context that records what is drawn instead of drawing it: every call with the style in force at
 * that moment, and each filled or stroked path as its points (moveTo/lineTo) and arcs since beginPath.
 * The draw modules' tests read these to check where things land and in which colour.
 */
import type { Canvas2D } from '../../../renderer/src/editor/palette';

export interface Call {
  op: string;
  args: (number | string | number[])[];
  fill: string;
  stroke: string;
  alpha: number;
  lineWidth: number;
  font: string;
  textAlign: string;
}

export interface PathDraw {
  /** 'fill' or 'stroke'. */
  how: 'fill' | 'stroke';
  /** fillStyle for a fill, strokeStyle for a stroke. */
  style: string;
  lineWidth: number;
  alpha: number;
  /** Contours: each starts at a moveTo. */
  contours: [number, number][][];
  arcs: { x: number; y: number; r: number }[];
  closed: boolean;
  dashed: boolean;
}

export class Recording2D implements Canvas2D {
  fillStyle: string | CanvasGradient | CanvasPattern = '#000000';
  strokeStyle: string | CanvasGradient | CanvasPattern = '#000000';
  lineWidth = 1;
  globalAlpha = 1;
  font = '10px sans-serif';
  textBaseline: CanvasTextBaseline = 'alphabetic';
  textAlign: CanvasTextAlign = 'start';
  readonly calls: Call[] = [];
  readonly paths: PathDraw[] = [];
  private contours: [number, number][][] = [];
  private arcs: { x: number; y: number; r: number }[] = [];
  private closed = false;
  private dash: number[] = [];

  private rec(op: string, args: Call['args']) {
    this.calls.push({
      op, args, fill: String(this.fillStyle), stroke: String(this.strokeStyle), alpha: this.globalAlpha,
      lineWidth: this.lineWidth, font: this.font, textAlign: this.textAlign,
    });
  }
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number) { this.rec('setTransform', [a, b, c, d, e, f]); }
  fillRect(x: number, y: number, w: number, h: number) { this.rec('fillRect', [x, y, w, h]); }
  strokeRect(x: number, y: number, w: number, h: number) { this.rec('strokeRect', [x, y, w, h]); }
  fillText(text: string, x: number, y: number) { this.rec('fillText', [text, x, y]); }
  beginPath() {
    this.contours = [];
    this.arcs = [];
    this.closed = false;
  }
  moveTo(x: number, y: number) { this.contours.push([[x, y]]); }
  lineTo(x: number, y: number) {
    if (!this.contours.length) this.contours.push([]);
    this.contours[this.contours.length - 1].push([x, y]);
  }
  closePath() { this.closed = true; }
  arc(x: number, y: number, r: number) { this.arcs.push({ x, y, r }); }
  setLineDash(segments: number[]) { this.dash = [...segments]; }
  /** A fixed 5 px per character (about the 10 px UI font's digits). */
  measureText(text: string) { return { width: 5 * text.length }; }
  fill() { this.endPath('fill', String(this.fillStyle)); }
  stroke() { this.endPath('stroke', String(this.strokeStyle)); }
  private endPath(how: 'fill' | 'stroke', style: string) {
    this.paths.push({
      how, style, lineWidth: this.lineWidth, alpha: this.globalAlpha, closed: this.closed, dashed: this.dash.length > 0,
      contours: this.contours.map((c) => c.map((p) => [p[0], p[1]] as [number, number])), arcs: [...this.arcs],
    });
  }

  /** fillRect calls in one colour, as [x, y, w, h]. */
  rects(fill: string): number[][] {
    return this.calls.filter((c) => c.op === 'fillRect' && c.fill === fill).map((c) => c.args as number[]);
  }
  /** Texts drawn, in order. */
  texts(): { text: string; x: number; y: number; fill: string; align: string }[] {
    return this.calls.filter((c) => c.op === 'fillText').map((c) => ({ text: c.args[0] as string, x: c.args[1] as number, y: c.args[2] as number, fill: c.fill, align: c.textAlign }));
  }
}
