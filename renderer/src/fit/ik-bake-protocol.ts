/**
 * The messages between the page and the IK-bake worker (ik-bake.worker.ts). The page sends one request per run:
 * the model's file bytes, the motion as VMD bytes (writeVmd) and the bake's options; the worker answers `started`,
 * throttled `progress` (work done of total: posed with IK, fitted, then checked), then `done` with the output's
 * bytes, the per-frame motion's (the plot's "before": shared/bake/ik-bake.ts's perFrame; both transferred) and the report, or `failed` (an E_IK refusal, E_CANCELLED never: Cancel terminates it).
 */
import type { IkBakeReport } from '../../../shared/bake/ik-bake';
import type { JobMessage } from '../workers/job-client';

/** The options the editor gives shared/bake/ik-bake.ts's ikBake (its own, without the callbacks). */
export interface IkBakeSettings {
  from?: number;
  to?: number;
  /** IK bones to bake, by name; absent: every IK bone the motion has on somewhere in the range. */
  bones?: string[];
  raw?: boolean;
  rotationToleranceDeg?: number;
}

export interface IkBakeRequest {
  id: number;
  /** The model file (.pmx/.pmd) as read. */
  model: Uint8Array;
  /** The motion, writeVmd(doc); its buffer is transferred. */
  motion: Uint8Array;
  settings: IkBakeSettings;
}

/** What the worker sends (workers/job-client.ts's protocol), `done` carrying the result. */
export type IkBakeMessage = JobMessage<{ bytes: Uint8Array; perFrame?: Uint8Array; report: IkBakeReport }>;
