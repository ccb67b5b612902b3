/**
 * The renderer's side of "a save never throws away someone else's change": the version read goes back with a
 * Save over the file; a refusal (E_IO_CHANGED, a read-only file, a folder that cannot be written) is asked about
 * (Overwrite / Save As… / Cancel), Overwrite saves again with replaceChanged; the .bak is asked for on the first
 * save after each open, for a document and for the scene file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, errValue, okValue, type FileStamp, type IpcResult, type SavedFile, type SaveOptions, type VmdStudioApi } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { renderText } from '../../../renderer/src/stores/notify';
import { attachSavePicker, type SavePathPicker } from '../../../renderer/src/stores/save-refusal';
import { withBlocks, blockFromRecords, recordsOf } from '../../../shared/vmd';
import { diffDocuments } from '../../../shared/key-edits';
import { corpusDir } from '../../helpers/corpus';

const STAND = path.join(corpusDir, 'gene/motion/stand.vmd');
const OPENED: FileStamp = { size: 1, mtimeNs: '1000', ino: '7' };
const WRITTEN: FileStamp = { size: 2, mtimeNs: '2000', ino: '8', sha256: 'b'.repeat(64) };

type SaveCall = { path: string; opts: SaveOptions };

/** A bridge whose saves answer what `answers` holds, in turn (then plain success), recording each save's options. */
function fakeApi(answers: IpcResult<SavedFile>[] = []) {
  const saves: SaveCall[] = [];
  const api = new Proxy({} as Record<string, unknown>, {
    get(_t, name: string) {
      return async (...args: unknown[]) => {
        if (name === 'saveFile' || name === 'saveScene') {
          saves.push({ path: args[0] as string, opts: args[2] as SaveOptions });
          return answers.shift() ?? okValue({ path: args[0], bytesWritten: (args[1] as Uint8Array).length, backupPath: null, stamp: WRITTEN });
        }
        if (name === 'openFile') {
          const p = args[0] as string;
          return okValue({ path: p, name: path.basename(p), bytes: new Uint8Array(readFileSync(STAND)), stamp: OPENED });
        }
        if (name === 'openScene') {
          const p = args[0] as string;
          return okValue({ path: p, name: path.basename(p), bytes: new TextEncoder().encode('{"format":"vmd-studio-scene","version":1,"actors":[{"model":null,"motion":"/m/walk.vmd"}]}'), stamp: OPENED });
        }
        if (name === 'listRecent') return okValue([]);
        if (name === 'setSettings') return okValue({ ...DEFAULT_SETTINGS, ...(args[0] as object) });
        return okValue(undefined);
      };
    },
  });
  return { api: api as unknown as VmdStudioApi, saves };
}

function edit() {
  const doc = useWorkspaceStore();
  const cur = doc.doc!;
  useHistoryStore().commit(diffDocuments(cur, withBlocks(cur, { bone: blockFromRecords('bone', recordsOf(cur.bone).slice(1)) }), 'drop a key')!);
}

async function question() {
  const confirm = useConfirmStore();
  await vi.waitFor(() => expect(confirm.current).not.toBeNull());
  return confirm.current!;
}

const changed = () => errValue<SavedFile>('E_IO_CHANGED', 'walk.vmd was changed on disk by another program since it was opened or last saved', { file: '/m/walk.vmd' });

beforeEach(() => setActivePinia(createPinia()));

describe('Save over a file changed on disk', () => {
  it('sends the version read; E_IO_CHANGED asks Overwrite / Save As… / Cancel, and Overwrite saves again keeping the other version', async () => {
    const fake = fakeApi([changed(), okValue({ path: '/m/walk.vmd', bytesWritten: 3, backupPath: '/m/walk.vmd.bak', replacedChanged: true, stamp: WRITTEN })]);
    setApi(fake.api);
    const doc = useWorkspaceStore();
    expect(await useSceneStore().openPath('/m/walk.vmd')).toBe(true);
    edit();
    const saving = doc.save();
    const q = await question();
    expect(q.buttons.map((b) => b.choice)).toEqual(['overwrite', 'saveAs', 'cancel']);
    expect(renderText(q.message, 'en')).toBe(
      'walk.vmd was changed by another program since it was opened or last saved. Overwrite it with this version (the other version is kept as a .bak file beside it), save this version under another name, or cancel?',
    );
    expect(renderText(q.message, 'ja')).toContain('walk.vmd は、開いた後');
    useConfirmStore().answer('overwrite');
    expect(await saving).toBe(true);
    expect(fake.saves.map((s) => s.opts)).toEqual([
      { overwrite: true, backup: true, expect: OPENED },
      { overwrite: true, backup: true, expect: OPENED, replaceChanged: true },
    ]);
    expect(doc.dirty).toBe(false);
    const n = useNotifyStore().items.at(-1)!;
    expect(noticeLines(n, 'en').message).toBe('Saved walk.vmd; the version another program wrote is kept as walk.vmd.bak');
    // The next save sends the version just written, and asks for no .bak (one per opening).
    edit();
    expect(await doc.save()).toBe(true);
    expect(fake.saves.at(-1)!.opts).toEqual({ overwrite: true, backup: false, expect: WRITTEN });
  });

  it('Cancel writes nothing more and leaves the document unsaved', async () => {
    const fake = fakeApi([changed()]);
    setApi(fake.api);
    const doc = useWorkspaceStore();
    await useSceneStore().openPath('/m/walk.vmd');
    edit();
    const saving = doc.save();
    await question();
    useConfirmStore().answer('cancel');
    expect(await saving).toBe(false);
    expect(fake.saves).toHaveLength(1);
    expect(doc.dirty).toBe(true);
  });

  it('Save As… asks the attached save dialog in the file\'s folder with its name, and saves there (no version sent: a new file)', async () => {
    const fake = fakeApi([changed()]);
    setApi(fake.api);
    const asked: Parameters<SavePathPicker>[0][] = [];
    attachSavePicker(async (req) => (asked.push(req), { path: '/other/walk-mine.vmd', overwrite: false }));
    const doc = useWorkspaceStore();
    await useSceneStore().openPath('/m/walk.vmd');
    edit();
    const saving = doc.save();
    await question();
    useConfirmStore().answer('saveAs');
    expect(await saving).toBe(true);
    expect(asked).toEqual([expect.objectContaining({ mode: 'save', directory: '/m', fileName: 'walk.vmd' })]);
    expect(fake.saves.map((c) => c.path)).toEqual(['/m/walk.vmd', '/other/walk-mine.vmd']);
    expect(fake.saves[1].opts.expect).toBeUndefined();
    expect(doc.dirty).toBe(false);
  });

  it('a read-only file and a folder that cannot be written offer Save As… / Cancel, naming the document', async () => {
    const fake = fakeApi([
      { ok: false, error: { code: 'E_IO_DENIED', message: 'walk.vmd is read-only', file: '/m/walk.vmd', problem: 'readOnly' } },
      {
        ok: false,
        error: { code: 'E_IO_DENIED', message: 'Cannot save walk.vmd: …', file: '/m/walk.vmd', problem: 'folderNotWritable', params: { folder: '/m' } },
      },
    ]);
    setApi(fake.api);
    const doc = useWorkspaceStore();
    await useSceneStore().openPath('/m/walk.vmd');
    edit();
    let saving = doc.save();
    let q = await question();
    expect(q.buttons.map((b) => b.choice)).toEqual(['saveAs', 'cancel']);
    expect(renderText(q.message, 'en')).toBe('walk.vmd is read-only, so it is not replaced. Use Save As… to save elsewhere.');
    useConfirmStore().answer('cancel');
    expect(await saving).toBe(false);
    saving = doc.save();
    q = await question();
    expect(renderText(q.message, 'en')).toBe('Cannot save walk.vmd: the folder /m cannot be written. Use Save As… to save elsewhere.');
    expect(renderText(q.message, 'ja')).toBe('walk.vmd を保存できません: フォルダ /m に書き込めません。別の場所に保存するには「名前を付けて保存…」を使ってください。');
    useConfirmStore().answer('cancel');
    expect(await saving).toBe(false);
    expect(doc.dirty).toBe(true);
  });
});

// The new-user pass's finding 6: a save into a folder deleted since it was opened was a notice only ("no such
// folder … create it first"), with no Save As… as a read-only file gets. Now it is the same question, with the
// folder made again as the first answer.
describe('Save into a folder deleted since', () => {
  const gone = (): IpcResult<SavedFile> => ({
    ok: false,
    error: { code: 'E_IO_NOT_FOUND', message: 'no such folder: /m (create it first, or write into a folder that exists)', file: '/m/walk.vmd', problem: 'folderMissing', params: { folder: '/m' } },
  });
  /** The fake bridge with createFolder recorded. */
  function withFolders(fake: ReturnType<typeof fakeApi>) {
    const made: string[] = [];
    const api = new Proxy(fake.api as unknown as Record<string, unknown>, {
      get: (t, name: string) => (name === 'createFolder' ? async (p: string) => (made.push(p), okValue(p)) : t[name]),
    });
    return { api: api as unknown as VmdStudioApi, made };
  }

  it('asks Make the folder and save / Save As… / Cancel; Make the folder makes it and saves there', async () => {
    const fake = fakeApi([gone()]);
    const { api, made } = withFolders(fake);
    setApi(api);
    const doc = useWorkspaceStore();
    await useSceneStore().openPath('/m/walk.vmd');
    edit();
    const saving = doc.save();
    const q = await question();
    expect(q.buttons.map((b) => b.choice)).toEqual(['makeFolder', 'saveAs', 'cancel']);
    expect(renderText(q.message, 'en')).toBe('Cannot save walk.vmd: its folder /m is not there any more (moved or deleted). Make the folder again and save there, or use Save As… to save elsewhere.');
    expect(renderText(q.message, 'ja')).toContain('フォルダ /m がなくなっています');
    useConfirmStore().answer('makeFolder');
    expect(await saving).toBe(true);
    expect(made).toEqual(['/m']);
    expect(fake.saves.map((c) => [c.path, c.opts.replaceChanged])).toEqual([['/m/walk.vmd', undefined], ['/m/walk.vmd', undefined]]);
    expect(doc.dirty).toBe(false);
  });

  it('Save As… saves elsewhere; Cancel leaves it unsaved; the scene file is asked the same', async () => {
    const answers = [gone(), gone()];
    const fake = fakeApi(answers);
    const { api, made } = withFolders(fake);
    setApi(api);
    attachSavePicker(async () => ({ path: '/other/walk.vmd', overwrite: false }));
    const doc = useWorkspaceStore();
    await useSceneStore().openPath('/m/walk.vmd');
    edit();
    let saving = doc.save();
    await question();
    useConfirmStore().answer('cancel');
    expect(await saving).toBe(false);
    expect(doc.dirty).toBe(true);
    saving = doc.save();
    await question();
    useConfirmStore().answer('saveAs');
    expect(await saving).toBe(true);
    expect(doc.path).toBe('/other/walk.vmd');
    // The scene file: the same question; its folder made again, then written.
    answers.push(gone());
    const scene = useSceneStore();
    const savingScene = scene.saveTo('/m/s.vmdscene', false);
    const q = await question();
    expect(q.buttons.map((b) => b.choice)).toEqual(['makeFolder', 'saveAs', 'cancel']);
    useConfirmStore().answer('makeFolder');
    expect(await savingScene).toBe(true);
    expect(made).toEqual(['/m']);
    expect(fake.saves.at(-1)!.path).toBe('/m/s.vmdscene');
  });
});

describe('the .bak is asked for on the first save after each open', () => {
  it('a document: first save yes, later saves no, after opening it again yes', async () => {
    const fake = fakeApi();
    setApi(fake.api);
    const doc = useWorkspaceStore();
    await useSceneStore().openPath('/m/walk.vmd');
    for (let i = 0; i < 2; i++) {
      edit();
      expect(await doc.save()).toBe(true);
    }
    await useSceneStore().openPath('/m/walk.vmd');
    edit();
    expect(await doc.save()).toBe(true);
    expect(fake.saves.map((s) => s.opts.backup)).toEqual([true, false, true]);
  });

  it('the scene file: its version goes with its save, E_IO_CHANGED is asked about, a .bak on the first save only', async () => {
    const fake = fakeApi([changed(), okValue({ path: '/m/duet.vmdscene', bytesWritten: 3, backupPath: '/m/duet.vmdscene.bak', replacedChanged: true, stamp: WRITTEN })]);
    setApi(fake.api);
    const scene = useSceneStore();
    expect(await scene.openPath('/m/duet.vmdscene')).toBe(true);
    const saving = scene.saveTo('/m/duet.vmdscene', true);
    expect((await question()).buttons.map((b) => b.choice)).toEqual(['overwrite', 'saveAs', 'cancel']);
    useConfirmStore().answer('overwrite');
    expect(await saving).toBe(true);
    expect(await scene.saveTo('/m/duet.vmdscene', true)).toBe(true);
    expect(fake.saves.map((s) => s.opts)).toEqual([
      { overwrite: true, backup: true, expect: OPENED },
      { overwrite: true, backup: true, expect: OPENED, replaceChanged: true },
      { overwrite: true, backup: false, expect: WRITTEN },
    ]);
  });
});
