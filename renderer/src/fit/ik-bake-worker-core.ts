/**
 * What the IK-bake worker does with one request, apart from the worker's global scope: the model and the motion
 * read from their bytes, shared/bake's ikBake (the CLI's engine) with its progress told at most every
 * JOB_PROGRESS_MS (workers/job-client.ts serveJob), the output written back. Every failure is answered as a
 * `failed` message with an error value; nothing is thrown back at the worker.
 */
import { readModel } from '../../../shared/pmx/model-reader';
import { ikBake, type IkBakedMotion } from '../../../shared/bake/ik-bake';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { writeVmd } from '../../../shared/vmd/vmd-writer';
import { success, type Outcome } from '../../../shared/vmd/errors';
import type { IkBakeMessage, IkBakeRequest, IkBakeSettings } from './ik-bake-protocol';
import { serveJob, type PostJob } from '../workers/job-client';

type IkBakeDone = Omit<Extract<IkBakeMessage, { type: 'done' }>, 'type' | 'id'>;

export type PostIkBake = (m: IkBakeMessage, transfer: Transferable[]) => void;

/**
 * The IK bake of `motion` on `model` (both as bytes), as a result value, with the per-frame motion the editor's plot
 * draws (ikBake's perFrame); `progress` hears the work done.
 */
export function ikBakeBytes(model: Uint8Array, motion: Uint8Array, settings: IkBakeSettings, progress?: (done: number, total: number) => void, cancelled?: () => boolean): Outcome<IkBakedMotion> {
  const m = readModel(model);
  if (!m.ok) return m;
  const d = readVmd(motion);
  if (!d.ok) return d;
  return ikBake(m.value, d.value, { ...settings, perFrame: true, progress, cancelled });
}

/** Runs one request and posts its messages; `now` is the clock the progress is throttled by. */
export async function handleIkBakeRequest(req: IkBakeRequest, post: PostIkBake, now?: () => number): Promise<void> {
  await serveJob(
    req.id,
    post as PostJob<IkBakeDone>,
    (progress) => {
      const out = ikBakeBytes(req.model, req.motion, req.settings, progress);
      if (!out.ok) return out;
      const bytes = writeVmd(out.value.doc);
      const perFrame = out.value.perFrame ? writeVmd(out.value.perFrame) : undefined;
      return success({ done: { bytes, perFrame, report: out.value.report }, transfer: perFrame ? [bytes.buffer, perFrame.buffer] : [bytes.buffer] });
    },
    now,
  );
}
