/**
 * Current frame and playback, shared by the timeline, the curve editor and the 3D preview.
 * The frame may be fractional while playing (sub-frames at the display rate); the editor snaps to whole frames.
 */
import { defineStore } from 'pinia';
import { MAX_DENSE_FRAMES } from '../../../shared/edit-core/dense-limit';
import { useSettingsStore } from './settings';

/**
 * settings.ui key: the Loop switch beside Play, remembered as its neighbours (Physics, Self-shadow…) are: it came back
 * ticked at every start (new-user pass nuprefs 4). On unless switched off.
 */
export const LOOP_SETTING = 'playLoop';

/**
 * The farthest frame the playhead goes to (typed, stepped or clicked): 999,999, 9¼ hours at 30 fps. As in
 * MMD, a frame past the motion's end is a place to key, so the playhead is not held to the keys; a key put
 * here still leaves a motion the tools that sample every frame take (shared/edit-core/dense-limit.ts).
 */
export const PLAYHEAD_MAX = MAX_DENSE_FRAMES - 1;

/**
 * Playback speeds (MikuMikuMoving's and nanoem's slow playback; MMD has none): the motion's time runs at this
 * share of real time, so a fast move can be watched slowly. Physics steps by the motion's time (frames), so hair
 * swings as at ×1, slower. The song is silent below ×1 (its clock does not drive then).
 */
export const PLAY_RATES = [1, 0.5, 0.25] as const;
export type PlayRate = (typeof PLAY_RATES)[number];
/** settings.ui key: the playback speed as last chosen (a PLAY_RATES value), as the physics mode is remembered. */
export const PLAY_RATE_SETTING = 'playRate';

/**
 * The frame playback shows after `dt` seconds of display time at `rate` from `frame` over `bounds` (looping when
 * `loop`, else stopping at the end), or where the song's clock says (`musicFrame`, at ×1 only). Pure: the
 * playback loop's step (preview/use-preview.ts tick), tested with a made-up clock.
 */
export function playStep(frame: number, dt: number, rate: number, bounds: readonly [number, number], loop: boolean, musicFrame: number | null): { frame: number; stop: boolean } {
  const [start, end] = bounds;
  let f = musicFrame ?? Math.max(frame, start) + dt * 30 * rate;
  if (f > end) {
    if (loop && end > start) f = start + ((f - start) % (end - start));
    else return { frame: end, stop: true };
  }
  return { frame: f, stop: false };
}

export const useTimeStore = defineStore('time', {
  state: () => ({
    /** Current frame (30 fps timeline). */
    frame: 0,
    playing: false,
    /** Playback speed (PLAY_RATES): 1, or slower. */
    rate: 1 as PlayRate,
    loop: true,
    /**
     * Where the time line ends (playback, End, fit, the "/ N" beside the frame): the later of the motions'
     * last key and the music's end (`motionLast`, `musicEnd`).
     */
    lastFrame: 0,
    /** The last key over the open documents (workspace.ts syncRange). */
    motionLast: 0,
    /** The frame the loaded song ends on at its offset (0 without music; stores/music.ts). */
    musicEnd: 0,
    /** A part of the time line played in a loop instead of the whole (the play range: set on the ruler, or the curve editor's segment), or null. */
    range: null as { from: number; to: number } | null,
    /** The Loop setting before a range was played (a range always loops); restored when it ends. */
    loopBeforeRange: null as boolean | null,
  }),
  getters: {
    /** First and last frame playback runs over: the range, or the whole time line. */
    bounds: (s): [number, number] => (s.range ? [s.range.from, s.range.to] : [0, Math.max(s.lastFrame, 0)]),
  },
  actions: {
    /** Goes to `frame`: any frame from 0 to PLAYHEAD_MAX, past the last key too (as MMD's frame box). */
    seek(frame: number) {
      this.frame = Math.max(0, Math.min(frame, PLAYHEAD_MAX));
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
    /** The playback speed, remembered in the settings (`persist`) for the next start. */
    setRate(rate: PlayRate, persist = true) {
      this.rate = rate;
      if (persist) {
        const settings = useSettingsStore();
        void settings.update({ ui: { ...settings.settings.ui, [PLAY_RATE_SETTING]: rate } });
      }
    },
    /** The next speed of PLAY_RATES (×1 → ×0.5 → ×0.25 → ×1), key S. */
    cycleRate() {
      this.setRate(PLAY_RATES[(PLAY_RATES.indexOf(this.rate) + 1) % PLAY_RATES.length]);
    },
    /** The speed the settings remember (once they are loaded: App.vue); ×1 for none or a value not offered. */
    restoreRate() {
      const v = useSettingsStore().settings.ui[PLAY_RATE_SETTING];
      this.setRate(PLAY_RATES.find((r) => r === v) ?? 1, false);
    },
    toggle() {
      if (this.playing) this.pause();
      else this.play();
    },
    /** The motions' last key changed (a document opened, edited or closed): the time line's end follows. */
    setRange(motionLast: number) {
      this.motionLast = motionLast;
      this.updateEnd();
    },
    /** The song's end frame changed (loaded, unloaded, its offset moved): the time line's end follows. */
    setMusicEnd(frame: number) {
      this.musicEnd = frame;
      this.updateEnd();
    },
    /** The playhead stays where it is (a place past the end is still one to key); a range past the end goes. */
    updateEnd() {
      this.lastFrame = Math.max(this.motionLast, this.musicEnd, 0);
      if (this.range && this.range.to > this.lastFrame) this.clearRange();
    },
    /**
     * Sets the play range (MMD's 再生 panel's start and end with loop; MMM's loop region): frames from..to,
     * within the time line, looped until the range is cleared; the playhead goes to its start. False for an
     * empty range (nothing changes then).
     */
    setPlayRange(from: number, to: number): boolean {
      const a = Math.max(0, Math.min(from, to)), b = Math.min(Math.max(from, to), this.lastFrame);
      if (!(b > a)) return false;
      this.range = { from: a, to: b };
      if (this.loopBeforeRange === null) this.loopBeforeRange = this.loop;
      this.loop = true;
      this.seek(a);
      return true;
    },
    /** Plays frames from..to in a loop (e.g. the segment a curve shapes) until the range is cleared. */
    playRange(from: number, to: number) {
      if (this.setPlayRange(from, to)) this.play();
    },
    /**
     * The Loop switch: remembered in the settings unless `persist` is false. While a range plays (it always loops)
     * the choice is what playback goes back to when the range ends.
     */
    setLoop(on: boolean, persist = true) {
      if (this.range !== null && this.loopBeforeRange !== null && !persist) this.loopBeforeRange = on;
      else this.loop = on;
      if (persist) {
        const settings = useSettingsStore();
        void settings.update({ ui: { ...settings.settings.ui, [LOOP_SETTING]: on } });
      }
    },
    /** The Loop switch as remembered (once the settings are in). */
    restoreLoop() {
      const settings = useSettingsStore();
      if (settings.loaded) this.setLoop(settings.settings.ui?.[LOOP_SETTING] !== false, false);
    },
    clearRange() {
      this.range = null;
      if (this.loopBeforeRange !== null) this.loop = this.loopBeforeRange;
      this.loopBeforeRange = null;
    },
  },
});
