/**
 * Camera follows a bone: the followed bone's positions the free view's camera path is drawn with, worked out in
 * slices between animation frames. A bone that leg IK moves costs about a millisecond a frame (more in a slow
 * browser), so a camera's 2800 frames at once froze the app for seconds after every change of the follow; here a
 * tick works out at most `perTick` frames (and stops early past `budgetMs`), first every `step`-th frame of the
 * camera's range (a coarse path, drawn with straight lines between them), then the frames between (the exact
 * path). The path is drawn from what is ready (`sample`); a frame not reached yet leaves a gap. The camera at the
 * playhead does not wait for this: it asks the follower itself (MotionDriver.poseAt), one frame, exact.
 *
 * One FollowSamples per follower: a new follow (its actor's motion, model, stage or bone changed) gets a new one
 * and the old one is dropped (`dispose`: its queued frames are never worked out). A new range (the camera's keys
 * changed) keeps the frames already known and queues only the others.
 */

/** The followed bone's world position at a frame (MMD coordinates), or null without the bone. */
export type BoneAt = (f: number) => readonly number[] | null;

/** Runs `tick` once before a coming frame; returns its cancel. requestAnimationFrame in the app, a fake clock in tests. */
export type FrameClock = (tick: () => void) => () => void;

export const animationFrameClock: FrameClock = (tick) => {
  const id = requestAnimationFrame(tick);
  return () => cancelAnimationFrame(id);
};

export interface SliceOptions {
  /** At most this many bone evaluations a tick. */
  perTick: number;
  /** The coarse pass's step in frames. */
  step: number;
  /** A tick stops once it has run this long (ms; it always does at least one evaluation). Absent: count only. */
  budgetMs?: number;
  now?: () => number;
}

/** A tick's share of the app's 16 ms frame: a few ms, whatever the bone costs (a cheap bone does `perTick`). */
export const PATH_SLICE: SliceOptions = { perTick: 64, step: 4, budgetMs: 5, now: () => performance.now() };

export class FollowSamples {
  private readonly known = new Map<number, readonly number[] | null>();
  private queue: number[] = [];
  private next = 0;
  private first = 0;
  private last = -1;
  private cancelTick: (() => void) | null = null;
  private paused = false;
  private disposed = false;
  /** Called after each tick that worked something out (the path is drawn again from what is ready). */
  onUpdate: (() => void) | null = null;

  constructor(
    private readonly boneAt: BoneAt,
    private readonly clock: FrameClock = animationFrameClock,
    private readonly opts: SliceOptions = PATH_SLICE,
  ) {}

  /** Asks for the frames first…last (the camera's range): those not known yet are queued, every step-th first; the last range's queue is dropped. */
  want(first: number, last: number): void {
    if (this.disposed || (first === this.first && last === this.last)) return;
    this.first = first;
    this.last = last;
    const step = Math.max(1, Math.floor(this.opts.step));
    const coarse: number[] = [], fine: number[] = [];
    for (let f = first; f <= last; f++) {
      if (this.known.has(f)) continue;
      ((f - first) % step === 0 || f === last ? coarse : fine).push(f);
    }
    this.queue = coarse.concat(fine);
    this.next = 0;
    this.schedule();
  }

  /** Whether every frame of the range asked for is worked out. */
  get done(): boolean {
    return this.next >= this.queue.length;
  }

  /**
   * The bone at integer frame f as far as it is known: exact once worked out; before that, on the straight line
   * between the nearest known frames within `step` on either side (the coarse pass); undefined when not yet.
   */
  sample(f: number): readonly number[] | null | undefined {
    const k = this.known.get(f);
    if (k !== undefined || this.known.has(f)) return k;
    const step = Math.max(1, Math.floor(this.opts.step));
    let a = -1, b = -1;
    for (let d = 1; d <= step && a < 0; d++) if (f - d >= this.first && this.known.has(f - d)) a = f - d;
    for (let d = 1; d <= step && b < 0; d++) if (f + d <= this.last && this.known.has(f + d)) b = f + d;
    if (a < 0 || b < 0) return undefined;
    const pa = this.known.get(a), pb = this.known.get(b);
    if (!pa || !pb) return undefined;
    const t = (f - a) / (b - a);
    return [pa[0] + (pb[0] - pa[0]) * t, pa[1] + (pb[1] - pa[1]) * t, pa[2] + (pb[2] - pa[2]) * t];
  }

  /** A hidden path needs no samples: paused, no tick runs; resumed where it stopped. */
  setPaused(paused: boolean): void {
    if (this.paused === paused) return;
    this.paused = paused;
    if (paused) this.unschedule();
    else this.schedule();
  }

  /** Drops the queued work for good (the follow changed or went). */
  dispose(): void {
    this.disposed = true;
    this.unschedule();
    this.queue = [];
    this.next = 0;
    this.onUpdate = null;
  }

  private schedule(): void {
    if (this.cancelTick || this.paused || this.disposed || this.done) return;
    this.cancelTick = this.clock(this.tick);
  }

  private unschedule(): void {
    this.cancelTick?.();
    this.cancelTick = null;
  }

  private readonly tick = (): void => {
    this.cancelTick = null;
    if (this.disposed || this.paused) return;
    const { perTick, budgetMs, now } = this.opts;
    const start = budgetMs !== undefined && now ? now() : 0;
    let n = 0;
    while (this.next < this.queue.length && n < perTick) {
      const f = this.queue[this.next++];
      if (this.known.has(f)) continue;
      const p = this.boneAt(f);
      this.known.set(f, p ? [p[0], p[1], p[2]] : null);
      n++;
      if (budgetMs !== undefined && now && now() - start >= budgetMs) break;
    }
    this.schedule();
    if (n > 0) this.onUpdate?.();
  };
}
