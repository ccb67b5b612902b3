/**
 * One batch task: read one input file, run the prepared operation, write the output atomically.
 * Runs inside a worker thread (batch-worker.ts) or, when the worker bundle is missing, in the main
 * thread. Never throws: every outcome is a TaskResult.
 */
import path from 'node:path';
import { promises as fsp } from 'node:fs';
import { atomicWrite, ensureFolder, isReadOnlyFile, OUTPUT_EXISTS_MESSAGE, pathExists, readInputBytes, readOnlyError, sameFile } from '../fs/files';
import type { CodecError, Outcome } from '../../shared/vmd/errors';
import { MAX_MOTION_FILE_BYTES } from '../../shared/ipc/validate';
import type { FileDone } from '../../shared/batch/types';
import type { PreparedOp } from './ops';

export interface TaskSpec {
  id: number;
  input: string;
  output: string;
  overwrite: boolean;
  dryRun: boolean;
  /** Temp path for the write (the engine picks it, so it can remove it if it must stop this task). */
  temp?: string;
}

/** One task's outcome, with its id, the bytes it read and its time. */
export type TaskResult = { id: number; bytesIn: number; ms: number } & Outcome<FileDone>;

export async function runTask(prepared: PreparedOp, t: TaskSpec): Promise<TaskResult> {
  const t0 = performance.now();
  const ms = () => Math.round((performance.now() - t0) * 100) / 100;
  const done = (value: FileDone, bytesIn: number): TaskResult => ({ id: t.id, ms: ms(), bytesIn, ok: true, value });
  const failed = (error: CodecError, bytesIn: number): TaskResult => ({ id: t.id, ms: ms(), bytesIn, ok: false, error });
  if (!t.overwrite && (await pathExists(t.output))) {
    return done({ skipped: true, report: { skipped: OUTPUT_EXISTS_MESSAGE } }, 0);
  }
  // --overwrite replaces what may be replaced: a read-only output fails this file, said before the work (a dry
  // run too); the write checks again. A link there is replaced, not written through, so only a file counts; an
  // output that reaches the input (a folder link on the way) is said as that, below.
  const there = t.overwrite ? await fsp.lstat(t.output).catch(() => null) : null;
  if (there?.isFile() && (await isReadOnlyFile(t.output, there.mode)) && !(await sameFile(t.input, t.output))) return failed(readOnlyError(t.output), 0);
  // A regular file of at most a motion's size: a FIFO or a link to /dev/zero fails this file, unread.
  const r = await readInputBytes(t.input, { maxBytes: MAX_MOTION_FILE_BYTES });
  if (!r.ok) return failed({ ...r.error, file: t.input }, 0);
  const bytesIn = r.value.byteLength;
  let out;
  try {
    out = await prepared.run(r.value, path.extname(t.input).toLowerCase(), path.basename(t.input));
  } catch (e) {
    return failed({ code: 'E_INTERNAL', message: (e as Error)?.message ?? String(e), file: t.input }, bytesIn);
  }
  if (!out.ok) return failed({ ...out.error, file: t.input }, bytesIn);
  if (t.dryRun) return done({ skipped: true, report: { ...out.value.report, dryRun: true, bytesOut: out.value.bytes.byteLength } }, bytesIn);
  const dir = await ensureFolder(path.dirname(t.output));
  if (!dir.ok) return failed({ ...dir.error, file: t.output }, bytesIn);
  // The engine swept the output folders once when the run started. A link in the output tree is
  // replaced, not written through (the run writes only inside its output folder).
  // An output path that reaches the input (a folder link inside the output tree): never replace an input.
  if (await sameFile(t.input, t.output)) return failed({ code: 'E_ARGUMENT', message: 'the output is the input file itself (through a link); inputs are never modified', file: t.output }, bytesIn);
  const w = await atomicWrite(t.output, out.value.bytes, { overwrite: t.overwrite, keepReadOnly: true, sweep: false, tempPath: t.temp, followLinks: false });
  if (!w.ok) {
    if (w.error.code === 'E_IO_EXISTS') return done({ skipped: true, report: { skipped: OUTPUT_EXISTS_MESSAGE } }, bytesIn);
    return failed(w.error, bytesIn);
  }
  return done({ report: { ...out.value.report, bytesOut: out.value.bytes.byteLength } }, bytesIn);
}
