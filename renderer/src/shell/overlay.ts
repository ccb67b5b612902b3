/**
 * The overlay stack: the dialogs and menus open over the window, the last opened on top. A dialog or menu
 * pushes itself while it is open (`useOverlay`, or `pushOverlay`); the one keymap (keymap.ts) sends Escape
 * to the top entry, which closes it, and runs no editor key while any is open (Delete must not delete keys
 * behind a dialog, Escape must not also clear the picked joint). Nothing else listens for Escape to close
 * an overlay, and nothing counts dialogs in the page.
 */
import { onBeforeUnmount, watch } from 'vue';

interface OverlayEntry {
  close: () => void;
}

const stack: OverlayEntry[] = [];

/** Puts an open overlay on top of the stack; returns the function that takes it off (it closed). */
export function pushOverlay(close: () => void): () => void {
  const entry: OverlayEntry = { close };
  stack.push(entry);
  return () => {
    const i = stack.indexOf(entry);
    if (i >= 0) stack.splice(i, 1);
  };
}

/** Whether a dialog or menu is open over the window. */
export function overlayOpen(): boolean {
  return stack.length > 0;
}

/** Escape: closes the top overlay; false when none is open. */
export function closeTopOverlay(): boolean {
  const top = stack[stack.length - 1];
  if (!top) return false;
  top.close();
  return true;
}

/**
 * A component's overlay: on the stack while `isOpen()` holds (and the component is mounted), closed by
 * Escape through `close`. Without `isOpen` it is open as long as the component is mounted (a dialog
 * shown by v-if). Returns whether it is the top overlay now (a panel's own keys, such as Enter to apply,
 * are its only while nothing is open over it).
 */
export function useOverlay(close: () => void, isOpen: () => boolean = () => true): () => boolean {
  let pop: (() => void) | null = null;
  let entry: OverlayEntry | null = null;
  const stop = watch(
    isOpen,
    (open) => {
      if (open && !pop) {
        pop = pushOverlay(close);
        entry = stack[stack.length - 1];
      } else if (!open && pop) {
        pop();
        pop = null;
        entry = null;
      }
    },
    { immediate: true },
  );
  onBeforeUnmount(() => {
    stop();
    pop?.();
    pop = null;
    entry = null;
  });
  return () => entry !== null && stack[stack.length - 1] === entry;
}
