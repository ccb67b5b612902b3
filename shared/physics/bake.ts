/**
 * Physics bake: the simulated motion of every physics-driven bone written into the VMD as keys that carry the
 * physics-off flag (99, 15), so the motion plays the same in every program, MMD with its physics on included.
 *
 * What "plays the same" means here: OUT played with physics off (shared/skeleton's MotionPoser: the keys, then
 * IK as OUT's IK keys switch it) puts every baked bone at its simulated world position and rotation, within the
 * tolerance, at every frame of A..B. Three things make that hold:
 *  - Chains are fitted parent first, and each bone's keys are the local transform that puts it at its simulated
 *    world transform under its parent *as the fitted keys play it*: a parent's fitting error is absorbed by its
 *    child instead of adding up down a hair chain (fitting every bone against the simulation's own parent left
 *    0.03 units at the tip of a six-bone chain for a 0.01 tolerance).
 *  - The tolerance is met in world space: a bone's world rotation error is its key's rotation error, and its world
 *    position error the length of its key's position error, so each position axis is fitted within U/√3.
 *  - IK chains with baked links are switched off over A..B by IK keys (the VMD's show/IK block), so IK does not
 *    solve them again over the baked keys. With physics on MMD leaves a chain of physics bones to physics (the
 *    simulation never solves it), and with physics off it would bend the baked hair back to the IK target. An IK
 *    key is added at A (and the motion's keys inside A..B get the chain off); at B+1, when the motion goes on, a key
 *    gives the chains back the state the motion had there. Each new IK key lists every IK bone of the model with
 *    its state in force, as MMD writes them. A chain with baked links and other links (none in the corpus) is
 *    switched off too: its other links then hold their keyed rotation.
 *
 * Physics outside A..B stays as the motion had it, as IK does: the physics-off flag of the first baked key would
 * hold before A (a bone's first key's flag is in force before it) and that of the last after B. So a baked bone
 * without a key of its own at A−1 gets one there, and, when the motion goes on after B, at B+1: each with the
 * motion's own value at that frame (physics-off playback goes on as the motion had it instead of sliding into the
 * baked keys) and the physics state the motion had there (on, unless the motion's own key in force turned it
 * off). Inside A..B the baked bones follow the motion's keys' physics flags, as MMD, nanoem and MMM simulate: keys
 * that switch physics off (物理OFF, keyed by hand to hold hair or a skirt over some frames) are played as keys, so
 * the bake keeps those authored segments (the report counts them, physicsOffKeys). A previous bake's keys cannot
 * be told apart from those: `resimulate` simulates the baked bones over A..B whatever their keys there say, so
 * re-baking a baked range (after editing the dance) simulates it again instead of replaying the old baked keys.
 *
 * The simulation of A..B is the one the user watches playing the motion from the start: by default it runs from
 * frame 0 and keys are written only over A..B (`warmup`), so the baked hair at A is where it swings there instead
 * of restarting at A's pose (a pop at A). After B the bones go back to live physics (MMD simulates them again from
 * where the baked keys left them), so a range ending mid-swing still jumps at B+1: bake to the end, or to a calm
 * frame, for none.
 *
 * The fitting, the IK-off keys, the edge keys and the measure are shared with the IK bake (shared/bake/).
 *
 * Keys those bones had inside A..B are replaced; every other record is copied byte for byte. By default the
 * per-frame values are reduced by the fitting engine (shared/fit's fitWindow, at the integer frames the
 * simulation defines); `raw` keeps one key per frame, as other tools write. The report's error is measured by
 * playing OUT (physics off, as above) against the simulation at every frame.
 */
import { denseRefusal, MAX_DENSE_FRAMES } from '../edit-core/dense-limit';
import type { ModelData } from '../pmx/model-types';
import { matchKey } from '../pmx/model-inspect';
import { seenBoneMask } from '../pmx/seen-bones';
import { failure, optionRefusal, success, type CodecError, type Outcome } from '../vmd/errors';
import { PHYSICS_OFF, physicsOff } from '../vmd/interpolation';
import { encodeSjis, decodeName } from '../vmd/sjis';
import type { VmdDocument } from '../vmd/vmd-document';
import { BONE } from '../vmd/vmd-layout';
import { bakeBase, boneNameField, fitWorldKeys, measureWorld, readWorld, VMD_BONE_NAME_BYTES } from '../bake/world-keys';
import { ikOffPlan } from '../bake/ik-off';
import { edgeKeys } from '../bake/edge-keys';
import { bakeModelName, bakeStart, type BakeRangeOptions, type BakeReportBase } from '../bake/options';
import type { BulletInstance } from './bullet';
import { SEEK_SETTLE_FRAMES, Simulation } from './simulate';
import type { WorldOptions } from './world';

export interface PhysicsBakeOptions extends WorldOptions, BakeRangeOptions {
  /**
   * Frames simulated before A (A > 0) without writing keys, so that the hair at A is where it swings when the
   * motion plays up to A: `'all'` (default) simulates from frame 0, as playing from the start does (and as MMD,
   * MMM and nanoem bake a range); N from max(0, A − N), restarting there at that frame's pose and settling
   * SEEK_SETTLE_FRAMES first; 0 restarts at A's pose (the hair at A then differs from playing, a pop at A).
   */
  warmup?: number | 'all';
  /**
   * Simulate the baked bones over A..B even where the motion's keys switch their physics off (a previous bake);
   * without it such keys are played as keys, as MMD does. `'auto'` (the app's default): on when every baked bone
   * has a key with physics off inside A..B — the bake's own earlier bake keys them all — and off when only some
   * have (物理OFF keyed by hand to hold some hair, which MMD plays as keys).
   */
  resimulate?: boolean | 'auto';
  /** Told the work done so far, out of `total` (frame by frame: the warm-up and A..B simulated, fitted, then checked). */
  progress?: (done: number, total: number) => void;
}

/**
 * The physics bake's figures: `bones` the physics bones baked; `namesTooLong` physics bones whose names do not fit
 * (not baked: they stay simulated); `ikOff` the IK bones whose chains have baked links, switched off over A..B, and
 * `ikNamesTooLong` those not switched off; `edgeKeys` give the baked bones back the physics state the motion had at
 * A−1 and B+1; the error of a baked bone playing the output with physics off against the simulation.
 */
export interface PhysicsBakeReport extends BakeReportBase {
  /**
   * Keys of the baked bones inside A..B that switch physics off (keyed by hand, or a previous bake): played as
   * keys by the simulation, or, with `resimulated`, simulated over.
   */
  physicsOffKeys: number;
  /** Whether the bake simulated over those keys (the `resimulate` option). */
  resimulated: boolean;
  /** `resimulate: 'auto'` decided it: every baked bone had keys with physics off in the range (a previous bake). */
  resimulatedAuto: boolean;
  /**
   * The same of the baked bones one can see (deforming vertices or displayed: shared/pmx/seen-bones.ts), named
   * first in the report: the largest error is often on a weight (錘) hanging below a cloak, which shows nothing.
   * Null when no baked bone is seen.
   */
  maxPositionErrorSeen: number;
  maxRotationErrorDegSeen: number;
  worstSeen: { frame: number; bone: string } | null;
  /**
   * The frame the simulation started at (0: as the motion plays from the start; A − N with a warm-up of N;
   * A without one), and the frames it settled there holding that pose first (0 from frame 0, else
   * SEEK_SETTLE_FRAMES). Frames simulatedFrom..A−1 are simulated, not written.
   */
  simulatedFrom: number;
  settleFrames: number;
}

/** A bake's success: the motion with the baked keys, and what was baked. */
export interface PhysicsBakedMotion {
  doc: VmdDocument;
  report: PhysicsBakeReport;
}

/** What `physicsBake` returns: an `Outcome` whose value is the baked motion. */
export type PhysicsBakeResult = Outcome<PhysicsBakedMotion>;

const PROGRESS_STEPS = 3;

/**
 * World transforms of the given bones at every frame of [from, to] (7 per bone per frame: position, rotation),
 * the simulation started at `start` (≤ from: frame 0 as playing, else a restart there that settles first) and
 * run through start..from−1 without reading.
 */
function record(sim: Simulation, bones: readonly number[], start: number, from: number, to: number, opts: PhysicsBakeOptions): Float64Array | null {
  const n = to - from + 1, warm = from - start;
  const out = new Float64Array(n * bones.length * 7);
  if (start > 0) sim.seek(start, SEEK_SETTLE_FRAMES);
  else sim.seek(0, 0);
  for (let f = start + 1; f <= from; f++) {
    sim.advance();
    if (opts.cancelled?.()) return null;
    opts.progress?.(f - start, PROGRESS_STEPS * n + warm);
  }
  for (let f = from; f <= to; f++) {
    if (f > from) sim.advance();
    if (opts.cancelled?.()) return null;
    readWorld(sim.pose, bones, out, (f - from) * bones.length * 7);
    opts.progress?.(warm + f - from + 1, PROGRESS_STEPS * n + warm);
  }
  return out;
}

/**
 * True when the keys with physics off inside [from, to] are what the bake's own earlier bake leaves: on every one
 * of `bones` and on no other bone; not hand-keyed 物理OFF holding some of them, or keyed on other bones too
 * (resimulate: 'auto'). A hand hold of every physics bone of a model looks the same: the report says
 * `resimulatedAuto` and the app's line says how to play such keys as keys.
 */
function previousBake(motion: VmdDocument, model: ModelData, bones: readonly number[], from: number, to: number): boolean {
  const baked = new Set(bones.map((b) => matchKey(model.bones[b].name)));
  const seen = new Set<string>();
  const block = motion.bone;
  for (let i = 0; i < block.count; i++) {
    const o = i * BONE.SIZE;
    const f = block.view.getUint32(o + BONE.FRAME, true);
    if (f < from || f > to || !physicsOff(block.bytes, o + BONE.INTERPOLATION)) continue;
    const k = matchKey(decodeName(block.bytes, o, BONE.NAME_LENGTH));
    if (!baked.has(k)) return false;
    seen.add(k);
  }
  return baked.size > 0 && seen.size === baked.size;
}

/** Bakes the physics of `model` under `motion` into a new document (see the file comment). */
export function physicsBake(bullet: BulletInstance, model: ModelData, motion: VmdDocument, opts: PhysicsBakeOptions = {}): PhysicsBakeResult {
  const fail = (code: CodecError['code'], message: string, option?: string): PhysicsBakeResult => failure({ code, message, option });
  if (model.physicsError) return failure(model.physicsError);
  const begun = bakeStart(motion, opts, 'physics-bake');
  if ('code' in begun) return failure(begun);
  const { tracks, range: { posTol, rotTol, from, to } } = begun;
  const warmup = opts.warmup ?? 'all';
  if (warmup !== 'all' && (!Number.isInteger(warmup) || warmup < 0)) return failure(optionRefusal('E_ARGUMENT', `--warmup must be "all" or a whole number of frames ≥ 0, got ${warmup}`, 'warmup', Number.isInteger(warmup) ? 'min' : 'integer', { min: 0, value: String(warmup) }));
  // Where the simulation starts: frame 0 plays from the start with no settling, as the preview does.
  const start = warmup === 'all' ? 0 : Math.max(0, from - warmup);
  // Frames before A are only simulated (nothing is held), but a warm-up from 0 up to a key far past the rest
  // would run for hours: the same bound as a track's frames, said in terms of the warm-up.
  if (to - from + 1 <= MAX_DENSE_FRAMES && to - start + 1 > MAX_DENSE_FRAMES) {
    const k = (x: number) => x.toLocaleString('en-US');
    return failure(optionRefusal('E_SPAN', `physics-bake: the simulation would run from frame ${k(start)} to ${k(to)} (${k(to - start + 1)} frames), more than the ${k(MAX_DENSE_FRAMES)} it simulates: a key far past the rest? Give --warmup N (frames simulated before --from) or trim the motion`, 'warmup', 'span', { from: k(start), to: k(to), other: 'from' }));
  }

  const sim = new Simulation(bullet, model, motion);
  let bones: number[];
  let resimulate = false;
  let simW: Float64Array | null;
  const namesTooLong: string[] = [];
  try {
    const physics = sim.physicsBones();
    // A model whose name field is empty is "the model" (the file name goes before the message, as the caller knows it).
    if (physics.length === 0) return fail('E_PHYSICS', `${bakeModelName(model)} has no physics-driven bones (rigid bodies of mode 1 or 2)`);
    bones = [];
    const seen = new Set<string>();
    for (const b of physics) {
      const name = model.bones[b].name;
      if (encodeSjis(name).length > VMD_BONE_NAME_BYTES) { namesTooLong.push(name); continue; }
      // Two bones whose names match alike in a VMD would share one track: bake the first.
      const key = matchKey(name);
      if (seen.has(key)) continue;
      seen.add(key);
      bones.push(b);
    }
    // Refused before the simulation allocates them: one stray key at frame 4,000,000,000 asked for 1.4 TB.
    const dense = denseRefusal('physics-bake', from, to, bones.length, undefined, true);
    if (dense) return failure(dense);
    resimulate = opts.resimulate === 'auto' ? previousBake(motion, model, bones, from, to) : !!opts.resimulate;
    if (resimulate) sim.simulateOver(bones, from, to);
    simW = record(sim, bones, start, from, to, opts);
    const lost = sim.world.diverged;
    if (simW && lost >= 0) {
      return fail('E_PHYSICS', `Bullet lost rigid body ${lost} "${model.rigidBodies[lost].name}" at frame ${sim.divergedAt}: its transform became NaN or infinite (the model's physics values are past what it can simulate); nothing was baked`);
    }
  } finally {
    sim.dispose();
  }
  if (!simW) return fail('E_CANCELLED', 'physics bake cancelled');
  const sk = sim.pose.skeleton;
  const n = to - from + 1, nb = bones.length, warm = from - start;
  const bakedSet = new Set(bones);

  // IK chains with a baked link: off over the range.
  const ikBones = model.bones.flatMap((b, i) => (b.ik && b.ik.links.some((l) => bakedSet.has(l.bone)) ? [i] : []));
  const ik = ikOffPlan(model, motion, ikBones, from, to, tracks.lastFrame);

  // The motion without those bones' keys inside [from, to] (counting those that switched physics off), the IK off over it.
  let physicsOffKeys = 0;
  const { docWith, replacedKeys } = bakeBase(motion, model, bones, from, to, ik.records, (bytes, o) => {
    if (physicsOff(bytes, o + BONE.INTERPOLATION)) physicsOffKeys++;
  });

  const nameBytes = bones.map((b) => boneNameField(model.bones[b].name));
  const total = PROGRESS_STEPS * n + warm;
  const baked = fitWorldKeys({
    model, sk, bones, nameFields: nameBytes, from, frames: n, targets: simW, docWith, flag: PHYSICS_OFF, raw: opts.raw,
    positionTolerance: posTol, rotationToleranceDeg: rotTol,
    progress: (fitted) => opts.progress?.(warm + n + Math.round((fitted / nb) * n), total),
    cancelled: opts.cancelled,
  });
  if (!baked) return fail('E_CANCELLED', 'physics bake cancelled');
  const edges = edgeKeys(motion, tracks, model, bones, nameBytes, from, to);
  const out = docWith(baked.concat(edges));

  // Play the output with physics off against the simulation, every frame.
  const err = measureWorld(model, sk, out, bones, simW, from, n, seenBoneMask(model), (done) => {
    opts.progress?.(warm + 2 * n + done, total);
    return !!opts.cancelled?.();
  });
  if (!err) return fail('E_CANCELLED', 'physics bake cancelled');
  return success({
    doc: out,
    report: {
      from, to, bones: bones.map((b) => model.bones[b].name), namesTooLong, ikNamesTooLong: ik.tooLong, ikOff: ik.names, rawKeys: n * nb, keptKeys: baked.length, replacedKeys, physicsOffKeys, resimulated: resimulate, resimulatedAuto: resimulate && opts.resimulate === 'auto', edgeKeys: edges.length,
      maxPositionError: err.maxPosition, maxRotationErrorDeg: err.maxRotationDeg, worst: err.worst,
      maxPositionErrorSeen: err.maxPositionSeen, maxRotationErrorDegSeen: err.maxRotationDegSeen, worstSeen: err.worstSeen, simulatedFrom: start, settleFrames: start > 0 ? SEEK_SETTLE_FRAMES : 0,
    },
  });
}
