/**
 * The app's keymap and its keyboard and mouse reference (Help → Keyboard Shortcuts, F1): one table.
 * Each row says which keys do what; a keyboard row names the app command (`command`) or the editor
 * action (`action`) its keys run, and the one keydown dispatcher (keymap.ts) runs exactly these rows,
 * so the reference cannot drift from the keys (test/renderer/shell/keymap.test.ts checks every row).
 * Keys are tokens: 'Mod' is Ctrl (⌘ on macOS); other tokens are KeyboardEvent.key values or mouse
 * gestures (string keys). A row may list alternatives (any one of them works).
 */
import type { ShortcutStringKey } from '../../../shared/i18n/shortcut-strings';
import type { CommandId, KeyAction, KeyContext } from './key-names';

/** A key token, or a mouse gesture by its string key. */
export type KeyToken = string | { mouse: ShortcutStringKey };

export interface ShortcutRow {
  /**
   * Alternatives; each is a chord of tokens pressed together. None: a command no key runs, listed so F1 answers
   * "is there a key for it?" (its label says where it is: the menu path; the keys column says "no key").
   */
  keys: KeyToken[][];
  label: ShortcutStringKey;
  /** The app command these keys run (through `shortcutFor` and runCommand). */
  command?: CommandId;
  /** The editor action these keys run (handlers bound with keymap.ts bindKeyActions). */
  action?: KeyAction;
  /** Only when this holds (rows sharing a chord differ in it; keymap.ts KEY_CONTEXTS). */
  when?: KeyContext;
  /** The keys work with Shift held too. */
  anyShift?: boolean;
  /** The app command or editor action runs from a text field too (Save while typing, F6 to the next pane). */
  inText?: boolean;
}

export interface ShortcutGroup {
  title: ShortcutStringKey;
  rows: ShortcutRow[];
}

const m = (k: ShortcutStringKey): KeyToken => ({ mouse: k });

export const SHORTCUT_GROUPS: ShortcutGroup[] = [
  {
    title: 'shortcuts.group.file',
    rows: [
      { keys: [['Mod', 'N']], label: 'shortcuts.newMotion', command: 'newMotion', inText: true },
      { keys: [['Mod', 'O']], label: 'shortcuts.open', command: 'open', inText: true },
      { keys: [['Mod', 'S']], label: 'shortcuts.save', command: 'save', inText: true },
      { keys: [['Mod', 'Shift', 'S']], label: 'shortcuts.saveAs', command: 'saveAs', inText: true },
      { keys: [['Mod', 'W']], label: 'shortcuts.close', command: 'closeDocument', inText: true },
      { keys: [['Mod', 'E']], label: 'shortcuts.exportVpd', command: 'exportVpd', inText: true },
      { keys: [['Mod', 'B']], label: 'shortcuts.batch', command: 'batch', inText: true },
      { keys: [['Mod', 'Shift', 'B']], label: 'shortcuts.bakePhysics', command: 'bakePhysics' },
      // K for kinematics: free in the app, in Chromium and in Electron (Ctrl+Shift+I and J are the developer tools').
      { keys: [['Mod', 'Shift', 'K']], label: 'shortcuts.bakeIk', command: 'bakeIk' },
      { keys: [['F1']], label: 'shortcuts.help', command: 'shortcuts', inText: true },
      // No key (listed so F1 answers "is there one?"): the chords that would suit them are taken (Ctrl+Shift+S
      // Save As, Ctrl+Shift+O/M/V the mirror pastes, Ctrl+Shift+B the bake). The label is the toolbar's path.
      { keys: [], label: 'shortcuts.openScene' },
      { keys: [], label: 'shortcuts.saveScene' },
      { keys: [], label: 'shortcuts.video' },
      { keys: [], label: 'shortcuts.wholeMotion' },
      { keys: [], label: 'shortcuts.merge' },
      { keys: [], label: 'shortcuts.importMouthTimings' },
      { keys: [], label: 'shortcuts.fitToModel' },
    ],
  },
  {
    title: 'shortcuts.group.edit',
    rows: [
      { keys: [['Mod', 'Z']], label: 'shortcuts.undo', command: 'undo' },
      { keys: [['Mod', 'Y'], ['Mod', 'Shift', 'Z']], label: 'shortcuts.redo', command: 'redo' },
      { keys: [['Mod', 'A']], label: 'shortcuts.selectAll', action: 'selectAll' },
      { keys: [['Mod', 'C']], label: 'shortcuts.copyKeys', action: 'copyKeys', when: 'keys' },
      { keys: [['Mod', 'X']], label: 'shortcuts.cutKeys', action: 'cutKeys', when: 'keys' },
      { keys: [['Mod', 'V']], label: 'shortcuts.pasteKeys', action: 'pasteKeys', when: 'keys' },
      { keys: [['Mod', 'Shift', 'V']], label: 'shortcuts.mirrorPaste', action: 'mirrorPaste' },
      { keys: [['Mod', 'Shift', 'O']], label: 'shortcuts.pasteOtherSide', action: 'pasteOtherSide' },
      { keys: [['Mod', 'Shift', 'M']], label: 'shortcuts.mirrorPose', action: 'mirrorPose' },
      { keys: [['Delete'], ['Backspace']], label: 'shortcuts.deleteKeys', action: 'deleteKeys', anyShift: true },
      { keys: [['Enter']], label: 'shortcuts.insertKey', action: 'insertKey', anyShift: true },
    ],
  },
  {
    title: 'shortcuts.group.time',
    rows: [
      { keys: [['Space']], label: 'shortcuts.play', action: 'play', anyShift: true },
      { keys: [['S']], label: 'shortcuts.playSpeed', action: 'playSpeed' },
      { keys: [['←'], ['→']], label: 'shortcuts.step', action: 'step', when: 'noHandle' },
      { keys: [['Shift', '←'], ['Shift', '→']], label: 'shortcuts.step10', action: 'step10', when: 'noHandle' },
      { keys: [['Home']], label: 'shortcuts.home', action: 'home', anyShift: true },
      { keys: [['End']], label: 'shortcuts.end', action: 'end', anyShift: true },
      { keys: [['PageUp'], ['PageDown']], label: 'shortcuts.pageFrames', action: 'pageFrames', anyShift: true },
      { keys: [['['], [']']], label: 'shortcuts.prevNextKeyActive', action: 'prevNextKeyActive' },
      { keys: [['Mod', '←'], ['Mod', '→']], label: 'shortcuts.prevNextKeySelected', action: 'prevNextKeySelected' },
      { keys: [['Mod', 'Shift', '←'], ['Mod', 'Shift', '→']], label: 'shortcuts.prevNextKeyAll', action: 'prevNextKeyAll' },
      // MMD's Alt+←/→ (previous / next key) is said, not bound: Alt stays the system's and the browser's (keymap.ts:
      // Alt+← is Back in the browser mode), and Electron's menu taking it would make the two modes differ.
      { keys: [], label: 'shortcuts.mmdAltArrows' },
      { keys: [['Mod', 'G']], label: 'shortcuts.goToFrame', action: 'goToFrame' },
      { keys: [['L']], label: 'shortcuts.playRange', action: 'playRange' },
    ],
  },
  {
    title: 'shortcuts.group.view',
    rows: [
      { keys: [['+'], ['−']], label: 'shortcuts.zoomPlayhead', action: 'zoomPlayhead' },
      { keys: [['F']], label: 'shortcuts.fitMotion', action: 'fitMotion' },
      { keys: [['Shift', 'F']], label: 'shortcuts.fitSelection', action: 'fitSelection' },
      { keys: [['R']], label: 'shortcuts.rangeSelect', action: 'rangeSelect', anyShift: true },
      { keys: [['↑'], ['↓']], label: 'shortcuts.trackUpDown', action: 'trackUpDown', when: 'noHandle' },
      { keys: [['F6'], ['Shift', 'F6']], label: 'shortcuts.cyclePane', action: 'cyclePane', inText: true },
    ],
  },
  {
    title: 'shortcuts.group.curve',
    rows: [
      { keys: [[m('shortcuts.handleDrag')]], label: 'shortcuts.dragHandle' },
      { keys: [['1'], ['2']], label: 'shortcuts.pickHandle', action: 'pickHandle', when: 'curve' },
      { keys: [['←'], ['→'], ['↑'], ['↓']], label: 'shortcuts.nudge', action: 'nudge', when: 'handle' },
      { keys: [['Shift', '←'], ['Shift', '→'], ['Shift', '↑'], ['Shift', '↓']], label: 'shortcuts.nudge10', action: 'nudge10', when: 'handle' },
      { keys: [['Mod', 'C']], label: 'shortcuts.copyCurve', action: 'copyCurve', when: 'curve' },
      { keys: [['Mod', 'V']], label: 'shortcuts.pasteCurve', action: 'pasteCurve', when: 'curve' },
      { keys: [['Esc']], label: 'shortcuts.dropHandle', action: 'dropHandle', anyShift: true },
    ],
  },
  {
    title: 'shortcuts.group.timeline',
    rows: [
      { keys: [[m('shortcuts.click')]], label: 'shortcuts.selectKey' },
      { keys: [[m('shortcuts.trackDoubleClick')]], label: 'shortcuts.selectTrack' },
      { keys: [['Shift', m('shortcuts.click')]], label: 'shortcuts.rangeKeys' },
      { keys: [['Mod', m('shortcuts.click')]], label: 'shortcuts.toggleKey' },
      { keys: [[m('shortcuts.emptyDrag')]], label: 'shortcuts.boxKeys' },
      { keys: [[m('shortcuts.keyDrag')]], label: 'shortcuts.moveKeys' },
      { keys: [[m('shortcuts.rulerClick')]], label: 'shortcuts.seek' },
      { keys: [[m('shortcuts.rulerDoubleClick')]], label: 'shortcuts.selectColumn' },
      { keys: [['Shift', m('shortcuts.rulerDrag')]], label: 'shortcuts.setPlayRange' },
      { keys: [[m('shortcuts.wheel')]], label: 'shortcuts.scrollRows' },
      { keys: [['Shift', m('shortcuts.wheel')]], label: 'shortcuts.scrollTime' },
      { keys: [['Mod', m('shortcuts.wheel')]], label: 'shortcuts.zoomTime' },
    ],
  },
  {
    // The morph panel's lip-sync mode (MorphPanel.vue): only while it is on, so A frames every actor otherwise. Not 0
    // for a closed mouth: 0 stays the front view (sideView), which a face maker keeps using; X closes, N too on a
    // model without ん. M is ω (its shape; M was free), where the model has one.
    title: 'shortcuts.group.lipSync',
    rows: [
      { keys: [['A'], ['I'], ['U'], ['E'], ['O'], ['N'], ['W'], ['M'], ['X']], label: 'shortcuts.lipSyncKey', action: 'lipSyncKey', when: 'lipSync' },
    ],
  },
  {
    title: 'shortcuts.group.preview',
    rows: [
      { keys: [[m('shortcuts.jointClick')]], label: 'shortcuts.pickJoint' },
      { keys: [[m('shortcuts.handleRingDrag')]], label: 'shortcuts.poseBone' },
      { keys: [['T']], label: 'shortcuts.togglePoseMode', action: 'togglePoseMode' },
      { keys: [['C']], label: 'shortcuts.toggleBones', action: 'toggleBones' },
      { keys: [['P']], label: 'shortcuts.togglePhysics', action: 'togglePhysics' },
      { keys: [['Shift', 'P']], label: 'shortcuts.resetPhysics', action: 'resetPhysics' },
      { keys: [[m('shortcuts.drag')]], label: 'shortcuts.orbit' },
      { keys: [[m('shortcuts.rightDrag')]], label: 'shortcuts.pan' },
      { keys: [[m('shortcuts.wheel')]], label: 'shortcuts.zoomView' },
      // Not while the curve pane has the keys: there 1 / 2 pick a handle (pickHandle).
      { keys: [['2'], ['8'], ['4'], ['6'], ['5'], ['0']], label: 'shortcuts.sideView', action: 'sideView', when: 'keys' },
      // A (Maya's frame all; Home, Blender's, is the first frame here): the free view fits every shown actor.
      { keys: [['A']], label: 'shortcuts.frameAll', action: 'frameAll', when: 'noLipSync' },
      { keys: [[m('shortcuts.emptyDoubleClick')]], label: 'shortcuts.startView' },
      { keys: [['K']], label: 'shortcuts.registerView', action: 'registerView' },
      { keys: [['Mod', 'Shift', 'F']], label: 'shortcuts.previewFull', action: 'togglePreviewFull' },
    ],
  },
];

/** Key token (as the reference writes it) → the KeyboardEvent.key values it stands for. */
const TOKEN_KEYS: Record<string, string[]> = {
  Space: [' '],
  '←': ['ArrowLeft'],
  '→': ['ArrowRight'],
  '↑': ['ArrowUp'],
  '↓': ['ArrowDown'],
  Esc: ['Escape'],
  '+': ['+', '='],
  '−': ['-'],
};
/** The KeyboardEvent.key values a key token stands for (letters in lower case). */
export function tokenKeys(token: string): string[] {
  return TOKEN_KEYS[token] ?? [token.length === 1 ? token.toLowerCase() : token];
}

/** One piece of a row's keys as shown: a key, or a separator ('+' inside a chord, '/' between alternatives). */
export type KeyPiece = { key: KeyToken } | { sep: '+' | '/' };

function sameToken(a: KeyToken, b: KeyToken): boolean {
  return typeof a === 'string' ? a === b : typeof b !== 'string' && a.mouse === b.mouse;
}

/**
 * A row's keys for display. Alternatives that differ only in their last key share their modifiers:
 * Shift + ← / → rather than Shift + ← / Shift + →.
 */
export function keyPieces(keys: KeyToken[][]): KeyPiece[] {
  const out: KeyPiece[] = [];
  const prefix = keys[0]?.slice(0, -1) ?? [];
  const shared = keys.length > 1 && prefix.length > 0 && keys.every((c) => c.length === prefix.length + 1 && prefix.every((t, i) => sameToken(t, c[i])));
  if (shared) {
    for (const t of prefix) out.push({ key: t }, { sep: '+' });
    keys.forEach((c, i) => {
      if (i) out.push({ sep: '/' });
      out.push({ key: c[c.length - 1] });
    });
    return out;
  }
  keys.forEach((c, i) => {
    if (i) out.push({ sep: '/' });
    c.forEach((t, j) => {
      if (j) out.push({ sep: '+' });
      out.push({ key: t });
    });
  });
  return out;
}

/** How a key token is written on this platform ('Mod' → Ctrl or ⌘). Mouse tokens are translated by the caller. */
export function keyLabel(token: string, mac: boolean): string {
  if (token === 'Mod') return mac ? '⌘' : 'Ctrl';
  if (token === 'Shift') return mac ? '⇧' : 'Shift';
  return token;
}

/** Whether this is a Mac (⌘ for Mod). */
export const IS_MAC = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform);

/**
 * The keys that run an app command or an editor action, as a tooltip or a menu item shows them ("Ctrl+Shift+S",
 * "⌘O" style tokens joined by '+'): the first alternative of its row in this table, so a button's tooltip says
 * what the keymap really runs (the one source: the toolbar, the menus and F1 read it). Null: no key runs it.
 */
export function keysFor(target: { command: CommandId } | { action: KeyAction }, mac: boolean = IS_MAC): string | null {
  const row = SHORTCUT_GROUPS.flatMap((g) => g.rows).find((r) => ('command' in target ? r.command === target.command : r.action === target.action));
  const chord = row?.keys[0];
  if (!chord || chord.some((k) => typeof k !== 'string')) return null;
  return (chord as string[]).map((k) => keyLabel(k, mac)).join('+');
}

/** A tooltip with the keys that run the same thing after it: "Save (Ctrl+S)"; the text alone when no key does. */
export function withKeys(text: string, target: { command: CommandId } | { action: KeyAction }, mac: boolean = IS_MAC): string {
  const keys = keysFor(target, mac);
  return keys ? `${text} (${keys})` : text;
}

/**
 * The keydown event a chord of key tokens produces (for checking rows against `shortcutFor` and the
 * dispatcher), or null when the chord holds a mouse gesture.
 */
export function chordEvent(chord: KeyToken[], mac: boolean): Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey' | 'target'> | null {
  if (chord.some((t) => typeof t !== 'string')) return null;
  const mod = chord.includes('Mod');
  const shift = chord.includes('Shift');
  const token = (chord as string[]).find((t) => t !== 'Mod' && t !== 'Shift') ?? '';
  const key = tokenKeys(token)[0];
  // A letter comes as the browser sends it: upper case with Shift held.
  const sent = key.length === 1 ? (shift ? key.toUpperCase() : key.toLowerCase()) : key;
  return { key: sent, ctrlKey: mod && !mac, metaKey: mod && mac, shiftKey: shift, altKey: false, target: null };
}
