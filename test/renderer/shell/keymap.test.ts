// The one keymap (shell/shortcuts.ts table, keymap.ts dispatcher) row by row: each keyboard row's
// chords, sent as real keydown events through the installed listener, run that row's command or action
// (and nothing else), on Windows/Linux and on macOS; no chord is bound twice where both rows could apply;
// every editor action has exactly one row; and the guards (text fields, dialogs, Alt, Electron's menu).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandId } from '../../../renderer/src/shell/commands';
import {
  KEY_ACTIONS,
  KEY_BINDINGS,
  KEY_CONTEXTS,
  bindKeyActions,
  bindingFor,
  installKeymap,
  setKeyContext,
  type KeyAction,
  type KeyContext,
  type KeyState,
} from '../../../renderer/src/shell/keymap';
import { SHORTCUT_GROUPS, chordEvent, type KeyToken, type ShortcutRow } from '../../../renderer/src/shell/shortcuts';
import { overlayOpen, pushOverlay } from '../../../renderer/src/shell/overlay';

const rows = SHORTCUT_GROUPS.flatMap((g) => g.rows);
const keyboardRows = rows.filter((r) => r.command || r.action);
const keyOnly = (chord: KeyToken[]) => chord.every((t) => typeof t === 'string');

/** A state in which the row's `when` holds. */
function stateFor(when: KeyContext | undefined): KeyState {
  return { curveFocused: when === 'curve', handleActive: when === 'handle', lipSync: when === 'lipSync' };
}

let ran: string[];
let commands: CommandId[];
let electron: boolean;
let off: (() => void)[];
let state: KeyState;

function setup(mac: boolean) {
  ran = [];
  commands = [];
  electron = false;
  state = { curveFocused: false, handleActive: false };
  const handlers = Object.fromEntries(KEY_ACTIONS.map((id) => [id, () => void ran.push(id)])) as Record<KeyAction, () => void>;
  off = [
    installKeymap(window, { mac, commandsByMenu: () => electron, runCommand: (id) => void commands.push(id) }),
    bindKeyActions(handlers),
    setKeyContext(() => state),
  ];
}

/** Sends a keydown to `target` as the browser would; returns the event. */
function press(ev: Omit<ReturnType<typeof chordEvent> & object, 'target'>, target: EventTarget = document.body): KeyboardEvent {
  const e = new KeyboardEvent('keydown', { key: ev.key, ctrlKey: ev.ctrlKey, metaKey: ev.metaKey, shiftKey: ev.shiftKey, altKey: ev.altKey, bubbles: true, cancelable: true });
  target.dispatchEvent(e);
  return e;
}

afterEach(() => {
  off?.forEach((f) => f());
  document.body.innerHTML = '';
});

describe('the keymap, row by row', () => {
  for (const mac of [false, true]) {
    it(`each keyboard row's chords run its command or action and nothing else (mac=${mac})`, () => {
      setup(mac);
      let checked = 0;
      for (const r of keyboardRows) {
        for (const chord of r.keys.filter(keyOnly)) {
          const ev = chordEvent(chord, mac)!;
          const variants = [ev];
          // Rows that take their key with Shift held too.
          if (r.anyShift && !ev.shiftKey) variants.push({ ...ev, shiftKey: true });
          for (const v of variants) {
            state = stateFor(r.when);
            ran = [];
            commands = [];
            const e = press(v);
            const what = `${r.label} ${JSON.stringify(chord)} shift=${v.shiftKey}`;
            if (r.command) {
              expect(commands, what).toEqual([r.command]);
              expect(ran, what).toEqual([]);
            } else {
              expect(ran, what).toEqual([r.action]);
              expect(commands, what).toEqual([]);
            }
            expect(e.defaultPrevented, what).toBe(true);
            checked++;
          }
        }
      }
      // Every keyboard row has at least one key chord.
      for (const r of keyboardRows) expect(r.keys.some(keyOnly), r.label).toBe(true);
      expect(checked).toBeGreaterThan(keyboardRows.length);
    });
  }

  it('binds no chord twice where both rows could apply (rows sharing one differ in an exclusive `when`)', () => {
    const overlap = (a: ShortcutRow, ca: KeyToken[], b: ShortcutRow, cb: KeyToken[]) => {
      const ea = chordEvent(ca, false)!;
      const eb = chordEvent(cb, false)!;
      // Does either chord's event also match the other row (in a state where both `when`s are ignored)?
      const sameKey = (x: typeof ea, y: typeof eb) => x.key.toLowerCase() === y.key.toLowerCase() && x.ctrlKey === y.ctrlKey;
      const shiftOk = (r: ShortcutRow, x: typeof ea, y: typeof eb) => x.shiftKey === y.shiftKey || (r.anyShift && !x.shiftKey) || ['+', '-', '[', ']'].includes(x.key);
      return sameKey(ea, eb) && (shiftOk(a, ea, eb) || shiftOk(b, eb, ea));
    };
    let shared = 0;
    for (let i = 0; i < keyboardRows.length; i++) {
      for (let j = i + 1; j < keyboardRows.length; j++) {
        const a = keyboardRows[i];
        const b = keyboardRows[j];
        for (const ca of a.keys.filter(keyOnly)) {
          for (const cb of b.keys.filter(keyOnly)) {
            if (!overlap(a, ca, b, cb)) continue;
            shared++;
            const what = `${a.label} ${JSON.stringify(ca)} / ${b.label} ${JSON.stringify(cb)}`;
            expect(a.when && b.when, what).toBeTruthy();
            expect(KEY_CONTEXTS[a.when!], what).toBe(KEY_CONTEXTS[b.when!]);
            expect(a.when, what).not.toBe(b.when);
          }
        }
      }
    }
    // The table does share chords (Ctrl+C keys/curve, arrows step/nudge): the check above saw them.
    expect(shared).toBeGreaterThanOrEqual(6);
  });

  it('has exactly one row for every editor action, and every row names a known action or command', () => {
    const actions = keyboardRows.filter((r) => r.action).map((r) => r.action!);
    expect([...actions].sort()).toEqual([...KEY_ACTIONS].sort());
    for (const r of keyboardRows) expect(!!r.command !== !!r.action, r.label).toBe(true);
    // Rows with only mouse gestures run nothing from the keyboard.
    for (const r of rows.filter((r) => !r.command && !r.action)) expect(r.keys.some(keyOnly), r.label).toBe(false);
    expect(KEY_BINDINGS.length).toBe(keyboardRows.length);
  });

  it('tells rows sharing a chord apart by the editor state', () => {
    const ctrlC = { key: 'c', ctrlKey: true, metaKey: false, shiftKey: false, altKey: false, target: null };
    expect(bindingFor(ctrlC, false, { curveFocused: false, handleActive: false })?.row.action).toBe('copyKeys');
    expect(bindingFor(ctrlC, false, { curveFocused: true, handleActive: false })?.row.action).toBe('copyCurve');
    const left = { ...ctrlC, key: 'ArrowLeft', ctrlKey: false };
    expect(bindingFor(left, false, { curveFocused: false, handleActive: false })?.row.action).toBe('step');
    expect(bindingFor(left, false, { curveFocused: false, handleActive: true })?.row.action).toBe('nudge');
    expect(bindingFor({ ...left, shiftKey: true }, false, { curveFocused: false, handleActive: true })?.row.action).toBe('nudge10');
    // ↑/↓ without a selected handle move the active track (MMD's bone rows); with one they nudge it.
    expect(bindingFor({ ...left, key: 'ArrowUp' }, false, { curveFocused: false, handleActive: false })?.row.action).toBe('trackUpDown');
    expect(bindingFor({ ...left, key: 'ArrowDown' }, false, { curveFocused: true, handleActive: false })?.row.action).toBe('trackUpDown');
    expect(bindingFor({ ...left, key: 'ArrowDown' }, false, { curveFocused: false, handleActive: true })?.row.action).toBe('nudge');
    // Shift+↑ without a handle is no key of ours.
    expect(bindingFor({ ...left, key: 'ArrowUp', shiftKey: true }, false, { curveFocused: false, handleActive: false })).toBe(null);
  });
});

describe('the dispatcher guards', () => {
  beforeEach(() => setup(false));

  it('takes the editor keys with Ctrl or ⌘, the app commands with the platform modifier only', () => {
    press({ key: 'a', ctrlKey: false, metaKey: true, shiftKey: false, altKey: false });
    expect(ran).toEqual(['selectAll']);
    press({ key: 'o', ctrlKey: false, metaKey: true, shiftKey: false, altKey: false });
    expect(commands).toEqual([]);
    press({ key: 'o', ctrlKey: true, metaKey: false, shiftKey: false, altKey: false });
    expect(commands).toEqual(['open']);
  });

  it('leaves Alt chords, the editor keys while typing or behind a dialog, and the commands to Electron’s menu', () => {
    const e1 = press({ key: 'Delete', ctrlKey: false, metaKey: false, shiftKey: false, altKey: true });
    expect(e1.defaultPrevented).toBe(false);
    const input = document.createElement('input');
    document.body.append(input);
    press({ key: 'Delete', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false }, input);
    press({ key: 'z', ctrlKey: true, metaKey: false, shiftKey: false, altKey: false }, input);
    expect(ran).toEqual([]);
    expect(commands).toEqual([]);
    // Save works while typing.
    press({ key: 's', ctrlKey: true, metaKey: false, shiftKey: false, altKey: false }, input);
    expect(commands).toEqual(['save']);
    // A checkbox is no text field.
    const box = document.createElement('input');
    box.type = 'checkbox';
    document.body.append(box);
    press({ key: 'Delete', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false }, box);
    expect(ran).toEqual(['deleteKeys']);

    // Behind a dialog (on the overlay stack) the editor's keys do not run.
    const popDialog = pushOverlay(() => undefined);
    press({ key: 'Delete', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false });
    expect(ran).toEqual(['deleteKeys']);
    // App commands still run over a dialog (as the menu's would).
    press({ key: 'F1', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false });
    expect(commands).toEqual(['save', 'shortcuts']);
    popDialog();
    // A question waiting for its answer (nujp 6: Ctrl+Shift+S opened Save As under "cannot save"): no app
    // command runs and the key is left alone; answered, they run again.
    const popQuestion = pushOverlay(() => undefined, undefined, true);
    const q = press({ key: 'S', ctrlKey: true, metaKey: false, shiftKey: true, altKey: false });
    press({ key: 'F1', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false });
    expect(commands).toEqual(['save', 'shortcuts']);
    expect(q.defaultPrevented).toBe(false);
    popQuestion();
    press({ key: 'F1', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false });
    expect(commands).toEqual(['save', 'shortcuts', 'shortcuts']);

    electron = true;
    const e2 = press({ key: 'z', ctrlKey: true, metaKey: false, shiftKey: false, altKey: false });
    expect(commands).toEqual(['save', 'shortcuts', 'shortcuts']);
    expect(e2.defaultPrevented).toBe(false);
  });

  it('leaves Enter and Space to a focused button, checkbox, radio, tab, menu item, link or summary; elsewhere they insert and play', () => {
    const enter = { key: 'Enter', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false };
    const space = { ...enter, key: ' ' };
    const make = (html: string) => {
      const holder = document.createElement('div');
      holder.innerHTML = html;
      const el = holder.firstElementChild as HTMLElement;
      document.body.append(el);
      return el;
    };
    const pressables = [
      '<button>Whole Motion…</button>',
      '<input type="checkbox">',
      '<input type="radio">',
      '<input type="button" value="Go">',
      '<div role="tab" tabindex="0">Rot</div>',
      '<div role="menuitem" tabindex="0">Export VPD…</div>',
      '<a href="#x">link</a>',
      '<summary>More</summary>',
    ];
    for (const html of pressables) {
      const el = make(html);
      for (const k of [enter, space, { ...enter, shiftKey: true }]) {
        const e = press(k, el);
        // The browser's default (a click) is not cancelled, and neither insertKey nor play ran.
        expect(e.defaultPrevented, `${html} ${JSON.stringify(k.key)}`).toBe(false);
      }
      expect(ran, html).toEqual([]);
    }
    // Other keys on a button are still the editor's (Delete deletes the selected keys).
    press({ ...enter, key: 'Delete' }, make('<button>b</button>'));
    expect(ran).toEqual(['deleteKeys']);
    // On the page, the timeline's canvas, the curve canvas and a focusable track list, Enter inserts, Space plays.
    ran = [];
    const places: EventTarget[] = [document.body, make('<canvas tabindex="0"></canvas>'), make('<canvas tabindex="0" data-testid="curve-canvas"></canvas>'), make('<div role="listbox" tabindex="0"></div>')];
    for (const at of places) {
      expect(press(enter, at).defaultPrevented).toBe(true);
      expect(press(space, at).defaultPrevented).toBe(true);
    }
    expect(ran).toEqual(['insertKey', 'play', 'insertKey', 'play', 'insertKey', 'play', 'insertKey', 'play']);
    // In the curve pane (the curve editor focused), the same.
    state = { curveFocused: true, handleActive: false };
    ran = [];
    press(enter, places[2]);
    press(enter, make('<button>Linear</button>'));
    expect(ran).toEqual(['insertKey']);
  });

  it('F6 leaves a text field for the next pane; 1 / 2 pick a curve handle only with the curve pane focused', () => {
    const f6 = { key: 'F6', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false };
    const input = document.createElement('input');
    document.body.append(input);
    press(f6, input);
    press({ ...f6, shiftKey: true }, input);
    expect(ran).toEqual(['cyclePane', 'cyclePane']);
    // Not over a dialog (its Tab goes round inside it).
    const pop = pushOverlay(() => undefined);
    press(f6);
    pop();
    expect(ran).toEqual(['cyclePane', 'cyclePane']);
    // 1 / 2: the curve pane's; typed in a field they are the field's.
    ran = [];
    const one = { ...f6, key: '1' };
    expect(press(one).defaultPrevented).toBe(false);
    state = { curveFocused: true, handleActive: false };
    press(one);
    press({ ...one, key: '2' });
    press(one, input);
    expect(ran).toEqual(['pickHandle', 'pickHandle']);
  });

  it('Escape goes to the top overlay only: a picker over a dialog closes first, then the dialog, then the editor has it', () => {
    const closed: string[] = [];
    const pops: (() => void)[] = [];
    const open = (name: string) => {
      const pop = pushOverlay(() => {
        closed.push(name);
        pop();
      });
      pops.push(pop);
    };
    open('batch');
    open('picker');
    expect(overlayOpen()).toBe(true);
    const esc = () => press({ key: 'Escape', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false });
    const e1 = esc();
    expect(e1.defaultPrevented).toBe(true);
    expect(closed).toEqual(['picker']);
    expect(ran).toEqual([]); // not also the editor's Escape (the picked joint, the curve handle)
    esc();
    expect(closed).toEqual(['picker', 'batch']);
    expect(overlayOpen()).toBe(false);
    esc();
    expect(closed).toEqual(['picker', 'batch']);
    expect(ran).toEqual(['dropHandle']);
    // Escape typed in a dialog's text field closes the dialog too.
    open('file dialog');
    const input = document.createElement('input');
    document.body.append(input);
    press({ key: 'Escape', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false }, input);
    expect(closed).toEqual(['picker', 'batch', 'file dialog']);
    pops.forEach((p) => p());
  });

  it('runs every handler bound to an action; a key none applied to is not used', () => {
    off.push(bindKeyActions({ dropHandle: () => void ran.push('second') }));
    press({ key: 'Escape', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false });
    expect(ran).toEqual(['dropHandle', 'second']);
    // Without the spies, a handler that declines (K outside a camera motion) leaves the key unused.
    off[1]();
    off.push(bindKeyActions({ registerView: () => false }));
    ran = [];
    const e = press({ key: 'k', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false });
    expect(e.defaultPrevented).toBe(false);
    expect(ran).toEqual([]);
  });
});
