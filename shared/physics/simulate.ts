/**
 * A model's motion with physics, frame by frame at the motion's 30 fps: the skeleton posed from the VMD, the
 * physics world stepped once per frame, the physics bones read back. Same model, motion and options give
 * bit-identical results (one thread, fixed steps, no clock, no randomness).
 */
import { RigidMode, type ModelData } from '../pmx/model-types';
import { buildTracks, keyAtOrBefore, type BoneTracks } from '../vmd/tracks';
import type { VmdDocument } from '../vmd/vmd-document';
import { BONE } from '../vmd/vmd-layout';
import { physicsOff } from '../vmd/interpolation';
import type { BulletInstance } from './bullet';
import { buildSkeleton, MotionPoser, Pose } from '../skeleton';
import { PhysicsWorld, type WorldOptions } from './world';
import { boneTrackMap } from '../bake/world-keys';

/** Bone → track index of a motion (names matched as a 15-byte VMD field holds them), −1 for none (shared/bake's). */
export { boneTrackMap };

/**
 * MMD rule — settling after a seek: physics restarts from the pose at the new frame (bodies placed on their
 * bones, one kinematic step), then runs this many frames holding that pose before the frame is shown.
 */
export const SEEK_SETTLE_FRAMES = 60;

/**
 * True when a bone key's 64-byte interpolation block says "physics off": 99, 15 at bytes 2–3 (FORMAT.md; with
 * rows 1–3 holding their copies). Any other value there is physics on — not babylon-mmd's "anything but 0, 0".
 */
export function isPhysicsOff(interp: Uint8Array, at = 0): boolean {
  return physicsOff(interp, at);
}


export interface SimulationOptions extends WorldOptions {
  /** Settling frames after a seek (default SEEK_SETTLE_FRAMES). */
  settleFrames?: number;
}

/**
 * MMD rule — a playhead jump (seek, loop, a frame typed in) restarts physics from the pose there: `poseAt`
 * evaluates the pose before physics at the new frame (and sets the world's toggles); the bodies are put on
 * their bones (one kinematic step), then `settle` frames run holding that pose before the frame is shown.
 * The one place the rule is written: Simulation.seek and the preview (renderer/src/preview/physics-actor.ts)
 * both call it.
 */
export function restartPhysics(world: PhysicsWorld, poseAt: () => void, settle = SEEK_SETTLE_FRAMES): void {
  poseAt();
  world.reset();
  for (let s = 0; s < settle; s++) {
    poseAt();
    world.step();
  }
}

/**
 * MMD rule — per-key physics toggle: a bone whose key in force (the key at or before the frame; before its
 * first key, the first) has physics off (bytes 2–3 = 99, 15) follows its keys. Read once from a motion.
 */
/**
 * Poses the bones before physics at frame f from the motion (IK as the motion's IK keys switch it, chains of physics
 * bones left to physics) and sets each bone's physics toggle from its key in force: one frame's input to a step, for
 * the simulation here and the trace (trace.ts) alike.
 */
export function poseBeforePhysics(w: PhysicsWorld, poser: MotionPoser, pose: Pose, toggles: PhysicsToggles, f: number): void {
  poser.apply(pose, f);
  toggles.apply(w.toggledOff, f);
  const ikOn = poser.ikEnabledAt(f), skip = w.skipIk;
  pose.evaluate('beforePhysics', (b) => skip[b] === 0 && ikOn(b));
}

export class PhysicsToggles {
  private readonly trackOf: Int32Array;
  /** Per key of `tracks`: 1 when the key turns physics off. */
  private readonly keyOff: Uint8Array;
  /** Whether any key turns physics off (else apply() only clears). */
  readonly any: boolean;
  /** Bones (1 per bone) whose keys' physics-off flags are ignored over [onFrom, onTo] (see simulateOver). */
  private onBones: Uint8Array | null = null;
  private onFrom = 0;
  private onTo = -1;

  constructor(model: ModelData, motion: VmdDocument | null, readonly tracks: BoneTracks | null) {
    const t = tracks;
    this.trackOf = t ? boneTrackMap(model, t) : new Int32Array(model.bones.length).fill(-1);
    this.keyOff = new Uint8Array(t ? t.frames.length : 0);
    if (t && motion) {
      const bytes = motion.bone.bytes;
      for (let k = 0; k < t.frames.length; k++) {
        this.keyOff[k] = physicsOff(bytes, t.record[k] * BONE.SIZE + BONE.INTERPOLATION) ? 1 : 0;
      }
    }
    this.any = this.keyOff.includes(1);
  }

  /** Physics on for `bones` over frames [from, to], whatever their keys there say. */
  forceOn(bones: readonly number[], from: number, to: number): void {
    this.onBones = new Uint8Array(this.trackOf.length);
    for (const b of bones) this.onBones[b] = 1;
    this.onFrom = from;
    this.onTo = to;
  }

  /**
   * How many of the bones marked in `bones` (per bone, 1: physicsBoneMask) have physics off at frame f: they
   * follow their keys, whether physics is on or not (a bake's keys, MMD's 物理OFF). `scratch`: one per bone.
   */
  offCount(f: number, bones: Uint8Array, scratch: Uint8Array = new Uint8Array(bones.length)): number {
    if (!this.any) return 0;
    this.apply(scratch, f);
    let n = 0;
    for (let i = 0; i < bones.length; i++) if (bones[i] && scratch[i]) n++;
    return n;
  }

  /** Sets `off` (a world's toggledOff, per bone) for frame f. */
  apply(off: Uint8Array, f: number): void {
    off.fill(0);
    const t = this.tracks;
    if (!t || !this.any) return;
    const on = f >= this.onFrom && f <= this.onTo ? this.onBones : null;
    for (let i = 0; i < this.trackOf.length; i++) {
      const tr = this.trackOf[i];
      if (tr < 0 || (on && on[i])) continue;
      const a = t.start[tr], e = t.start[tr + 1];
      let k = keyAtOrBefore(t.frames, a, e, f);
      if (k < a) k = a;
      off[i] = this.keyOff[k];
    }
  }
}

/**
 * Per bone of the model: 1 for a bone a rigid body in physics mode (1, or 2 with the bone's position) moves, the
 * bones a key with physics off hands back to the motion; 0 for the rest (mode 0 bodies follow their bones anyway).
 */
export function physicsBoneMask(model: ModelData): Uint8Array {
  const m = new Uint8Array(model.bones.length);
  for (const b of model.rigidBodies) if (b.mode !== RigidMode.FOLLOW_BONE && b.bone >= 0 && b.bone < m.length) m[b.bone] = 1;
  return m;
}

export class Simulation {
  /** The posed skeleton (shared/skeleton): world transforms after physics, solved locals of the driven bones. */
  readonly pose: Pose;
  readonly poser: MotionPoser;
  readonly world: PhysicsWorld;
  readonly tracks: BoneTracks | null;
  private readonly toggles: PhysicsToggles;
  /** The frame the pose now shows. */
  frame = 0;
  /** The frame at which a body first went to NaN or infinity (`world.diverged` names it); −1 while none has. */
  divergedAt = -1;

  constructor(bullet: BulletInstance, readonly model: ModelData, motion: VmdDocument | null, readonly opts: SimulationOptions = {}) {
    const skeleton = buildSkeleton(model.bones);
    this.pose = new Pose(skeleton);
    this.world = new PhysicsWorld(bullet, model, this.pose, opts);
    const all = motion ? buildTracks(motion) : null;
    this.poser = new MotionPoser(skeleton, motion, all, model);
    this.tracks = all ? all.bones : null;
    this.toggles = new PhysicsToggles(model, motion, this.tracks);
  }

  /** The bones before physics at frame f, and the physics toggles (poseBeforePhysics). */
  private poseAt(f: number): void {
    poseBeforePhysics(this.world, this.poser, this.pose, this.toggles, f);
  }

  /**
   * Restarts physics at frame f (MMD rule — a seek restarts from the pose there) and settles for `settle` frames
   * holding that pose (default: the options' settleFrames, else SEEK_SETTLE_FRAMES).
   */
  seek(f: number, settle = this.opts.settleFrames ?? SEEK_SETTLE_FRAMES): void {
    this.frame = f;
    restartPhysics(this.world, () => this.poseAt(f), settle);
    if (this.divergedAt < 0 && this.world.diverged >= 0) this.divergedAt = f;
  }

  /** The next frame (one 1/30 s physics step). */
  advance(): void {
    this.frame++;
    this.poseAt(this.frame);
    this.world.step();
    if (this.divergedAt < 0 && this.world.diverged >= 0) this.divergedAt = this.frame;
  }

  /**
   * Simulates `bones` over frames [from, to] even where their keys turn physics off (physics-bake --resimulate:
   * a range that was baked before is simulated again instead of replaying the old keys).
   */
  simulateOver(bones: readonly number[], from: number, to: number): void {
    this.toggles.forceOn(bones, from, to);
  }

  /** Bones driven by a dynamic body (modes 1 and 2), in bone order. */
  physicsBones(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.world.driver.length; i++) if (this.world.driver[i] >= 0) out.push(i);
    return out;
  }

  dispose(): void {
    this.world.dispose();
  }
}
