/**
 * Runs a retarget off the UI thread: in the retarget worker (retarget.worker.ts, messages in
 * retarget-protocol.ts), with its progress and Cancel (the worker is terminated; the next run makes a
 * new one). Where no worker can be made or it fails to start (`?fitWorker=off` forces that, as for the
 * fitting worker), the same retarget runs on the main thread, so nothing is lost but the responsiveness.
 */
import { failure, success } from '../../../shared/vmd/errors';
import type { RetargetedMotion } from '../../../shared/retarget/retarget';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { JobClient, workerOff, type JobVia, type JobWorkerLike, type RunOutcome } from '../workers/job-client';
import { runRetargetTask, type RetargetMessage, type RetargetRequest, type RetargetTask } from './retarget-protocol';

export type { RetargetTask, RetargetRun } from './retarget-protocol';

/** A retarget's success: the retargeted motion, and where it ran. */
export type RetargetedRun = RetargetedMotion & { via: JobVia };

/** A run's outcome: see `RunOutcome`. */
export type RetargetOutcome = RunOutcome<RetargetedMotion>;

type RetargetDone = Omit<Extract<RetargetMessage, { type: 'done' }>, 'type' | 'id'>;

let client: JobClient<RetargetRequest, RetargetDone, RetargetOutcome> | null = null;

/** The retarget worker, unless the page has no Worker or says `?fitWorker=off` (as for the fitting worker). */
function makeWorker(): JobWorkerLike<RetargetRequest, RetargetMessage> | null {
  if (workerOff('fitWorker')) return null;
  return new Worker(new URL('./retarget.worker.ts', import.meta.url), { type: 'module' }) as unknown as JobWorkerLike<RetargetRequest, RetargetMessage>;
}

/**
 * Retargets `task` (copies of its byte arrays go to the worker: they stay usable for a run on this thread after
 * a failed start); `onProgress(done, total)` hears the computed tracks fitted. Aborting `signal` terminates the
 * worker and resolves as cancelled.
 */
export function runRetarget(task: RetargetTask, onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<RetargetOutcome> {
  client ??= new JobClient(makeWorker, 'the retarget worker');
  return client.run(
    {
      request: (id) => {
        const motion = task.motion.slice(), source = task.source?.slice() ?? null, target = task.target.slice();
        return { message: { ...task, motion, source, target, id }, transfer: [motion.buffer, ...(source ? [source.buffer] : []), target.buffer] };
      },
      done: (m) => {
        const back = readVmd(m.bytes);
        return back.ok ? success({ doc: back.value, details: m.details, report: m.report, via: 'worker' }) : failure(back.error);
      },
      here: (progress) => {
        const r = runRetargetTask(task, progress);
        return r.ok ? success({ ...r.value, via: 'main' }) : r;
      },
    },
    onProgress,
    signal,
  );
}
