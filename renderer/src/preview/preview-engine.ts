/**
 * The 3D preview, created and owned outside Vue (no reactive proxies near it): a thin facade over its
 * parts, each with one job —
 *   preview-scene.ts    the three.js world (cameras, lights, grid, figure or model, camera path)
 *   motion-driver.ts    the motion at a frame (binding, posing, visibility, camera and light sampling)
 *   pick-marker.ts      picking a joint and the picked bone's mark
 *   frame-presenter.ts  the WebGL renderer, render requests, render scale, asynchronous presentation
 *   frame-profiler.ts   where each frame's time goes
 *   pose-gizmo.ts       the rings and arrows that pose the picked bone
 *   joint-dots.ts       the joints one can click, as dots
 *   physics-preview.ts  each actor's physics world, the rigid-body view
 *   companion-actors.ts the scene's other actors: their meshes, motions, places and pick tables
 * — wired together here: the orbit controls ask for renders, a new motion or model rebinds the pick
 * tables, each render places the mark first. Queries only tests and profiling use live in
 * src/e2e/preview-diagnostics.ts, which only the e2e build holds. The playback loop lives in use-preview.ts.
 */
import * as THREE from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { previewOrbitControls, sideView, type ViewSide } from './orbit';
import type { CameraTrack, MotionTracks } from '../../../shared/vmd/tracks';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import type { BuiltModel } from './model-mesh';
import type { Rig } from './rig';
import { FrameProfiler } from './frame-profiler';
import { PICK_RADIUS_PX } from './bone-pick';
import { PreviewScene } from './preview-scene';
import { MotionDriver, type MotionBindingInfo, type SelfShadowInForce } from './motion-driver';
import { PickMarker } from './pick-marker';
import { FramePresenter, openRenderer } from './frame-presenter';
import { mmdToThreePosition, type CameraView } from '../../../shared/vmd/camera';
import { PoseGizmo, type PoseMode, type PoseSpace } from './pose-gizmo';
import { JointDots } from './joint-dots';
import { PreviewPhysics, SHOWN_KEY } from './physics-preview';
import { webBullet } from '../physics/bullet-web';
import { CompanionActors, footprintOf, placeObject, posedFootprintOf, type CompanionSpec, type StagePlace } from './companion-actors';
import type { Footprint } from '../../../shared/scene/place-beside';
import type { BodyFacts } from './physics-bodies-view';

const orbitUp = new THREE.Vector3();
/** Frames physics runs on after a bone was posed by hand (one second at MMD's 30 fps). */
const HAND_TAIL_FRAMES = 30;
/** A press this close (CSS px) to another bone's joint picks it rather than grabbing a ring over it. */
const JOINT_FIRST_PX = 5;
/** Physics "Always" (MMD's 常に演算): steps a second while paused, at MMD's 30 fps. */
const ALWAYS_STEPS_PER_S = 30;
/**
 * "Always" stops after this many paused steps with nothing changed (10 s; any change — a seek, a pose by hand,
 * Reset — starts it again): hair that never comes to rest (Gene's jittering fringe) would spend the CPU forever.
 */
const ALWAYS_MAX_STEPS = 300;
/** "Always" stops sooner once every simulated bone moved less than REST_UNITS a step for REST_STEPS steps. */
const REST_UNITS = 0.002;
const REST_STEPS = 15;

export { Ring } from './frame-profiler';

export type { CompanionBody, StagePlace } from './companion-actors';
export type { MotionBindingInfo } from './motion-driver';

export class PreviewEngine {
  readonly renderer: THREE.WebGLRenderer;
  readonly world: PreviewScene;
  readonly motion: MotionDriver;
  readonly marker = new PickMarker();
  /** The clickable joints as dots (not while playing: setJointDots; never through the camera). */
  readonly dots = new JointDots();
  private dotsOn = true;
  readonly presenter: FramePresenter;
  readonly controls: OrbitControls;
  /** The picked bone's pose handle (rings or arrows), on while `poseHandle` says so. */
  readonly gizmo: PoseGizmo;
  /** Whether the picked bone shows its pose handle, and which one (set by the pane: not while playing). */
  private poseHandle: { on: boolean; mode: PoseMode } = { on: false, mode: 'rotate' };
  /** Where each frame's time goes (see frame-profiler.ts). */
  readonly profiler = new FrameProfiler();
  /** Each actor's physics and the rigid-body view (off until the pane turns it on). */
  readonly physics = new PreviewPhysics(webBullet);
  /** The scene's other actors. */
  readonly companions: CompanionActors;
  /** True when WebGL runs on a software rasteriser. */
  readonly software: boolean;
  private disposed = false;
  private readonly readback = new Uint8Array(4);
  /** Filled by dispose(): geometries and textures still on the GPU after disposing our objects (should be 0). */
  readonly disposal = { geometries: -1, textures: -1 };

  /** `present: 'sync'` turns the software-GL presenter off (a measurement mode: see async-present.ts). */
  constructor(readonly canvas: HTMLCanvasElement, options: { present?: 'auto' | 'sync' } = {}) {
    const gl = openRenderer(canvas, options.present);
    this.renderer = gl.renderer;
    this.software = gl.software;
    this.world = new PreviewScene(!gl.software);
    this.motion = new MotionDriver(this.world, this.profiler);
    // The camera path drawn again as its follow's samples come in (follow-samples.ts): a paused scene draws only when asked.
    this.world.onCameraPathRedrawn = () => this.requestRender();
    this.companions = new CompanionActors(this.world, this.physics);
    this.presenter = new FramePresenter(gl.renderer, gl.basePixelRatio, gl.sink, () => this.draw(), (latency) => this.profiler.present.push(latency));
    this.world.scene.add(this.marker.group);
    this.world.scene.add(this.dots.points);
    // Before the orbit controls, so that a press on a ring stops the orbit before it starts.
    this.gizmo = new PoseGizmo(this.world.orbitCamera, canvas);
    this.world.scene.add(this.gizmo.helper);
    this.gizmo.onChange = () => this.requestRender();
    this.gizmo.onDragging = (on) => {
      this.controls.enabled = !on && !this.world.lookingThrough;
    };
    this.gizmo.onRepose = () => {
      this.setFrame(this.motion.frame);
      this.followHand();
    };
    this.gizmo.frameOf = () => this.motion.frame;
    // The wheel zooms toward the point under the pointer (orbit.ts: a face is reached by zooming over it).
    this.controls = previewOrbitControls(this.world.orbitCamera, canvas);
    this.controls.addEventListener('change', () => this.requestRender());
    this.controls.update();
    this.world.refreshMatrices();
    this.physics.onChange = () => this.setFrame(this.motion.frame);
    // Trace mode's long ways run between animation frames, not in a pose (physics-actor.ts TRACE_AT_ONCE).
    this.physics.clock.slice = true;
    this.rebind();
  }

  get frameTimes() {
    return this.profiler.interval;
  }

  /** The rig being posed: the model's, or the default figure's. */
  get rig(): Rig {
    return this.world.rig;
  }

  /**
   * Shows the scene's other actors (companion-actors.ts; each keyed so an unchanged one keeps its mesh, a
   * model built by the caller and handed over). Returns the keys shown.
   */
  setCompanions(list: readonly CompanionSpec[]): string[] {
    const keys = this.companions.set(list);
    // An actor no longer listed (removed, or hidden by its tab's eye) has no physics any more.
    this.physics.keepOnly([SHOWN_KEY, ...keys]);
    this.placeActors();
    this.applyEdgeWidths();
    this.world.refreshMatrices();
    this.setFrame(this.motion.frame);
    return keys;
  }

  /** Staging (issue 30): the shown actor's place, and each companion's by its actor id (the key's prefix). */
  private stages: { shown: StagePlace | null; byId: Map<number, StagePlace> } = { shown: null, byId: new Map() };

  /** Where each actor stands (MMD coordinates and a turn in degrees); re-applied to new models and companions. */
  setStages(shown: StagePlace | null, byId: Map<number, StagePlace>): void {
    this.stages = { shown, byId };
    this.placeActors();
    this.world.refreshMatrices();
    this.setFrame(this.motion.frame);
  }

  /** Each actor's outline width factor (the scene's edgeWidth): the shown model's, and each companion's by actor id (absent: 1). */
  private edgeWidths: { shown: number; byId: Map<number, number> } = { shown: 1, byId: new Map() };

  /** Sets each actor's outline width (preview and video alike: the export draws these same outline meshes). */
  setEdgeWidths(shown: number, byId: Map<number, number>): void {
    this.edgeWidths = { shown, byId };
    this.applyEdgeWidths();
    this.requestRender();
  }

  private applyEdgeWidths(): void {
    this.world.model?.edges.setScale(this.edgeWidths.shown);
    this.companions.setEdgeWidths(this.edgeWidths.byId);
  }

  /**
   * Every actor's footprint by actor id: the shown one's (its model, else the figure) under `shownId`, the
   * others' as the companions hold them (a hidden actor has none). At rest (what a new actor is placed beside),
   * or 'posed': as drawn now, turned where it stands (what Frame All Actors fits).
   */
  footprints(shownId: number | null, as: 'rest' | 'posed' = 'rest'): Map<number, Footprint> {
    const out = new Map([...this.companions.footprints(as)].filter(([id]) => id >= 0));
    const mesh = this.world.model?.mesh ?? this.world.figure.mesh;
    const own = as === 'posed' ? posedFootprintOf(mesh) : footprintOf(mesh);
    if (shownId !== null && own) out.set(shownId, own);
    return out;
  }

  private placeActors(): void {
    placeObject(this.world.figure.group, this.stages.shown);
    if (this.world.model) placeObject(this.world.model.mesh, this.stages.shown);
    this.companions.place(this.stages.byId);
  }

  /**
   * The joint under (x, y) over every actor's model: the shown model's (key null) or another actor's (its
   * key), whichever joint is drawn nearest the point; the bone's track is into that actor's motion (or −1).
   */
  pickScene(x: number, y: number, width: number, height: number, radius = PICK_RADIUS_PX): { key: string | null; bone: number; name: string; track: number } | null {
    const cam = this.world.activeCamera;
    const main = this.pickBone(x, y, width, height, radius);
    const mainAt = main ? this.marker.screenPosition(cam, main.name, width, height) : null;
    const mainD = mainAt ? Math.hypot(mainAt[0] - x, mainAt[1] - y) : Infinity;
    const other = this.companions.pick(cam, x, y, width, height, radius);
    if (other && (!main || other.d < mainD)) {
      const { d: _d, ...out } = other;
      return out;
    }
    return main ? { key: null, ...main } : null;
  }

  /** Whether the model (or the default figure) is in the picture. */
  get modelShown(): boolean {
    return this.world.modelShown;
  }

  /** Called when hiddenByMotion changes (the pane says why the model is gone). */
  set onHiddenChange(fn: ((hidden: boolean) => void) | null) {
    this.motion.onHiddenChange = fn;
  }

  /** Called when the self-shadow in force (its mode, and whether a key rules it) changes: the pane's toonless note. */
  set onSelfShadowChange(fn: ((s: SelfShadowInForce) => void) | null) {
    this.motion.onSelfShadowChange = fn;
  }

  /**
   * MMD's outline around the model (edge-mesh.ts). On by default where WebGL has a GPU; off on a software
   * rasteriser, where drawing the model twice would halve the frame rate.
   */
  get outline(): boolean {
    return this.world.outline;
  }

  setOutline(on: boolean): void {
    this.world.setOutline(on);
    this.companions.setOutline(on);
    this.requestRender();
  }

  /** The Ground shadow switch (MMD's 地面影表示): every model's ground shadow, in the preview and in the video. */
  setGroundShadow(on: boolean): void {
    this.world.setGroundShadow(on);
    this.companions.syncGroundShadows();
    this.requestRender();
  }

  get groundShadow(): boolean {
    return this.world.groundShadow;
  }

  /** The Self-shadow switch: MMD's default self-shadow where the shown self-shadow keys (if any) do not rule. */
  setSelfShadowByDefault(on: boolean): void {
    this.motion.setSelfShadowByDefault(on);
    this.requestRender();
  }

  /** Shows a motion (null: none). Returns what the rig lacks and what the motion holds besides bones. */
  setMotion(doc: VmdDocument | null, tracks: MotionTracks | null): MotionBindingInfo {
    if (this.motion.setMotion(doc, tracks)) this.rebind();
    else {
      // Curves only: the binding stands; the physics toggles are read again from the new document.
      this.bindPhysics();
      this.setFrame(this.motion.frame);
    }
    return this.motion.bindingInfo();
  }

  /** Loads (or with null removes) a camera/light VMD shown together with the document's motion (its document: for the self-shadow keys). */
  setCameraMotion(tracks: MotionTracks | null, doc: VmdDocument | null = null): MotionBindingInfo {
    this.motion.setCameraMotion(tracks, doc);
    this.setFrame(this.motion.frame);
    return this.motion.bindingInfo();
  }

  /** The camera track shown: the extra camera VMD's, else the document's. */
  get cameraTrack(): CameraTrack | null {
    return this.motion.cameraTrack;
  }

  /** Shows a built model instead of the default figure (null: back to the figure). The old model is disposed. */
  setModel(built: BuiltModel | null): MotionBindingInfo {
    this.world.setModel(built);
    this.placeActors();
    this.applyEdgeWidths();
    this.world.refreshMatrices();
    this.rebind();
    return this.motion.bindingInfo();
  }

  /**
   * Shows a morph at a weight in place of the motion's (the morph panel's slider while dragged; null: the
   * motion's again): the face follows the slider before the key is registered on release.
   */
  setMorphDraft(d: { name: string; weight: number } | null): void {
    if (this.motion.setMorphDraft(d)) this.rebind();
    else this.setFrameIfChanged(this.motion.frame);
  }

  /** Binds the motion to the rig, refreshes the pick tables (the mark found again by name) and re-poses. */
  private rebind(): void {
    const binding = this.motion.rebind();
    this.bindPhysics();
    this.marker.rebind(this.world.rig, binding.trackBone);
    this.dots.setBones(this.marker.tiers);
    this.setFrame(this.motion.frame);
    this.syncPoseHandle();
  }

  /** Physics mode "Always": steps while paused (idleStep), not only while playing. */
  private always = false;
  /** Paused steps "Always" still runs before it stops to spare the CPU (ALWAYS_MAX_STEPS after a change). */
  private idleLeft = 0;
  private idleRaf = 0;
  private idleAt = 0;
  /** Consecutive paused steps in which nothing moved more than REST_UNITS. */
  private restSteps = 0;
  /** The video export holds the scene (its own physics steps): nothing steps it meanwhile (holdIdle). */
  private held = 0;
  /** Paused steps "Always" ran so far (tests). */
  idleSteps = 0;

  /**
   * Physics mode: "Always" (MMD's 常に演算) keeps simulating while paused, so hair swinging when playing stopped
   * settles instead of freezing mid-swing; otherwise physics steps only as the playhead moves (and after a pose
   * by hand, followHand).
   */
  setPhysicsAlways(on: boolean): void {
    this.always = on;
    if (on) this.wakeIdle();
  }

  get physicsAlways(): boolean {
    return this.always;
  }

  /**
   * The video export's frame source holds the scene while it renders (offline-render.ts): no paused step
   * (Always, a pose's tail) runs meanwhile, as it would step the world the export steps.
   */
  holdIdle(on: boolean): void {
    this.held = Math.max(0, this.held + (on ? 1 : -1));
    if (!on && this.held === 0) this.wakeIdle();
  }

  /** Something changed while paused (a seek, a pose, Reset, physics switched): "Always" runs (again) from here. */
  private wakeIdle(): void {
    if (!this.always || this.disposed) return;
    this.idleLeft = ALWAYS_MAX_STEPS;
    this.restSteps = 0;
    if (!this.idleRaf) this.idleRaf = requestAnimationFrame(this.idleStep);
  }

  private readonly idleStep = (now: number): void => {
    this.idleRaf = 0;
    if (this.disposed || !this.always || this.held > 0 || this.idleLeft <= 0) return;
    // Waiting (playing: the loop steps; Bullet still loading): the next change wakes it.
    if (this.physics.clock.playing || !this.physics.ready) return;
    if (now - this.idleAt >= 1000 / ALWAYS_STEPS_PER_S - 2) {
      this.idleAt = now;
      this.idleLeft--;
      this.idleSteps++;
      // The same frame again: one 1/30 s step holding the pose (physics-actor.ts), and the picture.
      this.motion.poseAt(this.motion.frame);
      this.companions.pose(this.motion.frame);
      this.physics.afterPose();
      this.requestRender();
      this.restSteps = this.physics.moved() < REST_UNITS ? this.restSteps + 1 : 0;
      if (this.restSteps >= REST_STEPS) return;
    }
    this.idleRaf = requestAnimationFrame(this.idleStep);
  };

  /** Frames of physics still to run after a bone was posed by hand (paused), one per animation frame. */
  private handTail = 0;
  private handRaf = 0;

  /**
   * A bone posed by hand (the pose handle) while paused: each move of the handle steps physics one frame at
   * the same pose; then physics runs on for a second (HAND_TAIL_FRAMES) so its children swing to rest instead
   * of freezing where the last move left them.
   */
  private followHand(): void {
    if (!this.physics.ready || this.physics.clock.playing || this.disposed) return;
    // "Always" steps on by itself (setFrame woke it): a tail too would step twice as fast.
    if (this.always) return;
    this.handTail = HAND_TAIL_FRAMES;
    if (!this.handRaf) this.handRaf = requestAnimationFrame(this.handStep);
  }

  private readonly handStep = (): void => {
    this.handRaf = 0;
    if (this.disposed || this.physics.clock.playing || !this.physics.ready || this.handTail <= 0 || this.held > 0) return;
    this.handTail--;
    this.setFrame(this.motion.frame);
    if (this.handTail > 0) this.handRaf = requestAnimationFrame(this.handStep);
  };

  /** The shown actor's physics follows its model, binding and motion. */
  private bindPhysics(): void {
    const m = this.world.model, binding = this.motion.binding;
    if (!binding) return;
    this.physics.bind(SHOWN_KEY, { model: m?.model ?? null, rig: this.world.rig, mesh: m?.mesh ?? null }, binding, this.motion.document, this.motion.tracks);
  }

  /** Playing or paused: while playing a forward move is time passing (physics steps), paused it is a seek. */
  setPlaying(on: boolean): void {
    this.physics.clock.playing = on;
    // Paused mid-swing: "Always" lets it settle.
    if (!on) this.wakeIdle();
  }

  /** The default self-shadow as set now (the video export puts the preview's back after its render). */
  get selfShadowByDefault(): boolean {
    return this.motion.selfShadowDefault;
  }

  /** Physics on or off (off: every actor posed by its motion alone, as before). */
  setPhysics(on: boolean): void {
    this.physics.setEnabled(on);
  }

  /** "Show rigid bodies": each model's bodies and joints drawn over it. */
  setRigidBodiesShown(on: boolean): void {
    this.physics.setBodiesShown(on);
  }

  /**
   * Before a press reaches the pose handle: a press right on the joint of another bone the motion keys
   * (within JOINT_FIRST_PX of where it is drawn), or of another actor, picks that bone even where a ring
   * passes over it, so the handle sits this press out. Elsewhere the ring wins (a model's hair, sleeve
   * and skirt joints crowd the arms).
   */
  preferJoint(x: number, y: number, width: number, height: number): void {
    const g = this.gizmo;
    if (g.attachedBone < 0 || g.dragging) return;
    const hit = this.pickScene(x, y, width, height, JOINT_FIRST_PX);
    g.controls.enabled = !(hit && (hit.key !== null || (hit.bone !== g.attachedBone && this.marker.tracked(hit.bone))));
  }

  /** Shows or hides the joint dots (the pane hides them while playing and when its Bones switch is off). */
  setJointDots(on: boolean): void {
    if (on === this.dotsOn) return;
    this.dotsOn = on;
    this.requestRender();
  }

  /**
   * Turns the picked bone's pose handle on or off and chooses rings (rotate) or arrows (translate), in the model's
   * axes (global) or the bone's own (local).
   */
  setPoseHandle(on: boolean, mode: PoseMode, space: PoseSpace = 'global'): void {
    this.poseHandle = { on, mode };
    this.gizmo.setSpace(space);
    this.syncPoseHandle();
  }

  /**
   * The handle on the marked bone when it is on, the model is drawn and the view is the free one (not
   * through the camera); otherwise off.
   */
  private syncPoseHandle(): void {
    const h = this.poseHandle;
    // Never while looking through is asked for, placed camera or not yet (issue 30: the rings showed
    // through the camera until the next sync after the camera was placed).
    const bone = h.on && this.modelShown && !this.world.lookingThrough && !this.lookThroughAsked ? this.marker.markedIndex : -1;
    this.gizmo.attach(this.world.rig, this.motion.binding, bone, h.mode);
    this.requestRender();
  }

  /** Poses everything at frame f (fractional: interpolated sub-frames) and asks for a render. */
  setFrame(f: number): void {
    this.motion.poseAt(f);
    this.companions.pose(f);
    this.physics.afterPose();
    this.requestRender();
    if (!this.physics.clock.playing) this.wakeIdle();
  }

  /**
   * Re-poses at frame f and renders only when the picture would change: every bone's local position and
   * rotation (after append and IK), the morph influences and the camera pose are compared with the last
   * pose. For a curve-handle drag: a key's curve shapes only the frames between the previous key and
   * it, so with the cursor elsewhere (on the key itself, say) the figure stays put and nothing is drawn.
   * On software GL each drawn frame is also read back on the page's main thread; skipping the ones that
   * would show the same picture keeps a drag on the editor's side of the frame budget.
   * Returns whether a render was asked for.
   */
  setFrameIfChanged(f: number): boolean {
    this.motion.poseAt(f);
    if (!this.motion.poseChanged) return false;
    this.companions.pose(f);
    this.physics.afterPose();
    this.requestRender();
    if (!this.physics.clock.playing) this.wakeIdle();
    return true;
  }

  /**
   * One frame of playback: pose at f and render now (not on the next animation frame: the loop already
   * runs inside one). Records the frame's JavaScript time split into pose, scene and render call.
   */
  playFrame(f: number): void {
    const t0 = performance.now();
    this.motion.poseAt(f);
    this.companions.pose(f);
    this.physics.afterPose();
    const t1 = performance.now();
    this.presenter.renderNow();
    this.profiler.js.push(t1 - t0 + this.presenter.lastRenderMs);
  }

  /**
   * The free orbit view in MMD coordinates (Z mirrored back): eye, orbit target, the picture's up and the
   * vertical fov, for registering it as a camera key (shared/vmd/camera.ts cameraKeyFromView).
   */
  orbitView(): CameraView {
    const cam = this.world.orbitCamera;
    const up = orbitUp.set(0, 1, 0).applyQuaternion(cam.quaternion);
    const t = this.controls.target;
    return {
      position: mmdToThreePosition([cam.position.x, cam.position.y, cam.position.z]),
      target: mmdToThreePosition([t.x, t.y, t.z]),
      up: mmdToThreePosition([up.x, up.y, up.z]),
      fov: cam.fov,
    };
  }

  /**
   * Turns the free view to a side (front, back, left, right, top) about its target at its distance, or back to
   * the start view (orbit.ts sideView).
   */
  setSideView(side: ViewSide): void {
    const cam = this.world.orbitCamera, t = this.controls.target;
    const v = sideView(side, [cam.position.x, cam.position.y, cam.position.z], [t.x, t.y, t.z]);
    t.set(...v.target);
    cam.position.set(...v.eye);
    this.controls.update();
    this.requestRender();
  }

  /** Camera follows a bone: its world position at a frame (null: none); the camera is placed again at once, its path as the follow's samples come in. */
  setCameraFollow(follow: ((f: number) => readonly number[] | null) | null): void {
    this.motion.setFollow(follow);
    this.setFrame(this.motion.frame);
  }

  /** The output frame's width / height (the scene's aspect): the camera VMD's camera and its frustum use it. */
  setOutputAspect(aspect: number): void {
    this.world.setOutputAspect(aspect);
    this.setFrame(this.motion.frame);
  }

  /** Hides the model (or figure) because the scene hides its actor; null-safe to call before a model loads. */
  setModelHidden(hidden: boolean): void {
    this.world.setUserHidden(hidden);
    this.physics.setHidden(SHOWN_KEY, hidden);
    this.syncPoseHandle();
  }

  /** Looking through the camera is on (whether or not a camera is placed yet). */
  private lookThroughAsked = false;

  /** The camera VMD's path drawn in the free view (the pane's switch). */
  setCameraPathShown(on: boolean): void {
    this.world.setCameraPathShown(on);
    this.requestRender();
  }

  setLookThrough(on: boolean): void {
    this.lookThroughAsked = on;
    this.world.setLookThrough(on);
    this.controls.enabled = !on;
    this.setFrame(this.motion.frame);
    this.syncPoseHandle();
  }

  /**
   * The export's seam (offline-render.ts): brings the whole scene to MMD frame f — every actor posed, the
   * camera, light and self-shadow sampled — without asking for a preview render. Each actor's physics world
   * is stepped to f here, before drawing, as in playback; `restart` (the range's first frame) restarts it from
   * the pose there with the settling frames (shared/physics/simulate.ts restartPhysics), so every export of a
   * range simulates the same frames.
   */
  advanceOffline(f: number, restart = false): void {
    const clock = this.physics.clock, was = clock.playing, sliced = clock.slice;
    clock.playing = true;
    // Trace mode: the frame with its physics now, however long the way (the export waits; the page shows progress).
    clock.slice = false;
    if (restart) this.physics.restartAll();
    try {
      this.motion.poseAt(f);
      this.companions.pose(f);
      this.physics.afterPose();
    } finally {
      clock.playing = was;
      clock.slice = sliced;
    }
  }

  /**
   * Draws the scene as it stands with another renderer (the export's, width × height): through the
   * camera document's camera when `throughCamera` and it has one, else the free view, at the output's
   * aspect; outlines always on; without the editor's marks (picked bone, joint dots, pose handle, camera
   * frustum and path). Everything is put back as it was.
   */
  drawOffline(renderer: THREE.WebGLRenderer, width: number, height: number, throughCamera: boolean, look: { grid: boolean; background: string } = { grid: true, background: '#2b2f36' }): void {
    const w = this.world;
    const aspect = width / height;
    const useMmd = throughCamera && w.cameraShown;
    // A perspective-off key films orthographic, in the video as in the preview (preview-scene.ts mmdView).
    const ortho = useMmd && w.orthographicView;
    const cam = useMmd ? w.mmdCamera : w.orbitCamera.clone();
    const keepAspect = cam.aspect;
    cam.aspect = aspect;
    cam.updateProjectionMatrix();
    if (!useMmd) cam.updateMatrixWorld(true);
    if (ortho) w.fitOrthographic(aspect);
    const view = ortho ? w.mmdOrthoCamera : cam;
    // The ghosts (the saved-motion overlay, the retarget panel's source model) are the editor's too: not in the video.
    const hidden: THREE.Object3D[] = [this.marker.group, this.dots.points, this.gizmo.helper, ...w.editorMarks(), ...this.physics.debugObjects(), ...this.companions.notFilmed()].filter((o) => o.visible);
    for (const o of hidden) o.visible = false;
    const edges = [w.model, ...this.companions.models()].filter((b): b is BuiltModel => !!b).map((b) => b.edges.mesh);
    const edgeWas = edges.map((e) => e.visible);
    for (const e of edges) e.visible = true;
    const undress = w.dressForExport(look);
    try {
      renderer.render(w.scene, view);
    } finally {
      undress();
      for (const o of hidden) o.visible = true;
      edges.forEach((e, i) => (e.visible = edgeWas[i]));
      if (useMmd) {
        cam.aspect = keepAspect;
        cam.updateProjectionMatrix();
        if (ortho) w.fitOrthographic();
      }
    }
  }

  /** Drawing-buffer scale (see FramePresenter.setRenderScale). */
  setRenderScale(scale: number): void {
    this.presenter.setRenderScale(scale);
  }

  /** Software GL: blocking presentation while playing (see FramePresenter.setBlocking). */
  setBlockingPresent(on: boolean): void {
    this.presenter.setBlocking(on);
  }

  /** A frame is still on its way to the screen (software GL): a render now would wait for it. */
  get presenting(): boolean {
    return this.presenter.presenting;
  }

  resize(width: number, height: number): void {
    const w = Math.max(1, Math.floor(width));
    const h = Math.max(1, Math.floor(height));
    this.renderer.setSize(w, h, false);
    this.world.resize(w, h);
    this.requestRender();
  }

  /** Schedules one render on the next animation frame (coalesced). */
  requestRender(): void {
    if (!this.disposed) this.presenter.requestRender();
  }

  /** The render call itself (and its timing), into the drawing buffer. Returns its ms. */
  private draw(): number {
    const p = this.profiler;
    const w = this.world;
    const t0 = performance.now();
    this.marker.place(w.activeCamera, w.height, w.modelShown);
    this.dots.place(w.rig, this.dotsOn && w.modelShown && !w.lookingThrough);
    // The scene's world matrices are kept by hand (preview-scene.ts): the handle follows its bone here.
    if (this.gizmo.attachedBone >= 0) this.gizmo.helper.updateMatrixWorld(true);
    this.renderer.render(w.scene, w.activeCamera);
    const t1 = performance.now();
    w.posed = false;
    const ms = t1 - t0;
    p.render.push(ms);
    p.renders++;
    if (p.syncGpu) {
      // Reading one pixel back waits until the rasteriser has finished this frame (measurement mode only).
      const gl = this.renderer.getContext();
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, this.readback);
      p.gpu.push(performance.now() - t1);
    }
    return ms;
  }

  /**
   * The bone whose joint a click at (x, y) CSS px on a width × height canvas picks (bone-pick.ts), or null
   * when no joint is within `radius` or the model is not drawn. `track` is the bone track moving it, −1
   * when the motion has none.
   */
  pickBone(x: number, y: number, width: number, height: number, radius = PICK_RADIUS_PX): { bone: number; name: string; track: number } | null {
    if (!this.modelShown) return null;
    return this.marker.pick(this.world.activeCamera, x, y, width, height, radius);
  }

  private readonly ray = new THREE.Raycaster();
  private readonly ndc = new THREE.Vector2();

  /**
   * The rigid body (or joint) drawn under (x, y) CSS px of a width × height canvas while "Show rigid bodies" is
   * on, highlighted (the last one hovered is no longer); null, and no highlight, when none is or the view is off.
   */
  hoverBody(x: number, y: number, width: number, height: number): { key: string; facts: BodyFacts } | null {
    let hit: { key: string; facts: BodyFacts } | null = null;
    if (this.physics.bodiesVisible && width > 0 && height > 0) {
      const cam = this.world.activeCamera;
      cam.updateMatrixWorld();
      this.ndc.set((x / width) * 2 - 1, 1 - (y / height) * 2);
      this.ray.setFromCamera(this.ndc, cam);
      hit = this.physics.pickBody(this.ray);
    }
    if (this.physics.highlightBody(hit && { key: hit.key, kind: hit.facts.kind, index: hit.facts.index })) this.requestRender();
    return hit;
  }

  /** Marks a bone by name (null clears the mark). Returns whether the rig has it (else nothing is marked). */
  setMarker(name: string | null): boolean {
    const found = this.marker.mark(name);
    this.syncPoseHandle();
    return found;
  }

  /** The marked bone (its name as the rig spells it, the bone track moving it or −1), or null. */
  get marked(): { name: string; track: number } | null {
    return this.marker.marked;
  }

  get currentFrame(): number {
    return this.motion.frame;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.handRaf) cancelAnimationFrame(this.handRaf);
    if (this.idleRaf) cancelAnimationFrame(this.idleRaf);
    this.controls.dispose();
    this.gizmo.dispose();
    this.companions.dispose();
    this.physics.dispose();
    // The camera path's follow samples stop (their slices would tick on for a scene that is gone).
    this.motion.setFollow(null);
    this.world.dispose();
    this.marker.dispose();
    this.dots.dispose();
    // What our own disposal left on the GPU (renderer.dispose() below would sweep it up silently).
    this.disposal.geometries = this.renderer.info.memory.geometries;
    this.disposal.textures = this.renderer.info.memory.textures;
    this.presenter.dispose();
    this.renderer.dispose();
    // Give the WebGL context back now rather than when the canvas is collected (browsers cap live contexts).
    this.renderer.forceContextLoss();
  }
}
