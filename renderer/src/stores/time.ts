/**
 * Current frame and playback, shared by the timeline, the curve editor and the 3D preview.
 * The frame may be fractional while playing (sub-frames at the display rate); the editor snaps to whole frames.
 */
import { defineStore } from 'pinia';

export const useTimeStore = defineStore('time', {
  state: () => ({
    /** Current frame (30 fps timeline). */
    frame: 0,
    playing: false,
    loop: true,
    /** Last frame of the open document (playback range end). */
    lastFrame: 0,
    /** A part of the motion played instead of the whole (the curve editor's segment), or null. */
    range: null as { from: number; to: number } | null,
    /** The Loop setting before a range was played (a range always loops); restored when it ends. */
    loopBeforeRange: null as boolean | null,
  }),
  getters: {
    /** First and last frame playback runs over: the range, or the whole motion. */
    bounds: (s): [number, number] => (s.range ? [s.range.from, s.range.to] : [0, Math.max(s.lastFrame, 0)]),
  },
  actions: {
    seek(frame: number) {
      this.frame = Math.max(0, Math.min(frame, Math.max(this.lastFrame, 0)));
    },
    step(delta: number) {
      this.seek(Math.round(this.frame) + delta);
    },
    play() {
      this.playing = true;
    },
    pause() {
      this.playing = false;
      this.frame = Math.round(this.frame * 1000) / 1000;
    },
    toggle() {
      if (this.playing) this.pause();
      else this.play();
    },
    setRange(lastFrame: number) {
      this.lastFrame = lastFrame;
      if (this.frame > lastFrame) this.frame = lastFrame;
      if (this.range && this.range.to > lastFrame) this.clearRange();
    },
    /** Plays frames from..to in a loop (e.g. the segment a curve shapes) until the range is cleared. */
    playRange(from: number, to: number) {
      const a = Math.max(0, Math.min(from, to)), b = Math.min(Math.max(from, to), this.lastFrame);
      if (!(b > a)) return;
      this.range = { from: a, to: b };
      if (this.loopBeforeRange === null) this.loopBeforeRange = this.loop;
      this.loop = true;
      this.seek(a);
      this.play();
    },
    clearRange() {
      this.range = null;
      if (this.loopBeforeRange !== null) this.loop = this.loopBeforeRange;
      this.loopBeforeRange = null;
    },
  },
});
