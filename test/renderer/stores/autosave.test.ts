/**
 * The autosave store (renderer/src/stores/autosave.ts): an unsaved document's copy is sent once the page was idle
 * IDLE_MS, as the bytes Save would write (here an unedited corpus file marked unsaved: its own bytes, read from disk);
 * nothing is sent again while its content is the one kept; a document closed has its copy removed at once; Off sends
 * nothing. Main is a recording stand-in here (the store test runs in happy-dom, where main's services do not run;
 * test/electron/recovery-service.test.ts runs them on real folders, test/e2e/autosave-recover.e2e.test.ts the whole).
 */
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { DEFAULT_SETTINGS, okValue, type Settings } from '../../../shared/ipc/contract';
import { RECOVERY_SESSION_ID } from '../../../shared/ipc/recovery-types';
import { setApi } from '../../../renderer/src/api';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { decodeDocument, useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { autosaveSecondsOf, useAutosaveStore } from '../../../renderer/src/stores/autosave';
import { corpusPath, corpusPresent } from '../../helpers/corpus';
import { BONE, emptyVmd, fixedBlock, writeVmd } from '../../../shared/vmd';
import { diffDocuments } from '../../../shared/key-edits/diff';

let calls: { name: string; args: unknown[] }[];
let stored: Settings;
beforeEach(async () => {
  setActivePinia(createPinia());
  calls = [];
  stored = { ...DEFAULT_SETTINGS, ui: { autosaveSeconds: 2 } };
  const api: Record<string, (...a: unknown[]) => Promise<unknown>> = {
    getSettings: async () => okValue(stored),
    setSettings: async (patch) => okValue((stored = { ...stored, ...(patch as Settings), ui: { ...stored.ui, ...((patch as Settings).ui ?? {}) } })),
    keepRecoveryCopy: async () => okValue({ savedAt: 1 }),
  };
  setApi(new Proxy(api, { get: (o, k) => (...args: unknown[]) => (calls.push({ name: String(k), args }), (o[k as string] ?? (async () => okValue(undefined)))(...args)) }) as never);
  await useSettingsStore().load();
});

const named = (n: string) => calls.filter((c) => c.name === n);

describe('autosave interval setting', () => {
  it('reads seconds, 0 as Off, anything else as the default', () => {
    expect([autosaveSecondsOf({}), autosaveSecondsOf({ autosaveSeconds: 0 }), autosaveSecondsOf({ autosaveSeconds: 30 }), autosaveSecondsOf({ autosaveSeconds: 1 }), autosaveSecondsOf({ autosaveSeconds: 'x' })]).toEqual([60, 0, 30, 60, 60]);
  });
});

describe.skipIf(!corpusPresent)('autosave store', () => {
  const file = corpusPath('gene/motion/02_laugh.vmd');

  it('sends the bytes Save would write once idle, not again while unchanged, and removes the copy of a closed document', async () => {
    const auto = useAutosaveStore();
    await auto.start();
    expect(named('beginRecovery')[0].args[0]).toMatch(RECOVERY_SESSION_ID);
    const bytes = new Uint8Array(readFileSync(file));
    const d = decodeDocument('02_laugh.vmd', bytes, file);
    if (!d.ok) throw new Error(d.error.message);
    const ws = useWorkspaceStore();
    const [id] = ws.open([d.value]);
    ws.markUnsaved(id);
    await vi.waitFor(() => expect(named('keepRecoveryCopy')).toHaveLength(1), { timeout: 15_000, interval: 100 });
    const [session, info, sent] = named('keepRecoveryCopy')[0].args as [string, Record<string, unknown>, Uint8Array];
    expect(session).toBe(named('beginRecovery')[0].args[0]);
    expect(sent).toEqual(bytes);
    // Its keys as the corpus MANIFEST counts them: 548 bone, 393 morph, 0 camera, light, self-shadow, 1 IK.
    expect(info).toMatchObject({ doc: String(id), name: '02_laugh.vmd', path: file, kind: 'motion', format: 'vmd', keys: 548 + 393 + 1 });

    // Unchanged: a later flush sends nothing.
    await auto.flush();
    expect(named('keepRecoveryCopy')).toHaveLength(1);
    ws.close(id);
    await vi.waitFor(() => expect(named('dropRecoveryCopy').map((c) => c.args[1])).toEqual([String(id)]));
    auto.stop();
  });

  it('Off: nothing is sent', async () => {
    await useSettingsStore().update({ ui: { autosaveSeconds: 0 } });
    const auto = useAutosaveStore();
    await auto.start();
    const d = decodeDocument('02_laugh.vmd', new Uint8Array(readFileSync(file)), file);
    if (!d.ok) throw new Error(d.error.message);
    const ws = useWorkspaceStore();
    const [id] = ws.open([d.value]);
    ws.markUnsaved(id);
    await auto.flush();
    expect(named('keepRecoveryCopy')).toHaveLength(0);
    auto.stop();
  });
});

describe('a copy made in slices', () => {
  // 20,000 bone records of 111 bytes: 2.2 MB, three 1 MB steps of the writer, so the copy gives the page a turn
  // twice (sliceMs 0: after every step) and an edit can land while it is being made.
  const N = 20_000;
  function records(): Uint8Array {
    const recs = new Uint8Array(N * BONE.SIZE);
    const v = new DataView(recs.buffer);
    for (let i = 0; i < N; i++) {
      recs.set([0x41, 0x42], i * BONE.SIZE); // name "AB"
      v.setUint32(i * BONE.SIZE + BONE.FRAME, i, true);
      v.setFloat32(i * BONE.SIZE + BONE.ROTATION + 12, 1, true);
    }
    return recs;
  }

  it('an edit while the copy is made: that copy is dropped (never sent), the next holds the edit, byte for byte', async () => {
    const auto = useAutosaveStore();
    await auto.start({ sliceMs: 0 });
    const recs = records();
    const before = { ...emptyVmd('slices'), bone: fixedBlock('bone', recs) };
    const d = decodeDocument('slices.vmd', writeVmd(before), null);
    if (!d.ok) throw new Error(d.error.message);
    const ws = useWorkspaceStore();
    auto.stop(); // no timer: the test calls flush itself
    const [id] = ws.open([d.value]);
    ws.markUnsaved(id);

    // The expected files, built here from the records: header (30), model name (20), count (4), records, then
    // the four empty counts writeVmd adds (emptyVmd holds all six blocks).
    const file = (r: Uint8Array) => {
      const out = new Uint8Array(30 + 20 + 4 + r.length + 5 * 4);
      out.set(new TextEncoder().encode('Vocaloid Motion Data 0002'), 0);
      out.set(new TextEncoder().encode('slices'), 30);
      new DataView(out.buffer).setUint32(50, N, true);
      out.set(r, 54);
      return out;
    };
    expect(Buffer.from(writeVmd(ws.get(id)!.doc)).equals(Buffer.from(file(recs)))).toBe(true);

    const copying = auto.flush();
    // Mid-copy (the first slice done, the page's turn): record 12,345 moves to frame 99,999.
    const edited = recs.slice();
    new DataView(edited.buffer).setUint32(12_345 * BONE.SIZE + BONE.FRAME, 99_999, true);
    const cur = ws.get(id)!.doc;
    expect(ws.commit(diffDocuments(cur, { ...cur, bone: fixedBlock('bone', edited) }, 'test edit'))).toBe(true);
    await copying;
    // The copy of the content before the edit was dropped: nothing sent.
    expect(named('keepRecoveryCopy')).toHaveLength(0);

    await auto.flush();
    expect(named('keepRecoveryCopy')).toHaveLength(1);
    const sent = named('keepRecoveryCopy')[0].args[2] as Uint8Array;
    expect(sent.length).toBe(file(edited).length);
    expect(Buffer.from(sent).equals(Buffer.from(file(edited)))).toBe(true);
  });
});
