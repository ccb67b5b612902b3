/**
 * Retargeting a motion made for one model (the source) onto another (the target): the plan (plan.ts)
 * says what each target bone takes; this plays the motion on the source skeleton at every frame
 * (forward kinematics with IK off: the keys as posed, so the IK of the target solves its own
 * legs from its own IK bones), poses the target bone by bone (parents first) so that each computed bone
 * takes its world rotation from the source, and re-expresses each computed track with the fitting engine
 * (shared/fit, within the tolerances at every frame: the target is computed frame by frame, and
 * between two frames a composite of several bones' rotations is no single slerp, so half frames between
 * keys one frame apart could not be held anyway). Plain and copied tracks keep
 * their records byte for byte (renamed where the target spells the bone differently); morphs are matched
 * by name and copied; IK/display keys are renamed to the target's IK bones; camera, light and shadow keys
 * are kept. The header's model name becomes the target's.
 */
import { stageMotionWords } from '../vmd/inspect';
import { denseRefusal } from '../edit-core/dense-limit';
import { BONE_FLAG, type ModelData } from '../pmx/model-types';
import { matchKey } from '../pmx/model-inspect';
import { buildSkeleton, MotionPoser, Pose, type Skeleton } from '../skeleton';
import { MotionBoneMorphs } from '../skeleton/bone-morphs';
import { DEFAULT_TOLERANCES, type FitProgress } from '../fit/motion-fit';
import { fitWindow, type SampledWindow } from '../fit/track-fit';
import { finishReport, newReport, warn, type EditedMotion, type EditReport } from '../edit-core/report';
import { morphRowsOf, type MapRow, type NameMapping } from '../motion-ops/rename';
import { failure, success, type Outcome } from '../vmd/errors';
import { setBoneCurves, defaultBoneInterpolation, physicsOff, setPhysicsOff, type BoneChannel } from '../vmd/interpolation';
import type { Curve } from '../vmd/bezier';
import { quatAngleDeg } from '../vmd/quat-angle';
import { ikKey } from '../vmd/records';
import { sampleBoneInto, sampleMorph } from '../vmd/sample';
import { decodeName, fitNameField } from '../vmd/sjis';
import { modelNameField } from '../vmd/model-name';
import { buildBoneTracks, buildMorphTracks, buildTracks, keyAtOrBefore, type BoneTracks, type MorphTracks } from '../vmd/tracks';
import { encodeBoneRecord, encodeIkRecord, encodeMorphRecord } from '../vmd/vmd-build';
import { BONE, IK, MODEL_NAME_LENGTH_V2, MORPH } from '../vmd/vmd-layout';
import { blockFromRecords, ikBlockFromRecords, recordBytes, withBlocks, type VmdDocument } from '../vmd/vmd-document';
import { BoneNameIndex, canonicalBoneName, MorphNameIndex, normalizeName } from './bone-names';
import { planRetarget, type RetargetPlan } from './plan';
import { retargetKeyCounts } from './key-counts';
import { withSemiStandardBones } from './semi-standard';
import { isStandardFigure } from '../skeleton/standard-figure';
import { qconjMulInto, qinvRotInto, qmulInto, qrotInto } from '../skeleton/quat';
import { count, plural, agree } from '../i18n/plural';

export interface RetargetOptions {
  /** A rename map (shared/motion-ops/rename.ts): its bones section settles source → target bone names, its morphs section morph names. */
  mapping?: NameMapping;
  /** Scale センター/グルーブ/全ての親 and the leg IK translations by the leg-length ratio (default true). */
  scale?: boolean;
  /** Fitting tolerances: position in units (default 0.01), rotation in degrees (default 0.1). */
  position?: number;
  rotationDeg?: number;
  /** Told after each computed track is fitted. */
  progress?: FitProgress;
  /**
   * Feet on the floor (default true; the CLI's --no-floor turns it off): where the source's toe is at or above
   * its rest height the target's toe is kept from going below its own, and where the source's is planted
   * (at its rest height) the target's stays at its rest height; the leg IK goals (足ＩＫ) are moved by the
   * difference, per foot and frame, and re-fitted.
   */
  floor?: boolean;
}

/** What the feet-on-the-floor correction did (RetargetOptions.floor). */
export interface FloorCorrection {
  /** Whether the leg IK tracks were corrected; when not, `why` says why (FLOOR_NOT_DONE has it in words). */
  applied: boolean;
  why?: 'no-leg-ik' | 'no-toe' | 'not-scaled';
  /** The feet measured, as the target names them: the leg IK bone and the toe (or ankle) bone. */
  feet: { ik: string; toe: string }[];
  /** The largest change of a leg IK goal's height, in the target's units, and its share of the target's leg length. */
  maxCorrection: number;
  maxCorrectionShare: number;
  /** Frames where some foot's goal moved (by more than 0.0001). */
  frames: number;
  /** The lowest toe height below its rest height over all frames, before and after (target units, ≤ 0; 0: never below). */
  lowestBefore: number;
  lowestAfter: number;
}

/** What a retarget did, for the report (names as the motion and the models spell them). */
export interface RetargetDetails {
  sourceModel: string;
  targetModel: string;
  sourceLegLength: number | null;
  targetLegLength: number | null;
  legRatio: number;
  armCompensationDeg: { left: number; right: number };
  /** Target bones whose translation was scaled by legRatio (those the output keys). */
  scaled: string[];
  /** Motion tracks of bones the target lacks whose motion went into target bones. */
  folded: { bone: string; keys: number; into: string[] }[];
  /** Target bones whose tracks were computed and re-fitted, with their key counts. */
  refitted: { bone: string; keys: number }[];
  /** Tracks copied record for record (renamed where the target spells the bone differently). */
  copied: { bone: string; as: string; keys: number }[];
  /**
   * Motion bone tracks whose bone the target spells differently (an alias, an English name, full/half width,
   * or a map row): `bone` as the motion names it, `as` the target's bone that now plays it (copied or re-fitted),
   * with the motion's keys of it. MMD plays keys by name, so each is said.
   */
  renamed: { bone: string; as: string; keys: number }[];
  /** Motion bone tracks nothing on the target takes, with their keys. */
  unmatched: { bone: string; keys: number }[];
  /** Morph tracks the target lacks, with their keys. */
  unmatchedMorphs: { morph: string; keys: number }[];
  /**
   * Target morphs keyed from several tracks, or from one at a map's ratio: the weights added frame by frame
   * (each × its ratio), clamped to [0, 1] at `clamped` keys; `keys`: the keys written.
   */
  combinedMorphs: { morph: string; from: { morph: string; ratio: number }[]; keys: number; clamped: number }[];
  /** Largest difference between the written computed tracks and the target pose computed frame by frame. */
  maxPositionError: number;
  maxRotationErrorDeg: number;
  /** Map rows that do nothing (their names match nothing where they must), each with why; each is warned of. */
  unusedMapRows: { section: 'bones' | 'morphs'; from: string; to: string; why: string }[];
  /**
   * Bone map rows onto a bone the motion keys by its own name: the row wins (its source plays the bone), and
   * the motion's own track of it goes where its source bone goes (folded, or left out); each is warned of.
   */
  replacedByMap: { from: string; to: string; track: string; keys: number }[];
  /** The feet-on-the-floor correction; absent when turned off (or no frame range). */
  floor?: FloorCorrection;
  /**
   * A sign that the source is not the model the motion was made on (vmd_sizing's 作成元モデル), warned of: the
   * motion's header already names the target (`header-is-target`), names another model than the source
   * (`source-name`), or names none while the leg ratio is far from 1 (`leg-ratio`, outside LEG_RATIO_PLAUSIBLE).
   * `header`: the header's model name. Null when nothing is amiss (or the source is the standard skeleton, which
   * stands for any standard model, and the header does not name the target).
   */
  sourceCheck: { kind: 'header-is-target' | 'source-name' | 'leg-ratio'; header: string } | null;
}

/** Leg ratios a source that is the motion's own model plausibly gives; outside them a motion without a model name is questioned. */
export const LEG_RATIO_PLAUSIBLE: readonly [number, number] = [0.67, 1.5];

/** Whether two model names are one: the same after width folding, or `header` the start of `name` cut to the header's field. */
function sameModelName(header: string, name: string, field: number): boolean {
  const h = normalizeName(header), n = normalizeName(name);
  if (!h || !n) return false;
  return h === n || normalizeName(modelNameField(name, field).written) === h;
}

/** RetargetDetails.sourceCheck for a motion whose header names `header`. */
function checkSource(header: string, source: ModelData, target: ModelData, standardSource: boolean, legRatio: number, field: number): RetargetDetails['sourceCheck'] {
  const sourceIsTarget = sameModelName(source.name, target.name, 1000);
  if (header && !sourceIsTarget && sameModelName(header, target.name, field)) return { kind: 'header-is-target', header };
  if (standardSource) return null;
  if (header) return sameModelName(header, source.name, field) ? null : { kind: 'source-name', header };
  return legRatio < LEG_RATIO_PLAUSIBLE[0] || legRatio > LEG_RATIO_PLAUSIBLE[1] ? { kind: 'leg-ratio', header } : null;
}

/** The sourceCheck warning in English (the CLI's and the batch report's words; the panel has its own). */
export function sourceCheckWarning(d: Pick<RetargetDetails, 'sourceCheck' | 'legRatio' | 'sourceModel' | 'targetModel' | 'sourceLegLength' | 'targetLegLength'>, standardSource = false): string | null {
  return sourceCheckNote(d, standardSource)?.message ?? null;
}

/**
 * The sourceCheck warning with its code and values (W_RETARGET_CHECK_*), for `warn`: `source` is the source
 * model's name, or the English words for the standard skeleton or a nameless model with `sourceWord` naming them
 * (`note.sourceWord.*`), so a Japanese reader gets them in Japanese.
 */
function sourceCheckNote(d: Pick<RetargetDetails, 'sourceCheck' | 'legRatio' | 'sourceModel' | 'targetModel' | 'sourceLegLength' | 'targetLegLength'>, standardSource: boolean): { code: string; message: string; params: Record<string, string | number> } | null {
  const c = d.sourceCheck;
  if (!c) return null;
  const ratio = d.legRatio === 1 ? '' : `× ${Number(d.legRatio.toPrecision(3))}: `;
  const word = d.sourceModel ? null : standardSource ? 'standard' : 'unnamed';
  const src = d.sourceModel || (standardSource ? 'the standard MMD skeleton' : '(no name)');
  const params: Record<string, string | number> = { ratio, header: c.header, source: src, ...(word ? { sourceWord: word } : {}) };
  if (c.kind === 'header-is-target') return { code: 'W_RETARGET_CHECK_HEADER_IS_TARGET', message: `${ratio}the motion's header already names the target model, ${c.header}: is it made for it already? It was fitted as if made on ${src}`, params };
  if (c.kind === 'source-name') return { code: 'W_RETARGET_CHECK_SOURCE_NAME', message: `${ratio}the motion's header says ${c.header}, the source is ${src}: is this the model the motion was made on?`, params };
  const sourceLeg = Number((d.sourceLegLength ?? 0).toPrecision(3)), targetLeg = Number((d.targetLegLength ?? 0).toPrecision(3));
  return { code: 'W_RETARGET_CHECK_LEG_RATIO', message: `${ratio}the source's legs (${sourceLeg}) and the target's (${targetLeg}) differ a lot, and the motion's header names no model: is ${src} the model the motion was made on?`, params: { ...params, sourceLeg, targetLeg } };
}

/**
 * Why the feet were not corrected, in words (the report's warning). Without leg IK the correction is not
 * made: raising センター instead would lift both feet and the body with them, not one foot.
 */
export const FLOOR_NOT_DONE: Record<NonNullable<FloorCorrection['why']>, string> = {
  'no-leg-ik': 'the target model has no leg IK (足ＩＫ)',
  'no-toe': 'a model has no toe or ankle bone',
  'not-scaled': 'the leg IK tracks are copied as they are (not scaled)',
};

/** A share of the target's leg length above which a floor correction is warned of (the proportions differ a lot). */
export const FLOOR_WARN_SHARE = 0.1;
/**
 * A source toe this close to its rest height, as shares of the source's leg length, counts as planted: up to
 * 0.4% above it, and up to 1% below (a toe pressed a little into the floor as the foot rolls is still planted).
 */
/**
 * The corrected leg IK tracks are re-fitted this much tighter than the position tolerance: a goal's error in
 * x, y and z adds up at the toe through the foot's turn, and a planted toe is to stay on its rest height.
 */
const FLOOR_FIT_SHARE = 0.25;
/** Measure-and-correct passes at most (each plays the output on the target once). */
const FLOOR_PASSES = 6;
const PLANTED_ABOVE = 0.004, PLANTED_BELOW = 0.01;

/** A foot of a model: its leg IK bone, and the toe it measures (the つま先ＩＫ's target, a toe bone, else the ankle). */
interface Foot {
  side: '左' | '右';
  ik: number;
  toe: number;
}

function feetOf(bones: ModelData['bones']): Foot[] {
  const idx = new BoneNameIndex(bones);
  const out: Foot[] = [];
  for (const side of ['左', '右'] as const) {
    const ik = idx.find(side + '足ＩＫ');
    const toeIk = idx.find(side + 'つま先ＩＫ');
    let toe = toeIk >= 0 && bones[toeIk].ik ? bones[toeIk].ik!.target : -1;
    if (toe < 0) toe = idx.find(side + 'つま先');
    if (toe < 0) toe = idx.find(side + '足先');
    if (toe < 0) toe = ik >= 0 && bones[ik].ik ? bones[ik].ik!.target : idx.find(side + '足首');
    out.push({ side, ik: ik >= 0 && bones[ik].ik ? ik : -1, toe });
  }
  return out;
}

interface FloorInput {
  doc: VmdDocument;
  source: ModelData;
  target: ModelData;
  sk: Skeleton;
  tk: Skeleton;
  plan: RetargetPlan;
  f0: number;
  posTol: number;
  computed: ComputedTrack[];
  fitted: (Uint8Array[] | null)[];
  fitTrack: (c: ComputedTrack, posTol?: number) => Uint8Array[] | null;
  /** The output as it stands, given its bone records (the morph and IK blocks are the output's). */
  play: (boneRecords: Uint8Array[]) => VmdDocument;
  copiedRecords: Uint8Array[];
}

/**
 * 足IK補正 (as vmd_sizing): plays the source (IK on) and the output on the target (IK on, the project's pose
 * engine), and per frame and foot moves the leg IK goal up by the toe's shortfall below its rest height where
 * the source's toe is not below its own, and onto the rest height where the source's is planted; the goals'
 * samples are changed and their tracks re-fitted (a few passes, each measuring the fitted output again).
 */
function floorCorrection(x: FloorInput): FloorCorrection {
  const { sk, tk, plan, f0, computed, fitted } = x;
  const sFeet = feetOf(x.source.bones), tFeet = feetOf(x.target.bones);
  const res: FloorCorrection = { applied: false, feet: [], maxCorrection: 0, maxCorrectionShare: 0, frames: 0, lowestBefore: 0, lowestAfter: 0 };
  const pairs: { s: Foot; t: Foot; track: number }[] = [];
  for (let i = 0; i < 2; i++) {
    const s = sFeet[i], t = tFeet[i];
    if (s.toe < 0 || t.toe < 0 || t.ik < 0) continue;
    const track = computed.findIndex((c) => c.bone === t.ik);
    if (track < 0) continue;
    pairs.push({ s, t, track });
    res.feet.push({ ik: x.target.bones[t.ik].name, toe: x.target.bones[t.toe].name });
  }
  if (!pairs.length) {
    res.why = tFeet.every((f) => f.ik < 0) ? 'no-leg-ik' : sFeet.every((f) => f.toe < 0) || tFeet.every((f) => f.toe < 0) ? 'no-toe' : 'not-scaled';
    return res;
  }
  const n = computed[0].px.length;
  const sLeg = plan.sourceRest.legLength ?? 1, tLeg = plan.targetRest.legLength ?? 1;
  const above = PLANTED_ABOVE * sLeg, below = PLANTED_BELOW * sLeg;
  // A raised toe is aimed this far above the floor, so that the re-fit (within the position tolerance) does not take it back below.
  const margin = x.posTol / 2;
  // The source as it plays, IK on: per foot, whether the toe is planted (1), above its rest (2) or below (0).
  const sTracks = buildTracks(x.doc);
  const sPoser = new MotionPoser(sk, x.doc, sTracks, x.source);
  const sPose = new Pose(sk);
  const state = pairs.map(() => new Uint8Array(n));
  for (let j = 0; j < n; j++) {
    sPoser.poseAt(sPose, f0 + j);
    pairs.forEach((p, k) => {
      const d = sPose.worldPosition[3 * p.s.toe + 1] - sk.restPosition[3 * p.s.toe + 1];
      state[k][j] = d <= above && d >= -below ? 1 : d > 0 ? 2 : 0;
    });
  }
  const total = pairs.map(() => new Float64Array(n));
  const lastD = pairs.map(() => new Float64Array(n).fill(NaN)), lastT = pairs.map(() => new Float64Array(n));
  const tPose = new Pose(tk);
  const records = () => {
    const r = x.copiedRecords.slice();
    for (const f of fitted) if (f) for (const b of f) r.push(b);
    return r;
  };
  const v = new Float64Array(3);
  // Per foot and frame, the best goal move seen (a sinking toe costs twice a floating one) and its cost.
  const bestT = pairs.map(() => new Float64Array(n)), bestCost = pairs.map(() => new Float64Array(n).fill(Infinity));
  const move = (k: number, j: number, by: number) => {
    total[k][j] += by;
    // The goal's key is in its parent's frame: world up by `by` is inv(parent) · (0, by, 0).
    const c = computed[pairs[k].track];
    const par = tk.parent[c.bone];
    if (par >= 0) qinvRotInto(tPose.worldRotation, 4 * par, 0, by, 0, v, 0);
    else { v[0] = 0; v[1] = by; v[2] = 0; }
    c.px[j] += v[0]; c.py[j] += v[1]; c.pz[j] += v[2];
  };
  for (let pass = 0; pass <= FLOOR_PASSES; pass++) {
    const out = x.play(records());
    const poser = new MotionPoser(tk, out, buildTracks(out), x.target);
    let lowest = 0, moved = false;
    for (let j = 0; j < n; j++) {
      poser.poseAt(tPose, f0 + j);
      pairs.forEach((p, k) => {
        const st = state[k][j];
        const d = tPose.worldPosition[3 * p.t.toe + 1] - tk.restPosition[3 * p.t.toe + 1];
        if (st !== 0) lowest = Math.min(lowest, d);
        if (st === 0) return;
        // planted: onto the rest height; above: not below it (a source toe below its rest: as it is).
        const aim = st === 1 ? 0 : d < 0 ? margin : d;
        const cost = st === 1 ? (d < 0 ? -2 * d : d) : Math.max(0, -d);
        if (cost < bestCost[k][j] - 1e-6) {
          bestCost[k][j] = cost;
          bestT[k][j] = total[k][j];
        }
        if (pass === FLOOR_PASSES) return;
        if (pass === FLOOR_PASSES - 1) {
          // The last move: back to the best seen (the IK may jump between two solutions around the aim).
          if (cost > bestCost[k][j] + 1e-4) {
            move(k, j, bestT[k][j] - total[k][j]);
            moved = true;
          }
          return;
        }
        const err = aim - d;
        // Within a tenth of the fit's tolerance: as good as the fit can hold.
        if (Math.abs(err) < 1e-4) return;
        // The toe answers a goal's move by about as much, but not exactly (the knee's and the ankle's IK):
        // from the second pass on, the move is the error over the answer measured between the last two passes.
        let slope = 1;
        const dt = total[k][j] - lastT[k][j];
        if (Number.isFinite(lastD[k][j]) && Math.abs(dt) > 1e-6) slope = Math.min(4, Math.max(0.25, (d - lastD[k][j]) / dt));
        lastD[k][j] = d;
        lastT[k][j] = total[k][j];
        move(k, j, err / slope);
        moved = true;
      });
    }
    if (pass === 0) res.lowestBefore = lowest;
    res.lowestAfter = lowest;
    if (!moved) break;
    for (const p of pairs) fitted[p.track] = x.fitTrack(computed[p.track], x.posTol * FLOOR_FIT_SHARE);
  }
  res.applied = true;
  for (let j = 0; j < n; j++) {
    let touched = false;
    for (const t of total) {
      if (Math.abs(t[j]) > 1e-4) touched = true;
      res.maxCorrection = Math.max(res.maxCorrection, Math.abs(t[j]));
    }
    if (touched) res.frames++;
  }
  res.maxCorrectionShare = res.maxCorrection / tLeg;
  return res;
}

/** A retarget's success: the new document, what happened to its keys, and the per-bone details. */
export interface RetargetedMotion extends EditedMotion {
  details: RetargetDetails;
}

/** What `retarget` returns: an `Outcome` whose value is the retargeted motion. */
export type RetargetResult = Outcome<RetargetedMotion>;

/** The first bytes of `name` that fit a field of `length` bytes, cut at a character boundary (as MMD matches names). */
function nameBytes(name: string, length: number): Uint8Array {
  return fitNameField(length === BONE.NAME_LENGTH ? matchKey(name) : name, length).field;
}

/** The models behind a plan's skeletons, for their bone morphs (RetargetSampler). */
export interface SamplerModels {
  source: Pick<ModelData, 'format' | 'morphs'>;
  target: Pick<ModelData, 'format' | 'morphs'>;
  /** Per morph track (of targetMorphTracks, else of the motion), the name the target plays it by (null: left out). */
  targetMorphNames: readonly (string | null)[];
  /** The output's morph tracks, when they are not the motion's (merged or scaled by a map, retargetMorphs). */
  targetMorphTracks?: MorphTracks;
}

/**
 * Per-sample target pose computation: the source posed at a frame, the target posed to match. Exposed
 * for the editor's preview and for tests; `retarget` drives it over every half frame.
 *
 * Bone morphs (MMD rule, shared/skeleton/bone-morphs.ts), when `models` are given: the source is posed
 * with its bone morphs, as the preview plays the motion on it, so computed bones carry what the morphs
 * turn and move. The output's morph tracks play on the target too, with the target's own bone morphs:
 * the target's other bones are posed with them, and a computed bone's key is its local transform with
 * them taken back out (keyInto), so that the target, morphs applied, shows the source's pose once, not
 * twice. Copied (plain) tracks keep their keys byte for byte: there a source bone morph the target lacks
 * is not carried over (no key is computed for them).
 */
export class RetargetSampler {
  readonly sourcePose: Pose;
  readonly targetPose: Pose;
  readonly poser: MotionPoser;
  private readonly copyTracks: BoneTracks;
  private readonly v = new Float64Array(8);
  private readonly q = new Float64Array(8);
  /** The target's bone morphs the output keys (null: none). */
  private readonly targetMorphs: MotionBoneMorphs | null;
  /** The morph tracks the target plays (the output's). */
  private readonly targetMorphTracks: MorphTracks;
  /** At the frame last posed: the target's bone morphs as offsets from rest, Σ w·t (3 per bone) and their turns (4 per bone). */
  private readonly morphT: Float64Array;
  private readonly morphR: Float64Array;

  constructor(
    readonly plan: RetargetPlan,
    doc: VmdDocument,
    models: SamplerModels | null = null,
  ) {
    this.sourcePose = new Pose(plan.source);
    this.targetPose = new Pose(plan.target);
    const tracks = buildTracks(doc);
    this.poser = new MotionPoser(plan.source, doc, tracks, models?.source ?? null);
    this.copyTracks = this.poser.tracks!.bones;
    const tm = models ? new MotionBoneMorphs(models.target, models.targetMorphNames) : null;
    this.targetMorphs = tm?.any ? tm : null;
    this.targetMorphTracks = models?.targetMorphTracks ?? this.poser.tracks!.morphs;
    this.morphT = new Float64Array(3 * plan.target.count);
    this.morphR = new Float64Array(4 * plan.target.count);
    // Whether an append bone that is not computed lies above a computed one (then `at` evaluates the target).
    const T = plan.target;
    let between = false;
    for (let t = 0; t < T.count && !between; t++) {
      if (plan.kind[t] !== 'computed') continue;
      for (let p = T.parent[t]; p >= 0 && !between; p = T.parent[p]) {
        const b = T.bones[p];
        if (plan.kind[p] !== 'computed' && b.appendParent >= 0 && b.flags & (BONE_FLAG.APPEND_ROTATE | BONE_FLAG.APPEND_TRANSLATE)) between = true;
      }
    }
    this.appendBetween = between;
  }

  /**
   * The key of computed bone t at the frame last posed, into out (x, y, z, then the quaternion x, y, z, w):
   * its solved local transform with the target's bone morphs taken back out (T − Σ w·t, conj(turns) ⊗ R),
   * so that the target plays, morphs applied, the local transform solved here.
   */
  keyInto(t: number, out: Float64Array): void {
    const tp = this.targetPose;
    const o3 = 3 * t, o4 = 4 * t;
    out[0] = tp.solvedTranslation[o3]; out[1] = tp.solvedTranslation[o3 + 1]; out[2] = tp.solvedTranslation[o3 + 2];
    if (!this.targetMorphs) {
      out[3] = tp.solvedRotation[o4]; out[4] = tp.solvedRotation[o4 + 1]; out[5] = tp.solvedRotation[o4 + 2]; out[6] = tp.solvedRotation[o4 + 3];
      return;
    }
    out[0] -= this.morphT[o3]; out[1] -= this.morphT[o3 + 1]; out[2] -= this.morphT[o3 + 2];
    qconjMulInto(this.morphR, o4, tp.solvedRotation, o4, out, 3);
  }

  /** An append bone of the target lies above a computed bone: each frame is evaluated once more. */
  readonly appendBetween: boolean;

  /** Poses the source (FK, IK off) and the target at frame f. */
  at(f: number): void {
    const sp = this.sourcePose, tp = this.targetPose;
    this.poser.apply(sp, f);
    sp.evaluate('all', () => false);
    if (this.targetMorphs) {
      const m = this.targetMorphTracks;
      this.targetMorphs.fromRest((t) => sampleMorph(m, t, f), this.morphT, this.morphR);
    }
    this.sweep(f, true);
    if (!this.appendBetween) return;
    // An append (付与) bone of the target lies above a computed bone (腰キャンセル above 足): pose the target
    // as the output will play it, appends included, and place the computed bones again under it.
    const T = this.plan.target;
    for (let t = 0; t < T.count; t++) {
      if (this.plan.kind[t] !== 'computed') continue;
      tp.translation.set(tp.solvedTranslation.subarray(3 * t, 3 * t + 3), 3 * t);
      tp.rotation.set(tp.solvedRotation.subarray(4 * t, 4 * t + 4), 4 * t);
    }
    tp.evaluate('all', () => false);
    this.sweep(f, false);
  }

  /**
   * One pass over the target, parents first: computed bones placed from the source, the others from
   * their local transform. `first`: the others' local transforms are set from the motion (without their
   * append); else they keep what the last evaluate solved.
   */
  private sweep(f: number, first: boolean): void {
    const { plan } = this;
    const sp = this.sourcePose, tp = this.targetPose;
    const T: Skeleton = plan.target;
    const S: Skeleton = plan.source;
    const SW = sp.worldRotation, SP = sp.worldPosition;
    const TW = tp.worldRotation, TP = tp.worldPosition;
    const v = this.v, q = this.q;
    for (let k = 0; k < T.order.length; k++) {
      const t = T.order[k];
      const kind = plan.kind[t];
      if (kind !== 'computed') {
        // Local transform as the output will play it: the source's keys (plain), the track (copy), rest.
        if (first) {
          const o3 = 3 * t, o4 = 4 * t;
          if (kind === 'none') {
            tp.translation[o3] = tp.translation[o3 + 1] = tp.translation[o3 + 2] = 0;
            tp.rotation[o4] = tp.rotation[o4 + 1] = tp.rotation[o4 + 2] = 0;
            tp.rotation[o4 + 3] = 1;
          } else {
            sampleBoneInto(this.copyTracks, plan.track[t], f, tp.translation, tp.rotation, t);
          }
          if (this.targetMorphs) {
            // MMD rule — bone morphs (bone-morphs.ts): the output's morph keys play on this bone too.
            tp.translation[o3] += this.morphT[o3]; tp.translation[o3 + 1] += this.morphT[o3 + 1]; tp.translation[o3 + 2] += this.morphT[o3 + 2];
            qmulInto(this.morphR, o4, tp.rotation, o4, tp.rotation, o4);
          }
          tp.solvedTranslation.set(tp.translation.subarray(o3, o3 + 3), o3);
          tp.solvedRotation.set(tp.rotation.subarray(o4, o4 + 4), o4);
        }
        tp.updateWorld(t);
        continue;
      }
      const r = plan.rep[t];
      // Rotation: the representative's world rotation, turned by the arm compensation.
      qmulInto(SW, 4 * r, plan.compensation, 4 * t, q, 0);
      const p = T.parent[t];
      const a = plan.anchor[t];
      if (plan.translated[t]) {
        // Displacement of the representative from rest, in the frame of the anchor's representative.
        const sa = a >= 0 ? plan.rep[a] : -1;
        let dx: number, dy: number, dz: number;
        if (sa >= 0) {
          qinvRotInto(SW, 4 * sa, SP[3 * r] - SP[3 * sa], SP[3 * r + 1] - SP[3 * sa + 1], SP[3 * r + 2] - SP[3 * sa + 2], v, 0);
          dx = v[0] - (S.restPosition[3 * r] - S.restPosition[3 * sa]);
          dy = v[1] - (S.restPosition[3 * r + 1] - S.restPosition[3 * sa + 1]);
          dz = v[2] - (S.restPosition[3 * r + 2] - S.restPosition[3 * sa + 2]);
        } else {
          dx = SP[3 * r] - S.restPosition[3 * r];
          dy = SP[3 * r + 1] - S.restPosition[3 * r + 1];
          dz = SP[3 * r + 2] - S.restPosition[3 * r + 2];
        }
        const c = plan.scale[t];
        if (a >= 0) {
          // rest offset from the anchor plus the scaled displacement, in the anchor's frame
          const ox = T.restPosition[3 * t] - T.restPosition[3 * a] + c * dx;
          const oy = T.restPosition[3 * t + 1] - T.restPosition[3 * a + 1] + c * dy;
          const oz = T.restPosition[3 * t + 2] - T.restPosition[3 * a + 2] + c * dz;
          qrotInto(TW, 4 * a, ox, oy, oz, v, 4);
          v[4] += TP[3 * a]; v[5] += TP[3 * a + 1]; v[6] += TP[3 * a + 2];
        } else {
          v[4] = T.restPosition[3 * t] + c * dx;
          v[5] = T.restPosition[3 * t + 1] + c * dy;
          v[6] = T.restPosition[3 * t + 2] + c * dz;
        }
      } else if (p >= 0) {
        qrotInto(TW, 4 * p, T.restOffset[3 * t], T.restOffset[3 * t + 1], T.restOffset[3 * t + 2], v, 4);
        v[4] += TP[3 * p]; v[5] += TP[3 * p + 1]; v[6] += TP[3 * p + 2];
      } else {
        v[4] = T.restOffset[3 * t]; v[5] = T.restOffset[3 * t + 1]; v[6] = T.restOffset[3 * t + 2];
      }
      tp.setWorld(t, v.subarray(4, 7), q.subarray(0, 4));
    }
  }
}

/** The 64 interpolation bytes of bone record i. */
function physicsBytes(doc: VmdDocument, i: number): Uint8Array {
  const o = i * BONE.SIZE + BONE.INTERPOLATION;
  return doc.bone.bytes.subarray(o, o + BONE.INTERPOLATION_LENGTH);
}

interface ComputedTrack {
  bone: number;
  px: Float64Array;
  py: Float64Array;
  pz: Float64Array;
  q: Float64Array;
}

const DEG = Math.PI / 180;

/** A morph track's way onto the target: a target morph and the weight ratio. */
interface MorphRoute {
  to: string;
  ratio: number;
}

/**
 * Per morph track of the motion, the target morphs it goes to: the map's rows for it (one source onto
 * several targets, each with its ratio; targets the model lacks are dropped), else its own name; empty:
 * left out.
 */
function morphRoutes(names: readonly string[], target: ModelData, rows: readonly MapRow[]): MorphRoute[][] {
  const tMorph = new MorphNameIndex<string>();
  for (const m of target.morphs) tMorph.set(m.name, m.name);
  const lists = new Map<string, MapRow[]>();
  for (const r of rows) {
    let l = lists.get(r.from);
    if (!l) lists.set(r.from, (l = []));
    l.push(r);
  }
  const byFrom = new MorphNameIndex<MapRow[]>();
  for (const [from, l] of lists) byFrom.set(from, l);
  return names.map((nm) => {
    const rs = byFrom.get(nm);
    const out: MorphRoute[] = [];
    for (const r of rs ?? [{ from: nm, to: nm, ratio: 1 }]) {
      const t = tMorph.get(r.to);
      if (t !== undefined && !out.some((o) => o.to === t)) out.push({ to: t, ratio: r.ratio });
    }
    return out;
  });
}

/** The output's morph records and what became of each track (retarget's details and counts). */
interface MorphOutput {
  records: Uint8Array[];
  unmatched: RetargetDetails['unmatchedMorphs'];
  combined: RetargetDetails['combinedMorphs'];
  kept: number;
  changed: number;
  dropped: number;
}

/**
 * The output's morph keys. A target morph that one track reaches at ratio 1 takes its records byte for
 * byte (renamed where the name differs); one that several tracks reach, or one at another ratio, takes
 * their sum (vmd_sizing's 合算): at the union of their key frames, Σ ratio × weight, each track sampled as the
 * player samples it (linear between keys), clamped to [0, 1] — one key per frame, never two.
 */
function retargetMorphs(doc: VmdDocument, morphs: MorphTracks, routes: readonly MorphRoute[][]): MorphOutput {
  const out: MorphOutput = { records: [], unmatched: [], combined: [], kept: 0, changed: 0, dropped: 0 };
  const keysOf = (k: number) => morphs.start[k + 1] - morphs.start[k];
  // By output name (as the field holds it), in the order the tracks first reach them.
  const groups = new Map<string, { field: Uint8Array; parts: { k: number; ratio: number }[] }>();
  routes.forEach((rs, k) => {
    if (!rs.length) {
      out.unmatched.push({ morph: morphs.names[k], keys: keysOf(k) });
      out.dropped += keysOf(k);
      return;
    }
    for (const r of rs) {
      const field = nameBytes(r.to, MORPH.NAME_LENGTH);
      const key = decodeName(field);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { field, parts: [] }));
      g.parts.push({ k, ratio: r.ratio });
    }
  });
  for (const [name, { field, parts }] of groups) {
    if (parts.length === 1 && parts[0].ratio === 1) {
      const k = parts[0].k;
      const rename = name !== morphs.names[k];
      for (let i = morphs.start[k]; i < morphs.start[k + 1]; i++) {
        const r = recordBytes(doc.morph, morphs.record[i]).slice();
        if (rename) r.set(field, 0);
        out.records.push(r);
      }
      out.kept += keysOf(k);
      if (rename) out.changed += keysOf(k);
      continue;
    }
    const frames = new Set<number>();
    for (const { k } of parts) for (let i = morphs.start[k]; i < morphs.start[k + 1]; i++) frames.add(morphs.frames[i]);
    const sorted = [...frames].sort((a, b) => a - b);
    let clamped = 0;
    for (const f of sorted) {
      let w = 0;
      for (const { k, ratio } of parts) w += ratio * sampleMorph(morphs, k, f);
      // A float32 sum a hair past 1 (0.7 + 0.3) is 1, not a clamp worth a warning.
      if (w < -1e-6 || w > 1 + 1e-6) clamped++;
      w = Math.min(1, Math.max(0, w));
      out.records.push(encodeMorphRecord({ name: field, frame: f, weight: w }));
    }
    out.kept += sorted.length;
    out.changed += sorted.length;
    out.combined.push({ morph: name, from: parts.map(({ k, ratio }) => ({ morph: morphs.names[k], ratio })), keys: sorted.length, clamped });
  }
  return out;
}

/** Tracks a warning names before it says how many more: a model for another rig leaves out hundreds (Gene_light → the low-poly Miku: 183 bones, 172 morphs), which the report's details list in full. */
const LISTED = 12;

/**
 * The tracks left out, said with a code (W_RETARGET_BONES_LEFT_OUT, …_MORE where the list is cut): `what` is
 * 'bone' or 'morph'; the first LISTED of `items` and how many more.
 */
function warnLeftOut(rep: EditReport, what: 'bone' | 'morph', items: readonly string[]): void {
  const n = items.length, list = items.slice(0, LISTED).join(', '), more = n - LISTED;
  const code = `W_RETARGET_${what.toUpperCase()}S_LEFT_OUT`;
  const head = `${plural(count(n), `${what} track`)} the target model lacks ${agree(n, 'was', 'were')} left out: ${list}`;
  if (more > 0) warn(rep, `${code}_MORE`, `${head} and ${more} more (the report's details list them all)`, { n, list, more });
  else warn(rep, code, head, { n, list });
}

/** A map row that does nothing (RetargetDetails.unusedMapRows) with its warning's code, kept out of the details (--json). */
type UnusedMapRow = RetargetDetails['unusedMapRows'][number] & { code: string };

/**
 * The map rows that do nothing, and why: a bone row whose target bone the target model lacks, or whose source
 * bone neither the source model nor the motion has (a typo, or a map made for other models); a morph row whose
 * morph the target or the motion lacks. Names are matched as the retarget matches them (full/half width,
 * English names, a VMD field's cut).
 */
function unusedMapRows(mapping: SplitMapping, source: ModelData, target: ModelData, boneTracks: readonly string[], morphTracks: readonly string[]): UnusedMapRow[] {
  const out: UnusedMapRow[] = [];
  if (mapping.bones?.size) {
    const t = new BoneNameIndex(target.bones), s = new BoneNameIndex(source.bones);
    const tracks = new BoneNameIndex(boneTracks.map((name) => ({ name })));
    for (const [from, to] of mapping.bones) {
      if (t.find(to) < 0) out.push({ section: 'bones', from, to, why: `the target model has no bone ${to}`, code: 'W_RETARGET_MAP_NO_TARGET_BONE' });
      else if (s.find(from) < 0 && tracks.find(from) < 0) out.push({ section: 'bones', from, to, why: `neither the source model nor the motion has a bone ${from}`, code: 'W_RETARGET_MAP_NO_SOURCE_BONE' });
    }
  }
  if (mapping.morphs.length) {
    const t = new MorphNameIndex<true>(), m = new MorphNameIndex<true>();
    for (const x of target.morphs) t.set(x.name, true);
    for (const n of morphTracks) m.set(n, true);
    for (const { from, to } of mapping.morphs) {
      if (!t.get(to)) out.push({ section: 'morphs', from, to, why: `the target model has no morph ${to}`, code: 'W_RETARGET_MAP_NO_TARGET_MORPH' });
      else if (!m.get(from)) out.push({ section: 'morphs', from, to, why: `the motion has no morph track ${from}`, code: 'W_RETARGET_MAP_NO_MORPH_TRACK' });
    }
  }
  return out;
}

/** A map as the retarget reads it: its bone rows (source → target bone) and its morph rows in order. */
interface SplitMapping {
  bones: Map<string, string> | undefined;
  morphs: MapRow[];
}

/**
 * The map's bone and morph rows. A map without sections (CSV, JSON pairs: vmd_sizing's morph maps are
 * such CSVs) has its rows sorted by the models: a row is a morph row when the target has the morph it
 * names and no bone of that name, or when the motion has a morph track of its source name that no bone
 * (of the source model, the motion or the target) shares; else a bone row, as before.
 */
function splitMapping(mapping: NameMapping | undefined, source: ModelData, target: ModelData, boneTracks: readonly string[], morphTracks: readonly string[]): SplitMapping {
  if (!mapping) return { bones: undefined, morphs: [] };
  const morphs = morphRowsOf(mapping);
  if (!mapping.looseRows) return { bones: mapping.bones, morphs };
  const tBone = new BoneNameIndex(target.bones), sBone = new BoneNameIndex(source.bones);
  const bTrack = new BoneNameIndex(boneTracks.map((name) => ({ name })));
  const tMorph = new MorphNameIndex<true>(), mTrack = new MorphNameIndex<true>();
  for (const x of target.morphs) tMorph.set(x.name, true);
  for (const n of morphTracks) mTrack.set(n, true);
  const bones = new Map<string, string>();
  for (const r of mapping.looseRows) {
    const noBone = tBone.find(r.to) < 0;
    const morph = (noBone && tMorph.get(r.to) === true) || (noBone && mTrack.get(r.from) === true && sBone.find(r.from) < 0 && bTrack.find(r.from) < 0);
    if (morph) morphs.push(r);
    else bones.set(r.from, r.to);
  }
  return { bones, morphs };
}

/**
 * The bones a body is told by (canonical bases, either side): a target with none of them taking the motion is
 * not a figure it can play on. センター, グルーブ and 腰 (the movers above the body) do not count on their own:
 * a model whose only standard bone is センター (babylon-mmd's bone_flag_test.pmx, matcap_sample.pmx) would get
 * one track of centre moves and be "written".
 */
const MOVER_BONES = ['センター', 'グルーブ', '腰'];
const BODY_BONES = ['上半身', '上半身2', '下半身', '首', '頭', '肩', '腕', 'ひじ', '手首', '足', 'ひざ', '足首', '足ＩＫ'];
const BODY_SET = new Set(BODY_BONES.map(canonicalBoneName));
const MOVER_SET = new Set(MOVER_BONES.map(canonicalBoneName));

/**
 * Why the target cannot take the motion (null when it can): not one of its body bones (BODY_BONES) has a
 * source bone, by name or by the map. Without it the output would key a stray bone or nothing, and say "written".
 * `standardSource`: the source is the standard skeleton (no --from), which the message names as such.
 */
function noBodyBones(plan: RetargetPlan, standardSource: boolean): string | null {
  const T = plan.target.bones;
  const movers: string[] = [];
  for (let t = 0; t < T.length; t++) {
    if (plan.rep[t] < 0 && plan.kind[t] === 'none') continue;
    const base = canonicalBoneName(T[t].name).replace(/^[左右]/, '');
    if (BODY_SET.has(base)) return null;
    if (MOVER_SET.has(base)) movers.push(T[t].name);
  }
  // A map that gives the motion to bones of other names is taken at its word.
  if (plan.match.how.some((h) => h === 'map')) return null;
  const of = standardSource ? 'the standard MMD skeleton' : 'the source model';
  const has = movers.length ? `of the standard bones it has only ${movers.join(', ')}, which ${movers.length === 1 ? 'moves' : 'move'} the whole model; ` : '';
  return `the target model has no standard MMD body bone to play the motion on: ${has}it needs the trunk and limbs (上半身/下半身, arms, legs), and none of ${BODY_BONES.join(', ')} (either side, or their English names) matches a bone of ${of}; a --map can name them`;
}

/** Bone map rows that took a target bone whose own track the motion has under another source bone (RetargetDetails.replacedByMap). */
function replacedByMap(boneMap: Map<string, string> | undefined, sk: Skeleton, tk: Skeleton, plan: RetargetPlan, trackNames: readonly string[], keysOf: (k: number) => number): RetargetDetails['replacedByMap'] {
  const out: RetargetDetails['replacedByMap'] = [];
  if (!boneMap?.size) return out;
  const s = new BoneNameIndex(sk.bones), t = new BoneNameIndex(tk.bones), tracks = new BoneNameIndex(trackNames.map((name) => ({ name })));
  for (const [from, to] of boneMap) {
    const si = s.find(from), ti = t.find(to);
    if (si < 0 || ti < 0 || plan.match.target[si] !== ti || plan.match.how[si] !== 'map') continue;
    const k = tracks.find(tk.bones[ti].name);
    if (k < 0 || k === plan.sourceTrack[si] || keysOf(k) === 0) continue;
    out.push({ from, to, track: trackNames[k], keys: keysOf(k) });
  }
  return out;
}

/**
 * Retargets `doc`, made for `source`, onto `target`. Never throws for a bad input: errors are values.
 */
export function retarget(doc: VmdDocument, source: ModelData, target: ModelData, opts: RetargetOptions = {}): RetargetResult {
  const posTol = opts.position ?? DEFAULT_TOLERANCES.position;
  const rotTol = opts.rotationDeg ?? DEFAULT_TOLERANCES.rotationDeg;
  if (!(posTol > 0) || !(rotTol > 0) || !Number.isFinite(posTol) || !Number.isFinite(rotTol)) return failure({ code: 'E_ARGUMENT', message: 'tolerances must be numbers greater than 0' });
  // A camera or light motion has no bone to fit: its keys are copied as they are (a camera that goes with a dance
  // stays with it in a batch's output folder), and the report says so, so that it does not read as fitted.
  const stage = stageMotionWords(doc);
  const tracks = buildTracks(doc);
  const bones = tracks.bones;
  // The standard skeleton stands for MMD's standard model, semi-standard bones included: those the motion keys are added (semi-standard.ts).
  const standardSource = isStandardFigure(source);
  if (standardSource) source = { ...source, bones: withSemiStandardBones(source.bones, bones.names) };
  const sk = buildSkeleton(source.bones), tk = buildSkeleton(target.bones);
  const morphs = buildMorphTracks(doc.morph);
  const maps = splitMapping(opts.mapping, source, target, bones.names, morphs.names);
  const plan = planRetarget(sk, tk, bones.names, { boneMap: maps.bones, scale: opts.scale });
  const bodyless = noBodyBones(plan, standardSource);
  if (bodyless) return failure({ code: 'E_RETARGET', message: bodyless });
  const morphOut = retargetMorphs(doc, morphs, morphRoutes(morphs.names, target, maps.morphs));
  // The target plays the output's morph tracks (merged and scaled as written) with its bone morphs.
  const outMorphTracks = buildMorphTracks(blockFromRecords('morph', morphOut.records));
  const sampler = new RetargetSampler(plan, doc, { source, target, targetMorphNames: outMorphTracks.names, targetMorphTracks: outMorphTracks });
  const rep = newReport('retarget');
  const keysOf = (k: number) => bones.start[k + 1] - bones.start[k];

  // The bone block's frame range: every computed track spans it.
  let f0 = Infinity, f1 = -Infinity;
  for (let k = 0; k < bones.names.length; k++) {
    if (bones.start[k + 1] === bones.start[k]) continue;
    f0 = Math.min(f0, bones.frames[bones.start[k]]);
    f1 = Math.max(f1, bones.frames[bones.start[k + 1] - 1]);
  }
  const computed: ComputedTrack[] = [];
  if (f0 <= f1) {
    const n = f1 - f0 + 1;
    const dense = denseRefusal('retarget', f0, f1, plan.kind.filter((k) => k === 'computed').length);
    if (dense) return failure(dense);
    for (let t = 0; t < tk.count; t++) {
      if (plan.kind[t] !== 'computed') continue;
      computed.push({ bone: t, px: new Float64Array(n), py: new Float64Array(n), pz: new Float64Array(n), q: new Float64Array(4 * n) });
    }
    const key = new Float64Array(7);
    for (let j = 0; j < n; j++) {
      sampler.at(f0 + j);
      for (const c of computed) {
        sampler.keyInto(c.bone, key);
        c.px[j] = key[0];
        c.py[j] = key[1];
        c.pz[j] = key[2];
        let x = key[3], y = key[4], z = key[5], w = key[6];
        // One hemisphere from sample to sample (q and −q are one rotation).
        if (j > 0 && x * c.q[4 * j - 4] + y * c.q[4 * j - 3] + z * c.q[4 * j - 2] + w * c.q[4 * j - 1] < 0) {
          x = -x; y = -y; z = -z; w = -w;
        } else if (j === 0 && w < 0) {
          x = -x; y = -y; z = -z; w = -w;
        }
        c.q[4 * j] = x; c.q[4 * j + 1] = y; c.q[4 * j + 2] = z; c.q[4 * j + 3] = w;
      }
    }
  }

  // Bone records: copied tracks, then computed ones (fitted), in target bone order.
  const out: Uint8Array[] = [];
  const details: RetargetDetails = {
    sourceModel: source.name,
    targetModel: target.name,
    sourceLegLength: plan.sourceRest.legLength,
    targetLegLength: plan.targetRest.legLength,
    legRatio: plan.legRatio,
    armCompensationDeg: plan.armCompensationDeg,
    scaled: [],
    folded: [],
    refitted: [],
    copied: [],
    renamed: [],
    unmatched: [],
    unmatchedMorphs: morphOut.unmatched,
    combinedMorphs: morphOut.combined,
    maxPositionError: 0,
    maxRotationErrorDeg: 0,
    unusedMapRows: [],
    replacedByMap: replacedByMap(maps.bones, sk, tk, plan, bones.names, keysOf),
    sourceCheck: stage ? null : checkSource(decodeName(doc.modelName).trim(), source, target, standardSource, plan.legRatio, doc.modelName.length || MODEL_NAME_LENGTH_V2),
  };
  const bc = rep.byKind.bone;
  const takenTracks = new Set<number>();
  for (let t = 0; t < tk.count; t++) {
    const kind = plan.kind[t];
    if (kind !== 'plain' && kind !== 'copy') continue;
    const k = plan.track[t];
    const name = nameBytes(target.bones[t].name, BONE.NAME_LENGTH);
    const as = decodeName(name);
    for (let i = bones.start[k]; i < bones.start[k + 1]; i++) {
      // Only the name changes, and only where the target spells the bone differently (raw bytes otherwise).
      const r = recordBytes(doc.bone, bones.record[i]).slice();
      if (as !== bones.names[k]) r.set(name, 0);
      out.push(r);
    }
    takenTracks.add(k);
    bc.kept += keysOf(k);
    if (as !== bones.names[k]) bc.changed += keysOf(k);
    details.copied.push({ bone: bones.names[k], as, keys: keysOf(k) });
    if (as !== bones.names[k]) details.renamed.push({ bone: bones.names[k], as, keys: keysOf(k) });
  }

  let done = 0;
  const outTracks: { bone: number; c: ComputedTrack; first: number; count: number }[] = [];
  // Computed bones whose own track rests throughout (a tip bone's one identity key) and whose computed pose stays
  // within the tolerances of rest: their records are kept as they are, not re-fitted into float noise (左手先 below
  // a turned arm got two keys of 1e-5 moves and a quaternion of length 0.99997).
  const keptAsIs = new Set<number>();
  const restingTrack = (k: number): boolean => {
    for (let i = bones.start[k]; i < bones.start[k + 1]; i++) {
      const r = recordBytes(doc.bone, bones.record[i]);
      const v = new DataView(r.buffer, r.byteOffset, r.byteLength);
      for (let ch = 0; ch < 3; ch++) if (v.getFloat32(BONE.POSITION + 4 * ch, true) !== 0 || v.getFloat32(BONE.ROTATION + 4 * ch, true) !== 0) return false;
      if (v.getFloat32(BONE.ROTATION + 12, true) !== 1) return false;
    }
    return true;
  };
  const nearRest = (c: ComputedTrack, pTol: number): boolean => {
    for (let j = 0; j < c.px.length; j++) {
      if (Math.abs(c.px[j]) > pTol || Math.abs(c.py[j]) > pTol || Math.abs(c.pz[j]) > pTol) return false;
      const q = c.q, o = 4 * j;
      if ((2 * Math.atan2(Math.hypot(q[o], q[o + 1], q[o + 2]), Math.abs(q[o + 3]))) / DEG > rotTol) return false;
    }
    return true;
  };
  // Each computed track fitted to its samples: its records (null: resting throughout and never keyed, no track).
  const fitTrack = (c: ComputedTrack, pTol = posTol): Uint8Array[] | null => {
    const t = c.bone;
    const n = c.px.length;
    let moves = false;
    for (let j = 0; j < n && !moves; j++) {
      if (Math.abs(c.px[j]) > 1e-7 || Math.abs(c.py[j]) > 1e-7 || Math.abs(c.pz[j]) > 1e-7) moves = true;
      else if (Math.abs(c.q[4 * j]) > 1e-9 || Math.abs(c.q[4 * j + 1]) > 1e-9 || Math.abs(c.q[4 * j + 2]) > 1e-9) moves = true;
    }
    // Resting throughout: no track, unless the motion keyed the bone (its keys then say so, as before).
    const keyedBefore = (plan.targetToSource[t] >= 0 && plan.sourceTrack[plan.targetToSource[t]] >= 0) || plan.sourceTrack[plan.rep[t]] >= 0;
    if (!moves && !keyedBefore) return null;
    const own = plan.targetToSource[t] >= 0 ? plan.sourceTrack[plan.targetToSource[t]] : -1;
    if (own >= 0 && restingTrack(own) && nearRest(c, pTol)) {
      keptAsIs.add(t);
      const field = nameBytes(target.bones[t].name, BONE.NAME_LENGTH);
      const rename = decodeName(field) !== bones.names[own];
      const kept: Uint8Array[] = [];
      for (let i = bones.start[own]; i < bones.start[own + 1]; i++) {
        const r = recordBytes(doc.bone, bones.record[i]).slice();
        if (rename) r.set(field, 0);
        kept.push(r);
      }
      return kept;
    }
    keptAsIs.delete(t);
    // Physics on/off (bytes 2–3 of a key) follows the target bone's own source track, else its representative's:
    // a key where it changes, and each written key takes the state in force at its frame.
    const pk = plan.targetToSource[t] >= 0 && plan.sourceTrack[plan.targetToSource[t]] >= 0 ? plan.sourceTrack[plan.targetToSource[t]] : plan.sourceTrack[plan.rep[t]];
    const forced: number[] = [];
    const offAt = (g: number): boolean => {
      if (pk < 0) return false;
      let i = keyAtOrBefore(bones.frames, bones.start[pk], bones.start[pk + 1], g);
      if (i < bones.start[pk]) i = bones.start[pk];
      return physicsOff(physicsBytes(doc, bones.record[i]));
    };
    if (pk >= 0) {
      let prev: boolean | null = null;
      for (let i = bones.start[pk]; i < bones.start[pk + 1]; i++) {
        const off = physicsOff(physicsBytes(doc, bones.record[i]));
        if (prev !== null && off !== prev && bones.frames[i] > f0 && bones.frames[i] < f1) forced.push(bones.frames[i]);
        prev = off;
      }
    }
    const w: SampledWindow = {
      g0: f0,
      g1: f1,
      perFrame: 1,
      forced,
      groups: [
        { kind: 'curve', comps: [c.px], tol: pTol },
        { kind: 'curve', comps: [c.py], tol: pTol },
        { kind: 'curve', comps: [c.pz], tol: pTol },
        { kind: 'quat', q: c.q, tol: rotTol * DEG },
      ],
    };
    const fit = f1 > f0 ? fitWindow(w) : { frames: [f0], curves: [null] };
    const name = nameBytes(target.bones[t].name, BONE.NAME_LENGTH);
    const records: Uint8Array[] = [];
    for (let i = 0; i < fit.frames.length; i++) {
      const g = fit.frames[i];
      const j = g - f0;
      const ip = defaultBoneInterpolation();
      const curves = fit.curves[i];
      if (curves) {
        const set: Partial<Record<BoneChannel, Curve>> = {};
        for (let ch = 0; ch < 4; ch++) set[ch as BoneChannel] = [curves[4 * ch], curves[4 * ch + 1], curves[4 * ch + 2], curves[4 * ch + 3]];
        setBoneCurves(ip, set);
      }
      if (offAt(g)) setPhysicsOff(ip, true);
      records.push(encodeBoneRecord({ name, frame: g, position: [c.px[j], c.py[j], c.pz[j]], rotation: [c.q[4 * j], c.q[4 * j + 1], c.q[4 * j + 2], c.q[4 * j + 3]], interpolation: ip }));
    }
    return records;
  };
  const fitted = computed.map((c) => {
    const records = fitTrack(c);
    opts.progress?.(++done, computed.length);
    return records;
  });

  // IK/display keys: each IK name goes to the target bone its source bone became; IK bones the target lacks are left out.
  const ikOut: Uint8Array[] = [];
  const tIkNames = new Set(target.bones.filter((b) => b.ik || b.flags & BONE_FLAG.IK).map((b) => matchKey(b.name)));
  let ikChanged = 0;
  for (let i = 0; i < doc.ik.count; i++) {
    const key = ikKey(doc.ik, i);
    const iks: { name: Uint8Array; enabled: number }[] = [];
    let changed = false;
    for (const it of key.iks) {
      const s = sk.byKey.get(matchKey(it.name));
      let t = s !== undefined ? plan.match.target[s] : -1;
      if (t < 0) {
        const direct = tk.byKey.get(matchKey(it.name));
        t = direct ?? -1;
      }
      if (t < 0 || !tIkNames.has(matchKey(target.bones[t].name))) {
        changed = true;
        continue;
      }
      const nb = nameBytes(target.bones[t].name, IK.ITEM_NAME_LENGTH);
      if (decodeName(nb) !== it.name) changed = true;
      iks.push({ name: nb, enabled: it.enabled ? 1 : 0 });
    }
    if (!changed) ikOut.push(recordBytes(doc.ik, i).slice());
    else {
      ikChanged++;
      ikOut.push(encodeIkRecord({ frame: key.frame, visible: key.visible ? 1 : 0, iks }));
    }
  }

  // Feet on the floor (足IK補正): the leg IK tracks raised where the target's toe would go through the floor.
  if (opts.floor !== false && f0 < f1) {
    details.floor = floorCorrection({
      doc, source, target, sk, tk, plan, f0, posTol, computed, fitted, fitTrack,
      play: (boneRecords) => withBlocks(doc, { bone: blockFromRecords('bone', boneRecords), morph: blockFromRecords('morph', morphOut.records), ik: ikBlockFromRecords(ikOut) }),
      copiedRecords: out,
    });
  }

  computed.forEach((c, i) => {
    const records = fitted[i];
    if (!records) return;
    const t = c.bone;
    outTracks.push({ bone: t, c, first: out.length, count: records.length });
    for (const r of records) out.push(r);
    if (keptAsIs.has(t)) {
      // Kept as they were (renamed at most): a copied track, as the plan's plain ones.
      const k = plan.sourceTrack[plan.targetToSource[t]];
      const as = decodeName(nameBytes(target.bones[t].name, BONE.NAME_LENGTH));
      takenTracks.add(k);
      bc.kept += keysOf(k);
      if (as !== bones.names[k]) bc.changed += keysOf(k);
      details.copied.push({ bone: bones.names[k], as, keys: keysOf(k) });
      if (as !== bones.names[k]) details.renamed.push({ bone: bones.names[k], as, keys: keysOf(k) });
      return;
    }
    bc.added += records.length;
    details.refitted.push({ bone: target.bones[t].name, keys: records.length });
    // The bone's own source track, now under the target's spelling of it.
    const s = plan.targetToSource[t], k = s >= 0 ? plan.sourceTrack[s] : -1;
    const as = decodeName(nameBytes(target.bones[t].name, BONE.NAME_LENGTH));
    if (k >= 0 && as !== bones.names[k]) details.renamed.push({ bone: bones.names[k], as, keys: keysOf(k) });
    if (plan.scale[t] !== 1 && plan.translated[t]) details.scaled.push(target.bones[t].name);
  });

  // Measure the written computed tracks against the samples (the player's sampling, not the fitter's).
  if (outTracks.length) {
    const block = blockFromRecords('bone', out);
    const bt = buildBoneTracks(block);
    const pos = new Float64Array(3), rot = new Float64Array(4);
    for (const o of outTracks) {
      const k = bt.index.get(decodeName(nameBytes(target.bones[o.bone].name, BONE.NAME_LENGTH)));
      if (k === undefined) continue;
      const n = o.c.px.length;
      for (let j = 0; j < n; j++) {
        sampleBoneInto(bt, k, f0 + j, pos, rot, 0);
        details.maxPositionError = Math.max(details.maxPositionError, Math.abs(pos[0] - o.c.px[j]), Math.abs(pos[1] - o.c.py[j]), Math.abs(pos[2] - o.c.pz[j]));
        details.maxRotationErrorDeg = Math.max(details.maxRotationErrorDeg, quatAngleDeg(rot, 0, o.c.q, 4 * j));
      }
    }
  }

  for (const [k, into] of plan.folded) details.folded.push({ bone: bones.names[k], keys: keysOf(k), into: into.map((t) => target.bones[t].name) });
  for (const k of plan.unmatchedTracks) details.unmatched.push({ bone: bones.names[k], keys: keysOf(k) });
  for (let k = 0; k < bones.names.length; k++) if (!takenTracks.has(k)) bc.dropped += keysOf(k);
  bc.collisions += bones.duplicates;

  // Morphs: matched by name, or by the map's morph rows (retargetMorphs).
  const mc = rep.byKind.morph;
  mc.kept += morphOut.kept;
  mc.changed += morphOut.changed;
  mc.dropped += morphOut.dropped;
  mc.collisions += morphs.duplicates;

  rep.byKind.ik.kept = ikOut.length;
  rep.byKind.ik.changed = ikChanged;
  for (const k of ['camera', 'light', 'shadow'] as const) rep.byKind[k].kept = doc[k].count;

  const x = rep.extra;
  x.legRatio = plan.legRatio;
  x.sourceLegLength = plan.sourceRest.legLength ?? 0;
  x.targetLegLength = plan.targetRest.legLength ?? 0;
  x.armCompensationLeftDeg = plan.armCompensationDeg.left;
  x.armCompensationRightDeg = plan.armCompensationDeg.right;
  x.tracksCopied = details.copied.length;
  x.tracksRefitted = details.refitted.length;
  x.tracksFolded = details.folded.length;
  x.tracksUnmatched = details.unmatched.length;
  x.tracksRenamed = details.renamed.length;
  x.morphTracksUnmatched = details.unmatchedMorphs.length;
  x.boneKeysBefore = bones.frames.length;
  x.boneKeysAfter = out.length;
  // The whole-file totals say nothing of re-fitting alone (left-out tracks are in them): the re-fitted bones' own keys, apart.
  const kc = retargetKeyCounts(details, bones.frames.length);
  x.refittedKeysBefore = kc.refittedBefore;
  x.refittedKeysAfter = kc.refittedAfter;
  x.copiedKeys = kc.copiedKeys;
  x.leftOutKeys = kc.leftOutKeys;
  x.maxPositionError = details.maxPositionError;
  x.maxRotationErrorDeg = details.maxRotationErrorDeg;
  const unused = unusedMapRows(maps, source, target, bones.names, morphs.names);
  details.unusedMapRows = unused.map(({ code: _code, ...u }) => u);
  // Each row said on its own: a row that does nothing is a typo or a map for other models, which the counts hide.
  for (const u of unused) warn(rep, u.code, `map row ${u.from},${u.to}${u.section === 'morphs' ? ' (morphs)' : ''} does nothing: ${u.why}`, { from: u.from, to: u.to });
  const tIndex = new BoneNameIndex(target.bones);
  for (const x of details.replacedByMap) {
    // Where the replaced track went: folded into other bones (into the bone it was replaced on is no news:
    // "folded 首→首" read as nothing happening), or left out.
    const went = details.folded.find((f) => f.bone === x.track);
    const elsewhere = went ? went.into.filter((b) => b !== x.track && b !== x.to) : [];
    const leftOut = !went && details.unmatched.some((u) => u.bone === x.track);
    const fate = elsewhere.length ? `; its turns are folded into ${elsewhere.join('/')}` : leftOut ? '; it is left out' : '';
    // The row's source bone, when the target has one of that name, is now played by nothing.
    const own = tIndex.find(x.from);
    const unkeyed = own >= 0 && plan.kind[own] === 'none' ? `; ${target.bones[own].name} is now not keyed` : '';
    // One code per wording (W_RETARGET_MAP_REPLACES, …_FOLDED or …_LEFT_OUT, then …_UNKEYED).
    const code = `W_RETARGET_MAP_REPLACES${elsewhere.length ? '_FOLDED' : leftOut ? '_LEFT_OUT' : ''}${unkeyed ? '_UNKEYED' : ''}`;
    warn(rep, code, `map row ${x.from},${x.to}: ${x.track}'s own track (${count(x.keys)} keys) is replaced by ${x.from}'s${fate}${unkeyed}`, {
      from: x.from, to: x.to, track: x.track, keys: x.keys, ...(elsewhere.length ? { into: elsewhere.join('/') } : {}), ...(unkeyed ? { bone: target.bones[own].name } : {}),
    });
  }
  if (details.unmatched.length) warnLeftOut(rep, 'bone', details.unmatched.map((u) => `${u.bone} (${u.keys})`));
  for (const c of details.combinedMorphs) {
    if (c.from.length > 1) {
      const list = c.from.map((x) => (x.ratio === 1 ? x.morph : `${x.morph} ×${x.ratio}`)).join(', ');
      warn(rep, 'W_RETARGET_MORPHS_ADDED', `morph tracks ${list} land on one morph ${c.morph}: their weights were added frame by frame (${plural(count(c.keys), 'key')})`, { list, morph: c.morph, n: c.keys });
    }
    if (c.clamped) {
      const added = c.from.length > 1;
      warn(rep, added ? 'W_RETARGET_MORPH_CLAMPED_ADDED' : 'W_RETARGET_MORPH_CLAMPED_SCALED', `morph ${c.morph}: ${plural(count(c.clamped), 'key')} of the ${added ? 'added' : 'scaled'} weights fell outside 0 to 1 and ${agree(c.clamped, 'was', 'were')} clamped`, { morph: c.morph, n: c.clamped });
    }
  }
  if (details.unmatchedMorphs.length) warnLeftOut(rep, 'morph', details.unmatchedMorphs.map((u) => `${u.morph} (${u.keys})`));
  const fl = details.floor;
  if (fl) {
    x.floorFrames = fl.frames;
    x.floorMaxCorrection = fl.maxCorrection;
    // Leg IK copied as it is (not scaled: --no-scale, or the same leg length) needs no correction and is not warned of.
    if (!fl.applied && fl.why && fl.why !== 'not-scaled') warn(rep, fl.why === 'no-leg-ik' ? 'W_RETARGET_FLOOR_NO_LEG_IK' : 'W_RETARGET_FLOOR_NO_TOE', `feet on the floor: not corrected (${FLOOR_NOT_DONE[fl.why]})`);
    if (fl.applied && fl.maxCorrectionShare > FLOOR_WARN_SHARE) {
      const moved = fl.maxCorrection.toFixed(3), share = (100 * fl.maxCorrectionShare).toFixed(0);
      warn(rep, 'W_RETARGET_FLOOR_LARGE', `feet on the floor: a leg IK goal moved by ${moved} (${share}% of the target's leg length): the two models' proportions differ a lot; check the legs (--no-floor leaves them as scaled)`, { moved, share });
    }
  }
  const check = sourceCheckNote(details, standardSource);
  if (check) warn(rep, check.code, check.message, check.params);
  if (stage) {
    // By which keys the motion has (the words name them): W_RETARGET_STAGE_CAMERA, …_LIGHT or …_CAMERA_LIGHT.
    const camera = doc.camera.count, light = doc.light.count;
    warn(rep, `W_RETARGET_STAGE${camera ? '_CAMERA' : ''}${light ? '_LIGHT' : ''}`, `${stage.words}: copied unchanged (retarget fits a model's motion; a ${stage.kind} motion is not fitted to the target model's size)`, { kind: stage.kind, camera, light });
  }

  const outDoc = withBlocks(doc, {
    bone: blockFromRecords('bone', out),
    morph: blockFromRecords('morph', morphOut.records),
    ik: ikBlockFromRecords(ikOut),
  });
  // A camera or light motion keeps its header (MMD knows a camera motion by its name, カメラ・照明).
  // The target's name, cut at a character as MMD cuts a long one, and said (it was cut without a word).
  const name = stage ? null : modelNameField(target.name, outDoc.modelName.length || MODEL_NAME_LENGTH_V2);
  if (name?.note) warn(rep, name.note.code, name.note.message, name.note.params);
  const withName: VmdDocument = name ? { ...outDoc, modelName: name.field } : outDoc;
  return success({ doc: withName, report: finishReport(rep), details });
}
