// Mirror in the Whole Motion dialog (the batch store aimed at the open motion, issue 31): one undo step whose
// bytes are those the batch edit writes, kept as a diff of no bytes (undo and redo mirror again), with the
// batch report's counts in the notice; at 60,000 keys it runs in slices (workspace.commitSteps), its undo and
// redo too (stepSliced), with the tracks made from the old ones (as buildTracks makes them).
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, okValue, type VmdStudioApi } from '../../../shared/ipc/contract';
import { blockFromRecords, buildTracks, decodeName, emptyVmd, encodeBoneRecord, encodeMorphRecord, readVmd, writeVmd, BONE, MORPH } from '../../../shared/vmd';
import { mirror } from '../../../shared/motion-ops';
import { setApi } from '../../../renderer/src/api';
import { useBatchStore } from '../../../renderer/src/stores/batch';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { expectSameTracks } from '../../helpers/same-tracks';

function quietApi(): VmdStudioApi {
  return new Proxy({} as Record<string, unknown>, {
    get: (_t, name: string) => async (...args: unknown[]) => (name === 'setSettings' ? okValue({ ...DEFAULT_SETTINGS, ...(args[0] as object) }) : name === 'listRecent' ? okValue([]) : okValue(undefined)),
  }) as unknown as VmdStudioApi;
}

/** A motion of `n` bone keys over three bones (左腕, 右腕, センター) and two morphs (one with a side). */
function motion(n: number): Uint8Array {
  const names = ['左腕', '右腕', 'センター'];
  const bones = Array.from({ length: n }, (_, i) =>
    encodeBoneRecord({ name: names[i % 3], frame: Math.floor(i / 3), position: [0.5 + (i % 7), -1, 2], rotation: [0.1, 0.2 - (i % 5) / 10, 0.3, 0.9] }),
  );
  const morphs = [encodeMorphRecord({ name: 'ウィンク右', frame: 0, weight: 1 }), encodeMorphRecord({ name: 'あ', frame: 2, weight: 0.5 })];
  return writeVmd({ ...emptyVmd('m'), bone: blockFromRecords('bone', bones), morph: blockFromRecords('morph', morphs) });
}

/** Byte equality (toEqual over a Buffer walks it element by element: seconds for a few hundred keys). */
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;


function batchMirrored(bytes: Uint8Array): Uint8Array {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  const m = mirror(r.value);
  if (!m.ok) throw new Error('mirror refused');
  return writeVmd(m.value.doc);
}

describe('Mirror on the open motion', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setApi(quietApi());
  });

  for (const n of [300, 60_000]) {
    it(`${n} keys: the batch edit's bytes, one step of no bytes, undo and redo exact, the tracks as rebuilt`, async () => {
      const bytes = motion(n);
      const expected = batchMirrored(bytes);
      expect(same(expected, bytes)).toBe(false);
      const ws = useWorkspaceStore();
      expect(useSceneStore().openBytes('m.vmd', bytes, '/m/m.vmd')).toBe(true);
      const batch = useBatchStore();
      batch.target = 'document';
      batch.op = 'mirror';
      expect(await batch.applyToDocument()).toBe(true);
      const hist = useHistoryStore();
      expect(hist.depth).toBe(1);
      expect(same(writeVmd(ws.doc!), expected)).toBe(true);
      expect(ws.historyBytes).toBe(0);
      expectSameTracks(ws.tracks!, buildTracks(ws.doc!));
      expect(ws.info!.bones).toEqual(['センター', '右腕', '左腕'].sort());
      const lines = noticeLines(useNotifyStore().items.at(-1)!, 'en');
      expect(lines.detail).toContain(`${(n + 2).toLocaleString('en-US')} kept`);
      expect(await hist.undoSliced()).toBe(true);
      expect(same(writeVmd(ws.doc!), bytes)).toBe(true);
      expectSameTracks(ws.tracks!, buildTracks(ws.doc!));
      expect(await hist.redoSliced()).toBe(true);
      expect(same(writeVmd(ws.doc!), expected)).toBe(true);
    });
  }

  it('names in Latin letters pair by the shown model\'s bones and morphs: a pair it has both names of, not one it has one of', async () => {
    const bytes = writeVmd({
      ...emptyVmd('m'),
      bone: blockFromRecords('bone', [encodeBoneRecord({ name: 'LFingers', frame: 0, position: [1, 0, 0], rotation: [0, 0, 0, 1] })]),
      morph: blockFromRecords('morph', [encodeMorphRecord({ name: 'eyeBlinkLeft', frame: 0, weight: 1 })]),
    });
    const namesAfter = async (outline: { groups: { name: string; bones: string[] }[]; morphs: { name: string; panel: 'eyes' }[]; physicsBones: string[] } | null) => {
      setActivePinia(createPinia());
      usePreviewStore().modelOutline = outline;
      expect(useSceneStore().openBytes('m.vmd', bytes, '/m/m.vmd')).toBe(true);
      const batch = useBatchStore();
      batch.target = 'document';
      batch.op = 'mirror';
      await batch.applyToDocument();
      const d = useWorkspaceStore().doc!;
      return [decodeName(d.bone.bytes, BONE.NAME, BONE.NAME_LENGTH), decodeName(d.morph.bytes, MORPH.NAME, MORPH.NAME_LENGTH)];
    };
    // No model: the whole word Left is clear; CMU's LFingers without RFingers in the motion is not.
    expect(await namesAfter(null)).toEqual(['LFingers', 'eyeBlinkRight']);
    // A model with both finger bones and only the left blink: the fingers swap, the blink stays.
    expect(await namesAfter({ groups: [{ name: '', bones: ['LFingers', 'RFingers'] }], morphs: [{ name: 'eyeBlinkLeft', panel: 'eyes' }], physicsBones: [] })).toEqual(['RFingers', 'eyeBlinkLeft']);
  });

  it('says a motion with nothing to mirror is unchanged, and records no step', async () => {
    const bytes = writeVmd({ ...emptyVmd('m'), morph: blockFromRecords('morph', [encodeMorphRecord({ name: 'あ', frame: 0, weight: 1 })]) });
    expect(useSceneStore().openBytes('m.vmd', bytes, '/m/m.vmd')).toBe(true);
    const batch = useBatchStore();
    batch.target = 'document';
    batch.op = 'mirror';
    expect(await batch.applyToDocument()).toBe(false);
    expect(useHistoryStore().depth).toBe(0);
    expect(useNotifyStore().items.at(-1)!.text).toMatchObject({ key: 'batch.doc.unchanged' });
  });
});
