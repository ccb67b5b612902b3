/**
 * For renderer tests that mount the preview pane without its three.js engine (use-preview.ts): the engine is
 * stubbed on a fresh module graph, and the graph is reset again after the file. The unit project shares one module
 * graph between files (isolate off), so a plain vi.mock comes too late when an earlier file in the worker loaded
 * the real PreviewPane (the real engine then ran, trying WebGL). Call it at the top of the test file, before its
 * dynamic imports of the renderer; `panes` counts the panes the stub served (the stub is what the pane used).
 */
import { afterAll, vi } from 'vitest';

export function stubPreviewEngine(): { panes: number } {
  const stub = { panes: 0 };
  vi.resetModules();
  vi.doMock('../../renderer/src/preview/use-preview', () => ({
    usePreview: () => {
      stub.panes++;
      return { loadModel: async () => ({ ok: true, value: undefined }), clearModel: () => {}, loadCameraMotion: () => ({ ok: true, value: undefined }) };
    },
  }));
  afterAll(() => {
    vi.doUnmock('../../renderer/src/preview/use-preview');
    vi.resetModules();
  });
  return stub;
}
