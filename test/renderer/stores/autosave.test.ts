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
