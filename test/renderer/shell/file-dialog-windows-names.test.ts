/**
 * Save As with a name Windows cannot hold (finding 12 of the files-across-sessions pass): `振付:最終?.vmd` was written
 * as is, and a friend unzipping the folder on Windows gets an error or a renamed file. The dialog says so once, in the
 * UI's language; Save again with the same name keeps it (Linux and macOS take it); a changed name is asked again.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { flushPromises, mount } from '@vue/test-utils';
import { DEFAULT_SETTINGS, okValue, type DirectoryListing, type IpcResult } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import FileDialog from '../../../renderer/src/shell/FileDialog.vue';
import { showFileDialog } from '../../../renderer/src/shell/file-dialog';
import { windowsNameProblem } from '../../../renderer/src/paths';

const listing = (): IpcResult<DirectoryListing> => ({ ok: true, value: { path: '/m', parent: '/', entries: [] } });

beforeEach(() => {
  setActivePinia(createPinia());
  const api = { listDirectory: async () => listing(), getSettings: async () => okValue({ ...DEFAULT_SETTINGS, ui: {} }) };
  setApi(new Proxy(api, { get: (o, k) => (o as Record<string | symbol, unknown>)[k] ?? (async () => ({ ok: true, value: undefined })) }) as never);
});

describe('names Windows cannot hold', () => {
  it('windowsNameProblem: the refused characters once each, device names with or without an extension; ordinary Japanese names pass', () => {
    expect(windowsNameProblem('振付:最終?.vmd')).toEqual({ chars: ': ?' });
    expect(windowsNameProblem('a<b>c"d|e*f::.vmd')).toEqual({ chars: '< > " | * :' });
    expect(windowsNameProblem('tab\there.vmd')).toEqual({ chars: 'U+0009' });
    expect(windowsNameProblem('con.vmd')).toEqual({ reserved: 'CON' });
    expect(windowsNameProblem('Lpt1')).toEqual({ reserved: 'LPT1' });
    expect(windowsNameProblem('console.vmd')).toBeNull();
    expect(windowsNameProblem('ダンス（最終版）★.vmd')).toBeNull();
    expect(windowsNameProblem('walk.vmd')).toBeNull();
  });

  it('Save warns once, in the dialog; Save again keeps the name; another odd name is warned again', async () => {
    const w = mount(FileDialog, { attachTo: document.body });
    const chosen = showFileDialog({ mode: 'save', title: 'Save As', filter: 'vmd', directory: '/m', fileName: 'dance.vmd' });
    await flushPromises();
    const name = w.get('[data-testid="file-dialog-name"]');
    await name.setValue('振付:最終?');
    await w.get('[data-testid="file-dialog-accept"]').trigger('click');
    await flushPromises();
    expect(w.get('[data-testid="file-dialog-windows-name"]').text()).toBe(
      'Windows cannot hold : ? in a file name: a friend on Windows could not unzip 振付:最終?.vmd. Save again to keep the name, or change it',
    );
    expect(w.find('[data-testid="file-dialog"]').exists() || w.find('[data-testid="file-dialog-accept"]').exists()).toBe(true);
    // Another odd name: said again for it.
    await name.setValue('con');
    await w.get('[data-testid="file-dialog-accept"]').trigger('click');
    await flushPromises();
    expect(w.get('[data-testid="file-dialog-windows-name"]').text()).toContain('Windows keeps CON as a device name');
    // Save again: kept as typed.
    await w.get('[data-testid="file-dialog-accept"]').trigger('click');
    await flushPromises();
    expect((await chosen)?.path).toBe('/m/con.vmd');
    w.unmount();
  });

  it('an ordinary name saves at once', async () => {
    const w = mount(FileDialog, { attachTo: document.body });
    const chosen = showFileDialog({ mode: 'save', title: 'Save As', filter: 'vmd', directory: '/m', fileName: 'dance.vmd' });
    await flushPromises();
    await w.get('[data-testid="file-dialog-name"]').setValue('ダンス（最終版）');
    await w.get('[data-testid="file-dialog-accept"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-testid="file-dialog-windows-name"]').exists()).toBe(false);
    expect((await chosen)?.path).toBe('/m/ダンス（最終版）.vmd');
    w.unmount();
  });
});
