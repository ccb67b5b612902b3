/**
 * One batch task: read one input file, run the prepared operation, write the output atomically.
 * Runs inside a worker thread (batch-worker.ts) or, when the worker bundle is missing, in the main
 * thread. Never throws: every outcome is a TaskResult.
 */
import path from 'node:path';
import { atomicWrite, ensureFolder, OUTPUT_EXISTS_MESSAGE, pathExists, readInputBytes, sameFile } from '../fs/files';
import type { CodecError } from '../../shared/vmd/errors';
import { MAX_MOTION_FILE_BYTES } from '../../shared/ipc/validate';
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

export interface TaskResult {
  id: number;
  ok: boolean;
  skipped?: boolean;
  error?: CodecError;
  report?: Record<string, unknown>;
  bytesIn: number;
  ms: number;
}

export async function runTask(prepared: PreparedOp, t: TaskSpec): Promise<TaskResult> {
  const t0 = performance.now();
  const done = (r: Omit<TaskResult, 'id' | 'ms'>): TaskResult => ({ id: t.id, ms: Math.round((performance.now() - t0) * 100) / 100, ...r });
  if (!t.overwrite && (await pathExists(t.output))) {
    return done({ ok: true, skipped: true, bytesIn: 0, report: { skipped: OUTPUT_EXISTS_MESSAGE } });
  }
  // A regular file of at most a motion's size: a FIFO or a link to /dev/zero fails this file, unread.
  const r = await readInputBytes(t.input, { maxBytes: MAX_MOTION_FILE_BYTES });
  if (!r.ok) return done({ ok: false, error: { ...r.error, file: t.input }, bytesIn: 0 });
  const bytesIn = r.value.byteLength;
  let out;
  try {
    out = prepared.run(r.value, path.extname(t.input).toLowerCase());
  } catch (e) {
    return done({ ok: false, error: { code: 'E_INTERNAL', message: (e as Error)?.message ?? String(e), file: t.input }, bytesIn });
  }
  if (!out.ok) return done({ ok: false, error: { ...out.error, file: t.input }, bytesIn });
  if (t.dryRun) return done({ ok: true, skipped: true, bytesIn, report: { ...out.value.report, dryRun: true, bytesOut: out.value.bytes.byteLength } });
  const dir = await ensureFolder(path.dirname(t.output));
  if (!dir.ok) return done({ ok: false, error: { ...dir.error, file: t.output }, bytesIn });
  // The engine swept the output folders once when the run started. A link in the output tree is
  // replaced, not written through (the run writes only inside its output folder).
  // An output path that reaches the input (a folder link inside the output tree): never replace an input.
  if (await sameFile(t.input, t.output)) return done({ ok: false, error: { code: 'E_ARGUMENT', message: 'the output is the input file itself (through a link); inputs are never modified', file: t.output }, bytesIn });
  const w = await atomicWrite(t.output, out.value.bytes, { overwrite: t.overwrite, sweep: false, tempPath: t.temp, followLinks: false });
  if (!w.ok) {
    if (w.error.code === 'E_IO_EXISTS') return done({ ok: true, skipped: true, bytesIn, report: { skipped: OUTPUT_EXISTS_MESSAGE } });
    return done({ ok: false, error: w.error, bytesIn });
  }
  return done({ ok: true, bytesIn, report: { ...out.value.report, bytesOut: out.value.bytes.byteLength } });
}
