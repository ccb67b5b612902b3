// The curve editor's drawing into a recording 2D context. The square is 254 px (2 px per grid step) with
// its bottom-left at (30, 284), so a grid point (vx, vy) is at (30 + 2vx, 284 − 2vy): expected pixels are
// worked by hand from that.
import { describe, expect, it } from 'vitest';
import type { ChannelSeries } from '../../../shared/key-edits';
import type { Curve } from '../../../shared/vmd/bezier';
import { drawCurveEditor, formatPlotValue, fromPx, handlePoints, toPx, type CurveScene } from '../../../renderer/src/editor/curve-draw';
import { Recording2D } from './recording-2d';

const layout = { ox: 30, oy: 284, size: 254, plotTop: 300, plotHeight: 60 };
const LINEAR: Curve = [20, 20, 107, 107];
const CURVES: Curve[] = [[20, 30, 100, 110], [0, 0, 127, 127], [64, 0, 64, 127], LINEAR];
function scene(over: Partial<CurveScene> = {}): CurveScene {
  return { width: 320, height: 380, dpr: 2, layout, curves: CURVES, channel: 0, overlay: false, handle: 0, series: null, frame: 0, ...over };
}
/** Channel colours: X red, Y green, Z blue, rotation yellow. */
const X = '#ff6b6b', Y = '#5fd068', Z = '#4da3ff', R = '#f5c542';

describe('curve editor drawing', () => {
  it('maps grid points to pixels and back', () => {
    expect(toPx(layout, 0, 0)).toEqual([30, 284]);
    expect(toPx(layout, 127, 127)).toEqual([284, 30]);
    expect(toPx(layout, 20, 30)).toEqual([70, 224]);
    expect(fromPx(layout, 70, 224)).toEqual([20, 30]);
    // Outside the square clamps to 0..127 and rounds to the grid.
    expect(fromPx(layout, 0, 400)).toEqual([0, 0]);
    expect(fromPx(layout, 71.2, 222.9)).toEqual([21, 31]);
    expect(handlePoints(layout, [20, 30, 100, 110])).toEqual([[70, 224], [230, 64]]);
  });

  it('puts the control handles at their grid points, with arms from the curve\'s ends', () => {
    const ctx = new Recording2D();
    drawCurveEditor(ctx, scene());
    const handles = ctx.paths.filter((p) => p.arcs.length);
    // Each handle: one fill (dark inside) and one stroke (ring in the channel's colour), radius 6.
    expect(handles.map((p) => [p.how, p.style, p.arcs[0]])).toEqual([
      ['fill', '#15171b', { x: 70, y: 224, r: 6 }],
      ['stroke', X, { x: 70, y: 224, r: 6 }],
      ['fill', '#15171b', { x: 230, y: 64, r: 6 }],
      ['stroke', X, { x: 230, y: 64, r: 6 }],
    ]);
    const arms = ctx.paths.find((p) => p.how === 'stroke' && p.style === '#8b93a1')!;
    expect(arms.contours).toEqual([[[30, 284], [70, 224]], [[284, 30], [230, 64]]]);
  });

  it('highlights the handle being dragged, with a focus ring around it (it has the arrow keys)', () => {
    const ctx = new Recording2D();
    drawCurveEditor(ctx, scene({ handle: 2 }));
    const rings = ctx.paths.filter((p) => p.arcs.length && p.how === 'stroke');
    expect(rings.map((p) => [p.style, p.arcs[0].r])).toEqual([[X, 6], ['#ffb23e', 7], ['#ffb23e', 11]]);
    expect(rings[2].arcs[0].x).toBe(rings[1].arcs[0].x);
    expect(ctx.paths.filter((p) => p.arcs.length && p.how === 'fill').map((p) => p.style)).toEqual(['#15171b', '#ffffff']);
  });

  it('strokes the active channel\'s Bézier from corner to corner in its colour', () => {
    const ctx = new Recording2D();
    drawCurveEditor(ctx, scene({ channel: 3 }));
    // Strokes in its colour: the curve, then the two handle rings.
    const curve = ctx.paths.filter((p) => p.how === 'stroke' && p.style === R && !p.arcs.length);
    expect(curve).toHaveLength(1);
    expect(ctx.paths.filter((p) => p.how === 'stroke' && p.style === R && p.arcs.length)).toHaveLength(2);
    expect(curve[0].lineWidth).toBe(2.5);
    const pts = curve[0].contours[0];
    expect(pts).toHaveLength(65);
    expect(pts[0]).toEqual([30, 284]);
    expect(pts[64][0]).toBeCloseTo(284, 9);
    expect(pts[64][1]).toBeCloseTo(30, 9);
    // The linear preset's handles on the diagonal make the curve the diagonal: y = 314 − x everywhere.
    for (const [x, y] of pts) expect(x + y).toBeCloseTo(314, 6);
    // Its handles at (20, 20) and (107, 107).
    expect(ctx.paths.filter((p) => p.arcs.length && p.how === 'fill').map((p) => [p.arcs[0].x, p.arcs[0].y])).toEqual([[70, 244], [244, 70]]);
  });

  it('overlays the other channels faintly only when asked', () => {
    const alone = new Recording2D();
    drawCurveEditor(alone, scene({ channel: 1 }));
    expect(alone.paths.filter((p) => p.how === 'stroke' && p.contours[0]?.length === 65).map((p) => p.style)).toEqual([Y]);
    const over = new Recording2D();
    drawCurveEditor(over, scene({ channel: 1, overlay: true }));
    const strokes = over.paths.filter((p) => p.how === 'stroke' && p.contours[0]?.length === 65);
    expect(strokes.map((p) => [p.style, p.lineWidth])).toEqual([[X + '99', 1.5], [Z + '99', 1.5], [R + '99', 1.5], [Y, 2.5]]);
  });

  it('with no key: a faint empty square, no handles and no plot', () => {
    const ctx = new Recording2D();
    drawCurveEditor(ctx, scene({ curves: null }));
    expect(ctx.paths.some((p) => p.arcs.length)).toBe(false);
    const square = ctx.calls.find((c) => c.op === 'fillRect' && c.fill === '#1b1e24')!;
    expect(square.args).toEqual([30, 30, 254, 254]);
    expect(square.alpha).toBe(0.45);
    // Only the square's one panel fill: the plot strip (also #1b1e24) is not drawn.
    expect(ctx.rects('#1b1e24')).toHaveLength(1);
    expect(ctx.calls[0]).toMatchObject({ op: 'setTransform', args: [2, 0, 0, 2, 0, 0] });
    expect(ctx.rects('#15171b')).toEqual([[0, 0, 320, 380]]);
  });

  it('plots the segment\'s values under the square: one dot per frame, the current frame, labels', () => {
    const series: ChannelSeries = { from: 10, to: 12, values: Float64Array.from([0, 5, 10]), start: 0, end: 10, unit: 'position' };
    const ctx = new Recording2D();
    drawCurveEditor(ctx, scene({ series, frame: 11 }));
    // x: 30 + i/2 · 254; y: 300 + 60 − 6 − (v / 10) · 48.
    const dots = ctx.rects(X).map(([x, y]) => [x + 1.5, y + 1.5]);
    expect(dots).toEqual([[30, 354], [157, 330], [284, 306]]);
    expect(ctx.rects('#ff5a5f')).toEqual([[157, 300, 1, 60]]);
    const line = ctx.paths.find((p) => p.how === 'stroke' && p.style === X && p.lineWidth === 1.5)!;
    expect(line.contours[0]).toEqual([[30, 354], [157, 330], [284, 306]]);
    const area = ctx.paths.find((p) => p.how === 'fill' && p.style === X + '22')!;
    expect(area.closed).toBe(true);
    expect(area.contours[0]).toEqual([[30, 360], [30, 354], [157, 330], [284, 306], [284, 360]]);
    expect(ctx.texts().slice(-4).map((t) => [t.text, t.x, t.y, t.align])).toEqual([
      ['10', 30, 363, 'start'], ['12', 284, 363, 'right'], ['0.000', 26, 348, 'right'], ['10.00', 26, 302, 'right'],
    ]);
    // A falling segment: the strip's top is still its largest value, the bottom its smallest.
    const falling = new Recording2D();
    drawCurveEditor(falling, scene({ series: { ...series, values: Float64Array.from([10, 5, 2]), start: 10, end: 2 } }));
    expect(falling.texts().slice(-2).map((t) => [t.text, t.x, t.y, t.align])).toEqual([['2.000', 26, 348, 'right'], ['10.00', 26, 302, 'right']]);
    // A pane too narrow for a label beside the strip: inside its left edge, on a backing, not cut off.
    const narrow = new Recording2D();
    drawCurveEditor(narrow, scene({ series: { ...series, values: Float64Array.from([-12.5, 0, 10]), start: -12.5, end: 10 } }));
    const [low, high] = narrow.texts().slice(-2);
    expect([low.text, low.x, low.y, low.align]).toEqual(['-12.50', 33, 348, 'left']);
    expect(narrow.rects('rgba(20,22,27,0.85)')).toEqual([[31, 347, 35, 12]]);
    expect([high.text, high.x, high.align]).toEqual(['10.00', 26, 'right']);
    // A frame outside the segment is not marked.
    const outside = new Recording2D();
    drawCurveEditor(outside, scene({ series, frame: 13 }));
    expect(outside.rects('#ff5a5f')).toEqual([]);
  });

  it('draws a fit preview\'s result over the original in the plot strip instead of the live plot', () => {
    const series: ChannelSeries = { from: 10, to: 12, values: Float64Array.from([0, 5, 10]), start: 0, end: 10, unit: 'position' };
    const fit = { original: Float64Array.from([0, 1, 2]), result: Float64Array.from([0, 2, 2]), from: 0, to: 40 };
    const ctx = new Recording2D();
    drawCurveEditor(ctx, scene({ series, frame: 11, fit }));
    // One scale for both (0..2): x = 30 + i/2 · 254; y = 300 + 60 − 4 − (v / 2) · 52.
    const grey = ctx.paths.filter((p) => p.how === 'stroke' && p.style === '#8b93a1' && p.lineWidth === 3);
    const orange = ctx.paths.filter((p) => p.how === 'stroke' && p.style === '#ffb23e' && p.lineWidth === 1.2);
    expect(grey.map((p) => p.contours)).toEqual([[[[30, 356], [157, 330], [284, 304]]]]);
    expect(orange.map((p) => p.contours)).toEqual([[[[30, 356], [157, 304], [284, 304]]]]);
    // The result is drawn after (over) the original.
    expect(ctx.paths.indexOf(orange[0])).toBeGreaterThan(ctx.paths.indexOf(grey[0]));
    // The live plot's line, dots and cursor give way; the strip's labels are the whole track's frames.
    expect(ctx.paths.some((p) => p.style === X && p.lineWidth === 1.5)).toBe(false);
    expect(ctx.rects('#ff5a5f')).toEqual([]);
    expect(ctx.texts().slice(-2).map((t) => [t.text, t.x, t.y, t.align])).toEqual([['0', 30, 363, 'start'], ['40', 284, 363, 'right']]);
    // With no key selected the square stays empty but the overlay is still drawn.
    const none = new Recording2D();
    drawCurveEditor(none, scene({ curves: null, fit }));
    expect(none.paths.some((p) => p.arcs.length)).toBe(false);
    expect(none.paths.filter((p) => p.style === '#ffb23e' && p.lineWidth === 1.2).map((p) => p.contours[0])).toEqual([[[30, 356], [157, 304], [284, 304]]]);
    // Without a preview nothing orange of that width is drawn.
    const plain = new Recording2D();
    drawCurveEditor(plain, scene({ series }));
    expect(plain.paths.some((p) => p.style === '#ffb23e' && p.lineWidth === 1.2)).toBe(false);
  });

  it('marks a Simplify preview\'s kept keys on the result\'s line, only while there is room', () => {
    // Span of 4 frames, 5 samples; keys kept at frames 0, 1 and 4 of it (fractions 0, 1/4, 1).
    const fit = { original: Float64Array.from([0, 1, 2, 3, 4]), result: Float64Array.from([0, 1, 2, 3, 4]), from: 10, to: 14, keys: Float64Array.from([0, 0.25, 1]) };
    const ctx = new Recording2D();
    drawCurveEditor(ctx, scene({ fit }));
    // x = 30 + u · 254, y = 300 + 60 − 4 − (v / 4) · 52 at the sample nearest u; squares of 4 px centred there.
    expect(ctx.rects('#ffb23e')).toEqual([[28, 354, 4, 4], [91.5, 341, 4, 4], [282, 302, 4, 4]]);
    // More keys than one per 4 px of the strip: no squares (they would be a solid bar).
    const dense = new Recording2D();
    drawCurveEditor(dense, scene({ fit: { ...fit, keys: Float64Array.from({ length: 64 }, (_, i) => i / 63) } }));
    expect(dense.rects('#ffb23e')).toEqual([]);
    // A preview without keys (Reduce, Bake, Speed) draws none.
    const whole = new Recording2D();
    drawCurveEditor(whole, scene({ fit: { ...fit, keys: undefined } }));
    expect(whole.rects('#ffb23e')).toEqual([]);
  });

  it('formats plotted values to about four significant digits', () => {
    expect(formatPlotValue(1.23456)).toBe('1.235');
    expect(formatPlotValue(-12.3456)).toBe('-12.35');
    expect(formatPlotValue(123.456)).toBe('123.5');
  });
});
