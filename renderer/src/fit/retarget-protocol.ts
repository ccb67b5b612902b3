/**
 * The messages between the page and the retarget worker (retarget.worker.ts), and the one function both
 * run: the page sends the motion and the two models as bytes (transferred; objects do not cross), the
 * rename map as plain pairs and the scale switch; the worker answers `started`, throttled `progress`
 * (computed tracks fitted), then `done` with the result's VMD bytes, its details and report, or `failed`.
 */
import { readModel } from '../../../shared/pmx/model-reader';
import { standardFigureModel } from '../../../shared/skeleton/standard-figure';
import { retarget, type RetargetDetails, type RetargetResult } from '../../../shared/retarget/retarget';
import type { EditReport } from '../../../shared/edit-core/report';
import { failure } from '../../../shared/vmd/errors';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import type { JobMessage } from '../workers/job-client';

/** What one retarget needs: the motion (writeVmd bytes), the models' file bytes, the map's rows, the options. */
export interface RetargetTask {
  motion: Uint8Array;
  /** The source model's file bytes; null: the standard MMD skeleton (the built-in figure). */
  source: Uint8Array | null;
  target: Uint8Array;
  /** Files the models came from (errors name them). */
  sourceFile: string;
  targetFile: string;
  /** The map's rows: motion bone → target bone, and morph → morph (the --map file's two sections). */
  bones: [string, string][];
  morphs: [string, string][];
  /** Scale センター and the leg IK by the leg-length ratio (the CLI's default; --no-scale turns it off). */
  scale: boolean;
  /** Keep the feet on the floor (the CLI's default; --no-floor turns it off); absent: on. */
  floor?: boolean;
}

export type RetargetRequest = RetargetTask & { id: number };

/** What the worker sends (workers/job-client.ts's protocol), `done` carrying the result. */
export type RetargetMessage = JobMessage<{ bytes: Uint8Array; details: RetargetDetails; report: EditReport }>;

/** The retarget's result: an `Outcome` whose value is the new motion, what was done, and the edit report. */
export type RetargetRun = RetargetResult;


/**
 * Runs one retarget (shared/retarget) with the options the CLI gives it: the same map, scale switch and
 * default tolerances, so the editor writes what `vmd-studio retarget` writes. Never throws for bad input.
 */
export function runRetargetTask(task: RetargetTask, progress?: (done: number, total: number) => void): RetargetRun {
  const motion = readVmd(task.motion);
  if (!motion.ok) return failure(motion.error);
  const src = task.source ? readModel(task.source) : { ok: true as const, value: standardFigureModel() };
  if (!src.ok) return failure({ ...src.error, file: task.sourceFile });
  const dst = readModel(task.target);
  if (!dst.ok) return failure({ ...dst.error, file: task.targetFile });
  const mapping = task.bones.length || task.morphs.length ? { bones: new Map(task.bones), morphs: new Map(task.morphs) } : undefined;
  return retarget(motion.value, src.value, dst.value, { mapping, scale: task.scale, floor: task.floor !== false, progress });
}
