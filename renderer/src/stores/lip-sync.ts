/**
 * The morph panel's lip-sync mode (MorphPanel.vue, editor/lip-sync.ts): whether it is on (then A I U E O N W X key
 * mouth shapes: shell/shortcuts.ts, its `lipSync` context), the weight a tap keys, how many frames the playhead steps
 * after a tap while paused (0: it stays), and the last tap, which the panel shows.
 */
import { defineStore } from 'pinia';
import type { MouthShape } from '../../../shared/key-edits';

/** The farthest step a tap may take the playhead (a second at 30 fps). */
export const LIP_SYNC_MAX_STEP = 30;

export const useLipSyncStore = defineStore('lip-sync', {
  state: () => ({
    on: false,
    /** The weight a tapped shape is keyed at (0–1). */
    weight: 1,
    /** Frames the playhead steps forward after a tap while paused (0–LIP_SYNC_MAX_STEP). */
    step: 0,
    /** The last tap: its shape ('closed': every shape 0) and frame. */
    last: null as { shape: MouthShape | 'closed'; frame: number } | null,
  }),
  actions: {
    setOn(on: boolean) {
      this.on = on;
      if (!on) this.last = null;
    },
    setWeight(w: number) {
      if (Number.isFinite(w)) this.weight = Math.max(0, Math.min(1, w));
    },
    setStep(n: number) {
      if (Number.isFinite(n)) this.step = Math.max(0, Math.min(LIP_SYNC_MAX_STEP, Math.round(n)));
    },
  },
});
