// The four type checks of `npm run typecheck` (one per layer — shared, electron, renderer — and the tests'),
// as many at once as the machine has cores. Each check is one single-threaded compiler, so on CI's 2 cores two
// at a time take the checks from about 77 s to about 45 s, with the same CPU time. Longest first, so the
// short ones fill in beside it. Each check's output is printed whole when it ends; the exit status is 1 if
// any check failed.
//
// `--build` (npm test) also runs the builds the tests use in the same queue: build/build-node.mjs, `vite build`
// and `vite build --mode e2e` (the e2e renderer, which the e2e project would otherwise build before its first
// file). One after the other they took the second core's idle tail of the checks (the last check runs alone)
// plus about 20 s; here they fill it in.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const vueTsc = path.join(root, 'node_modules/vue-tsc/bin/vue-tsc.js');

const vite = path.join(root, 'node_modules/vite/bin/vite.js');

/** [name, arguments to node], longest first (CPU seconds on the 2-core machine: 33, 21, 12, 9). */
const checks = [
  [vueTsc, 'test/tsconfig.json'],
  [vueTsc, 'renderer/tsconfig.json'],
  [tsc, 'electron/tsconfig.json'],
  [tsc, 'shared/tsconfig.json'],
].map(([compiler, project]) => [`${path.basename(compiler).replace(/\.js$/, '')} -p ${project}`, [compiler, '-p', project, '--noEmit']]);

/** The builds of `--build`, after the checks (CPU seconds there: 6, 5, 3.5). */
const builds = [
  ['vite build', [vite, 'build', '--logLevel', 'warn']],
  ['vite build --mode e2e', [vite, 'build', '--mode', 'e2e', '--logLevel', 'warn']],
  ['build-node', [path.join(root, 'build/build-node.mjs')]],
];
const jobs = process.argv.includes('--build') ? [...checks, ...builds] : checks;

const parallel = Math.max(1, Math.min(checks.length, os.availableParallelism()));

function run([name, args]) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, args, { cwd: root });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      process.stdout.write(`${code === 0 ? 'ok' : 'FAILED'}  ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n${out}`);
      resolve(code === 0);
    });
  });
}

const queue = [...jobs];
let failed = false;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    while (queue.length) if (!(await run(queue.shift()))) failed = true;
  }),
);
process.exit(failed ? 1 : 0);
