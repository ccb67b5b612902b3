import { describe, expect, it } from 'vitest';
import { bindingFor, shortcutFor } from '../../../renderer/src/shell/keymap';

const key = (key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}, target: unknown = null) =>
  ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, target, ...mods }) as unknown as KeyboardEvent;

describe('keyboard shortcuts', () => {
  it('maps Ctrl on Windows/Linux and Cmd on macOS', () => {
    expect(shortcutFor(key('o', { ctrlKey: true }), false)).toBe('open');
    expect(shortcutFor(key('o', { metaKey: true }), false)).toBe(null);
    expect(shortcutFor(key('o', { metaKey: true }), true)).toBe('open');
    expect(shortcutFor(key('s', { ctrlKey: true }), false)).toBe('save');
    expect(shortcutFor(key('S', { ctrlKey: true, shiftKey: true }), false)).toBe('saveAs');
  });

  it('undo is Ctrl+Z; redo is Ctrl+Shift+Z or Ctrl+Y; text fields keep their own undo', () => {
    expect(shortcutFor(key('z', { ctrlKey: true }), false)).toBe('undo');
    expect(shortcutFor(key('Z', { ctrlKey: true, shiftKey: true }), false)).toBe('redo');
    expect(shortcutFor(key('y', { ctrlKey: true }), false)).toBe('redo');
    const input = document.createElement('input');
    expect(shortcutFor(key('z', { ctrlKey: true }, input), false)).toBe(null);
    // Save still works from a text field.
    expect(shortcutFor(key('s', { ctrlKey: true }, input), false)).toBe('save');
    expect(shortcutFor(key('z', { ctrlKey: true, altKey: true }), false)).toBe(null);
    expect(shortcutFor(key('z'), false)).toBe(null);
  });

  it('Ctrl+N is New motion (⌘N on macOS), from a text field too; Ctrl+X cuts the selected keys (not the curve editor\'s)', () => {
    expect(shortcutFor(key('n', { ctrlKey: true }), false)).toBe('newMotion');
    expect(shortcutFor(key('n', { metaKey: true }), true)).toBe('newMotion');
    expect(shortcutFor(key('n', { ctrlKey: true }, document.createElement('input')), false)).toBe('newMotion');
    // Ctrl+X is the editor's (an action, not an app command); in a text field it stays the field's cut.
    expect(shortcutFor(key('x', { ctrlKey: true }), false)).toBe(null);
    expect(bindingFor(key('x', { ctrlKey: true }), false, { curveFocused: false, handleActive: false })?.row.action).toBe('cutKeys');
    expect(bindingFor(key('x', { metaKey: true }), true, { curveFocused: false, handleActive: false })?.row.action).toBe('cutKeys');
  });

  it('F1 opens the keyboard reference, with no modifier only', () => {
    expect(shortcutFor(key('F1'), false)).toBe('shortcuts');
    expect(shortcutFor(key('F1'), true)).toBe('shortcuts');
    expect(shortcutFor(key('F1', { ctrlKey: true }), false)).toBe(null);
    expect(shortcutFor(key('F1', { shiftKey: true }), false)).toBe(null);
  });
});
