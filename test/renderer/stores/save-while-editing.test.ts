/**
 * An edit made while a save is still writing (a big file takes a second or two) is not in the file: the
 * document stays unsaved after the write, and undo back to the version written makes it clean. Before, the
 * save marked the document as it was after the write as saved (the new-user pass "nuchaos", finding 1): the
 * version that differed from the file showed no *, and the one that matched it did. The same for Save All
 * and the scene file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, okValue, type FileStamp, type IpcResult, type SavedFile, type VmdStudioApi } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { withBlocks, blockFromRecords, recordsOf } from '../../../shared/vmd';
import { diffDocuments } from '../../../shared/key-edits';
import { corpusDir } from '../../helpers/corpus';

const STAND = path.join(corpusDir, 'gene/motion/stand.vmd');
const STAMP: FileStamp = { size: 1, mtimeNs: '1000', ino: '7' };

/** Bone key count of VMD bytes: the uint32 after the 30-byte header and the 20-byte model name. */
const boneKeys = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(50, true);
const FILE_KEYS = boneKeys(new Uint8Array(readFileSync(STAND)));

/** A bridge whose writes wait until `finish()` is called (the write in flight), recording what each wrote. */
function slowApi() {
  const written: { path: string; bytes: Uint8Array }[] = [];
  const waiting: (() => void)[] = [];
  const api = new Proxy({} as Record<string, unknown>, {
    get(_t, name: string) {
      return async (...args: unknown[]) => {
        if (name === 'saveFile' || name === 'saveScene') {
          const p = args[0] as string, bytes = args[1] as Uint8Array;
          written.push({ path: p, bytes });
          await new Promise<void>((done) => waiting.push(done));
          return okValue({ path: p, bytesWritten: bytes.length, backupPath: null, stamp: STAMP }) as IpcResult<SavedFile>;
        }
        if (name === 'openFile') {
          const p = args[0] as string;
          return okValue({ path: p, name: path.basename(p), bytes: new Uint8Array(readFileSync(STAND)), stamp: STAMP });
        }
        if (name === 'openScene') {
          const p = args[0] as string;
          return okValue({ path: p, name: path.basename(p), bytes: new TextEncoder().encode('{"format":"vmd-studio-scene","version":1,"actors":[{"model":null,"motion":"/m/walk.vmd"},{"model":null,"motion":"/m/run.vmd"}]}'), stamp: STAMP });
        }
        if (name === 'listRecent') return okValue([]);
        if (name === 'setSettings') return okValue({ ...DEFAULT_SETTINGS, ...(args[0] as object) });
        return okValue(undefined);
      };
    },
  });
  /** Lets the write in flight finish (waits until one is). */
  const finish = async () => {
    await vi.waitFor(() => expect(waiting.length).toBeGreaterThan(0));
    waiting.shift()!();
  };
  return { api: api as unknown as VmdStudioApi, written, finish };
}

/** Deletes the active document's first bone key as one undo step. */
function dropKey() {
  const cur = useWorkspaceStore().doc!;
  useHistoryStore().commit(diffDocuments(cur, withBlocks(cur, { bone: blockFromRecords('bone', recordsOf(cur.bone).slice(1)) }), 'drop a key')!);
}

const keysNow = () => recordsOf(useWorkspaceStore().doc!.bone).length;

beforeEach(() => setActivePinia(createPinia()));

describe('an edit made while Save writes', () => {
  it('leaves the document unsaved; undo back to the version written makes it clean, redo unsaved again', async () => {
    const fake = slowApi();
    setApi(fake.api);
    const ws = useWorkspaceStore();
    expect(await useSceneStore().openPath('/m/walk.vmd')).toBe(true);
    dropKey();
    const saving = ws.save();
    dropKey();
    await fake.finish();
    expect(await saving).toBe(true);
    // The file holds one key less than the original; the document two.
    expect(boneKeys(fake.written[0].bytes)).toBe(FILE_KEYS - 1);
    expect(keysNow()).toBe(FILE_KEYS - 2);
    expect(ws.dirty).toBe(true);
    // The preview's ghost (as saved) is the version written.
    expect(recordsOf(ws.active!.saved!.bone).length).toBe(FILE_KEYS - 1);
    useHistoryStore().undo();
    expect(keysNow()).toBe(FILE_KEYS - 1);
    expect(ws.dirty).toBe(false);
    useHistoryStore().redo();
    expect(ws.dirty).toBe(true);
    // Saving again writes the edit and makes it clean.
    const again = ws.save();
    await fake.finish();
    expect(await again).toBe(true);
    expect(boneKeys(fake.written[1].bytes)).toBe(FILE_KEYS - 2);
    expect(ws.dirty).toBe(false);
  });

  it('an undo made while it writes: unsaved; redo back to the version written makes it clean', async () => {
    const fake = slowApi();
    setApi(fake.api);
    const ws = useWorkspaceStore();
    await useSceneStore().openPath('/m/walk.vmd');
    dropKey();
    dropKey();
    const saving = ws.save();
    useHistoryStore().undo();
    await fake.finish();
    expect(await saving).toBe(true);
    expect(boneKeys(fake.written[0].bytes)).toBe(FILE_KEYS - 2);
    expect(ws.dirty).toBe(true);
    useHistoryStore().redo();
    expect(ws.dirty).toBe(false);
  });

  it('the first edit of a document while it writes: undo to the opened version makes it clean', async () => {
    const fake = slowApi();
    setApi(fake.api);
    const ws = useWorkspaceStore();
    await useSceneStore().openPath('/m/walk.vmd');
    // Save As of the unedited document (no steps yet), then an edit while it writes.
    const saving = ws.saveAs('/m/copy.vmd');
    dropKey();
    await fake.finish();
    expect(await saving).toBe(true);
    expect(boneKeys(fake.written[0].bytes)).toBe(FILE_KEYS);
    expect(ws.dirty).toBe(true);
    useHistoryStore().undo();
    expect(ws.dirty).toBe(false);
  });

  it('an edit undone and replaced by another while it writes: unsaved, and undo does not make it clean', async () => {
    const fake = slowApi();
    setApi(fake.api);
    const ws = useWorkspaceStore();
    await useSceneStore().openPath('/m/walk.vmd');
    dropKey();
    const saving = ws.save();
    // Back to the opened version, then another edit: the version written (one key less) is one no undo or redo reaches.
    useHistoryStore().undo();
    dropKey();
    dropKey();
    await fake.finish();
    expect(await saving).toBe(true);
    expect(ws.dirty).toBe(true);
    useHistoryStore().undo();
    expect(keysNow()).toBe(FILE_KEYS - 1);
    expect(ws.dirty).toBe(true);
  });

  it('nothing edited while it writes: saved', async () => {
    const fake = slowApi();
    setApi(fake.api);
    const ws = useWorkspaceStore();
    await useSceneStore().openPath('/m/walk.vmd');
    dropKey();
    const saving = ws.save();
    await fake.finish();
    expect(await saving).toBe(true);
    expect(ws.dirty).toBe(false);
  });
});

describe('Save All and the scene file', () => {
  it('an edit of a document while Save All writes it leaves it unsaved', async () => {
    const fake = slowApi();
    setApi(fake.api);
    const ws = useWorkspaceStore();
    const scene = useSceneStore();
    await scene.openPath('/m/walk.vmd');
    dropKey();
    const saving = scene.saveAll();
    dropKey();
    await fake.finish();
    expect((await saving).ok).toBe(true);
    expect(ws.dirty).toBe(true);
    expect(scene.anyDirty).toBe(true);
  });

  it('a scene change made while the scene file writes is not marked saved; undo of it is', async () => {
    const fake = slowApi();
    setApi(fake.api);
    const scene = useSceneStore();
    expect(await scene.openPath('/m/duet.vmdscene')).toBe(true);
    expect(scene.sceneChanged).toBe(false);
    const second = scene.actors[1].id;
    const saving = scene.saveTo('/m/duet.vmdscene', true);
    // Hidden while it writes: the file has it shown.
    expect(scene.setHidden(second, true)).toBe(true);
    await fake.finish();
    expect(await saving).toBe(true);
    expect(new TextDecoder().decode(fake.written[0].bytes)).not.toContain('"hidden":true');
    expect(scene.sceneChanged).toBe(true);
    useHistoryStore().undo();
    expect(scene.sceneChanged).toBe(false);
  });
});
