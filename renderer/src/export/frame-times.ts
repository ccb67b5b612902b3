/**
 * Output frames → MMD frames for the video export. Motion runs at MMD's 30 frames a second; an export at
 * `fps` shows output frame i at time i / fps, which is MMD frame `from + i × 30 / fps` (at 60 fps every
 * other output frame is a half frame, interpolated; camera cuts are held by the sampler). A range
 * `from`–`to` (inclusive, MMD frames) lasts (to − from + 1) / 30 s: 0–89 is 3 s, 90 output frames at 30 fps
 * and 180 at 60.
 */
export const MMD_FPS = 30;

export interface FrameRange {
  from: number;
  to: number;
}

/** How many output frames a range makes at `fps`. */
export function outputFrameCount(range: FrameRange, fps: number): number {
  const span = Math.max(0, Math.floor(range.to) - Math.floor(range.from) + 1);
  return Math.round((span * fps) / MMD_FPS);
}

/** The MMD frame (fractional) that output frame i shows. */
export function mmdFrameAt(range: FrameRange, fps: number, i: number): number {
  return Math.floor(range.from) + (i * MMD_FPS) / fps;
}

/** The output's duration in seconds. */
export function outputSeconds(range: FrameRange, fps: number): number {
  return outputFrameCount(range, fps) / fps;
}

/**
 * Where the song starts in the output (seconds; negative: it started before) for a music offset in MMD
 * frames (audio time = (frame + offset) / 30, shared/scene/audio-sync.ts).
 */
export function songStartInOutput(range: FrameRange, offsetFrames: number): number {
  return -(Math.floor(range.from) + offsetFrames) / MMD_FPS;
}

/**
 * Output sizes the dialog offers: 720 or 1080 lines, or a chosen height, always in the scene's aspect (the
 * preview's Frame, what the camera films: a 4:3 Frame at 720p is 960 × 720, never 1280 × 720 showing more at
 * the sides than the Frame does). Even sizes: encoders want them.
 */
export function outputSize(choice: '720p' | '1080p' | 'scene', sceneAspect: number, height: number): { width: number; height: number } {
  const asked = choice === '720p' ? 720 : choice === '1080p' ? 1080 : height;
  const h = 2 * Math.max(1, Math.round(Math.min(4320, Math.max(16, Number.isFinite(asked) ? asked : 720)) / 2));
  const a = Number.isFinite(sceneAspect) && sceneAspect > 0 ? sceneAspect : 16 / 9;
  return { width: 2 * Math.max(1, Math.round((h * a) / 2)), height: h };
}

/** `stem_000012.png` for frame 12 of a PNG sequence chosen as `stem.png`. */
export function sequenceFramePath(chosen: string, i: number): string {
  const stem = chosen.replace(/\.png$/i, '');
  return `${stem}_${String(i).padStart(6, '0')}.png`;
}
