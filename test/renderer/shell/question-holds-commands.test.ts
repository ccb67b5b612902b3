// New-user pass nujp 6: with the "cannot save" question open, Ctrl+Shift+S opened Save As under it — two modal
// dialogs stacked, the top one in the way. A question (ConfirmDialog) holds the app's commands until answered.
import { afterEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { flushPromises, mount } from '@vue/test-utils';
import ConfirmDialog from '../../../renderer/src/shell/ConfirmDialog.vue';
import ModalDialog from '../../../renderer/src/shell/ModalDialog.vue';
import { installKeymap } from '../../../renderer/src/shell/keymap';
import { overlayOpen, questionOpen } from '../../../renderer/src/shell/overlay';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import type { CommandId } from '../../../renderer/src/shell/key-names';

let off: (() => void) | null = null;
afterEach(() => {
  off?.();
  document.body.innerHTML = '';
});

const saveAsKey = () => new KeyboardEvent('keydown', { key: 'S', ctrlKey: true, shiftKey: true, bubbles: true, cancelable: true });

describe('a question open holds the app commands', () => {
  it('Ctrl+Shift+S does nothing while the confirm dialog asks; after the answer it opens Save As', async () => {
    setActivePinia(createPinia());
    const commands: CommandId[] = [];
    off = installKeymap(window, { mac: false, commandsByMenu: () => false, runCommand: (id) => void commands.push(id) });
    const w = mount(ConfirmDialog, { attachTo: document.body });
    const answer = useConfirmStore().ask({ title: 'Cannot save', message: 'read-only', buttons: [{ choice: 'saveAs', label: 'dialog.close' }, { choice: 'cancel', label: 'dialog.cancel' }] });
    await flushPromises();
    expect(document.querySelector('[data-testid="confirm-dialog"]')).not.toBeNull();
    expect(questionOpen()).toBe(true);
    document.body.dispatchEvent(saveAsKey());
    expect(commands).toEqual([]);
    useConfirmStore().answer('cancel');
    await answer;
    await flushPromises();
    expect(questionOpen()).toBe(false);
    document.body.dispatchEvent(saveAsKey());
    expect(commands).toEqual(['saveAs']);
    w.unmount();
  });

  it('a dialog that is not a question (Batch, F1) leaves the app commands running over it', async () => {
    setActivePinia(createPinia());
    const commands: CommandId[] = [];
    off = installKeymap(window, { mac: false, commandsByMenu: () => false, runCommand: (id) => void commands.push(id) });
    const w = mount(ModalDialog, { props: { title: 'x', testid: 'x-dialog' }, attachTo: document.body });
    await flushPromises();
    expect(overlayOpen()).toBe(true);
    expect(questionOpen()).toBe(false);
    document.body.dispatchEvent(saveAsKey());
    expect(commands).toEqual(['saveAs']);
    w.unmount();
  });
});
