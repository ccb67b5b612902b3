// The ▾ menus work as menus from the keyboard (new-user pass nuprefs 5: ↓ on Open Recent ▾ left the focus on the
// button, only Tab reached the entries, and Esc closed the menu with the focus on the page): ↓ on the button opens
// it on its first item, ↑ on its last; ↓/↑ go round the items (disabled ones skipped), Home/End to the ends; Esc
// closes it and gives the focus back to its button. Marked as menus for screen readers (role menu / menuitem).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { mount, type VueWrapper } from '@vue/test-utils';
import { okValue } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import MenuBar from '../../../renderer/src/components/MenuBar.vue';
import { installKeymap } from '../../../renderer/src/shell/keymap';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { memoryScene } from '../stores/scene-fixtures';

const settle = async () => {
  for (let i = 0; i < 5; i++) await nextTick();
};
let w: VueWrapper;
let off: (() => void) | null = null;
beforeEach(async () => {
  const { fake } = memoryScene([]);
  // Two recent files, as main lists them (the menu asks again when it opens).
  const recent = [
    { path: '/m/walk.vmd', name: 'walk.vmd', openedAt: 2 },
    { path: '/m/run.vmd', name: 'run.vmd', openedAt: 1 },
  ];
  setApi(new Proxy(fake.api, { get: (t, k) => (k === 'listRecent' ? async () => okValue(recent) : (t as unknown as Record<string | symbol, unknown>)[k]) }));
  useSettingsStore().recent = recent as never;
  w = mount(MenuBar, { attachTo: document.body });
  off = installKeymap(window, { mac: false, commandsByMenu: () => false, runCommand: () => undefined });
  await settle();
});
afterEach(() => {
  off?.();
  w.unmount();
  document.body.innerHTML = '';
});

/** A key pressed where the focus is (through the window's keymap, as in the app). */
async function press(key: string) {
  (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  await settle();
}
const focused = () => (document.activeElement as HTMLElement | null)?.getAttribute('data-testid') ?? (document.activeElement as HTMLElement | null)?.textContent?.trim() ?? null;

describe('the ▾ menus from the keyboard', () => {
  it('Help ▾: ↓ opens it on its first item; ↓/↑ go round, Home/End to the ends; Esc closes it, the focus back on ?', async () => {
    const button = w.get('[data-testid="cmd-help"]');
    expect(button.attributes('aria-haspopup')).toBe('menu');
    (button.element as HTMLElement).focus();
    await press('ArrowDown');
    expect(w.find('[data-testid="help-menu"]').attributes('role')).toBe('menu');
    expect(w.findAll('[data-testid="help-menu"] button').map((b) => b.attributes('role'))).toEqual(['menuitem', 'menuitem', 'menuitem', 'menuitem']);
    expect(focused()).toBe('cmd-getting-started');
    await press('ArrowDown');
    expect(focused()).toBe('cmd-help-shortcuts');
    await press('ArrowDown');
    expect(focused()).toBe('cmd-about');
    // Reset layout (the laptop pass: a pane squeezed out of the window) is the fourth, after a separator.
    await press('ArrowDown');
    expect(focused()).toBe('cmd-reset-layout');
    await press('ArrowDown');
    expect(focused()).toBe('cmd-getting-started');
    await press('ArrowUp');
    expect(focused()).toBe('cmd-reset-layout');
    await press('Home');
    expect(focused()).toBe('cmd-getting-started');
    await press('End');
    expect(focused()).toBe('cmd-reset-layout');
    await press('Escape');
    expect(w.find('[data-testid="help-menu"]').exists()).toBe(false);
    expect(focused()).toBe('cmd-help');
  });

  it('Open Recent ▾: Enter (a click from the keyboard) opens it on the first entry; ↑ from the button on its last item (Clear Recent)', async () => {
    const button = w.get('[data-testid="cmd-recent"]');
    (button.element as HTMLElement).focus();
    // A keyboard's Enter on a button is a click of detail 0.
    button.element.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 0 }));
    await settle();
    expect(w.findAll('[data-testid="recent-file"]').map((b) => b.text())).toEqual(['walk.vmd/m', 'run.vmd/m']);
    expect((document.activeElement as HTMLElement).textContent).toContain('walk.vmd');
    await press('ArrowDown');
    expect((document.activeElement as HTMLElement).textContent).toContain('run.vmd');
    await press('Escape');
    expect(w.find('[data-testid="recent-menu"]').exists()).toBe(false);
    expect(focused()).toBe('cmd-recent');
    await press('ArrowUp');
    expect(focused()).toBe('Clear Recent');
  });

  it('Scene ▾ with nothing open: ↓ skips the items that are off (Save Scene As…, Save This Motion Only, Save All, Close Scene)', async () => {
    (w.get('[data-testid="cmd-scene"]').element as HTMLElement).focus();
    await press('ArrowDown');
    expect(focused()).toBe('cmd-open-scene');
    await press('ArrowDown');
    expect(focused()).toBe('cmd-open-scene');
  });
});
