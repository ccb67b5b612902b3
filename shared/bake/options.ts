/**
 * What the bakes (the physics bake, shared/physics/bake.ts; the IK bake, ik-bake.ts) take and report alike: the range,
 * the reduction's tolerances, progress and Cancel; the bones keyed, the IK switched off, the keys and the largest
 * error measured by playing the output against what was baked.
 */
import { DEFAULT_TOLERANCES } from '../fit/motion-fit';
import { optionRefusal, type CodecError } from '../vmd/errors';
import { stageMotionRefusal } from '../vmd/inspect';
import { buildTracks, type MotionTracks } from '../vmd/tracks';
import type { VmdDocument } from '../vmd/vmd-document';
import type { ModelData } from '../pmx/model-types';

/** The options every bake takes. */
export interface BakeRangeOptions {
  /** First baked frame (default 0). */
  from?: number;
  /** Last baked frame (default: the motion's last key, at least `from`). */
  to?: number;
  /** One key per frame, not reduced. */
  raw?: boolean;
  /** Tolerance: world position in units (default 0.01), world rotation in degrees (default 0.1). */
  positionTolerance?: number;
  rotationToleranceDeg?: number;
  /** Told the work done so far, out of `total` (frame by frame: the frames played, fitted, then checked). */
  progress?: (done: number, total: number) => void;
  /** Polled between frames and bones; true stops the bake with E_CANCELLED. */
  cancelled?: () => boolean;
}

/** The figures every bake reports. */
export interface BakeReportBase {
  from: number;
  to: number;
  /** The bones keyed, in model order. */
  bones: string[];
  /** Bones whose names do not fit a VMD's 15-byte field: not baked. */
  namesTooLong: string[];
  /** IK bones whose names do not fit the IK block's 20 bytes. */
  ikNamesTooLong: string[];
  /** IK bones switched off over A..B, in model order. */
  ikOff: string[];
  /** Keys at one per frame per bone, and the keys kept after reduction (= raw with `raw`). */
  rawKeys: number;
  keptKeys: number;
  /** Keys those bones had inside A..B that were replaced. */
  replacedKeys: number;
  /** Keys added at A−1 and B+1 for the bones outside the range. */
  edgeKeys: number;
  /** Largest world-position difference (units) and rotation difference (degrees) of a baked bone, playing the output against what was baked, at every frame of A..B. */
  maxPositionError: number;
  maxRotationErrorDeg: number;
  /** Frame and bone of the largest position error. */
  worst: { frame: number; bone: string } | null;
}

/** The tolerances and the range A..B a bake works on. */
export interface BakeRange {
  posTol: number;
  rotTol: number;
  from: number;
  to: number;
}

/**
 * How every bake starts: a camera or light motion refused (it would bake the model standing at rest into a camera
 * file; `op` names the bake in the refusal), then the motion's tracks and the range and tolerances the options give
 * (bakeRange), or the refusal.
 */
export function bakeStart(motion: VmdDocument, opts: BakeRangeOptions, op: 'ik-bake' | 'physics-bake'): { tracks: MotionTracks; range: BakeRange } | CodecError {
  const stage = stageMotionRefusal(motion, op);
  if (stage) return stage;
  const tracks = buildTracks(motion);
  const range = bakeRange(opts, tracks.lastFrame);
  return 'code' in range ? range : { tracks, range };
}

/** The model as a bake's refusals name it: `model "name"`, or "the model" when it has no name. */
export const bakeModelName = (model: Pick<ModelData, 'name'>) => (model.name.trim() ? `model "${model.name}"` : 'the model');

/**
 * The tolerances and the range A..B the options give (the defaults filled in: A = 0, B = the motion's last key, at
 * least A), or the option refused (optionRefusal: the CLI's English names --pos-tol, the app names its own field).
 */
export function bakeRange(opts: BakeRangeOptions, lastFrame: number): BakeRange | CodecError {
  const posTol = opts.positionTolerance ?? DEFAULT_TOLERANCES.position;
  const rotTol = opts.rotationToleranceDeg ?? DEFAULT_TOLERANCES.rotationDeg;
  if (!(posTol > 0) || !Number.isFinite(posTol)) return optionRefusal('E_ARGUMENT', `--pos-tol must be a number greater than 0, got ${posTol}`, 'pos-tol', 'positive', { value: String(posTol) });
  if (!(rotTol > 0) || !Number.isFinite(rotTol)) return optionRefusal('E_ARGUMENT', `--rot-tol must be a number greater than 0, got ${rotTol}`, 'rot-tol', 'positive', { value: String(rotTol) });
  const from = opts.from ?? 0;
  const to = opts.to ?? Math.max(from, lastFrame);
  if (!Number.isInteger(from) || from < 0) return optionRefusal('E_ARGUMENT', `--from must be a whole frame ≥ 0, got ${from}`, 'from', Number.isInteger(from) ? 'min' : 'integer', { min: 0, value: String(from) });
  if (!Number.isInteger(to) || to < from) return optionRefusal('E_ARGUMENT', `--to must be a whole frame ≥ --from (${from}), got ${to}`, 'to', Number.isInteger(to) ? 'order' : 'integer', { other: 'from', min: from, value: String(to) });
  return { posTol, rotTol, from, to };
}
