/**
 * What the physics-bake worker does with one request, apart from the worker's global scope: Bullet's wasm
 * (bullet-web.ts), the model and the motion read from their bytes, shared/physics's physicsBake (the CLI's
 * engine) with its progress told at most every JOB_PROGRESS_MS (workers/job-client.ts serveJob), the output written back. Every
 * failure is answered as a `failed` message with an error value; nothing is thrown back at the worker.
 */
import { readModel } from '../../../shared/pmx/model-reader';
import { seenBones } from '../../../shared/pmx/seen-bones';
import { physicsBake } from '../../../shared/physics/bake';
import type { BulletInstance } from '../../../shared/physics/bullet';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { writeVmd } from '../../../shared/vmd/vmd-writer';
import { success, type CodecError, type Outcome } from '../../../shared/vmd/errors';
import type { PhysicsBakedMotion } from '../../../shared/physics/bake';
import type { BakeMessage, BakeRequest, BakeSettings } from './bake-protocol';
import { serveJob, type PostJob } from '../workers/job-client';

type BakeDone = Omit<Extract<BakeMessage, { type: 'done' }>, 'type' | 'id'>;

export type PostBake = (m: BakeMessage, transfer: Transferable[]) => void;

/**
 * A bake's output with the baked bones one can see (shared/pmx seenBones: deforming vertices or displayed), in
 * model order: the dialog plots one of those, not a helper bone (a cloak's weight, 錘) that shows nothing.
 */
export type BakedBytes = PhysicsBakedMotion & { seen: string[] };

/** The bake of `motion` on `model` (both as bytes), as a result value; `progress` hears the work done. */
export function bakeBytes(bullet: BulletInstance, model: Uint8Array, motion: Uint8Array, settings: BakeSettings, progress?: (done: number, total: number) => void): Outcome<BakedBytes> {
  const m = readModel(model);
  if (!m.ok) return m;
  const d = readVmd(motion);
  if (!d.ok) return d;
  const out = physicsBake(bullet, m.value, d.value, { ...settings, progress });
  return out.ok ? success({ ...out.value, seen: seenBones(m.value, out.value.report.bones) }) : out;
}

/** Runs one request and posts its messages; `now` is the clock the progress is throttled by. */
export async function handleBakeRequest(req: BakeRequest, bullet: () => Promise<BulletInstance>, post: PostBake, now?: () => number): Promise<void> {
  await serveJob(
    req.id,
    post as PostJob<BakeDone>,
    async (progress) => {
      const out = bakeBytes(await bullet(), req.model, req.motion, req.settings, progress);
      if (!out.ok) return out;
      const bytes = writeVmd(out.value.doc);
      return success({ done: { bytes, report: out.value.report, seen: out.value.seen }, transfer: [bytes.buffer] });
    },
    now,
  );
}
