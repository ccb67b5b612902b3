/**
 * Physics that follows the playhead as a bake would (MMD's 物理演算 → トレース): the state at frame N is the one a
 * simulation from frame 0 reaches at N — its bits when played or jumped ahead, near them when jumped back (below).
 *
 * A straight run from 0 would cost N steps per jump. Instead the run keeps a checkpoint every TRACE_EVERY frames:
 * the bodies' state (PhysicsWorld.saveState) before frame c is stepped, c a multiple of TRACE_EVERY. A jump to N
 * starts from the nearest checkpoint at or before N (at most TRACE_EVERY steps once the run has been there), else
 * from frame 0 (restart with the settling frames, as MMD does at a seek), and steps on.
 *
 * Exactness: a run from frame 0 is one world stepped on, as Simulation (simulate.ts) runs it: the state at N is
 * the same bits as a straight run's, whether played there or jumped there in a new trace. Checkpoints are saved
 * from such a run only, and read only by a jump. A world made from a checkpoint holds every body where the
 * straight run had it and moving as it moved, but Bullet keeps what a saved state cannot hold (contact manifolds
 * and their impulses, which warm-start the next solve; the order of its pairs), so from the first step on the
 * bodies in contact part from the straight run a little (low_miku dancing wavefile_v2: its physics bones at most
 * 0.2 units off after the ≤ 30 steps of a jump; Gene_light's cloak, which touches her body, up to 17 on its weights;
 * see the README): a jump back lands near the straight run, not on its bits, the same way each time.
 * Making the world anew at every checkpoint on a straight run too (as before) made all ways agree, but with one
 * another only: each rebuild's small step off adds up, 4 units off the straight run within 600 frames (and with the
 * state put in wrong, see PhysicsWorld's constructor, the hair blew apart: 75 units).
 *
 * Memory: one checkpoint is PhysicsWorld.STATE_FLOATS (22) float32 per body, 88 bytes: 13 KB for a model of 150
 * bodies. At most TRACE_MAX_CHECKPOINTS are kept per model (240: 3 MB for 150 bodies, two minutes… four at 30 fps);
 * past that the one farthest from the frame asked for goes (made again when a straight run passes there).
 *
 * Slices: advance(f, max) takes at most `max` steps of goTo(f)'s way (a restart's settling frames split too) and
 * stepsTo(f) says how many are left, so the preview runs a first long jump between animation frames instead of
 * freezing the page (renderer/src/preview/physics-preview.ts). The way is goTo's in any slicing, and a frame asked
 * for midway is gone to from where the run stands, so the state at N is the same bits as goTo's.
 *
 * An edit of the motion before N changes what the run gives after the edit: invalidateFrom(M) drops the
 * checkpoints after frame M (a checkpoint at c holds frames up to c − 1).
 */
import type { ModelData } from '../pmx/model-types';
import type { VmdDocument } from '../vmd/vmd-document';
import { buildTracks, type BoneTracks } from '../vmd/tracks';
import type { BulletInstance } from './bullet';
import { buildSkeleton, MotionPoser, Pose } from '../skeleton';
import { PhysicsWorld, type WorldOptions } from './world';
import { PhysicsToggles, poseBeforePhysics, SEEK_SETTLE_FRAMES } from './simulate';
import type { MotionTracks, NamedTracks } from '../vmd/tracks';
import { BONE, MORPH } from '../vmd/vmd-layout';

/** Frames between checkpoints: a jump costs at most this many steps after the run has been there. */
export const TRACE_EVERY = 30;
/** The most checkpoints kept per model (see the memory note above). */
export const TRACE_MAX_CHECKPOINTS = 240;

export interface TraceOptions extends WorldOptions {
  every?: number;
  maxCheckpoints?: number;
  settleFrames?: number;
}

export class PhysicsTrace {
  readonly pose: Pose;
  world: PhysicsWorld;
  private poser: MotionPoser;
  private toggles: PhysicsToggles;
  private tracks: BoneTracks | null;
  /** The whole frame the world and the pose are at (after its step), −1 before the first or after an edit before it. */
  frame = -1;
  /** Checkpoint frame → the bodies' state before that frame is stepped. */
  private readonly saved = new Map<number, Float32Array>();
  /** The run is one world stepped on from a restart at frame 0 (no checkpoint loaded since): it keeps checkpoints. */
  private straight = false;
  private readonly every: number;
  private readonly max: number;
  /** Settling steps of a restart from frame 0 still to run (frame is −1 meanwhile): advance splits them too. */
  private settling = 0;
  /**
   * For the tests and the status: steps taken (frames stepped), settling steps of the restarts, restarts from
   * frame 0 and loads of a checkpoint.
   */
  steps = 0;
  settled = 0;
  restarts = 0;
  loads = 0;

  constructor(private readonly bullet: BulletInstance, readonly model: ModelData, motion: VmdDocument | null, tracks: MotionTracks | null = null, readonly opts: TraceOptions = {}) {
    const skeleton = buildSkeleton(model.bones);
    this.pose = new Pose(skeleton);
    this.world = new PhysicsWorld(bullet, model, this.pose, opts);
    this.every = Math.max(1, Math.floor(opts.every ?? TRACE_EVERY));
    this.max = Math.max(1, Math.floor(opts.maxCheckpoints ?? TRACE_MAX_CHECKPOINTS));
    const all = tracks ?? (motion ? buildTracks(motion) : null);
    this.poser = new MotionPoser(skeleton, motion, all, model);
    this.tracks = all ? all.bones : null;
    this.toggles = new PhysicsToggles(model, motion, this.tracks);
  }

  /**
   * The motion changed (an edit): poses come from the new one, and what the run gave from frame `from` on is
   * dropped (invalidateFrom). `from` 0 (or unknown) starts over.
   */
  setMotion(motion: VmdDocument | null, tracks: MotionTracks | null, from = 0): void {
    const all = tracks ?? (motion ? buildTracks(motion) : null);
    this.poser = new MotionPoser(this.pose.skeleton, motion, all, this.model);
    this.tracks = all ? all.bones : null;
    this.toggles = new PhysicsToggles(this.model, motion, this.tracks);
    this.invalidateFrom(from);
  }

  /** The motion changed at frame m: checkpoints after m go (each holds the frames before it), and a world past m. */
  invalidateFrom(m: number): void {
    for (const c of [...this.saved.keys()]) if (c > m) this.saved.delete(c);
    if (this.frame >= m) this.frame = -1;
    // A restart under way settles at the pose of frame 0, which an edit from 0 changes.
    if (m <= 0) this.settling = 0;
  }

  /** The checkpoint frames kept, in order (tests). */
  checkpoints(): number[] {
    return [...this.saved.keys()].sort((a, b) => a - b);
  }

  /** Bytes the checkpoints take. */
  get bytes(): number {
    let n = 0;
    for (const s of this.saved.values()) n += s.byteLength;
    return n;
  }

  private poseAt(f: number): void {
    poseBeforePhysics(this.world, this.poser, this.pose, this.toggles, f);
  }

  private newWorld(state: Float32Array | null = null): void {
    this.world.dispose();
    this.world = new PhysicsWorld(this.bullet, this.model, this.pose, this.opts, state);
  }

  /** The checkpoint frame nearest at or before n (> 0), else −1. */
  private checkpointFor(n: number): number {
    let c = -1;
    for (const k of this.saved.keys()) if (k <= n && k > c) c = k;
    return c;
  }

  /**
   * How the run gets to frame n from where it is: 'on' steps on from here, 'load' starts from the checkpoint at
   * or before n, 'restart' from frame 0 (restart with the settling frames), 'settle' goes on with a restart begun.
   */
  private plan(n: number, c: number): 'on' | 'load' | 'restart' | 'settle' {
    if (this.settling > 0) return c > 0 ? 'load' : 'settle';
    if (this.frame >= 0 && this.frame < n && this.frame >= c - 1) return 'on';
    return c > 0 ? 'load' : 'restart';
  }

  /**
   * The world steps (settling frames included) the way to frame f still takes (0: the run is there). The
   * preview runs a long way in slices (renderer/src/preview/physics-actor.ts catchUp) rather than at once.
   */
  stepsTo(f: number): number {
    const n = Math.max(0, Math.floor(f));
    if (n === this.frame) return 0;
    const c = this.checkpointFor(n);
    switch (this.plan(n, c)) {
      case 'on': return n - this.frame;
      case 'load': return n - (c - 1);
      case 'settle': return this.settling + n;
      default: return (this.opts.settleFrames ?? SEEK_SETTLE_FRAMES) + n;
    }
  }

  /**
   * The world and pose at frame f (a fractional frame goes to the whole frame before it): from where the run is
   * when that is on the way, else from the nearest checkpoint at or before f, else from frame 0.
   */
  goTo(f: number): void {
    this.advance(f, Infinity);
  }

  /**
   * At most `max` world steps (settling frames included) of goTo(f)'s way; returns the steps taken. The way is
   * goTo's whatever the slices (a restart's settling too is only split), so the state reached at f is the same
   * bits; asked for another frame in between, the run goes there instead from where it stands (nothing queued).
   */
  advance(f: number, max: number): number {
    const n = Math.max(0, Math.floor(f));
    if (n === this.frame) return 0;
    const c = this.checkpointFor(n);
    const how = this.plan(n, c);
    if (how === 'load') {
      this.newWorld(this.saved.get(c)!);
      this.settling = 0;
      this.straight = false;
      this.frame = c - 1;
      this.loads++;
    } else if (how === 'restart') {
      // restartPhysics (shared/physics/simulate.ts), its settling frames run below in as many slices as asked.
      this.newWorld();
      this.poseAt(0);
      this.world.reset();
      this.settling = this.opts.settleFrames ?? SEEK_SETTLE_FRAMES;
      this.straight = true;
      this.frame = -1;
      this.restarts++;
      if (this.settling <= 0) this.frame = 0;
    }
    let k = 0;
    for (; this.settling > 0 && k < max; k++) {
      this.poseAt(0);
      this.world.step();
      this.settled++;
      if (--this.settling === 0) this.frame = 0;
    }
    for (; this.frame >= 0 && this.frame < n && k < max; k++) this.stepOne();
    return k;
  }

  private stepOne(): void {
    const g = this.frame + 1;
    // A checkpoint: kept from a straight run (a run from a checkpoint is near it, not on it), the world going on.
    if (g % this.every === 0 && this.straight && !this.saved.has(g)) this.keep(g, this.world.saveState());
    this.poseAt(g);
    this.world.step();
    this.frame = g;
    this.steps++;
  }

  private keep(c: number, state: Float32Array): void {
    this.saved.set(c, state);
    while (this.saved.size > this.max) {
      // The one farthest from here goes (a straight run makes it again when it passes there).
      let far = -1, d = -1;
      for (const k of this.saved.keys()) if (Math.abs(k - c) > d) { d = Math.abs(k - c); far = k; }
      this.saved.delete(far);
    }
  }

  dispose(): void {
    this.world.dispose();
  }
}

/**
 * The first frame whose pose (before physics) may differ between two versions of a motion: per bone and morph
 * track, the key before the first key that changed (the curve from there to it changed too), 0 for a track added
 * or removed, or when the IK block changed. Infinity when nothing that poses the model changed (a camera edit).
 */
export function firstChangedFrame(a: { doc: VmdDocument; tracks: MotionTracks }, b: { doc: VmdDocument; tracks: MotionTracks }): number {
  if (!sameBytes(a.doc.ik.bytes, b.doc.ik.bytes)) return 0;
  return Math.min(
    firstChangedIn(a.tracks.bones, a.doc.bone.bytes, b.tracks.bones, b.doc.bone.bytes, BONE.SIZE),
    firstChangedIn(a.tracks.morphs, a.doc.morph.bytes, b.tracks.morphs, b.doc.morph.bytes, MORPH.SIZE),
  );
}

function sameBytes(x: Uint8Array, y: Uint8Array): boolean {
  if (x === y) return true;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function firstChangedIn(ta: NamedTracks, ba: Uint8Array, tb: NamedTracks, bb: Uint8Array, size: number): number {
  let first = Infinity;
  const byName = new Map<string, number>();
  tb.names.forEach((n, t) => byName.set(n, t));
  const seen = new Set<number>();
  for (let t = 0; t < ta.names.length; t++) {
    const u = byName.get(ta.names[t]);
    if (u === undefined) return 0;
    seen.add(u);
    const a0 = ta.start[t], a1 = ta.start[t + 1], b0 = tb.start[u], b1 = tb.start[u + 1];
    let i = 0;
    for (; a0 + i < a1 && b0 + i < b1; i++) {
      const ka = a0 + i, kb = b0 + i;
      if (ta.frames[ka] !== tb.frames[kb]) break;
      const ra = ta.record[ka] * size, rb = tb.record[kb] * size;
      let same = true;
      for (let k = 0; k < size && same; k++) same = ba[ra + k] === bb[rb + k];
      if (!same) break;
    }
    if (a0 + i === a1 && b0 + i === b1) continue;
    // The curve from the key before the first change on; before the track's first key the first key holds.
    first = Math.min(first, i > 0 ? ta.frames[a0 + i - 1] : 0);
  }
  if (seen.size !== tb.names.length) return 0;
  return first;
}
