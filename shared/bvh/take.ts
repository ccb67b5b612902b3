/**
 * A motion as a model plays it, reduced to its humanoid bones: per frame, each part's world rotation
 * and the hips' world position (shared/skeleton with the motion's IK on/off keys and the model's bone
 * morphs: append and IK solved).
 * export.ts writes it as BVH, vrma.ts as VRM Animation. The parts form a tree (hips → spine → chest →
 * neck → head, the shoulders under the highest spine part, the legs under the hips) whatever the
 * model's own parenting (MMD's 上半身 and 下半身 are siblings): world rotations are what is kept, a
 * writer takes each part's local rotation against its part parent.
 */
import { denseRefusal } from '../edit-core/dense-limit';
import type { ModelData } from '../pmx/model-types';
import { BoneNameIndex } from '../retarget/bone-names';
import { buildSkeleton, MotionPoser, Pose, type Skeleton } from '../skeleton';
import type { Vec3 } from '../vmd/records';
import { buildTracks, type MotionTracks } from '../vmd/tracks';
import { sampleMorph } from '../vmd/sample';
import type { VmdDocument } from '../vmd/vmd-document';
import type { CodecError, Diagnostic } from '../vmd/errors';
import { FINGERS, HUMANOID_PARTS, MMD_BONE_OF, type HumanoidPart } from './humanoid';
import { len, sub } from './quat';
import { isFoot, modelTip } from './retarget';
import { count, plural, agree } from '../i18n/plural';

/** The part a part hangs from in the take's tree (the first of these the model has). */
const PART_PARENTS = {
  hips: [], spine: ['hips'], chest: ['spine', 'hips'], upperChest: ['chest', 'spine', 'hips'], neck: ['upperChest', 'chest', 'spine', 'hips'], head: ['neck', 'upperChest', 'chest', 'spine', 'hips'],
  leftShoulder: ['upperChest', 'chest', 'spine', 'hips'], rightShoulder: ['upperChest', 'chest', 'spine', 'hips'],
  leftUpperArm: ['leftShoulder', 'upperChest', 'chest', 'spine', 'hips'], rightUpperArm: ['rightShoulder', 'upperChest', 'chest', 'spine', 'hips'],
  leftLowerArm: ['leftUpperArm'], rightLowerArm: ['rightUpperArm'], leftHand: ['leftLowerArm'], rightHand: ['rightLowerArm'],
  leftUpperLeg: ['hips'], rightUpperLeg: ['hips'], leftLowerLeg: ['leftUpperLeg'], rightLowerLeg: ['rightUpperLeg'],
  leftFoot: ['leftLowerLeg'], rightFoot: ['rightLowerLeg'], leftToes: ['leftFoot'], rightToes: ['rightFoot'],
  leftEye: ['head', 'neck'], rightEye: ['head', 'neck'],
  ...fingerParents('left'),
  ...fingerParents('right'),
} as unknown as Readonly<Record<HumanoidPart, readonly HumanoidPart[]>>;

/** A finger part hangs from the finger's part before it, else the hand (a model without 親指０: 親指１ from 手首). */
function fingerParents(side: 'left' | 'right'): Record<string, HumanoidPart[]> {
  const out: Record<string, HumanoidPart[]> = {};
  const hand = `${side}Hand` as HumanoidPart;
  // FINGERS lists each finger's three parts from the hand out: thumb, index, middle, ring, little.
  const chains = [0, 3, 6, 9, 12].map((i) => FINGERS.slice(i, i + 3));
  for (const c of chains) c.forEach((f, i) => (out[`${side}${f}`] = [...c.slice(0, i).reverse().map((x) => `${side}${x}` as HumanoidPart), hand]));
  return out;
}

/** Parts whose tip is written where nothing hangs from them (an End Site in BVH): the chain ends. */
const TIPPED: ReadonlySet<HumanoidPart> = new Set<HumanoidPart>(['head', 'leftHand', 'rightHand', 'leftFoot', 'rightFoot', 'leftToes', 'rightToes', 'leftEye', 'rightEye', ...HUMANOID_PARTS.filter((p) => /Distal$/.test(p))]);

export interface HumanoidTake {
  /** Parts the model has, parents first. */
  parts: HumanoidPart[];
  /** Index into parts of each part's parent, −1 for the hips. */
  parent: number[];
  /** Model bone per part. */
  bones: number[];
  /** Rest world position per part, MMD coordinates. */
  restPosition: Vec3[];
  /** Rest tip (world) of chain-end parts, or null. */
  tip: (Vec3 | null)[];
  frames: number;
  /** frames × parts × 4, world rotations, MMD coordinates. */
  worldRotation: Float64Array;
  /** frames × 3: the hips bone's world position. */
  hipsPosition: Float64Array;
  /** Motion bones the model lacks. */
  missingBones: string[];
  /**
   * Bones the motion moves (a key off rest) that the model has but whose motion reaches none of the parts:
   * neither a part's bone nor above one, nor the source of an append or the goal of an IK chain that turns
   * one (両目 is in the eyes, 足ＩＫ in the legs, センター in the hips; ネクタイ, hair, 左つま先 are not).
   */
  leftOut: string[];
  /** Morph weights per frame for every morph track of the motion (by name). */
  morphs: Map<string, Float64Array>;
}

/** Plays `doc` on `model` frame by frame (0 … its last key) and keeps the humanoid parts. */
export function humanoidTake(doc: VmdDocument, model: ModelData): { ok: true; value: HumanoidTake } | { ok: false; error: CodecError } {
  const skel = buildSkeleton(model.bones);
  // Bones found as the retargeting module finds them (spelling variants, English names).
  const names = new BoneNameIndex(model.bones);
  const parts: HumanoidPart[] = [];
  const bones: number[] = [];
  for (const p of HUMANOID_PARTS) {
    const name = MMD_BONE_OF[p];
    const b = name ? names.find(name) : -1;
    // A part hangs from one the model has (fingers without a 手首 would be a second root): else it is left out.
    if (b >= 0 && (p === 'hips' || PART_PARENTS[p].some((q) => parts.includes(q)))) {
      parts.push(p);
      bones.push(b);
    }
  }
  if (!parts.includes('hips')) return { ok: false, error: { code: 'E_RETARGET', message: 'the model has no 下半身 bone to be the hips' } };
  const parent = parts.map((p) => {
    for (const q of PART_PARENTS[p]) {
      const k = parts.indexOf(q);
      if (k >= 0) return k;
    }
    return -1;
  });
  // Parents before children: HUMANOID_PARTS lists them so except the shoulders' spine parents, which come earlier too.
  const RP = skel.restPosition;
  const restPosition = bones.map((b): Vec3 => [RP[3 * b], RP[3 * b + 1], RP[3 * b + 2]]);
  // The tip as the import aligns a bone (retarget.ts modelTip): a foot without a tail (the standard skeleton's
  // 足首) has it at its one child (つま先), so an export without --model ends the feet in an End Site too.
  const tip = parts.map((p, k): Vec3 | null => {
    if (!TIPPED.has(p)) return null;
    const t = modelTip(skel, bones[k], isFoot(p));
    return t && len(sub(t, restPosition[k])) > 1e-6 ? t : null;
  });
  const tracks = buildTracks(doc);
  const frames = tracks.lastFrame + 1;
  const dense = denseRefusal('playing the motion on the model', 0, tracks.lastFrame, parts.length);
  if (dense) return { ok: false, error: dense };
  // With the model's bone morphs (MMD rule, shared/skeleton/bone-morphs.ts): the take is the motion as the
  // model plays it, and BVH has no morph channels to carry them; a VRM expression cannot move bones either.
  const poser = new MotionPoser(skel, doc, tracks, model);
  const pose = new Pose(skel);
  const n = parts.length;
  const worldRotation = new Float64Array(frames * n * 4);
  const hipsPosition = new Float64Array(frames * 3);
  const hb = bones[parts.indexOf('hips')];
  for (let f = 0; f < frames; f++) {
    poser.poseAt(pose, f);
    for (let k = 0; k < n; k++) worldRotation.set(pose.worldRotation.subarray(4 * bones[k], 4 * bones[k] + 4), (f * n + k) * 4);
    hipsPosition.set(pose.worldPosition.subarray(3 * hb, 3 * hb + 3), 3 * f);
  }
  const leftOut = leftOutBones(skel, bones, tracks, poser.trackBone);
  const morphs = new Map<string, Float64Array>();
  const mt = tracks.morphs;
  mt.names.forEach((name, t) => {
    const w = new Float64Array(frames);
    for (let f = 0; f < frames; f++) w[f] = sampleMorph(mt, t, f);
    morphs.set(name, w);
  });
  return { ok: true, value: { parts, parent, bones, restPosition, tip, frames, worldRotation, hipsPosition, missingBones: poser.missingBones, leftOut, morphs } };
}

/** HumanoidTake.leftOut: the moved tracks' bones whose motion reaches no part bone. */
function leftOutBones(skel: Skeleton, partBones: readonly number[], tracks: MotionTracks, trackBone: Int32Array): string[] {
  const reach = new Uint8Array(skel.count);
  const up = (b: number) => {
    for (let x = b, n = 0; x >= 0 && x < skel.count && !reach[x] && n < skel.count; x = skel.parent[x], n++) reach[x] = 1;
  };
  for (const b of partBones) up(b);
  // Appends and IK chains carry a bone's motion into others: to a fixed point.
  for (let changed = true; changed; ) {
    changed = false;
    skel.bones.forEach((b, i) => {
      const src = b.appendParent;
      if (reach[i] && src >= 0 && src < skel.count && !reach[src]) {
        up(src);
        changed = true;
      }
      const ik = skel.iks[i];
      if (ik && !reach[i] && ik.links.some((l) => reach[l.bone])) {
        up(i);
        changed = true;
      }
    });
  }
  const bt = tracks.bones;
  const out: string[] = [];
  bt.names.forEach((name, t) => {
    const b = trackBone[t];
    if (b < 0 || reach[b]) return;
    for (let k = bt.start[t]; k < bt.start[t + 1]; k++) {
      const p = bt.position.subarray(3 * k, 3 * k + 3), r = bt.rotation.subarray(4 * k, 4 * k + 4);
      if (Math.abs(p[0]) + Math.abs(p[1]) + Math.abs(p[2]) > 1e-6 || Math.abs(Math.abs(r[3]) - 1) > 1e-7) {
        out.push(name);
        return;
      }
    }
  });
  return out;
}

/** What an export says of HumanoidTake.leftOut (null: none; the first 12 named), with its code, for the command line and the batch alike. */
export function leftOutWarning(names: readonly string[]): Diagnostic | null {
  if (!names.length) return null;
  const n = names.length, shown = names.slice(0, 12).join(' '), more = n - 12;
  const message = `${plural(count(n), 'keyed bone')} ${agree(n, 'is', 'are')} not in the humanoid skeleton and ${agree(n, 'was', 'were')} left out: ${shown}${more > 0 ? ` and ${more} more` : ''}`;
  return more > 0 ? { code: 'W_EXPORT_BONES_LEFT_OUT_MORE', message, params: { n, names: shown, more } } : { code: 'W_EXPORT_BONES_LEFT_OUT', message, params: { n, names: shown } };
}
