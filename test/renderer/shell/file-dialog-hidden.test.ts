/**
 * Show hidden files in the in-app dialog (finding 11 of the files-across-sessions pass): `.hidden/` and
 * `.dotfile.vmd` were never listed and the dialog offered no way to list them. A "Show hidden files" box lists
 * them (listDirectory's showHidden), and is remembered in the settings' ui bag (the next dialog lists them too).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { flushPromises, mount } from '@vue/test-utils';
import { DEFAULT_SETTINGS, okValue, type DirectoryListing, type IpcResult, type Settings } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import FileDialog from '../../../renderer/src/shell/FileDialog.vue';
import { showFileDialog } from '../../../renderer/src/shell/file-dialog';
import { useSettingsStore } from '../../../renderer/src/stores/settings';

/** `/m` with a hidden folder and a hidden file beside the visible ones: the fake lists dot-names only when asked. */
function list(dir: string, showHidden: boolean): IpcResult<DirectoryListing> {
  const p = dir === '' ? '/m' : dir;
  const all = [
    { name: '.hidden', kind: 'dir' as const },
    { name: 'visible', kind: 'dir' as const },
    { name: '.dotfile.vmd', kind: 'file' as const },
    { name: 'walk.vmd', kind: 'file' as const },
  ];
  const entries = all.filter((e) => showHidden || !e.name.startsWith('.')).map((e) => ({ ...e, path: `${p}/${e.name}`, size: 1, mtimeMs: 0 }));
  return { ok: true, value: { path: p, parent: '/', entries } };
}

let stored: Settings;
beforeEach(() => {
  setActivePinia(createPinia());
  stored = { ...DEFAULT_SETTINGS, ui: {} };
  const api = {
    listDirectory: async (d: string, o?: { showHidden?: boolean }) => list(d, o?.showHidden === true),
    setSettings: async (patch: Partial<Settings>) => okValue((stored = { ...stored, ...patch, ui: { ...stored.ui, ...(patch.ui ?? {}) } })),
    getSettings: async () => okValue(stored),
  };
  setApi(new Proxy(api, { get: (o, k) => (o as Record<string | symbol, unknown>)[k] ?? (async () => ({ ok: true, value: undefined })) }) as never);
});

const names = (w: ReturnType<typeof mount>) => w.findAll('[role="option"]').map((o) => o.attributes('data-name'));

describe('Show hidden files', () => {
  it('off by default; switched on it lists dot-names and is remembered for the next dialog', async () => {
    const w = mount(FileDialog, { attachTo: document.body });
    void showFileDialog({ mode: 'open', title: 'Open', filter: 'motion', directory: '/m' });
    await flushPromises();
    expect(names(w)).toEqual(['visible', 'walk.vmd']);
    const box = w.get('[data-testid="file-dialog-show-hidden"]');
    expect((box.element as HTMLInputElement).checked).toBe(false);
    await box.setValue(true);
    await flushPromises();
    expect(names(w)).toEqual(['.hidden', 'visible', '.dotfile.vmd', 'walk.vmd']);
    expect(stored.ui['fileDialog.showHidden']).toBe(true);
    w.unmount();

    // Next time (the settings as stored), the dialog lists them from the start, the box checked.
    setActivePinia(createPinia());
    await useSettingsStore().load();
    const again = mount(FileDialog, { attachTo: document.body });
    void showFileDialog({ mode: 'open', title: 'Open', filter: 'motion', directory: '/m' });
    await flushPromises();
    expect(names(again)).toEqual(['.hidden', 'visible', '.dotfile.vmd', 'walk.vmd']);
    expect((again.get('[data-testid="file-dialog-show-hidden"]').element as HTMLInputElement).checked).toBe(true);
    again.unmount();
  });
});
