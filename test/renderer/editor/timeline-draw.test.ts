// The timeline's drawing into a recording 2D context, over a small hand-built motion: bone A at 0, 10,
// 40; bone B at 5, 25; camera at 0, 30, 31, 60, 61 (cuts at 31 and 61). Rows by hand: a group, A, B, the
// camera. Expected pixels are worked from the view maths (x = (frame − frameStart) · pxPerFrame,
// timeline-math.xOfFrame) and the row geometry (ruler 26 px, rows 22 px).
import { describe, expect, it } from 'vitest';
import type { EditKind } from '../../../shared/key-edits';
import { buildTracks, buildVmd } from '../../../shared/vmd';
import { blockFromRecords } from '../../../shared/vmd/vmd-document';
import { drawTimeline, rulerStep, type TimelineScene } from '../../../renderer/src/editor/timeline-draw';
import { xOfFrame } from '../../../renderer/src/editor/timeline-math';
import type { Row } from '../../../renderer/src/editor/timeline-view';
import { Recording2D } from './recording-2d';
import { cam, twoBoneMotion } from './two-bone-fixture';

const SEL = '#ffb23e', KEY = '#b9c4d6', CUT = '#e0565b', CURSOR = '#ff5a5f', SUMMARY = '#6c7689', ACTIVE = 'rgba(88,140,255,0.10)';
// Camera keys at 0, 30, 31, 60, 61: cuts at 31 and 61.
const doc = twoBoneMotion([0, 30, 31, 60, 61]);
const tracks = buildTracks(doc);
const A = tracks.bones.names.indexOf('A'), B = tracks.bones.names.indexOf('B');
const trackRow = (kind: EditKind, track: number, name: string): Row => ({ type: 'track', id: `${kind}:${track}`, kind, track, name, group: 'g', keys: 0 });
const group = (collapsed: boolean): Row => ({
  type: 'group', id: 'g', label: 'editor.group.other', count: 5, collapsed,
  members: [{ kind: 'bone', track: A }, { kind: 'bone', track: B }],
});
const ROWS: Row[] = [group(false), trackRow('bone', A, 'A'), trackRow('bone', B, 'B'), trackRow('camera', 0, 'camera')];
/** Centre y of row i with no vertical scroll: 26 + 22·i + 11. */
const cy = (i: number, scrollY = 0) => 26 + 22 * i + 11 - scrollY;

const none = () => ({ bone: new Set<number>(), morph: new Set<number>(), camera: new Set<number>(), light: new Set<number>(), shadow: new Set<number>(), ik: new Set<number>() });
function scene(over: Partial<TimelineScene> = {}): TimelineScene {
  return {
    view: { frameStart: -2, pxPerFrame: 6, scrollY: 0, width: 600, height: 200 },
    dpr: 1, rows: ROWS, tracks, selected: none(), activeTrack: null, moveDelta: 0, box: null, frame: 0, range: null,
    ...over,
  };
}
/** Diamonds of the key fills in a colour, as [x, centre y] (each contour starts at the top point x, y − r). */
function diamonds(ctx: Recording2D, fill: string, r = 5): [number, number][] {
  return ctx.paths.filter((p) => p.how === 'fill' && p.style === fill).flatMap((p) => p.contours.map((c) => [c[0][0], c[0][1] + r] as [number, number]));
}
const px = (v: TimelineScene['view'], f: number) => Math.round(xOfFrame(v, f)) + 0.5;

describe('timeline drawing', () => {
  it('draws each key as a diamond at the x the view maths gives, on its row', () => {
    const s = scene();
    const ctx = new Recording2D();
    drawTimeline(ctx, s);
    const got = diamonds(ctx, KEY).sort((p, q) => p[1] - q[1] || p[0] - q[0]);
    // A (row 1) at 0, 10, 40; B (row 2) at 5, 25; camera (row 3) at 0, 30, 31, 60, 61.
    const want: [number, number][] = [
      ...[0, 10, 40].map((f) => [px(s.view, f), cy(1)] as [number, number]),
      ...[5, 25].map((f) => [px(s.view, f), cy(2)] as [number, number]),
      ...[0, 30, 31, 60, 61].map((f) => [px(s.view, f), cy(3)] as [number, number]),
    ];
    expect(got).toEqual(want);
    // At 6 px/frame frame 10 is at (10 + 2)·6 = 72 → 72.5; each diamond has its four corners 5 px out (A@0: x 12.5, row 1 centre 59).
    expect(got).toContainEqual([72.5, 59]);
    const contour = ctx.paths.find((p) => p.style === KEY)!.contours[0];
    expect(contour).toEqual([[12.5, 54], [17.5, 59], [12.5, 64], [7.5, 59], [12.5, 54]]);
    // The same diamonds get a dark edge when not zoomed far out.
    expect(ctx.paths.some((p) => p.how === 'stroke' && p.style === '#0e1014')).toBe(true);
  });

  it('draws only the keys inside the view and the rows scrolled into it', () => {
    // Frames 12.5 .. 12.5 + 200/8 = 37.5 visible; rows: scrolled by one row, so the group row is gone.
    const s = scene({ view: { frameStart: 12.5, pxPerFrame: 8, scrollY: 22, width: 200, height: 26 + 22 * 2 } });
    const ctx = new Recording2D();
    drawTimeline(ctx, s);
    const got = diamonds(ctx, KEY);
    // Rows 1 (A) and 2 (B) are in view (last = floor((22 + 70 − 26) / 22) = 3 is the camera row, partly).
    // A: 0, 10, 40 are outside 11.5..38.5 (one frame of margin); B: 25 only; camera: 30, 31.
    expect(got.map(([x, y]) => [(x - 0.5) / 8 + 12.5, y])).toEqual([[25, cy(2, 22)], [30, cy(3, 22)], [31, cy(3, 22)]]);
    // Row backgrounds: only rows 1..3 painted (at y = 26 + 22i − 22).
    const bgYs = ctx.calls.filter((c) => c.op === 'fillRect' && ['#1c1f25', '#1f222a', '#262a33'].includes(c.fill)).map((c) => c.args[1]);
    expect(bgYs).toEqual([26, 48, 70]);
  });

  it('draws selected keys in the selection colour, moved by a drag', () => {
    const sel = none();
    sel.bone.add(3); // A@10
    sel.camera.add(3); // camera@60
    const s = scene({ selected: sel });
    const ctx = new Recording2D();
    drawTimeline(ctx, s);
    expect(diamonds(ctx, SEL)).toEqual([[px(s.view, 10), cy(1)], [px(s.view, 60), cy(3)]]);
    expect(diamonds(ctx, KEY)).not.toContainEqual([px(s.view, 10), cy(1)]);
    expect(diamonds(ctx, KEY)).toHaveLength(8);
    // Dragging by 4 frames: the selected keys are drawn 4 frames later, the others stay.
    const moved = new Recording2D();
    drawTimeline(moved, scene({ selected: sel, moveDelta: 4 }));
    expect(diamonds(moved, SEL)).toEqual([[px(s.view, 14), cy(1)], [px(s.view, 64), cy(3)]]);
    expect(diamonds(moved, KEY)).toEqual(diamonds(ctx, KEY));
  });

  it('marks camera cuts (a key one frame after the previous one) and counts them', () => {
    const s = scene();
    const ctx = new Recording2D();
    expect(drawTimeline(ctx, s)).toEqual({ cuts: 2 });
    // A bar 2 px wide left of the key's centre line, row height − 4 tall.
    expect(ctx.rects(CUT)).toEqual([31, 61].map((f) => [px(s.view, f) - 1.5, cy(3) - 11 + 2, 2, 18]));
    // Zoomed far out (0.5 px/frame) keys thin out to one per 3 px, but both cuts stay marked.
    const far = new Recording2D();
    expect(drawTimeline(far, scene({ view: { frameStart: -2, pxPerFrame: 0.5, scrollY: 0, width: 600, height: 200 } }))).toEqual({ cuts: 2 });
    // The camera has none when it is scrolled out of view.
    expect(drawTimeline(new Recording2D(), scene({ rows: ROWS.slice(0, 3) }))).toEqual({ cuts: 0 });
  });

  it('zoomed far out draws keys as rectangles, at most one per 3 px', () => {
    const v = { frameStart: -2, pxPerFrame: 0.5, scrollY: 0, width: 600, height: 200 };
    const ctx = new Recording2D();
    drawTimeline(ctx, scene({ view: v }));
    expect(ctx.paths.filter((p) => p.style === KEY)).toHaveLength(0);
    // A rect 3 × 6 centred on the key: A at 0, then 10 (5 px on), then 40; the camera's 30/31 and 60/61
    // are 0.5 px apart, so only 30 and 60 are drawn (with 0).
    const rects = ctx.rects(KEY).map(([x, y, w, h]) => [x + w / 2, y + h / 2, w, h]);
    expect(rects).toEqual([
      [px(v, 0), cy(1), 3, 6], [px(v, 10), cy(1), 3, 6], [px(v, 40), cy(1), 3, 6],
      [px(v, 5), cy(2), 3, 6], [px(v, 25), cy(2), 3, 6],
      [px(v, 0), cy(3), 3, 6], [px(v, 30), cy(3), 3, 6], [px(v, 60), cy(3), 3, 6],
    ]);
  });

  it('a collapsed group shows its members\' keys as summary diamonds on its own row', () => {
    const s = scene({ rows: [group(true), trackRow('camera', 0, 'camera')] });
    const ctx = new Recording2D();
    drawTimeline(ctx, s);
    expect(diamonds(ctx, SUMMARY, 3.5)).toEqual([0, 10, 40, 5, 25].map((f) => [px(s.view, f), cy(0)]));
  });

  it('marks the active row, the playhead, the play range and the box being dragged', () => {
    const s = scene({ activeTrack: { kind: 'bone', track: B }, frame: 25, range: { from: 10, to: 40 }, box: { x0: 100, y0: 80, x1: 40, y1: 50 } });
    const ctx = new Recording2D();
    drawTimeline(ctx, s);
    expect(ctx.rects(ACTIVE)).toEqual([[0, 26 + 44, 600, 22]]);
    const xc = px(s.view, 25);
    // The line over the rows (from their top, 26, to the bottom), then from the ruler down to them.
    expect(ctx.rects(CURSOR)).toEqual([[xc - 0.5, 26, 1.5, 174], [xc - 0.5, 22, 1.5, 4]]);
    const head = ctx.paths.find((p) => p.style === CURSOR)!;
    expect(head.contours[0]).toEqual([[xc - 6, 14], [xc + 6, 14], [xc, 22]]);
    expect(ctx.rects('rgba(79,179,200,0.35)')).toEqual([[xOfFrame(s.view, 10), 0, xOfFrame(s.view, 40) - xOfFrame(s.view, 10), 25]]);
    expect(ctx.rects('rgba(255,178,62,0.12)')).toEqual([[40, 50, 60, 30]]);
    // A playhead far outside the view is not drawn.
    const off = new Recording2D();
    drawTimeline(off, scene({ frame: 1000 }));
    expect(off.rects(CURSOR)).toEqual([]);
  });

  it('draws a selected key at the playhead over the playhead line, other keys under it', () => {
    // Zoomed far out (rectangles) and close (diamonds): A@10 selected, the playhead at 10.
    for (const pxPerFrame of [0.5, 6]) {
      const view = { frameStart: -2, pxPerFrame, scrollY: 0, width: 600, height: 200 };
      const sel = none();
      sel.bone.add(3); // A@10
      // Every fill in the order drawn, with its colour (rectangles and paths alike).
      const order: string[] = [];
      const ctx = new (class extends Recording2D {
        override fillRect(x: number, y: number, w: number, h: number) {
          order.push(String(this.fillStyle));
          super.fillRect(x, y, w, h);
        }
        override fill() {
          order.push(String(this.fillStyle));
          super.fill();
        }
      })();
      drawTimeline(ctx, scene({ view, selected: sel, frame: 10 }));
      const line = order.indexOf(CURSOR);
      const selDrawn = order.indexOf(SEL);
      const keyDrawn = order.indexOf(KEY);
      expect(line).toBeGreaterThan(0);
      expect(selDrawn, `selected key after the line at ${pxPerFrame} px/frame`).toBeGreaterThan(line);
      expect(keyDrawn).toBeLessThan(line);
    }
  });

  it('labels the ruler every step of at least 64 px', () => {
    expect(rulerStep(6)).toBe(15);
    expect(rulerStep(0.02)).toBe(6000);
    expect(rulerStep(0.001)).toBe(60000);
    const ctx = new Recording2D();
    drawTimeline(ctx, scene());
    // 600 px at 6 px/frame from −2: frames up to 98, labels at 0, 15, … 90 at x + 3.
    expect(ctx.texts().map((t) => [t.text, t.x])).toEqual([0, 15, 30, 45, 60, 75, 90].map((f) => [String(f), (f + 2) * 6 + 0.5 + 3]));
  });

  it('with Beats on draws a faint line per beat in view across the key rows, none without beats', () => {
    const BEAT = 'rgba(232,194,90,0.22)';
    // View from frame −2 at 6 px/frame, 600 px wide: frames −2 … 98 are in view. Beats at −10 (left of
    // the view), 0, 12.5, 97.9 and 120 (right of it): columns floor((f + 2) · 6) = 12, 87, 599.
    const ctx = new Recording2D();
    drawTimeline(ctx, scene({ beats: [-10, 0, 12.5, 97.9, 120] }));
    expect(ctx.rects(BEAT)).toEqual([[12, 26, 1, 174], [87, 26, 1, 174], [599, 26, 1, 174]]);
    // Under the music band (45 px) the lines, like the rows, start below it.
    const banded = new Recording2D();
    drawTimeline(banded, scene({ view: { frameStart: -2, pxPerFrame: 6, scrollY: 0, width: 600, height: 200, band: 45 }, beats: [0] }));
    expect(banded.rects(BEAT)).toEqual([[12, 71, 1, 129]]);
    const off = new Recording2D();
    drawTimeline(off, scene({ beats: null }));
    drawTimeline(off, scene({ beats: [] }));
    expect(off.rects(BEAT)).toEqual([]);
  });

  it('starts the rows and their keys under the music band when there is one', () => {
    const band = 45;
    const s = scene({ view: { frameStart: -2, pxPerFrame: 6, scrollY: 0, width: 600, height: 200, band }, activeTrack: { kind: 'bone', track: B } });
    const ctx = new Recording2D();
    drawTimeline(ctx, s);
    // B is row 2: its band at 26 + 45 + 44, its keys (5, 25) centred 11 px lower.
    expect(ctx.rects(ACTIVE)).toEqual([[0, 26 + band + 44, 600, 22]]);
    expect(diamonds(ctx, KEY).filter(([, y]) => y === cy(2) + band).map(([x]) => x)).toEqual([px(s.view, 5), px(s.view, 25)]);
    // The ruler stays on top: its labels at the same place as without the band.
    expect(ctx.texts()[0]).toMatchObject({ text: '0', x: 12 + 0.5 + 3 });
  });

  it('draws rows but no keys with no motion open', () => {
    const ctx = new Recording2D();
    expect(drawTimeline(ctx, scene({ tracks: null, rows: [] }))).toEqual({ cuts: 0 });
    expect(ctx.paths.filter((p) => p.style === KEY || p.style === SEL)).toEqual([]);
    expect(ctx.calls[0]).toMatchObject({ op: 'setTransform', args: [1, 0, 0, 1, 0, 0] });
  });
});

describe('timeline drawing of two scene documents (timeline-rows.ts)', () => {
  // The actor (document 1) is the motion above without its camera; the camera document (2) holds camera
  // keys at 3, 20 and 21 (a cut at 21). Rows: the actor's A, then the camera document's camera row.
  const camDoc = buildTracks({ ...buildVmd({}), camera: blockFromRecords('camera', [cam(3), cam(20), cam(21)]) });
  const rows: Row[] = [
    { ...(trackRow('bone', A, 'A') as Extract<Row, { type: 'track' }>), doc: 1 },
    { ...(trackRow('camera', 0, 'camera') as Extract<Row, { type: 'track' }>), doc: 2 },
  ];

  it('each row draws its own document’s keys; the selection and the active row are the active document’s only', () => {
    // Actor active: camera record 0 "selected" (a record of the actor's own camera block) must not mark the
    // camera document's record 0; the active track (camera) must not light the other document's camera row.
    const sel = none();
    sel.camera.add(0);
    sel.bone.add(tracks.bones.record[tracks.bones.start[A] + 1]); // A@10
    const s = scene({ rows, tracks, activeDoc: 1, others: new Map([[2, camDoc]]), selected: sel, activeTrack: { kind: 'camera', track: 0 }, moveDelta: 2 });
    const ctx = new Recording2D();
    const drawn = drawTimeline(ctx, s);
    // The actor's A at 0 and 40 plain, 10 selected and drawn moved by 2 (at 12); the camera row's keys at
    // 3, 20, 21 from the camera document (not the actor's own camera keys at 0, 30, 31, 60, 61), none selected, none moved.
    expect(diamonds(ctx, KEY).sort((p, q) => p[1] - q[1] || p[0] - q[0])).toEqual([
      [px(s.view, 0), cy(0)], [px(s.view, 40), cy(0)],
      [px(s.view, 3), cy(1)], [px(s.view, 20), cy(1)], [px(s.view, 21), cy(1)],
    ]);
    expect(diamonds(ctx, SEL)).toEqual([[px(s.view, 12), cy(0)]]);
    expect(drawn.cuts).toBe(1);
    expect(ctx.rects(ACTIVE)).toEqual([]);

    // Camera document active (its tracks the editor's, the actor's kept): the selection marks its record 0 (frame 3).
    const sel2 = none();
    sel2.camera.add(0);
    const s2 = scene({ rows, tracks: camDoc, activeDoc: 2, others: new Map([[1, tracks]]), selected: sel2, activeTrack: { kind: 'camera', track: 0 } });
    const ctx2 = new Recording2D();
    drawTimeline(ctx2, s2);
    expect(diamonds(ctx2, SEL)).toEqual([[px(s2.view, 3), cy(1)]]);
    expect(diamonds(ctx2, KEY).filter((d) => d[1] === cy(0)).map((d) => d[0])).toEqual([0, 10, 40].map((f) => px(s2.view, f)));
    // The active row's tint lies on the camera row (row 1: y 48).
    expect(ctx2.rects(ACTIVE)).toEqual([[0, 26 + 22, 600, 22]]);
  });
});

// nusync 7: frames only on the ruler; at coarse zoom (a label every 5 s or more) each label also says its time.
describe('the ruler’s times', () => {
  const RULER_TEXT = '#8b93a1', RULER_CLOCK = '#5c6472';
  it('at a label every 300 frames (10 s) each says m:ss after its frame, dimmer; none at a fine zoom', () => {
    // 0.25 px per frame: the first step at least 64 px wide is 300 (75 px); 600 px show frames 0–2400.
    const s = scene({ view: { frameStart: 0, pxPerFrame: 0.25, scrollY: 0, width: 600, height: 200 } });
    const ctx = new Recording2D();
    drawTimeline(ctx, s);
    const texts = ctx.texts();
    expect(texts.filter((t) => t.fill === RULER_TEXT && /^\d+$/.test(t.text)).map((t) => t.text)).toEqual(['0', '300', '600', '900', '1200', '1500', '1800', '2100', '2400']);
    const clocks = texts.filter((t) => t.fill === RULER_CLOCK);
    expect(clocks.map((t) => t.text)).toEqual(['0:00', '0:10', '0:20', '0:30', '0:40', '0:50', '1:00', '1:10', '1:20']);
    // After its frame label: the tick at 300 · 0.25 = 75 → 75.5, the label 3 px on, 15 px wide (the recording
    // context's 5 px a character), 5 px of gap.
    expect(clocks[1].x).toBe(75.5 + 3 + 15 + 5);
    // At 6 px per frame (a label every 15 frames) the ruler says frames only.
    const fine = new Recording2D();
    drawTimeline(fine, scene());
    expect(fine.texts().filter((t) => t.fill === RULER_CLOCK)).toEqual([]);
  });
});

describe('the 表示・IK row’s spans', () => {
  const IK_OFF = 'rgba(255,140,60,0.30)', HIDDEN = '#9a7cff';
  const ikRow: Row = { type: 'track', id: 'ik', kind: 'ik', track: 0, name: 'editor.track.ik', group: 'ik', keys: 2 };
  const rects = (ctx: Recording2D, fill: string) => ctx.calls.filter((c) => c.op === 'fillRect' && c.fill === fill).map((c) => c.args);

  it('shades IK off from its key to the next on key, and bars the display-off span, on the 表示・IK row only', () => {
    // Row 0 is the 表示・IK row (y 26..48), row 1 bone A. View: frame −2 at x 0, 6 px/frame, 600 px wide (to frame 98).
    const s = scene({ rows: [ikRow, ROWS[1]], ikSpans: { off: [{ from: 10, to: 50, names: ['右足ＩＫ'] }, { from: 70, to: Infinity, names: ['左足ＩＫ'] }], hidden: [{ from: 40, to: 50 }] } });
    const ctx = new Recording2D();
    drawTimeline(ctx, s);
    // x of 10 = 12·6 = 72, of 50 = 312, of 70 = 432; Infinity stops at the right edge (600). Inset 2 px in the 22 px row.
    expect(rects(ctx, IK_OFF)).toEqual([[72, 28, 240, 18], [432, 28, 168, 18]]);
    // Display off 40–50: x 252 to 312, a 3 px bar at the row's foot (26 + 22 − 4).
    expect(rects(ctx, HIDDEN)).toEqual([[252, 44, 60, 3]]);
  });

  it('nothing on other rows, nor without spans', () => {
    const ctx = new Recording2D();
    drawTimeline(ctx, scene({ ikSpans: { off: [{ from: 10, to: 50, names: ['右足ＩＫ'] }], hidden: [{ from: 40, to: 50 }] } }));
    expect(rects(ctx, IK_OFF)).toEqual([]);
    expect(rects(ctx, HIDDEN)).toEqual([]);
  });
});
