/**
 * Adaptive resolution for playback: when frames arrive slower than the display wants (median interval
 * over half a second above ~50 fps' worth), the drawing buffer steps down (1 → 0.75 → 0.5 of the CSS size;
 * straight to 0.5 when frames take more than twice that). A step that does not make frames clearly
 * faster is undone — a scene bound by vertices, not pixels, would only get blurrier — and adapting stops
 * until the next play. Pausing restores full resolution, so a still frame is always sharp. Never steps
 * back up mid-play: that would flip-flop on a machine at the edge.
 */

/** Scales tried in order. Below half the picture gets too blurry to judge a motion by. */
export const RENDER_SCALES = [1, 0.75, 0.5] as const;

export class AdaptiveScale {
  /** Median interval (ms) above which the next smaller scale is tried: 20 ms ≈ 50 fps. */
  static readonly SLOW_MS = 20;
  /**
   * A decision looks at half a second of frames at the current scale (at least MIN_FRAMES of them), so a
   * short burst of slow frames (a page hiccup) does not cost the rest of the playback its resolution,
   * and a 5 fps start is still judged after half a second. WINDOW bounds the frames kept.
   */
  static readonly WINDOW_MS = 500;
  static readonly MIN_FRAMES = 4;
  static readonly WINDOW = 64;
  /** A step down is kept only when the median interval fell below this share of the one before. */
  static readonly KEEP_IF_BELOW = 0.85;
  private step = 0;
  private readonly window = new Float64Array(AdaptiveScale.WINDOW);
  private readonly sorted = new Float64Array(AdaptiveScale.WINDOW);
  private count = 0;
  private elapsed = 0;
  /** After a step down: the step before and its median, to check the step paid off. */
  private previous: { step: number; median: number } | null = null;
  /** No more changes until reset(). */
  private settled = false;
  /** Turned off: always full resolution. */
  enabled = true;

  get scale(): number {
    return RENDER_SCALES[this.step];
  }

  /**
   * One played frame's interval (ms). Returns the new scale when it changed, else null. Frames drawn
   * before a change are not judged again: a new window starts at the new size.
   */
  frame(intervalMs: number): number | null {
    if (!this.enabled || this.settled) return null;
    this.window[this.count++] = intervalMs;
    this.elapsed += intervalMs;
    if (this.count < AdaptiveScale.WINDOW && (this.count < AdaptiveScale.MIN_FRAMES || this.elapsed < AdaptiveScale.WINDOW_MS)) return null;
    const seen = this.sorted.subarray(0, this.count);
    seen.set(this.window.subarray(0, this.count));
    seen.sort();
    const median = seen[this.count >> 1];
    this.count = 0;
    this.elapsed = 0;
    const prev = this.previous;
    this.previous = null;
    if (prev && median > AdaptiveScale.KEEP_IF_BELOW * prev.median) {
      // Fewer pixels did not help: put the sharper picture back and leave it.
      this.step = prev.step;
      this.settled = true;
      return this.scale;
    }
    if (median <= AdaptiveScale.SLOW_MS) return null;
    const last = RENDER_SCALES.length - 1;
    if (this.step === last) {
      this.settled = true;
      return null;
    }
    this.previous = { step: this.step, median };
    this.step = median > 2 * AdaptiveScale.SLOW_MS ? last : this.step + 1;
    return this.scale;
  }

  /** Back to full resolution and ready to adapt again (on pause). Returns 1 when that is a change, else null. */
  reset(): number | null {
    this.count = 0;
    this.elapsed = 0;
    this.previous = null;
    this.settled = false;
    if (this.step === 0) return null;
    this.step = 0;
    return 1;
  }
}
