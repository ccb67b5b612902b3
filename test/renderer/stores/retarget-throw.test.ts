// "Fit this motion to the model…": a fit that throws (neither the worker nor the main-thread fallback answered)
// ends 'failed' with its message; before, the panel showed "Fitting…" for good with Apply disabled.
// The unit project shares one module graph between files (isolate off): the retarget client is mocked on a
// fresh graph here, and the graph is reset again afterwards.
import { afterAll, describe, expect, it, vi } from 'vitest';

afterAll(() => {
  vi.doUnmock('../../../renderer/src/fit/retarget-client');
  vi.resetModules();
});

describe('the retarget panel when the fit throws', () => {
  it('ends failed with the message, not running', async () => {
    vi.resetModules();
    vi.doMock('../../../renderer/src/fit/retarget-client', () => ({
      runRetarget: async () => {
        throw new Error('the retarget worker could not start');
      },
    }));
    const { createPinia, setActivePinia } = await import('pinia');
    const { setApi } = await import('../../../renderer/src/api');
    const { useRetargetStore } = await import('../../../renderer/src/stores/retarget');
    const { useWorkspaceStore, documentContent } = await import('../../../renderer/src/stores/workspace');
    const { useNotifyStore } = await import('../../../renderer/src/stores/notify');
    const { emptyVmd } = await import('../../../shared/vmd');
    const { memoryApi } = await import('./scene-fixtures');
    setActivePinia(createPinia());
    setApi(memoryApi(new Map()).api);
    const [id] = useWorkspaceStore().open([documentContent(emptyVmd('初音ミク'), { name: 'dance.vmd', path: '/m/dance.vmd' })]);
    const rt = useRetargetStore();
    rt.open = true;
    rt.actorId = id;
    rt.targetPath = '/m/target.pmx';
    rt.raw.targetBytes = new Uint8Array(4);
    expect(await rt.chooseStandardSource()).toBe(false);
    expect(rt.state).toBe('failed');
    expect(rt.error?.message).toBe('the retarget worker could not start');
    expect(useNotifyStore().items.filter((n) => n.kind === 'error')).toHaveLength(1);
  });
});
