// Test projects mirror the source layers: shared and electron run on Node, renderer in happy-dom,
// e2e drives the built renderer in a real Chromium through the browser mode.
import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';
import { fileURLToPath } from 'node:url';

// babylon-mmd's esm build (its Bullet bindings, physics) uses extensionless and folder imports that Node's
// resolver refuses: let Vite resolve and transform it (and @babylonjs/core's math it imports).
const inlineDeps = { deps: { inline: ['babylon-mmd', '@babylonjs/core'] } };

const fakeElectron = fileURLToPath(new URL('./test/electron/fake-electron.ts', import.meta.url));

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', include: ['test/shared/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 120_000, server: inlineDeps } },
      {
        resolve: { alias: { electron: fakeElectron } },
        test: { name: 'electron', include: ['test/electron/**/*.test.ts'], environment: 'node', testTimeout: 120_000, hookTimeout: 120_000, server: inlineDeps },
      },
      {
        plugins: [vue()],
        test: { name: 'renderer', include: ['test/renderer/**/*.test.ts'], environment: 'happy-dom', testTimeout: 30_000, server: inlineDeps },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // The physics e2e runs shared/physics in Node beside the page to compare with it.
          server: inlineDeps,
        },
      },
    ],
  },
});
