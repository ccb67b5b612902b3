/**
 * The preview's three.js world, without the WebGL renderer (that is the presenter's, frame-presenter.ts):
 * scene, orbit camera, the camera VMD's camera with its frustum and path, ground grid, lights, and the
 * default figure or a loaded model. It places what it is told (a camera pose, a light pose, hidden or
 * shown); the motion driver (motion-driver.ts) decides what that is at each frame.
 */
import * as THREE from 'three';
import type { CameraTrack } from '../../../shared/vmd/tracks';
import type { CameraPose } from '../../../shared/vmd/sample';
import { buildDefaultFigure, type BuiltFigure } from './figure-mesh';
import type { BuiltModel } from './model-mesh';
import { applyCameraPose, applyOrthographic, buildCameraPath, lightFromPose, MMD_LIGHT_COLOR, type CameraPathView } from './camera-view';
import type { FollowSamples } from './follow-samples';
import type { Rig } from './rig';
import type { SceneMmdLight } from './mmd-material';
import { DEFAULT_ASPECT } from '../../../shared/scene/scene-file';
import { START_EYE } from './orbit';

/** MMD's self-shadow at a frame: mode 0 off, 1 or 2 on; `distance` as the VMD key stores it (0.1 − UI value × 1e-5). */
export interface SelfShadowState {
  mode: number;
  distance: number;
}

/** MMD's default self-shadow distance as stored (UI 8875). */
export const DEFAULT_SHADOW_DISTANCE = 0.01125;

/**
 * Half the side of the square the shadow map covers, in MMD units, for a stored distance: MMD's range
 * shrinks as the UI value grows (UI = (0.1 − stored) × 1e5), so it grows with the stored value; the
 * default (UI 8875) covers 50 × 50 units about the camera's target, a figure and its floor.
 */
export function shadowHalfExtent(distance: number): number {
  const d = Number.isFinite(distance) ? distance : DEFAULT_SHADOW_DISTANCE;
  return Math.min(250, Math.max(2, (25 * d) / DEFAULT_SHADOW_DISTANCE));
}
/** Shadow map resolution (square). */
const SHADOW_MAP_SIZE = 2048;

const lightDir = new THREE.Vector3(0.5, -1, -0.5).normalize();
/** Scratch for fitShadowToView (self-shadow mode 2). */
const fitCorners = Array.from({ length: 8 }, () => new THREE.Vector3());
const fitCentre = new THREE.Vector3();
const fitView = new THREE.OrthographicCamera();
const DEFAULT_SHADOW_CENTRE = new THREE.Vector3(0, 10, 0);
/** MMD's output frame: the scene file's default (16:9) unless the scene says otherwise. */
const DEFAULT_OUTPUT_ASPECT = DEFAULT_ASPECT.width / DEFAULT_ASPECT.height;

/** A camera the preview draws through: the orbit or MMD camera, or a perspective-off key's orthographic one. */
export type ViewCamera = THREE.PerspectiveCamera | THREE.OrthographicCamera;

export class PreviewScene {
  readonly scene = new THREE.Scene();
  readonly orbitCamera = new THREE.PerspectiveCamera(30, 1, 0.5, 2000);
  /** The camera VMD's camera (drawn as a frustum, or looked through). */
  readonly mmdCamera = new THREE.PerspectiveCamera(30, DEFAULT_OUTPUT_ASPECT, 0.5, 2000);
  /** The camera VMD's camera at a key with perspective off (MMD's パース OFF): the same place, no foreshortening. */
  readonly mmdOrthoCamera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0, 2000);
  readonly light = new THREE.DirectionalLight(0xffffff, 2.2);
  private readonly hemi = new THREE.HemisphereLight(0xf4f6ff, 0x6b6460, 0.9);
  private readonly grid: THREE.GridHelper;
  readonly frustum: THREE.CameraHelper;
  /** A short copy of the MMD camera for drawing its frustum (the real one reaches 2000 units). */
  private readonly frustumCamera = new THREE.PerspectiveCamera(30, 1, 0.5, 6);
  /** The same for a perspective-off pose: a box as wide as its view, 6 units deep. */
  private readonly orthoFrustumCamera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0, 6);
  /** The placed pose has perspective off; its distance sizes the orthographic view (camera-view.ts orthoHalfExtents). */
  private orthographic = false;
  private orthoDistance = 45;
  readonly figure: BuiltFigure;
  private builtModel: BuiltModel | null = null;
  private cameraPath: CameraPathView | null = null;
  /** Whether a camera pose is placed (a camera track at the current frame). */
  private cameraPlaced = false;
  /** The placed camera pose's target, three.js coordinates (the self-shadow's centre). */
  private readonly mmdTarget = new THREE.Vector3(0, 10, 0);
  private lookThrough = false;
  /** True while the default light (no light track) is applied. */
  private defaultLight = false;
  /** The self-shadow the camera document's keys ask for at the current frame (off without keys). */
  selfShadow: SelfShadowState = { mode: 0, distance: DEFAULT_SHADOW_DISTANCE };
  /** True while the motion hides the model (a key with MMD's 表示 off at or before the frame). */
  hiddenByMotion = false;
  /** The skeleton's matrices and bone texture are refreshed only on the render after a pose change. */
  posed = true;
  /** Viewport size in CSS px (the orbit camera's aspect; the pick mark's size on screen). */
  width = 1;
  height = 1;
  /**
   * The output frame's width / height (the scene's aspect, 16:9 by default): the MMD camera's aspect, so
   * its frustum shows what it films and looking through it shows that frame (the pane letterboxes the
   * canvas to it: output-frame.ts), not the pane's shape.
   */
  outputAspect = DEFAULT_OUTPUT_ASPECT;

  /**
   * `outline`: MMD's outline around a model (edge-mesh.ts); the engine turns it off on a software
   * rasteriser, where drawing the model twice would halve the frame rate.
   */
  constructor(public outline = true) {
    // World matrices are kept current by hand (the pose binding updates the rig it moved, lights and the
    // frustum update themselves, structural changes call refreshMatrices), so three.js need not walk and
    // recompose every object's matrix again inside each render call.
    this.scene.matrixWorldAutoUpdate = false;
    this.scene.background = new THREE.Color(0x2b2f36);
    this.scene.onBeforeRender = (_r, _s, camera) => this.fitShadowToView(camera);
    this.scene.fog = new THREE.Fog(0x2b2f36, 120, 320);
    this.grid = new THREE.GridHelper(100, 20, 0x8a93a3, 0x4a515d);
    this.scene.add(this.grid);
    this.scene.add(this.hemi);
    this.scene.add(this.light, this.light.target);
    this.light.target.position.set(0, 10, 0);
    this.light.shadow.mapSize.set(SHADOW_MAP_SIZE, SHADOW_MAP_SIZE);
    this.light.shadow.bias = -0.0008;
    this.light.shadow.normalBias = 0.04;
    this.showLight(null);
    // MMD's default view, a little further and higher (orbit.ts START_EYE).
    this.orbitCamera.position.set(...START_EYE);
    this.frustum = new THREE.CameraHelper(this.frustumCamera);
    this.frustum.visible = false;
    this.scene.add(this.frustum);
    this.figure = buildDefaultFigure();
    this.scene.add(this.figure.group);
    this.gateSkeleton(this.figure.mesh.skeleton);
  }

  /**
   * Dresses the scene for one exported frame: the ground grid shown or not, the background in the chosen
   * colour, and no fog (MMD has none; the editor's fog fades the grid into its dark grey, which a white
   * background would show as a grey haze far off). Returns what puts the editor's look back: the preview
   * itself never changes.
   */
  dressForExport(look: { grid: boolean; background: string }): () => void {
    const background = this.scene.background, fog = this.scene.fog, grid = this.grid.visible;
    this.scene.background = new THREE.Color(look.background);
    this.scene.fog = null;
    this.grid.visible = look.grid;
    return () => {
      this.scene.background = background;
      this.scene.fog = fog;
      this.grid.visible = grid;
    };
  }

  /** Recomputes every world matrix once, after objects were added, removed or moved outside posing. */
  refreshMatrices(): void {
    this.scene.updateMatrixWorld(true);
  }

  get model(): BuiltModel | null {
    return this.builtModel;
  }

  /** The rig being posed: the model's, or the default figure's. */
  get rig(): Rig {
    return this.builtModel ? this.builtModel.rig : this.figure.rig;
  }

  /** Whether the model (or the default figure) is in the picture. */
  get modelShown(): boolean {
    return this.builtModel ? this.builtModel.mesh.visible : this.figure.group.visible;
  }

  /** The MMD camera while looking through it at a placed pose (its orthographic one at a perspective-off pose), else the orbit camera. */
  get activeCamera(): ViewCamera {
    return this.lookThrough && this.cameraPlaced ? this.mmdView : this.orbitCamera;
  }

  /** The camera the placed pose films with: orthographic where its key has perspective off (a cut to or from one switches at once). */
  get mmdView(): ViewCamera {
    return this.orthographic ? this.mmdOrthoCamera : this.mmdCamera;
  }

  /** Whether the placed pose has perspective off (drawn orthographic). */
  get orthographicView(): boolean {
    return this.cameraPlaced && this.orthographic;
  }

  /** Sizes the perspective-off view for a frame of `aspect` (an export's), or back to the output's (no argument). */
  fitOrthographic(aspect = this.outputAspect): void {
    if (this.orthographic) applyOrthographic(this.mmdOrthoCamera, this.mmdCamera, this.orthoDistance, aspect);
  }

  /** Whether a camera pose is placed at the current frame (a camera track is shown). */
  get cameraShown(): boolean {
    return this.cameraPlaced;
  }

  /** The editor's marks in the world that a rendered video leaves out (the camera's frustum and path). */
  editorMarks(): THREE.Object3D[] {
    return [this.frustum, ...(this.cameraPath ? [this.cameraPath.group] : [])];
  }

  /** Whether the picture is seen through the camera VMD's camera now. */
  get lookingThrough(): boolean {
    return this.lookThrough && this.cameraPlaced;
  }

  setLookThrough(on: boolean): void {
    this.lookThrough = on;
    this.frustum.visible = this.cameraPlaced && !on;
    this.applyPathVisibility();
  }

  /** The camera path can be hidden (issue 30); it is never drawn when looking through the camera. */
  private pathShown = true;
  setCameraPathShown(on: boolean): void {
    this.pathShown = on;
    this.applyPathVisibility();
  }
  get cameraPathVisible(): boolean {
    return !!this.cameraPath?.group.visible;
  }

  /** Shows a built model instead of the default figure (null: back to the figure). The old model is disposed. */
  setModel(built: BuiltModel | null): void {
    if (this.builtModel) {
      this.scene.remove(this.builtModel.mesh);
      this.builtModel.dispose();
    }
    this.builtModel = built;
    if (built) {
      built.edges.mesh.visible = this.outline;
      this.scene.add(built.mesh);
      this.gateSkeleton(built.mesh.skeleton);
    }
    this.applyVisibility();
    this.refreshMatrices();
  }

  setOutline(on: boolean): void {
    this.outline = on;
    if (this.builtModel) this.builtModel.edges.mesh.visible = on;
  }

  /** MMD's ground shadow (地面影表示) on every model of the scene: read by each model's sync (ground-shadow.ts). */
  get groundShadow(): boolean {
    return this.scene.userData.groundShadowOff !== true;
  }

  setGroundShadow(on: boolean): void {
    this.scene.userData.groundShadowOff = !on;
    this.builtModel?.groundShadow.sync();
  }

  outlineState(): { on: boolean; materials: number } {
    const e = this.builtModel?.edges;
    return { on: !!e && e.mesh.visible, materials: e ? e.materials.filter((m) => m.visible).length : 0 };
  }

  /** The scene hides this actor's model (its tab's eye, stores/scene.ts); its motion still plays. */
  hiddenByUser = false;

  setUserHidden(hidden: boolean): void {
    this.hiddenByUser = hidden;
    this.applyVisibility();
  }

  /** Hides or shows the model (or figure) as the motion's display key says. */
  setHidden(hidden: boolean): void {
    this.hiddenByMotion = hidden;
    this.applyVisibility();
  }

  /** The model (or, without one, the default figure) is drawn unless the motion hides it, as MMD does. */
  private applyVisibility(): void {
    const shown = !this.hiddenByMotion && !this.hiddenByUser;
    this.figure.group.visible = !this.builtModel && shown;
    if (this.builtModel) this.builtModel.mesh.visible = shown;
  }

  /**
   * Draws the path of a camera track (null: none), followed by the bone `follow` works out (camera follows a bone:
   * camera-view.ts, follow-samples.ts). The follow's samples come in slices: the path is placed again as they do
   * (refresh; onCameraPathRedrawn), from what is ready. Returns the frames where the camera cuts.
   */
  setCameraPath(track: CameraTrack | null, follow: FollowSamples | null = null): number[] {
    if (this.pathSamples && this.pathSamples !== follow) this.pathSamples.onUpdate = null;
    this.pathTrack = track;
    this.pathSamples = follow;
    const n = track ? track.frames.length : 0;
    if (follow && track && n > 0) {
      follow.onUpdate = () => {
        this.cameraPath?.refresh();
        this.onCameraPathRedrawn?.();
      };
      follow.want(track.frames[0], track.frames[n - 1]);
    }
    this.drawCameraPath();
    return this.cameraPath?.cuts ?? [];
  }

  /** Called when the camera path is drawn again by itself (a slice of the follow's samples came in): a render is due. */
  onCameraPathRedrawn: (() => void) | null = null;
  private pathTrack: CameraTrack | null = null;
  private pathSamples: FollowSamples | null = null;

  private drawCameraPath(): void {
    this.cameraPath?.dispose();
    if (this.cameraPath) this.scene.remove(this.cameraPath.group);
    this.cameraPath = null;
    const track = this.pathTrack, samples = this.pathSamples;
    if (track) {
      this.cameraPath = buildCameraPath(track, samples ? (f) => samples.sample(f) : null);
      this.scene.add(this.cameraPath.group);
      this.cameraPath.group.updateMatrixWorld(true);
    }
    this.applyPathVisibility();
  }

  /** The path is drawn unless hidden (its switch) or looked through; its follow's samples wait while it is not. */
  private applyPathVisibility(): void {
    const shown = !this.lookThrough && this.pathShown;
    if (this.cameraPath) this.cameraPath.group.visible = shown;
    this.pathSamples?.setPaused(!shown || !this.cameraPath);
  }

  get cameraCuts(): number[] {
    return this.cameraPath?.cuts ?? [];
  }

  /** Places the MMD camera and its frustum at a sampled pose (null: no camera track). */
  showCamera(pose: CameraPose | null): void {
    this.cameraPlaced = !!pose;
    if (pose) this.mmdTarget.set(pose.target[0], pose.target[1], -pose.target[2]);
    this.orthographic = !!pose && pose.perspective !== 0;
    if (applyCameraPose(this.mmdCamera, pose)) {
      this.mmdCamera.aspect = this.outputAspect;
      this.mmdCamera.updateProjectionMatrix();
      this.orthoDistance = pose!.distance;
      this.fitOrthographic();
      // The frustum drawn is the view's shape: a pyramid, or a box for a perspective-off pose.
      const fc = this.orthographic ? this.orthoFrustumCamera : this.frustumCamera;
      fc.position.copy(this.mmdCamera.position);
      fc.quaternion.copy(this.mmdCamera.quaternion);
      if (fc instanceof THREE.OrthographicCamera) {
        const o = this.mmdOrthoCamera;
        fc.left = o.left;
        fc.right = o.right;
        fc.top = o.top;
        fc.bottom = o.bottom;
      } else {
        fc.fov = this.mmdCamera.fov;
        fc.aspect = this.mmdCamera.aspect;
      }
      fc.updateProjectionMatrix();
      fc.updateMatrixWorld(true);
      if (this.frustum.camera !== fc) {
        this.frustum.camera = fc;
        this.frustum.matrix = fc.matrixWorld;
      }
      this.frustum.update();
      // The helper's matrix is the camera's world matrix; with auto-update off its world copy is ours to refresh.
      this.frustum.updateMatrixWorld(true);
    }
    this.frustum.visible = this.cameraPlaced && !this.lookThrough;
    // The Path switch holds at every pose too (it came back at the next pose: at once with physics on).
    this.applyPathVisibility();
  }

  /**
   * A light VMD's colour and direction, or MMD's default light (null). The default light is placed
   * once: asking for it again while it is applied does nothing.
   */
  showLight(pose: { color: number[]; direction: number[] } | null): void {
    if (!pose && this.defaultLight) return;
    this.defaultLight = !pose;
    const l = lightFromPose(pose);
    this.light.color.setRGB(l.color[0], l.color[1], l.color[2]);
    // MMD's materials (mmd-material.ts) take the light as MMD has it: the colour unscaled.
    const mmd: SceneMmdLight = { color: pose ? [pose.color[0], pose.color[1], pose.color[2]] : [MMD_LIGHT_COLOR, MMD_LIGHT_COLOR, MMD_LIGHT_COLOR], direction: l.direction };
    this.scene.userData.mmdLight = mmd;
    lightDir.set(l.direction[0], l.direction[1], l.direction[2]);
    this.placeLight();
  }

  /**
   * A directional light shines from its position toward its target; for the shadow map the position is
   * also where the light's camera stands, far enough back to see the whole covered square.
   */
  private placeLight(): void {
    const half = shadowHalfExtent(this.selfShadow.distance);
    this.light.position.copy(this.light.target.position).addScaledVector(lightDir, this.light.castShadow ? -(40 + 2 * half) : -40);
    this.light.updateMatrixWorld();
    this.light.target.updateMatrixWorld();
  }

  /**
   * MMD's self-shadow (the camera document's self-shadow keys, motion-driver.ts). Mode 1: a shadow map of
   * the light over a square about the camera's target (or MMD's default target without a camera) sized by
   * the key's distance, the same wherever the camera stands. Mode 2 (MMD: finer near the camera, coarser
   * away from it): the map covers what the drawing camera sees from its near plane out to twice that half
   * side (fitShadowToView, at each render), so its texels follow the camera and nothing beyond that reach
   * is shadowed. Turning it on or off changes the materials' programs (three.js counts shadow-casting
   * lights), so only a change does.
   */
  setSelfShadow(state: SelfShadowState): void {
    this.selfShadow = { mode: state.mode, distance: state.distance };
    const on = state.mode !== 0;
    if (this.light.castShadow !== on) this.light.castShadow = on;
    if (state.mode === 2) return; // placed at each render, for the camera drawing it (fitShadowToView)
    const half = shadowHalfExtent(state.distance);
    const cam = this.light.shadow.camera;
    const centre = this.cameraPlaced ? this.mmdTarget : DEFAULT_SHADOW_CENTRE;
    this.light.target.position.copy(centre);
    if (cam.left !== -half || cam.right !== half || cam.bottom !== -half || cam.far !== 80 + 4 * half) {
      cam.left = cam.bottom = -half;
      cam.right = cam.top = half;
      cam.near = 1;
      cam.far = 80 + 4 * half;
      cam.updateProjectionMatrix();
    }
    this.placeLight();
  }

  /**
   * Self-shadow mode 2 for the camera about to draw (the scene's onBeforeRender, before three.js's shadow
   * pass): the slice of its view from the near plane to `reach` = twice the key's half side, fitted by the
   * light's own axes, with the light far enough behind it that casters between the light and the slice
   * still land in the map.
   */
  fitShadowToView(camera: THREE.Camera): void {
    if (this.selfShadow.mode !== 2 || !this.light.castShadow) return;
    const persp = (camera as THREE.PerspectiveCamera).isPerspectiveCamera ? (camera as THREE.PerspectiveCamera) : null;
    const ortho = (camera as THREE.OrthographicCamera).isOrthographicCamera ? (camera as THREE.OrthographicCamera) : null;
    if (!persp && !ortho) return;
    const cam = (persp ?? ortho)!;
    const reach = 2 * shadowHalfExtent(this.selfShadow.distance);
    const near = cam.near, far = Math.min(cam.far, near + reach);
    const tan = persp ? Math.tan(THREE.MathUtils.degToRad(persp.fov / 2)) : 0;
    let k = 0;
    for (const z of [near, far])
      for (const sx of [-1, 1])
        for (const sy of [-1, 1]) {
          // A perspective view widens with the depth; an orthographic one (perspective off) keeps its box.
          const x = persp ? sx * z * tan * persp.aspect : (sx < 0 ? ortho!.left : ortho!.right) / ortho!.zoom;
          const y = persp ? sy * z * tan : (sy < 0 ? ortho!.bottom : ortho!.top) / ortho!.zoom;
          fitCorners[k++].set(x, y, -z).applyMatrix4(cam.matrixWorld);
        }
    fitCentre.set(0, 0, 0);
    for (const c of fitCorners) fitCentre.add(c);
    fitCentre.multiplyScalar(1 / fitCorners.length);
    this.light.target.position.copy(fitCentre);
    this.light.position.copy(fitCentre).addScaledVector(lightDir, -(40 + 2 * reach));
    this.light.updateMatrixWorld();
    this.light.target.updateMatrixWorld();
    // The light's view as three.js will set it (LightShadow.updateMatrices), to measure the corners in.
    const view = fitView; // a camera: lookAt turns its −z toward the target, as the shadow camera's
    view.position.copy(this.light.position);
    view.lookAt(fitCentre);
    view.updateMatrixWorld();
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity, d1 = 0;
    for (const c of fitCorners) {
      const p = c.clone().applyMatrix4(view.matrixWorldInverse);
      x0 = Math.min(x0, p.x);
      x1 = Math.max(x1, p.x);
      y0 = Math.min(y0, p.y);
      y1 = Math.max(y1, p.y);
      d1 = Math.max(d1, -p.z);
    }
    const sc = this.light.shadow.camera;
    sc.left = x0;
    sc.right = x1;
    sc.bottom = y0;
    sc.top = y1;
    sc.near = 1;
    sc.far = d1 + 10;
    sc.updateProjectionMatrix();
  }

  /** The viewport's size in CSS px: the orbit camera's aspect follows (the MMD camera keeps the output aspect). */
  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
    this.orbitCamera.aspect = width / height;
    this.orbitCamera.updateProjectionMatrix();
    this.frustum.update();
  }

  /** The output frame's aspect (width / height); re-place the camera afterwards (showCamera). */
  setOutputAspect(aspect: number): void {
    if (!(aspect > 0) || !Number.isFinite(aspect)) return;
    this.outputAspect = aspect;
    this.mmdCamera.aspect = aspect;
    this.mmdCamera.updateProjectionMatrix();
    this.fitOrthographic();
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

  /** Disposes the model, figure, camera path, frustum and grid (what the scene made). */
  dispose(): void {
    this.setModel(null);
    this.figure.dispose();
    this.cameraPath?.dispose();
    if (this.pathSamples) this.pathSamples.onUpdate = null;
    this.frustum.dispose();
    this.grid.dispose();
    this.light.dispose(); // and its shadow map
  }
}
