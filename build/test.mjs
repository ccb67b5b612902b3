// `npm test`: the type checks and the builds the tests use (build/typecheck.mjs --build), the unit projects, then
// the e2e files two at a time and preview-perf alone (VMD_E2E_PAIRS=1: vitest.config.ts), each step only if the
// one before passed. A script rather than a shell line, because `VAR=1 command` is POSIX shell syntax: cmd.exe
// and PowerShell, where `npm test` runs on Windows, would not set the variable. Each step's output is its own
// (the steps run one after the other, with the terminal passed through); the exit status is the first failed
// step's.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');

const steps = [
  { name: 'type checks and builds', args: [path.join(root, 'build/typecheck.mjs'), '--build'] },
  { name: 'unit', args: [vitest, 'run', '--project', 'shared', '--project', 'electron', '--project', 'renderer'] },
  { name: 'e2e', args: [vitest, 'run', '--project', 'e2e', '--project', 'e2e-solo'], env: { VMD_E2E_PAIRS: '1' } },
];

for (const step of steps) {
  const r = spawnSync(process.execPath, step.args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...step.env } });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : r.signal ? `stopped by ${r.signal}` : `exit status ${r.status}`;
    process.stderr.write(`\nnpm test: the ${step.name} step failed (${why}); the steps after it did not run.\n`);
    process.exit(r.status || 1);
  }
}
