// Bundles everything that runs on Node (CLI, batch worker, browser-mode server, Electron main and preload,
// benchmarks) from TypeScript into dist/. Runs from `npm ci` (prepare), `npm test` and `npm start`.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { buildWasm } from './wasm.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const r = (p) => path.join(root, p);

/** ESM entries for plain Node: [source, output]. Missing sources are skipped so partial trees still build. */
const esmEntries = [
  ['electron/cli/main.ts', 'dist/cli/cli.mjs'],
  ['electron/batch/batch-worker.ts', 'dist/cli/batch-worker.mjs'],
  ['electron/mocap/mocap-worker.ts', 'dist/cli/mocap-worker.mjs'],
  ['electron/server/serve.ts', 'dist/electron/serve.mjs'],
  ['test/bench/bench.ts', 'dist/bench/bench.mjs'],
].filter(([src]) => existsSync(r(src)));

/** CommonJS entries for Electron: the main process and the sandboxed preload (one file, no chunks). */
const cjsEntries = [
  ['electron/main.ts', 'dist/electron/main.cjs'],
  ['electron/preload.ts', 'dist/electron/preload.cjs'],
].filter(([src]) => existsSync(r(src)));

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  legalComments: 'none',
};

// The WebAssembly the shared code loads (tracks.wat), compiled first: every bundle below embeds it.
await buildWasm();

await Promise.all([
  ...esmEntries.map(([src, out]) =>
    build({
      ...common,
      entryPoints: [r(src)],
      outfile: r(out),
      format: 'esm',
      // Bundled CommonJS dependencies may call require(); give ESM output one.
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      // babylon-mmd's ESM (physics: its Bullet bindings) and the @babylonjs/core math it imports use
      // extension-less imports Node cannot load: bundled, never external.
      external: ['electron', 'mmd-parser', 'playwright-core'],
    }),
  ),
  ...cjsEntries.map(([src, out]) =>
    build({ ...common, entryPoints: [r(src)], outfile: r(out), format: 'cjs', external: ['electron'] }),
  ),
]);
