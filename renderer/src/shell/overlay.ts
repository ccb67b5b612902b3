/**
 * The overlay stack: the dialogs and menus open over the window, the last opened on top. A dialog or menu
 * pushes itself while it is open (`useOverlay`, or `pushOverlay`); the one keymap (keymap.ts) sends Escape
 * to the top entry, which closes it, and runs no editor key while any is open (Delete must not delete keys
 * behind a dialog, Escape must not also clear the picked joint). Nothing else listens for Escape to close
 * an overlay, and nothing counts dialogs in the page.
 *
 * A modal dialog (`useOverlay(..., { modal: true })`, every dialog with a backdrop) also owns the keyboard's
 * focus, as the ARIA dialog pattern and Windows' dialogs do: it takes the focus when it opens (a field or
 * button it focused itself, else its first field, else its default button), Tab and Shift+Tab go round inside
 * it (the keymap sends Tab here: `trapTab`), and on closing it gives the focus back to the control that opened
 * it (or, when that was a menu's item and the menu is gone, to the menu's button). It is marked aria-modal.
 * Before, Tab went on to the controls behind the backdrop and Escape left the focus anywhere. A dialog opened
 * with the mouse gives the keys back to the page instead, as before: a click on Open… and then Space plays,
 * rather than pressing Open… again (Enter and Space press a focused button, keymap.ts).
 */
import { getCurrentInstance, nextTick, onBeforeUnmount, watch } from 'vue';

interface OverlayEntry {
  close: () => void;
  /** A modal dialog's element (its backdrop or box): the focus stays inside it. */
  root?: () => HTMLElement | null;
  /** A question waiting for its answer (ConfirmDialog): no app command runs while it is open (questionOpen). */
  question?: boolean;
}

const stack: OverlayEntry[] = [];

/** Puts an open overlay on top of the stack; returns the function that takes it off (it closed). */
export function pushOverlay(close: () => void, root?: () => HTMLElement | null, question = false): () => void {
  const entry: OverlayEntry = { close, root, question };
  stack.push(entry);
  return () => {
    const i = stack.indexOf(entry);
    if (i >= 0) stack.splice(i, 1);
  };
}

const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';

/** The elements Tab stops at inside `root`, in order (enabled, shown, not tabindex -1). */
export function tabStops(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => {
    if ((el as HTMLButtonElement).disabled || el.getAttribute('tabindex') === '-1') return false;
    if (el instanceof HTMLInputElement && el.type === 'hidden') return false;
    if (el.closest('[hidden], [inert]')) return false;
    return typeof el.checkVisibility === 'function' ? el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions) : true;
  });
}

/** The top overlay's element when it is a modal dialog, else null. */
function topModal(): HTMLElement | null {
  const top = stack[stack.length - 1];
  return top?.root?.() ?? null;
}

/**
 * Tab (Shift+Tab: `back`) while a modal dialog is on top: from its last stop to its first (first to last), and
 * into it from anywhere outside; true when it moved the focus (the key's default is then cancelled). Inside,
 * between its stops, the browser's own order goes on.
 */
export function trapTab(back: boolean): boolean {
  const root = topModal();
  if (!root) return false;
  const stops = tabStops(root);
  const at = document.activeElement as HTMLElement | null;
  const target = !stops.length ? root : !at || !root.contains(at) || !stops.includes(at) ? stops[back ? stops.length - 1 : 0] : back && at === stops[0] ? stops[stops.length - 1] : !back && at === stops[stops.length - 1] ? stops[0] : null;
  if (!target) return false;
  if (target === root && !root.hasAttribute('tabindex')) root.tabIndex = -1;
  target.focus();
  return true;
}

function focusedNow(): HTMLElement | null {
  const el = document.activeElement;
  return el instanceof HTMLElement && el !== document.body ? el : null;
}

/**
 * The control that opened a menu (or side panel) that closed in this task: a menu's item that opens a dialog
 * closes its menu at the same time, and the item may be gone before the dialog asks who opened it.
 */
let menuJustClosed: HTMLElement | null = null;

/** Whether the last key or pointer press was the pointer's (a dialog opened by a click). */
let byPointer = false;
let watchingInput = false;
function watchInput(): void {
  if (watchingInput || typeof window === 'undefined') return;
  watchingInput = true;
  window.addEventListener('pointerdown', () => (byPointer = true), true);
  window.addEventListener('keydown', () => (byPointer = false), true);
}

/** Where a dialog opening now should give the focus back to: the focused control, or its menu's button. */
function openerNow(): { el: HTMLElement | null; menu: HTMLElement | null; byPointer: boolean } {
  const el = focusedNow();
  // A menu's item closes with its menu: its button (the one with aria-expanded beside the list) stands in.
  const list = el?.closest('.menu, [role="menu"]');
  const menu = list?.parentElement?.querySelector<HTMLElement>(':scope > [aria-expanded]') ?? null;
  return { el, menu: menu ?? menuJustClosed, byPointer };
}

/** The control a modal dialog focuses first: one it focused itself, else its first field, else its default button. */
function focusInto(root: HTMLElement): void {
  if (root.contains(document.activeElement)) return;
  const stops = tabStops(root);
  const field = stops.find((el) => el.matches('[autofocus], [data-autofocus]')) ??
    stops.find((el) => (el instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'range'].includes(el.type)) || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) ??
    stops.find((el) => el.classList.contains('primary')) ??
    stops[0];
  if (field) field.focus();
  else {
    root.tabIndex = -1;
    root.focus();
  }
}

/** A modal dialog's element is marked modal (role dialog, aria-modal) for screen readers. */
function markModal(root: HTMLElement): void {
  const box = root.getAttribute('role') === 'dialog' ? root : root.querySelector<HTMLElement>('[role="dialog"]') ?? root;
  if (!box.getAttribute('role')) box.setAttribute('role', 'dialog');
  box.setAttribute('aria-modal', 'true');
}

/** Whether a dialog or menu is open over the window. */
export function overlayOpen(): boolean {
  return stack.length > 0;
}

/**
 * Whether a question (Replace?, Save changes?, cannot save…) is open: the keyboard's and the native menu's app
 * commands wait for its answer (keymap.ts, App.vue). Ctrl+Shift+S opened Save As under a "cannot save" question,
 * two modal dialogs stacked, the top one in the way (new-user pass nujp 6).
 */
export function questionOpen(): boolean {
  return stack.some((e) => e.question);
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
 * `modal`: a dialog with a backdrop, whose element is the component's root element: it holds the focus as
 * the module comment says (menus and the side panels beside the preview do not). `question`: see questionOpen.
 */
export function useOverlay(close: () => void, isOpen: () => boolean = () => true, o: { modal?: boolean; question?: boolean } = {}): () => boolean {
  let pop: (() => void) | null = null;
  let entry: OverlayEntry | null = null;
  let opener: ReturnType<typeof openerNow> | null = null;
  /** A menu's: the control focused when it opened (its button), for a dialog one of its items opens. */
  let menuOpener: HTMLElement | null = null;
  const vm = getCurrentInstance();
  if (o.modal) watchInput();
  const root = (): HTMLElement | null => {
    const el = vm?.proxy?.$el as Node | null | undefined;
    return el instanceof HTMLElement && el.isConnected ? el : null;
  };
  /** Back to the opener, unless something else outside the dialog has taken the focus meanwhile. */
  const giveBack = (el: HTMLElement | null) => {
    const o = opener;
    opener = null;
    if (!o) return;
    const at = document.activeElement;
    if (at && at !== document.body && !(el && el.contains(at))) return;
    const to = o.byPointer ? null : o.el?.isConnected ? o.el : o.menu?.isConnected ? o.menu : null;
    if (to && !(to as HTMLButtonElement).disabled) to.focus();
    else if (el?.contains(at)) (at as HTMLElement).blur();
  };
  const stop = watch(
    isOpen,
    (open) => {
      if (open && !pop) {
        pop = pushOverlay(close, o.modal ? root : undefined, o.question);
        entry = stack[stack.length - 1];
        if (!o.modal) menuOpener = focusedNow();
        else {
          opener = openerNow();
          void nextTick(() => {
            const el = root();
            if (!el || !pop) return;
            markModal(el);
            focusInto(el);
          });
        }
      } else if (!open && pop) {
        const el = root();
        pop();
        pop = null;
        entry = null;
        if (o.modal) void nextTick(() => giveBack(el));
        else if (menuOpener) {
          menuJustClosed = menuOpener;
          menuOpener = null;
          setTimeout(() => (menuJustClosed = null));
        }
      }
    },
    { immediate: true },
  );
  onBeforeUnmount(() => {
    stop();
    const el = root();
    const was = !!pop;
    pop?.();
    pop = null;
    entry = null;
    if (o.modal && was) giveBack(el);
  });
  return () => entry !== null && stack[stack.length - 1] === entry;
}
