// Reduce in the Whole Motion dialog (the batch store aimed at the open motion): one undo step whose
// result re-reads to the reported key count, a notice with the counts and the largest played error,
// and undo back to the original bytes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, okValue, type VmdStudioApi } from '../../../shared/ipc/contract';
import { readVmd, writeVmd } from '../../../shared/vmd';
import { setApi } from '../../../renderer/src/api';
import { useBatchStore } from '../../../renderer/src/stores/batch';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { corpusDir, corpusPresent, readCorpus } from '../../helpers/corpus';
import { buildRows } from '../../../renderer/src/editor/timeline-rows';
import { playedErrors } from '../../helpers/motion-error';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { editLabel } from '../../../renderer/src/editor/edit-labels';
import { t } from '../../../shared/i18n/strings';

function quietApi(): VmdStudioApi {
  return new Proxy({} as Record<string, unknown>, {
    get: (_t, name: string) => async (...args: unknown[]) => (name === 'setSettings' ? okValue({ ...DEFAULT_SETTINGS, ...(args[0] as object) }) : name === 'listRecent' ? okValue([]) : okValue(undefined)),
  }) as unknown as VmdStudioApi;
}

describe.skipIf(!corpusPresent)('reduce on the open motion', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setApi(quietApi());
  });

  it('is one undo step: fewer keys, played within tolerance, counts and error in the notice, undo gives the original bytes', () => {
    const bytes = new Uint8Array(readFileSync(path.join(corpusDir, 'mc-mmd-rust/default_anim/Drink.vmd')));
    const doc = useWorkspaceStore();
    expect(useSceneStore().openBytes('Drink.vmd', bytes, '/m/Drink.vmd')).toBe(true);
    const batch = useBatchStore();
    batch.target = 'document';
    expect(batch.ops).toContain('reduce');
    batch.op = 'reduce';
    batch.forms.reduce = { ...batch.forms.reduce, 'pos-tol': 0.05, 'rot-tol': 0.5 };
    expect(batch.applyNow()).toBe(true);
    const hist = useHistoryStore();
    const after = writeVmd(hist.current()!.doc);
    const back = readVmd(after);
    if (!back.ok) throw new Error(back.error.message);
    const original = readVmd(bytes);
    if (!original.ok) throw new Error(original.error.message);
    expect(back.value.bone.count).toBeLessThan(original.value.bone.count / 4);
    const e = playedErrors(original.value, back.value);
    expect(e.position).toBeLessThanOrEqual(0.05 + 1e-6);
    expect(e.rotationDeg).toBeLessThanOrEqual(0.5 + 1e-6);
    const n = useNotifyStore().items.at(-1)!;
    expect(n.kind).toBe('success');
    const lines = noticeLines(n, 'en');
    expect(lines.detail).toContain(`keys ${original.value.bone.count.toLocaleString('en-US')} → ${back.value.bone.count.toLocaleString('en-US')}`);
    // The generic kept / added / dropped line is not there: for a fit it counts nothing a person can check.
    expect(lines.detail).not.toMatch(/kept|dropped/);
    expect(hist.undo()).toBe(true);
    expect(Buffer.from(writeVmd(hist.current()!.doc))).toEqual(Buffer.from(bytes));
  });

  it('names its step in the UI language of the moment: made in English, the redo button reads Japanese after switching', async () => {
    const bytes = new Uint8Array(readFileSync(path.join(corpusDir, 'mc-mmd-rust/default_anim/Drink.vmd')));
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'en' };
    expect(useSceneStore().openBytes('Drink.vmd', bytes, '/m/Drink.vmd')).toBe(true);
    const batch = useBatchStore();
    batch.target = 'document';
    batch.op = 'reduce';
    batch.forms.reduce = { ...batch.forms.reduce, 'pos-tol': 0.05, 'rot-tol': 0.5 };
    expect(batch.applyNow()).toBe(true);
    const hist = useHistoryStore();
    expect(editLabel(hist.undoLabel, settings.t)).toBe(t('batch.op.reduce', 'en'));
    expect(hist.undo()).toBe(true);
    settings.settings = { ...settings.settings, locale: 'ja' };
    expect(editLabel(hist.redoLabel, settings.t)).toBe(t('batch.op.reduce', 'ja'));
  });
});

describe.skipIf(!corpusPresent)('Reduce keeps the track list in its order', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setApi(quietApi());
  });

  it('wavefile_v2: the rows show the same tracks in the same order before and after (the fit writes tracks by name)', () => {
    const doc = useWorkspaceStore();
    expect(useSceneStore().openBytes('wavefile_v2.vmd', readCorpus('mmd-viewer-js/vmd/wavefile_v2.vmd'), '/m/wavefile_v2.vmd')).toBe(true);
    const names = () => buildRows(doc.tracks!, new Set()).filter((r) => r.type === 'track').map((r) => `${r.kind}:${(r as { name: string }).name}`);
    const before = names();
    const fileOrder = doc.tracks!.bones.names.slice();
    const batch = useBatchStore();
    batch.target = 'document';
    batch.op = 'reduce';
    expect(batch.applyNow()).toBe(true);
    // The fit did rewrite the bone block in another track order …
    expect(doc.tracks!.bones.names).not.toEqual(fileOrder);
    // … and the rows did not move.
    expect(names()).toEqual(before);
    expect(before.length).toBeGreaterThan(170);
  });
});
