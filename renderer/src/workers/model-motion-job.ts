/**
 * A bake's job as its client sends it (the physics bake's physics/bake-client.ts, the IK bake's fit/ik-bake-client.ts):
 * the model's file bytes, copied (the caller keeps them for the next run), the motion written as VMD bytes, whose
 * buffer is transferred, and the bake's settings; the worker's `done` brings the output's bytes back, read here.
 */
import { failure, success, type Outcome } from '../../../shared/vmd/errors';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { writeVmd } from '../../../shared/vmd/vmd-writer';
import type { Job, JobVia, ProgressListener } from './job-client';

/** What a bake's worker is sent. */
export interface ModelMotionRequest<Settings> {
  id: number;
  /** The model file (.pmx/.pmd) as read. */
  model: Uint8Array;
  /** The motion, writeVmd(doc); its buffer is transferred. */
  motion: Uint8Array;
  settings: Settings;
}

/**
 * The job: `settings` sent as given (a copy the worker may keep), `fields` the rest of a `done` message's result
 * beside the motion read back (the report), `here` the same bake on this thread given the motion's bytes.
 */
export function modelMotionJob<Settings, Done extends { bytes: Uint8Array }, Fields>(
  model: Uint8Array,
  motion: VmdDocument,
  settings: Settings,
  fields: (m: Done) => Fields,
  here: (motion: Uint8Array, progress?: ProgressListener) => Promise<Outcome<{ doc: VmdDocument } & Fields>>,
): Job<ModelMotionRequest<Settings>, Done, Outcome<{ doc: VmdDocument } & Fields & { via: JobVia }>> {
  return {
    request: (id) => {
      const bytes = writeVmd(motion);
      return { message: { id, model: model.slice(), motion: bytes, settings }, transfer: [bytes.buffer] };
    },
    done: (m) => {
      const back = readVmd(m.bytes);
      return back.ok ? success({ doc: back.value, ...fields(m), via: 'worker' as const }) : failure(back.error);
    },
    here: async (progress) => {
      const out = await here(writeVmd(motion), progress);
      return out.ok ? success({ ...out.value, via: 'main' as const }) : out;
    },
  };
}
