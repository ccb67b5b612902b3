// Test projects mirror the source layers: shared and electron run on Node, renderer in happy-dom,
// e2e drives the built renderer in a real Chromium through the browser mode.
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
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

/**
 * The files that cost most, most first within their project (wall seconds alone, test/README.md "Where the
 * minutes go"). Two workers take files in the order given: vitest's own order (the last run's durations, or on a
 * fresh clone, as on CI, the larger file first) can leave a long file to start last and run alone at the end:
 * fit-memory (12 s) was the unit phase's last file on a fresh clone, with the second core idle beside it.
 */
const E2E_LONGEST = ['video-export', 'big-edit', 'fit-worker', 'scene-perf', 'mocap', 'timeline-nav', 'layout', 'editor', 'scene-docs', 'preview-physics', 'simplify-worker', 'scene-four-actors', 'preview-picture', 'preview', 'retarget'].map((n) => `test/e2e/${n}.e2e.test.ts`);
const UNIT_LONGEST = [
  // Measured at bdb1627 on a fresh clone (CI's run, two workers), longest first.
  'electron/mocap-service',
  'electron/mocap-cli',
  'shared/fit/fit-corpus',
  // Four of the seven longest in suiteunit's measure (2026-12-07, test/README) that were not listed, so they could
  // start last and run alone at the phase's end.
  'electron/retarget-command',
  'electron/vrma-round-trip-rest',
  'electron/mocap-spikes',
  'electron/readme-tour',
  'shared/fuzz',
  'electron/batch-import-vrma',
  'electron/server-bounds',
  'shared/fit/fit-memory',
  'electron/batch-export-mocap',
  'electron/cli-signals',
  'electron/batch-import-bvh',
  'shared/motion-ops/edits-corpus',
  'shared/physics/bake',
  'electron/edit-commands',
  'shared/tracks',
  'shared/bvh/import',
  'electron/physics-bake-command',
  'electron/server-load',
  'renderer/stores/batch-fit',
  'shared/retarget/retarget-corpus',
  'electron/batch-memory',
  'renderer/fit/fit-client',
].map((n) => `test/${n}.test.ts`);
const LONGEST = [...E2E_LONGEST, ...UNIT_LONGEST];

/** Vitest's order, with LONGEST moved to the front of their project (the rest keep their order). */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((p) => f.moduleId.endsWith(p));
      return i < 0 ? LONGEST.length : i;
    };
    // Each project's files stay together (vitest's order puts them so); within one, a stable sort moves only
    // the listed files, in the listed order, ahead of the others.
    const byProject = new Map<string, TestSpecification[]>();
    for (const f of sorted) byProject.set(f.project.name, [...(byProject.get(f.project.name) ?? []), f]);
    return [...byProject.values()].flatMap((group) => group.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map((x) => x.f));
  }
}

/**
 * The e2e files that run alone even in `npm test`, after the others: preview-perf checks one render per played
 * frame (at most two more renders than frame intervals), and beside another file at load 27–30 the 2-core
 * machine gave 16 renders for 13 intervals (test/README.md, "Where the minutes go"). The other files that
 * follow the page's clock (music-scrub, music-perf, timeline-nav, big-edit, fit-worker) passed beside another
 * file at load 20–30 each time they were tried.
 */
const E2E_SOLO = ['preview-perf'].map((n) => `test/e2e/${n}.e2e.test.ts`);

/**
 * The e2e project(s). By default one, `e2e`: every file, one after the other in one worker (what
 * `npx vitest run --project e2e [FILE]` runs). With VMD_E2E_PAIRS=1 (`npm test`) two: `e2e`, every file but
 * E2E_SOLO, two at a time (two workers; each file still opens its own server, Chromium and page), and then
 * `e2e-solo`, E2E_SOLO one at a time with nothing else running. On 2 cores one e2e file leaves the second core
 * idle for much of its time (it waits on the page, the server, SwiftShader); a second file uses it.
 */
function e2eProjects() {
  const pairs = process.env.VMD_E2E_PAIRS === '1';
  const common = {
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 120_000,
    // A worker runs its files one after the other (isolate: false) instead of a fresh process per file that
    // loads playwright-core and the harness again (about 1 s of CPU per file, 45 files). Each file still opens
    // its own server, Chromium and page (appForSuite/openApp), and no e2e file keeps state at module level
    // that another reads.
    isolate: false,
    // The Chromium to drive and the e2e build, settled once before any worker starts (two workers would
    // otherwise both unpack the packaged Chromium into the temp folder, one launching it half written).
    globalSetup: ['test/e2e/global-setup.ts'],
    // The physics e2e runs shared/physics in Node beside the page to compare with it.
    server: inlineDeps,
  };
  // groupOrder: after the unit projects when all projects run in one `vitest run` (they have another maxWorkers).
  // Two e2e workers (VMD_E2E_WORKERS to try others): with three, three Chromiums contended for the two cores and
  // the e2e phase took 387 s against 367 s, for 752 against 686 CPU s (test/README.md).
  if (!pairs) return [{ test: { ...common, name: 'e2e', include: ['test/e2e/**/*.test.ts'], fileParallelism: false, sequence: { groupOrder: 1 } } }];
  return [
    { test: { ...common, name: 'e2e', include: ['test/e2e/**/*.test.ts'], exclude: E2E_SOLO, maxWorkers: Number(process.env.VMD_E2E_WORKERS) || 2, sequence: { groupOrder: 1 } } },
    { test: { ...common, name: 'e2e-solo', include: E2E_SOLO, fileParallelism: false, sequence: { groupOrder: 2 } } },
  ];
}

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      // The unit projects run with isolate off: a worker runs its files one after the other in one module graph
      // instead of a fresh one per file (which cost about 40 s of the 58 s the renderer project took, happy-dom
      // and the imports set up 73 times, and about 38 s of the shared and electron projects' 139 s). No file
      // keeps state at module level that another reads: the renderer's mounted components are unmounted after
      // each test and the timers a file left pending are cleared when it ends (test/renderer/setup.ts); the
      // electron wiring tests reset their modules and unmock electron. CI failed on 2026-12-05 before that
      // second part: a notice's fade timer from one file ran a store action in a later file's test, which made
      // its own pinia the active one (4 of 6 full unit runs failed without vitest's duration cache).
      // 300 s a test: the corpus fits (fit-corpus, fit-memory, tracks' 60 motions) take 15–40 s alone and passed
      // 60 s at load 20–30 on this 2-core machine; a test's time never decides whether a change lands.
      { test: { name: 'shared', include: ['test/shared/**/*.test.ts'], environment: 'node', isolate: false, testTimeout: 300_000, hookTimeout: 120_000, maxWorkers: unitWorkers, server: inlineDeps } },
      {
        resolve: { alias: { electron: fakeElectron } },
        test: { name: 'electron', include: ['test/electron/**/*.test.ts'], environment: 'node', isolate: false, testTimeout: 120_000, hookTimeout: 120_000, maxWorkers: unitWorkers, server: inlineDeps },
      },
      {
        plugins: [vue()],
        test: { name: 'renderer', include: ['test/renderer/**/*.test.ts'], environment: 'happy-dom', isolate: false, setupFiles: ['test/renderer/setup.ts'], testTimeout: 120_000, maxWorkers: unitWorkers, server: inlineDeps },
      },
      ...e2eProjects(),
    ],
  },
});
