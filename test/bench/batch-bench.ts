/**
 * Batch benchmark (called by test/bench/bench.ts, `npm run bench`): `batch mirror` over 500 corpus
 * copies in a temp folder, with 1 and with 2 worker threads. Reports files/s, MB/s and the peak RSS
 * of the process during each run (worker threads live in the same process; RSS sampled every 20 ms).
 * The corpus is only read; the temp folder is removed afterwards.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBatch } from '../../electron/batch/engine';
import { CORPUS } from '../helpers/build';

export interface BatchBenchResult {
  jobs: number;
  files: number;
  bytes: number;
  seconds: number;
  filesPerSecond: number;
  mbPerSecond: number;
  peakRssMb: number;
  failed: number;
  /** 'workers' or 'in-process' (when dist/cli/batch-worker.mjs was not built). */
  mode: string;
}

function corpusVmds(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir).sort()) {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) out.push(...corpusVmds(p));
    else if (n.toLowerCase().endsWith('.vmd')) out.push(p);
  }
  return out;
}

/**
 * How soon a cancelled batch stops: `batch trim` with 2 workers aborted once 4 files are done, three
 * times; the median and worst ms from abort() to the run's end (the unit test checks only the outcome:
 * stopped early, finished outputs whole, no temp files).
 */
async function cancelLatency(input: string, root: string): Promise<string> {
  const ms: number[] = [];
  for (let round = 0; round < 3; round++) {
    const ac = new AbortController();
    let abortedAt = 0;
    await runBatch(
      { op: 'trim', inputDir: input, outputDir: path.join(root, `cancel-${round}`), options: { from: 20, to: 60 }, recursive: true, jobs: 2 },
      {
        signal: ac.signal,
        onProgress: (p) => {
          if (!abortedAt && p.done >= 4) {
            abortedAt = performance.now();
            ac.abort();
          }
        },
      },
    );
    if (abortedAt) ms.push(performance.now() - abortedAt);
  }
  ms.sort((a, b) => a - b);
  return ms.length ? `batch cancel: stopped ${ms[Math.floor(ms.length / 2)].toFixed(0)} ms after abort (median of ${ms.length}, worst ${ms[ms.length - 1].toFixed(0)} ms)` : 'batch cancel: the runs ended before 4 files were done';
}

export async function benchBatch(
  opts: { files?: number; jobs?: number[]; corpus?: string; log?: (s: string) => void } = {},
): Promise<BatchBenchResult[]> {
  const count = opts.files ?? 500;
  const corpus = opts.corpus ?? CORPUS;
  const log = opts.log ?? ((s: string) => process.stdout.write(s + '\n'));
  const src = corpusVmds(corpus);
  if (src.length === 0) throw new Error(`no .vmd files under ${corpus}`);
  const root = mkdtempSync(path.join(os.tmpdir(), 'vmd-batch-bench-'));
  const results: BatchBenchResult[] = [];
  try {
    const input = path.join(root, 'in');
    let bytes = 0;
    for (let i = 0; i < count; i++) {
      const s = src[i % src.length];
      const sub = path.join(input, String(i % 10));
      mkdirSync(sub, { recursive: true });
      copyFileSync(s, path.join(sub, `${i}-${path.basename(s)}`));
      bytes += statSync(s).size;
    }
    const { findWorkerScript } = await import('../../electron/batch/engine');
    const mode = findWorkerScript() ? 'workers' : 'in-process';
    for (const jobs of opts.jobs ?? [1, 2]) {
      (globalThis as { gc?: () => void }).gc?.();
      let peak = process.memoryUsage().rss;
      const timer = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      const t0 = performance.now();
      const run = await runBatch({ op: 'mirror', inputDir: input, outputDir: path.join(root, `out-${jobs}`), options: {}, recursive: true, jobs });
      const seconds = (performance.now() - t0) / 1000;
      if (!run.ok) throw new Error(`batch job refused: ${run.error.message}`);
      const s = run.value;
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage().rss);
      const r: BatchBenchResult = {
        jobs,
        files: s.total,
        bytes,
        seconds,
        filesPerSecond: s.total / seconds,
        mbPerSecond: bytes / 1e6 / seconds,
        peakRssMb: peak / 1048576,
        failed: s.failed,
        mode,
      };
      results.push(r);
      log(
        `batch mirror ${r.files} files (${(bytes / 1e6).toFixed(1)} MB), --jobs ${jobs} [${mode}]: ${r.seconds.toFixed(2)} s, ` +
          `${r.filesPerSecond.toFixed(0)} files/s, ${r.mbPerSecond.toFixed(1)} MB/s, peak RSS ${r.peakRssMb.toFixed(0)} MB` +
          (r.failed ? `, ${r.failed} FAILED` : ''),
      );
    }
    log(await cancelLatency(input, root));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return results;
}
