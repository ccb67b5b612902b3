/**
 * Runs batch jobs on the batch engine (electron/batch/engine.ts) for the app: one job at a time
 * (the engine already uses every core), progress and completion pushed as events, cancel by job id.
 * The engine is passed in, so tests can run the real one over temp folders or a stub.
 */
import { randomBytes } from 'node:crypto';
import type { BatchJob, BatchProgress, BatchSummary } from '../../shared/batch/types';
import { errValue, okValue, type Events, type IpcResult } from '../../shared/ipc/contract';
import type { CodecError, Outcome } from '../../shared/vmd/errors';

export type RunBatch = (
  job: BatchJob,
  opts: { onProgress?: (p: BatchProgress) => void; signal?: AbortSignal; jobId?: string },
) => Promise<Outcome<BatchSummary>>;

export type Emit = <E extends keyof Events>(event: E, payload: Events[E]) => void;

export interface BatchService {
  start(job: BatchJob): Promise<IpcResult<{ jobId: string }>>;
  cancel(jobId: string): Promise<IpcResult<boolean>>;
  /** Resolves when the running job (if any) has finished; for shutdown and tests. */
  idle(): Promise<void>;
}

export function createBatchService(opts: { runBatch: RunBatch; emit: Emit; progressIntervalMs?: number }): BatchService {
  let running: { jobId: string; controller: AbortController; done: Promise<void> } | null = null;
  const interval = opts.progressIntervalMs ?? 100;
  return {
    async start(job) {
      if (running) return errValue('E_BUSY', `a batch job is already running (${running.jobId})`);
      const jobId = `batch-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
      const controller = new AbortController();
      const started = Date.now();
      let last = 0;
      let pending: BatchProgress | null = null;
      const onProgress = (p: BatchProgress) => {
        // Throttle: a fast job over many small files would otherwise flood the window with events.
        const now = Date.now();
        if (now - last >= interval || p.done === p.total) {
          last = now;
          pending = null;
          opts.emit('batchProgress', { ...p, jobId });
        } else pending = { ...p, jobId };
      };
      const done = (async () => {
        // The engine reports per-file failures in its summary; a job that could not run at all (bad options,
        // a missing folder) is its error value; a throw is a bug, reported as E_INTERNAL.
        const failedJob = (error: CodecError): BatchSummary => ({
          jobId,
          total: 0,
          ok: 0,
          failed: 1,
          skipped: 0,
          cancelled: controller.signal.aborted,
          results: [{ input: job.inputDir, output: null, ok: false, error, ms: 0 }],
          ms: Date.now() - started,
        });
        let summary: BatchSummary;
        try {
          const r = await opts.runBatch(job, { onProgress, signal: controller.signal, jobId });
          summary = r.ok ? r.value : failedJob(r.error);
        } catch (e) {
          summary = failedJob({ code: 'E_INTERNAL', message: (e as Error)?.message ?? String(e) });
        }
        if (pending) opts.emit('batchProgress', pending);
        running = null;
        opts.emit('batchDone', { ...summary, jobId });
      })();
      running = { jobId, controller, done };
      return okValue({ jobId });
    },
    async cancel(jobId) {
      if (!running || running.jobId !== jobId) return okValue(false);
      running.controller.abort();
      return okValue(true);
    },
    async idle() {
      await running?.done;
    },
  };
}
