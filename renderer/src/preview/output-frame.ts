/**
 * The output frame (MMD's screen): the scene's aspect as text ("16:9"; the scene store owns it, and
 * remembers the last one picked in settings.ui under OUTPUT_ASPECT_SETTING), and where that frame sits
 * inside the preview pane when looking
 * through the camera — as large as fits, centred, with bars on the other two sides (letterbox or
 * pillarbox), instead of the picture stretched to the pane's shape.
 */

import { DEFAULT_ASPECT } from '../../../shared/scene/scene-file';

/** The settings.ui key of the last output aspect picked ("W:H"), the aspect of a window with no scene file's. */
export const OUTPUT_ASPECT_SETTING = 'preview.outputAspect';

/** The aspects offered in the preview's menu (any "W:H" in the setting works). */
export const OUTPUT_ASPECTS = ['16:9', '4:3', '1:1', '21:9', '9:16'] as const;

/** The scene file's default (shared/scene/scene-file.ts DEFAULT_ASPECT) as text. */
export const DEFAULT_OUTPUT_ASPECT = `${DEFAULT_ASPECT.width}:${DEFAULT_ASPECT.height}`;

/** "W:H" (or "W/H", or a plain ratio) as width / height; null when it is not two positive finite numbers. */
export function parseAspect(text: unknown): { width: number; height: number; ratio: number } | null {
  if (typeof text === 'number') return text > 0 && Number.isFinite(text) ? { width: text, height: 1, ratio: text } : null;
  if (typeof text !== 'string') return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:[:/x×]\s*(\d+(?:\.\d+)?))?\s*$/.exec(text);
  if (!m) return null;
  const width = Number(m[1]), height = m[2] === undefined ? 1 : Number(m[2]);
  if (!(width > 0 && height > 0 && Number.isFinite(width / height))) return null;
  return { width, height, ratio: width / height };
}

/** The output aspect a settings.ui bag says (16:9 when it says nothing usable). */
export function outputAspectOf(ui: Record<string, unknown> | undefined): { text: string; ratio: number } {
  const raw = ui?.[OUTPUT_ASPECT_SETTING];
  const a = parseAspect(raw);
  return a && typeof raw === 'string' ? { text: raw.trim(), ratio: a.ratio } : { text: DEFAULT_OUTPUT_ASPECT, ratio: DEFAULT_ASPECT.width / DEFAULT_ASPECT.height };
}

/** A rectangle in CSS px inside the pane. */
export interface FrameRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The largest rectangle of `aspect` (width / height) inside a paneWidth × paneHeight pane, centred, in whole
 * CSS pixels (so the canvas gets a whole-pixel size and nothing is resampled). At least 1 × 1.
 */
export function letterbox(paneWidth: number, paneHeight: number, aspect: number): FrameRect {
  const W = Math.max(1, Math.floor(paneWidth)), H = Math.max(1, Math.floor(paneHeight));
  let width: number, height: number;
  if (W / H > aspect) {
    // The pane is wider: bars left and right (pillarbox).
    height = H;
    width = Math.max(1, Math.min(W, Math.round(H * aspect)));
  } else {
    // The pane is taller: bars above and below (letterbox).
    width = W;
    height = Math.max(1, Math.min(H, Math.round(W / aspect)));
  }
  return { x: Math.floor((W - width) / 2), y: Math.floor((H - height) / 2), width, height };
}
