/**
 * Motion capture in the editor: importMocap (a BVH or VRM Animation's bytes onto a model → VMD bytes,
 * report and map table), cancelMocap, exportMocap (a VMD's bytes on a model → .vrma or .bvh, written
 * atomically where the person chose), and the map files the import dialog loads and saves (readMapFile,
 * saveMapFile: the CLI's --map format, CSV or JSON).
 *
 * A conversion takes seconds (a 120 fps capture is retargeted frame by frame and fitted), so it runs in a
 * worker thread (dist/cli/mocap-worker.mjs), one per job: main's event loop keeps answering, and Cancel
 * terminates the worker; its fit's progress (tracks done of total) is pushed as `mocapProgress` events.
 * Without the bundle (tests on sources) it runs in process, same results.
 * The model is read here from its path (the access list has checked it was chosen); the source's bytes
 * come from the renderer, which read them through openFile or a drop.
 */
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { errValue, okValue, type IpcResult, type SavedFile, type SaveOptions, type OpenedFile } from '../../shared/ipc/contract';
import { MAP_EXTENSIONS, MODEL_EXTENSIONS } from '../../shared/ipc/file-types';
import type { MocapExportJob, MocapExportNotes, MocapImportJob, MocapImportResult } from '../../shared/ipc/mocap-types';
import { atomicWrite } from '../fs/files';
import { findWorkerScript } from '../batch/engine';
import { runRequest, type MocapExportResult, type MocapWorkerMessage, type MocapWorkerReply, type MocapWorkerRequest } from '../mocap/mocap-task';
import type { Emit } from './batch-service';
import { readChecked } from './file-io';
import { MAX_READ_BYTES } from './file-service';

/** A map file is a few dozen rows; 4 MiB is far more than any. */
export const MAX_MAP_FILE_BYTES = 4 * 1024 * 1024;

export interface MocapService {
  importMocap(job: MocapImportJob): Promise<IpcResult<MocapImportResult>>;
  /** value: whether a running job of that id was found and stopped (it then answers E_CANCELLED). */
  cancelMocap(id: string): Promise<IpcResult<boolean>>;
  exportMocap(file: string, job: MocapExportJob, opts?: SaveOptions): Promise<IpcResult<SavedFile & MocapExportNotes>>;
  readMapFile(file: string): Promise<IpcResult<OpenedFile>>;
  saveMapFile(file: string, bytes: Uint8Array, opts?: SaveOptions): Promise<IpcResult<SavedFile>>;
}

export interface MocapServiceOptions {
  /** Worker script; null runs in process; undefined looks for the bundle. */
  workerPath?: string | null;
  /** Pushes `mocapProgress` (an import's fit: tracks done of total) to the window or the browsers. */
  emit?: Emit;
  /** Least time between two progress events of one job (the last is always sent); default 100 ms. */
  progressIntervalMs?: number;
}

export function createMocapService(o: MocapServiceOptions = {}): MocapService {
  const script = o.workerPath === null ? null : (o.workerPath ?? findWorkerScript('mocap-worker.mjs'));
  /** Running jobs: how to stop each. */
  const running = new Map<string, () => void>();

  const interval = o.progressIntervalMs ?? 100;
  /** Progress of job `id`, throttled: at most one event per interval, and always the last (done = total). */
  function progressOf(id: string): (done: number, total: number) => void {
    let last = 0;
    return (done, total) => {
      const now = Date.now();
      if (done < total && now - last < interval) return;
      last = now;
      o.emit?.('mocapProgress', { id, done, total });
    };
  }

  /** Runs one request in its own worker (or in process), cancellable by its job id. */
  function run(req: MocapWorkerRequest): Promise<MocapWorkerReply> {
    const id = req.job.id;
    const progress = progressOf(id);
    if (running.has(id)) return Promise.resolve({ ok: false, error: { code: 'E_ARGUMENT', message: `a mocap job "${id}" is already running` } });
    const cancelled: MocapWorkerReply = { ok: false, error: { code: 'E_CANCELLED', message: 'cancelled' } };
    if (!script) {
      // In process: nothing can interrupt it, but a cancel still answers E_CANCELLED.
      let stopped = false;
      running.set(id, () => (stopped = true));
      return runRequest(req, progress)
        .then((r) => (stopped ? cancelled : r))
        .finally(() => running.delete(id));
    }
    return new Promise<MocapWorkerReply>((resolve) => {
      const w = new Worker(script, { execArgv: [] });
      let done = false;
      const finish = (r: MocapWorkerReply) => {
        if (done) return;
        done = true;
        running.delete(id);
        void w.terminate();
        resolve(r);
      };
      running.set(id, () => finish(cancelled));
      w.on('message', (m: MocapWorkerMessage) => (m.kind === 'progress' ? progress(m.done, m.total) : finish(m.reply)));
      w.once('error', (e) => finish({ ok: false, error: { code: 'E_INTERNAL', message: `the conversion failed: ${e?.message ?? e}` } }));
      w.once('exit', (code) => finish({ ok: false, error: { code: 'E_INTERNAL', message: `the conversion's worker stopped (exit code ${code})` } }));
      w.postMessage(req);
    });
  }

  const readModelBytes = (file: string) => readChecked(file, MODEL_EXTENSIONS, 'a model file', MAX_READ_BYTES);
  /** A job's model bytes; null for the standard skeleton (model null), which the worker makes itself. */
  const jobModel = async (file: string | null) => {
    if (file === null) return okValue<Uint8Array | null>(null);
    const m = await readModelBytes(file);
    return m.ok ? okValue<Uint8Array | null>(m.value.bytes) : m;
  };

  return {
    async importMocap(job) {
      // A dropped model's bytes come with the job (there is no path to read); the worker gets them once.
      const { modelBytes, ...rest } = job;
      const model = modelBytes !== undefined ? okValue<Uint8Array | null>(modelBytes) : await jobModel(job.model);
      if (!model.ok) return model;
      const r = await run({ kind: 'import', job: rest, model: model.value });
      return r.ok ? okValue(r.value as MocapImportResult) : r;
    },

    async cancelMocap(id) {
      const stop = running.get(id);
      stop?.();
      return okValue(!!stop);
    },

    async exportMocap(file, job, opts = {}) {
      const abs = path.resolve(file);
      const ext = `.${job.format}`;
      if (path.extname(abs).toLowerCase() !== ext) return errValue('E_UNSUPPORTED', `save as ${ext}: ${path.basename(abs)}`, { file: abs });
      const model = await jobModel(job.model);
      if (!model.ok) return model;
      const r = await run({ kind: 'export', job, model: model.value });
      if (!r.ok) return r;
      const { bytes, leftOutBones, unusedMorphs } = r.value as MocapExportResult;
      const w = await atomicWrite(abs, bytes, { overwrite: opts.overwrite ?? false });
      if (!w.ok) return w;
      return okValue({ path: abs, bytesWritten: bytes.byteLength, backupPath: null, leftOutBones, unusedMorphs });
    },

    readMapFile: (file) => readChecked(file, MAP_EXTENSIONS, 'a map file', MAX_MAP_FILE_BYTES),

    async saveMapFile(file, bytes, opts = {}) {
      const abs = path.resolve(file);
      if (!MAP_EXTENSIONS.includes(path.extname(abs).toLowerCase() as (typeof MAP_EXTENSIONS)[number])) {
        return errValue('E_UNSUPPORTED', `save a map as .csv or .json: ${path.basename(abs)}`, { file: abs });
      }
      const w = await atomicWrite(abs, bytes, { overwrite: opts.overwrite ?? false });
      if (!w.ok) return w;
      return okValue({ path: abs, bytesWritten: bytes.byteLength, backupPath: null });
    },
  };
}
