/**
 * How many pictures the preview drew over the last second while playing, to say so when it falls well behind
 * the motion's 30 frames a second (a weak laptop, software GL, physics on a 600k-key motion): the frame counter
 * keeps time, so the motion plays at its speed but jumps, and without a word a person takes the motion itself
 * for jerky. MikuMikuMoving shows an FPS readout for the same reason.
 */

/** Below this many draws a second the preview says it skips frames (two thirds of MMD's 30). */
export const SLOW_DRAWS_PER_SECOND = 20;
/** Once said, it is taken back only at this many (so a rate about the threshold does not flicker the line). */
export const KEEPS_UP_DRAWS_PER_SECOND = 24;
const WINDOW_MS = 1000;
/**
 * Playing: the most frames of physics one drawn picture runs (physics-actor.ts). Below 30 / this draws a second
 * the hair gets less time than the dance: the slow-draw line says physics runs slower (PreviewPane.vue).
 */
export const MAX_PHYSICS_FRAMES_PER_DRAW = 8;

export class DrawRate {
  /** The draws' times in the last second, oldest first. */
  private times: number[] = [];
  private since = -1;
  private slow = false;

  /** Playing started or stopped: nothing is said until a whole second has been drawn again. */
  reset(): void {
    this.times = [];
    this.since = -1;
    this.slow = false;
  }

  /**
   * A picture drawn at `now` (ms). Returns the draws over the last second when they are too few (the line to
   * show), else null. Nothing in the first second of playing: there is no whole second to count yet.
   */
  draw(now: number): number | null {
    if (this.since < 0) this.since = now;
    this.times.push(now);
    while (this.times.length && this.times[0] <= now - WINDOW_MS) this.times.shift();
    if (now - this.since < WINDOW_MS) return null;
    const n = this.times.length;
    this.slow = this.slow ? n < KEEPS_UP_DRAWS_PER_SECOND : n < SLOW_DRAWS_PER_SECOND;
    return this.slow ? n : null;
  }
}
