/**
 * The batch engine as a job API for the Electron main process (and tests): start(job) → job id,
 * progress events (throttled by the engine to ~10/s), cancel(job id), result(job id).
 * electron/main.ts wires startBatch / cancelBatch / batchProgress / batchDone (shared/ipc/contract.ts)
 * to one instance of this.
 */
import { randomBytes } from 'node:crypto';
import type { BatchJob, BatchProgress, BatchSummary } from '../../shared/batch/types';
import { BatchJobError, runBatch, type RunBatchOptions } from './engine';

interface Running {
  controller: AbortController;
  result: Promise<BatchSummary>;
  finished: boolean;
}

export interface BatchJobEvents {
  onProgress?: (p: BatchProgress) => void;
  onDone?: (s: BatchSummary) => void;
  /** The job could not start (bad options, missing folder); no file was touched. */
  onError?: (jobId: string, e: BatchJobError | Error) => void;
}

export class BatchJobs {
  private jobs = new Map<string, Running>();

  constructor(private readonly engineOptions: Pick<RunBatchOptions, 'workerPath'> = {}) {}

  /** Starts a job in the background and returns its id at once. */
  start(job: BatchJob, events: BatchJobEvents = {}): string {
    const jobId = randomBytes(6).toString('hex');
    const controller = new AbortController();
    const entry: Running = { controller, finished: false, result: Promise.resolve(null as unknown as BatchSummary) };
    entry.result = runBatch(job, { ...this.engineOptions, jobId, signal: controller.signal, onProgress: events.onProgress }).then(
      (s) => {
        entry.finished = true;
        events.onDone?.(s);
        return s;
      },
      (e: Error) => {
        entry.finished = true;
        events.onError?.(jobId, e);
        throw e;
      },
    );
    // A rejected result nobody awaits must not crash the main process.
    entry.result.catch(() => undefined);
    this.jobs.set(jobId, entry);
    return jobId;
  }

  /** Cancels a running job; false when there is no such running job. */
  cancel(jobId: string): boolean {
    const j = this.jobs.get(jobId);
    if (!j || j.finished) return false;
    j.controller.abort();
    return true;
  }

  /** The job's summary once it ends (rejects with BatchJobError when it could not start). */
  result(jobId: string): Promise<BatchSummary> | undefined {
    return this.jobs.get(jobId)?.result;
  }

  /** Cancels everything (app quit). */
  cancelAll(): void {
    for (const id of this.jobs.keys()) this.cancel(id);
  }
}
