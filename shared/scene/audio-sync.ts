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
