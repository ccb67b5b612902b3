/**
 * The preview's e2e test hook, `window.__vmdPreview`: read-only queries for end-to-end tests about the
 * preview mounted now (use-preview.ts mountedPreview(); undefined while none is). Only the e2e build holds
 * it: its entry (main.ts here) installs it at start.
 *
 * boneWorldQuaternion(name), boneWorldPosition(name), cameraState(), frame(), perf() → frame and pose
 * times in ms, resetPerf(), timePose(n) (re-poses n frames, mean ms), breakdown() (per-frame split),
 * bufferSize(), context(), liveMemory(), disposal(), lightState(), gpu(), info(), shown(), outline(),
 * presentation(), poseHandle(axis), jointDots(), cameraPathDrawn(); for bone picking boneScreenPosition(name), marker(), pixelAt(x, y), frameImage() (see PickTestHook).
 * Measurement switches are URL options, not setters here (see use-preview.ts).
 */
import * as THREE from 'three';
import type { FrameBreakdown } from '../preview/frame-profiler';
import { mountedPreview, type MountedPreview } from '../preview/use-preview';
import { toonTextureOf } from '../preview/mmd-material';
import * as diag from './preview-diagnostics';

/** The bone-picking part of the test hook (positions in client coordinates, as mouse events use). */
export interface PickTestHook {
  /** Where a bone's joint is drawn now, or null when the rig lacks it or it is off screen. */
  boneScreenPosition(name: string): [number, number] | null;
  /** The marked bone (as the rig names it) and whether the mark was in the last rendered picture. */
  marker(): { bone: string | null; shown: boolean };
  /** Renders now and returns the RGBA bytes drawn at a client position. */
  pixelAt(x: number, y: number): [number, number, number, number];
  /** Renders now and returns the whole drawing buffer (RGBA, rows top first, base64). */
  frameImage(): { width: number; height: number; rgba: string };
  /**
   * Where the shown model's vertex is drawn now, as three.js skins it on the CPU (SDEF included,
   * sdef.ts), in client coordinates; null without a model or off screen.
   */
  vertexScreenPosition(index: number): [number, number] | null;
  /** The same vertex in the world (three.js's coordinates: MMD's with z negated), or null. */
  vertexWorldPosition(index: number): [number, number, number] | null;
  /** Where a world point (three.js's coordinates) is drawn now, in client coordinates; null off screen. */
  worldScreenPosition(p: [number, number, number]): [number, number] | null;
}

export interface PreviewTestHook extends PickTestHook {
  boneWorldQuaternion(name: string): [number, number, number, number] | null;
  boneWorldPosition(name: string): [number, number, number] | null;
  cameraState(): ReturnType<typeof diag.cameraState> | null;
  frame(): number;
  perf(): { frameMs: number[]; poseMs: number[] };
  resetPerf(): void;
  /** Mean ms of pose evaluation over n frames (re-poses the current frame after). */
  timePose(n: number): number;
  /** Where played frames' time went since resetPerf() (see frame-profiler.ts). */
  breakdown(): FrameBreakdown;
  /** The renderer's WebGL context (on software GL it belongs to an OffscreenCanvas, not the page's canvas). */
  context(): WebGLRenderingContext | WebGL2RenderingContext;
  /** Drawing-buffer size in pixels. */
  bufferSize(): [number, number];
  /** three.js's live renderer.info.memory object (it keeps counting down as things are disposed). */
  liveMemory(): { geometries: number; textures: number };
  /** Filled on unmount (a live object): geometries/textures our disposal left before the renderer's own. */
  disposal(): { geometries: number; textures: number };
  /** The directional light: unit direction it shines along and its colour (three.js linear RGB). */
  lightState(): { direction: [number, number, number]; color: [number, number, number] };
  /** 'software' when WebGL runs on SwiftShader or similar. */
  gpu(): 'software' | 'hardware';
  info(): { model: string | null; bones: number; missingBones: number };
  /** Whether the figure or model is drawn (a motion's display-off key hides it). */
  shown(): boolean;
  /** The scene's other actors drawn beside the shown model (their scene keys, `id:model path` or `id:figure`). */
  companions(): string[];
  /** Client coordinates of another actor's bone joint (its companions() key), or null. */
  companionBoneScreenPosition(key: string, name: string): [number, number] | null;
  /** World position of another actor's bone as posed now (its companions() key), or null. */
  companionBoneWorldPosition(key: string, name: string): [number, number, number] | null;
  /** An actor's box in the world as posed now ('shown': the shown model or figure; else a companions() key), three.js axes; null when absent. */
  actorWorldBox(key: string): ReturnType<typeof diag.posedWorldBox>;
  /** How another actor's model is drawn (its companions() key): in the picture or not, where, its materials' opacity, how many have their texture; null when absent. */
  companionLook(key: string): ReturnType<typeof diag.companionLook>;
  /**
   * How frames reach the screen: 'page' (a WebGL canvas in the page: with a GPU, or `?present=sync`), or
   * on software GL through async-present.ts, 'async' (paused) or 'blocking' (playing); and how many
   * frames the presenter has shown, and whether one is still on its way (the page shows the one before).
   */
  presentation(): { mode: 'page' | 'async' | 'blocking'; presented: number; pending: boolean };
  /**
   * The shown model's self-shadow depth materials (a model with SDEF: one per material), their versions:
   * unchanged from one render to the next once textures are in, when each group is drawn with its own.
   */
  shadowDepthVersions(): number[];
  /** The model's outline: whether it is on, and how many materials draw one now. */
  outline(): { on: boolean; materials: number };
  /**
   * The shown model's materials: each one's colour texture (its name, the path the model stores; null when none
   * is on it) and its toon texture's bottom row (sRGB; a ramp's shade, [255, 255, 255] for the white one).
   */
  materialTextures(): { name: string; map: string | null; toonShade: number[] | null }[];
  /** The self-shadow applied now: the light casting a shadow map, and the mode and stored distance it follows. */
  selfShadow(): { casting: boolean; mode: number; distance: number };
  /** Whether the camera VMD's path (its line and key marks) is in the scene's picture now. */
  cameraPathDrawn(): boolean;
  /** The joint dots: whether they were in the last rendered picture, and how many joints they mark. */
  jointDots(): { shown: boolean; count: number };
  /** The pose handle: its bone, mode, the handle under the pointer, and client points on one ring or arrow (see preview-diagnostics.ts). */
  poseHandle(axis: 'X' | 'Y' | 'Z'): ReturnType<typeof diag.poseHandle>;
  /** Physics (physics-preview.ts): on, ready (Bullet loaded), the rigid-body view, each actor's counts, step times. */
  physics(): ReturnType<typeof diag.physicsState>;
  /**
   * An actor's physics bones as posed now ('shown' or a companions() key): name, world position and rotation,
   * MMD coordinates (model space, before the actor's stage), in bone order; [] without a world.
   */
  physicsBones(key: string): ReturnType<typeof diag.physicsBones>;
  /** An actor's rigid-body view: drawn body and joint centres (world), the highlighted one (see preview-diagnostics.ts). */
  rigidBodyView(key: string): ReturnType<typeof diag.rigidBodyView>;
  /** Paused physics steps run by the "Always" mode so far (preview-engine.ts idleSteps). */
  idleSteps(): number;
  /** The export's frame source walked from `from` over `frames` frames (see preview-diagnostics.ts physicsOffline). */
  physicsOffline(key: string, from: number, frames: number): ReturnType<typeof diag.physicsBones>;
}

declare global {
  interface Window {
    __vmdPreview?: PreviewTestHook;
  }
}

/** Installs `window.__vmdPreview`: the hook of the preview mounted when it is read, or undefined. */
export function installPreviewTestHook(): void {
  const hooks = new WeakMap<MountedPreview, PreviewTestHook>();
  Object.defineProperty(window, '__vmdPreview', {
    configurable: true,
    get: () => {
      const m = mountedPreview();
      if (!m) return undefined;
      let h = hooks.get(m);
      if (!h) hooks.set(m, (h = hookFor(m)));
      return h;
    },
  });
}

/** The queries about one mounted preview. */
function hookFor({ canvas: el, engine: e, info }: MountedPreview): PreviewTestHook {
  const hook: PreviewTestHook = {
    boneScreenPosition: (name) => {
      const r = el.getBoundingClientRect();
      const p = diag.boneScreenPosition(e, name, r.width, r.height);
      return p ? [r.left + p[0], r.top + p[1]] : null;
    },
    vertexScreenPosition: (index) => {
      const v = diag.vertexWorldPosition(e, index);
      return v ? hook.worldScreenPosition([v.x, v.y, v.z]) : null;
    },
    vertexWorldPosition: (index) => diag.vertexWorldPosition(e, index)?.toArray() ?? null,
    worldScreenPosition: (p) => {
      const r = el.getBoundingClientRect();
      const s = diag.worldScreenPosition(e, new THREE.Vector3(...p), r.width, r.height);
      return s ? [r.left + s[0], r.top + s[1]] : null;
    },
    marker: () => ({ bone: e.marked?.name ?? null, shown: e.marker.shown }),
    pixelAt: (x, y) => {
      const r = el.getBoundingClientRect();
      return diag.readPixel(e, x - r.left, y - r.top, r.width, r.height);
    },
    frameImage: () => diag.readFrame(e),
    boneWorldQuaternion: (n) => diag.boneWorldQuaternion(e.rig, n),
    boneWorldPosition: (n) => diag.boneWorldPosition(e.rig, n),
    cameraState: () => diag.cameraState(e),
    frame: () => e.currentFrame,
    perf: () => ({ frameMs: e.profiler.interval.values(), poseMs: e.profiler.pose.values() }),
    resetPerf: () => {
      e.profiler.clear();
      e.physics.stepMs.clear();
    },
    timePose: (n) => diag.timePose(e, n),
    breakdown: () => diag.breakdown(e),
    bufferSize: () => diag.bufferSize(e),
    context: () => e.renderer.getContext(),
    liveMemory: () => e.renderer.info.memory,
    disposal: () => e.disposal,
    lightState: () => diag.lightState(e.world.light),
    gpu: () => (e.software ? 'software' : 'hardware'),
    info: () => ({ model: info().model, bones: e.rig.bones.length, missingBones: info().missingBones }),
    shown: () => e.modelShown,
    companions: () => e.companions.keys,
    companionBoneScreenPosition: (key, name) => {
      const r = el.getBoundingClientRect();
      const p = e.companions.screenPosition(key, e.world.activeCamera, name, r.width, r.height);
      return p ? [r.left + p[0], r.top + p[1]] : null;
    },
    companionBoneWorldPosition: (key, name) => {
      const rig = e.companions.rig(key);
      return rig ? diag.boneWorldPosition(rig, name) : null;
    },
    actorWorldBox: (key) => {
      const mesh = key === 'shown' ? (e.world.model?.mesh ?? e.world.figure.mesh) : e.companions.mesh(key);
      return mesh ? diag.posedWorldBox(mesh) : null;
    },
    companionLook: (key) => {
      const rig = e.companions.rig(key);
      return rig ? diag.companionLook(rig) : null;
    },
    outline: () => e.world.outlineState(),
    materialTextures: () =>
      (e.world.model?.materials ?? []).map((m) => {
        const toon = toonTextureOf(m);
        const data = (toon?.image as { data?: Uint8Array } | undefined)?.data;
        return { name: m.name, map: m.map?.name ?? null, toonShade: data ? Array.from(data.subarray(data.length - 4, data.length - 1)) : null };
      }),
    selfShadow: () => ({ casting: e.world.light.castShadow, mode: e.world.selfShadow.mode, distance: e.world.selfShadow.distance }),
    cameraPathDrawn: () => e.world.cameraPathVisible,
    shadowDepthVersions: () => e.world.model?.shadowDepth.map((m) => m.version) ?? [],
    jointDots: () => ({ shown: e.dots.points.visible, count: e.dots.count }),
    poseHandle: (axis) => {
      const r = el.getBoundingClientRect();
      const h = diag.poseHandle(e, axis, r.width, r.height);
      return { ...h, points: h.points.map(([x, y]) => [r.left + x, r.top + y] as [number, number]) };
    },
    physics: () => diag.physicsState(e),
    physicsBones: (key) => diag.physicsBones(e, key),
    physicsOffline: (key, from, frames) => diag.physicsOffline(e, key, from, frames),
    rigidBodyView: (key) => diag.rigidBodyView(e, key),
    idleSteps: () => e.idleSteps,
    presentation: () => ({ mode: e.presenter.presentation, presented: e.presenter.presentedFrames, pending: e.presenter.presenting }),
  };
  return hook;
}
