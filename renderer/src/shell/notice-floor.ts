/**
 * Where notices stand, and what they must not cover (in the shell: the preview and the panels both hand it their
 * controls, and neither view may import the other's room). They collect at the bottom right of the preview's picture
 * (`noticeCorner`), above the preview's play bar (where they do not fit there, over it, above the status bar) and
 * below its header, stacking upward, as VS Code, Blender and
 * nanoem put theirs at the window's bottom right: over the picture, not over the panels the person works in
 * (the file panel, the timeline, the curve editor, the Key panel), nor the menu bar or the status bar. Before,
 * they stood in the strip left of the editor, over the file panel's text, 190–230 px wide at 1366 px, where a file
 * name broke mid-word (new-user pass nulaptop 6).
 *
 * Controls inside that corner are handed over while they are shown: a floor (`useNoticeFloor`) is one the notices
 * stack above (an open panel's footer, such as the retarget panel's Apply and Cancel; the preview's pose buttons
 * and camera switches, at the picture's bottom), a ceiling (`useNoticeCeiling`) one they stop below (the
 * preview's ⤡ and view buttons, and its status lines with the speed button, at the picture's top). Each counts only where it lies
 * across the notices' column.
 */
import { onBeforeUnmount, shallowRef, watch, type Ref } from 'vue';

/** A box in window (CSS) pixels, as getBoundingClientRect gives it. */
export interface Box {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

/** The notices' place: the column (`left`, `width`), the stack's bottom edge (`bottom`, a y) and its tallest. */
export interface NoticeCorner {
  left: number;
  width: number;
  bottom: number;
  maxHeight: number;
}

/** The notices' widest (a file name and a sentence on a line), their inset from the corner's edges and floors. */
export const NOTICE_WIDTH = 380;
export const NOTICE_GAP = 8;
/** The least height the stack is given, even where floors and ceilings leave less (a notice covers a control rather than vanish). */
export const NOTICE_MIN_HEIGHT = 80;

/**
 * The notices' place in `area` (the preview's picture): its bottom right corner, inset by NOTICE_GAP, at most
 * NOTICE_WIDTH wide; the stack's bottom above every floor and its top below every ceiling that lies across the
 * column (an empty box counts as none). Its height is what is left between them, at least NOTICE_MIN_HEIGHT.
 *
 * With `pane` (the preview pane: NotificationList.vue passes it when the notices do not fit in the picture, as in
 * a window 1024 px wide, where with a camera shown the play bar wraps to four or five rows and the picture is
 * 180–290 px tall), the stack reaches down over the rest of the pane under the picture (the play bar and the
 * details) to the pane's bottom, above the status bar and the floors there, and below the floors in the picture (the
 * pick and mouse hints, the pose buttons, the camera switches: what the picture's bottom holds stays in sight): one
 * notice cut to 80 px with "+3 more" was no way to read them.
 */
export function noticeCorner(area: Box, floors: readonly Box[] = [], ceilings: readonly Box[] = [], pane?: Box): NoticeCorner {
  const width = Math.max(0, Math.min(NOTICE_WIDTH, area.right - area.left - 2 * NOTICE_GAP));
  const left = area.right - NOTICE_GAP - width;
  const across = (b: Box) => b.bottom > b.top && b.right > b.left && b.left < left + width && left < b.right;
  let top = area.top + NOTICE_GAP;
  for (const c of ceilings) if (across(c)) top = Math.max(top, c.bottom + NOTICE_GAP);
  // The floors under the stack's column, from the lowest edge it may take: the picture's, or the pane's below it.
  const low = pane && pane.bottom > area.bottom ? pane.bottom : area.bottom;
  let bottom = low - NOTICE_GAP;
  // Reaching down from below, a floor inside the picture is a ceiling: the stack stays under it (with no bone picked,
  // the mouse hint at the picture's bottom left was covered by notices reaching up from the play bar).
  for (const f of floors) {
    if (!across(f)) continue;
    if (low === area.bottom || f.top >= area.bottom) bottom = Math.min(bottom, f.top - NOTICE_GAP);
    else top = Math.max(top, f.bottom + NOTICE_GAP);
  }
  return { left, width, bottom, maxHeight: Math.max(NOTICE_MIN_HEIGHT, bottom - top) };
}

const floors = shallowRef<readonly HTMLElement[]>([]);
const ceilings = shallowRef<readonly HTMLElement[]>([]);

/** The floors shown now (the list re-measures when this changes). */
export const noticeFloors: Readonly<Ref<readonly HTMLElement[]>> = floors;
/** The ceilings shown now. */
export const noticeCeilings: Readonly<Ref<readonly HTMLElement[]>> = ceilings;

function holdIn(list: typeof floors, el: Readonly<Ref<HTMLElement | null>>): void {
  let held: HTMLElement | null = null;
  const hold = (next: HTMLElement | null) => {
    if (next === held) return;
    const rest = list.value.filter((x) => x !== held);
    held = next;
    list.value = next ? [...rest, next] : rest;
  };
  watch(el, hold, { immediate: true, flush: 'post' });
  onBeforeUnmount(() => hold(null));
}

/** Registers the element `el` holds (a `v-if` panel's footer: null while closed) as a floor for as long as it is there. */
export function useNoticeFloor(el: Readonly<Ref<HTMLElement | null>>): void {
  holdIn(floors, el);
}

/** Registers the element `el` holds as a ceiling for as long as it is there. */
export function useNoticeCeiling(el: Readonly<Ref<HTMLElement | null>>): void {
  holdIn(ceilings, el);
}
