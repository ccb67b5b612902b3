/**
 * New-user pass nuchaos, finding 5: a saved document whose file was deleted on disk got the notice "… is no
 * longer on disk … Save writes it there again", but it stayed clean: Save said "Nothing to save" and wrote
 * nothing, and closing did not ask (the only copy went). Now a document (and a scene file) found gone counts as
 * unsaved: Save writes it back, and closing asks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, okValue, type FileStamp, type VmdStudioApi } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import { checkOpenFiles } from '../../../renderer/src/shell/disk-watch';
import { saveCommand } from '../../../renderer/src/shell/commands';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { renderText } from '../../../renderer/src/stores/notify';
import { corpusDir } from '../../helpers/corpus';

const STAND = path.join(corpusDir, 'gene/motion/stand.vmd');
const STAMP: FileStamp = { size: 1, mtimeNs: '1000', ino: '7' };

/** A bridge on which the files in `gone` are not on disk any more (fileStamp: null); saves are recorded and put them back. */
function fakeApi(gone: Set<string>) {
  const saved: string[] = [];
  const api = new Proxy({} as Record<string, unknown>, {
    get(_t, name: string) {
      return async (...args: unknown[]) => {
        const p = args[0] as string;
        if (name === 'saveFile' || name === 'saveScene') {
          saved.push(p);
          gone.delete(p);
          return okValue({ path: p, bytesWritten: (args[1] as Uint8Array).length, backupPath: null, stamp: STAMP });
        }
        if (name === 'fileStamp') return okValue(gone.has(p) ? null : STAMP);
        if (name === 'openFile') return okValue({ path: p, name: path.basename(p), bytes: new Uint8Array(readFileSync(STAND)), stamp: STAMP });
        if (name === 'openScene') {
          return okValue({ path: p, name: path.basename(p), bytes: new TextEncoder().encode('{"format":"vmd-studio-scene","version":1,"actors":[{"model":null,"motion":"/m/walk.vmd"},{"model":null,"motion":"/m/run.vmd"}]}'), stamp: STAMP });
        }
        if (name === 'listRecent') return okValue([]);
        if (name === 'setSettings') return okValue({ ...DEFAULT_SETTINGS, ...(args[0] as object) });
        return okValue(undefined);
      };
    },
  });
  return { api: api as unknown as VmdStudioApi, saved };
}

beforeEach(() => setActivePinia(createPinia()));

describe('a file deleted on disk', () => {
  it('makes its saved document unsaved; Save writes it there again and it is saved', async () => {
    const gone = new Set<string>();
    const fake = fakeApi(gone);
    setApi(fake.api);
    const ws = useWorkspaceStore();
    expect(await useSceneStore().openPath('/m/walk.vmd')).toBe(true);
    expect(ws.dirty).toBe(false);
    gone.add('/m/walk.vmd');
    await checkOpenFiles();
    expect(ws.dirty).toBe(true);
    expect(useSceneStore().anyDirty).toBe(true);
    await saveCommand();
    expect(fake.saved).toEqual(['/m/walk.vmd']);
    expect(ws.dirty).toBe(false);
    // Back on disk: checked again, nothing changes.
    await checkOpenFiles();
    expect(ws.dirty).toBe(false);
  });

  it('a scene file gone: the scene is unsaved (its close line says why); Save writes it back', async () => {
    const gone = new Set<string>();
    const fake = fakeApi(gone);
    setApi(fake.api);
    const scene = useSceneStore();
    expect(await scene.openPath('/m/duet.vmdscene')).toBe(true);
    expect(scene.anyDirty).toBe(false);
    gone.add('/m/duet.vmdscene');
    await checkOpenFiles();
    expect(scene.sceneChanged).toBe(true);
    expect(renderText(scene.sceneChangeText!, 'en')).toBe('its file is no longer on disk');
    await saveCommand();
    expect(fake.saved).toEqual(['/m/duet.vmdscene']);
    expect(scene.anyDirty).toBe(false);
  });
});

describe('a focus while a check runs (the clean-clone e2e disk-changed-scene: the change went unasked)', () => {
  it('runs one more check after it: a file deleted after the running check read it is found without another focus', async () => {
    const gone = new Set<string>();
    const base = fakeApi(gone).api;
    // The first check's answer is read from the disk at once but arrives only when `release` is called.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let stamps = 0;
    const api = new Proxy(base, {
      get(t, name: string) {
        if (name !== 'fileStamp') return (t as unknown as Record<string, unknown>)[name];
        return async (p: string) => {
          const answer = await base.fileStamp(p);
          if (++stamps === 1) await gate;
          return answer;
        };
      },
    });
    setApi(api);
    const ws = useWorkspaceStore();
    expect(await useSceneStore().openPath('/m/walk.vmd')).toBe(true);
    expect(ws.dirty).toBe(false);
    const first = checkOpenFiles();
    await expect.poll(() => stamps).toBe(1);
    // Another program deletes the file after the running check read it; the focus comes back meanwhile.
    gone.add('/m/walk.vmd');
    expect(checkOpenFiles()).toBe(first);
    release();
    await first;
    // The check that followed reads the disk as it is now.
    await expect.poll(() => ws.dirty, { timeout: 2000 }).toBe(true);
  });
});
