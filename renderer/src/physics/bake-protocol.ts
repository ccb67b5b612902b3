/**
 * The messages between the page and the physics-bake worker (bake.worker.ts). The page sends one request per
 * run: the model's file bytes, the motion as VMD bytes (writeVmd) and the bake's options; the worker answers
 * `started` when it has the request, throttled `progress` (work done of total: simulation, fitting, then the
 * playback check), then `done` with the output's bytes (transferred), the report and the baked bones one can see (bake-worker-core.ts
 * BakedBytes), or `failed`.
 */
import type { PhysicsBakeReport } from '../../../shared/physics/bake';
import type { JobMessage } from '../workers/job-client';

/** The options a bake takes from the editor (shared/physics/bake.ts's, without the callbacks). */
export interface BakeSettings {
  from?: number;
  to?: number;
  /** Frames simulated before `from`, or 'all' (from frame 0, the default). */
  warmup?: number | 'all';
  raw?: boolean;
  resimulate?: boolean | 'auto';
  positionTolerance?: number;
  rotationToleranceDeg?: number;
}

export interface BakeRequest {
  id: number;
  /** The model file (.pmx/.pmd) as read. */
  model: Uint8Array;
  /** The motion, writeVmd(doc); its buffer is transferred. */
  motion: Uint8Array;
  settings: BakeSettings;
}

/** What the worker sends (workers/job-client.ts's protocol), `done` carrying the result. */
export type BakeMessage = JobMessage<{ bytes: Uint8Array; report: PhysicsBakeReport; seen: string[] }>;

