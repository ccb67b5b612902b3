/**
 * The preview's physics (issue 26 §3): one PhysicsWorld per actor whose model has rigid bodies (physics-actor.ts),
 * the switch (off / on, and Reset), the clock (playing or not), and the "Show rigid bodies" view
 * (physics-bodies-view.ts). The engine tells it each actor's model, binding and motion after it binds them
 * (`bind`), which actors are hidden (a hidden actor has no physics: its world is not stepped, and it restarts
 * when shown again), and asks it to place the debug view after each pose (`afterPose`).
 *
 * Main thread, not a worker: the step of two corpus models dancing costs a few hundred microseconds of
 * JavaScript and wasm per frame (the perf e2e prints it), while a worker would add a round trip and a copy of
 * every physics bone per frame and could not pose the same frame synchronously.
 *
 * Bullet (babylon-mmd's SPR wasm, renderer/src/physics/bullet-web.ts) is loaded the first time physics is
 * turned on. The built-in figure and models without rigid bodies get no world and are posed as before.
 */
import type { PhysicsWorld } from '../../../shared/physics/world';
import type { BulletInstance } from '../../../shared/physics/bullet';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import type { ModelData } from '../../../shared/pmx/model-types';
import type { Rig } from './rig';
import type { PoseBinding } from './pose-binding';
import { ActorPhysics, type PhysicsClock } from './physics-actor';
import { RigidBodiesView, bodyFacts, type BodyFacts } from './physics-bodies-view';
import type * as THREE from 'three';
import { Ring } from './frame-profiler';
import { PhysicsToggles, physicsBoneMask } from '../../../shared/physics/simulate';

/** An actor as the physics sees it: its model (null: the built-in figure), rig, and where its picture hangs. */
export interface PhysicsActorBody {
  model: ModelData | null;
  rig: Rig;
  /** The model's mesh (the rigid-body view is its child); null for the figure. */
  mesh: THREE.Object3D | null;
}

interface Entry {
  key: string;
  body: PhysicsActorBody;
  binding: PoseBinding;
  doc: VmdDocument | null;
  tracks: MotionTracks | null;
  hidden: boolean;
  physics: ActorPhysics | null;
  /** The world whose lost body was last reported (onLost fires once per world). */
  lost?: PhysicsWorld;
  view: RigidBodiesView | null;
  /** The motion's physics-off keys read for the status line (keyFollowing), kept while doc and tracks stay. */
  /** The bones' world positions when moved() last looked (MMD coordinates, 3 per bone). */
  lastPositions?: Float64Array;
  keyed?: { doc: VmdDocument | null; tracks: MotionTracks | null; toggles: PhysicsToggles; mask: Uint8Array; scratch: Uint8Array };
}

/** The shown actor's key (companions are keyed `id:model`, as scene-actors.ts does). */
export const SHOWN_KEY = 'shown';

/**
 * Trace mode's catch-up (a long way run in slices, physics-actor.ts catchUp): the milliseconds of world steps one
 * animation frame runs (a few: the page keeps drawing and answering), and the most steps whatever the clock says.
 */
export const CATCH_UP_MS = 6;
export const CATCH_UP_MAX_STEPS = 40;

/** Where the catch-up stands: the frame the run is on its way to (the latest of the actors') and how far, 0…1. */
export interface CatchUpProgress {
  frame: number;
  done: number;
}

/** The animation frames the catch-up runs in and its clock (a made-up one in the tests). */
export interface FrameClock {
  request(run: () => void): void;
  now(): number;
}

const pageFrames: FrameClock = {
  request: (run) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => run()) : setTimeout(run, 16)),
  now: () => performance.now(),
};

export class PreviewPhysics {
  readonly clock: PhysicsClock = { playing: false };
  private on = false;
  private bodiesShown = false;
  private bullet: BulletInstance | null = null;
  private loading: Promise<BulletInstance> | null = null;
  private entries = new Map<string, Entry>();
  /** Physics JavaScript per posed frame (all actors), ms: the perf e2e reads it. */
  readonly stepMs = new Ring(4096);
  /** Called when the picture must be posed again (Bullet arrived, physics switched, Reset). */
  onChange: (() => void) | null = null;
  /** Called when the actors changed: one bound, dropped, hidden or shown (the video dialog names those with physics). */
  onActors: (() => void) | null = null;
  /** Called with the error when Bullet's wasm could not be loaded. */
  onError: ((e: unknown) => void) | null = null;
  /** Called once when an actor's world first loses a body to NaN (PhysicsWorld.diverged), for the status line. */
  onLost: (() => void) | null = null;

  /** Called when the catch-up starts, moves on or ends (null): the pane's progress line. */
  onCatchUp: ((p: CatchUpProgress | null) => void) | null = null;
  private catchUpAsked = false;
  private disposed = false;
  /** World steps the last catch-up slice ran (tests). */
  lastSliceSteps = 0;

  constructor(private readonly loadBullet: () => Promise<BulletInstance>, private readonly frames: FrameClock = pageFrames) {}

  /** The actors whose Trace run is on its way to a frame (shown ones). */
  private catchingUp(): ActorPhysics[] {
    const out: ActorPhysics[] = [];
    for (const e of this.entries.values()) if (e.physics && !e.hidden && e.physics.catchUpTo >= 0) out.push(e.physics);
    return out;
  }

  /** Where the catch-up stands, null when none is under way. */
  catchUpProgress(): CatchUpProgress | null {
    const list = this.catchingUp();
    if (!list.length) return null;
    let ran = 0, all = 0, frame = 0;
    for (const a of list) {
      frame = Math.max(frame, a.catchUpTo);
      ran += a.catchUpRan;
      all += a.catchUpRan + (a.trace ? a.trace.stepsTo(a.catchUpTo) : 0);
    }
    return { frame, done: all > 0 ? ran / all : 1 };
  }

  /** A pose left an actor's Trace run on its way: the next animation frame runs a slice of it. */
  private askCatchUp(): void {
    if (this.catchUpAsked || this.disposed || !this.catchingUp().length) return;
    this.catchUpAsked = true;
    this.frames.request(this.catchUpSlice);
    this.onCatchUp?.(this.catchUpProgress());
  }

  /**
   * One animation frame's slice of the catch-up: world steps, one at a time over the actors on their way, for
   * CATCH_UP_MS (at most CATCH_UP_MAX_STEPS); once every one is there, the picture is posed again (onChange),
   * with physics. Each slice goes towards the frame the latest pose asked for, so jumps meanwhile queue nothing.
   */
  private readonly catchUpSlice = (): void => {
    this.catchUpAsked = false;
    if (this.disposed) return;
    const t0 = this.frames.now();
    let steps = 0, list = this.catchingUp();
    const ran = list.length > 0;
    while (list.length && steps < CATCH_UP_MAX_STEPS && this.frames.now() - t0 < CATCH_UP_MS) {
      let pass = 0;
      for (const a of list) {
        if (steps + pass >= CATCH_UP_MAX_STEPS) break;
        const before = a.catchUpRan;
        a.catchUp(1);
        pass += a.catchUpRan - before;
      }
      steps += pass;
      list = list.filter((a) => a.catchUpTo >= 0);
      if (pass === 0) break;
    }
    this.lastSliceSteps = steps;
    if (list.length) {
      this.catchUpAsked = true;
      this.frames.request(this.catchUpSlice);
      this.onCatchUp?.(this.catchUpProgress());
      return;
    }
    this.onCatchUp?.(null);
    // Every run is there: the picture posed again, with physics (a pose since may have been there already).
    if (ran) this.onChange?.();
  };

  get enabled(): boolean {
    return this.on;
  }

  /** Whether Bullet is loaded and the worlds exist (physics on and ready). */
  get ready(): boolean {
    return this.on && !!this.bullet;
  }

  /** Turns physics on or off. On loads Bullet the first time; every actor then restarts from its pose. */
  setEnabled(on: boolean): void {
    if (on === this.on) return;
    this.on = on;
    if (!on) {
      for (const e of this.entries.values()) this.dropWorld(e);
      this.onChange?.();
      return;
    }
    if (this.bullet) return this.build();
    this.loading ??= this.loadBullet();
    this.loading.then(
      (b) => {
        this.bullet = b;
        if (this.on) this.build();
      },
      (err) => {
        this.loading = null;
        this.on = false;
        this.onError?.(err);
      },
    );
  }

  /**
   * Resolves once the worlds exist after setEnabled(true) (Bullet loaded the first time): at once when they
   * do, or physics is off. Rejects when Bullet could not be loaded (the video export then fails, saying so).
   */
  whenReady(): Promise<void> {
    if (!this.on || this.bullet) return Promise.resolve();
    // Chained after setEnabled's own then (registered first), so the worlds are built when this resolves.
    return (this.loading ?? Promise.resolve()).then(() => undefined);
  }

  private traced = false;

  /**
   * Trace mode (MMD's トレース) on or off for every actor, those made later too: physics follows the playhead as a
   * bake would (physics-actor.ts).
   */
  setTrace(on: boolean): void {
    if (on === this.traced) return;
    this.traced = on;
    for (const e of this.entries.values()) e.physics?.setTrace(on);
    if (!on) this.onCatchUp?.(null);
    this.onChange?.();
  }

  get tracing(): boolean {
    return this.traced;
  }

  /** Restarts every actor's physics from its pose at the current frame (with the settling frames). */
  reset(): void {
    this.restartAll();
    this.onChange?.();
  }

  /** The next pose of every actor restarts its physics (the video export's first frame). */
  restartAll(): void {
    for (const e of this.entries.values()) if (e.physics) e.physics.restartPending = true;
  }

  setBodiesShown(on: boolean): void {
    if (on === this.bodiesShown) return;
    this.bodiesShown = on;
    for (const e of this.entries.values()) this.syncView(e);
    this.onChange?.();
  }

  get bodiesVisible(): boolean {
    return this.bodiesShown;
  }

  /**
   * An actor bound (anew) to its motion: keeps its world when the body is the same (a new motion, or the
   * same companion re-listed), else makes one. Call after every binding the engine makes.
   */
  bind(key: string, body: PhysicsActorBody, binding: PoseBinding, doc: VmdDocument | null, tracks: MotionTracks | null): void {
    let e = this.entries.get(key);
    if (e && e.body.rig !== body.rig) {
      this.drop(e);
      e = undefined;
    }
    if (!e) {
      e = { key, body, binding, doc, tracks, hidden: false, physics: null, view: null };
      this.entries.set(key, e);
    }
    e.binding = binding;
    e.doc = doc;
    e.tracks = tracks;
    this.syncWorld(e);
    this.syncView(e);
    this.onActors?.();
  }

  /** Forgets the actors whose keys are not listed (their models were disposed). */
  keepOnly(keys: Iterable<string>): void {
    const keep = new Set(keys);
    for (const e of [...this.entries.values()]) if (!keep.has(e.key)) this.drop(e);
    this.onActors?.();
  }

  /** A hidden actor has no physics (its world is not stepped); shown again, it restarts from its pose. */
  setHidden(key: string, hidden: boolean): void {
    const e = this.entries.get(key);
    if (!e || e.hidden === hidden) return;
    e.hidden = hidden;
    if (e.physics) e.physics.restartPending = true;
    this.attach(e);
    this.onActors?.();
  }

  /** Places the rigid-body views after a pose; records the physics time of the frame. */
  afterPose(): void {
    let ms = 0, any = false, lost = false;
    for (const e of this.entries.values()) {
      if (e.physics && !e.hidden) {
        ms += e.physics.lastMs;
        any = true;
      }
      if (e.physics && e.physics.world.diverged >= 0 && e.lost !== e.physics.world) {
        e.lost = e.physics.world;
        lost = true;
      }
      if (e.view) e.view.update(e.body.rig.pose, e.physics && !e.hidden ? e.physics.world : null);
    }
    if (any) this.stepMs.push(ms);
    if (lost) this.onLost?.();
    if (this.traced) this.askCatchUp();
  }

  /**
   * What the status line says about an actor: 'none' (no rigid bodies), 'unreadable' (the model's physics
   * section could not be read: its physicsError), 'off', 'loading', 'on', or 'lost' (Bullet lost a body to NaN
   * since the last restart: lostBody names it).
   */
  state(key: string): 'none' | 'unreadable' | 'off' | 'loading' | 'on' | 'lost' {
    const e = this.entries.get(key);
    if (e?.body.model?.physicsError) return 'unreadable';
    if (!e?.body.model || e.body.model.rigidBodies.length === 0) return 'none';
    if (!this.on) return 'off';
    if (e.physics && e.physics.world.diverged >= 0) return 'lost';
    return e.physics ? 'on' : 'loading';
  }

  /** The name of the body an actor's world lost (state 'lost'), else ''. */
  lostBody(key: string): string {
    const e = this.entries.get(key), i = e?.physics?.world.diverged ?? -1;
    return i >= 0 ? (e!.body.model?.rigidBodies[i]?.name ?? '') : '';
  }

  /**
   * How many of an actor's physics bones follow their keys at frame f: the motion's key in force has physics
   * off (MMD's 物理OFF, what a bake writes), so physics on or off they play their keys. 0 without a model.
   */
  keyFollowing(key: string, f: number): number {
    const e = this.entries.get(key), model = e?.body.model;
    if (!e || !model || model.rigidBodies.length === 0) return 0;
    let k = e.keyed;
    if (!k || k.doc !== e.doc || k.tracks !== e.tracks) {
      const mask = physicsBoneMask(model);
      k = e.keyed = { doc: e.doc, tracks: e.tracks, toggles: new PhysicsToggles(model, e.doc, e.tracks?.bones ?? null), mask, scratch: new Uint8Array(mask.length) };
    }
    return k.toggles.offCount(f, k.mask, k.scratch);
  }

  /**
   * The farthest any bone of a simulated actor moved (world position, units) since the last call; Infinity
   * for an actor not measured before. "Always" stops stepping a paused scene once this stays small.
   */
  moved(): number {
    let worst = 0;
    for (const e of this.entries.values()) {
      if (!e.physics || e.hidden) continue;
      const P = e.body.rig.pose.worldPosition;
      if (!e.lastPositions || e.lastPositions.length !== P.length) {
        e.lastPositions = Float64Array.from(P);
        worst = Infinity;
        continue;
      }
      const L = e.lastPositions;
      for (let k = 0; k < P.length; k += 3) worst = Math.max(worst, Math.hypot(P[k] - L[k], P[k + 1] - L[k + 1], P[k + 2] - L[k + 2]));
      L.set(P);
    }
    return worst;
  }

  /** The actors drawn (not hidden) whose models have rigid bodies: their keys (SHOWN_KEY, a companion's key). */
  withBodies(): string[] {
    return [...this.entries.values()].filter((e) => !e.hidden && (e.body.model?.rigidBodies.length ?? 0) > 0).map((e) => e.key);
  }

  /** Per actor (tests and profiling): bodies, world steps and restarts so far, whether hidden. */
  actors(): { key: string; bodies: number; joints: number; simulating: boolean; hidden: boolean; steps: number; restarts: number; viewBodies: number; lastMs: number; simulated: number }[] {
    return [...this.entries.values()].map((e) => ({
      key: e.key,
      bodies: e.body.model?.rigidBodies.length ?? 0,
      joints: e.body.model?.joints.length ?? 0,
      simulating: !!e.physics && !e.hidden,
      hidden: e.hidden,
      steps: e.physics?.steps ?? 0,
      restarts: e.physics?.restarts ?? 0,
      viewBodies: e.view?.bodyCount ?? 0,
      lastMs: e.physics?.lastMs ?? 0,
      simulated: e.physics?.simulated ?? 0,
    }));
  }

  /** The actor's world, if it simulates (tests read its bodies). */
  physicsOf(key: string): ActorPhysics | null {
    return this.entries.get(key)?.physics ?? null;
  }

  /**
   * The body or joint of any actor's rigid-body view that the ray hits first (the views must be shown and
   * placed), with the actor's key and the facts the hover tooltip shows; null when none is hit. A hidden
   * actor's view is not in the picture, so not picked.
   */
  pickBody(ray: THREE.Raycaster): { key: string; facts: BodyFacts } | null {
    let best: { key: string; e: Entry; kind: 'body' | 'joint'; index: number; distance: number } | null = null;
    for (const e of this.entries.values()) {
      if (!e.view || e.hidden || !e.body.mesh?.visible) continue;
      const h = e.view.pick(ray);
      if (h && (!best || h.distance < best.distance)) best = { key: e.key, e, ...h };
    }
    const facts = best && bodyFacts(best.e.body.model!, best);
    return best && facts ? { key: best.key, facts } : null;
  }

  /** Draws one actor's body or joint highlighted (null: none anywhere). Returns whether the picture changed. */
  highlightBody(hit: { key: string; kind: 'body' | 'joint'; index: number } | null): boolean {
    let changed = false;
    for (const e of this.entries.values()) if (e.view && e.view.highlight(hit && hit.key === e.key ? hit : null)) changed = true;
    return changed;
  }

  /** An actor's rigid-body view (tests read where it draws each body and what it highlights), or null. */
  viewOf(key: string): RigidBodiesView | null {
    return this.entries.get(key)?.view ?? null;
  }

  /** The rigid-body views' objects (the video export leaves them out). */
  debugObjects(): THREE.Object3D[] {
    return [...this.entries.values()].flatMap((e) => (e.view ? [e.view.group] : []));
  }

  private build(): void {
    for (const e of this.entries.values()) this.syncWorld(e);
    this.onChange?.();
  }

  private syncWorld(e: Entry): void {
    const m = e.body.model;
    if (this.on && this.bullet && m && m.rigidBodies.length > 0 && !e.physics) {
      e.physics = new ActorPhysics(this.bullet, m, e.body.rig.pose, this.clock);
    }
    e.physics?.setMotion(e.doc, e.tracks);
    e.physics?.setTrace(this.traced);
    this.attach(e);
  }

  private attach(e: Entry): void {
    e.binding.physics = e.physics && !e.hidden ? e.physics : null;
  }

  private syncView(e: Entry): void {
    const want = this.bodiesShown && !!e.body.model && e.body.model.rigidBodies.length > 0 && !!e.body.mesh;
    if (want && !e.view) {
      e.view = new RigidBodiesView(e.body.model!);
      e.body.mesh!.add(e.view.group);
      e.view.update(e.body.rig.pose, e.physics && !e.hidden ? e.physics.world : null);
    } else if (!want && e.view) {
      e.view.dispose();
      e.view = null;
    }
  }

  private dropWorld(e: Entry): void {
    e.binding.physics = null;
    e.physics?.dispose();
    e.physics = null;
  }

  private drop(e: Entry): void {
    this.dropWorld(e);
    e.view?.dispose();
    e.view = null;
    this.entries.delete(e.key);
  }

  dispose(): void {
    this.disposed = true;
    for (const e of [...this.entries.values()]) this.drop(e);
  }
}
