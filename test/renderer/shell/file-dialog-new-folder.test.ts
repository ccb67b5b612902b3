/**
 * The in-app Save dialog makes folders (the byte audit's finding 4: Save As into a new folder was impossible in
 * the browser mode, and Save then did nothing, without a word): New folder makes one in the folder shown; a
 * folder typed in the path box that is not there yet says it will be made and is made on Save; a full path in
 * the name box whose folder is missing is saved there, its folder made; Save that cannot go on says why.
 * Against a fake file system whose createFolder records what it was asked to make.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { flushPromises, mount } from '@vue/test-utils';
import type { DirectoryListing, IpcResult } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import FileDialog from '../../../renderer/src/shell/FileDialog.vue';
import { showFileDialog, type PickedPath } from '../../../renderer/src/shell/file-dialog';
import { useSettingsStore } from '../../../renderer/src/stores/settings';

let folders: Map<string, string[]>;
let made: string[];
/** Where createFolder is refused (E_IO_DENIED), as main's folderError words it. */
const LOCKED = '/locked';

function list(dir: string): IpcResult<DirectoryListing> {
  const p = dir === '' ? '/m' : dir;
  const files = folders.get(p);
  if (!files) return { ok: false, error: { code: 'E_IO_NOT_FOUND', message: 'no such folder', file: p } };
  const sub = [...folders.keys()].filter((d) => d !== p && d.startsWith(p + '/') && !d.slice(p.length + 1).includes('/'));
  const entries = [
    ...sub.map((d) => ({ name: d.slice(p.length + 1), path: d, kind: 'dir' as const, size: 0, mtimeMs: 0 })),
    ...files.map((name) => ({ name, path: `${p}/${name}`, kind: 'file' as const, size: 1, mtimeMs: 0 })),
  ];
  return { ok: true, value: { path: p, parent: p.replace(/\/[^/]*$/, '') || '/', entries } };
}

function createFolder(dir: string): IpcResult<string> {
  made.push(dir);
  if (dir.startsWith(LOCKED + '/')) return { ok: false, error: { code: 'E_IO_DENIED', message: `the folder ${LOCKED} cannot be written (read-only or permission denied)`, file: dir } };
  // Its missing parents too, as mkdir -p.
  for (let d = dir; d && d !== '/'; d = d.replace(/\/[^/]*$/, '')) if (!folders.has(d)) folders.set(d, []);
  return { ok: true, value: dir };
}

describe('the Save dialog makes folders', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    folders = new Map([['/m', ['stand.vmd']], ['/tmp', []], ['/tmp/k', []], [LOCKED, []]]);
    made = [];
    const api = { listDirectory: async (d: string) => list(d), createFolder: async (d: string) => createFolder(d) };
    setApi(new Proxy(api, { get: (t, k) => (t as Record<string | symbol, unknown>)[k] ?? (async () => ({ ok: true, value: undefined })) }) as never);
  });

  /** The Save dialog on /m proposing stand.vmd, and what it answered so far (undefined: nothing yet). */
  async function saveDialog() {
    const w = mount(FileDialog, { attachTo: document.body });
    const answer: { value?: PickedPath | null } = {};
    void showFileDialog({ mode: 'save', title: 'Save', filter: 'motion', directory: '/m', fileName: 'stand.vmd' }).then((r) => (answer.value = r));
    await flushPromises();
    return { w, answer };
  }
  const save = async (w: Awaited<ReturnType<typeof saveDialog>>['w']) => {
    await w.get('[data-testid="file-dialog-accept"]').trigger('click');
    await flushPromises();
  };

  it('New folder makes a folder in the one shown and goes into it; Save saves there', async () => {
    const { w, answer } = await saveDialog();
    await w.get('[data-testid="file-dialog-new-folder-button"]').trigger('click');
    await flushPromises();
    const field = w.get<HTMLInputElement>('[data-testid="file-dialog-folder-name"]');
    expect(field.element.value).toBe('New folder');
    await field.setValue('新しい フォルダ');
    await w.get('[data-testid="file-dialog-folder-create"]').trigger('submit');
    await flushPromises();
    expect(made).toEqual(['/m/新しい フォルダ']);
    expect(w.get('[data-testid="file-dialog"]').attributes('data-folder')).toBe('/m/新しい フォルダ');
    expect(w.find('[data-testid="file-dialog-folder-name"]').exists()).toBe(false);
    await save(w);
    expect(answer.value).toEqual({ path: '/m/新しい フォルダ/stand.vmd', overwrite: false });
    w.unmount();
  });

  it('a folder typed in the path box that is not there yet: "made when you save", and Save makes it and saves there', async () => {
    const { w, answer } = await saveDialog();
    await w.get('[data-testid="file-dialog-path"]').setValue('/tmp/k/新しい フォルダ');
    await w.get('form.pathbar').trigger('submit');
    await flushPromises();
    expect(w.get('[data-testid="file-dialog-new-folder"]').text()).toBe('New folder: /tmp/k/新しい フォルダ (made when you save)');
    expect(w.find('[data-testid="file-dialog-error"]').exists()).toBe(false);
    expect(made).toEqual([]);
    await w.get('[data-testid="file-dialog-name"]').setValue('wave copy.vmd');
    await save(w);
    expect(made).toEqual(['/tmp/k/新しい フォルダ']);
    expect(answer.value).toEqual({ path: '/tmp/k/新しい フォルダ/wave copy.vmd', overwrite: false });
    w.unmount();
  });

  it('a full path in the name box whose folders are missing: they are made, the file saved there', async () => {
    const { w, answer } = await saveDialog();
    await w.get('[data-testid="file-dialog-name"]').setValue('/tmp/k/a/b/wave copy.vmd');
    await save(w);
    expect(made).toEqual(['/tmp/k/a/b']);
    expect(answer.value).toEqual({ path: '/tmp/k/a/b/wave copy.vmd', overwrite: false });
    w.unmount();
  });

  it('Save that cannot go on says why, in the UI language: a folder that cannot be made, no name', async () => {
    const { w, answer } = await saveDialog();
    await w.get('[data-testid="file-dialog-name"]').setValue(`${LOCKED}/sub/x.vmd`);
    await save(w);
    expect(answer.value).toBeUndefined();
    expect(w.get('[data-testid="file-dialog-error"]').text()).toBe(
      `The folder ${LOCKED}/sub could not be made: the folder ${LOCKED} cannot be written (read-only or permission denied)`,
    );
    await w.get('[data-testid="file-dialog-name"]').setValue('  ');
    await save(w);
    expect(answer.value).toBeUndefined();
    expect(w.get('[data-testid="file-dialog-error"]').text()).toBe('Type a name to save as');
    useSettingsStore().settings.locale = 'ja';
    await flushPromises();
    expect(w.get('[data-testid="file-dialog-error"]').text()).toBe('保存するファイル名を入力してください');
    w.unmount();
  });
});
