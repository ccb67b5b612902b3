// The import dialog's store on a real VRM Animation with expression tracks, converted by the real task
// (electron/mocap/mocap-task.ts, what main's worker runs) behind the bridge: the expression table's rows
// (the file's expressions, the built-in morphs, the rows the file lacks), an edited row going into the
// conversion, the table saved as a map file that the command line's own --map parser reads back, a map file
// loaded; and a model chosen in the dialog lent to the preview until Close.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setApi } from '../../renderer/src/api';
import { useMocapStore } from '../../renderer/src/stores/mocap';
import { usePreviewStore } from '../../renderer/src/stores/preview';
import { runRequest } from '../../electron/mocap/mocap-task';
import { parseMapping } from '../../shared/motion-ops/rename';
import { readVmd } from '../../shared/vmd';
import type { MocapImportJob } from '../../shared/ipc/mocap-types';
import { corpusPath, corpusPresent, readCorpus } from '../helpers/corpus';
import { tempDir } from '../helpers/build';

const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
const OTHER = corpusPath('vmd_sizing/archive/debug_bone6.pmx');
const MOTION = 'vmd_sizing/archive/モーフ置換サンプル/A) あにまさ式ミク_あ.vmd';
const tmp = tempDir('vmd-mocap-expr-');
afterAll(() => tmp.remove());

const jobs: MocapImportJob[] = [];
setApi(
  new Proxy(
    {
      importMocap: async (job: MocapImportJob) => {
        jobs.push(job);
        return runRequest({ kind: 'import', job, model: job.model === null ? null : readCorpus(job.model) });
      },
      cancelMocap: async () => ({ ok: true, value: false }),
      onMocapProgress: () => () => {},
      readMapFile: async (p: string) => ({ ok: true, value: { path: p, name: path.basename(p), bytes: new Uint8Array(readFileSync(p)) } }),
      saveMapFile: async (p: string, bytes: Uint8Array) => {
        writeFileSync(p, bytes);
        return { ok: true, value: { path: p } };
      },
    },
    { get: (t, k) => (t as Record<string | symbol, unknown>)[k] ?? (async () => ({ ok: true, value: undefined })) },
  ) as never,
);

/** A .vrma made by the export task from a motion keying あ, い, う, お, まばたき, 笑い, ウィンク… */
async function laughVrma(): Promise<Uint8Array> {
  const r = await runRequest({ kind: 'export', job: { id: 'x', format: 'vrma', vmd: readCorpus(MOTION), model: MIKU }, model: readCorpus(MIKU) });
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as { bytes: Uint8Array }).bytes;
}

describe.skipIf(!corpusPresent)('the expression table of a VRM Animation import', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('shows the built-in rows, converts with an edited row, saves the table as --map reads it, loads a map file', async () => {
    const m = useMocapStore();
    await m.begin({ name: 'a.vrma', path: null, format: 'vrma', bytes: await laughVrma() }, MIKU);
    expect(m.error).toBeNull();
    const row = (e: string) => m.expressionTable.find((r) => r.expression === e);
    // In the file, with the built-in morphs; miku.pmd has none of them (it has にこり, 困る, 怒り…).
    expect(row('aa')).toEqual({ expression: 'aa', morph: 'あ', inFile: true, edited: false, inModel: false });
    expect(row('blink')).toMatchObject({ morph: 'まばたき', inFile: true });
    // The motion keys えー, not え (あにまさ式's e-vowel): the export took it for ee. miku.pmd has neither.
    expect(row('ee')).toMatchObject({ morph: 'え', inFile: true, inModel: false });
    expect(m.result!.modelMorphs).toEqual(expect.arrayContaining(['にこり', '困る', '怒り']));

    m.setMorphRow('aa', 'にこり');
    expect(m.current).toBe(false);
    expect(await m.convert()).toBe(true);
    expect(jobs.at(-1)!.morphs).toEqual([['aa', 'にこり']]);
    expect(row('aa')).toEqual({ expression: 'aa', morph: 'にこり', inFile: true, edited: true, inModel: true });
    const doc = readVmd(m.result!.vmd);
    if (!doc.ok) throw new Error(doc.error.message);
    const names = new Set<string>();
    for (let i = 0; i < doc.value.morph.count; i++) names.add(new TextDecoder('shift_jis').decode(doc.value.morph.bytes.subarray(23 * i, 23 * i + 15)).replace(/\0.*$/s, ''));
    expect(names.has('にこり')).toBe(true);
    expect(names.has('あ')).toBe(false);

    // Saved: every row, '-' for none, read back by the command line's parser as the same table.
    const file = path.join(tmp.dir, 'a-map.json');
    expect(await m.saveMap(file, false)).toBeNull();
    const back = parseMapping(readFileSync(file, 'utf8'), 'json');
    if (!back.ok) throw new Error(back.error.message);
    expect(Object.fromEntries(back.value.morphs)).toEqual(Object.fromEntries(m.expressionTable.map((r) => [r.expression, r.morph ?? '-'])));
    expect(back.value.morphs.get('aa')).toBe('にこり');

    // Loaded: its rows replace those set so far.
    const other = path.join(tmp.dir, 'b-map.json');
    writeFileSync(other, JSON.stringify({ morphs: { blink: '-' } }));
    expect(await m.loadMap(other)).toBeNull();
    expect(m.morphRows).toEqual({ blink: '-' });
    expect(row('blink')).toMatchObject({ morph: null, edited: true });
    expect(row('aa')).toMatchObject({ morph: 'あ', edited: false });
  });

  it('lends the preview a model chosen in the dialog until Close', async () => {
    const preview = usePreviewStore();
    preview.setModel({ name: 'miku', path: MIKU, format: 'pmd', bones: 0, morphs: 0, vertices: 0, rigidBodies: 0, notes: [] });
    const m = useMocapStore();
    await m.begin({ name: 'a.vrma', path: null, format: 'vrma', bytes: await laughVrma() }, MIKU);
    await m.chooseModel(OTHER);
    expect(m.modelPath).toBe(OTHER);
    expect(preview.modelRequest).toEqual({ path: OTHER });
    expect(m.lent).toEqual({ before: MIKU });
    await m.close();
    expect(m.lent).toBeNull();
    expect(preview.modelRequest).toEqual({ path: MIKU });
  });
});
