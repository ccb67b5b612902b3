/**
 * Runs a fitting edit (Reduce, Bake, Speed with refit; Simplify on selected keys, `runSimplify`) off the UI thread: in the fitting worker
 * (fit.worker.ts, messages in fit-protocol.ts), with its progress track by track and Cancel (the worker
 * is terminated; the next run makes a new one). Where no worker can be made or it fails to start (a
 * page from file:// may refuse module workers; `?fitWorker=off` forces it, for tests and measurement),
 * the same edit runs on the main thread as before, so nothing is lost but the responsiveness.
 */
import type { OpOptions } from '../../../shared/batch/options';
import type { EditedMotion } from '../../../shared/edit-core/report';
import { failure, success } from '../../../shared/vmd/errors';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { writeVmd } from '../../../shared/vmd/vmd-writer';
import type { Tolerances } from '../../../shared/fit/motion-fit';
import type { SelectedKey } from '../../../shared/fit/simplify';
import type { FitMessage, FitOp, FitRequest, FitTask } from './fit-protocol';
import { taskEdit } from './fit-worker-core';
import { JobClient, workerOff, type JobRunCounts, type JobVia, type JobWorkerLike, type RunOutcome } from '../workers/job-client';

export type { FitOp } from './fit-protocol';

/** A fit's success: the edited motion and its report, and where it ran. */
export type FittedMotion = EditedMotion & { via: JobVia };

/** A run's outcome: see `RunOutcome`. */
export type FitOutcome = RunOutcome<EditedMotion>;

export type FitProgressListener = (done: number, total: number) => void;

/** The part of a Worker the client uses (tests give a fake). */
export type FitWorkerLike = JobWorkerLike<FitRequest, FitMessage>;

/** Makes a worker, or null where there is none to make; may throw (a refused worker). */
export type FitWorkerFactory = () => FitWorkerLike | null;

/** The fitting worker, unless the page has no Worker or says `?fitWorker=off`. */
export function defaultFitWorker(): FitWorkerLike | null {
  if (workerOff('fitWorker')) return null;
  return new Worker(new URL('./fit.worker.ts', import.meta.url), { type: 'module' }) as unknown as FitWorkerLike;
}

/** Counts of runs by where they ran (the e2e hook reads them: Apply after Preview must not run again). */
export type FitRunCounts = JobRunCounts;

type FitDone = Omit<Extract<FitMessage, { type: 'done' }>, 'type' | 'id'>;

export class FitClient {
  private readonly jobs: JobClient<FitRequest, FitDone, FitOutcome>;

  constructor(makeWorker: FitWorkerFactory = defaultFitWorker) {
    this.jobs = new JobClient(makeWorker, 'the fitting worker');
  }

  get counts(): FitRunCounts {
    return this.jobs.counts;
  }

  /**
   * Runs `op` with `options` on `doc`; `onProgress(done, total)` hears the tracks fitted. Aborting
   * `signal` terminates the worker and resolves as cancelled (on the main thread the run cannot be
   * stopped: its result is dropped). One run at a time: a second run while one goes cancels the first.
   */
  run(op: FitOp, options: OpOptions, doc: VmdDocument, onProgress?: FitProgressListener, signal?: AbortSignal): Promise<FitOutcome> {
    return this.runTask({ op, options: { ...options } }, doc, onProgress, signal);
  }

  /**
   * Simplify on `keys` of `doc` with these tolerances (renderer/src/fit/simplify-edit.ts: the edit and
   * its errors played back over the selected tracks and span, in the report), as `run` does it.
   */
  runSimplify(keys: readonly SelectedKey[], tol: Partial<Tolerances>, doc: VmdDocument, onProgress?: FitProgressListener, signal?: AbortSignal): Promise<FitOutcome> {
    const plain = keys.map((k) => ({ kind: k.kind, record: k.record }));
    return this.runTask({ op: 'simplify', keys: plain, tol: { ...tol } }, doc, onProgress, signal);
  }

  /** Terminates the worker, if any: a running fit stops and resolves as cancelled; the next run makes a new one. */
  stop(): void {
    this.jobs.stop();
  }

  private runTask(task: FitTask, doc: VmdDocument, onProgress?: FitProgressListener, signal?: AbortSignal): Promise<FitOutcome> {
    return this.jobs.run(
      {
        request: (id) => {
          const bytes = writeVmd(doc);
          return { message: { ...task, id, bytes }, transfer: [bytes.buffer] };
        },
        done: (m) => {
          const back = readVmd(m.bytes);
          return back.ok ? success({ doc: back.value, report: m.report, via: 'worker' }) : failure(back.error);
        },
        here: (progress) => {
          const t = taskEdit(task);
          if (!t.ok) return t;
          const out = t.value(doc, progress);
          return out.ok ? success({ ...out.value, via: 'main' }) : out;
        },
      },
      onProgress,
      signal,
    );
  }
}

let shared: FitClient | null = null;

/** The app's fitting client (one worker, made on the first run). */
export function fitClient(): FitClient {
  return (shared ??= new FitClient());
}

/** Replaces the app's fitting client (tests give one with a fake worker); null: the next use makes the default. */
export function setFitClient(c: FitClient | null): void {
  shared?.stop();
  shared = c;
}

/** Runs a fitting edit through the app's client (see FitClient.run). */
export function runFit(op: FitOp, options: OpOptions, doc: VmdDocument, onProgress?: FitProgressListener, signal?: AbortSignal): Promise<FitOutcome> {
  return fitClient().run(op, options, doc, onProgress, signal);
}
