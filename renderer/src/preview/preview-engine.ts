/**
 * The 3D preview's three.js world, created and owned outside Vue (no reactive proxies near it): renderer,
 * scene, orbit camera, ground grid, lights, the default figure or a loaded model, the motion binding and
 * the camera VMD's path and frustum. Renders on demand; the playback loop lives in use-preview.ts.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { CameraTrack, LightTrack, MotionTracks } from '../../../shared/vmd/tracks';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { sampleCamera, sampleLight, type CameraPose } from '../../../shared/vmd/sample';
import { matchKey } from '../../../shared/pmx/model-inspect';
import { buildDefaultFigure, type BuiltFigure } from './figure-mesh';
import type { BuiltModel } from './model-mesh';
import { PoseBinding, ikSwitchesOf } from './pose-binding';
import { applyCameraPose, buildCameraPath, lightFromPose, type CameraPathView } from './camera-view';
import type { Rig } from './rig';


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

/** A ring of the last N numbers (frame and pose times), no allocation while playing. */
export class Ring {
  private buf: Float64Array;
  private n = 0;
  private i = 0;
  constructor(size: number) {
    this.buf = new Float64Array(size);
  }
  push(v: number): void {
    this.buf[this.i] = v;
    this.i = (this.i + 1) % this.buf.length;
    if (this.n < this.buf.length) this.n++;
  }
  values(): number[] {
    const out: number[] = [];
    for (let k = 0; k < this.n; k++) out.push(this.buf[(this.i - this.n + k + this.buf.length) % this.buf.length]);
    return out;
  }
  clear(): void {
    this.n = this.i = 0;
  }
}

export interface MotionBindingInfo {
  missingBones: string[];
  missingMorphs: string[];
  hasCamera: boolean;
  hasLight: boolean;
  cameraCuts: number[];
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
  /** Time between rendered frames while playing (ms), and pose evaluation per frame (ms). */
  readonly frameTimes = new Ring(4096);
  readonly poseTimes = new Ring(4096);
  /** True when WebGL runs on a software rasteriser. */
  readonly software: boolean;

  constructor(readonly canvas: HTMLCanvasElement) {
    // Multisampling costs a software rasteriser (SwiftShader) more than it is worth; keep it on real GPUs.
    this.software = /swiftshader|llvmpipe|software/i.test(probeRenderer());
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: !this.software, powerPreference: 'high-performance' });
    this.renderer.setPixelRatio(Math.min(globalThis.devicePixelRatio || 1, 2));
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
    this.figure = buildDefaultFigure();
    this.scene.add(this.figure.group);
    this.rebind();
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
    this.doc = doc;
    this.tracks = tracks;
    this.rebuildCameraPath();
    this.rebind();
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
    if (built) this.scene.add(built.mesh);
    this.figure.group.visible = !built;
    this.rebind();
    return this.bindingInfo();
  }

  private rebind(): void {
    // Attach only the morph targets this motion reaches (see BuiltModel.selectMorphs).
    this.model?.selectMorphs(this.tracks?.morphs.names ?? []);
    const influences = this.model?.mesh.morphTargetInfluences ?? null;
    this.binding = new PoseBinding(this.rig, this.tracks, ikSwitchesOf(this.doc, this.tracks), this.model?.morphs, influences);
    this.setFrame(this.frame);
  }

  /** Poses everything at frame f (fractional: interpolated sub-frames) and asks for a render. */
  setFrame(f: number): void {
    this.frame = f;
    if (this.binding) {
      this.binding.apply(f);
      this.poseTimes.push(this.binding.lastPoseMs);
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
    }
    this.frustum.visible = !!this.cameraPose && !this.lookThrough;
    if (this.cameraPath) this.cameraPath.group.visible = !this.lookThrough;
    const light = this.lightTrack;
    this.applyLight(light ? sampleLight(light, f) : null);
    this.requestRender();
  }

  /** A light VMD's colour and direction, or MMD's default light. */
  private applyLight(pose: { color: number[]; direction: number[] } | null): void {
    const l = lightFromPose(pose);
    this.light.color.setRGB(l.color[0], l.color[1], l.color[2]);
    // A directional light shines from its position toward its target.
    this.light.position.copy(this.light.target.position).addScaledVector(new THREE.Vector3(...l.direction), -40);
  }

  setLookThrough(on: boolean): void {
    this.lookThrough = on;
    this.controls.enabled = !on;
    this.setFrame(this.frame);
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

  renderNow(): void {
    if (this.disposed) return;
    this.renderer.render(this.scene, this.activeCamera);
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
    this.renderer.dispose();
    // Give the WebGL context back now rather than when the canvas is collected (browsers cap live contexts).
    this.renderer.forceContextLoss();
  }
}
