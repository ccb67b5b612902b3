/**
 * Camera follows a bone (MMD's カメラ・照明 panel, モデル/ボーン追従; MikuMikuMoving has the same): the camera's keyed
 * target is taken relative to a chosen actor's bone, so at each frame the target is the keyed target plus that
 * bone's world position; rotation, distance, FOV and perspective are the keys' own. A VMD cannot hold it (MMD
 * keeps it in its .pmm project), so the scene file does (`cameraFollow`, scene-file.ts).
 *
 * The bone's world position is the one shared/skeleton works out (forward kinematics, append, IK; the same
 * evaluation the bakes and retargeting use), moved by the actor's stage: the same at every frame in the preview,
 * in the video and in a bake. A bone physics moves follows as its keys pose it (physics is not simulated here).
 *
 * `bakeFollow` writes the camera keys that give the same picture with no follow, for MMD and other players.
 */
import type { ModelData } from '../pmx/model-types';
import { cameraPosition } from '../vmd/camera';
import type { Vec3 } from '../vmd/records';
import { cameraInterpolation } from '../vmd/records';
import { sampleCamera, type CameraPose } from '../vmd/sample';
import type { CameraTrack, MotionTracks } from '../vmd/tracks';
import { blockFromRecords, type VmdDocument } from '../vmd/vmd-document';
import { encodeCameraRecord } from '../vmd/vmd-build';
import { bonesNeededFor, buildSkeleton, Pose } from '../skeleton/skeleton';
import { MotionPoser } from '../skeleton/motion-poser';
import { matchKey } from '../pmx/model-inspect';
import type { ActorStage, CameraFollow } from './scene-file';

// The scene file's field (scene-file.ts holds it, so the file format depends on nothing that reads it).
export type { CameraFollow };

/** The camera pose with its target moved by `at` (a bone's world position), its position worked out again. */
export function followedCamera(pose: CameraPose, at: readonly number[] | null): CameraPose {
  if (!at) return pose;
  const target: Vec3 = [pose.target[0] + at[0], pose.target[1] + at[1], pose.target[2] + at[2]];
  return { ...pose, target, position: cameraPosition(target, pose.rotation, pose.distance) };
}

/** A point of the actor's model space placed on the stage (MMD coordinates): turned about Y by `turn`°, then moved. */
export function onStage(p: readonly number[], stage: ActorStage | null | undefined): Vec3 {
  if (!stage) return [p[0], p[1], p[2]];
  const a = (stage.turn * Math.PI) / 180;
  const c = Math.cos(a), s = Math.sin(a);
  // A positive turn turns as a positive Y rotation of a bone key (MMD's left-handed Y): x' = c·x + s·z, z' = −s·x + c·z.
  return [stage.position[0] + c * p[0] + s * p[2], stage.position[1] + p[1], stage.position[2] - s * p[0] + c * p[2]];
}

/**
 * One actor's bone, posed by its motion at any frame: its world position in MMD coordinates, stage included.
 * `bone` is null when the model has no bone of that name (the follow is then off; the caller says so).
 */
export class BoneFollower {
  readonly bone: number | null;
  private readonly pose: Pose;
  private readonly poser: MotionPoser;
  /** The bones the followed one depends on (bonesNeededFor): a few a frame, not the whole model. */
  private readonly only: Uint8Array | undefined;
  /** Positions worked out so far, by frame (the preview, the camera path and a bake ask for the same frames again). */
  private readonly cache = new Map<number, Vec3>();

  constructor(
    model: Pick<ModelData, 'bones'> & Partial<Pick<ModelData, 'format' | 'morphs'>>,
    doc: VmdDocument | null,
    tracks: MotionTracks | null,
    boneName: string,
    private readonly stage: ActorStage | null = null,
  ) {
    const skeleton = buildSkeleton(model.bones);
    this.bone = skeleton.byKey.get(matchKey(boneName)) ?? null;
    this.pose = new Pose(skeleton);
    this.poser = new MotionPoser(skeleton, doc, tracks, model.format && model.morphs ? { format: model.format, morphs: model.morphs } : null);
    this.only = this.bone === null ? undefined : bonesNeededFor(skeleton, this.bone);
  }

  /** The bone's world position at frame f (fractional allowed), or null without the bone. */
  at(f: number): Vec3 | null {
    const b = this.bone;
    if (b === null) return null;
    const known = this.cache.get(f);
    if (known) return known;
    this.poser.apply(this.pose, f, this.only);
    this.pose.evaluate('all', this.poser.ikEnabledAt(f), this.only);
    const w = this.pose.worldPosition;
    const p = onStage([w[3 * b], w[3 * b + 1], w[3 * b + 2]], this.stage);
    // Playback asks for fractional frames without end: only so many are kept.
    if (this.cache.size >= 100_000) this.cache.clear();
    this.cache.set(f, p);
    return p;
  }
}

/** Two bone positions closer than this (MMD units) count as the bone not moving (the bake keeps the camera's own keys there). */
export const FOLLOW_STILL = 1e-5;

const same = (a: readonly number[], b: readonly number[]) => Math.abs(a[0] - b[0]) <= FOLLOW_STILL && Math.abs(a[1] - b[1]) <= FOLLOW_STILL && Math.abs(a[2] - b[2]) <= FOLLOW_STILL;

/** What bakeFollow wrote: the document and its camera key count. */
export interface FollowBake {
  doc: VmdDocument;
  keys: number;
}

/**
 * The camera document `doc` (its tracks `tracks`) with the follow written into its camera keys, over frames
 * 0…`last`, so that it plays the same with no follow (in MMD, or here with the follow off). The rule, as the
 * dialog says it: between two of the camera's keys (and before the first, after the last) where the bone does
 * not move (FOLLOW_STILL), the two keys are kept with their curves, their targets moved by where the bone
 * stands; where it moves, a key at every frame (keys one frame apart play as cuts, never sliding, as in MMD, so
 * each frame shows exactly the followed camera; its FOV rounded to the whole degree a VMD stores, where a FOV is
 * animating). Light and self-shadow keys stay as they are.
 */
export function bakeFollow(doc: VmdDocument, tracks: MotionTracks, boneAt: (f: number) => readonly number[], last: number): FollowBake {
  const cam: CameraTrack = tracks.camera;
  const n = cam.frames.length;
  if (n === 0) return { doc, keys: 0 };
  const end = Math.max(last, cam.frames[n - 1]);
  const bone: (readonly number[])[] = [];
  for (let f = 0; f <= end; f++) bone.push(boneAt(f));
  // The anchors: the camera's keys in 0…end, and both ends.
  const anchors = [...new Set([0, ...Array.from(cam.frames).filter((f) => f <= end), end])].sort((a, b) => a - b);
  const keyAt = new Map<number, number>();
  for (let k = 0; k < n; k++) keyAt.set(cam.frames[k], cam.record[k]);
  const out = new Map<number, Uint8Array>();
  const put = (f: number, keepCurve: boolean) => {
    if (out.has(f) && !keepCurve) return;
    const p = sampleCamera(cam, f)!;
    const at = bone[f];
    const rec = keepCurve && keyAt.has(f) ? cameraInterpolation(doc.camera, keyAt.get(f)!) : undefined;
    out.set(f, encodeCameraRecord({ frame: f, distance: p.distance, target: [p.target[0] + at[0], p.target[1] + at[1], p.target[2] + at[2]], rotation: p.rotation, fov: p.fov, perspective: p.perspective, interpolation: rec ? rec.slice() : undefined }));
  };
  for (let i = 0; i + 1 < anchors.length || i === 0; i++) {
    const a = anchors[i], b = anchors[Math.min(i + 1, anchors.length - 1)];
    let still = true;
    for (let f = a + 1; f <= b && still; f++) still = same(bone[f], bone[a]);
    if (still) {
      put(a, true);
      // The segment's curve is its right key's: kept when that is the camera's own key (its left is then one too, or the ends' hold).
      out.delete(b);
      put(b, true);
    } else for (let f = a; f <= b; f++) put(f, f === a || f === b);
    if (anchors.length === 1) break;
  }
  const frames = [...out.keys()].sort((x, y) => x - y);
  return { doc: { ...doc, camera: blockFromRecords('camera', frames.map((f) => out.get(f)!)) }, keys: frames.length };
}
