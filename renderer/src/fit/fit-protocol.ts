/**
 * The messages between the page and the fitting worker (fit.worker.ts). The page sends one request per
 * run: the operation, its options as the Batch form gives them, and the motion as VMD bytes (writeVmd,
 * transferred: objects do not cross, bytes do); or Simplify (the editor's Simplify panel) with the
 * selected keys as plain `{kind, record}` values and the tolerances. The worker answers `started` when it has the request
 * (so a worker that never starts is told apart from one that fails while fitting), throttled `progress`
 * track by track, then `done` with the result's bytes (transferred) and its report, or `failed`.
 */
import type { EditReport } from '../../../shared/edit-core/report';
import type { OpOptions } from '../../../shared/batch/options';
import type { Tolerances } from '../../../shared/fit/motion-fit';
import type { SelectedKey } from '../../../shared/fit/simplify';
import type { JobMessage } from '../workers/job-client';

/** The fitting operations (Reduce, Bake, Speed with refit): the ones slow enough to run off the UI thread. */
export type FitOp = 'reduce' | 'bake' | 'speed';

/** What one run computes: a fitting operation with its options, or Simplify on selected keys (renderer/src/fit/simplify-edit.ts). */
export type FitTask = { op: FitOp; options: OpOptions } | { op: 'simplify'; keys: SelectedKey[]; tol: Partial<Tolerances> };

export type FitRequest = FitTask & {
  id: number;
  /** The motion, writeVmd(doc); its buffer is transferred. */
  bytes: Uint8Array;
};

/** What the worker sends (workers/job-client.ts's protocol), `done` carrying the result. */
export type FitMessage = JobMessage<{ bytes: Uint8Array; report: EditReport }>;

