// Modal dialogs own the keyboard's focus (new-user pass nua11y 2: Tab went on to the controls behind the
// backdrop, Escape left the focus anywhere, no dialog was aria-modal): a dialog takes the focus when it opens
// (its first field, else its default button), Tab and Shift+Tab go round inside it through the one keymap,
// and closing (Escape, Close) gives the focus back to the button that opened it, or to the menu's button
// when that was a menu's item, now gone. Through ModalDialog (every simple dialog) in happy-dom.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { defineComponent, h, nextTick, ref } from 'vue';
import { mount, type VueWrapper } from '@vue/test-utils';
import ModalDialog from '../../../renderer/src/shell/ModalDialog.vue';
import { installKeymap } from '../../../renderer/src/shell/keymap';
import { overlayOpen } from '../../../renderer/src/shell/overlay';

const open = ref(false);
const withField = ref(true);
/** A page: an opener button, a button behind, and the dialog (a field, a button, Close). */
const Page = defineComponent(() => () =>
  h('div', [
    h('button', { id: 'opener', onClick: () => (open.value = true) }, 'Open'),
    h('button', { id: 'behind' }, 'Behind'),
    open.value
      ? h(ModalDialog, { title: 'A dialog', testid: 'x-dialog', onClose: () => (open.value = false) }, () => [
          withField.value ? h('input', { id: 'field' }) : null,
          h('button', { id: 'middle' }, 'Middle'),
        ])
      : null,
  ]),
);

let w: VueWrapper | null = null;
let off: (() => void) | null = null;
const active = () => (document.activeElement as HTMLElement | null)?.id || (document.activeElement as HTMLElement | null)?.dataset.testid || document.activeElement?.tagName;
function key(k: string, shift = false): KeyboardEvent {
  const e = new KeyboardEvent('keydown', { key: k, shiftKey: shift, bubbles: true, cancelable: true });
  (document.activeElement ?? document.body).dispatchEvent(e);
  return e;
}
async function settle() {
  await nextTick();
  await nextTick();
}

beforeEach(() => {
  setActivePinia(createPinia());
  open.value = false;
  withField.value = true;
  w = mount(Page, { attachTo: document.body });
  off = installKeymap(window, { mac: false, commandsByMenu: () => false, runCommand: () => undefined });
  // The keyboard's user: the last press was a key.
  document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Shift', bubbles: true }));
});
afterEach(() => {
  off?.();
  w?.unmount();
  document.body.innerHTML = '';
});

describe('a modal dialog holds the focus', () => {
  it('takes it on opening, keeps Tab and Shift+Tab inside, is aria-modal and named, and gives it back on Escape', async () => {
    const opener = document.getElementById('opener') as HTMLButtonElement;
    opener.focus();
    opener.click();
    await settle();
    const box = document.querySelector('[data-testid="x-dialog"] [role="dialog"]')!;
    expect(box.getAttribute('aria-modal')).toBe('true');
    expect(box.getAttribute('aria-label')).toBe('A dialog');
    // The first field has the focus.
    expect(active()).toBe('field');
    // Tab: field → Middle → Close → (round) field; the browser moves between stops itself, the wrap is ours.
    document.querySelector<HTMLElement>('[data-testid="x-close"]')!.focus();
    const e = key('Tab');
    expect(e.defaultPrevented).toBe(true);
    expect(active()).toBe('field');
    // Shift+Tab from the first goes round to the last.
    key('Tab', true);
    expect(active()).toBe('x-close');
    // From behind the backdrop (a click outside left the focus there), Tab comes back in.
    (document.getElementById('behind') as HTMLElement).focus();
    key('Tab');
    expect(active()).toBe('field');
    // A Tab between two of its stops is left to the browser.
    expect(key('Tab').defaultPrevented).toBe(false);

    key('Escape');
    await settle();
    expect(overlayOpen()).toBe(false);
    expect(document.querySelector('[data-testid="x-dialog"]')).toBe(null);
    expect(active()).toBe('opener');
  });

  it('focuses the default button when it has no field, and Close gives the focus back too', async () => {
    withField.value = false;
    const opener = document.getElementById('opener') as HTMLButtonElement;
    opener.focus();
    opener.click();
    await settle();
    // Close is the default (primary) button of a dialog without a footer of its own.
    expect(active()).toBe('x-close');
    document.querySelector<HTMLElement>('[data-testid="x-close"]')!.click();
    await settle();
    expect(active()).toBe('opener');
  });

  it('opened with the mouse, it gives the keys back to the page on closing (a click on Open… and then Space plays)', async () => {
    const opener = document.getElementById('opener') as HTMLButtonElement;
    opener.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    opener.focus();
    opener.click();
    await settle();
    expect(active()).toBe('field');
    key('Escape');
    await settle();
    expect(active()).toBe('BODY');
  });

  it('gives the focus to the menu’s button when a menu item opened it and is gone', async () => {
    // A dropdown as MenuBar's: the button with aria-expanded beside a .menu list whose item opens the dialog.
    const menuOpen = ref(true);
    const Menu = defineComponent(() => () =>
      h('div', { class: 'dropdown' }, [
        h('button', { id: 'menu-button', 'aria-expanded': String(menuOpen.value) }, 'Export ▾'),
        menuOpen.value ? h('ul', { class: 'menu' }, [h('li', [h('button', { id: 'item', onClick: () => ((menuOpen.value = false), (open.value = true)) }, 'VPD…')])]) : null,
      ]),
    );
    const m = mount(Menu, { attachTo: document.body });
    (document.getElementById('item') as HTMLElement).focus();
    (document.getElementById('item') as HTMLElement).click();
    await settle();
    expect(document.getElementById('item')).toBe(null);
    expect(active()).toBe('field');
    key('Escape');
    await settle();
    expect(active()).toBe('menu-button');
    m.unmount();
  });
});
