/**
 * The timeline's horizontal view as plain numbers: which frame is at the left edge, how many pixels a
 * frame takes, how wide the key area is. Zooming about a point, following the playhead, fitting a range
 * and choosing a readable first zoom are pure functions of those numbers (unit-tested), so the
 * component only applies what they return.
 */

export const MIN_PX_PER_FRAME = 0.02;
export const MAX_PX_PER_FRAME = 40;
/** Height of one track row and of the ruler above the rows, px (the track list and the timeline share them). */
export const ROW_HEIGHT = 22;
export const RULER_HEIGHT = 26;
/**
 * Height of the music row's band under the ruler, px (its 1 px bottom border included): the rows start
 * below it. 23 with no song (the Music… button), 45 with one (the waveform).
 */
export function musicBandHeight(loaded: boolean): number {
  return loaded ? 45 : 23;
}
/** Where the first row starts in the timeline canvas: under the ruler and the music band (`band`, px). */
export function rowsTop(view: { band?: number }): number {
  return RULER_HEIGHT + (view.band ?? 0);
}
/** Pixels left of frame 0 the view may show (so a key at frame 0 is whole). */
export const LEFT_PAD_PX = 20;

export interface TimeView {
  /** Frame at the left edge of the key area (may be fractional). */
  frameStart: number;
  pxPerFrame: number;
  /** Width of the key area, px. */
  width: number;
}

export type FollowMode = 'page' | 'smooth';

export function clampPx(px: number): number {
  return Math.max(MIN_PX_PER_FRAME, Math.min(MAX_PX_PER_FRAME, px));
}

/** The smallest frameStart: frame 0 sits LEFT_PAD_PX from the left edge. */
export function minFrameStart(pxPerFrame: number): number {
  return -LEFT_PAD_PX / pxPerFrame;
}

/** Frames the view spans. */
export function span(v: TimeView): number {
  return v.width / v.pxPerFrame;
}

/** Pixel x of a frame in the key area. */
export function xOfFrame(v: TimeView, f: number): number {
  return (f - v.frameStart) * v.pxPerFrame;
}

/**
 * Zooms by `factor` keeping the frame under pixel x where it is (the wheel: the point under the
 * pointer). The zoom is clamped to [MIN_PX_PER_FRAME, MAX_PX_PER_FRAME]; at a clamp the anchor still holds.
 */
export function zoomAtX(v: TimeView, x: number, factor: number): { frameStart: number; pxPerFrame: number } {
  const f = v.frameStart + x / v.pxPerFrame;
  const pxPerFrame = clampPx(v.pxPerFrame * factor);
  return { frameStart: f - x / pxPerFrame, pxPerFrame };
}

/**
 * Zooms by `factor` keeping frame `f` (the playhead) at its screen x: the buttons and keys. When f is
 * outside the view it is brought to the middle instead (keeping an invisible point fixed would leave
 * the playhead out of sight).
 */
export function zoomAtFrame(v: TimeView, f: number, factor: number): { frameStart: number; pxPerFrame: number } {
  const x = xOfFrame(v, f);
  const anchor = x >= 0 && x <= v.width ? x : v.width / 2;
  const pxPerFrame = clampPx(v.pxPerFrame * factor);
  return { frameStart: f - anchor / pxPerFrame, pxPerFrame };
}

/**
 * Where the view's left edge should be so the playhead at frame f stays visible.
 *
 * - `page` (and any move while paused, e.g. a scrub, a step, a jump): nothing moves while f is inside
 *   [left + margin, right − margin] (paused: inside the view at all); past the right edge the view turns a
 *   page so f is `margin` from the left; before the left edge, so f is `margin` from the right (or frame 0
 *   at the start).
 * - `smooth` while playing: once f passes the middle the view scrolls with it, f fixed at the middle.
 *
 * `margin` is in pixels; paused, only a playhead outside the view turns the page (a click near the edge
 * must not turn it under the pointer). Returns the new frameStart (the same value when nothing needs to move).
 */
export function followFrame(v: TimeView, f: number, mode: FollowMode, playing: boolean, marginPx = 24): number {
  const s = span(v);
  const lo = minFrameStart(v.pxPerFrame);
  // Where a turned page puts the playhead (always a margin in), and how close to an edge turns it.
  const place = Math.min(marginPx, v.width / 4) / v.pxPerFrame;
  const m = playing ? place : 0;
  if (playing && mode === 'smooth') {
    const mid = v.frameStart + s / 2;
    if (f > mid || f < v.frameStart + m) return Math.max(lo, f - s / 2);
    return v.frameStart;
  }
  if (f > v.frameStart + s - m) return Math.max(lo, f - place);
  if (f < v.frameStart + m) return Math.max(lo, f - s + place);
  return v.frameStart;
}

/**
 * Where a frame typed in the frame field puts the view: a frame already in view, a margin in from either edge,
 * leaves it where it is; any other lands at a third of the width, with frames before it for context and more
 * after it to come (as MMD's frame box does), never before the view's first frame.
 */
export function jumpFrame(v: TimeView, f: number, marginPx = 24): number {
  const s = span(v);
  const m = Math.min(marginPx, v.width / 4) / v.pxPerFrame;
  if (f >= v.frameStart + m && f <= v.frameStart + s - m) return v.frameStart;
  return Math.max(minFrameStart(v.pxPerFrame), f - s / 3);
}

/**
 * The view that shows frames [from, to] with `padPx` on each side (zoom to fit the motion, zoom to the
 * selection). A single frame (from = to) is shown at a comfortable zoom rather than the maximum.
 */
export function fitRange(width: number, from: number, to: number, padPx = 20): { frameStart: number; pxPerFrame: number } {
  const a = Math.min(from, to), b = Math.max(from, to);
  const inner = Math.max(1, width - 2 * padPx);
  // At least 30 frames across: a selection of one key or a two-frame motion does not zoom to 40 px/frame.
  const frames = Math.max(b - a, 30);
  const pxPerFrame = clampPx(inner / frames);
  const mid = (a + b) / 2;
  const frameStart = Math.max(minFrameStart(pxPerFrame), mid - width / 2 / pxPerFrame);
  return { frameStart, pxPerFrame };
}

/** Pixels between neighbouring keys the first view aims for (a diamond is 10 px wide). */
export const READABLE_GAP_PX = 12;

/**
 * The median distance, in frames, between neighbouring keys of the same track, over every track given
 * as (frames, start) (struct-of-arrays: track t holds frames[start[t] .. start[t+1])). Gaps of zero
 * (never in a valid motion) are skipped. Returns 0 when no track has two keys. A histogram over gaps
 * up to 1024 frames keeps this linear on a motion with a million keys.
 */
export function medianKeyGap(tracks: readonly { frames: ArrayLike<number>; start: ArrayLike<number> }[]): number {
  const CAP = 1024;
  const hist = new Uint32Array(CAP + 1);
  let n = 0;
  for (const t of tracks) {
    for (let tr = 0; tr + 1 < t.start.length; tr++) {
      for (let k = t.start[tr] + 1; k < t.start[tr + 1]; k++) {
        const g = t.frames[k] - t.frames[k - 1];
        if (g <= 0) continue;
        hist[Math.min(CAP, g)]++;
        n++;
      }
    }
  }
  if (!n) return 0;
  const half = Math.ceil(n / 2); // the lower median
  let seen = 0;
  for (let g = 1; g <= CAP; g++) {
    seen += hist[g];
    if (seen >= half) return g;
  }
  return CAP;
}

/**
 * The first view of a motion: the whole motion when that already shows its keys READABLE_GAP_PX apart,
 * else zoomed in (from frame 0) until the median gap between a track's neighbouring keys is that far,
 * at most 16 px per frame. `medianGap` 0 (no track with two keys) fits the whole motion.
 */
export function initialView(width: number, lastFrame: number, medianGap: number): { frameStart: number; pxPerFrame: number } {
  const fit = fitRange(width, 0, Math.max(lastFrame, 0));
  if (!(medianGap > 0) || fit.pxPerFrame * medianGap >= READABLE_GAP_PX) return { frameStart: minFrameStart(fit.pxPerFrame), pxPerFrame: fit.pxPerFrame };
  const pxPerFrame = clampPx(Math.min(16, READABLE_GAP_PX / medianGap));
  return { frameStart: minFrameStart(pxPerFrame), pxPerFrame };
}
