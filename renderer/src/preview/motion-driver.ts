/**
 * What the motion does to the preview's scene at a frame: binds the document's tracks (and a camera/light
 * VMD loaded beside it) to the rig, poses the rig at a frame, hides the model where the motion's IK block
 * says 表示 off, and samples the camera and the light. It also says whether a pose changed the picture
 * (a snapshot of every bone, morph weight and the camera), so an unchanged pose need not be drawn.
 */
import { keyAtOrBefore, type CameraTrack, type LightTrack, type MotionTracks } from '../../../shared/vmd/tracks';
import { ikKey, shadowKey } from '../../../shared/vmd/records';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { sampleCamera, sampleLight, type CameraPose } from '../../../shared/vmd/sample';
import { followedCamera } from '../../../shared/scene/camera-follow';
import { animationFrameClock, FollowSamples, type FrameClock } from './follow-samples';
import { PoseBinding, ikSwitchesOf } from './pose-binding';
import { matchKey } from '../../../shared/pmx/model-inspect';
import type { FrameProfiler } from './frame-profiler';
import { DEFAULT_SHADOW_DISTANCE, type PreviewScene, type SelfShadowState } from './preview-scene';

export interface MotionBindingInfo {
  missingBones: string[];
  missingMorphs: string[];
  hasCamera: boolean;
  hasLight: boolean;
  /** Where the light keys shown come from: the extra camera/light motion, the motion itself, or none. */
  lightFrom: 'extra' | 'motion' | null;
  cameraCuts: number[];
}

/** The show/hide flag of every IK-block key (keys at or before a frame decide; none: always shown). */
export function visibilityKeys(doc: VmdDocument | null, tracks: MotionTracks | null): { frames: Uint32Array; shown: Uint8Array } | null {
  if (!doc || !tracks || tracks.ik.frames.length === 0) return null;
  const { frames, record } = tracks.ik;
  const shown = new Uint8Array(frames.length);
  for (let k = 0; k < frames.length; k++) shown[k] = ikKey(doc.ik, record[k]).visible ? 1 : 0;
  // A motion that never hides the model needs no per-frame look-up.
  return shown.includes(0) ? { frames, shown } : null;
}

/** Self-shadow keys read once from a document (mode and stored distance per key, sorted by frame). */
export interface ShadowKeys {
  frames: Uint32Array;
  mode: Uint8Array;
  distance: Float32Array;
}

/** The self-shadow in force at the frame shown: its mode (0 off, 1, 2), and whether a self-shadow key says so. */
export interface SelfShadowInForce {
  mode: number;
  byKey: boolean;
}

export function shadowKeysOf(doc: VmdDocument | null, tracks: MotionTracks | null): ShadowKeys | null {
  if (!doc || !tracks || tracks.shadow.frames.length === 0) return null;
  const { frames, record } = tracks.shadow;
  const mode = new Uint8Array(frames.length), distance = new Float32Array(frames.length);
  for (let k = 0; k < frames.length; k++) {
    const key = shadowKey(doc.shadow, record[k]);
    mode[k] = key.mode;
    distance[k] = key.distance;
  }
  return { frames, mode, distance };
}

/**
 * The self-shadow at frame f: the key at or before it (keys switch on their frame, never blend; before
 * the first key, the first key's). Without keys: MMD's default (mode 1, distance 8875) where the preview's
 * Self-shadow switch is on (`byDefault`), else off.
 */
export function selfShadowAt(keys: ShadowKeys | null, f: number, byDefault = false): SelfShadowState {
  if (!keys) return { mode: byDefault ? 1 : 0, distance: DEFAULT_SHADOW_DISTANCE };
  const k = Math.max(0, keyAtOrBefore(keys.frames, 0, keys.frames.length, f));
  return { mode: keys.mode[k], distance: keys.distance[k] };
}

export class MotionDriver {
  private doc: VmdDocument | null = null;
  private motion: MotionTracks | null = null;
  /** A camera/light VMD loaded into the preview beside the document (its camera and light win). */
  private extra: MotionTracks | null = null;
  /** Self-shadow keys: the extra camera VMD's when it has some, else the motion's. */
  private shadowOfExtra: ShadowKeys | null = null;
  private shadowOfMotion: ShadowKeys | null = null;
  /** The preview's Self-shadow switch: MMD's default self-shadow where no self-shadow key says otherwise. */
  private selfShadowByDefault = false;
  private poseBinding: PoseBinding | null = null;
  /** The motion's show/hide keys (the visibility byte of its IK block), or null when it has none. */
  private visibility: { frames: Uint32Array; shown: Uint8Array } | null = null;
  private pose: CameraPose | null = null;
  private at = 0;
  /** Whether the last poseAt() changed the picture (see snapshotChanged). */
  private changed = true;
  private snapshot = new Float64Array(0);
  /**
   * Camera follows a bone (shared/scene/camera-follow.ts; preview/camera-follow-source.ts sets it through
   * setFollow): the bone's world position at a frame, added to the sampled camera's target, in the preview, the
   * free view's camera path and the video alike. Null: none.
   */
  private follow: ((f: number) => readonly number[] | null) | null = null;
  /** The same follow's positions over the camera's range for its path, worked out in slices (follow-samples.ts). */
  private followSamples: FollowSamples | null = null;
  /** When the path's slices run: before animation frames (a test turns a fake clock). */
  followClock: FrameClock = animationFrameClock;
  /** Called when the motion starts or stops hiding the model (the pane says why the model is gone). */
  onHiddenChange: ((hidden: boolean) => void) | null = null;
  /**
   * Called when the self-shadow in force changes: its mode (0 off) and whether a self-shadow key rules it (else the
   * switch's default). The pane says why a model without toon shows none, also when a key turns it on with the switch off.
   */
  onSelfShadowChange: ((s: SelfShadowInForce) => void) | null = null;
  private inForce: SelfShadowInForce = { mode: 0, byKey: false };

  constructor(private readonly world: PreviewScene, private readonly profiler: FrameProfiler) {}

  get tracks(): MotionTracks | null {
    return this.motion;
  }
  /** The motion's document (its bytes: the physics toggles read them). */
  get document(): VmdDocument | null {
    return this.doc;
  }
  get binding(): PoseBinding | null {
    return this.poseBinding;
  }
  /** The frame last posed (fractional: interpolated sub-frames). */
  get frame(): number {
    return this.at;
  }
  /** The camera pose at the last posed frame, or null without a camera track. */
  get cameraPose(): CameraPose | null {
    return this.pose;
  }
  /** Whether the last poseAt() moved a bone, a morph, the camera or the visibility (or changed an effect). */
  get poseChanged(): boolean {
    return this.changed;
  }

  /**
   * Takes a motion (null: none). Returns false when only its curves changed: the workspace keeps the
   * same tracks object only for curve-only edits (it patches their curve bytes in place), with the same
   * keys, names and IK block, so the binding stands and a re-pose is enough. True: call rebind().
   * The camera path is redrawn either way: it samples the camera's curves between keys.
   */
  setMotion(doc: VmdDocument | null, tracks: MotionTracks | null): boolean {
    const curvesOnly = tracks !== null && tracks === this.motion && doc !== null && !!this.poseBinding;
    this.doc = doc;
    this.motion = tracks;
    this.world.setCameraPath(this.cameraTrack, this.followSamples);
    if (curvesOnly) return false;
    this.visibility = visibilityKeys(doc, tracks);
    this.shadowOfMotion = shadowKeysOf(doc, tracks);
    return true;
  }

  /** Whether the default self-shadow shows where no key rules (the Self-shadow switch, or the video's own choice while it renders). */
  get selfShadowDefault(): boolean {
    return this.selfShadowByDefault;
  }

  /** The Self-shadow switch: on, the default self-shadow shows where no key rules (applied at once, at the last frame posed). */
  setSelfShadowByDefault(on: boolean): void {
    this.selfShadowByDefault = on;
    this.showSelfShadow(this.at);
  }

  /** Sets the self-shadow in force at frame f on the scene, and tells onSelfShadowChange when its mode or source changed. */
  private showSelfShadow(f: number): void {
    const keys = this.shadowOfExtra ?? this.shadowOfMotion;
    const s = selfShadowAt(keys, f, this.selfShadowByDefault);
    this.world.setSelfShadow(s);
    const byKey = !!keys;
    if (s.mode !== this.inForce.mode || byKey !== this.inForce.byKey) {
      this.inForce = { mode: s.mode, byKey };
      this.onSelfShadowChange?.(this.inForce);
    }
  }

  /**
   * Camera follows a bone (null: none): the next poseAt() uses it at once; the camera path is drawn again with it
   * as its samples come in (the last follow's unfinished ones are dropped).
   */
  setFollow(follow: ((f: number) => readonly number[] | null) | null): void {
    if (follow === this.follow) return;
    this.follow = follow;
    this.followSamples?.dispose();
    this.followSamples = follow ? new FollowSamples(follow, this.followClock) : null;
    this.world.setCameraPath(this.cameraTrack, this.followSamples);
  }

  /** Takes (or with null drops) a camera/light VMD shown together with the document's motion. */
  setCameraMotion(tracks: MotionTracks | null, doc: VmdDocument | null = null): void {
    this.extra = tracks;
    this.shadowOfExtra = shadowKeysOf(doc, tracks);
    this.world.setCameraPath(this.cameraTrack, this.followSamples);
  }

  /** The camera track shown: the extra camera VMD's, else the document's. */
  get cameraTrack(): CameraTrack | null {
    if (this.extra && this.extra.camera.frames.length) return this.extra.camera;
    return this.motion && this.motion.camera.frames.length ? this.motion.camera : null;
  }

  get lightTrack(): LightTrack | null {
    if (this.extra && this.extra.light.frames.length) return this.extra.light;
    return this.motion && this.motion.light.frames.length ? this.motion.light : null;
  }

  /** Binds the motion to the scene's rig now (after a new motion or a new model); pose afterwards. */
  rebind(): PoseBinding {
    const model = this.world.model;
    // Attach only the morph targets this motion reaches (see BuiltModel.selectMorphs), and a dragged morph's.
    const names = this.motion?.morphs.names ?? [];
    this.draftSelected = this.morphDraft?.name ?? null;
    model?.selectMorphs(this.draftSelected === null ? names : [...names, this.draftSelected]);
    const influences = model?.mesh.morphTargetInfluences ?? null;
    this.poseBinding = new PoseBinding(this.world.rig, this.motion, ikSwitchesOf(this.doc, this.motion), model?.morphs, influences);
    this.poseBinding.setMorphDraft(this.morphDraft);
    return this.poseBinding;
  }

  /** A morph slider's weight while it is dragged (the morph panel; null: none): see PoseBinding.setMorphDraft. */
  private morphDraft: { name: string; weight: number } | null = null;
  /** The draft morph whose targets the last rebind selected. */
  private draftSelected: string | null = null;

  /**
   * Shows morph `name` at `weight` (null: the motion's weights again) at the next poseAt(). Returns true when the
   * binding must be built again first (rebind()): the motion lacks the morph, so its targets are not attached yet.
   */
  setMorphDraft(d: { name: string; weight: number } | null): boolean {
    this.morphDraft = d && { name: d.name, weight: d.weight };
    if (d && this.world.model && d.name !== this.draftSelected) {
      const key = matchKey(d.name);
      if (!(this.motion?.morphs.names ?? []).some((n) => matchKey(n) === key)) return true;
    }
    this.poseBinding?.setMorphDraft(this.morphDraft);
    return false;
  }

  bindingInfo(): MotionBindingInfo {
    return {
      missingBones: this.poseBinding?.missingBones ?? [],
      missingMorphs: this.world.model ? (this.poseBinding?.missingMorphs ?? []) : [],
      hasCamera: !!this.cameraTrack,
      hasLight: !!this.lightTrack,
      lightFrom: this.extra && this.extra.light.frames.length ? 'extra' : this.lightTrack ? 'motion' : null,
      cameraCuts: this.world.cameraCuts,
    };
  }

  /** Poses the rig, the camera, the light and the visibility at frame f (timed into the profiler). */
  poseAt(f: number): void {
    const t0 = performance.now();
    this.at = f;
    let poseMs = 0;
    const w = this.world;
    if (this.poseBinding) {
      this.poseBinding.apply(f);
      w.model?.edges.sync();
      poseMs = this.poseBinding.lastPoseMs;
      this.profiler.pose.push(poseMs);
      w.posed = true;
    }
    const cam = this.cameraTrack;
    const sampled = cam ? sampleCamera(cam, f) : null;
    this.pose = sampled && this.follow ? followedCamera(sampled, this.follow(f)) : sampled;
    w.showCamera(this.pose);
    const vis = this.visibility;
    const hidden = !!vis && vis.shown[keyAtOrBefore(vis.frames, 0, vis.frames.length, f)] === 0;
    if (hidden !== w.hiddenByMotion) {
      w.setHidden(hidden);
      this.onHiddenChange?.(hidden);
    }
    this.showSelfShadow(f);
    const light = this.lightTrack;
    // Without a light track the default light stays put (showLight(null) does nothing then).
    w.showLight(light ? sampleLight(light, f) : null);
    // After the light: the ground shadow hides itself under a light from below or the side, read from the scene's
    // light, which must be this frame's (before it, a jump from 300 to a horizontal light at 600 smeared a band).
    if (this.poseBinding) w.model?.groundShadow.sync();
    // Material and UV morphs change the picture without moving a bone: the binding says when they did.
    const moved = this.snapshotChanged();
    this.changed = moved || (this.poseBinding?.effectsChanged ?? false);
    this.profiler.scene.push(performance.now() - t0 - poseMs);
  }

  /** Writes the current pose into `snapshot`; true when any value differs from what it held. */
  private snapshotChanged(): boolean {
    const bones = this.world.rig.bones;
    const influences = this.world.model?.mesh.morphTargetInfluences ?? [];
    const cp = this.pose;
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
    put(this.world.hiddenByMotion ? 1 : 0);
    if (cp) {
      put(cp.target[0]), put(cp.target[1]), put(cp.target[2]);
      put(cp.rotation[0]), put(cp.rotation[1]), put(cp.rotation[2]);
      put(cp.distance), put(cp.fov), put(cp.perspective);
      put(1), put(0);
    } else for (let i = 0; i < 11; i++) put(-1);
    return changed;
  }
}
