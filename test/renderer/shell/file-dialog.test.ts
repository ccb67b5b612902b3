/**
 * The in-app file dialog: a path in the name box saves there, `~` and a file's path, and listing errors
 * said in words in both languages — the pure helpers, then the component against a fake listing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { flushPromises, mount } from '@vue/test-utils';
import type { DirectoryListing, IpcResult } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import FileDialog from '../../../renderer/src/shell/FileDialog.vue';
import { listingErrorText, showFileDialog, splitTypedPath } from '../../../renderer/src/shell/file-dialog';
import { renderText } from '../../../renderer/src/stores/notify';
import { useSettingsStore } from '../../../renderer/src/stores/settings';

describe('a path typed in the name box', () => {
  it('splits into the folder to save in and the name', () => {
    expect(splitTypedPath('out.vmd', '/m')).toEqual({ dir: null, name: 'out.vmd' });
    expect(splitTypedPath('/tmp/x/out.vmd', '/m')).toEqual({ dir: '/tmp/x', name: 'out.vmd' });
    expect(splitTypedPath('/out.vmd', '/m')).toEqual({ dir: '/', name: 'out.vmd' });
    expect(splitTypedPath('~/out.vmd', '/m')).toEqual({ dir: '~', name: 'out.vmd' });
    expect(splitTypedPath('~', '/m')).toEqual({ dir: '~', name: '' });
    expect(splitTypedPath('sub/deeper/out.vmd', '/m')).toEqual({ dir: '/m/sub/deeper', name: 'out.vmd' });
    expect(splitTypedPath('C:\\m\\out.vmd', 'D:\\x')).toEqual({ dir: 'C:\\m', name: 'out.vmd' });
    expect(splitTypedPath('C:\\out.vmd', 'D:\\x')).toEqual({ dir: 'C:\\', name: 'out.vmd' });
    expect(splitTypedPath('sub\\out.vmd', 'D:\\x')).toEqual({ dir: 'D:\\x\\sub', name: 'out.vmd' });
    expect(splitTypedPath('/tmp/x/', '/m')).toEqual({ dir: '/tmp/x', name: '' });
  });

  it('says why a folder cannot be listed, by code, in both languages', () => {
    const cases = [
      [{ code: 'E_IO_NOT_DIR', message: 'x', file: '/a/b.vmd/c' }, '/a/b.vmd/c is not a folder (a part of the path is a file)', '/a/b.vmd/c はフォルダではありません（パスの途中がファイルです）'],
      [{ code: 'E_IO_NOT_FOUND', message: 'x', file: '/nope' }, 'There is no folder /nope', 'フォルダ /nope はありません'],
      [{ code: 'E_IO_DENIED', message: 'x', file: '/root' }, 'You have no permission to open the folder /root', 'フォルダ /root を開く権限がありません'],
      [{ code: 'E_IO', message: 'EIO: i/o error', file: '/d' }, 'The folder /d cannot be listed (EIO: i/o error)', 'フォルダ /d の一覧を取得できません（EIO: i/o error）'],
    ] as const;
    for (const [e, en, ja] of cases) {
      expect(renderText(listingErrorText(e), 'en')).toBe(en);
      expect(renderText(listingErrorText(e), 'ja')).toBe(ja);
    }
  });
});

/** A fake file system: folders with their files; '~' is /home/me. */
const FOLDERS: Record<string, string[]> = { '/home/me': ['a.vmd'], '/tmp/x': ['old.vmd'], '/m': ['stand.vmd'] };
function fakeList(dir: string): IpcResult<DirectoryListing> {
  let p = dir === '' || dir === '~' ? '/home/me' : dir.replace(/^~\//, '/home/me/');
  let selected: string | undefined;
  const parent = p.replace(/\/[^/]*$/, '') || '/';
  if (!FOLDERS[p] && FOLDERS[parent]?.includes(p.slice(parent.length + 1))) {
    selected = p;
    p = parent;
  }
  if (!FOLDERS[p]) {
    const through = Object.entries(FOLDERS).some(([d, fs]) => fs.some((f) => p.startsWith(`${d}/${f}/`)));
    return { ok: false, error: through ? { code: 'E_IO_NOT_DIR', message: 'not a folder', file: p } : { code: 'E_IO_NOT_FOUND', message: 'no such file or folder', file: p } };
  }
  const entries = FOLDERS[p].map((name) => ({ name, path: `${p}/${name}`, kind: 'file' as const, size: 1, mtimeMs: 0 }));
  return { ok: true, value: { path: p, parent: p === '/' ? null : parent, entries, ...(selected ? { selected } : {}) } };
}

describe('FileDialog', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setApi(new Proxy({ listDirectory: async (d: string) => fakeList(d) }, { get: (t, k) => (t as Record<string | symbol, unknown>)[k] ?? (async () => ({ ok: true, value: undefined })) }) as never);
  });

  async function saveDialog() {
    const w = mount(FileDialog, { attachTo: document.body });
    const picked = showFileDialog({ mode: 'save', title: 'Save', filter: 'motion', directory: '/m', fileName: 'stand.vmd' });
    await flushPromises();
    return { w, picked };
  }

  it('saves at a full path typed in the name box, and at ~/…', async () => {
    const { w, picked } = await saveDialog();
    await w.get('[data-testid="file-dialog-name"]').setValue('/tmp/x/new.vmd');
    await w.get('[data-testid="file-dialog-accept"]').trigger('click');
    await flushPromises();
    expect(await picked).toEqual({ path: '/tmp/x/new.vmd', overwrite: false });
    const again = showFileDialog({ mode: 'save', title: 'Save', filter: 'motion', directory: '/m', fileName: 'stand.vmd' });
    await flushPromises();
    await w.get('[data-testid="file-dialog-name"]').setValue('~/b');
    await w.get('[data-testid="file-dialog-name"]').trigger('keydown', { key: 'Enter' });
    await flushPromises();
    expect(await again).toEqual({ path: '/home/me/b.vmd', overwrite: false });
    w.unmount();
  });

  // Issue 30: a folder gone to and Save pressed at once (the listing still on its way) saved into the
  // folder listed before; so did a folder typed in the path box without Go.
  it('Save right after Go saves in the folder gone to, even while its listing is still on its way', async () => {
    const held: (() => void)[] = [];
    setApi(new Proxy({ listDirectory: (d: string) => new Promise((r) => (d === '/tmp/x' ? held.push(() => r(fakeList(d))) : r(fakeList(d)))) }, { get: (t, k) => (t as Record<string | symbol, unknown>)[k] ?? (async () => ({ ok: true, value: undefined })) }) as never);
    const { w, picked } = await saveDialog();
    await w.get('[data-testid="file-dialog-path"]').setValue('/tmp/x');
    await w.get('form.pathbar').trigger('submit');
    await flushPromises();
    expect(w.get('[data-testid="file-dialog"]').attributes('data-loading')).toBe('true');
    await w.get('[data-testid="file-dialog-name"]').setValue('new');
    await w.get('[data-testid="file-dialog-accept"]').trigger('click');
    await flushPromises();
    let settled = false;
    void picked.then(() => (settled = true));
    await flushPromises();
    expect(settled, 'Save waits for the listing').toBe(false);
    held.splice(0).forEach((f) => f());
    await flushPromises();
    expect(await picked).toEqual({ path: '/tmp/x/new.vmd', overwrite: false });
    w.unmount();
  });

  it('a folder typed in the path box without Go: Save goes there first', async () => {
    const { w, picked } = await saveDialog();
    await w.get('[data-testid="file-dialog-path"]').setValue('/tmp/x');
    await w.get('[data-testid="file-dialog-name"]').setValue('fresh');
    await w.get('[data-testid="file-dialog-accept"]').trigger('click');
    await flushPromises();
    expect(await picked).toEqual({ path: '/tmp/x/fresh.vmd', overwrite: false });
    w.unmount();
  });

  // New-user pass nujp 2: a full new path typed in the path bar and Save clicked (not Enter) asked to replace the
  // file the dialog opened on (stand.vmd) — the path typed was dropped. Save takes it, as Enter does.
  it('a file path typed in the path box and Save clicked saves there, not at the name box\'s file', async () => {
    const { w, picked } = await saveDialog();
    await w.get('[data-testid="file-dialog-path"]').setValue('/tmp/x/ミク ダンス（修正版）.vmd');
    await w.get('[data-testid="file-dialog-accept"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-testid="file-dialog-confirm"]').exists(), 'no question to replace stand.vmd').toBe(false);
    expect(await picked).toEqual({ path: '/tmp/x/ミク ダンス（修正版）.vmd', overwrite: false });
    w.unmount();
  });

  it('a file path typed in the path box that exists: Save asks to replace that file, then replaces it', async () => {
    const { w, picked } = await saveDialog();
    await w.get('[data-testid="file-dialog-path"]').setValue('/tmp/x/old.vmd');
    await w.get('[data-testid="file-dialog-accept"]').trigger('click');
    await flushPromises();
    expect(w.get('[data-testid="file-dialog-confirm"]').text()).toContain('old.vmd');
    expect(w.get('[data-testid="file-dialog-confirm"]').text()).not.toContain('stand.vmd');
    await w.get('[data-testid="file-dialog-accept"]').trigger('click');
    await flushPromises();
    expect(await picked).toEqual({ path: '/tmp/x/old.vmd', overwrite: true });
    w.unmount();
  });

  it('choosing a folder that is not there yet takes it (the batch makes it when it writes)', async () => {
    const w = mount(FileDialog, { attachTo: document.body });
    const picked = showFileDialog({ mode: 'folder', title: 'Output', filter: 'motion', directory: '/m' });
    await flushPromises();
    await w.get('[data-testid="file-dialog-path"]').setValue('/tmp/x/fresh');
    await w.get('form.pathbar').trigger('submit');
    await flushPromises();
    expect(w.get('[data-testid="file-dialog-new-folder"]').text()).toContain('/tmp/x/fresh');
    // The note alone: not also a red "The folder … does not exist" beside it.
    expect(w.find('[data-testid="file-dialog-error"]').exists()).toBe(false);
    await w.get('[data-testid="file-dialog-accept"]').trigger('click');
    await flushPromises();
    expect(await picked).toEqual({ path: '/tmp/x/fresh', overwrite: false });
    w.unmount();
  });

  it('asks before replacing a file named by a full path, then replaces it', async () => {
    const { w, picked } = await saveDialog();
    await w.get('[data-testid="file-dialog-name"]').setValue('/tmp/x/old.vmd');
    await w.get('[data-testid="file-dialog-accept"]').trigger('click');
    await flushPromises();
    expect(w.get('[data-testid="file-dialog-confirm"]').text()).toContain('old.vmd');
    expect((w.get('[data-testid="file-dialog-path"]').element as HTMLInputElement).value).toBe('/tmp/x');
    await w.get('[data-testid="file-dialog-accept"]').trigger('click');
    expect(await picked).toEqual({ path: '/tmp/x/old.vmd', overwrite: true });
    w.unmount();
  });

  it('a file path in the path box selects that file; a path through a file says so in words, in the UI language', async () => {
    const { w, picked } = await saveDialog();
    await w.get('[data-testid="file-dialog-path"]').setValue('/tmp/x/old.vmd/more');
    await w.get('form.pathbar').trigger('submit');
    await flushPromises();
    expect(w.get('[data-testid="file-dialog-error"]').text()).toBe('/tmp/x/old.vmd/more is not a folder (a part of the path is a file)');
    expect(w.text()).not.toMatch(/ENOTDIR/);
    useSettingsStore().settings.locale = 'ja';
    await flushPromises();
    expect(w.get('[data-testid="file-dialog-error"]').text()).toBe('/tmp/x/old.vmd/more はフォルダではありません（パスの途中がファイルです）');
    // In a mode that does not take a typed file at once (choosing a folder), a file's path lists its
    // folder with that file selected.
    await w.get('[data-testid="file-dialog-cancel"]').trigger('click');
    expect(await picked).toBe(null);
    const open = showFileDialog({ mode: 'folder', title: 'Pick', filter: 'motion', directory: '/m' });
    await flushPromises();
    await w.get('[data-testid="file-dialog-path"]').setValue('/tmp/x/old.vmd');
    await w.get('form.pathbar').trigger('submit');
    await flushPromises();
    expect(w.find('[data-testid="file-dialog-error"]').exists()).toBe(false);
    expect(w.get('li.selected').attributes('data-name')).toBe('old.vmd');
    await w.get('[data-testid="file-dialog-cancel"]').trigger('click');
    expect(await open).toBe(null);
    w.unmount();
  });

  it('opening: the path field opens with its folder selected; a name typed is the listed folder\'s, a full path is taken as is', async () => {
    const w = mount(FileDialog, { attachTo: document.body });
    const field = () => w.get('[data-testid="file-dialog-path"]').element as HTMLInputElement;
    // new-user pass nuprefs 1: "kb2.vmd" typed over the listed folder was looked for elsewhere; a full path typed was
    // added to the end of the folder's (nothing selected): /tmp/files/tmp/files/kb2.vmd.
    const first = showFileDialog({ mode: 'open', title: 'Open', filter: 'motion', directory: '/m' });
    await flushPromises();
    expect(document.activeElement).toBe(field());
    expect([field().value, field().selectionStart, field().selectionEnd]).toEqual(['/m', 0, 2]);
    await w.get('[data-testid="file-dialog-path"]').setValue('stand.vmd');
    await w.get('form.pathbar').trigger('submit');
    await flushPromises();
    expect(await first).toEqual({ path: '/m/stand.vmd', overwrite: false });

    const second = showFileDialog({ mode: 'open', title: 'Open', filter: 'motion', directory: '/m' });
    await flushPromises();
    expect([field().value, field().selectionStart, field().selectionEnd]).toEqual(['/m', 0, 2]);
    await w.get('[data-testid="file-dialog-path"]').setValue('/tmp/x/old.vmd');
    await w.get('form.pathbar').trigger('submit');
    await flushPromises();
    expect(await second).toEqual({ path: '/tmp/x/old.vmd', overwrite: false });
    w.unmount();
  });

  it('marks folders and files with drawn icons, not emoji (a system without an emoji font showed boxes)', async () => {
    setApi(new Proxy({
      listDirectory: async () => ({ ok: true, value: { path: '/m', parent: '/', entries: [{ name: 'sub', path: '/m/sub', kind: 'dir', size: 0, mtimeMs: 0 }, { name: 'stand.vmd', path: '/m/stand.vmd', kind: 'file', size: 1, mtimeMs: 0 }] } }),
    }, { get: (t, k) => (t as Record<string | symbol, unknown>)[k] ?? (async () => ({ ok: true, value: undefined })) }) as never);
    const w = mount(FileDialog, { attachTo: document.body });
    const open = showFileDialog({ mode: 'open', title: 'Open', filter: 'motion', directory: '/m' });
    await flushPromises();
    expect(w.get('li.dir svg.icon').attributes('data-icon')).toBe('dir');
    expect(w.get('li.file svg.icon').attributes('data-icon')).toBe('file');
    // No character outside the Basic Multilingual Plane (where the emoji are) in the listing.
    expect(w.get('[data-testid="file-dialog-entries"]').text()).not.toMatch(/[\u{10000}-\u{10FFFF}]/u);
    await w.get('[data-testid="file-dialog-cancel"]').trigger('click');
    expect(await open).toBe(null);
    w.unmount();
  });

  it('a name garbled from Shift_JIS (CP437 "âWâFâl.pmx") gets a hint with its reading, in the UI language; it opens by its own name', async () => {
    // Before (fixmisc3): only raw Shift_JIS names were marked; one an unzip read as CP437/CP1252 was listed bare.
    const entries = [
      { name: 'âWâFâl.pmx', path: '/m/âWâFâl.pmx', kind: 'file', size: 1, mtimeMs: 0, garbledSjis: { name: 'ジェネ.pmx', as: 'cp437' } },
      { name: 'Gene.pmx', path: '/m/Gene.pmx', kind: 'file', size: 1, mtimeMs: 0 },
    ];
    setApi(new Proxy({ listDirectory: async () => ({ ok: true, value: { path: '/m', parent: '/', entries } }) }, { get: (t, k) => (t as Record<string | symbol, unknown>)[k] ?? (async () => ({ ok: true, value: undefined })) }) as never);
    const w = mount(FileDialog, { attachTo: document.body });
    const open = showFileDialog({ mode: 'open', title: 'Open', filter: 'model', directory: '/m' });
    await flushPromises();
    const hints = w.findAll('[data-testid="file-dialog-garbled"]');
    expect(hints.map((h) => h.text())).toEqual(['name garbled from Shift_JIS: ジェネ.pmx?']);
    expect(hints[0].attributes('title')).toMatch(/^This name looks like a Japanese \(Shift_JIS\) name that an unzip on a system that is not Japanese read as CP437\./);
    expect(w.get('li[data-name="âWâFâl.pmx"] .name').text()).toBe('âWâFâl.pmx');
    useSettingsStore().settings.locale = 'ja';
    await flushPromises();
    expect(w.get('[data-testid="file-dialog-garbled"]').text()).toBe('Shift_JIS の名前の文字化け: ジェネ.pmx？');
    await w.get('li[data-name="âWâFâl.pmx"]').trigger('dblclick');
    expect(await open).toMatchObject({ path: '/m/âWâFâl.pmx' });
    w.unmount();
  });

  it('names what it lists by its filter, in the UI language (a model dialog does not say motion files)', async () => {
    const w = mount(FileDialog, { attachTo: document.body });
    const cases = [
      ['model', 'Model files (.pmx, .pmd)', 'モデルファイル (.pmx, .pmd)'],
      ['motion', 'Motion and pose files (.vmd, .vpd)', 'モーション・ポーズファイル (.vmd, .vpd)'],
      ['scene', 'Scene files (.vmdscene)', 'シーンファイル（.vmdscene）'],
      ['any', 'All files', 'すべてのファイル'],
      ['vmd', '.vmd', '.vmd'],
    ] as const;
    for (const [filter, en, ja] of cases) {
      for (const [locale, want] of [['en', en], ['ja', ja]] as const) {
        useSettingsStore().settings.locale = locale;
        const open = showFileDialog({ mode: 'open', title: 'Pick', filter, directory: '/m' });
        await flushPromises();
        expect(w.get('footer .filter').text(), `${filter} in ${locale}`).toBe(want);
        await w.get('[data-testid="file-dialog-cancel"]').trigger('click');
        expect(await open).toBe(null);
      }
    }
    w.unmount();
  });
});
