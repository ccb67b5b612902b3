// Memory stays flat with the folder size: peak RSS of a batch over 1,000 files vs 200 files, each run
// in a fresh Node process (the bundled CLI, worker threads included in the process's RSS).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { copyCorpus, ensureBuilt, listFiles, ROOT, tempDir } from './batch-helpers';

const dirs: string[] = [];
beforeAll(() => ensureBuilt(['node']), 120_000);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, 120_000); // removing 1,000 files takes more than the default 10 s on a loaded machine

/** Runs `batch mirror` over `count` files in a child process; returns its peak RSS in MB. */
export function peakRssMb(count: number): { mb: number; code: number; written: number } {
  const d = tempDir(`rss${count}`);
  dirs.push(d);
  const input = path.join(d, 'in');
  // everything but the 1.6 MB dance (keeps the run short on two shared cores)
  copyCorpus(input, count, (f) => !f.endsWith('wavefile_v2.vmd'));
  const cli = pathToFileURL(path.join(ROOT, 'dist/cli/cli.mjs')).href;
  const script = `
    const { runCli } = await import(${JSON.stringify(cli)});
    let err = ''; const io = { stdout: () => {}, stderr: (s) => { err += s; }, cwd: process.cwd(), isTTY: false };
    const code = await runCli(['batch', 'mirror', ${JSON.stringify(input)}, '-o', ${JSON.stringify(path.join(d, 'out'))}, '--recursive', '--jobs', '2', '--quiet'], io);
    process.stdout.write(JSON.stringify({ code, maxRSS: process.resourceUsage().maxRSS, err: err.slice(0, 2000) }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const r = JSON.parse(out) as { code: number; maxRSS: number; err: string };
  if (r.code !== 0) console.log(r.err);
  return { mb: r.maxRSS / 1024, code: r.code, written: listFiles(path.join(d, 'out')).length };
}

describe('batch memory', () => {
  it('peak RSS on 1,000 files does not grow with the count (vs 200)', () => {
    const small = peakRssMb(200);
    const big = peakRssMb(1000);
    console.log(`peak RSS: 200 files ${small.mb.toFixed(1)} MB, 1000 files ${big.mb.toFixed(1)} MB`);
    expect(small.code).toBe(0);
    expect(big.code).toBe(0);
    expect(small.written).toBe(200);
    expect(big.written).toBe(1000);
    // Five times the files may not cost more than a little slack (GC timing), far from 5×.
    expect(big.mb).toBeLessThan(small.mb * 1.2 + 15);
  });
});
