/**
 * Recover with Autosave Off (shell/recovery.ts recover): the recovered document gets this page's own copy, written
 * once whatever the setting, and only then is the gone session's copy removed, so a recovered document never exists
 * only in the page (before, with Off nothing was written and the old copy was removed anyway). A copy that cannot be
 * written leaves the old one in place. Main is a recording stand-in (happy-dom: main's services do not run here;
 * test/e2e/autosave-recover.e2e.test.ts runs the whole with the real server).
 */
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { DEFAULT_SETTINGS, okValue, type Settings } from '../../../shared/ipc/contract';
import type { RecoveryCopy } from '../../../shared/ipc/recovery-types';
import { setApi } from '../../../renderer/src/api';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useAutosaveStore } from '../../../renderer/src/stores/autosave';
import { recover } from '../../../renderer/src/shell/recovery';
import { corpusPath, corpusPresent } from '../../helpers/corpus';

const file = corpusPath('gene/motion/02_laugh.vmd');
const GONE = 'A'.repeat(22);
let calls: { name: string; args: unknown[] }[];
let keepFails: boolean;

beforeEach(async () => {
  setActivePinia(createPinia());
  calls = [];
  keepFails = false;
  let stored: Settings = { ...DEFAULT_SETTINGS, ui: { autosaveSeconds: 0 } };
  const bytes = new Uint8Array(readFileSync(file));
  const api: Record<string, (...a: unknown[]) => Promise<unknown>> = {
    getSettings: async () => okValue(stored),
    setSettings: async (patch) => okValue((stored = { ...stored, ...(patch as Settings) })),
    readRecoveryCopy: async () => okValue({ bytes }),
    keepRecoveryCopy: async () => (keepFails ? { ok: false, error: { code: 'E_IO', message: 'disk full' } } : okValue({ savedAt: 2 })),
  };
  setApi(new Proxy(api, { get: (o, k) => (...args: unknown[]) => (calls.push({ name: String(k), args }), (o[k as string] ?? (async () => okValue(undefined)))(...args)) }) as never);
  await useSettingsStore().load();
});

const named = (n: string) => calls.filter((c) => c.name === n);
const copy: RecoveryCopy = { session: GONE, doc: '7', name: '02_laugh.vmd', path: file, kind: 'motion', format: 'vmd', keys: 942, savedAt: 1, bytes: 0 };

describe.skipIf(!corpusPresent)('Recover with Autosave Off', () => {
  it("writes this page's copy of the recovered document once, then removes the gone session's", async () => {
    const auto = useAutosaveStore();
    await auto.start();
    await recover([copy]);
    const ws = useWorkspaceStore();
    expect(ws.ids).toHaveLength(1);
    expect(ws.get(ws.ids[0])!.dirty).toBe(true);
    const kept = named('keepRecoveryCopy');
    expect(kept).toHaveLength(1);
    // This page's session (not the gone one), the document's bytes: the corpus file's own (it was not edited).
    expect(kept[0].args[0]).toBe(named('beginRecovery')[0].args[0]);
    expect(kept[0].args[0]).not.toBe(GONE);
    expect(Buffer.from(kept[0].args[2] as Uint8Array).equals(readFileSync(file))).toBe(true);
    // The old copy goes after the new one was written.
    expect(named('discardRecovery').map((c) => c.args)).toEqual([[GONE, '7']]);
    expect(calls.findIndex((c) => c.name === 'discardRecovery')).toBeGreaterThan(calls.findIndex((c) => c.name === 'keepRecoveryCopy'));
    // Still Off: a later flush writes nothing more.
    await auto.flush();
    expect(named('keepRecoveryCopy')).toHaveLength(1);
    auto.stop();
  });

  it("keeps the gone session's copy when this page's copy could not be written", async () => {
    keepFails = true;
    const auto = useAutosaveStore();
    await auto.start();
    await recover([copy]);
    expect(useWorkspaceStore().ids).toHaveLength(1);
    expect(named('keepRecoveryCopy')).toHaveLength(1);
    expect(named('discardRecovery')).toEqual([]);
    auto.stop();
  });
});
