// The keyboard reference (Help → Keyboard Shortcuts) against the keys themselves: every row that names
// an app command must be what shortcutFor maps those keys to, on both platforms; the editor's own keys
// must not also be app commands; every label exists in English and Japanese.
import { describe, expect, it } from 'vitest';
import { shortcutFor } from '../../../renderer/src/shell/keymap';
import { SHORTCUT_GROUPS, chordEvent, keyLabel, keyPieces } from '../../../renderer/src/shell/shortcuts';
import { MENU_COMMANDS } from '../../../shared/ipc/contract';
import { tDynamic as t } from '../../../shared/i18n/strings';

const rows = SHORTCUT_GROUPS.flatMap((g) => g.rows);

describe('keyboard reference', () => {
  it('lists every keyboard-reachable app command, each with the keys that really run it (Ctrl, and ⌘ on macOS)', () => {
    const listed = new Set<string>();
    for (const mac of [false, true]) {
      for (const r of rows.filter((r) => r.command)) {
        for (const chord of r.keys) {
          const e = chordEvent(chord, mac);
          expect(e, `${r.label}: a command row holds keys only`).not.toBeNull();
          expect(shortcutFor(e as KeyboardEvent, mac), `${r.label} ${JSON.stringify(chord)} mac=${mac}`).toBe(r.command);
          listed.add(r.command!);
        }
      }
    }
    // The commands with a browser-mode shortcut are all listed (the others are menu or button only).
    const withKeys: string[] = MENU_COMMANDS.filter((id) => ['newMotion', 'open', 'save', 'saveAs', 'closeDocument', 'exportVpd', 'batch', 'bakePhysics', 'bakeIk', 'undo', 'redo', 'shortcuts'].includes(id));
    expect([...listed].sort()).toEqual([...withKeys].sort());
  });

  it("the editor's own keys are not app shortcuts (no key does two things)", () => {
    for (const r of rows.filter((r) => !r.command)) {
      for (const chord of r.keys) {
        const e = chordEvent(chord, false);
        if (e) expect(shortcutFor(e as KeyboardEvent, false), `${r.label} ${JSON.stringify(chord)}`).toBe(null);
      }
    }
  });

  it('has every title, label and mouse gesture in English and Japanese', () => {
    const keys = new Set<string>(['shortcuts.title']);
    for (const g of SHORTCUT_GROUPS) {
      keys.add(g.title);
      for (const r of g.rows) {
        keys.add(r.label);
        for (const chord of r.keys) for (const k of chord) if (typeof k !== 'string') keys.add(k.mouse);
      }
    }
    for (const k of keys) {
      expect(t(k, 'en'), k).not.toBe(k);
      expect(t(k, 'ja'), k).not.toBe(k);
      expect(t(k, 'ja'), k).not.toBe(t(k, 'en'));
    }
  });

  it('a group titled as mouse gestures holds only rows done with the mouse; one with keys too says so (en, ja)', () => {
    // Before: "3D preview (mouse)" listed T, C, P, Shift+P, K and Ctrl+Shift+F among its rows.
    const byMouse = (g: (typeof SHORTCUT_GROUPS)[number]) => g.rows.every((r) => r.keys.every((chord) => chord.some((k) => typeof k !== 'string')));
    for (const g of SHORTCUT_GROUPS) {
      const mouseOnly = /\(mouse\)/.test(t(g.title, 'en'));
      expect(/（マウス）/.test(t(g.title, 'ja')), g.title).toBe(mouseOnly);
      if (mouseOnly) expect(byMouse(g), `${g.title}: a row without the mouse`).toBe(true);
    }
    const preview = SHORTCUT_GROUPS.find((g) => g.title === 'shortcuts.group.preview')!;
    expect(byMouse(preview)).toBe(false);
    expect([t(preview.title, 'en'), t(preview.title, 'ja')]).toEqual(['3D preview (mouse and keys)', '3D プレビュー（マウスとキー）']);
  });

  it('writes the modifier as each OS does', () => {
    expect(keyLabel('Mod', false)).toBe('Ctrl');
    expect(keyLabel('Mod', true)).toBe('⌘');
    expect(keyLabel('Shift', true)).toBe('⇧');
    expect(keyLabel('F1', false)).toBe('F1');
  });

  it('shows alternatives that share modifiers once: Shift + ← / →, but Ctrl + Y / Ctrl + Shift + Z', () => {
    const text = (keys: Parameters<typeof keyPieces>[0]) => keyPieces(keys).map((p) => ('sep' in p ? p.sep : typeof p.key === 'string' ? p.key : p.key.mouse)).join(' ');
    expect(text([['Shift', '←'], ['Shift', '→']])).toBe('Shift + ← / →');
    expect(text([['Mod', 'Y'], ['Mod', 'Shift', 'Z']])).toBe('Mod + Y / Mod + Shift + Z');
    expect(text([['←'], ['→']])).toBe('← / →');
    expect(text([['Mod', { mouse: 'shortcuts.wheel' }]])).toBe('Mod + shortcuts.wheel');
  });
});
