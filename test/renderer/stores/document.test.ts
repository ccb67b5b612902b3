import { readFileSync } from 'node:fs';
import path from 'node:path';
import { corpusDir } from '../../helpers/corpus';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, okValue, type VmdStudioApi } from '../../../shared/ipc/contract';
import { withBlocks, blockFromRecords, recordsOf } from '../../../shared/vmd';
import { setApi } from '../../../renderer/src/api';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { deleteKeys, diffDocuments } from '../../../shared/key-edits';

const CORPUS = corpusDir;

/** A fake bridge that records calls; only what the workspace and scene stores use answers. */
function fakeApi() {
  const calls: { name: string; args: unknown[] }[] = [];
  const files = new Map<string, Uint8Array>();
  const api = new Proxy({} as Record<string, unknown>, {
    get(_t, name: string) {
      return async (...args: unknown[]) => {
        calls.push({ name, args });
        if (name === 'saveFile') {
          files.set(args[0] as string, args[1] as Uint8Array);
          return okValue({ path: args[0], bytesWritten: (args[1] as Uint8Array).length, backupPath: null });
        }
        if (name === 'openFile') {
          const p = args[0] as string;
          return okValue({ path: p, name: path.basename(p), bytes: new Uint8Array(readFileSync(p)) });
        }
        if (name === 'listRecent') return okValue([]);
        if (name === 'setSettings') return okValue({ ...DEFAULT_SETTINGS, ...(args[0] as object) });
        return okValue(undefined);
      };
    },
  });
  return { api: api as unknown as VmdStudioApi, calls, files };
}

describe('document store (the active document of the workspace)', () => {
  let fake: ReturnType<typeof fakeApi>;
  beforeEach(() => {
    setActivePinia(createPinia());
    fake = fakeApi();
    setApi(fake.api);
  });

  it('opens VMD bytes: summary, version, time range, clean state reported to main', () => {
    const doc = useWorkspaceStore();
    const bytes = new Uint8Array(readFileSync(path.join(CORPUS, 'gene/motion/stand.vmd')));
    expect(useSceneStore().openBytes('stand.vmd', bytes, '/m/stand.vmd')).toBe(true);
    expect(doc.info?.counts.bone).toBe(Buffer.from(bytes).readUInt32LE(50));
    expect(doc.info?.kind).toBe('motion');
    expect(doc.version).toBe(1);
    expect(doc.fileName).toBe('stand.vmd');
    expect(useTimeStore().lastFrame).toBe(120);
    expect(fake.calls.find((c) => c.name === 'setDocumentState')?.args[0]).toEqual({ path: '/m/stand.vmd', name: 'stand.vmd', dirty: false });
  });

  it('tells main about a state change once: a run of edits sends one dirty report, not one per edit', () => {
    const doc = useWorkspaceStore();
    useSceneStore().openBytes('stand.vmd', new Uint8Array(readFileSync(path.join(CORPUS, 'gene/motion/stand.vmd'))), '/m/stand.vmd');
    const states = () => fake.calls.filter((c) => c.name === 'setDocumentState').map((c) => c.args[0]);
    expect(states()).toEqual([{ path: '/m/stand.vmd', name: 'stand.vmd', dirty: false }]);
    const hist = useHistoryStore();
    for (let i = 0; i < 5; i++) hist.run((d) => deleteKeys(d, [{ kind: 'bone', record: 0 }]));
    expect(states()).toEqual([
      { path: '/m/stand.vmd', name: 'stand.vmd', dirty: false },
      { path: '/m/stand.vmd', name: 'stand.vmd', dirty: true },
    ]);
    expect(document.title).toBe('stand.vmd * — VMD Studio');
    for (let i = 0; i < 5; i++) hist.undo();
    expect(states().at(-1)).toEqual({ path: '/m/stand.vmd', name: 'stand.vmd', dirty: false });
  });

  it('keeps the open document and notifies when bytes do not parse', () => {
    const doc = useWorkspaceStore();
    useSceneStore().openBytes('a.vmd', new Uint8Array(readFileSync(path.join(CORPUS, 'mc-mmd-rust/default_anim/walk.vmd'))), '/a.vmd');
    expect(useSceneStore().openBytes('b.vmd', new Uint8Array([1, 2, 3]), '/b.vmd')).toBe(false);
    expect(doc.fileName).toBe('a.vmd');
    const notice = useNotifyStore().items.at(-1)!;
    expect(notice.kind).toBe('error');
    const n = noticeLines(notice, 'en');
    // Where it failed (byte 0, as every "does not start with" does) is in the detail, not on the line (nubegin 2).
    expect(n.detail).toBe('E_VMD_MAGIC (at byte 0)');
    expect(n.message).toBe('b.vmd: not a VMD file: it does not start with "Vocaloid Motion Data"');
  });

  it('replaceDocument marks dirty and bumps version; saveAs writes the edited bytes and cleans', async () => {
    const doc = useWorkspaceStore();
    const original = new Uint8Array(readFileSync(path.join(CORPUS, 'mc-mmd-rust/default_anim/walk.vmd')));
    useSceneStore().openBytes('walk.vmd', original, '/w/walk.vmd');
    const cur = doc.doc!;
    // An edit: drop the first bone key.
    const edited = withBlocks(cur, { bone: blockFromRecords('bone', recordsOf(cur.bone).slice(1)) });
    useHistoryStore().commit(diffDocuments(cur, edited, 'drop a key')!);
    expect(doc.dirty).toBe(true);
    expect(doc.version).toBe(2);
    expect(doc.info?.counts.bone).toBe(cur.bone.count - 1);
    expect(await doc.saveAs('/w/edited.vmd')).toBe(true);
    const written = fake.files.get('/w/edited.vmd')!;
    expect(written.length).toBe(original.length - 111);
    expect(doc.dirty).toBe(false);
    expect(doc.path).toBe('/w/edited.vmd');
    expect(fake.calls.find((c) => c.name === 'saveFile')?.args[2]).toEqual({ overwrite: false, backup: true });
  });

  it('saves an unedited document byte for byte, and Save without a path asks for one (returns false)', async () => {
    const doc = useWorkspaceStore();
    const original = new Uint8Array(readFileSync(path.join(CORPUS, 'threejs/vmds/wavefile_camera.vmd')));
    useSceneStore().openBytes('cam.vmd', original, null);
    expect(await doc.save()).toBe(false);
    expect(fake.calls.some((c) => c.name === 'saveFile')).toBe(false);
    await doc.saveAs('/x/cam.vmd', { overwrite: true });
    expect(Buffer.compare(Buffer.from(fake.files.get('/x/cam.vmd')!), Buffer.from(original))).toBe(0);
    expect(await doc.save()).toBe(true);
    expect(fake.calls.filter((c) => c.name === 'saveFile').at(-1)?.args[2]).toEqual({ overwrite: true, backup: true });
  });

  it('opens a VPD as keys at frame 0 and saves back as VPD text', async () => {
    const doc = useWorkspaceStore();
    const src = path.join(CORPUS, 'threejs/vpds/01.vpd');
    expect(await useSceneStore().openPath(src)).toBe(true);
    expect(doc.format).toBe('vpd');
    expect(doc.info?.counts.bone).toBe((readFileSync(src, 'latin1').match(/^Bone\d+\{/gm) ?? []).length);
    await doc.saveAs('/p/out.vpd');
    expect(new TextDecoder().decode(fake.files.get('/p/out.vpd')!.subarray(0, 23))).toBe('Vocaloid Pose Data file');
  });
});
