/**
 * Physics that follows the playhead as a bake would (MMD's 物理演算 → トレース): the state at frame N is the one a
 * simulation from frame 0 reaches at N, whatever way the playhead came there (played, jumped, scrubbed back).
 *
 * A straight run from 0 would cost N steps per jump. Instead the run keeps a checkpoint every TRACE_EVERY frames:
 * the bodies' state (PhysicsWorld.saveState) before frame c is stepped, c a multiple of TRACE_EVERY. A jump to N
 * starts from the nearest checkpoint at or before N (at most TRACE_EVERY steps once the run has been there), else
 * from frame 0 (restart with the settling frames, as MMD does at a seek), and steps on.
 *
 * Exactness: Bullet keeps caches a saved state does not hold (contact manifolds and their impulses, which
 * warm-start the next solve), so a world loaded from a checkpoint would part from one that ran through it. Here
 * every run goes through the checkpoint the same way: at each checkpoint frame the world is made anew from its
 * state, on a straight run too. Then the state at N is the same bits whichever way N was reached.
 *
 * Memory: one checkpoint is PhysicsWorld.STATE_FLOATS (22) float32 per body, 88 bytes: 13 KB for a model of 150
 * bodies. At most TRACE_MAX_CHECKPOINTS are kept per model (240: 3 MB for 150 bodies, two minutes… four at 30 fps);
 * past that the one farthest from the frame asked for goes (it is made again when the run passes there).
 *
 * Slices: advance(f, max) takes at most `max` steps of goTo(f)'s way (a restart's settling frames split too) and
 * stepsTo(f) says how many are left, so the preview runs a first long jump between animation frames instead of
 * freezing the page (renderer/src/preview/physics-preview.ts). The way is goTo's in any slicing, and a frame asked
 * for midway is gone to from where the run stands, so the state at N stays the same bits.
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
  /** The world was just made from the checkpoint of this frame (not stepped since), else −1. */
  private loadedAt = -1;
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

  private newWorld(): void {
    this.world.dispose();
    this.world = new PhysicsWorld(this.bullet, this.model, this.pose, this.opts);
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
      this.newWorld();
      this.world.loadState(this.saved.get(c)!);
      this.settling = 0;
      this.loadedAt = c;
      this.frame = c - 1;
      this.loads++;
    } else if (how === 'restart') {
      // restartPhysics (shared/physics/simulate.ts), its settling frames run below in as many slices as asked.
      this.newWorld();
      this.poseAt(0);
      this.world.reset();
      this.settling = this.opts.settleFrames ?? SEEK_SETTLE_FRAMES;
      this.loadedAt = -1;
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
    if (g % this.every === 0 && this.loadedAt !== g) {
      // A checkpoint: kept, and the world made anew from it, as a jump here does.
      const state = this.world.saveState();
      this.keep(g, state);
      this.newWorld();
      this.world.loadState(state);
    }
    this.loadedAt = -1;
    this.poseAt(g);
    this.world.step();
    this.frame = g;
    this.steps++;
  }

  private keep(c: number, state: Float32Array): void {
    this.saved.set(c, state);
    while (this.saved.size > this.max) {
      // The one farthest from here goes (the run makes it again when it passes there).
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
