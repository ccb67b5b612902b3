/**
 * Music and motion in step, as pure maths: the offset between song time and motion frames, and a playback
 * clock that maps the AudioContext's clock (`currentTime`, seconds, never drifts against the sound card)
 * to the frame to show.
 *
 * Offset: frame = (audio time − offset) × 30, with offset = offsetFrames / 30 s. So audio time =
 * (frame + offsetFrames) / 30; a positive offset is an intro before frame 0.
 *
 * Clock: every frame is computed from one anchor (context time, frame) set by the last play, pause or
 * seek — never by adding up per-tick steps — so an hour of playback lands on exactly the frame the
 * sound is at, whatever the display rate or jitter. A loop range wraps in closed form too.
 */
import { FPS } from '../vmd/vmd-layout';

/** Motion frame heard at `audioTime` seconds into the song. */
export function frameAtAudioTime(audioTime: number, offsetFrames: number): number {
  return (audioTime - offsetFrames / FPS) * FPS;
}

/**
 * The motion frame the song's last sound falls on, whole frames up (0 for a song that ends before frame 0):
 * how far a scene with this song runs. The CLI's `inspect` of a scene and the app's timeline both count
 * the music's length this way.
 */
export function songEndFrame(durationSeconds: number, offsetFrames: number): number {
  return Math.max(0, Math.ceil(frameAtAudioTime(durationSeconds, offsetFrames) - 1e-9));
}

/** Seconds into the song at motion frame `frame` (negative: before the song starts). */
export function audioTimeAtFrame(frame: number, offsetFrames: number): number {
  return (frame + offsetFrames) / FPS;
}

/** Motion frame range [start, end) the loop plays; `end` > `start`. */
export interface LoopRange {
  start: number;
  end: number;
}

/** The clock's state: immutable; each operation returns a new one. */
export interface PlaybackClock {
  readonly playing: boolean;
  /** Context time (s) of the anchor. Meaningful while playing. */
  readonly anchorTime: number;
  /** Frame at the anchor (the shown frame while paused). */
  readonly anchorFrame: number;
  readonly loop: LoopRange | null;
}

/** A paused clock at `frame`. */
export function createClock(frame = 0, loop: LoopRange | null = null): PlaybackClock {
  return { playing: false, anchorTime: 0, anchorFrame: frame, loop: checkLoop(loop) };
}

function checkLoop(loop: LoopRange | null): LoopRange | null {
  if (!loop) return null;
  if (!(loop.end > loop.start) || !Number.isFinite(loop.start) || !Number.isFinite(loop.end)) return null;
  return { start: loop.start, end: loop.end };
}

/** Wraps an unwrapped frame into the loop, when the play started before the loop's end. */
function wrap(raw: number, fromFrame: number, loop: LoopRange | null): number {
  if (!loop || fromFrame >= loop.end || raw < loop.end) return raw;
  const len = loop.end - loop.start;
  return loop.start + ((raw - loop.start) % len);
}

/** The frame to show at context time `time`. */
export function frameAt(c: PlaybackClock, time: number): number {
  if (!c.playing) return c.anchorFrame;
  return wrap(c.anchorFrame + (time - c.anchorTime) * FPS, c.anchorFrame, c.loop);
}

/** Starts playing at context time `time` from the shown frame (a no-op when already playing). */
export function play(c: PlaybackClock, time: number): PlaybackClock {
  if (c.playing) return c;
  return { ...c, playing: true, anchorTime: time, anchorFrame: c.anchorFrame };
}

/** Stops at context time `time`, holding the frame shown then. */
export function pause(c: PlaybackClock, time: number): PlaybackClock {
  if (!c.playing) return c;
  return { ...c, playing: false, anchorTime: time, anchorFrame: frameAt(c, time) };
}

/** Jumps to `frame` at context time `time`; keeps playing if it was. */
export function seek(c: PlaybackClock, frame: number, time: number): PlaybackClock {
  return { ...c, anchorTime: time, anchorFrame: frame };
}

/** Sets or clears the loop at context time `time`, re-anchoring at the frame shown then (no jump). */
export function setLoop(c: PlaybackClock, loop: LoopRange | null, time: number): PlaybackClock {
  return { ...c, anchorTime: time, anchorFrame: frameAt(c, time), loop: checkLoop(loop) };
}

/**
 * Context time of the first loop wrap after `time`, or null (paused, no loop, or playing past it).
 * The audio must restart from the loop start then (see audioStart).
 */
export function nextWrapTime(c: PlaybackClock, time: number): number | null {
  if (!c.playing || !c.loop || c.anchorFrame >= c.loop.end) return null;
  const len = (c.loop.end - c.loop.start) / FPS;
  const first = c.anchorTime + (c.loop.end - c.anchorFrame) / FPS;
  if (time < first) return first;
  return first + (Math.floor((time - first) / len) + 1) * len;
}

/**
 * How to start an AudioBufferSourceNode so the sound matches the clock from context time `time`:
 * `source.start(when, offset)`. Before the song begins (audio time < 0) it starts later at offset 0;
 * null when the clock is paused or the frame is past the song's end (`duration` s).
 */
export function audioStart(
  c: PlaybackClock,
  time: number,
  offsetFrames: number,
  duration: number,
): { when: number; offset: number } | null {
  if (!c.playing) return null;
  const at = audioTimeAtFrame(frameAt(c, time), offsetFrames);
  if (at >= duration) return null;
  if (at < 0) return { when: time - at, offset: 0 };
  return { when: time, offset: at };
}

/** One pass of the loop's sound: `source.start(when, offset)` and `source.stop(stopAt)`. */
export interface LoopPass {
  when: number;
  offset: number;
  stopAt: number;
}

/**
 * The sound of the loop pass that begins at context time `wrapTime` (a time nextWrapTime gave): it starts
 * exactly at the wrap from the loop start's place in the song and stops at the next wrap, so the song is
 * scheduled ahead on the context's own clock (sample-accurate, no display tick in between, nothing heard
 * from past the loop's end). Null without a loop or when the loop start is past the song's end; a loop
 * start before the song begins starts the sound later, within the pass (null if not within it).
 */
export function loopPassAt(c: PlaybackClock, wrapTime: number, offsetFrames: number, duration: number): LoopPass | null {
  if (!c.loop) return null;
  const stopAt = wrapTime + (c.loop.end - c.loop.start) / FPS;
  const at = audioTimeAtFrame(c.loop.start, offsetFrames);
  if (at >= duration) return null;
  if (at < 0) {
    const when = wrapTime - at;
    return when < stopAt ? { when, offset: 0, stopAt } : null;
  }
  return { when: wrapTime, offset: at, stopAt };
}

/**
 * A scrub grain: a short piece of the song at the cursor, `source.start(when, offset, length)` with a
 * linear fade of `fade` s in and out (no click at its edges).
 */
export interface Grain {
  when: number;
  offset: number;
  length: number;
  fade: number;
}

/** Grain shape and throttle (s): 70 ms pieces, 8 ms fades, at most one grain begins every 50 ms. */
export const GRAIN_SHAPE = { length: 0.07, fade: 0.008, interval: 0.05 };

/**
 * Plans the grain for the cursor at `frame` (context time `now`), given the last grain planned. Throttled
 * on the context clock, with no timers: a grain begins at most every `interval` s, so a fast drag schedules
 * the next one ahead; while that one has not begun yet (`replace`: the caller cancels it) a newer cursor
 * takes its place at the same time, so the grain heard is always the latest cursor's. `grain` is null
 * where the cursor is outside the song (before its start or past its end): silence.
 */
export function planGrain(
  frame: number,
  offsetFrames: number,
  duration: number,
  now: number,
  last: Grain | null,
  shape = GRAIN_SHAPE,
): { grain: Grain | null; replace: boolean } {
  const replace = last !== null && last.when > now;
  const when = replace ? last.when : last ? Math.max(now, last.when + shape.interval) : now;
  const offset = audioTimeAtFrame(frame, offsetFrames);
  if (!(offset >= 0) || offset >= duration) return { grain: null, replace };
  const length = Math.min(shape.length, duration - offset);
  return { grain: { when, offset, length, fade: Math.min(shape.fade, length / 2) }, replace };
}
