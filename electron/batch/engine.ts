/**
 * The batch engine: applies one operation to every .vmd/.vpd under a folder, writing a mirrored tree.
 *
 * - A pool of worker threads (`jobs`, default CPU count, at most MAX_BATCH_JOBS), one file per task. A worker gets its next file
 *   only after answering the last, so at most `jobs` files are in memory at once: memory stays flat
 *   whatever the folder size. Workers read and write the files themselves; only paths and small
 *   reports cross threads.
 * - Worker script: dist/cli/batch-worker.mjs (built by build/build-node.mjs). It is looked up next to
 *   this module once bundled (dist/cli, dist/electron, dist/bench) and relative to the repository root
 *   when this file runs from TypeScript sources (vitest); `opts.workerPath` overrides. When no bundle
 *   is found (or workerPath is null) the same tasks run in the main thread instead, still `jobs` at a
 *   time (file I/O overlaps, the edits do not) — slower, same results.
 * - Inputs are never written; an existing output is skipped unless `overwrite`; every write is a temp
 *   file + rename (electron/fs/files.ts atomicWrite). One bad file is a failed result, never a stop.
 * - Progress events at most every 100 ms (plus the first and the last).
 * - Cancellation (AbortSignal): no new files start; files in flight get up to 600 ms to finish, then
 *   their workers are terminated and any temp file they left is removed. Outputs already renamed into
 *   place stay; no partial file is ever visible under an output name.
 * - A job that cannot run at all (bad options, a missing input folder, output = input, a map that is not
 *   a .csv/.json file) is `{ ok: false, error }` before any file is touched; per-file failures are results
 *   in the summary. Only a bug throws.
 * - A run killed outright (SIGKILL, power loss) leaves temps; the next run sweeps the stale ones from
 *   the folders it writes before it starts (electron/fs/temp-files.ts says which count as stale).
 */
import { Worker } from 'node:worker_threads';
import { existsSync, promises as fsp, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { holdTemp, listMotionFiles, MOTION_EXTENSIONS, notRegularFileError, readBytes, releaseTemp, sameFile } from '../fs/files';
import { sweepStaleTemps, tempPathFor } from '../fs/temp-files';
import { MAX_BATCH_JOBS, type BatchFileResult, type BatchJob, type BatchProgress, type BatchSummary } from '../../shared/batch/types';
import type { CodecError, Outcome } from '../../shared/vmd/errors';
import { mappingFormatOf, type OpOptions } from '../../shared/batch/doc-edits';
import { optionError } from '../../shared/batch/options';
import { prepareOp, type PreparedOp } from './ops';
import { runTask, type TaskResult, type TaskSpec } from './task';

export interface RunBatchOptions {
  onProgress?: (p: BatchProgress) => void;
  signal?: AbortSignal;
  jobId?: string;
  /** Worker script path; null forces in-process; undefined looks for the bundle. */
  workerPath?: string | null;
  /** Called once per finished file (the CLI prints failures as they happen). */
  onResult?: (r: BatchFileResult) => void;
}

const here = ((): string => {
  try {
    return path.dirname(fileURLToPath(import.meta.url));
  } catch {
    return typeof __dirname === 'string' ? __dirname : process.cwd();
  }
})();

/** Where a bundled worker of dist/cli is (the batch's by default; the mocap service's is mocap-worker.mjs), or null. */
export function findWorkerScript(name = 'batch-worker.mjs'): string | null {
  const candidates = [
    path.join(here, name),
    path.join(here, '../cli', name),
    path.join(here, '../../dist/cli', name),
    path.join(process.cwd(), 'dist/cli', name),
  ];
  for (const c of candidates) {
    // In a packaged app the bundle sits in app.asar, which worker threads cannot load from;
    // electron-builder.yml unpacks dist/cli next to it (asarUnpack).
    const unpacked = c.replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');
    if (unpacked !== c && existsSync(unpacked)) return unpacked;
    if (existsSync(c)) return c;
  }
  return null;
}

export function defaultJobs(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length || 1;
}

/**
 * How many workers a run of `files` files starts for `requested` (default the CPU count): never more than
 * files, nor than MAX_BATCH_JOBS (`--jobs 100000` on 2,000 files was one worker per file, 26 GB).
 */
export function workerCount(requested: number | undefined, files: number): number {
  return Math.max(1, Math.min(requested ?? defaultJobs(), MAX_BATCH_JOBS, Math.max(files, 1)));
}

/**
 * Paths in the order listMotionFiles walks them: folder by folder, each folder's entries by their names' code
 * units (a path compared as one string would put `a b/x.vmd` before `a/x.vmd`, which the walk lists after).
 */
export function compareInputPaths(a: string, b: string): number {
  const x = a.split(/[\\/]/), y = b.split(/[\\/]/);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return x.length - y.length;
}

function isInside(child: string, parent: string): boolean {
  const r = path.relative(parent, child);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
}

/** A listed file's path under its folder without its extension: an output's name for any operation. */
const stemOf = (rel: string) => rel.slice(0, rel.length - path.extname(rel).length);

/**
 * The sub-folders of the input that hold an earlier run's outputs, when the output folder is inside the input
 * folder (モーション集 → モーション集/反転済み, then → モーション集/反転済み2 with sub-folders: the second run
 * must not mirror 反転済み/*.vmd again). No marker is written, so an earlier output folder is known by its
 * shape: a sibling of the output folder (another folder in the same parent, inside the input) whose every
 * listed file has a same-named file (extension aside: export-bvh writes .bvh) at the same place under the
 * input folder, outside the output folder — as a run's outputs mirror its inputs (an earlier output's own
 * earlier outputs, 反転済み2/反転済み/…, have theirs under 反転済み). A folder
 * with even one file of its own is not one, and its files are processed. Absolute paths, sorted.
 */
export function earlierOutputFolders(listed: readonly { path: string; relative: string }[], inputDir: string, outputDir: string): string[] {
  const outRel = path.relative(inputDir, outputDir);
  if (!outRel || outRel.startsWith('..') || path.isAbsolute(outRel)) return [];
  const parent = path.dirname(outRel) === '.' ? '' : path.dirname(outRel);
  const prefix = parent ? parent + path.sep : '';
  const bySibling = new Map<string, string[]>(); // sibling folder (relative) -> its files' paths under it
  for (const f of listed) {
    if (!f.relative.startsWith(prefix)) continue;
    const rest = f.relative.slice(prefix.length);
    const cut = rest.indexOf(path.sep);
    if (cut <= 0) continue; // a file of the parent itself
    const sib = prefix + rest.slice(0, cut);
    if (sib === outRel) continue;
    bySibling.get(sib)?.push(rest.slice(cut + 1)) ?? bySibling.set(sib, [rest.slice(cut + 1)]);
  }
  if (!bySibling.size) return [];
  const under = (rel: string, dir: string) => rel.startsWith(dir + path.sep);
  const stems = new Set(listed.filter((f) => !under(f.relative, outRel)).map((f) => stemOf(f.relative)));
  return [...bySibling]
    .filter(([sib, inner]) => inner.every((r) => stems.has(stemOf(r)) && !under(r, sib)))
    .map(([sib]) => path.join(inputDir, sib))
    .sort();
}

/** A name mapping of a million lines is a few tens of MB; anything larger is not one. */
export const MAX_MAP_BYTES = 64 * 1024 * 1024;

/** Resolves the op's options that need the file system (rename's and retarget's mapping file; retarget's models are read in ops.ts). */
async function resolveOptions(job: BatchJob): Promise<Outcome<OpOptions>> {
  const options: OpOptions = { ...job.options };
  if ((job.op === 'rename' || job.op === 'retarget') && options.mapText === undefined && typeof options.map === 'string') {
    const refused = (error: CodecError): Outcome<OpOptions> => ({ ok: false, error });
    // Only a .csv or .json file is read as a map: never any other file a job names.
    if (mappingFormatOf(options.map) === null) return refused({ ...optionError('map', 'mapFormat'), file: options.map });
    // A plain file of a mapping's size, not a device or a disk image that happens to end in .csv.
    const st = await fsp.stat(options.map).catch(() => null);
    if (st && (!st.isFile() || st.size > MAX_MAP_BYTES)) {
      return refused({ code: 'E_ARGUMENT', message: `mapping file: ${st.isFile() ? `larger than ${MAX_MAP_BYTES} bytes` : notRegularFileError(options.map, st).message}`, file: options.map });
    }
    const r = await readBytes(options.map, { maxBytes: MAX_MAP_BYTES });
    if (!r.ok) return refused({ ...r.error, message: `mapping file: ${r.error.message}` });
    options.mapText = new TextDecoder('utf-8').decode(r.value);
  }
  return { ok: true, value: options };
}

interface Slot {
  run(t: TaskSpec): Promise<TaskResult>;
  /** Stops the slot at once (terminates its worker); a task in flight ends as E_CANCELLED. */
  stop(): Promise<void>;
}

/**
 * A worker thread running one task at a time. A worker that dies (crash, out of memory) fails only
 * the file it was on and is replaced for the next file, up to 3 times.
 */
function workerSlot(script: string, op: BatchJob['op'], options: OpOptions): Slot {
  let respawns = 0;
  let w: Worker;
  let pending: { resolve: (r: TaskResult) => void; t: TaskSpec } | null = null;
  let dead: Error | null = null;
  let closing = false;
  const spawn = () => {
    dead = null;
    // Workers get no Node flags of the main process: several (--input-type, --expose-gc, -e) make
    // `new Worker` throw or break the worker script, and none is needed by a task.
    w = new Worker(script, { workerData: { op, options }, execArgv: [] });
    w.on('message', (r: TaskResult) => {
      const p = pending;
      pending = null;
      p?.resolve(r);
    });
    const fail = (e: Error) => {
      if (dead) return;
      dead = e;
      const p = pending;
      pending = null;
      const error = closing ? { code: 'E_CANCELLED' as const, message: 'worker stopped: cancelled', file: p?.t.input } : { code: 'E_INTERNAL' as const, message: `worker stopped: ${e.message}`, file: p?.t.input };
      p?.resolve({ id: p.t.id, bytesIn: 0, ms: 0, ok: false, error });
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`exit code ${code}`)));
  };
  spawn();
  return {
    run(t) {
      if (dead && !closing && respawns < 3) {
        respawns++;
        spawn();
      }
      if (dead) return Promise.resolve({ id: t.id, bytesIn: 0, ms: 0, ok: false, error: { code: 'E_INTERNAL', message: `worker stopped: ${(dead as Error).message}`, file: t.input } });
      return new Promise((resolve) => {
        pending = { resolve, t };
        w.postMessage(t);
      });
    },
    async stop() {
      closing = true;
      await w.terminate();
    },
  };
}

function inProcessSlot(prepared: PreparedOp): Slot {
  return {
    run: (t) => runTask(prepared, t),
    async stop() {},
  };
}

/**
 * Runs a batch job to the end (or until cancelled) and returns its summary of per-file results, or the
 * error that kept the job from starting (no file touched; exit status 2 on the CLI).
 */
export async function runBatch(job: BatchJob, opts: RunBatchOptions = {}): Promise<Outcome<BatchSummary>> {
  const t0 = performance.now();
  const runStartedAt = Date.now();
  const jobId = opts.jobId ?? randomBytes(6).toString('hex');
  const inputDir = path.resolve(job.inputDir);
  const outputDir = path.resolve(job.outputDir);
  const refused = (error: CodecError): Outcome<BatchSummary> => ({ ok: false, error });
  const o = await resolveOptions(job);
  if (!o.ok) return refused(o.error);
  const p = prepareOp(job.op, o.value);
  if (!p.ok) return refused(p.error);
  const prepared: PreparedOp = p.value;
  const options = o.value;
  // Also through a link (an output folder that links to the input folder).
  if (await sameFile(inputDir, outputDir)) return refused({ code: 'E_ARGUMENT', message: 'the output folder must differ from the input folder (inputs are never modified)' });
  const st = await fsp.stat(inputDir).catch(() => null);
  // The message leaves the path to `file`, which the caller shows as the user gave it.
  if (!st) return refused({ code: 'E_IO_NOT_FOUND', message: 'input folder not found', file: inputDir });
  if (!st.isDirectory()) return refused({ code: 'E_ARGUMENT', message: 'not a folder', file: inputDir });

  // Every motion and pose is listed: those the operation does not take (a pose for an edit of motions)
  // are counted in the summary rather than passed over without a word.
  // (import-bvh takes .bvh files: listed besides the motions.)
  const listed = await listMotionFiles([inputDir], { recursive: job.recursive, extensions: [...new Set([...MOTION_EXTENSIONS, ...prepared.inputExtensions])] });
  const takes = (f: { path: string }) => prepared.inputExtensions.includes(path.extname(f.path).toLowerCase());
  // With the output inside the input tree, never read back what this or an earlier run wrote: the output
  // folder, and its siblings that hold an earlier run's outputs (earlierOutputFolders).
  const earlier = job.recursive ? earlierOutputFolders(listed.files, inputDir, outputDir) : [];
  const leftOut = (f: { path: string }) => isInside(f.path, outputDir) || earlier.some((d) => isInside(f.path, d));
  const inTree = listed.files.filter((f) => !leftOut(f));
  const files = inTree.filter(takes);
  const notTakenFiles = inTree.filter((f) => !takes(f)).map((f) => f.path);
  const notTaken = notTakenFiles.length;
  // Not recursive: the files in sub-folders this run would have taken are counted, so that a summary can say
  // they were left out and how to include them (the app's Batch includes sub-folders by default, the CLI not).
  let inSubfolders = 0;
  if (!job.recursive) {
    const deep = await listMotionFiles([inputDir], { recursive: true, extensions: prepared.inputExtensions });
    inSubfolders = deep.files.filter((f) => !leftOut(f) && takes(f)).length - files.length;
  }
  const results: BatchFileResult[] = [];
  const total = files.length + listed.errors.length;
  const bytesTotal = files.reduce((s, f) => s + f.size, 0);
  let done = 0, failed = 0, bytesDone = 0;
  let current: string | null = null;
  // Files being processed now (task id -> input), several at once with several workers: the progress names the
  // latest and counts the others, and names none once they are all done (12/12 said "processing: その9.vmd").
  const running = new Map<number, string>();
  let lastEmit = 0;
  const emit = (force = false) => {
    if (!opts.onProgress) return;
    const now = performance.now();
    if (!force && now - lastEmit < 100) return;
    lastEmit = now;
    opts.onProgress({ jobId, done, total, failed, currentFile: current, running: running.size, bytesDone, bytesTotal, elapsedMs: Math.round(now - t0) });
  };
  const record = (r: BatchFileResult) => {
    results.push(r);
    done++;
    if (!r.ok) failed++;
    opts.onResult?.(r);
  };
  emit(true);
  for (const e of listed.errors) record({ input: e.file ?? inputDir, output: null, ms: 0, ok: false, error: e });

  const outputFor = (rel: string) => {
    const ext = path.extname(rel);
    return path.join(outputDir, rel.slice(0, rel.length - ext.length) + prepared.outputExtension(ext.toLowerCase()));
  };

  // Temps a killed earlier run left in the folders this run writes (temp-files.ts: which are stale).
  if (!job.dryRun && !opts.signal?.aborted) await sweepStaleTemps(new Set(files.map((f) => path.dirname(outputFor(f.relative)))), { startedAt: runStartedAt });

  const jobs = workerCount(job.jobs, files.length);
  const script = opts.workerPath === null ? null : (opts.workerPath ?? findWorkerScript());
  const signal = opts.signal;
  let cancelled = signal?.aborted ?? false;
  const slots: Slot[] = [];
  if (!cancelled && files.length) {
    for (let i = 0; i < jobs; i++) slots.push(script ? workerSlot(script, job.op, options) : inProcessSlot(prepared));
  }
  const inFlight = new Map<number, string>(); // task id -> its temp path
  let next = 0;

  const worker = async (slot: Slot) => {
    while (!cancelled && next < files.length) {
      const i = next++;
      const f = files[i];
      const output = outputFor(f.relative);
      running.set(i, f.path);
      current = f.path;
      if (path.resolve(output) === path.resolve(f.path)) {
        running.delete(i);
        current = [...running.values()].pop() ?? null;
        record({ input: f.path, output, ms: 0, ok: false, error: { code: 'E_ARGUMENT', message: 'output would replace the input', file: f.path } });
        continue;
      }
      // The temp is held by this thread too: if the worker has to be stopped, or this process exits on
      // a second Ctrl-C, it is removed here (a worker's own exit handlers do not run on terminate()).
      const temp = tempPathFor(output);
      inFlight.set(i, temp);
      holdTemp(temp);
      const r = await slot.run({ id: i, input: f.path, output, overwrite: !!job.overwrite, dryRun: !!job.dryRun, temp });
      inFlight.delete(i);
      releaseTemp(temp);
      if (!r.ok && r.error.code === 'E_CANCELLED') break;
      running.delete(i);
      current = [...running.values()].pop() ?? null;
      bytesDone += f.size;
      record(r.ok ? { input: f.path, output, ms: r.ms, ok: true, value: r.value } : { input: f.path, output: null, ms: r.ms, ok: false, error: r.error });
      emit();
    }
  };

  let onAbort: (() => void) | null = null;
  const aborted = new Promise<void>((resolve) => {
    if (!signal) return;
    onAbort = () => {
      cancelled = true;
      resolve();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });

  const all = Promise.all(slots.map(worker));
  await Promise.race([all, aborted]);
  if (cancelled) {
    // Let files in flight finish briefly, then stop their workers and sweep their temps.
    const grace = new Promise((r) => setTimeout(r, 600));
    await Promise.race([all, grace]);
    const stuck = [...inFlight.values()];
    await Promise.all(slots.map((s) => s.stop()));
    for (const temp of stuck) {
      try {
        unlinkSync(temp);
      } catch {
        /* never created, or renamed into place */
      }
      releaseTemp(temp);
    }
  }
  if (!cancelled) await Promise.all(slots.map((s) => s.stop()));
  if (signal && onAbort) signal.removeEventListener('abort', onAbort);
  current = null;
  emit(true);
  // The summary's rows in input-path order, as the listing gave the files (and inspect says them), not in the
  // order workers finished them: with --jobs 4 that order differed from run to run, so two reports of the same
  // folder differed in more than their results. (onResult above still says each file as it finishes.)
  results.sort((a, b) => compareInputPaths(a.input, b.input));
  const ok = results.filter((r) => r.ok && !r.value.skipped).length;
  const skipped = results.filter((r) => r.ok && r.value.skipped).length;
  return { ok: true, value: { jobId, total, ok, failed, skipped, cancelled, results, ms: Math.round(performance.now() - t0), ...(job.dryRun ? { dryRun: true } : {}), ...(notTaken ? { notTaken, notTakenFiles } : {}), ...(inSubfolders > 0 ? { inSubfolders } : {}), ...(earlier.length ? { earlierOutputs: earlier } : {}) } };
}
