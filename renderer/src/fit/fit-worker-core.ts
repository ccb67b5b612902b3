/**
 * What the fitting worker does with one request, apart from the worker's global scope so that Node
 * tests run it: read the bytes, run the fitting edit (shared/batch/fit-ops.ts; Simplify:
 * simplify-edit.ts) telling its progress at
 * most every JOB_PROGRESS_MS (workers/job-client.ts serveJob), write the result. Every failure is answered as a `failed` message
 * with an error value; nothing is thrown back at the worker.
 */
import { prepareFitEdit, type FitEdit } from '../../../shared/batch/fit-ops';
import { checkOptions } from '../../../shared/batch/options';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { writeVmd } from '../../../shared/vmd/vmd-writer';
import { failure, success, type Outcome } from '../../../shared/vmd/errors';
import type { FitMessage, FitRequest, FitTask } from './fit-protocol';
import { serveJob, type PostJob } from '../workers/job-client';

type FitDone = Omit<Extract<FitMessage, { type: 'done' }>, 'type' | 'id'>;
import { simplifyEdit } from './simplify-edit';

/** Posts a message, transferring the listed buffers. */
export type PostFit = (m: FitMessage, transfer: Transferable[]) => void;

/** The edit a task runs (its options checked), or their error as a value: one for the worker and the page's fallback. */
export function taskEdit(task: FitTask): Outcome<FitEdit> {
  if (task.op === 'simplify') {
    const { keys, tol } = task;
    return success((doc, progress) => simplifyEdit(doc, keys, tol, progress));
  }
  const { op, options } = task;
  const prepared = checkOptions(() => prepareFitEdit(op, options));
  if (!prepared.ok) return failure({ code: 'E_ARGUMENT', message: prepared.error.message, option: prepared.error.option });
  return prepared;
}

/** Runs one request and posts its messages; `now` is the clock the progress is throttled by. */
export function handleFitRequest(req: FitRequest, post: PostFit, now?: () => number): void {
  void serveJob(
    req.id,
    post as PostJob<FitDone>,
    (progress) => {
      const input = readVmd(req.bytes);
      if (!input.ok) return input;
      const task = taskEdit(req);
      if (!task.ok) return task;
      const out = task.value(input.value, progress);
      if (!out.ok) return out;
      const bytes = writeVmd(out.value.doc);
      return success({ done: { bytes, report: out.value.report }, transfer: [bytes.buffer] });
    },
    now,
  );
}
