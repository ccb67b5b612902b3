/**
 * One model's physics world: its rigid bodies and joints in a Bullet world of their own (babylon-mmd's bindings
 * over its SPR wasm build, see bullet.ts), driven from a shared/skeleton Pose, following MMD's rules. Each rule is named
 * where it is applied ("MMD rule — …").
 *
 * A frame: the caller evaluates the pose before physics (`pose.evaluate('beforePhysics', world.ikEnabled(…))`),
 * then `step()` moves the follow-bone bodies, steps Bullet, writes the physics bones back and evaluates the
 * after-physics bones.
 */
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.pure.js';
import { PhysicsRuntime } from 'babylon-mmd/esm/Runtime/Optimized/Physics/Bind/Impl/physicsRuntime.js';
import { RigidBody } from 'babylon-mmd/esm/Runtime/Optimized/Physics/Bind/rigidBody.js';
import { RigidBodyConstructionInfo } from 'babylon-mmd/esm/Runtime/Optimized/Physics/Bind/rigidBodyConstructionInfo.js';
import { MotionType } from 'babylon-mmd/esm/Runtime/Optimized/Physics/Bind/motionType.js';
import { PhysicsBoxShape, PhysicsCapsuleShape, PhysicsSphereShape, type PhysicsShape } from 'babylon-mmd/esm/Runtime/Optimized/Physics/Bind/physicsShape.js';
import { Generic6DofSpringConstraint } from 'babylon-mmd/esm/Runtime/Optimized/Physics/Bind/constraint.js';
import { RigidMode, RigidShape, type ModelData } from '../pmx/model-types';
import type { BulletInstance } from './bullet';
import type { Pose } from '../skeleton';
import { qmulInto as qmul, qrotInto as qrot } from '../skeleton/quat';

/** MMD rule — gravity: (0, −98, 0) in model units (9.8 m/s² at MMD's 10 units per metre), along −Y. */
export const GRAVITY = -98;
/** MMD rule — fixed time step: Bullet steps 1/60 s; a 30 fps frame is 2 sub-steps (at most 5 per call). */
export const FIXED_STEP = 1 / 60;
export const MAX_SUB_STEPS = 5;
/** Joint stop ERP on all six axes (babylon-mmd's value; Bullet's default 0.2 lets limits stretch). */
const STOP_ERP = 0.475;

export interface WorldOptions {
  /**
   * Joint frames as Bullet 2.75 (MMD's version) computed them: later Bullet offsets the 6-DOF constraint
   * frames (`useFrameOffset`); off brings back 2.75's placement. Default false, as babylon-mmd (see README).
   */
  bullet275Frames?: boolean;
}

/** Transform as (position x, y, z, rotation x, y, z, w). */
type Xf = Float64Array;

export class PhysicsWorld {
  readonly runtime: PhysicsRuntime;
  /** Per model rigid body: its Bullet body (null when it could not be made). */
  readonly bodies: (RigidBody | null)[] = [];
  /** Effective mode per body (after the mode-2 → mode-1 rule below). */
  readonly modes: Uint8Array;
  /** Body offset from its bone (body = bone ∘ offset), 7 per body. */
  private readonly offsets: Float64Array;
  /** Per bone: the dynamic body that drives it, −1 for none. */
  readonly driver: Int32Array;
  /** Per bone: 1 while its body follows physics (driven), 0 when it follows its keys. */
  readonly driven: Uint8Array;
  /** Per bone: physics off by the motion's key in force (set by the caller before step). */
  readonly toggledOff: Uint8Array;
  private readonly shapes: PhysicsShape[] = [];
  private readonly constraints: Generic6DofSpringConstraint[] = [];
  private readonly kinematicNow: Uint8Array;
  private readonly m = new Float32Array(16);
  private readonly x: Xf = new Float64Array(7);
  private disposed = false;

  /** Per bone: 1 for an IK bone whose chain is all physics bones (not solved while physics runs). */
  readonly skipIk: Uint8Array;

  /**
   * The first body whose transform Bullet gave back with a NaN or an infinity, −1 while none has. Bullet takes
   * values past what it can simulate (a body 10²¹ units away with an angular damping of 10¹⁰, say) without
   * complaint; from then on such a body's bone is not driven: it keeps the pose the motion gives it, never NaN.
   */
  diverged = -1;

  /**
   * `state` (saveState of a world of the same model): the bodies are made where it holds them, the dynamic ones
   * moving as it holds (a trace's checkpoint, trace.ts); without it they start at rest where the model puts them.
   * Made there rather than moved there afterwards: Bullet then sets everything it derives from the transform
   * (interpolation transform, world inertia, bounds) from it too, and babylon-mmd 1.3.0's
   * setDynamicTransformMatrixFromArray writes only the first row of a dynamic body's transform (it indexes its
   * float array with byte offsets), which left every body at its rest position with a torn rotation.
   */
  constructor(bullet: BulletInstance, readonly model: ModelData, readonly pose: Pose, opts: WorldOptions = {}, state: Float32Array | null = null) {
    const rt = (this.runtime = new PhysicsRuntime(bullet));
    // The world is stepped by this class only, by a fixed time per frame (never by wall-clock time).
    rt.useDeltaForWorldStep = false;
    rt.fixedTimeStep = FIXED_STEP;
    rt.maxSubSteps = MAX_SUB_STEPS;
    rt.setGravity(new Vector3(0, GRAVITY, 0));
    const bodies = model.rigidBodies;
    const nb = bodies.length;
    this.modes = Uint8Array.from(bodies, (b) => b.mode);
    this.offsets = new Float64Array(7 * nb);
    this.kinematicNow = new Uint8Array(nb);
    this.driver = new Int32Array(model.bones.length).fill(-1);
    this.driven = new Uint8Array(model.bones.length);
    this.toggledOff = new Uint8Array(model.bones.length);

    // MMD rule (as babylon-mmd): a mode-2 body jointed to a physics parent body on its bone's parent bone acts as mode 1.
    for (const j of model.joints) {
      for (const [p, c] of [[j.bodyA, j.bodyB], [j.bodyB, j.bodyA]]) {
        const bp = bodies[p], bc = bodies[c];
        if (bp.mode !== RigidMode.FOLLOW_BONE && this.modes[c] === RigidMode.PHYSICS_WITH_BONE && bc.bone >= 0 && model.bones[bc.bone].parent === bp.bone && bp.bone >= 0) {
          this.modes[c] = RigidMode.PHYSICS;
        }
      }
    }

    const info = new RigidBodyConstructionInfo(bullet);
    const init = new Matrix();
    const q = new Quaternion();
    bodies.forEach((b, i) => {
      const s = b.size;
      let shape: PhysicsShape;
      let zeroVolume: boolean;
      if (b.shape === RigidShape.SPHERE) { shape = new PhysicsSphereShape(rt, s[0]); zeroVolume = s[0] === 0; }
      else if (b.shape === RigidShape.BOX) { shape = new PhysicsBoxShape(rt, new Vector3(s[0], s[1], s[2])); zeroVolume = s[0] === 0 || s[1] === 0 || s[2] === 0; }
      else { shape = new PhysicsCapsuleShape(rt, s[0], s[1]); zeroVolume = s[0] === 0 || s[1] === 0; }
      this.shapes.push(shape);
      // MMD rule — rotations are Euler angles applied Y, then X, then Z.
      Quaternion.FromEulerAnglesToRef(b.rotation[0], b.rotation[1], b.rotation[2], q);
      Matrix.ComposeToRef(Vector3.OneReadOnly, q, new Vector3(b.position[0], b.position[1], b.position[2]), init);
      // Offset from the bone at rest (MMD bones have no rest rotation): position − bone position, the body's rotation.
      const o = 7 * i;
      const bp = b.bone >= 0 ? model.bones[b.bone].position : [0, 0, 0];
      this.offsets[o] = b.position[0] - bp[0]; this.offsets[o + 1] = b.position[1] - bp[1]; this.offsets[o + 2] = b.position[2] - bp[2];
      this.offsets[o + 3] = q.x; this.offsets[o + 4] = q.y; this.offsets[o + 5] = q.z; this.offsets[o + 6] = q.w;
      info.shape = shape;
      if (state) Matrix.FromArrayToRef(state, PhysicsWorld.STATE_FLOATS * i, init);
      info.setInitialTransform(init);
      // MMD rule — modes: 0 follows its bone (kinematic), 1 and 2 are simulated.
      const dynamic = this.modes[i] !== RigidMode.FOLLOW_BONE;
      info.motionType = dynamic ? MotionType.Dynamic : MotionType.Kinematic;
      info.mass = b.mass;
      info.linearDamping = b.linearDamping;
      info.angularDamping = b.angularDamping;
      info.friction = b.friction;
      info.restitution = b.restitution;
      // MMD rule — collision groups and masks: the body is in group 1 << g and collides with the groups whose bit
      // its stored mask has set.
      info.collisionGroup = 1 << b.group;
      info.collisionMask = b.mask;
      // Bullet's additional damping on and sleeping off, as MMD runs it (babylon-mmd does the same).
      info.additionalDamping = true;
      info.disableDeactivation = true;
      info.noContactResponse = zeroVolume;
      const body = new RigidBody(rt, info);
      rt.addRigidBody(body);
      this.bodies.push(body);
      if (dynamic && b.bone >= 0 && this.driver[b.bone] < 0) this.driver[b.bone] = i;
    });
    info.dispose();
    if (state) {
      const v = new Vector3();
      // Kinematic bodies too: Bullet works theirs out again from where they are put, but until then it is theirs.
      this.bodies.forEach((b, i) => {
        if (!b) return;
        const o = PhysicsWorld.STATE_FLOATS * i;
        b.setLinearVelocity(v.set(state[o + 16], state[o + 17], state[o + 18]), true);
        b.setAngularVelocity(v.set(state[o + 19], state[o + 20], state[o + 21]), true);
      });
    }
    // MMD rule — with physics on, an IK chain whose links are all physics bones is not solved (physics moves them).
    this.skipIk = Uint8Array.from(model.bones, (b) => (b.ik && b.ik.links.length > 0 && b.ik.links.every((l) => this.driver[l.bone] >= 0) ? 1 : 0));

    // MMD rule — joints are 6-DOF springs with limits. Frames: the joint's transform in each body's rest frame.
    const jm = new Matrix(), ai = new Matrix(), bi = new Matrix(), fa = new Matrix(), fb = new Matrix(), v = new Vector3();
    for (const j of model.joints) {
      const A = this.bodies[j.bodyA], B = this.bodies[j.bodyB];
      if (!A || !B) continue;
      Quaternion.FromEulerAnglesToRef(j.rotation[0], j.rotation[1], j.rotation[2], q);
      Matrix.ComposeToRef(Vector3.OneReadOnly, q, new Vector3(j.position[0], j.position[1], j.position[2]), jm);
      const ba = bodies[j.bodyA], bb = bodies[j.bodyB];
      Matrix.ComposeToRef(Vector3.OneReadOnly, Quaternion.FromEulerAngles(ba.rotation[0], ba.rotation[1], ba.rotation[2]), new Vector3(...ba.position), ai).invert();
      Matrix.ComposeToRef(Vector3.OneReadOnly, Quaternion.FromEulerAngles(bb.rotation[0], bb.rotation[1], bb.rotation[2]), new Vector3(...bb.position), bi).invert();
      jm.multiplyToRef(ai, fa);
      jm.multiplyToRef(bi, fb);
      const c = new Generic6DofSpringConstraint(rt, A, B, fa, fb, true);
      if (opts.bullet275Frames) c.useFrameOffset(false);
      for (let k = 0; k < 6; k++) c.setParam(2 /* ConstraintParams.ConstraintStopERP */, STOP_ERP, k);
      c.setLinearLowerLimit(v.set(...j.linearLower));
      c.setLinearUpperLimit(v.set(...j.linearUpper));
      c.setAngularLowerLimit(v.set(...j.angularLower));
      c.setAngularUpperLimit(v.set(...j.angularUpper));
      // Linear springs only where a stiffness is given; angular springs always (MMD's joints).
      for (let k = 0; k < 3; k++) {
        if (j.linearSpring[k] !== 0) { c.setStiffness(k, j.linearSpring[k]); c.enableSpring(k, true); }
        else c.enableSpring(k, false);
        c.setStiffness(3 + k, j.angularSpring[k]);
        c.enableSpring(3 + k, true);
      }
      rt.addConstraint(c, false);
      this.constraints.push(c);
    }
  }

  /** Body i's pose from its bone's current world transform, into this.x. */
  private bodyFromBone(i: number): Xf {
    const P = this.pose, o = 7 * i, x = this.x, bone = this.model.rigidBodies[i].bone;
    if (bone < 0) {
      const b = this.model.rigidBodies[i];
      x[0] = b.position[0]; x[1] = b.position[1]; x[2] = b.position[2];
      for (let k = 0; k < 4; k++) x[3 + k] = this.offsets[o + 3 + k];
      return x;
    }
    qrot(P.worldRotation, 4 * bone, this.offsets[o], this.offsets[o + 1], this.offsets[o + 2], x, 0);
    x[0] += P.worldPosition[3 * bone]; x[1] += P.worldPosition[3 * bone + 1]; x[2] += P.worldPosition[3 * bone + 2];
    qmul(P.worldRotation, 4 * bone, this.offsets, o + 3, x, 3);
    return x;
  }

  /** Writes a transform into a Bullet body (Babylon's row-vector matrix layout: rows are the rotated axes). */
  private place(body: RigidBody, x: Xf): void {
    const m = this.m;
    const qx = x[3], qy = x[4], qz = x[5], qw = x[6];
    m[0] = 1 - 2 * (qy * qy + qz * qz); m[1] = 2 * (qx * qy + qz * qw); m[2] = 2 * (qx * qz - qy * qw); m[3] = 0;
    m[4] = 2 * (qx * qy - qz * qw); m[5] = 1 - 2 * (qx * qx + qz * qz); m[6] = 2 * (qy * qz + qx * qw); m[7] = 0;
    m[8] = 2 * (qx * qz + qy * qw); m[9] = 2 * (qy * qz - qx * qw); m[10] = 1 - 2 * (qx * qx + qy * qy); m[11] = 0;
    m[12] = x[0]; m[13] = x[1]; m[14] = x[2]; m[15] = 1;
    body.setTransformMatrixFromArray(m as unknown as [number, number, number, number, number, number, number, number, number, number, number, number, number, number, number, number], 0);
  }

  /** Reads a Bullet body's transform into out (position, unit quaternion with w ≥ 0). */
  readBody(i: number, out: Float64Array, o = 0): void {
    const m = this.m;
    this.bodies[i]!.getTransformMatrixToArray(m, 0);
    out[o] = m[12]; out[o + 1] = m[13]; out[o + 2] = m[14];
    // Rotation matrix R(r, c) = m[4c + r].
    const r00 = m[0], r10 = m[1], r20 = m[2], r01 = m[4], r11 = m[5], r21 = m[6], r02 = m[8], r12 = m[9], r22 = m[10];
    const tr = r00 + r11 + r22;
    let qx: number, qy: number, qz: number, qw: number;
    if (tr > 0) {
      const s = 0.5 / Math.sqrt(tr + 1);
      qw = 0.25 / s; qx = (r21 - r12) * s; qy = (r02 - r20) * s; qz = (r10 - r01) * s;
    } else if (r00 > r11 && r00 > r22) {
      const s = 2 * Math.sqrt(1 + r00 - r11 - r22);
      qw = (r21 - r12) / s; qx = 0.25 * s; qy = (r01 + r10) / s; qz = (r02 + r20) / s;
    } else if (r11 > r22) {
      const s = 2 * Math.sqrt(1 + r11 - r00 - r22);
      qw = (r02 - r20) / s; qx = (r01 + r10) / s; qy = 0.25 * s; qz = (r12 + r21) / s;
    } else {
      const s = 2 * Math.sqrt(1 + r22 - r00 - r11);
      qw = (r10 - r01) / s; qx = (r02 + r20) / s; qy = (r12 + r21) / s; qz = 0.25 * s;
    }
    const n = (qw < 0 ? -1 : 1) / Math.hypot(qx, qy, qz, qw);
    out[o + 3] = qx * n; out[o + 4] = qy * n; out[o + 5] = qz * n; out[o + 6] = qw * n;
  }

  /**
   * Restart from the pose (MMD rule — on a seek physics restarts from the pose there): every body is put at its
   * bone and held kinematic for one step, with no velocity; the caller then runs its settling frames.
   * Call after the pose is evaluated before physics.
   */
  reset(): void {
    const zero = new Vector3(0, 0, 0);
    this.bodies.forEach((b, i) => {
      if (!b) return;
      if (b.isDynamic) {
        b.effectiveKinematicState = true;
        b.setLinearVelocity(zero, false);
        b.setAngularVelocity(zero, false);
      }
      this.place(b, this.bodyFromBone(i));
    });
    this.runtime.timeStep = 1 / 30;
    this.runtime.afterAnimations(0);
    this.bodies.forEach((b) => {
      if (b?.isDynamic) {
        b.setLinearVelocity(zero, false);
        b.setAngularVelocity(zero, false);
      }
    });
    this.kinematicNow.fill(1);
    this.syncBones(0);
  }

  /**
   * One frame of `dt` seconds (1/30 for a 30 fps frame: two 1/60 s sub-steps). The pose must be evaluated
   * before physics and `toggledOff` set for this frame.
   */
  step(dt = 1 / 30): void {
    const bodies = this.model.rigidBodies;
    for (let i = 0; i < this.bodies.length; i++) {
      const b = this.bodies[i];
      if (!b) continue;
      const bone = bodies[i].bone;
      // MMD rule — mode 0 bodies are moved to their bones before each step; so is a physics body whose bone's key
      // in force has physics off (bytes 2–3 = 99, 15): it follows its keys, kinematic, until a key turns it back on.
      const follow = this.modes[i] === RigidMode.FOLLOW_BONE || (bone >= 0 && this.toggledOff[bone] === 1);
      if (b.isDynamic) {
        const k = follow ? 1 : 0;
        if (k !== this.kinematicNow[i]) {
          b.effectiveKinematicState = follow;
          this.kinematicNow[i] = k;
        }
      }
      if (follow) this.place(b, this.bodyFromBone(i));
    }
    this.runtime.timeStep = dt;
    this.runtime.afterAnimations(0);
    this.syncBones(1);
  }

  /** Physics bones from their bodies, the other bones before physics refreshed from their parents, then the after-physics bones. */
  private syncBones(useBodies: 0 | 1): void {
    const P = this.pose, s = P.skeleton, x = this.x;
    this.driven.fill(0);
    if (useBodies) {
      const order = s.order;
      for (let k = 0; k < order.length; k++) {
        const bone = order[k];
        if (s.afterPhysics[bone]) continue;
        const i = this.driver[bone];
        if (i < 0 || this.toggledOff[bone]) {
          // Not driven: its world again from its parent's, which physics may have moved.
          P.updateWorld(bone);
          continue;
        }
        this.readBody(i, x, 0);
        if (!(Number.isFinite(x[0] + x[1] + x[2]) && Number.isFinite(x[3] + x[4] + x[5] + x[6]))) {
          if (this.diverged < 0) this.diverged = i;
          P.updateWorld(bone);
          continue;
        }
        this.driven[bone] = 1;
        // bone = body ∘ offset⁻¹: rotation q_body ⊗ q_off⁻¹, position p_body − q_bone · p_off.
        const o = 7 * i, off = this.offsets;
        const inv = INV;
        inv[0] = -off[o + 3]; inv[1] = -off[o + 4]; inv[2] = -off[o + 5]; inv[3] = off[o + 6];
        qmul(x, 3, inv, 0, ROT, 0);
        // MMD rule — mode 1 drives the bone's rotation and position, mode 2 only its rotation (the position stays
        // where the animation put it).
        if (this.modes[i] === RigidMode.PHYSICS) {
          qrot(ROT, 0, off[o], off[o + 1], off[o + 2], TMP, 0);
          POS[0] = x[0] - TMP[0]; POS[1] = x[1] - TMP[1]; POS[2] = x[2] - TMP[2];
        } else {
          POS[0] = P.worldPosition[3 * bone]; POS[1] = P.worldPosition[3 * bone + 1]; POS[2] = P.worldPosition[3 * bone + 2];
        }
        // World transform, and the solved local transform relative to the parent (what a bake writes).
        P.setWorld(bone, POS, ROT);
      }
    }
    // MMD rule — after-physics bones last.
    P.evaluate('afterPhysics');
  }

  /** Floats per body in a saved state (saveState): its transform matrix, linear and angular velocity. */
  static readonly STATE_FLOATS = 22;

  /**
   * The bodies' state after the last step (transform matrix, linear and angular velocity), into `out`
   * (STATE_FLOATS per body): what `new PhysicsWorld(…, state)` starts from. A dynamic body's transform is
   * Bullet's own (its world transform), not the one the bones are read from: Bullet hands that one back one
   * sub-step behind (its motion state, interpolated at −1/60 s: transform − velocity / 60), so a world made
   * from it would start 1/60 s back at the present speed.
   */
  saveState(out = new Float32Array(PhysicsWorld.STATE_FLOATS * this.bodies.length)): Float32Array {
    const v = new Vector3();
    this.bodies.forEach((b, i) => {
      if (!b) return;
      const o = PhysicsWorld.STATE_FLOATS * i;
      // btTransform in the wasm memory: rows of the basis at floats 0, 4, 8 (3 used of 4), the origin at 12.
      const w = (b as unknown as { _worldTransformPtr: { array: Float32Array } | null })._worldTransformPtr;
      if (w) {
        const m = w.array;
        out[o] = m[0]; out[o + 1] = m[4]; out[o + 2] = m[8]; out[o + 3] = 0;
        out[o + 4] = m[1]; out[o + 5] = m[5]; out[o + 6] = m[9]; out[o + 7] = 0;
        out[o + 8] = m[2]; out[o + 9] = m[6]; out[o + 10] = m[10]; out[o + 11] = 0;
        out[o + 12] = m[12]; out[o + 13] = m[13]; out[o + 14] = m[14]; out[o + 15] = 1;
      } else {
        // Kinematic (mode 0): where it was last put, which is Bullet's transform too.
        b.getTransformMatrixToArray(out, o);
      }
      b.getLinearVelocityToRef(v);
      out[o + 16] = v.x; out[o + 17] = v.y; out[o + 18] = v.z;
      b.getAngularVelocityToRef(v);
      out[o + 19] = v.x; out[o + 20] = v.y; out[o + 21] = v.z;
    });
    return out;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const c of this.constraints) { this.runtime.removeConstraint(c); c.dispose(); }
    for (const b of this.bodies) if (b) { this.runtime.removeRigidBody(b); b.dispose(); }
    for (const s of this.shapes) s.dispose();
    // babylon-mmd 1.3.0's PhysicsRuntime.dispose frees the runtime (and its lock byte) before its world's dispose
    // waits on that lock, reading freed memory: it can spin for ever. The world is single-threaded and stepped
    // only by this class, so nothing can hold the lock here; the wait is made a no-op for this one runtime.
    (this.runtime.lock as { wait(): void }).wait = () => {};
    this.runtime.dispose();
  }
}

const INV = new Float64Array(4);
const TMP = new Float64Array(3);
const POS = new Float64Array(3);
const ROT = new Float64Array(4);
