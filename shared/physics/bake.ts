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
 * Keys those bones had inside A..B are replaced; every other record is copied byte for byte. By default the
 * per-frame values are reduced by the fitting engine (shared/fit's fitWindow, at the integer frames the
 * simulation defines); `raw` keeps one key per frame, as other tools write. The report's error is measured by
 * playing OUT (physics off, as above) against the simulation at every frame.
 */
import { denseRefusal, MAX_DENSE_FRAMES } from '../edit-core/dense-limit';
import { stageMotionRefusal } from '../vmd/inspect';
import type { ModelData } from '../pmx/model-types';
import { matchKey } from '../pmx/model-inspect';
import { seenBoneMask } from '../pmx/seen-bones';
import { DEFAULT_TOLERANCES } from '../fit/motion-fit';
import { fitWindow, type SampledWindow } from '../fit/track-fit';
import { failure, optionRefusal, success, type CodecError, type Outcome } from '../vmd/errors';
import { buildBoneInterpolation, PHYSICS_OFF, physicsOff, setPhysicsOff } from '../vmd/interpolation';
import { LINEAR_CURVE, type Curve } from '../vmd/bezier';
import { encodeSjis, decodeName } from '../vmd/sjis';
import { buildTracks, keyAtOrBefore } from '../vmd/tracks';
import { sampleBoneInto } from '../vmd/sample';
import { blockFromRecords, ikBlockFromRecords, recordBytes, withBlocks, type VmdDocument } from '../vmd/vmd-document';
import { BONE, IK } from '../vmd/vmd-layout';
import { encodeBoneRecord, encodeIkRecord } from '../vmd/vmd-build';
import { ikKey } from '../vmd/records';
import type { BulletInstance } from './bullet';
import { qmulInto as qmul, qinvRotInto } from '../skeleton/quat';
import { MotionPoser, Pose, type Skeleton } from '../skeleton';
import { boneTrackMap, SEEK_SETTLE_FRAMES, Simulation } from './simulate';
import type { WorldOptions } from './world';

export interface PhysicsBakeOptions extends WorldOptions {
  /** First baked frame (default 0). */
  from?: number;
  /**
   * Frames simulated before A (A > 0) without writing keys, so that the hair at A is where it swings when the
   * motion plays up to A: `'all'` (default) simulates from frame 0, as playing from the start does (and as MMD,
   * MMM and nanoem bake a range); N from max(0, A − N), restarting there at that frame's pose and settling
   * SEEK_SETTLE_FRAMES first; 0 restarts at A's pose (the hair at A then differs from playing, a pop at A).
   */
  warmup?: number | 'all';
  /** Last baked frame (default: the motion's last key, at least `from`). */
  to?: number;
  /** One key per frame, not reduced. */
  raw?: boolean;
  /**
   * Simulate the baked bones over A..B even where the motion's keys switch their physics off (a previous bake);
   * without it such keys are played as keys, as MMD does. `'auto'` (the app's default): on when every baked bone
   * has a key with physics off inside A..B — the bake's own earlier bake keys them all — and off when only some
   * have (物理OFF keyed by hand to hold some hair, which MMD plays as keys).
   */
  resimulate?: boolean | 'auto';
  /** Tolerance: world position in units (default 0.01), world rotation in degrees (default 0.1). */
  positionTolerance?: number;
  rotationToleranceDeg?: number;
  /** Told the work done so far, out of `total` (frame by frame: the warm-up and A..B simulated, fitted, then checked). */
  progress?: (done: number, total: number) => void;
  /** Polled between frames and tracks; true stops the bake with E_CANCELLED. */
  cancelled?: () => boolean;
}

export interface PhysicsBakeReport {
  from: number;
  to: number;
  /** Baked bone names, in model order. */
  bones: string[];
  /** Physics bones whose names do not fit a VMD's 15-byte field: not baked (they stay simulated). */
  namesTooLong: string[];
  /** IK bones with baked links whose names do not fit the IK block's 20 bytes: not switched off. */
  ikNamesTooLong: string[];
  /** IK bones switched off over A..B (their chains have baked links), in model order. */
  ikOff: string[];
  /** Keys written at one per frame per bone, and the keys kept after reduction (= raw with `raw`). */
  rawKeys: number;
  keptKeys: number;
  /** Keys those bones had inside A..B that were replaced. */
  replacedKeys: number;
  /**
   * Keys of the baked bones inside A..B that switch physics off (keyed by hand, or a previous bake): played as
   * keys by the simulation, or, with `resimulated`, simulated over.
   */
  physicsOffKeys: number;
  /** Whether the bake simulated over those keys (the `resimulate` option). */
  resimulated: boolean;
  /** `resimulate: 'auto'` decided it: every baked bone had keys with physics off in the range (a previous bake). */
  resimulatedAuto: boolean;
  /** Keys added at A−1 and B+1 giving the baked bones back the physics state the motion had there. */
  edgeKeys: number;
  /**
   * Largest world-position difference (units) and rotation difference (degrees) of a baked bone, playing the
   * output with physics off against the simulation at every frame of A..B.
   */
  maxPositionError: number;
  maxRotationErrorDeg: number;
  /** Frame and bone of the largest position error. */
  worst: { frame: number; bone: string } | null;
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

const VMD_NAME_BYTES = 15;
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

/** The world transforms of `bones` (rotations made unit length: the motion's float32 keys are not quite) into out[o..]. */
function readWorld(pose: Pose, bones: readonly number[], out: Float64Array, o: number): void {
  const w = pose.worldPosition, r = pose.worldRotation;
  for (let k = 0; k < bones.length; k++) {
    const b = bones[k], s = o + 7 * k;
    out[s] = w[3 * b]; out[s + 1] = w[3 * b + 1]; out[s + 2] = w[3 * b + 2];
    const len = Math.hypot(r[4 * b], r[4 * b + 1], r[4 * b + 2], r[4 * b + 3]) || 1;
    for (let c = 0; c < 4; c++) out[s + 3 + c] = r[4 * b + c] / len;
  }
}

/** The rotation angle between two unit quaternions, in degrees (stable near 0, unlike 2·acos(dot)). */
function angleDeg(a: Float64Array, ao: number, b: Float64Array, bo: number): number {
  let d = 0, s = 0;
  for (let c = 0; c < 4; c++) {
    d += (a[ao + c] - b[bo + c]) ** 2;
    s += (a[ao + c] + b[bo + c]) ** 2;
  }
  return (4 * Math.atan2(Math.sqrt(Math.min(d, s)), Math.sqrt(Math.max(d, s))) * 180) / Math.PI;
}

/** How many baked ancestors each baked bone has: bones are fitted in that order, parents before children. */
function generations(sk: Skeleton, bones: readonly number[]): number[] {
  const baked = new Set(bones);
  return bones.map((b) => {
    let g = 0;
    for (let p = sk.parent[b]; p >= 0; p = sk.parent[p]) if (baked.has(p)) g++;
    return g;
  });
}

interface IkPlan {
  /** IK block of the output. */
  records: Uint8Array[];
  /** The IK bones switched off (model order). */
  names: string[];
  tooLong: string[];
}

/**
 * The IK block with the given IK bones off over [from, to] (see the file comment). The motion's IK keys outside
 * the range are kept byte for byte; keys inside it get the chains off; a key at `from` and, when the motion goes
 * on after `to` or has IK keys there, at to+1 (giving back the states in force there) are added where the motion
 * has none.
 */
function planIk(model: ModelData, motion: VmdDocument, ikBones: readonly number[], from: number, to: number, lastFrame: number): IkPlan {
  const block = motion.ik;
  const fieldOf = (name: string) => {
    const e = encodeSjis(name);
    if (e.length > IK.ITEM_NAME_LENGTH) return null;
    const f = new Uint8Array(IK.ITEM_NAME_LENGTH);
    f.set(e);
    return f;
  };
  const names: string[] = [], tooLong: string[] = [];
  const off = new Set<string>();
  for (const b of ikBones) {
    const n = model.bones[b].name;
    if (!fieldOf(n)) { tooLong.push(n); continue; }
    names.push(n);
    off.add(matchKey(n));
  }
  const records: Uint8Array[] = [];
  for (let i = 0; i < block.count; i++) records.push(recordBytes(block, i));
  if (off.size === 0) return { records, names, tooLong };

  // The keys in frame order (file order among equal frames), as the player reads them.
  const keys = Array.from({ length: block.count }, (_, i) => ({ i, key: ikKey(block, i) })).sort((a, b) => a.key.frame - b.key.frame || a.i - b.i);
  /** States in force at frame f (before any key: on), and the show flag (before any key: shown). */
  const stateAt = (f: number) => {
    const state = new Map<string, number>();
    let visible = 1;
    for (const { key } of keys) {
      if (key.frame > f) break;
      visible = key.visible;
      for (const it of key.iks) state.set(matchKey(it.name), it.enabled ? 1 : 0);
    }
    return { state, visible };
  };
  // Every IK bone of the model a VMD can name, in model order: what a new key lists.
  const allIk = model.bones.flatMap((b) => (b.ik && fieldOf(b.name) ? [b.name] : []));
  const newKey = (frame: number, forceOff: boolean) => {
    const { state, visible } = stateAt(frame);
    const iks = allIk.map((n) => {
      const k = matchKey(n);
      return { name: fieldOf(n)!, enabled: forceOff && off.has(k) ? 0 : (state.get(k) ?? 1) };
    });
    return encodeIkRecord({ frame, visible, iks });
  };
  // The motion's keys inside the range: the chains off, every other byte as it was.
  const restore = to + 1 <= lastFrame || keys.some((k) => k.key.frame > to);
  const restoreState = restore ? stateAt(to + 1).state : null;
  let hasFrom = false, hasAfter = false;
  for (const { i, key } of keys) {
    if (key.frame === from) hasFrom = true;
    if (key.frame === to + 1) hasAfter = true;
    const inRange = key.frame >= from && key.frame <= to;
    const atRestore = restore && key.frame === to + 1;
    if (!inRange && !atRestore) continue;
    // Items kept (as their bytes) with the chains' states set; chains the key does not name are added.
    const rec = records[i];
    const items: { name: Uint8Array; enabled: number }[] = [];
    const named = new Set<string>();
    for (let j = 0; j < key.iks.length; j++) {
      const p = IK.HEADER + j * IK.ITEM;
      const k = matchKey(key.iks[j].name);
      named.add(k);
      const enabled = off.has(k) ? (inRange ? 0 : restoreState!.get(k) ?? 1) : rec[p + IK.ITEM_ENABLED];
      items.push({ name: rec.subarray(p, p + IK.ITEM_NAME_LENGTH), enabled });
    }
    for (const n of names) {
      const k = matchKey(n);
      if (!named.has(k)) items.push({ name: fieldOf(n)!, enabled: inRange ? 0 : restoreState!.get(k) ?? 1 });
    }
    records[i] = encodeIkRecord({ frame: key.frame, visible: key.visible, iks: items });
  }
  if (!hasFrom) records.push(newKey(from, true));
  if (restore && !hasAfter) records.push(newKey(to + 1, false));
  return { records, names, tooLong };
}

/**
 * The keys at A−1 and B+1 that leave physics outside A..B as the motion had it (see the file comment): for each
 * baked bone without a key of its own at A−1 (A > 0) or at B+1 (when the motion goes on after B), a linear key
 * with the motion's value there and the physics flag of the motion's key in force there (on for a bone without
 * keys). With physics on the value is not used; with physics off the motion plays on from it as before.
 */
function edgeKeys(motion: VmdDocument, tracks: ReturnType<typeof buildTracks>, model: ModelData, bones: readonly number[], nameBytes: readonly Uint8Array[], from: number, to: number): Uint8Array[] {
  const tb = tracks.bones;
  const trackOf = boneTrackMap(model, tb);
  // lastFrame is over every block: a key of anything after B means the motion goes on.
  const goesOn = to + 1 <= tracks.lastFrame;
  const pos = new Float64Array(3), rot = new Float64Array(4);
  const out: Uint8Array[] = [];
  const keyAt = (k: number, t: number, f: number) => {
    let off = false;
    if (t >= 0) {
      const a = tb.start[t];
      let i = keyAtOrBefore(tb.frames, a, tb.start[t + 1], f);
      if (i < a) i = a; // before a bone's first key, the first key's flag is in force
      off = physicsOff(motion.bone.bytes, tb.record[i] * BONE.SIZE + BONE.INTERPOLATION);
      sampleBoneInto(tb, t, f, pos, rot, 0);
    } else {
      pos.fill(0);
      rot.set([0, 0, 0, 1]);
    }
    const interpolation = buildBoneInterpolation([LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE], PHYSICS_OFF);
    if (!off) setPhysicsOff(interpolation, false);
    out.push(encodeBoneRecord({ name: nameBytes[k], frame: f, position: [pos[0], pos[1], pos[2]], rotation: [rot[0], rot[1], rot[2], rot[3]], interpolation }));
  };
  bones.forEach((b, k) => {
    const t = trackOf[b];
    const a = t >= 0 ? tb.start[t] : 0, e = t >= 0 ? tb.start[t + 1] : 0;
    const hasKeyAt = (f: number) => {
      const i = t >= 0 ? keyAtOrBefore(tb.frames, a, e, f) : -1;
      return t >= 0 && i >= a && tb.frames[i] === f;
    };
    if (from > 0 && !hasKeyAt(from - 1)) keyAt(k, t, from - 1);
    if (goesOn && !hasKeyAt(to + 1)) keyAt(k, t, to + 1);
  });
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
  // A camera or light motion would bake the model standing at rest into a camera file: refused.
  const stage = stageMotionRefusal(motion, 'physics-bake');
  if (stage) return failure(stage);
  const posTol = opts.positionTolerance ?? DEFAULT_TOLERANCES.position;
  const rotTol = opts.rotationToleranceDeg ?? DEFAULT_TOLERANCES.rotationDeg;
  // Option refusals (optionRefusal): the CLI's English names --pos-tol, the app names its own field.
  if (!(posTol > 0) || !Number.isFinite(posTol)) return failure(optionRefusal('E_ARGUMENT', `--pos-tol must be a number greater than 0, got ${posTol}`, 'pos-tol', 'positive', { value: String(posTol) }));
  if (!(rotTol > 0) || !Number.isFinite(rotTol)) return failure(optionRefusal('E_ARGUMENT', `--rot-tol must be a number greater than 0, got ${rotTol}`, 'rot-tol', 'positive', { value: String(rotTol) }));
  const tracks = buildTracks(motion);
  const from = opts.from ?? 0;
  const to = opts.to ?? Math.max(from, tracks.lastFrame);
  if (!Number.isInteger(from) || from < 0) return failure(optionRefusal('E_ARGUMENT', `--from must be a whole frame ≥ 0, got ${from}`, 'from', Number.isInteger(from) ? 'min' : 'integer', { min: 0, value: String(from) }));
  if (!Number.isInteger(to) || to < from) return failure(optionRefusal('E_ARGUMENT', `--to must be a whole frame ≥ --from (${from}), got ${to}`, 'to', Number.isInteger(to) ? 'order' : 'integer', { other: 'from', min: from, value: String(to) }));
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
    if (physics.length === 0) return fail('E_PHYSICS', `${model.name.trim() ? `model "${model.name}"` : 'the model'} has no physics-driven bones (rigid bodies of mode 1 or 2)`);
    bones = [];
    const seen = new Set<string>();
    for (const b of physics) {
      const name = model.bones[b].name;
      if (encodeSjis(name).length > VMD_NAME_BYTES) { namesTooLong.push(name); continue; }
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
  const ik = planIk(model, motion, ikBones, from, to, tracks.lastFrame);

  // The motion without those bones' keys inside [from, to]; every other record stays as it was, in file order.
  const bakedKeys = new Set(bones.map((b) => matchKey(model.bones[b].name)));
  const kept: Uint8Array[] = [];
  let replacedKeys = 0, physicsOffKeys = 0;
  const block = motion.bone;
  for (let i = 0; i < block.count; i++) {
    const o = i * BONE.SIZE;
    const f = block.view.getUint32(o + BONE.FRAME, true);
    if (f >= from && f <= to && bakedKeys.has(matchKey(decodeName(block.bytes, o, BONE.NAME_LENGTH)))) {
      replacedKeys++;
      if (physicsOff(block.bytes, o + BONE.INTERPOLATION)) physicsOffKeys++;
      continue;
    }
    kept.push(recordBytes(block, i));
  }
  const base = withBlocks(motion, { ik: ikBlockFromRecords(ik.records) });
  const docWith = (recs: Uint8Array[]) => withBlocks(base, { bone: blockFromRecords('bone', kept.concat(recs)) });

  const nameBytes = bones.map((b) => {
    const field = new Uint8Array(VMD_NAME_BYTES);
    field.set(encodeSjis(model.bones[b].name));
    return field;
  });
  const linear = buildBoneInterpolation([LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE], PHYSICS_OFF);
  const axisTol = posTol / Math.sqrt(3);
  const gen = generations(sk, bones);
  const maxGen = Math.max(0, ...gen);
  const baked: Uint8Array[] = [];
  const pose = new Pose(sk);
  const parentW = new Float64Array(7 * n), inv = new Float64Array(4), tq = new Float64Array(4), tp = new Float64Array(3);
  let fitted = 0;
  for (let g = 0; g <= maxGen; g++) {
    const members = bones.map((b, k) => k).filter((k) => gen[k] === g);
    if (members.length === 0) continue;
    // The parents as the keys fitted so far play (physics off, IK as the output switches it).
    const doc = docWith(baked);
    const poser = new MotionPoser(sk, doc, buildTracks(doc), model);
    const parents = [...new Set(members.map((k) => sk.parent[bones[k]]).filter((p) => p >= 0))];
    const played = new Float64Array(n * parents.length * 7);
    for (let f = 0; f < n; f++) {
      poser.poseAt(pose, from + f);
      readWorld(pose, parents, played, f * parents.length * 7);
    }
    if (opts.cancelled?.()) return fail('E_CANCELLED', 'physics bake cancelled');
    for (const k of members) {
      const b = bones[k], p = sk.parent[b];
      const pk = parents.indexOf(p);
      // Local targets per frame: position minus the rest offset, then the rotation (one hemisphere along the track).
      const px = new Float64Array(n), py = new Float64Array(n), pz = new Float64Array(n), q = new Float64Array(4 * n);
      for (let f = 0; f < n; f++) {
        const o = (f * nb + k) * 7;
        if (p >= 0) {
          const po = (f * parents.length + pk) * 7;
          for (let c = 0; c < 7; c++) parentW[c] = played[po + c];
        } else {
          parentW.fill(0);
          parentW[6] = 1;
        }
        qinvRotInto(parentW, 3, simW[o] - parentW[0], simW[o + 1] - parentW[1], simW[o + 2] - parentW[2], tp, 0);
        inv[0] = -parentW[3]; inv[1] = -parentW[4]; inv[2] = -parentW[5]; inv[3] = parentW[6];
        qmul(inv, 0, simW, o + 3, tq, 0);
        px[f] = tp[0] - sk.restOffset[3 * b];
        py[f] = tp[1] - sk.restOffset[3 * b + 1];
        pz[f] = tp[2] - sk.restOffset[3 * b + 2];
        let sign = 1;
        if (f === 0) sign = tq[3] < 0 ? -1 : 1;
        else if (tq[0] * q[4 * f - 4] + tq[1] * q[4 * f - 3] + tq[2] * q[4 * f - 2] + tq[3] * q[4 * f - 1] < 0) sign = -1;
        for (let c = 0; c < 4; c++) q[4 * f + c] = sign * tq[c];
      }
      const keyAt = (f: number, curves: Uint8Array | null, v?: Float64Array) =>
        encodeBoneRecord({
          name: nameBytes[k],
          frame: from + f,
          position: v ? [v[0], v[1], v[2]] : [px[f], py[f], pz[f]],
          rotation: v ? [v[3], v[4], v[5], v[6]] : [q[4 * f], q[4 * f + 1], q[4 * f + 2], q[4 * f + 3]],
          interpolation: curves ? buildBoneInterpolation([0, 1, 2, 3].map((c) => Array.from(curves.subarray(4 * c, 4 * c + 4)) as unknown as Curve), PHYSICS_OFF) : linear,
        });
      if (opts.raw) {
        for (let f = 0; f < n; f++) baked.push(keyAt(f, null));
      } else {
        // Fitted at the integer frames: the simulation is defined there, and there the output is checked.
        const w: SampledWindow = {
          g0: 0,
          g1: n - 1,
          perFrame: 1,
          groups: [
            { kind: 'curve', comps: [px], tol: axisTol },
            { kind: 'curve', comps: [py], tol: axisTol },
            { kind: 'curve', comps: [pz], tol: axisTol },
            { kind: 'quat', q, tol: (rotTol * Math.PI) / 180 },
          ],
          // Key values may leave their samples by up to the tolerance where that lets a key go (checked by
          // playing the stored values; the world-space check below measures the result again).
          freeValues: true,
        };
        const fit = fitWindow(w);
        fit.frames.forEach((f, i) => baked.push(keyAt(f, fit.curves[i], fit.values?.[i])));
      }
      fitted++;
      opts.progress?.(warm + n + Math.round((fitted / nb) * n), PROGRESS_STEPS * n + warm);
      if (opts.cancelled?.()) return fail('E_CANCELLED', 'physics bake cancelled');
    }
  }
  const edges = edgeKeys(motion, tracks, model, bones, nameBytes, from, to);
  const out = docWith(baked.concat(edges));

  // Play the output with physics off against the simulation, every frame.
  const poser = new MotionPoser(sk, out, buildTracks(out), model);
  const played = new Float64Array(7 * nb);
  let maxPos = 0, maxRot = 0, worst: PhysicsBakeReport['worst'] = null;
  let seenPos = 0, seenRot = 0, worstSeen: PhysicsBakeReport['worst'] = null;
  const seenMask = seenBoneMask(model);
  const anySeen = bones.some((b) => seenMask[b] === 1);
  for (let f = 0; f < n; f++) {
    poser.poseAt(pose, from + f);
    readWorld(pose, bones, played, 0);
    for (let k = 0; k < nb; k++) {
      const o = 7 * k, so = (f * nb + k) * 7;
      const d = Math.hypot(played[o] - simW[so], played[o + 1] - simW[so + 1], played[o + 2] - simW[so + 2]);
      const a = angleDeg(played, o + 3, simW, so + 3);
      if (d > maxPos) { maxPos = d; worst = { frame: from + f, bone: model.bones[bones[k]].name }; }
      maxRot = Math.max(maxRot, a);
      if (seenMask[bones[k]] === 1) {
        if (!worstSeen || d > seenPos) { seenPos = d; worstSeen = { frame: from + f, bone: model.bones[bones[k]].name }; }
        seenRot = Math.max(seenRot, a);
      }
    }
    if (opts.cancelled?.()) return fail('E_CANCELLED', 'physics bake cancelled');
    opts.progress?.(warm + 2 * n + f + 1, PROGRESS_STEPS * n + warm);
  }
  return success({
    doc: out,
    report: {
      from, to, bones: bones.map((b) => model.bones[b].name), namesTooLong, ikNamesTooLong: ik.tooLong, ikOff: ik.names, rawKeys: n * nb, keptKeys: baked.length, replacedKeys, physicsOffKeys, resimulated: resimulate, resimulatedAuto: resimulate && opts.resimulate === 'auto', edgeKeys: edges.length,
      maxPositionError: maxPos, maxRotationErrorDeg: maxRot, worst,
      maxPositionErrorSeen: anySeen ? seenPos : 0, maxRotationErrorDegSeen: anySeen ? seenRot : 0, worstSeen: anySeen ? worstSeen : null, simulatedFrom: start, settleFrames: start > 0 ? SEEK_SETTLE_FRAMES : 0,
    },
  });
}
