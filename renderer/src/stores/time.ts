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
  }),
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
    },
  },
});
