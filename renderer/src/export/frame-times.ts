/**
 * Output frames → MMD frames for the video export. Motion runs at MMD's 30 frames a second; an export at
 * `fps` shows output frame i at time i / fps, which is MMD frame `from + i × 30 / fps` (at 60 fps every
 * other output frame is a half frame, interpolated; camera cuts are held by the sampler). A range
 * `from`–`to` (inclusive, MMD frames) lasts (to − from + 1) / 30 s: 0–89 is 3 s, 90 output frames at 30 fps
 * and 180 at 60. At 24 and 25 fps (film, PAL) output frame i shows MMD frame from + 1.25 i (1.2 i), sampled
 * between the motion's frames as 60's half frames are: 0–89 is 72 (75) frames, 3 s, and the song is cut to
 * the same 3 s.
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

/** The heights an "Other height" may have (lines); outside them the dialog refuses it and Render waits. */
export const MIN_HEIGHT = 16;
export const MAX_HEIGHT = 4320;

/** Why an "Other height" cannot be rendered: not a whole number, under MIN_HEIGHT or over MAX_HEIGHT; null when it can. */
export function heightIssue(height: unknown): 'invalid' | 'small' | 'large' | null {
  if (typeof height !== 'number' || !Number.isFinite(height) || !Number.isInteger(height)) return 'invalid';
  return height < MIN_HEIGHT ? 'small' : height > MAX_HEIGHT ? 'large' : null;
}

/**
 * Output sizes the dialog offers: 720p or 1080p, or a chosen height, always in the scene's aspect (the
 * preview's Aspect, what the camera films: a 4:3 Aspect at 720p is 960 × 720, never 1280 × 720 showing more at
 * the sides than the Frame does). 720p and 1080p name the short side, as phones and upload sites say: a
 * portrait (9:16) Frame at 1080p is 1080 × 1920 (it was 608 × 1080). Even sizes: encoders want them
 * (`rounded` says the picture is not the exact aspect at the height asked: the dialog says so). A height out of
 * range is clamped here; the dialog refuses it first (heightIssue).
 */
export function outputSize(choice: '720p' | '1080p' | 'scene', sceneAspect: number, height: number): { width: number; height: number; rounded: boolean } {
  const a = Number.isFinite(sceneAspect) && sceneAspect > 0 ? sceneAspect : 16 / 9;
  const even = (n: number) => 2 * Math.max(1, Math.round(n / 2));
  if (choice !== 'scene') {
    const short = choice === '720p' ? 720 : 1080;
    // The long side in the aspect; exact for 16:9, 4:3 and their portrait forms.
    const long = a >= 1 ? short * a : short / a;
    const [w, h] = a >= 1 ? [even(long), short] : [short, even(long)];
    return { width: w, height: h, rounded: Math.abs((a >= 1 ? w : h) - long) > 1e-6 };
  }
  const asked = Number.isFinite(height) ? height : 720;
  const h = even(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, asked)));
  const exact = h * a, w = even(exact);
  return { width: w, height: h, rounded: h !== asked || Math.abs(w - exact) > 1e-6 };
}

/** `stem_000012.png` for frame 12 of a PNG sequence chosen as `stem.png`. */
export function sequenceFramePath(chosen: string, i: number): string {
  const stem = chosen.replace(/\.png$/i, '');
  return `${stem}_${String(i).padStart(6, '0')}.png`;
}
