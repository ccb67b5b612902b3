/**
 * The morph panel's lip-sync mode (MorphPanel.vue, editor/lip-sync.ts): whether it is on (then A I U E O N W M X key
 * mouth shapes: shell/shortcuts.ts, its `lipSync` context), the weight a tap keys, how many frames the playhead steps
 * after a tap while paused (0: it stays), and the last tap, which the panel shows. Weight and Step are remembered in
 * the settings' `ui` bag for the next start (restore, from App.vue).
 */
import { defineStore } from 'pinia';
import { markRaw } from 'vue';
import type { MouthShape, MouthTimings, TimingError } from '../../../shared/key-edits';
import type { Outcome } from '../../../shared/vmd/errors';
import { useSettingsStore } from './settings';

/** A timing file read for Import timings… (shell/mouth-timings.ts), shown as a preview until Apply or Cancel. */
export interface PendingTimings {
  path: string;
  /** Its file name, as the preview and the errors name it. */
  name: string;
  /** The timings, or why a line is not one. */
  result: Outcome<MouthTimings, TimingError>;
}

/** The farthest step a tap may take the playhead (a second at 30 fps). */
export const LIP_SYNC_MAX_STEP = 30;
/**
 * settings.ui keys: the Weight and the Step as last set, remembered as the playback speed is (two numbers, well
 * inside the bag's bounds: shared/ipc/validate.ts uiBagProblem). A value out of range (an edited file) is clamped.
 */
export const LIP_WEIGHT_SETTING = 'lipSyncWeight';
export const LIP_STEP_SETTING = 'lipSyncStep';

export const useLipSyncStore = defineStore('lip-sync', {
  state: () => ({
    on: false,
    /** The weight a tapped shape is keyed at (0–1). */
    weight: 1,
    /** Frames the playhead steps forward after a tap while paused (0–LIP_SYNC_MAX_STEP). */
    step: 0,
    /** The last tap: its shape ('closed': every shape 0) and frame. */
    last: null as { shape: MouthShape | 'closed'; frame: number } | null,
    /** Import timings…: the file read, previewed in the mode's row until Apply or Cancel (kept out of reactivity: a song's timings). */
    pending: null as PendingTimings | null,
  }),
  actions: {
    setOn(on: boolean) {
      this.on = on;
      if (!on) {
        this.last = null;
        this.pending = null;
      }
    },
    /** A timing file to preview (the mode turns on to show it), or null when applied or cancelled. */
    setPending(p: PendingTimings | null) {
      if (p) this.on = true;
      this.pending = p ? markRaw(p) : null;
    },
    /** The weight (clamped to 0–1), remembered in the settings unless `persist` is false. */
    setWeight(w: number, persist = true) {
      if (!Number.isFinite(w)) return;
      this.weight = Math.max(0, Math.min(1, w));
      if (persist) this.remember(LIP_WEIGHT_SETTING, this.weight);
    },
    /** The step (a whole number, 0–LIP_SYNC_MAX_STEP), remembered in the settings unless `persist` is false. */
    setStep(n: number, persist = true) {
      if (!Number.isFinite(n)) return;
      this.step = Math.max(0, Math.min(LIP_SYNC_MAX_STEP, Math.round(n)));
      if (persist) this.remember(LIP_STEP_SETTING, this.step);
    },
    remember(key: string, value: number) {
      const settings = useSettingsStore();
      if (settings.settings.ui[key] !== value) void settings.update({ ui: { ...settings.settings.ui, [key]: value } });
    },
    /** The Weight and Step the settings remember (once they are loaded: App.vue); 1 and 0 for none or a value that is no number. */
    restore() {
      const ui = useSettingsStore().settings.ui;
      const w = ui[LIP_WEIGHT_SETTING], s = ui[LIP_STEP_SETTING];
      this.setWeight(typeof w === 'number' ? w : 1, false);
      this.setStep(typeof s === 'number' ? s : 0, false);
    },
  },
});
