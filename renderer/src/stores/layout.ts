/**
 * The window's panes (issue 30): the widths of the left pane (file, bones, morphs, stage) and of the preview,
 * set by dragging their borders (PaneSplitter.vue), and the preview taking the whole window (a key and
 * back). Widths are kept in the settings' ui map so they come back next time; null is the default layout.
 */
import { defineStore } from 'pinia';
import { useSettingsStore } from './settings';

/** The narrowest a pane may be dragged (the editor between them keeps at least MIN_CENTER). */
export const MIN_LEFT = 160;
export const MIN_RIGHT = 240;
export const MIN_CENTER = 420;
/** Settings keys (the ui map holds scalars only). */
const LEFT_SETTING = 'layout.leftWidth';
const RIGHT_SETTING = 'layout.rightWidth';

export const useLayoutStore = defineStore('layout', {
  state: () => ({
    left: null as number | null,
    right: null as number | null,
    previewFull: false,
  }),
  getters: {
    /** The body grid's columns: the defaults (App.vue) until a border was dragged. */
    columns(state): string | null {
      if (state.previewFull) return '0 0 minmax(0, 1fr)';
      if (state.left === null && state.right === null) return null;
      const l = state.left === null ? 'clamp(190px, 16vw, 260px)' : `${state.left}px`;
      const r = state.right === null ? 'minmax(280px, 33%)' : `${state.right}px`;
      return `${l} minmax(0, 1fr) ${r}`;
    },
  },
  actions: {
    /** Sets a pane's width, kept within what leaves the editor MIN_CENTER of `total`. */
    setWidth(which: 'left' | 'right', px: number, total: number, other: number) {
      const min = which === 'left' ? MIN_LEFT : MIN_RIGHT;
      const w = Math.round(Math.max(min, Math.min(px, total - other - MIN_CENTER)));
      this[which] = w;
    },
    save() {
      const settings = useSettingsStore();
      void settings.update({ ui: { ...settings.settings.ui, [LEFT_SETTING]: this.left, [RIGHT_SETTING]: this.right } });
    },
    restore() {
      const ui = useSettingsStore().settings.ui ?? {};
      const l = ui[LEFT_SETTING], r = ui[RIGHT_SETTING];
      this.left = typeof l === 'number' && l >= MIN_LEFT ? l : null;
      this.right = typeof r === 'number' && r >= MIN_RIGHT ? r : null;
    },
    reset() {
      this.left = null;
      this.right = null;
      this.save();
    },
    togglePreviewFull(on?: boolean) {
      this.previewFull = on ?? !this.previewFull;
    },
  },
});
