/**
 * The keyboard dispatcher. The keys live in one table, SHORTCUT_GROUPS (shortcuts.ts): each keyboard
 * row binds its chords to an app command (`command`, run through runCommand) or an editor action
 * (`action`, run by the handlers the owning panel binds with `bindKeyActions`). The F1 reference
 * renders that same table, and test/renderer/shell/keymap.test.ts checks every row.
 *
 * One keydown listener (installKeymap, on the window, capture phase: it sees a dialog or menu as it was
 * when the key went down) decides for every key:
 * - Escape while a dialog or menu is open (overlay.ts): it closes the top one, and does nothing else.
 * - Tab / Shift+Tab while a modal dialog is on top: they go round inside it (overlay.ts trapTab).
 * - Alt held: nothing (the OS and browser keep Alt chords).
 * - App commands run over a dialog too (Ctrl+S saves), but not while a question waits for its answer (a confirm
 *   dialog: overlay.ts questionOpen), and, for rows marked `inText`, from a text field;
 *   under Electron the native menu's accelerators send them instead, so the dispatcher leaves them. While a
 *   dialog's job runs (a video rendering, a bake, a Whole Motion edit), runCommand refuses those that would
 *   change or take away what it works on (Close, Undo, Redo, Open…, New: shell/job-guard.ts), with a notice.
 * - Editor actions never run while a dialog or menu is open (overlayOpen: Escape is the dialog's,
 *   Delete must not delete keys behind it) or while typing in a text field (but for rows marked `inText`:
 *   F6 leaves a field for the next pane).
 * - Enter and Space on a focused button, checkbox, radio, tab, menu item, link or summary that the keyboard
 *   brought the focus to press it (the browser's default): the editor's Enter (insert a key) and Space (play)
 *   run from elsewhere (the page, the timeline, the curve canvas) and on a control the pointer focused (a click
 *   on Overlay, then Space plays). Before, Enter on a focused "Whole Motion…" inserted a key instead.
 * - Rows sharing a chord are told apart by `when` (the curve editor focused or not, a curve handle
 *   selected or not), whose values in one group exclude each other; so a key runs one row only.
 * Modifiers match exactly ('Mod' is Ctrl, ⌘ on macOS, for app commands; Ctrl or ⌘ for the editor's
 * keys), except that rows marked `anyShift` also take their key with Shift held, and symbol keys
 * (+ − [ ]) ignore Shift, which typing them may need.
 */
import { KEY_ACTIONS, KEY_CONTEXTS, type CommandId, type KeyAction, type KeyContext } from './key-names';
import { closeTopOverlay, overlayOpen, questionOpen, trapTab } from './overlay';
import { SHORTCUT_GROUPS, tokenKeys, type KeyToken, type ShortcutRow } from './shortcuts';

export { KEY_ACTIONS, type KeyAction } from './key-names';

export { KEY_CONTEXTS, type KeyContext } from './key-names';

/** The state the `when` conditions read; the editor provides it (setKeyContext). */
export interface KeyState {
  curveFocused: boolean;
  handleActive: boolean;
  /** The morph panel's lip-sync mode is on: A I U E O N W M X key mouth shapes (absent: off). */
  lipSync?: boolean;
}

/** What a key event a row's chord describes looks like (only the fields the dispatcher reads). */
export type KeyEventLike = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey' | 'target'> & { repeat?: boolean };

/** A handler for an editor action: returns false when it did not apply (the key then does nothing). */
export type KeyHandler = (e: KeyEventLike) => boolean | void;

/** Keys whose character may need Shift to type: the modifier is not part of their chord. */
const SHIFT_FREE = new Set(['+', '=', '-', '[', ']']);

/** A keyboard chord in a form that compares: mod, shift and the key the browser sends. */
interface Chord {
  mod: boolean;
  shift: boolean;
  keys: string[];
}

function chordOf(tokens: KeyToken[]): Chord | null {
  if (tokens.some((t) => typeof t !== 'string')) return null;
  const s = tokens as string[];
  const key = s.find((t) => t !== 'Mod' && t !== 'Shift');
  if (!key) return null;
  return { mod: s.includes('Mod'), shift: s.includes('Shift'), keys: tokenKeys(key) };
}

/** A row the keyboard can run, with its chords parsed. */
export interface KeyBinding {
  row: ShortcutRow;
  chords: Chord[];
}

/** Every keyboard row of the table (rows with a command or an action), chords parsed. */
export const KEY_BINDINGS: KeyBinding[] = SHORTCUT_GROUPS.flatMap((g) => g.rows)
  .filter((r) => r.command || r.action)
  .map((row) => ({ row, chords: row.keys.map(chordOf).filter((c): c is Chord => c !== null) }));

function normalKey(key: string): string {
  return key.length === 1 ? key.toLowerCase() : key;
}

function chordMatches(c: Chord, row: ShortcutRow, e: KeyEventLike, mac: boolean): boolean {
  const key = normalKey(e.key);
  if (!c.keys.includes(key)) return false;
  // App commands take the platform's modifier (Ctrl, ⌘ on macOS); the editor's keys take either, as
  // they always have (a Mac keyboard on Linux, Ctrl on a Mac).
  const mod = row.command ? (mac ? e.metaKey : e.ctrlKey) : e.ctrlKey || e.metaKey;
  if (mod !== c.mod) return false;
  if (SHIFT_FREE.has(key) || (row.anyShift && !c.shift)) return true;
  return e.shiftKey === c.shift;
}

function contextHolds(when: KeyContext | undefined, s: KeyState): boolean {
  switch (when) {
    case undefined:
      return true;
    case 'curve':
      return s.curveFocused;
    case 'keys':
      return !s.curveFocused;
    case 'handle':
      return s.handleActive;
    case 'noHandle':
      return !s.handleActive;
    case 'lipSync':
      return !!s.lipSync;
    case 'noLipSync':
      return !s.lipSync;
  }
}

/** The row a key event runs in the given state, or null. Alt never matches. */
export function bindingFor(e: KeyEventLike, mac: boolean, state: KeyState): KeyBinding | null {
  if (e.altKey) return null;
  for (const b of KEY_BINDINGS) {
    if (!contextHolds(b.row.when, state)) continue;
    if (b.chords.some((c) => chordMatches(c, b.row, e, mac))) return b;
  }
  return null;
}

/** True for text inputs, text areas, selects and editable elements: they keep their own keys. */
export function isTypingField(el: EventTarget | null): boolean {
  const e = el as HTMLElement | null;
  if (!e || !e.tagName) return false;
  if (e.tagName === 'INPUT') return !['checkbox', 'radio', 'button', 'range'].includes((e as HTMLInputElement).type);
  return e.tagName === 'TEXTAREA' || e.tagName === 'SELECT' || e.isContentEditable;
}

/** The roles of controls that Enter or Space press (ARIA's widgets a keyboard activates). */
const PRESSED_ROLES = new Set(['button', 'checkbox', 'radio', 'switch', 'tab', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem']);

/**
 * True for a control that Enter or Space presses: a button, a checkbox or radio (and the input buttons), a
 * link, a summary, or an element whose role is one of those. The key is that control's, not the editor's.
 */
export function isPressable(el: EventTarget | null): boolean {
  const e = el as HTMLElement | null;
  if (!e || !e.tagName) return false;
  const tag = e.tagName;
  if (tag === 'BUTTON' || tag === 'SUMMARY') return true;
  if (tag === 'A') return e.hasAttribute('href');
  if (tag === 'INPUT') return ['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'color'].includes((e as HTMLInputElement).type);
  return PRESSED_ROLES.has(e.getAttribute('role') ?? '');
}

/**
 * Controls that have the focus because the pointer pressed them (a click on ▶, on Physics, on Whole Motion…).
 * Enter and Space stay the editor's there: a mouse user who clicks a toolbar button and then presses Space to
 * play, or Enter to key the pose, as in MMD, must not press that button again (Chromium focuses a clicked
 * button; MMD's buttons never keep the keys). A control reached with the keyboard (Tab, F6, a dialog giving
 * the focus back) is pressed by them, as in any dialog. installKeymap keeps this set.
 */
const pointerFocused = new WeakSet<EventTarget>();

/** Enter or Space on a control that the key presses (isPressable) and the keyboard brought the focus to: the browser's, not a row's. */
function pressesControl(e: KeyEventLike): boolean {
  return (e.key === 'Enter' || e.key === ' ') && isPressable(e.target) && !(e.target && pointerFocused.has(e.target));
}

/**
 * ↑/↓/Home/End on a ▾ menu's button or in its list (MenuBar.vue): the menu's own keys (they move through its items),
 * not the editor's (↓ stepped to the next track while the focus was on Open Recent ▾).
 */
function menuKey(e: KeyEventLike): boolean {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return false;
  const t = e.target as { closest?: (s: string) => unknown } | null;
  return typeof t?.closest === 'function' && !!t.closest('[role="menu"], [aria-haspopup="menu"]');
}

/**
 * The app command a key runs (browser mode; under Electron the native menu's accelerators send them),
 * or null. Text fields keep their own keys, except for rows marked `inText` (Save works while typing).
 */
export function shortcutFor(e: KeyEventLike, mac: boolean): CommandId | null {
  const b = bindingFor(e, mac, { curveFocused: false, handleActive: false });
  const id = b?.row.command;
  if (!id) return null;
  if (!b.row.inText && isTypingField(e.target)) return null;
  return id;
}

const handlers = new Map<KeyAction, Set<KeyHandler>>();
let stateSource: () => KeyState = () => ({ curveFocused: false, handleActive: false });

/**
 * Binds handlers for editor actions (the panel that owns them: the editor, the preview); returns the
 * function that unbinds them. An action may have handlers from more than one panel (Escape drops the
 * curve handle and clears the preview's picked joint): each runs; the key counts as used if any applied.
 */
export function bindKeyActions(map: Partial<Record<KeyAction, KeyHandler>>): () => void {
  const added: [KeyAction, KeyHandler][] = [];
  for (const [id, fn] of Object.entries(map) as [KeyAction, KeyHandler][]) {
    let set = handlers.get(id);
    if (!set) handlers.set(id, (set = new Set()));
    set.add(fn);
    added.push([id, fn]);
  }
  return () => added.forEach(([id, fn]) => handlers.get(id)?.delete(fn));
}

/** Where the `when` conditions read the editor's state from; returns the function that withdraws it. */
export function setKeyContext(fn: () => KeyState): () => void {
  stateSource = fn;
  return () => {
    if (stateSource === fn) stateSource = () => ({ curveFocused: false, handleActive: false });
  };
}

/** Runs an editor action's handlers; true when one applied. */
export function runKeyAction(id: KeyAction, e: KeyEventLike): boolean {
  let used = false;
  for (const fn of handlers.get(id) ?? []) if (fn(e) !== false) used = true;
  return used;
}

export interface KeymapOptions {
  mac: boolean;
  /** Under Electron the native menu runs the app commands. */
  commandsByMenu: () => boolean;
  runCommand: (id: CommandId) => void;
}

/** Handles one key event as the module comment says; true when it was used (default prevented). */
export function dispatchKey(e: KeyboardEvent, o: KeymapOptions): boolean {
  if (e.key === 'Escape' && !e.altKey && closeTopOverlay()) {
    e.preventDefault();
    return true;
  }
  if (e.key === 'Tab' && !e.altKey && !e.ctrlKey && !e.metaKey && trapTab(e.shiftKey)) {
    e.preventDefault();
    return true;
  }
  if (pressesControl(e) || menuKey(e)) return false;
  const b = bindingFor(e, o.mac, stateSource());
  if (!b) return false;
  let used = false;
  if (b.row.command) {
    if (o.commandsByMenu() || (!b.row.inText && isTypingField(e.target)) || questionOpen()) return false;
    o.runCommand(b.row.command);
    used = true;
  } else if (b.row.action) {
    if ((!b.row.inText && isTypingField(e.target)) || overlayOpen()) return false;
    used = runKeyAction(b.row.action, e);
  }
  if (used) e.preventDefault();
  return used;
}

/** Installs the one keydown listener; returns the function that removes it. */
export function installKeymap(target: Window, o: KeymapOptions): () => void {
  const onKey = (e: KeyboardEvent) => void dispatchKey(e, o);
  // Which way the focus came (pointerFocused): a focus while the pointer is down is the pointer's, any other
  // (Tab, F6, a script giving it back) the keyboard's. A control keeps the mark until it is focused again.
  let pointerDown = false;
  const onPointerDown = () => {
    pointerDown = true;
  };
  const onPointerUp = () => {
    pointerDown = false;
  };
  const onFocusIn = (e: FocusEvent) => {
    if (!e.target) return;
    if (pointerDown) pointerFocused.add(e.target);
    else pointerFocused.delete(e.target);
  };
  target.addEventListener('keydown', onKey, true);
  target.addEventListener('pointerdown', onPointerDown, true);
  target.addEventListener('pointerup', onPointerUp, true);
  target.addEventListener('pointercancel', onPointerUp, true);
  target.addEventListener('focusin', onFocusIn, true);
  return () => {
    target.removeEventListener('keydown', onKey, true);
    target.removeEventListener('pointerdown', onPointerDown, true);
    target.removeEventListener('pointerup', onPointerUp, true);
    target.removeEventListener('pointercancel', onPointerUp, true);
    target.removeEventListener('focusin', onFocusIn, true);
  };
}
