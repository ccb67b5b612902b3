// Test projects mirror the source layers: shared and electron run on Node, renderer in happy-dom,
// e2e drives the built renderer in a real Chromium through the browser mode.
import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

// babylon-mmd's esm build (its Bullet bindings, physics) uses extensionless and folder imports that Node's
// resolver refuses: let Vite resolve and transform it (and @babylonjs/core's math it imports).
const inlineDeps = { deps: { inline: ['babylon-mmd', '@babylonjs/core'] } };

const fakeElectron = fileURLToPath(new URL('./test/electron/fake-electron.ts', import.meta.url));

// Vitest's default is one worker fewer than the cores: on CI's 2 cores, one, so the unit files ran one at a
// time while the second core mostly idled (the main process only transforms). Two workers there; the default
// elsewhere. The three unit projects need one value (they run in one group).
const unitWorkers = Math.max(2, os.availableParallelism() - 1);

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', include: ['test/shared/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 120_000, maxWorkers: unitWorkers, server: inlineDeps } },
      {
        resolve: { alias: { electron: fakeElectron } },
        test: { name: 'electron', include: ['test/electron/**/*.test.ts'], environment: 'node', testTimeout: 120_000, hookTimeout: 120_000, maxWorkers: unitWorkers, server: inlineDeps },
      },
      {
        plugins: [vue()],
        test: { name: 'renderer', include: ['test/renderer/**/*.test.ts'], environment: 'happy-dom', testTimeout: 120_000, maxWorkers: unitWorkers, server: inlineDeps },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // One worker for all the files, one after the other (isolate: false), instead of a fresh process per
          // file that loads playwright-core and the harness again (about 1 s of CPU per file, 45 files). Each file
          // still opens its own server, Chromium and page (appForSuite/openApp), and no e2e file keeps state at
          // module level that another reads.
          isolate: false,
          // After the unit projects when all projects run in one `vitest run` (they have another maxWorkers).
          sequence: { groupOrder: 1 },
          // The physics e2e runs shared/physics in Node beside the page to compare with it.
          server: inlineDeps,
        },
      },
    ],
  },
});
