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
import { blockFromRecords, recordBytes, type VmdDocument } from '../vmd/vmd-document';
import { encodeCameraRecord } from '../vmd/vmd-build';
import { bonesNeededFor, buildSkeleton, Pose } from '../skeleton/skeleton';
import { MotionPoser } from '../skeleton/motion-poser';
import { matchKey } from '../pmx/model-inspect';
import type { ActorStage, CameraFollow, CameraFollowSpan } from './scene-file';

// The scene file's field (scene-file.ts holds it, so the file format depends on nothing that reads it).
export type { CameraFollow, CameraFollowSpan };

/**
 * The span in force at frame `f` (fractional allowed) among `spans` (MMD sets the follow per camera key, a later
 * key with 追従なし ending it, nufollow §2): the one with from ≤ f ≤ to (`to` null: to the end), the one starting
 * latest where two cover f; none outside every span (the camera's own keys play there).
 */
export function spanAt<S extends { from: number; to: number | null }>(spans: readonly S[], f: number): S | null {
  let found: S | null = null;
  for (const s of spans) if (f >= s.from && (s.to === null || f <= s.to) && (!found || s.from >= found.from)) found = s;
  return found;
}

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
  return bakeFollowSpans(doc, tracks, [{ from: 0, to: last, at: boneAt }], last);
}

/** A span of the bake: frames from…to (whole frames), and the followed bone's position in it. */
export interface BakeSpan {
  from: number;
  to: number;
  at: (f: number) => readonly number[] | null;
}

/**
 * bakeFollow over spans (nufollow §2): the follow is written into the camera's keys only inside `spans`; outside
 * them the camera plays its own keys, and each of its keys there is kept byte for byte. The rule of bakeFollow
 * holds with the bone taken as standing at the origin outside the spans, and one more: a stretch between two
 * anchors is kept as two keys with their curve only where both are the camera's own keys (or the hold before the
 * first, after the last); a stretch cut by a span's start or end gets a key every frame, so every whole frame
 * shows exactly the camera the preview shows (followed inside, its own keys outside).
 */
export function bakeFollowSpans(doc: VmdDocument, tracks: MotionTracks, spans: readonly BakeSpan[], last: number): FollowBake {
  const cam: CameraTrack = tracks.camera;
  const n = cam.frames.length;
  if (n === 0) return { doc, keys: 0 };
  const lastKey = cam.frames[n - 1];
  // The last frame baked: a span reaching it holds on after it (as the follow does to the end).
  const end = Math.max(last, lastKey);
  const ranges = spans.map((s) => ({ ...s, from: Math.max(0, Math.round(s.from)), to: Math.min(end, Math.round(s.to)) })).filter((s) => s.to >= s.from);
  const ZERO = [0, 0, 0] as const;
  const inSpan = new Uint8Array(end + 1);
  const bone: (readonly number[])[] = [];
  for (let f = 0; f <= end; f++) {
    const s = spanAt(ranges, f);
    if (s) inSpan[f] = 1;
    bone.push(s ? (s.at(f) ?? ZERO) : ZERO);
  }
  // The anchors: the camera's keys, each span's first frame and the frame after its last; 0 and the last frame
  // when a span covers them.
  const anchorSet = new Set<number>(Array.from(cam.frames));
  // Each span that ends before the end gives the camera its own keys back the frame after it.
  for (const s of ranges) anchorSet.add(s.from).add(Math.min(s.to + 1, end));
  if (inSpan[0]) anchorSet.add(0);
  if (inSpan[end]) anchorSet.add(end);
  const anchors = [...anchorSet].filter((f) => f <= end).sort((a, b) => a - b);
  const keyAt = new Map<number, number>();
  for (let k = 0; k < n; k++) keyAt.set(cam.frames[k], cam.record[k]);
  const firstKey = cam.frames[0];
  // A stretch's ends that play as the camera's own curve: its keys, or the holds before the first and after the last.
  const own = (f: number) => keyAt.has(f) || f <= firstKey || f >= lastKey;
  const out = new Map<number, Uint8Array>();
  const put = (f: number, keepCurve: boolean) => {
    if (out.has(f) && !keepCurve) return;
    // Outside the spans, the camera's own key as it was.
    if (!inSpan[f] && keyAt.has(f)) {
      out.set(f, recordBytes(doc.camera, keyAt.get(f)!).slice());
      return;
    }
    const p = sampleCamera(cam, f)!;
    const at = bone[f];
    const rec = keepCurve && keyAt.has(f) ? cameraInterpolation(doc.camera, keyAt.get(f)!) : undefined;
    out.set(f, encodeCameraRecord({ frame: f, distance: p.distance, target: [p.target[0] + at[0], p.target[1] + at[1], p.target[2] + at[2]], rotation: p.rotation, fov: p.fov, perspective: p.perspective, interpolation: rec ? rec.slice() : undefined }));
  };
  for (let i = 0; i + 1 < anchors.length || i === 0; i++) {
    const a = anchors[i], b = anchors[Math.min(i + 1, anchors.length - 1)];
    let still = own(a) && own(b);
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
