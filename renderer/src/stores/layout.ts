/**
 * The window's panes (issue 30): the widths of the left pane (file, bones, morphs, stage) and of the preview,
 * set by dragging their borders (PaneSplitter.vue), the height of the editor's curve/key area under the timeline
 * (its border dragged up or down), and the preview taking the whole window (a key and back). Sizes are kept in
 * the settings' ui map so they come back next time; null is the default layout.
 *
 * The sizes kept are what the person chose; what is shown is fitted to the window (`avail`, the body's width,
 * measured by use-pane-layout.ts): a layout dragged on a wide screen, or restored from settings into a smaller
 * window, is narrowed until the editor keeps MIN_CENTER, so no pane is pushed out of the window (new-user pass
 * nulaptop 3: at 1024 px the preview was dragged past the window's edge and stayed there after a reload).
 */
import { defineStore } from 'pinia';
import { useSettingsStore } from './settings';

/** The narrowest a pane may be dragged (the editor between them keeps at least MIN_CENTER). */
export const MIN_LEFT = 160;
export const MIN_RIGHT = 240;
export const MIN_CENTER = 420;
/** The lowest the curve/key area may be dragged, and the least the timeline (track rows) keeps above it. */
export const MIN_BOTTOM = 220;
export const MIN_SHEET = 160;
/**
 * The default columns (App.vue's): the left pane 16 % of the window within 160–260 px; the preview a third of it,
 * but below about 1170 px only the window less 784 px, down to its 240 px at 1024 px (Electron's minimum width), so
 * there the editor keeps 620 px, its toolbar's width, and the preview gives way first.
 */
export const DEFAULT_LEFT = 'clamp(160px, 16vw, 260px)';
export const DEFAULT_RIGHT = 'clamp(240px, 100% - 784px, 33%)';
const defaultLeftPx = (total: number) => Math.min(260, Math.max(MIN_LEFT, 0.16 * total));
const defaultRightPx = (total: number) => Math.min(0.33 * total, Math.max(MIN_RIGHT, total - 784));
/** Settings keys (the ui map holds scalars only). */
const LEFT_SETTING = 'layout.leftWidth';
const RIGHT_SETTING = 'layout.rightWidth';
const BOTTOM_SETTING = 'layout.bottomHeight';

/**
 * The widths shown for `left` and `right` (null: the default's width) in a body `total` px wide: as they are when
 * the editor keeps MIN_CENTER; else each narrowed by its share of the excess over its minimum.
 */
export function fitWidths(left: number | null, right: number | null, total: number): { left: number; right: number } {
  const l = left ?? defaultLeftPx(total), r = right ?? defaultRightPx(total);
  const over = l + r + MIN_CENTER - total;
  if (over <= 0) return { left: l, right: r };
  // Only a width the person set gives way (a default fits any window of 1024 px and up by itself).
  const roomL = left === null ? 0 : Math.max(0, l - MIN_LEFT), roomR = right === null ? 0 : Math.max(0, r - MIN_RIGHT);
  const room = roomL + roomR;
  if (room <= 0) return { left: l, right: r };
  const cut = Math.min(over, room);
  return { left: Math.round(l - (cut * roomL) / room), right: Math.round(r - (cut * roomR) / room) };
}

export const useLayoutStore = defineStore('layout', {
  state: () => ({
    left: null as number | null,
    right: null as number | null,
    bottom: null as number | null,
    previewFull: false,
    /** The body's width, px (use-pane-layout.ts measures it); 0 before it is measured: nothing fitted then. */
    avail: 0,
  }),
  getters: {
    /** The body grid's columns: the defaults (App.vue) until a border was dragged. */
    columns(state): string | null {
      if (state.previewFull) return '0 0 minmax(0, 1fr)';
      if (state.left === null && state.right === null) return null;
      const fit = state.avail > 0 ? fitWidths(state.left, state.right, state.avail) : { left: state.left, right: state.right };
      const l = state.left === null ? DEFAULT_LEFT : `${fit.left}px`;
      const r = state.right === null ? DEFAULT_RIGHT : `${fit.right}px`;
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
    /** Sets the curve/key area's height, kept within MIN_BOTTOM and what leaves the timeline MIN_SHEET of `total` (both). */
    setBottom(px: number, total: number) {
      this.bottom = Math.round(Math.max(MIN_BOTTOM, Math.min(px, total - MIN_SHEET)));
    },
    save() {
      const settings = useSettingsStore();
      void settings.update({ ui: { ...settings.settings.ui, [LEFT_SETTING]: this.left, [RIGHT_SETTING]: this.right, [BOTTOM_SETTING]: this.bottom } });
    },
    restore() {
      const ui = useSettingsStore().settings.ui ?? {};
      const l = ui[LEFT_SETTING], r = ui[RIGHT_SETTING], b = ui[BOTTOM_SETTING];
      this.left = typeof l === 'number' && l >= MIN_LEFT ? l : null;
      this.right = typeof r === 'number' && r >= MIN_RIGHT ? r : null;
      this.bottom = typeof b === 'number' && b >= MIN_BOTTOM ? b : null;
    },
    /** The default layout (a splitter's double-click, ? → Reset layout); the preview back in its pane too. */
    reset() {
      this.left = null;
      this.right = null;
      this.bottom = null;
      this.previewFull = false;
      this.save();
    },
    togglePreviewFull(on?: boolean) {
      this.previewFull = on ?? !this.previewFull;
    },
  },
});
