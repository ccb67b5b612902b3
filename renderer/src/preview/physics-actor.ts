/**
 * One actor's physics in the preview: a PhysicsWorld (shared/physics/world.ts) of its own, driving the pose the
 * actor's rig is posed in (rig.pose, shared/skeleton). PoseBinding.solve hands the bones over here once their
 * local transforms are in: this evaluates the bones before physics (IK chains of physics bones left to
 * physics), steps the world or restarts it, and the bones after physics follow (world.step does that).
 *
 * When to step and when to restart (MMD's rule, shared/physics/simulate.ts restartPhysics):
 * - playing (or exporting), the frame moved forward: one step of the time that passed (sub-frames allowed; at
 *   most MAX_PLAY_STEP frames of it on a display too slow to keep up);
 * - paused, the frame moved forward by at most one frame (stepping with the arrow key, a slow scrub): a step;
 * - the same frame again (a bone posed by hand with the rings or arrows, the scene re-laid out): one 1/30 s
 *   step holding the pose, so the bone's physics children follow the hand;
 * - anything else (a seek, a loop back, a frame typed in, a jump of the scrub bar), the first pose, the actor
 *   shown again after being hidden, or Reset: a restart from the pose there with the settling frames.
 *
 * Trace (MMD's トレース, setTrace): the physics bones are instead those of a PhysicsTrace (shared/physics/trace.ts)
 * of the motion at the whole frame at or before the playhead: played or jumped ahead, the picture at a frame is a
 * straight run's from frame 0, as a bake's; jumped back, it starts from the run's checkpoint before it and lands
 * near (trace.ts says how near). A bone posed by hand does not move them (the trace follows the motion). In
 * the preview (clock.slice) a way longer than TRACE_AT_ONCE steps is not run in the pose: catchUpTo names the
 * frame, PreviewPhysics runs catchUp a few milliseconds per animation frame, and the bones have no physics until
 * the run is there (a 5000-step jump froze the page for seconds).
 *
 * A restart starts from a new world: Bullet keeps state that PhysicsWorld.reset() does not clear (contact
 * manifolds and their cached impulses, which warm-start the next solve), so a restart in a world that has run
 * depends on where it ran before — Reset twice at one frame gave hair 2–6 units apart on Gene_light. A new
 * world makes a restart at a frame the same every time, and the same as Node's Simulation.seek there (a video
 * export of a range is then frame-exact whatever the preview did before).
 */
import type { ModelData } from '../../../shared/pmx/model-types';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import type { BulletInstance } from '../../../shared/physics/bullet';
import { FIXED_STEP, MAX_SUB_STEPS, PhysicsWorld } from '../../../shared/physics/world';
import { PhysicsToggles, restartPhysics, SEEK_SETTLE_FRAMES } from '../../../shared/physics/simulate';
import type { Pose } from '../../../shared/skeleton';
import { MAX_PHYSICS_FRAMES_PER_DRAW } from './draw-rate';
import { firstChangedFrame, PhysicsTrace, TRACE_EVERY } from '../../../shared/physics/trace';
import { RigidMode } from '../../../shared/pmx/model-types';

/**
 * Playing: the most frames of physics one display frame runs (the loop's 0.25 s cap). A slower display (the
 * music's clock runs on) runs only this much: physics lags the dance rather than restarting every frame.
 */
const MAX_PLAY_STEP = MAX_PHYSICS_FRAMES_PER_DRAW;
/** Playing: a forward move longer than this (one second) is a seek (the playhead was moved while playing). */
const MAX_PLAY_ADVANCE = 30;
/** Paused: the most frames forward that are stepped rather than restarted (one frame, as MMD steps). */
const MAX_PAUSED_ADVANCE = 1;
/** The longest single world step: Bullet does at most MAX_SUB_STEPS fixed steps per call. */
const MAX_STEP_S = MAX_SUB_STEPS * FIXED_STEP;

/**
 * What the actors' physics share: whether the playhead is playing (a forward move is time passing), and whether
 * Trace mode's long ways run in slices (`slice`: the preview; off, a pose runs the whole way at once, as the video
 * export and the tests need).
 */
export interface PhysicsClock {
  playing: boolean;
  slice?: boolean;
}

/**
 * Trace mode in slices: the most world steps one pose runs at once (one checkpoint's way: a jump back into what
 * the run has been through, and playing, show at once); a longer way (the first jump far ahead, 5000 steps for
 * frame 5000) is run by PreviewPhysics between animation frames (catchUp) and the pose meanwhile has no physics.
 */
export const TRACE_AT_ONCE = TRACE_EVERY;

/** How the next pose decides between a step and a restart (pure: unit-tested). */
export function physicsAdvance(last: number, f: number, playing: boolean, restartPending: boolean): { restart: true } | { restart: false; frames: number } {
  if (restartPending || !Number.isFinite(last)) return { restart: true };
  const d = f - last;
  if (d === 0) return { restart: false, frames: 1 };
  if (d > 0 && d <= (playing ? MAX_PLAY_ADVANCE : MAX_PAUSED_ADVANCE)) return { restart: false, frames: Math.min(d, MAX_PLAY_STEP) };
  return { restart: true };
}

export class ActorPhysics {
  world: PhysicsWorld;
  /** The world has not run yet (a restart can use it as it is). */
  private fresh = true;
  private toggles: PhysicsToggles;
  /** The frame last posed (NaN: never). */
  private last = NaN;
  /** The next pose restarts (first pose, Reset, shown again). */
  restartPending = true;
  /** Counts for the status and the tests: world steps (1/30 s or less each) and restarts. */
  steps = 0;
  restarts = 0;
  /** Milliseconds of physics JavaScript (Bullet's wasm included) the last pose took. */
  lastMs = 0;
  /** Seconds of physics stepped so far (restarts' settling not counted): the perf e2e's cost per frame. */
  simulated = 0;
  private disposed = false;

  constructor(private readonly bullet: BulletInstance, readonly model: ModelData, readonly pose: Pose, private readonly clock: PhysicsClock) {
    this.world = new PhysicsWorld(bullet, model, pose);
    this.toggles = new PhysicsToggles(model, null, null);
  }

  /** The motion whose keys switch bones' physics off (99, 15 in the interpolation block). */
  setMotion(doc: VmdDocument | null, tracks: MotionTracks | null): void {
    // A curve-only edit keeps the tracks but brings a new document (the toggle bytes may be what changed).
    if (doc === this.doc && this.toggles.tracks === (tracks?.bones ?? null)) return;
    const was = this.doc && this.tracks ? { doc: this.doc, tracks: this.tracks } : null;
    this.doc = doc;
    this.tracks = tracks;
    this.toggles = new PhysicsToggles(this.model, doc, tracks?.bones ?? null);
    // The trace keeps what the run gave before the first frame the edit changed (the key before it).
    if (this.trace) this.trace.setMotion(doc, tracks, was && doc && tracks ? firstChangedFrame(was, { doc, tracks }) : 0);
  }
  private doc: VmdDocument | null = null;
  private tracks: MotionTracks | null = null;
  /** Trace mode's run of the motion, null in the other modes. */
  trace: PhysicsTrace | null = null;
  /** Trace mode in slices: the whole frame the run is on its way to (catchUp), −1 for none. */
  catchUpTo = -1;
  /** World steps catchUp ran towards catchUpTo since the way began (the progress line). */
  catchUpRan = 0;

  /**
   * Trace mode in slices: at most `max` world steps of the way to catchUpTo; true once there (the next pose shows
   * the physics there). The frame asked for is the latest pose's: a jump meanwhile redirects the way.
   */
  catchUp(max: number): boolean {
    const t = this.trace;
    if (!t || this.catchUpTo < 0) return true;
    const before = t.steps;
    this.catchUpRan += t.advance(this.catchUpTo, max);
    this.steps += t.steps - before;
    this.world = t.world;
    if (t.stepsTo(this.catchUpTo) > 0) return false;
    this.catchUpTo = -1;
    this.catchUpRan = 0;
    return true;
  }

  /** Trace mode on or off: off, the next pose restarts the preview's own world from the pose there. */
  setTrace(on: boolean): void {
    const t = this.trace;
    if (on === !!t) return;
    if (on) {
      // The trace's world (a new one at a restart or a jump back) stands for the actor's: the rigid-body view, the lost-body check.
      this.trace = new PhysicsTrace(this.bullet, this.model, this.doc, this.tracks);
      this.world.dispose();
      this.world = this.trace.world;
    } else if (t) {
      t.dispose();
      this.trace = null;
      this.catchUpTo = -1;
      this.catchUpRan = 0;
      this.world = new PhysicsWorld(this.bullet, this.model, this.pose);
      this.fresh = true;
      this.restartPending = true;
    }
  }

  /**
   * Poses the bones whose local transforms are in `pose` at frame f with physics: before physics, the world
   * stepped or restarted, after physics. `ikOn` says which IK bones the motion has switched on.
   */
  solve(f: number, ikOn: (ikBone: number) => boolean): void {
    const t0 = performance.now();
    if (this.trace) {
      this.solveTraced(f, ikOn);
      this.lastMs = performance.now() - t0;
      return;
    }
    const a = physicsAdvance(this.last, f, this.clock.playing, this.restartPending);
    if (a.restart && !this.fresh) {
      this.world.dispose();
      this.world = new PhysicsWorld(this.bullet, this.model, this.pose);
    }
    this.fresh = false;
    const w = this.world, skip = w.skipIk, pose = this.pose;
    // MMD rule — with physics on, an IK chain whose links are all physics bones is not solved.
    const before = () => {
      pose.evaluate('beforePhysics', (b) => skip[b] === 0 && ikOn(b));
      this.toggles.apply(w.toggledOff, f);
    };
    if (a.restart) {
      restartPhysics(w, before, SEEK_SETTLE_FRAMES);
      this.restarts++;
      this.restartPending = false;
    } else {
      before();
      // A long advance in chunks Bullet takes whole (each ≤ MAX_SUB_STEPS fixed steps), holding this pose.
      let rest = a.frames / 30;
      while (rest > 1e-9) {
        const dt = Math.min(rest, MAX_STEP_S);
        w.step(dt);
        this.steps++;
        this.simulated += dt;
        rest -= dt;
      }
    }
    this.last = f;
    this.lastMs = performance.now() - t0;
  }

  /**
   * Trace mode: the bones before physics from the pose at f, then the physics bones as the trace has them at the
   * whole frame (with a body in mode 2 the bone keeps its position here), the rest from their parents, and the
   * bones after physics.
   */
  private solveTraced(f: number, ikOn: (ikBone: number) => boolean): void {
    const t = this.trace!, P = this.pose, n = Math.max(0, Math.floor(f));
    this.last = n;
    if (this.clock.slice && t.stepsTo(n) > TRACE_AT_ONCE) {
      // A long way (a first jump far ahead): run in slices between animation frames (PreviewPhysics), towards this
      // frame only (a way under way to another frame turns here). Meanwhile the bones have no physics: the run's
      // state on its way belongs to another frame than the pose's.
      this.catchUpTo = n;
      P.evaluate('all', ikOn);
      return;
    }
    this.catchUpTo = -1;
    this.catchUpRan = 0;
    const before = t.steps;
    t.goTo(n);
    this.steps += t.steps - before;
    this.world = t.world;
    const w = t.world, skip = w.skipIk, s = P.skeleton, T = t.pose;
    P.evaluate('beforePhysics', (b) => skip[b] === 0 && ikOn(b));
    for (let k = 0; k < s.order.length; k++) {
      const bone = s.order[k];
      if (s.afterPhysics[bone]) continue;
      if (!w.driven[bone]) {
        P.updateWorld(bone);
        continue;
      }
      const keepPosition = w.modes[w.driver[bone]] !== RigidMode.PHYSICS;
      POS[0] = keepPosition ? P.worldPosition[3 * bone] : T.worldPosition[3 * bone];
      POS[1] = keepPosition ? P.worldPosition[3 * bone + 1] : T.worldPosition[3 * bone + 1];
      POS[2] = keepPosition ? P.worldPosition[3 * bone + 2] : T.worldPosition[3 * bone + 2];
      ROT[0] = T.worldRotation[4 * bone]; ROT[1] = T.worldRotation[4 * bone + 1]; ROT[2] = T.worldRotation[4 * bone + 2]; ROT[3] = T.worldRotation[4 * bone + 3];
      P.setWorld(bone, POS, ROT);
    }
    P.evaluate('afterPhysics');
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // In trace mode the world is the trace's.
    if (this.trace) this.trace.dispose();
    else this.world.dispose();
  }
}

const POS = new Float64Array(3);
const ROT = new Float64Array(4);
