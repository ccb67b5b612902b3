// "Fit this motion to the model…": the panel never stays on "Reading the model…". A target model that could not
// be read (a model dropped on a browser's window has no path main could read) left the state 'loading' for good
// once a source was chosen (compute() gave up without a word), with Apply disabled; now it fails with a message.
// And a dropped model (its bytes kept by the preview under its name) is read from those bytes, as target and source.
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { setApi } from '../../../renderer/src/api';
import { useRetargetStore } from '../../../renderer/src/stores/retarget';
import { useWorkspaceStore, documentContent } from '../../../renderer/src/stores/workspace';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useNotifyStore, noticeLines } from '../../../renderer/src/stores/notify';
import { emptyVmd } from '../../../shared/vmd';
import { memoryApi } from './scene-fixtures';

const CORPUS = process.env.VMD_CORPUS ?? path.resolve(__dirname, '../../../../shared/corpus');
const GENE = path.join(CORPUS, 'gene/Gene_light.pmx');
const MIKU = path.join(CORPUS, 'mmd-viewer-js/model/low_miku/miku.pmd');
const have = fs.existsSync(GENE) && fs.existsSync(MIKU);

function setup() {
  const files = new Map<string, Uint8Array>([[GENE, new Uint8Array(fs.readFileSync(GENE))]]);
  const { api, calls } = memoryApi(files);
  setApi(api);
  const ws = useWorkspaceStore();
  const [id] = ws.open([documentContent(emptyVmd('初音ミク'), { name: 'dance.vmd', path: '/m/dance.vmd' })]);
  return { id, calls };
}

describe.skipIf(!have)('the retarget panel’s model reads', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('a target that could not be read: choosing a source ends failed with a message, not loading', async () => {
    const { id } = setup();
    const rt = useRetargetStore();
    expect(await rt.start(id, 'miku.pmd', 'ローポリ初音さん')).toBe(false);
    expect(rt.state).toBe('failed');
    expect(await rt.chooseSource(GENE)).toBe(false);
    expect(rt.state).toBe('failed');
    expect(rt.error?.code).toBe('E_EDIT');
    const shown = useNotifyStore().items.map((n) => noticeLines(n, 'en').message);
    expect(shown.some((m) => m.includes('ローポリ初音さん was not read'))).toBe(true);
  });

  it('a dropped target and a dropped source are taken from the preview’s kept bytes, not read by name', async () => {
    const { id, calls } = setup();
    const miku = new Uint8Array(fs.readFileSync(MIKU));
    const gene = new Uint8Array(fs.readFileSync(GENE));
    usePreviewStore().keepDropped('miku.pmd', miku);
    usePreviewStore().keepDropped('Gene_light.pmx', gene);
    const rt = useRetargetStore();
    expect(await rt.start(id, 'miku.pmd', 'ローポリ初音さん')).toBe(true);
    expect(rt.state).toBe('choose');
    expect(rt.raw.targetBytes).toBe(miku);
    const done = rt.chooseSource('Gene_light.pmx');
    expect(rt.state).toBe('loading');
    await done;
    expect(rt.raw.sourceBytes).toBe(gene);
    expect(rt.sourcePath).toBe('Gene_light.pmx');
    expect(rt.state).not.toBe('loading');
    expect(calls.filter((c) => c.name === 'readModelFile')).toEqual([]);
  });
});

describe('the retarget panel when the bridge itself fails', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('a read that throws ends failed with the message, not loading', async () => {
    const { id } = setup();
    const rt = useRetargetStore();
    setApi(new Proxy({}, { get: () => async () => { throw new Error('the server is gone'); } }) as never);
    expect(await rt.start(id, '/m/target.pmx', 'Target')).toBe(false);
    expect(rt.state).toBe('failed');
    expect(rt.error?.message).toBe('the server is gone');
  });
});
