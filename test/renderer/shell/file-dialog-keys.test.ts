/**
 * The file dialog's list with the keyboard (new-user pass nua11y 5: the listed files could not be reached, only
 * typed paths worked, and Save's name box had no name for a screen reader): the list is a listbox of options with
 * aria-selected; ↓/↑ move, Home/End go to the ends, typed first letters go to a name, Enter opens a folder and
 * takes a file, Backspace goes up. Against a fake file system (folders first, as listDirectory gives them).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import type { DirectoryListing, IpcResult } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import FileDialog from '../../../renderer/src/shell/FileDialog.vue';
import { showFileDialog, type PickedPath } from '../../../renderer/src/shell/file-dialog';
import { t } from '../../../shared/i18n/strings';

const FOLDERS: Record<string, { dirs: string[]; files: string[] }> = {
  '/m': { dirs: ['camera', 'dance'], files: ['02_laugh.vmd', 'stand.vmd', 'stretch.vmd', 'wavefile.vmd'] },
  '/m/dance': { dirs: [], files: ['one.vmd', 'two.vmd'] },
  '/m/camera': { dirs: [], files: [] },
};
function list(dir: string): IpcResult<DirectoryListing> {
  const p = dir === '' ? '/m' : dir;
  const f = FOLDERS[p];
  if (!f) return { ok: false, error: { code: 'E_IO_NOT_FOUND', message: 'no such folder', file: p } };
  const entries = [
    ...f.dirs.map((name) => ({ name, path: `${p}/${name}`, kind: 'dir' as const, size: 0, mtimeMs: 0 })),
    ...f.files.map((name) => ({ name, path: `${p}/${name}`, kind: 'file' as const, size: 1, mtimeMs: 0 })),
  ];
  return { ok: true, value: { path: p, parent: p === '/m' ? '/' : '/m', entries } };
}

beforeEach(() => {
  // The clock stands still: letters typed in one test count as typed together (the dialog's one-second window).
  vi.useFakeTimers({ toFake: ['performance'] });
  setActivePinia(createPinia());
  const api = { listDirectory: async (d: string) => list(d) };
  setApi(new Proxy(api, { get: (o, k) => (o as Record<string | symbol, unknown>)[k] ?? (async () => ({ ok: true, value: undefined })) }) as never);
});

afterEach(() => vi.useRealTimers());

async function dialog(mode: 'open' | 'save') {
  const w = mount(FileDialog, { attachTo: document.body });
  const answer: { value?: PickedPath | null } = {};
  void showFileDialog({ mode, title: mode, filter: 'motion', directory: '/m', fileName: mode === 'save' ? 'new.vmd' : undefined }).then((r) => (answer.value = r));
  await flushPromises();
  return { w, answer };
}
async function key(w: VueWrapper, k: string) {
  await w.get('[data-testid="file-dialog-entries"]').trigger('keydown', { key: k });
  await flushPromises();
}
/** The selected options' names (aria-selected), and the one the listbox names as active. */
function selectedNames(w: VueWrapper): { selected: string[]; active: string | null } {
  const ul = w.get('[data-testid="file-dialog-entries"]').element;
  const id = ul.getAttribute('aria-activedescendant');
  return {
    selected: [...ul.querySelectorAll('[role="option"][aria-selected="true"]')].map((e) => e.getAttribute('data-name')!),
    active: id ? document.getElementById(id)?.getAttribute('data-name') ?? null : null,
  };
}

describe('the file dialog’s list with the keyboard', () => {
  it('is a named, focusable listbox of options; arrows, Home/End and typed letters move the selection', async () => {
    const { w } = await dialog('open');
    const ul = w.get('[data-testid="file-dialog-entries"]');
    expect(ul.attributes('role')).toBe('listbox');
    expect(ul.attributes('tabindex')).toBe('0');
    expect(ul.attributes('aria-label')).toBe(t('dialog.entries', 'en'));
    expect(w.findAll('[role="option"]').map((o) => o.attributes('data-name'))).toEqual(['camera', 'dance', '02_laugh.vmd', 'stand.vmd', 'stretch.vmd', 'wavefile.vmd']);
    expect(selectedNames(w)).toEqual({ selected: [], active: null });
    await key(w, 'ArrowDown');
    expect(selectedNames(w)).toEqual({ selected: ['camera'], active: 'camera' });
    await key(w, 'ArrowDown');
    await key(w, 'ArrowDown');
    expect(selectedNames(w).selected).toEqual(['02_laugh.vmd']);
    await key(w, 'ArrowUp');
    expect(selectedNames(w).selected).toEqual(['dance']);
    await key(w, 'End');
    expect(selectedNames(w)).toEqual({ selected: ['wavefile.vmd'], active: 'wavefile.vmd' });
    await key(w, 'ArrowDown'); // stays at the end
    expect(selectedNames(w).selected).toEqual(['wavefile.vmd']);
    await key(w, 'Home');
    expect(selectedNames(w).selected).toEqual(['camera']);
    // "s" goes to the first name after the selection with s; "s" again to the next one.
    await key(w, 's');
    expect(selectedNames(w).selected).toEqual(['stand.vmd']);
    await key(w, 's');
    expect(selectedNames(w).selected).toEqual(['stretch.vmd']);
    // Letters typed together name more of it (a move in between starts afresh): "str" is stretch, not stand.
    await key(w, 'Home');
    await key(w, 's');
    await key(w, 't');
    expect(selectedNames(w).selected).toEqual(['stand.vmd']);
    await key(w, 'r');
    expect(selectedNames(w).selected).toEqual(['stretch.vmd']);
    w.unmount();
  });

  it('Enter opens the folder selected and takes the file selected; Backspace goes up', async () => {
    const { w, answer } = await dialog('open');
    await key(w, 'ArrowDown');
    await key(w, 'ArrowDown');
    expect(selectedNames(w).selected).toEqual(['dance']);
    await key(w, 'Enter');
    expect(w.get('[data-testid="file-dialog"]').attributes('data-folder')).toBe('/m/dance');
    await key(w, 'Backspace');
    expect(w.get('[data-testid="file-dialog"]').attributes('data-folder')).toBe('/m');
    await key(w, 'Enter'); // nothing selected: the path shown is gone to (the same folder), nothing taken
    expect(answer.value).toBeUndefined();
    await key(w, 'Home');
    await key(w, '0');
    expect(selectedNames(w).selected).toEqual(['02_laugh.vmd']);
    await key(w, 'Enter');
    expect(answer.value).toEqual({ path: '/m/02_laugh.vmd', overwrite: false });
    w.unmount();
  });

  it('saving: the name box has a name, and a file picked with the keys proposes its name', async () => {
    const { w, answer } = await dialog('save');
    const name = w.get<HTMLInputElement>('[data-testid="file-dialog-name"]');
    expect(name.attributes('aria-label')).toBe(t('dialog.fileName', 'en'));
    expect(name.element.value).toBe('new.vmd');
    await key(w, 'End');
    expect(name.element.value).toBe('wavefile.vmd');
    w.unmount();
    expect(answer.value).toBeUndefined();
  });
});
