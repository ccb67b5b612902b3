/**
 * What the fitting worker does with one request, apart from the worker's global scope so that Node
 * tests run it: read the bytes, run the fitting edit (shared/batch/fit-ops.ts; Simplify:
 * simplify-edit.ts) telling its progress at
 * most every PROGRESS_INTERVAL_MS, write the result. Every failure is answered as a `failed` message
 * with an error value; nothing is thrown back at the worker.
 */
import { prepareFitEdit } from '../../../shared/batch/fit-ops';
import { checkOptions } from '../../../shared/batch/options';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { writeVmd } from '../../../shared/vmd/vmd-writer';
import type { CodecError } from '../../../shared/vmd/errors';
import type { EditResult } from '../../../shared/edit-core/report';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import type { FitProgress } from '../../../shared/fit/motion-fit';
import { PROGRESS_INTERVAL_MS, type FitMessage, type FitRequest, type FitTask } from './fit-protocol';
import { simplifyEdit } from './simplify-edit';

/** Posts a message, transferring the listed buffers. */
export type PostFit = (m: FitMessage, transfer: Transferable[]) => void;

/** The edit a task runs (its options checked), or their error as a value: one for the worker and the page's fallback. */
export function taskEdit(task: FitTask): { ok: true; edit: (doc: VmdDocument, progress?: FitProgress) => EditResult } | { ok: false; error: CodecError } {
  if (task.op === 'simplify') {
    const { keys, tol } = task;
    return { ok: true, edit: (doc, progress) => simplifyEdit(doc, keys, tol, progress) };
  }
  const { op, options } = task;
  const prepared = checkOptions(() => prepareFitEdit(op, options));
  if (!prepared.ok) return { ok: false, error: { code: 'E_ARGUMENT', message: prepared.error.message, option: prepared.error.option } };
  return { ok: true, edit: prepared.value };
}

/** Runs one request and posts its messages; `now` is the clock the progress is throttled by. */
export function handleFitRequest(req: FitRequest, post: PostFit, now: () => number = () => performance.now()): void {
  const { id } = req;
  post({ type: 'started', id }, []);
  try {
    const input = readVmd(req.bytes);
    if (!input.ok) {
      post({ type: 'failed', id, error: input.error }, []);
      return;
    }
    const task = taskEdit(req);
    if (!task.ok) {
      post({ type: 'failed', id, error: task.error }, []);
      return;
    }
    let last = -Infinity;
    const out = task.edit(input.value, (done, total) => {
      const t = now();
      if (done < total && t - last < PROGRESS_INTERVAL_MS) return;
      last = t;
      post({ type: 'progress', id, done, total }, []);
    });
    if (!out.ok) {
      post({ type: 'failed', id, error: out.error }, []);
      return;
    }
    const bytes = writeVmd(out.doc);
    post({ type: 'done', id, bytes, report: out.report }, [bytes.buffer]);
  } catch (e) {
    const error: CodecError = { code: 'E_INTERNAL', message: e instanceof Error ? e.message : String(e) };
    post({ type: 'failed', id, error }, []);
  }
}
