/**
 * The dope sheet's canvas drawing, as pure functions of a 2D context and plain data (view, rows, tracks,
 * selection, gesture): row backgrounds, the motion's end, the grid, keys (only the visible rows and, per
 * row, at most one key per few pixels), camera cuts, the box being dragged, the ruler with the play range,
 * and the playhead. Timeline.vue keeps the state and the pointer handling and calls drawTimeline.
 */
import { lowerBound, trackRange, tracksOf, type EditKind } from '../../../shared/key-edits';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import { CANVAS_FONTS, TIMELINE_COLORS as C, type Canvas2D } from './palette';
import { nearestBeat } from '../../../shared/scene/beats';
import { ROW_HEIGHT, RULER_HEIGHT, rowsTop } from './timeline-math';
import { isOwnRow, rowTracks, type Row } from './timeline-rows';
import { rulerClockText } from './clock-text';
import type { IkSpans } from '../../../shared/skeleton/ik-switches';

/** Everything one drawing of the timeline shows. */
export interface TimelineScene {
  /**
   * Frame at the left edge, zoom, vertical scroll and the key area's size (CSS px); `band`: the music
   * row's height under the ruler (drawn over by MusicRow.vue), the rows start below it (0 when absent).
   */
  view: { frameStart: number; pxPerFrame: number; scrollY: number; width: number; height: number; band?: number };
  dpr: number;
  rows: readonly Row[];
  /** The active document's tracks (rows without `doc`, or with the active one's). */
  tracks: MotionTracks | null;
  /** The scene entry id of the active document (null: not a scene). */
  activeDoc?: number | null;
  /** The other documents' tracks, by scene entry id: their rows' keys (timeline-rows.ts rowTracks). */
  others?: ReadonlyMap<number, MotionTracks> | null;
  /** Selected records per kind (of the active document). */
  selected: Readonly<Record<EditKind, { readonly size: number; has(record: number): boolean }>>;
  activeTrack: { kind: EditKind; track: number } | null;
  /** Frames the selected keys are being dragged by (drawn there), 0 when not dragging. */
  moveDelta: number;
  /** The box-select rectangle being dragged (canvas px), or null. */
  box: { x0: number; y0: number; x1: number; y1: number } | null;
  /** The playhead. */
  frame: number;
  /** The play range (looping a segment), or null. */
  range: { from: number; to: number } | null;
  /** Beat markers' motion frames (ascending) when Beats is on: faint lines across the rows. */
  beats?: ArrayLike<number> | null;
  /** The active document's 表示・IK spans (shared ikSpansOf): shaded on its 表示・IK row. */
  ikSpans?: IkSpans | null;
}

/** What a drawing produced that the component publishes (data-camera-cuts). */
export interface TimelineDrawn {
  /** Camera cuts marked. */
  cuts: number;
}

/** Key positions gathered per batch (reused between drawings, grown as needed). */
export interface KeyBatch { xs: Float32Array; ys: Float32Array; n: number }
export interface KeyBatches { norm: KeyBatch; sel: KeyBatch; summary: KeyBatch; cut: KeyBatch }

function newBatch(): KeyBatch {
  return { xs: new Float32Array(4096), ys: new Float32Array(4096), n: 0 };
}

/** Reusable buffers for drawTimeline (one per timeline, so a redraw allocates nothing). */
export function createKeyBatches(): KeyBatches {
  return { norm: newBatch(), sel: newBatch(), summary: newBatch(), cut: newBatch() };
}

function push(b: KeyBatch, x: number, y: number) {
  if (b.n === b.xs.length) {
    const xs = new Float32Array(b.n * 2), ys = new Float32Array(b.n * 2);
    xs.set(b.xs);
    ys.set(b.ys);
    b.xs = xs;
    b.ys = ys;
  }
  b.xs[b.n] = x;
  b.ys[b.n++] = y;
}

/** Frames between labelled ruler ticks: the first step at least 64 px wide. */
export function rulerStep(pxPerFrame: number): number {
  const steps = [1, 2, 5, 10, 15, 30, 60, 150, 300, 600, 1500, 3000, 6000, 15000, 30000];
  for (const s of steps) if (s * pxPerFrame >= 64) return s;
  return 60000;
}

/** Calls visit(k) for keys of [a, b) between frames f0 and f1, at most one per `minPx` pixels. */
export function visibleKeys(frames: Uint32Array, a: number, b: number, f0: number, f1: number, minPx: number, pxPerFrame: number, visit: (k: number) => void) {
  let k = lowerBound(frames, a, b, Math.max(0, Math.floor(f0)));
  const skip = minPx / pxPerFrame;
  while (k < b && frames[k] <= f1) {
    visit(k);
    if (skip > 1.5) k = lowerBound(frames, k + 1, b, frames[k] + skip);
    else k++;
  }
}

/** Draws the whole timeline canvas. */
export function drawTimeline(ctx: Canvas2D, scene: TimelineScene, batches: KeyBatches = createKeyBatches()): TimelineDrawn {
  const { view, tracks, rows: rs, dpr, moveDelta } = scene;
  const w = view.width, h = view.height;
  const xAt = (f: number) => (f - view.frameStart) * view.pxPerFrame;
  const frameAt = (x: number) => view.frameStart + x / view.pxPerFrame;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = C.bg;
  ctx.fillRect(0, 0, w, h);
  const f0 = frameAt(0), f1 = frameAt(w);
  const top = rowsTop(view);
  const first = Math.max(0, Math.floor(view.scrollY / ROW_HEIGHT));
  const last = Math.min(rs.length - 1, Math.floor((view.scrollY + h - top) / ROW_HEIGHT));
  // Row backgrounds.
  const act = scene.activeTrack;
  for (let i = first; i <= last; i++) {
    const y = top + i * ROW_HEIGHT - view.scrollY;
    const r = rs[i];
    ctx.fillStyle = r.type === 'group' ? C.group : i % 2 ? C.rowB : C.rowA;
    ctx.fillRect(0, y, w, ROW_HEIGHT);
    if (r.type === 'track' && act && act.kind === r.kind && act.track === r.track && !r.add && isOwnRow(r, scene.activeDoc ?? null)) {
      ctx.fillStyle = C.activeRow;
      ctx.fillRect(0, y, w, ROW_HEIGHT);
    }
  }
  // The 表示・IK row (or its collapsed group): where IK bones are off, a shaded span from the off key to the next on
  // key; where the model is hidden, a bar along the row's foot. The keys alone were identical diamonds.
  const spans = scene.ikSpans;
  if (spans && (spans.off.length || spans.hidden.length)) {
    for (let i = first; i <= last; i++) {
      const r = rs[i];
      if (!isIkRow(r) || !isOwnRow(r, scene.activeDoc ?? null)) continue;
      const y = top + i * ROW_HEIGHT - view.scrollY;
      const band = (from: number, to: number, y0: number, hh: number) => {
        const xa = Math.max(0, xAt(from)), xb = Math.min(w, xAt(to));
        if (xb > xa) ctx.fillRect(xa, y0, xb - xa, hh);
      };
      ctx.fillStyle = C.ikOff;
      for (const s of spans.off) band(s.from, s.to, y + 2, ROW_HEIGHT - 4);
      ctx.fillStyle = C.hidden;
      for (const s of spans.hidden) band(s.from, s.to, y + ROW_HEIGHT - 4, 3);
    }
  }
  // Beyond the last frame: slightly lighter, so the motion's end is visible.
  if (tracks) {
    const xe = xAt(tracks.lastFrame);
    if (xe < w) {
      ctx.fillStyle = C.end;
      ctx.fillRect(Math.max(0, xe), top, w - Math.max(0, xe), h - top);
    }
  }
  // Vertical grid at ruler steps.
  const step = rulerStep(view.pxPerFrame);
  const gStart = Math.max(0, Math.ceil(f0 / step) * step);
  ctx.fillStyle = C.tick;
  for (let f = gStart; f <= f1; f += step) ctx.fillRect(Math.round(xAt(f)), top, 1, h - top);
  // Beat markers (Beats on): a faint line per beat in view across the rows, at the waveform's columns.
  if (scene.beats?.length) drawRowBeats(ctx, scene.beats, view.frameStart, view.pxPerFrame, w, top, h - top);
  // Keys: positions are gathered into reusable buffers, then drawn in three batches (summary, normal,
  // selected). Path2D.closePath is very slow with thousands of contours in software canvas, so the
  // diamonds are open polygons filled once per batch, and plain rectangles when zoomed far out.
  let cuts = 0;
  const activeDoc = scene.activeDoc ?? null;
  if (tracks || scene.others?.size) {
    batches.norm.n = batches.sel.n = batches.summary.n = batches.cut.n = 0;
    const dense = view.pxPerFrame < 3;
    const minPx = dense ? 3 : 0;
    for (let i = first; i <= last; i++) {
      const r = rs[i];
      const cy = top + i * ROW_HEIGHT - view.scrollY + ROW_HEIGHT / 2;
      // Each row's keys from its own document; only the active document's rows show the selection.
      const rt = rowTracks(r, activeDoc, tracks, scene.others);
      if (!rt) continue;
      const own = isOwnRow(r, activeDoc);
      if (r.type === 'track') {
        const t = tracksOf(rt, r.kind);
        const [a, b] = trackRange(t, r.track);
        const set = scene.selected[r.kind];
        const hasSel = own && set.size > 0;
        const delta = own ? moveDelta : 0;
        // Camera cuts: a key one frame after the previous one switches the shot at once. Marked on their
        // own (not through visibleKeys, which thins out close keys when zoomed far out).
        if (r.kind === 'camera') {
          const fr = t.frames;
          for (let k = Math.max(a + 1, lowerBound(fr, a, b, f0 - 1)); k < b && fr[k] <= f1 + 1; k++) {
            if (fr[k] - fr[k - 1] === 1) push(batches.cut, Math.round(xAt(fr[k])) + 0.5, cy);
          }
        }
        visibleKeys(t.frames, a, b, f0 - Math.max(0, delta) - 1, f1 - Math.min(0, delta) + 1, minPx, view.pxPerFrame, (k) => {
          const isSel = hasSel && set.has(t.record[k]);
          // A track the model lacks (MMD ignores its keys): its keys in the summary's dim grey.
          push(isSel ? batches.sel : r.missing ? batches.summary : batches.norm, Math.round(xAt(t.frames[k] + (isSel ? delta : 0))) + 0.5, cy);
        });
      } else if (r.collapsed) {
        // Summary diamonds for a collapsed group: every member's keys, one per 4 px.
        for (const m of r.members) {
          const t = tracksOf(rt, m.kind);
          const [a, b] = trackRange(t, m.track);
          visibleKeys(t.frames, a, b, f0 - 1, f1 + 1, 4, view.pxPerFrame, (k) => push(batches.summary, Math.round(xAt(t.frames[k])) + 0.5, cy));
        }
      }
    }
    ctx.fillStyle = C.cut;
    for (let i = 0; i < batches.cut.n; i++) ctx.fillRect(batches.cut.xs[i] - 1.5, batches.cut.ys[i] - ROW_HEIGHT / 2 + 2, 2, ROW_HEIGHT - 4);
    cuts = batches.cut.n;
    drawBatch(ctx, batches.summary, 3.5, C.summary, null, dense);
    drawBatch(ctx, batches.norm, dense ? 4 : 5, C.key, dense ? null : C.keyEdge, dense);
  }
  // The playhead's line across the rows goes over the keys but under the selected ones: a selected key at
  // the playhead's frame (zoomed out, a 3 px mark) was hidden under the red line. Its head is on the ruler.
  const xc = Math.round(xAt(scene.frame)) + 0.5;
  const cursorShown = xc >= -10 && xc <= w + 10;
  if (cursorShown) {
    ctx.fillStyle = C.cursor;
    ctx.fillRect(xc - 0.5, top, 1.5, h - top);
  }
  if (tracks || scene.others?.size) {
    const dense = view.pxPerFrame < 3;
    drawBatch(ctx, batches.sel, dense ? 4 : 5, C.sel, dense ? null : C.keyEdge, dense);
  }
  // Box select.
  const box = scene.box;
  if (box) {
    const x = Math.min(box.x0, box.x1), y = Math.min(box.y0, box.y1);
    const bw = Math.abs(box.x1 - box.x0), bh = Math.abs(box.y1 - box.y0);
    ctx.fillStyle = C.box;
    ctx.fillRect(x, y, bw, bh);
    ctx.strokeStyle = C.boxEdge;
    ctx.strokeRect(x + 0.5, y + 0.5, bw, bh);
  }
  // Ruler.
  ctx.fillStyle = C.ruler;
  ctx.fillRect(0, 0, w, RULER_HEIGHT);
  // The play range (looping a segment): a band on the ruler.
  if (scene.range) {
    const xa = xAt(scene.range.from), xb = xAt(scene.range.to);
    if (xb >= 0 && xa <= w) {
      ctx.fillStyle = C.range;
      ctx.fillRect(Math.max(0, xa), 0, Math.min(w, xb) - Math.max(0, xa), RULER_HEIGHT - 1);
    }
  }
  ctx.fillStyle = C.tickMajor;
  ctx.fillRect(0, RULER_HEIGHT - 1, w, 1);
  ctx.font = CANVAS_FONTS.ruler;
  ctx.textBaseline = 'middle';
  ctx.fillStyle = C.rulerText;
  const minor = step >= 5 ? step / 5 : step;
  // At coarse zoom (a label every 5 s or more: whole seconds) each label also says its time, m:ss, dimmer,
  // where the step leaves room for both.
  const clocks = step >= 150 && step % 30 === 0;
  for (let f = Math.max(0, Math.ceil(f0 / minor) * minor); f <= f1; f += minor) {
    const x = Math.round(xAt(f)) + 0.5;
    const major = f % step === 0;
    ctx.fillRect(x - 0.5, major ? RULER_HEIGHT - 10 : RULER_HEIGHT - 5, 1, major ? 9 : 4);
    if (!major) continue;
    const label = String(f);
    ctx.fillText(label, x + 3, 9);
    if (!clocks) continue;
    const clock = rulerClockText(f), lw = ctx.measureText(label).width;
    if (3 + lw + 5 + ctx.measureText(clock).width + 6 > step * view.pxPerFrame) continue;
    ctx.fillStyle = C.rulerClock;
    ctx.fillText(clock, x + 3 + lw + 5, 9);
    ctx.fillStyle = C.rulerText;
  }
  // Current frame: the line from the ruler down to the rows (over them, drawn above) and its head.
  if (cursorShown) {
    ctx.fillStyle = C.cursor;
    ctx.fillRect(xc - 0.5, RULER_HEIGHT - 4, 1.5, top - (RULER_HEIGHT - 4));
    ctx.beginPath();
    ctx.moveTo(xc - 6, RULER_HEIGHT - 12);
    ctx.lineTo(xc + 6, RULER_HEIGHT - 12);
    ctx.lineTo(xc, RULER_HEIGHT - 4);
    ctx.closePath();
    ctx.fill();
  }
  return { cuts };
}

/** The 表示・IK track row, or its group collapsed (its one member). */
export function isIkRow(r: Row | undefined): boolean {
  return !!r && ((r.type === 'track' && r.kind === 'ik') || (r.type === 'group' && r.id === 'ik' && !!r.collapsed));
}

/**
 * One 1 px line per beat whose column floor((frame − frameStart) × pxPerFrame) lies in [0, width), from
 * y `top`, `height` tall (the same columns as the music row's beat-draw.ts). Returns how many it drew.
 */
export function drawRowBeats(ctx: Canvas2D, beats: ArrayLike<number>, frameStart: number, pxPerFrame: number, width: number, top: number, height: number): number {
  if (!beats.length || !(pxPerFrame > 0) || height <= 0) return 0;
  let i = nearestBeat(beats, frameStart);
  while (i > 0 && beats[i] >= frameStart) i--;
  ctx.fillStyle = C.beat;
  let n = 0;
  for (; i < beats.length; i++) {
    const x = Math.floor((beats[i] - frameStart) * pxPerFrame + 1e-6);
    if (x >= width) break;
    if (x < 0) continue;
    ctx.fillRect(x, top, 1, height);
    n++;
  }
  return n;
}

/** Fills one batch of keys: open diamond polygons filled once (edged when not dense), or rectangles far out. */
function drawBatch(ctx: Canvas2D, b: KeyBatch, r: number, fill: string, edge: string | null, dense: boolean) {
  if (!b.n) return;
  ctx.fillStyle = fill;
  if (dense) {
    // Far out a key is a few pixels wide: a rectangle reads the same and costs far less.
    const w = Math.max(2, r - 1), h = r * 2 - 2;
    for (let i = 0; i < b.n; i++) ctx.fillRect(b.xs[i] - w / 2, b.ys[i] - h / 2, w, h);
    return;
  }
  ctx.beginPath();
  for (let i = 0; i < b.n; i++) {
    const x = b.xs[i], y = b.ys[i];
    ctx.moveTo(x, y - r);
    ctx.lineTo(x + r, y);
    ctx.lineTo(x, y + r);
    ctx.lineTo(x - r, y);
    ctx.lineTo(x, y - r);
  }
  ctx.fill();
  if (edge) {
    ctx.strokeStyle = edge;
    ctx.lineWidth = 1;
    ctx.stroke();
  }
}
