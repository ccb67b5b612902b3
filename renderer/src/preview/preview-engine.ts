/**
 * The 3D preview's three.js world, created and owned outside Vue (no reactive proxies near it): renderer,
 * scene, orbit camera, ground grid, lights, the default figure or a loaded model, the motion binding and
 * the camera VMD's path and frustum, and the picked bone's mark (joints projected for picking once per
 * click, bone-pick.ts). Renders on demand; the playback loop lives in use-preview.ts.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { keyAtOrBefore, type CameraTrack, type LightTrack, type MotionTracks } from '../../../shared/vmd/tracks';
import { ikKey } from '../../../shared/vmd/records';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { sampleCamera, sampleLight, type CameraPose } from '../../../shared/vmd/sample';
import { matchKey } from '../../../shared/pmx/model-inspect';
import { buildDefaultFigure, type BuiltFigure } from './figure-mesh';
import type { BuiltModel } from './model-mesh';
import { PoseBinding, ikSwitchesOf } from './pose-binding';
import { applyCameraPose, buildCameraPath, lightFromPose, type CameraPathView } from './camera-view';
import type { Rig } from './rig';
import { FrameProfiler, type FrameBreakdown } from './frame-profiler';
import { PICK_RADIUS_PX, pickJoint, pickTiers, projectJoints, trackOfBone } from './bone-pick';
import { AsyncPresenter } from './async-present';

export { Ring } from './frame-profiler';


/** The WebGL renderer string (e.g. "ANGLE (… SwiftShader …)"), or '' when unknown. */
function probeRenderer(): string {
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return '';
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return name;
  } catch {
    return '';
  }
}

export interface MotionBindingInfo {
  missingBones: string[];
  missingMorphs: string[];
  hasCamera: boolean;
  hasLight: boolean;
  cameraCuts: number[];
}

const lightDir = new THREE.Vector3();
const markerAt = new THREE.Vector3();
const viewProjection = new THREE.Matrix4();

/** The picked bone's mark: its colour (the timeline's selection colour) and radius on screen in CSS px. */
const MARK_COLOR = 0xffb23e;
const MARK_RADIUS_PX = 10;

/**
 * A ring with a dot, 1 unit in radius, facing +Z (turned to face the camera and scaled to a constant
 * size on screen when drawn). Drawn after everything else without a depth test, so no part of the model
 * hides it, with a dark rim so it reads on light and dark surfaces alike.
 */
function buildMarker(): THREE.Group {
  const group = new THREE.Group();
  group.name = 'bone-marker';
  group.visible = false;
  const part = (geometry: THREE.BufferGeometry, color: number, opacity: number, order: number) => {
    const material = new THREE.MeshBasicMaterial({ color, opacity, transparent: true, depthTest: false, depthWrite: false, fog: false, side: THREE.DoubleSide });
    const mesh = new THREE.Mesh(geometry, material);
    mesh.renderOrder = order;
    mesh.frustumCulled = false;
    group.add(mesh);
  };
  part(new THREE.RingGeometry(0.66, 1.12, 32), 0x000000, 0.55, 1000);
  part(new THREE.RingGeometry(0.76, 1, 32), MARK_COLOR, 1, 1001);
  part(new THREE.CircleGeometry(0.24, 16), MARK_COLOR, 1, 1001);
  return group;
}

export class PreviewEngine {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = new THREE.Scene();
  readonly orbitCamera = new THREE.PerspectiveCamera(30, 1, 0.5, 2000);
  /** The camera VMD's camera (drawn as a frustum, or looked through). */
  readonly mmdCamera = new THREE.PerspectiveCamera(30, 1, 0.5, 2000);
  readonly controls: OrbitControls;
  readonly light = new THREE.DirectionalLight(0xffffff, 2.2);
  private readonly hemi = new THREE.HemisphereLight(0xf4f6ff, 0x6b6460, 0.9);
  private readonly grid: THREE.GridHelper;
  private readonly frustum: THREE.CameraHelper;
  /** A short copy of the MMD camera for drawing its frustum (the real one reaches 2000 units). */
  private readonly frustumCamera = new THREE.PerspectiveCamera(30, 1, 0.5, 6);
  private figure: BuiltFigure;
  private model: BuiltModel | null = null;
  private binding: PoseBinding | null = null;
  private doc: VmdDocument | null = null;
  private tracks: MotionTracks | null = null;
  private cameraPath: CameraPathView | null = null;
  /** A camera/light VMD loaded into the preview beside the document (its camera and light win). */
  private extra: MotionTracks | null = null;
  private cameraPose: CameraPose | null = null;
  private lookThrough = false;
  private frame = 0;
  private raf = 0;
  private width = 1;
  private height = 1;
  private disposed = false;
  /** Where each frame's time goes (see frame-profiler.ts); frameTimes/poseTimes are two of its rings. */
  readonly profiler = new FrameProfiler();
  /** True when WebGL runs on a software rasteriser. */
  readonly software: boolean;
  /** Device pixel ratio after the cap; the drawing buffer is this × renderScale per CSS pixel. */
  private readonly basePixelRatio: number;
  private renderScale = 1;
  /** The skeleton's matrices and bone texture are refreshed only on the render after a pose change. */
  private posed = true;
  private readonly readback = new Uint8Array(4);
  /** The picked bone's mark (see buildMarker), placed on its joint before each render. */
  private readonly marker = buildMarker();
  /** Name of the marked bone (kept across a model swap) and its index in the current rig (−1: none). */
  private markedName: string | null = null;
  private markedBone = -1;
  /** Per rig bone, refreshed on rebind: pick preference (bone-pick.ts) and the first bone track moving it. */
  private pickTier: Uint8Array = new Uint8Array(0);
  private boneTrack: Int32Array = new Int32Array(0);
  /** Scratch for picking: joint world positions and their projection (x, y, depth per bone). */
  private jointWorld = new Float32Array(0);
  private jointScreen = new Float32Array(0);
  /** Filled by dispose(): geometries and textures still on the GPU after disposing our objects (should be 0). */
  readonly disposal = { geometries: -1, textures: -1 };

  /**
   * Software GL only: frames are drawn off the page and shown on the canvas without a main-thread wait
   * (async-present.ts). Null with a GPU, or with `present: 'sync'` (a measurement mode).
   */
  private readonly presenter: AsyncPresenter | null;
  /** A render was asked for while the presenter was busy: it runs when the previous frame is shown. */
  private renderWanted = false;

  constructor(readonly canvas: HTMLCanvasElement, options: { present?: 'auto' | 'sync' } = {}) {
    // Multisampling costs a software rasteriser (SwiftShader) more than it is worth; keep it on real GPUs.
    this.software = /swiftshader|llvmpipe|software/i.test(probeRenderer());
    this.outline = !this.software;
    this.presenter = this.software && options.present !== 'sync' ? AsyncPresenter.create(canvas) : null;
    // Opaque canvas (the scene has a background): the page compositor need not blend it.
    this.renderer = new THREE.WebGLRenderer({ canvas: this.presenter?.glCanvas ?? canvas, antialias: !this.software, alpha: false, stencil: false, powerPreference: 'high-performance' });
    if (this.presenter) {
      if (!this.presenter.attach(this.renderer.getContext())) throw new Error('WebGL 2 is required');
      this.presenter.onPresented = (latency) => {
        this.profiler.present.push(latency);
        if (this.renderWanted) this.renderNow();
      };
    }
    // Every extra pixel costs a software rasteriser directly: full CSS resolution there, up to 2× on GPUs.
    this.basePixelRatio = Math.min(globalThis.devicePixelRatio || 1, this.software ? 1 : 2);
    this.renderer.setPixelRatio(this.basePixelRatio);
    // No shadow maps: each shadow-casting light would render the scene a second time.
    this.renderer.shadowMap.enabled = false;
    // World matrices are kept current by hand (the pose binding updates the rig it moved, lights and the
    // frustum update themselves, structural changes call refreshMatrices), so three.js need not walk and
    // recompose every object's matrix again inside each render call.
    this.scene.matrixWorldAutoUpdate = false;
    this.renderer.outputColorSpace = THREE.SRGBColorSpace;
    this.scene.background = new THREE.Color(0x2b2f36);
    this.scene.fog = new THREE.Fog(0x2b2f36, 120, 320);
    this.grid = new THREE.GridHelper(100, 20, 0x8a93a3, 0x4a515d);
    this.scene.add(this.grid);
    this.scene.add(this.hemi);
    this.scene.add(this.light, this.light.target);
    this.light.target.position.set(0, 10, 0);
    this.applyLight(null);
    // MMD's default view (target at 10, 45 away, fov 30), a little further and higher so a whole figure fits a tall pane.
    this.orbitCamera.position.set(0, 16, 52);
    this.controls = new OrbitControls(this.orbitCamera, canvas);
    this.controls.target.set(0, 10, 0);
    this.controls.enableDamping = false;
    this.controls.addEventListener('change', () => this.requestRender());
    this.controls.update();
    this.frustum = new THREE.CameraHelper(this.frustumCamera);
    this.frustum.visible = false;
    this.scene.add(this.frustum);
    this.scene.add(this.marker);
    this.figure = buildDefaultFigure();
    this.scene.add(this.figure.group);
    this.gateSkeleton(this.figure.mesh.skeleton);
    this.refreshMatrices();
    this.rebind();
  }

  get frameTimes() {
    return this.profiler.interval;
  }
  get poseTimes() {
    return this.profiler.pose;
  }

  /** Recomputes every world matrix once, after objects were added, removed or moved outside posing. */
  private refreshMatrices(): void {
    this.scene.updateMatrixWorld(true);
  }

  /** The rig being posed: the model's, or the default figure's. */
  get rig(): Rig {
    return this.model ? this.model.rig : this.figure.rig;
  }

  get activeCamera(): THREE.PerspectiveCamera {
    return this.lookThrough && this.cameraPose ? this.mmdCamera : this.orbitCamera;
  }

  /** Shows a motion (null: none). Returns what the rig lacks and what the motion holds besides bones. */
  setMotion(doc: VmdDocument | null, tracks: MotionTracks | null): MotionBindingInfo {
    // The document store keeps the same tracks object only for curve-only edits (it patches their curve
    // bytes in place): same keys, names and IK block, so the binding stands and a re-pose is enough.
    // The camera path is redrawn either way: it samples the camera's curves between keys.
    const curvesOnly = tracks !== null && tracks === this.tracks && doc !== null && !!this.binding;
    this.doc = doc;
    this.tracks = tracks;
    this.rebuildCameraPath();
    if (curvesOnly) this.setFrame(this.frame);
    else {
      this.visibility = visibilityKeys(doc, tracks);
      this.rebind();
    }
    return this.bindingInfo();
  }

  /** Loads (or with null removes) a camera/light VMD shown together with the document's motion. */
  setCameraMotion(tracks: MotionTracks | null): MotionBindingInfo {
    this.extra = tracks;
    this.rebuildCameraPath();
    this.setFrame(this.frame);
    return this.bindingInfo();
  }

  /** The camera track shown: the extra camera VMD's, else the document's. */
  get cameraTrack(): CameraTrack | null {
    if (this.extra && this.extra.camera.frames.length) return this.extra.camera;
    return this.tracks && this.tracks.camera.frames.length ? this.tracks.camera : null;
  }

  get lightTrack(): LightTrack | null {
    if (this.extra && this.extra.light.frames.length) return this.extra.light;
    return this.tracks && this.tracks.light.frames.length ? this.tracks.light : null;
  }

  private rebuildCameraPath(): void {
    this.cameraPath?.dispose();
    if (this.cameraPath) this.scene.remove(this.cameraPath.group);
    this.cameraPath = null;
    const cam = this.cameraTrack;
    if (cam) {
      this.cameraPath = buildCameraPath(cam);
      this.scene.add(this.cameraPath.group);
      this.cameraPath.group.updateMatrixWorld(true);
    }
  }

  bindingInfo(): MotionBindingInfo {
    return {
      missingBones: this.binding?.missingBones ?? [],
      missingMorphs: this.model ? (this.binding?.missingMorphs ?? []) : [],
      hasCamera: !!this.cameraTrack,
      hasLight: !!this.lightTrack,
      cameraCuts: this.cameraPath?.cuts ?? [],
    };
  }

  /** Shows a built model instead of the default figure (null: back to the figure). The old model is disposed. */
  setModel(built: BuiltModel | null): MotionBindingInfo {
    if (this.model) {
      this.scene.remove(this.model.mesh);
      this.model.dispose();
    }
    this.model = built;
    if (built) {
      built.edges.mesh.visible = this.outline;
      this.scene.add(built.mesh);
      this.gateSkeleton(built.mesh.skeleton);
    }
    this.applyVisibility();
    this.refreshMatrices();
    this.rebind();
    return this.bindingInfo();
  }

  private rebind(): void {
    // Attach only the morph targets this motion reaches (see BuiltModel.selectMorphs).
    this.model?.selectMorphs(this.tracks?.morphs.names ?? []);
    const influences = this.model?.mesh.morphTargetInfluences ?? null;
    this.binding = new PoseBinding(this.rig, this.tracks, ikSwitchesOf(this.doc, this.tracks), this.model?.morphs, influences);
    const n = this.rig.bones.length;
    this.pickTier = pickTiers(this.rig.info, this.binding.trackBone, this.pickTier);
    this.boneTrack = trackOfBone(n, this.binding.trackBone);
    if (this.jointWorld.length !== 3 * n) {
      this.jointWorld = new Float32Array(3 * n);
      this.jointScreen = new Float32Array(3 * n);
    }
    // A new rig (model swap) has its own indices: find the marked bone again by name.
    this.markedBone = this.findMarked();
    this.setFrame(this.frame);
  }

  /**
   * three.js refreshes a skinned mesh's bone matrices and re-uploads its bone texture on every render;
   * orbiting, resizing or a texture arriving does not move a bone, so only the render after a pose does it.
   */
  private gateSkeleton(skeleton: THREE.Skeleton): void {
    const update = skeleton.update.bind(skeleton);
    skeleton.update = () => {
      if (!this.posed && skeleton.boneTexture) return;
      update();
    };
  }

  /** Poses everything at frame f (fractional: interpolated sub-frames) and asks for a render. */
  setFrame(f: number): void {
    this.poseAt(f);
    this.requestRender();
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
    this.poseAt(f);
    if (!this.poseChanged) return false;
    this.requestRender();
    return true;
  }

  /** Whether the last poseAt() moved anything (see snapshotChanged). */
  private poseChanged = true;
  private snapshot = new Float64Array(0);
  /** Writes the current pose into `snapshot`; true when any value differs from what it held. */
  private snapshotChanged(): boolean {
    const bones = this.rig.bones;
    const influences = this.model?.mesh.morphTargetInfluences ?? [];
    const cp = this.cameraPose;
    const n = 7 * bones.length + influences.length + 12;
    if (this.snapshot.length !== n) this.snapshot = new Float64Array(n).fill(NaN);
    const s = this.snapshot;
    let changed = false, k = 0;
    const put = (v: number) => {
      if (s[k] !== v) {
        s[k] = v;
        changed = true;
      }
      k++;
    };
    for (const b of bones) {
      put(b.position.x), put(b.position.y), put(b.position.z);
      put(b.quaternion.x), put(b.quaternion.y), put(b.quaternion.z), put(b.quaternion.w);
    }
    for (const v of influences) put(v);
    put(this.hiddenByMotion ? 1 : 0);
    if (cp) {
      put(cp.target[0]), put(cp.target[1]), put(cp.target[2]);
      put(cp.rotation[0]), put(cp.rotation[1]), put(cp.rotation[2]);
      put(cp.distance), put(cp.fov), put(cp.perspective);
      put(1), put(0);
    } else for (let i = 0; i < 11; i++) put(-1);
    return changed;
  }

  /**
   * One frame of playback: pose at f and render now (not on the next animation frame: the loop already
   * runs inside one). Records the frame's JavaScript time split into pose, scene and render call.
   */
  playFrame(f: number): void {
    const t0 = performance.now();
    this.poseAt(f);
    const t1 = performance.now();
    this.renderNow();
    const p = this.profiler;
    p.js.push(t1 - t0 + this.lastRenderMs);
  }

  private lastRenderMs = 0;

  private poseAt(f: number): void {
    const t0 = performance.now();
    this.frame = f;
    let poseMs = 0;
    if (this.binding) {
      this.binding.apply(f);
      this.model?.edges.sync();
      poseMs = this.binding.lastPoseMs;
      this.profiler.pose.push(poseMs);
      this.posed = true;
    }
    const cam = this.cameraTrack;
    this.cameraPose = cam ? sampleCamera(cam, f) : null;
    if (applyCameraPose(this.mmdCamera, this.cameraPose)) {
      this.mmdCamera.aspect = this.width / this.height;
      this.mmdCamera.updateProjectionMatrix();
      const fc = this.frustumCamera;
      fc.position.copy(this.mmdCamera.position);
      fc.quaternion.copy(this.mmdCamera.quaternion);
      fc.fov = this.mmdCamera.fov;
      fc.aspect = this.mmdCamera.aspect;
      fc.updateProjectionMatrix();
      fc.updateMatrixWorld(true);
      this.frustum.update();
      // The helper's matrix is the camera's world matrix; with auto-update off its world copy is ours to refresh.
      this.frustum.updateMatrixWorld(true);
    }
    const vis = this.visibility;
    const hidden = !!vis && vis.shown[keyAtOrBefore(vis.frames, 0, vis.frames.length, f)] === 0;
    if (hidden !== this.hiddenByMotion) {
      this.hiddenByMotion = hidden;
      this.applyVisibility();
      this.onHiddenChange?.(hidden);
    }
    this.frustum.visible = !!this.cameraPose && !this.lookThrough;
    if (this.cameraPath) this.cameraPath.group.visible = !this.lookThrough;
    const light = this.lightTrack;
    // Without a light track the default light stays put: no need to recompute it every frame.
    if (light) this.applyLight(sampleLight(light, f));
    else if (!this.defaultLight) this.applyLight(null);
    // Material and UV morphs change the picture without moving a bone: the binding says when they did.
    const moved = this.snapshotChanged();
    this.poseChanged = moved || (this.binding?.effectsChanged ?? false);
    this.profiler.scene.push(performance.now() - t0 - poseMs);
  }

  /** The motion's show/hide keys (the visibility byte of its IK block), or null when it has none. */
  private visibility: { frames: Uint32Array; shown: Uint8Array } | null = null;
  /** True while the motion hides the model (a key with MMD's 表示 off at or before the frame). */
  hiddenByMotion = false;
  /** Called when hiddenByMotion changes (the pane says why the model is gone). */
  onHiddenChange: ((hidden: boolean) => void) | null = null;

  /** Whether the model (or the default figure) is in the picture. */
  get modelShown(): boolean {
    return this.model ? this.model.mesh.visible : this.figure.group.visible;
  }

  /**
   * MMD's outline around the model (edge-mesh.ts). On by default where WebGL has a GPU; off on a software
   * rasteriser, where drawing the model twice would halve the frame rate.
   */
  outline = true;
  outlineState(): { on: boolean; materials: number } {
    const e = this.model?.edges;
    return { on: !!e && e.mesh.visible, materials: e ? e.materials.filter((m) => m.visible).length : 0 };
  }

  setOutline(on: boolean): void {
    this.outline = on;
    if (this.model) this.model.edges.mesh.visible = on;
    this.requestRender();
  }

  /** The model (or, without one, the default figure) is drawn unless the motion hides it, as MMD does. */
  private applyVisibility(): void {
    this.figure.group.visible = !this.model && !this.hiddenByMotion;
    if (this.model) this.model.mesh.visible = !this.hiddenByMotion;
  }

  /** True while the default light (no light track) is applied. */
  private defaultLight = false;

  /** A light VMD's colour and direction, or MMD's default light. */
  private applyLight(pose: { color: number[]; direction: number[] } | null): void {
    this.defaultLight = !pose;
    const l = lightFromPose(pose);
    this.light.color.setRGB(l.color[0], l.color[1], l.color[2]);
    // A directional light shines from its position toward its target.
    lightDir.set(l.direction[0], l.direction[1], l.direction[2]);
    this.light.position.copy(this.light.target.position).addScaledVector(lightDir, -40);
    this.light.updateMatrixWorld();
  }

  /** The directional light as drawn: the unit direction it shines along and its colour. */
  lightState(): { direction: [number, number, number]; color: [number, number, number] } {
    const d = this.light.target.position.clone().sub(this.light.position).normalize();
    const c = this.light.color;
    return { direction: [d.x, d.y, d.z], color: [c.r, c.g, c.b] };
  }

  setLookThrough(on: boolean): void {
    this.lookThrough = on;
    this.controls.enabled = !on;
    this.setFrame(this.frame);
  }

  /**
   * Drawing-buffer scale (1 = full resolution; < 1 while playback is too slow, see adaptive-scale.ts).
   * The canvas keeps its CSS size; the browser stretches the smaller image.
   */
  setRenderScale(scale: number): void {
    if (scale === this.renderScale) return;
    this.renderScale = scale;
    // setPixelRatio resizes the drawing buffer itself (to the size last given to setSize); a second
    // setSize would reallocate it again.
    this.renderer.setPixelRatio(this.basePixelRatio * scale);
    this.requestRender();
  }

  get scale(): number {
    return this.renderScale;
  }

  /** The frame breakdown since the last profiler.clear() (see frame-profiler.ts). */
  breakdown(): FrameBreakdown {
    const r = this.renderer.info.render;
    return this.profiler.breakdown(this.renderScale, { calls: r.calls, triangles: r.triangles });
  }

  /** Drawing-buffer size in pixels (after pixel ratio and render scale). */
  get bufferSize(): [number, number] {
    return [this.renderer.domElement.width, this.renderer.domElement.height];
  }

  resize(width: number, height: number): void {
    this.width = Math.max(1, Math.floor(width));
    this.height = Math.max(1, Math.floor(height));
    this.renderer.setSize(this.width, this.height, false);
    for (const cam of [this.orbitCamera, this.mmdCamera]) {
      cam.aspect = this.width / this.height;
      cam.updateProjectionMatrix();
    }
    this.frustum.update();
    this.requestRender();
  }

  /** Schedules one render on the next animation frame (coalesced). */
  requestRender(): void {
    if (this.raf || this.disposed) return;
    this.raf = requestAnimationFrame(() => {
      this.raf = 0;
      this.renderNow();
    });
  }

  /** How frames reach the screen now (see PreviewTestHook.presentation). */
  get presentation(): 'page' | 'async' | 'blocking' {
    return !this.presenter ? 'page' : this.presenter.blocking ? 'blocking' : 'async';
  }

  /**
   * Software GL: show each frame as soon as it is drawn, the page waiting for the rasteriser (playback),
   * instead of asynchronously (everything else: drags, orbiting, scrubbing). See AsyncPresenter.blocking.
   */
  setBlockingPresent(on: boolean): void {
    if (this.presenter) this.presenter.blocking = on;
  }

  /** A frame is still on its way to the screen (software GL): a render now would wait for it. */
  get presenting(): boolean {
    return this.presenter?.busy ?? false;
  }

  /** Frames the presenter has shown (0 without one). */
  get presentedFrames(): number {
    return this.presenter?.presented ?? 0;
  }

  /**
   * Renders the current pose now; with the presenter busy showing the previous frame, as soon as that is
   * shown instead (the pose may move on meanwhile: the latest one is drawn).
   */
  renderNow(): void {
    if (this.disposed) return;
    // A render already asked for on the next animation frame would draw the same picture again.
    if (this.raf) {
      cancelAnimationFrame(this.raf);
      this.raf = 0;
    }
    if (this.presenter?.busy) {
      this.renderWanted = true;
      this.lastRenderMs = 0;
      return;
    }
    this.renderWanted = false;
    this.draw();
    this.presenter?.submit();
  }

  /** The render call itself (and its timing), into the drawing buffer. */
  private draw(): void {
    const p = this.profiler;
    const t0 = performance.now();
    this.placeMarker();
    this.renderer.render(this.scene, this.activeCamera);
    const t1 = performance.now();
    this.posed = false;
    this.lastRenderMs = t1 - t0;
    p.render.push(this.lastRenderMs);
    p.renders++;
    if (p.syncGpu) {
      // Reading one pixel back waits until the rasteriser has finished this frame (measurement mode only).
      const gl = this.renderer.getContext();
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, this.readback);
      p.gpu.push(performance.now() - t1);
    }
  }

  /** World rotation of a bone in three.js coordinates (for tests and the status line). */
  boneWorldQuaternion(name: string): [number, number, number, number] | null {
    const i = this.rig.byKey.get(matchKey(name));
    if (i === undefined) return null;
    const q = this.rig.bones[i].getWorldQuaternion(new THREE.Quaternion());
    return [q.x, q.y, q.z, q.w];
  }

  boneWorldPosition(name: string): [number, number, number] | null {
    const i = this.rig.byKey.get(matchKey(name));
    if (i === undefined) return null;
    const p = this.rig.bones[i].getWorldPosition(new THREE.Vector3());
    return [p.x, p.y, p.z];
  }

  /**
   * Projects every joint of the rig as posed now (its world matrix: after IK and append) with the active
   * camera onto a width × height CSS px viewport, into jointScreen. Returns the number of joints.
   */
  private projectRig(width: number, height: number): number {
    const bones = this.rig.bones, w = this.jointWorld;
    for (let i = 0; i < bones.length; i++) {
      const e = bones[i].matrixWorld.elements;
      w[3 * i] = e[12];
      w[3 * i + 1] = e[13];
      w[3 * i + 2] = e[14];
    }
    const cam = this.activeCamera;
    // The orbit controls move the camera between renders; its matrices catch up only inside render().
    cam.updateMatrixWorld();
    viewProjection.multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse);
    projectJoints(viewProjection.elements, w, bones.length, width, height, this.jointScreen);
    return bones.length;
  }

  /**
   * The bone whose joint a click at (x, y) CSS px on a width × height canvas picks (bone-pick.ts), or null
   * when no joint is within `radius` or the model is not drawn. `track` is the bone track moving it, −1
   * when the motion has none.
   */
  pickBone(x: number, y: number, width: number, height: number, radius = PICK_RADIUS_PX): { bone: number; name: string; track: number } | null {
    if (!this.modelShown) return null;
    const n = this.projectRig(width, height);
    const i = pickJoint(this.jointScreen, this.pickTier, n, x, y, radius);
    return i < 0 ? null : { bone: i, name: this.rig.info[i].name, track: this.boneTrack[i] };
  }

  /** Where a bone's joint is drawn, in CSS px on a width × height canvas; null when absent or off screen. */
  boneScreenPosition(name: string, width: number, height: number): [number, number] | null {
    const i = this.rig.byKey.get(matchKey(name));
    if (i === undefined) return null;
    this.projectRig(width, height);
    const s = this.jointScreen;
    return Number.isNaN(s[3 * i]) ? null : [s[3 * i], s[3 * i + 1]];
  }

  /** Marks a bone by name (null clears the mark). Returns whether the rig has it (else nothing is marked). */
  setMarker(name: string | null): boolean {
    this.markedName = name;
    this.markedBone = this.findMarked();
    this.requestRender();
    return this.markedBone >= 0;
  }

  /** The marked bone's index in the current rig (−1: nothing marked, or the rig lacks that bone). */
  private findMarked(): number {
    return this.markedName === null ? -1 : (this.rig.byKey.get(matchKey(this.markedName)) ?? -1);
  }

  /** The marked bone (its name as the rig spells it, the bone track moving it or −1), or null. */
  get marked(): { name: string; track: number } | null {
    const i = this.markedBone;
    return i >= 0 ? { name: this.rig.info[i].name, track: this.boneTrack[i] } : null;
  }

  /** Whether the mark was in the last rendered picture. */
  get markerShown(): boolean {
    return this.marker.visible;
  }

  /**
   * Puts the mark on the marked joint as posed now, facing the camera at a constant size on screen
   * (world units per CSS px grow with the distance along the view). Runs before each render, without
   * allocating, so the mark follows playback, scrubbing and orbiting.
   */
  private placeMarker(): void {
    const m = this.marker;
    m.visible = this.markedBone >= 0 && this.modelShown;
    if (!m.visible) return;
    const cam = this.activeCamera;
    cam.updateMatrixWorld();
    markerAt.setFromMatrixPosition(this.rig.bones[this.markedBone].matrixWorld);
    m.position.copy(markerAt);
    const depth = -markerAt.applyMatrix4(cam.matrixWorldInverse).z;
    const unitsPerPx = (2 * Math.max(depth, cam.near) * Math.tan((cam.fov * Math.PI) / 360)) / cam.zoom / this.height;
    m.scale.setScalar(MARK_RADIUS_PX * unitsPerPx);
    m.quaternion.copy(cam.quaternion);
    m.updateMatrixWorld(true);
  }

  /**
   * Renders now and reads the drawn colour (RGBA bytes) at (x, y) CSS px of a width × height canvas (for
   * tests: the drawing buffer is only readable within the task that rendered it).
   */
  readPixel(x: number, y: number, width: number, height: number): [number, number, number, number] {
    this.draw();
    // Show this picture too (or, with a frame in flight, the latest one right after it).
    if (this.presenter?.busy) this.renderWanted = true;
    else this.presenter?.submit();
    const [bw, bh] = this.bufferSize;
    const px = Math.min(bw - 1, Math.max(0, Math.floor((x / width) * bw)));
    const py = Math.min(bh - 1, Math.max(0, bh - 1 - Math.floor((y / height) * bh)));
    const gl = this.renderer.getContext();
    gl.readPixels(px, py, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, this.readback);
    const r = this.readback;
    return [r[0], r[1], r[2], r[3]];
  }

  cameraState() {
    const c = this.activeCamera;
    return {
      lookThrough: this.lookThrough && !!this.cameraPose,
      position: [c.position.x, c.position.y, c.position.z],
      quaternion: [c.quaternion.x, c.quaternion.y, c.quaternion.z, c.quaternion.w],
      fov: c.fov,
    };
  }

  /**
   * Times pose evaluation alone: `count` frames spread over the motion, then the current frame again.
   * Returns the mean in ms (browsers coarsen performance.now(), so one call cannot be timed alone).
   */
  timePose(count: number): number {
    if (!this.binding || !this.tracks) return 0;
    const last = Math.max(this.tracks.lastFrame, 1);
    const t0 = performance.now();
    for (let i = 0; i < count; i++) this.binding.apply(((i * 7.31) % last) + 0.5);
    const mean = (performance.now() - t0) / count;
    this.setFrame(this.frame);
    return mean;
  }

  /** WebGL objects three.js holds now (for the dispose test): geometries, textures, programs. */
  memory(): { geometries: number; textures: number; programs: number } {
    const i = this.renderer.info;
    return { geometries: i.memory.geometries, textures: i.memory.textures, programs: i.programs?.length ?? 0 };
  }

  get currentFrame(): number {
    return this.frame;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.raf) cancelAnimationFrame(this.raf);
    this.controls.dispose();
    this.setModel(null);
    this.figure.dispose();
    this.cameraPath?.dispose();
    this.frustum.dispose();
    this.grid.dispose();
    for (const part of this.marker.children as THREE.Mesh<THREE.BufferGeometry, THREE.Material>[]) {
      part.geometry.dispose();
      part.material.dispose();
    }
    // What our own disposal left on the GPU (renderer.dispose() below would sweep it up silently).
    this.disposal.geometries = this.renderer.info.memory.geometries;
    this.disposal.textures = this.renderer.info.memory.textures;
    this.presenter?.dispose();
    this.renderer.dispose();
    // Give the WebGL context back now rather than when the canvas is collected (browsers cap live contexts).
    this.renderer.forceContextLoss();
  }
}

/** The show/hide flag of every IK-block key (keys at or before a frame decide; none: always shown). */
function visibilityKeys(doc: VmdDocument | null, tracks: MotionTracks | null): { frames: Uint32Array; shown: Uint8Array } | null {
  if (!doc || !tracks || tracks.ik.frames.length === 0) return null;
  const { frames, record } = tracks.ik;
  const shown = new Uint8Array(frames.length);
  for (let k = 0; k < frames.length; k++) shown[k] = ikKey(doc.ik, record[k]).visible ? 1 : 0;
  // A motion that never hides the model needs no per-frame look-up.
  return shown.includes(0) ? { frames, shown } : null;
}
