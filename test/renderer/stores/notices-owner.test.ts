// Notices about a document or a model go when it is closed or replaced (before, after switching model and
// motion, "bone_flag_test.pmx: … E_PHYSICS model "" …" and an earlier model's read error stayed stacked over
// the File panel): the workspace's open (replacing) and close drop notices naming the documents that left, the
// preview drops those naming a model no actor has once another model is shown or asked for. Notices about
// other files, and those about a file opened again, stay.
// The unit project shares one module graph between files (isolate off): the preview's engine (use-preview.ts) is
// stubbed on a fresh graph here, and the graph is reset again afterwards (a plain vi.mock came too late when an
// earlier file in the worker had loaded the real PreviewPane: the real engine ran and the model test failed).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubPreviewEngine } from '../../helpers/stub-preview-engine';
import type { PreviewModelSummary } from '../../../renderer/src/stores/preview';

/** How many panes the stub engine served (the stub, not the real engine, is what the pane uses here). */
const stub = stubPreviewEngine();

const { createPinia, setActivePinia } = await import('pinia');
const { mount } = await import('@vue/test-utils');
const { setQuietApi } = await import('../../helpers/quiet-api');
const { useNotifyStore } = await import('../../../renderer/src/stores/notify');
const { documentContent, useWorkspaceStore } = await import('../../../renderer/src/stores/workspace');
const { usePreviewStore } = await import('../../../renderer/src/stores/preview');
const { emptyVmd } = await import('../../../shared/vmd');
const { default: PreviewPane } = await import('../../../renderer/src/preview/PreviewPane.vue');

const files = () => useNotifyStore().items.map((n) => n.about ?? n.error?.file ?? '');
const model = (path: string): PreviewModelSummary => ({ name: path, path, format: 'pmx', bones: 1, morphs: 0, vertices: 0, rigidBodies: 0, notes: [] }) as unknown as PreviewModelSummary;

describe('notices about a closed or replaced document or model', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setQuietApi();
    document.body.innerHTML = '';
  });

  it('opening other documents drops the notices about those replaced; close drops its own; others stay', () => {
    const ws = useWorkspaceStore();
    const notify = useNotifyStore();
    ws.open([documentContent(emptyVmd(), { path: '/m/a.vmd' }), documentContent(emptyVmd(), { path: '/m/b.vmd' })]);
    notify.error({ code: 'E_IO', message: 'save failed', file: '/m/a.vmd' });
    notify.error({ code: 'E_IO', message: 'save failed', file: '/m/b.vmd' });
    notify.error({ code: 'E_IO', message: 'read failed', file: '/m/elsewhere.vmd' });
    notify.warning('a general warning');
    ws.close(ws.ids[1]);
    expect(files()).toEqual(['/m/a.vmd', '/m/elsewhere.vmd', '']);
    // a.vmd opened again with c.vmd: its notices stay (the file is still open).
    ws.open([documentContent(emptyVmd(), { path: '/m/a.vmd' }), documentContent(emptyVmd(), { path: '/m/c.vmd' })]);
    expect(files()).toEqual(['/m/a.vmd', '/m/elsewhere.vmd', '']);
    notify.add({ kind: 'warning', text: 'c.vmd: something about it', about: '/m/c.vmd' });
    ws.open([documentContent(emptyVmd(), { path: '/m/d.vmd' })]);
    expect(files()).toEqual(['/m/elsewhere.vmd', '']);
  });

  it('the preview showing another model drops the notices about the model replaced, not about an actor\'s other model', async () => {
    const notify = useNotifyStore();
    const preview = usePreviewStore();
    const w = mount(PreviewPane, { attachTo: document.body });
    expect(stub.panes).toBe(1);
    preview.model = model('/m/bone_flag_test.pmx');
    await w.vm.$nextTick();
    notify.error({ code: 'E_PHYSICS', message: 'model "" has no physics-driven bones', file: '/m/bone_flag_test.pmx' });
    notify.error({ code: 'E_IO', message: 'read failed', file: '/m/dance.vmd' });
    preview.model = model('/m/Gene_light.pmx');
    await w.vm.$nextTick();
    expect(files()).toEqual(['/m/dance.vmd']);
    // A model that failed to load (asked for, never shown): its error goes when another is asked for.
    preview.requestModel({ name: 'broken.pmx', bytes: new Uint8Array(4) });
    await vi.waitFor(() => expect(preview.modelRequest).toBeNull());
    notify.error({ code: 'E_PMX_PHYSICS', message: 'rigid body 0: mass is NaN', file: 'broken.pmx' });
    notify.error({ code: 'E_PHYSICS', message: 'refused', file: '/m/Gene_light.pmx' });
    preview.requestModel({ name: 'miku.pmd', bytes: new Uint8Array(4) });
    await vi.waitFor(() => expect(files()).toEqual(['/m/dance.vmd', '/m/Gene_light.pmx']));
    w.unmount();
  });
});
