/**
 * A motion capture skeleton's motion onto an MMD model, frame by frame (the samples the fitter then
 * turns into keys: import.ts).
 *
 * Rest alignment, bone by bone: for each part both skeletons have (humanoid.ts), the model bone's rest
 * segment direction e (to the next part's bone, or its tail) is turned onto the capture's reference
 * direction d0 (joint to the next part's joint, or its End Site) by the shortest rotation A. The
 * reference is the capture's rest pose (its offsets: a T-pose, an A-pose or whatever it was built in)
 * or, when asked, its first frame. At frame t the bone's world rotation is then
 *   Q(t) = R(t) · R0⁻¹ · A,
 * R the joint's world rotation (R0 at the reference), so the bone twists as the joint does; a last
 * shortest rotation turns Q(t)·e onto the joint's actual segment direction d(t) (which parts the model
 * lacks in between, say a second chest bone, would otherwise bend away). The key's local rotation is
 * the parent's world rotation (posed by shared/skeleton, append and all) undone from Q(t).
 *
 * Root: the hips' position goes to センター, scaled by leg length (model thigh + shin over the
 * capture's), X/Z as captured, Y shifted once so the lowest a foot's tip goes matches the capture's
 * lowest (scaled): a model whose legs are bent differently at rest still stands on the floor.
 *
 * Feet (footIk): the model's legs posed by the rotations above give the ankle and toe positions; the
 * leg IK bones (足ＩＫ, つま先ＩＫ) take those positions, and while the capture's heel or toe is in
 * contact (low and slow: contacts()) its X/Z is held where the contact began. Without footIk the leg IK
 * chains are switched off at frame 0 so the leg rotations play as captured.
 */
import type { ModelData } from '../pmx/model-types';
import { BoneNameIndex } from '../retarget/bone-names';
import { buildSkeleton, Pose, type Skeleton } from '../skeleton';
import { MotionBoneMorphs } from '../skeleton/bone-morphs';
import { failure, optionRefusal, success, type Outcome } from '../vmd/errors';
import type { Quat, Vec3 } from '../vmd/records';
import type { BvhMotion } from './bvh-reader';
import { bvhWorldAt, newWorld, type BvhWorld } from './bvh-pose';
import { HUMANOID_PARTS, isFingerPart, MMD_BONE_OF, SEGMENT_END, type HumanoidPart } from './humanoid';
import { alignSign, fromTo, len, qconj, qmul, rotate, sub } from './quat';

export interface RetargetOptions {
  /** Rest alignment reference: the capture's rest pose (offsets) or its first frame. */
  rest?: 'rest' | 'first';
  /** Scale of the hips' translation; default: model leg length / capture leg length. */
  scale?: number;
  /** Plant the feet with the leg IK bones (default: when the model has 足ＩＫ). */
  footIk?: boolean;
  /**
   * Morph weights per capture frame, keyed with the bones (a VRM Animation's expressions). Where one is a
   * bone morph of the model, the bones are keyed so that they play, morph applied, the pose solved here.
   */
  morphs?: { name: string; weights: Float64Array }[];
  /**
   * The capture's frame rate, when its Frame Time is wrong (import-bvh --fps; default: 1 / Frame Time): the
   * contacts' speeds and shortest run and the goals' easing take it, as the re-timing does (import.ts), so a
   * foot is judged at the speed it plays at.
   */
  fps?: number;
}

/** The capture rate: `fps` if given, else 1 / Frame Time, snapped to a whole number when within 0.01 of one (.0083333 → 120). */
export function captureRate(m: BvhMotion, fps?: number): number {
  const r = fps ?? 1 / m.frameTime;
  return Math.abs(r - Math.round(r)) < 0.01 ? Math.round(r) : r;
}

/** One mapped part: capture joint and model bone. */
export interface PartBinding {
  part: HumanoidPart;
  joint: number;
  bone: number;
}

/** A contact of one foot point with the floor, in capture frames [from, to] inclusive. */
export interface Contact {
  side: 'left' | 'right';
  point: 'heel' | 'toe';
  from: number;
  to: number;
}

/** Per capture frame: the model's key values (local, MMD coordinates) for each keyed bone. */
export interface RetargetResult {
  skeleton: Skeleton;
  /** Keyed bones (skeleton indices): mapped parts, センター, and the leg IK bones with footIk. */
  bones: number[];
  /** frames × bones × 3 translations and × 4 rotations, frame-major. */
  translation: Float64Array;
  rotation: Float64Array;
  frameCount: number;
  bindings: PartBinding[];
  /** Parts the capture has that the model cannot play (no such bone). */
  unboundParts: HumanoidPart[];
  scale: number;
  footIk: boolean;
  /** IK bones switched off (leg IK without footIk; chains through mapped bones). */
  ikOff: number[];
  contacts: Contact[];
}

const LEG_SIDES = ['left', 'right'] as const;

/**
 * The model bone for a standard MMD name, or −1: through the retargeting module's name index
 * (shared/retarget/bone-names.ts), so spellings models use for the same bone (肘, ＩＫ/IK, half-width
 * katakana, English names) bind too.
 */
function boneOf(index: BoneNameIndex, name: string | null): number {
  return name ? index.find(name) : -1;
}

/**
 * A model bone's tip: its tail bone's position, or its position plus the tail offset. `onlyChild` (the feet):
 * a bone with no tail whose one child lies apart from it (足首 → つま先) has its tip there, as the capture's
 * tip is its first joint below (captureTip). The standard skeleton (shared/skeleton/standard-figure.ts) gives
 * no bone a tail: its feet were left unaligned and their toes out of the contacts (CMU 131_01: 24 contacts
 * on it, heels only, 45 with toes on a model whose 足首 has its tail at つま先). take.ts takes the same tip for
 * the End Site export-bvh writes.
 */
export function modelTip(skel: Skeleton, b: number, onlyChild = false): Vec3 | null {
  const bone = skel.bones[b];
  const p = skel.restPosition;
  const at = (t: number): Vec3 | null => {
    const v: Vec3 = [p[3 * t], p[3 * t + 1], p[3 * t + 2]];
    return len(sub(v, [p[3 * b], p[3 * b + 1], p[3 * b + 2]])) > 1e-6 ? v : null;
  };
  if (bone.tailBone >= 0 && bone.tailBone < skel.count) return at(bone.tailBone);
  if (len(bone.tailOffset) > 1e-6) return [p[3 * b] + bone.tailOffset[0], p[3 * b + 1] + bone.tailOffset[1], p[3 * b + 2] + bone.tailOffset[2]];
  if (onlyChild) {
    const kids: number[] = [];
    for (let c = 0; c < skel.count; c++) if (skel.parent[c] === b) kids.push(c);
    if (kids.length === 1) return at(kids[0]);
  }
  return null;
}

export const isFoot = (part: HumanoidPart) => part === 'leftFoot' || part === 'rightFoot';

/**
 * The capture joint's tip: the first joint below it (first child first) at a non-zero distance, passing
 * over the joints in `skip` (a head's eyes, a hand's fingers: they branch off, the segment goes on).
 */
function captureTip(m: BvhMotion, j: number, rest: BvhWorld, skip: ReadonlySet<number> = new Set()): number {
  const P = rest.position;
  const stack = m.joints.map((_, k) => k).filter((k) => m.joints[k].parent === j && !skip.has(k));
  const queue = [...stack];
  while (queue.length) {
    const k = queue.shift()!;
    if (Math.hypot(P[3 * k] - P[3 * j], P[3 * k + 1] - P[3 * j + 1], P[3 * k + 2] - P[3 * j + 2]) > 1e-6) return k;
    for (let c = 0; c < m.joints.length; c++) if (m.joints[c].parent === k) queue.push(c);
  }
  return -1;
}

const v3 = (a: ArrayLike<number>, i: number): Vec3 => [a[3 * i], a[3 * i + 1], a[3 * i + 2]];
const q4 = (a: ArrayLike<number>, i: number): Quat => [a[4 * i], a[4 * i + 1], a[4 * i + 2], a[4 * i + 3]];

/** Segment end on each side for one part: capture joints (one, or the two upper legs) and model points. */
interface Segment {
  binding: PartBinding;
  /** Capture joints whose mean is the segment's end. */
  ends: number[];
  /** Model rest direction. */
  e: Vec3;
  /** A · (applied after R(t)·R0⁻¹). */
  align: Quat;
  /** R0⁻¹. */
  r0inv: Quat;
}

function meanPos(P: ArrayLike<number>, js: number[]): Vec3 {
  const o: Vec3 = [0, 0, 0];
  for (const j of js) for (let c = 0; c < 3; c++) o[c] += P[3 * j + c] / js.length;
  return o;
}

/** Thigh + shin length of one side, or 0. */
function legLength(P: ArrayLike<number>, up: number, low: number, foot: number): number {
  if (up < 0 || low < 0 || foot < 0) return 0;
  return len(sub(v3(P, low), v3(P, up))) + len(sub(v3(P, foot), v3(P, low)));
}

/** Height above floor and horizontal speed thresholds for a contact, in leg lengths (and per second). */
const CONTACT_HEIGHT = 0.06;
const CONTACT_SPEED = 0.3;
/**
 * Farthest a point may drift in X/Z from where its contact began, in leg lengths: beyond it the contact
 * ends (a foot that slides in the capture is not planted, and a goal held far from where the leg reaches
 * would stretch the leg away from the captured direction).
 */
const CONTACT_DRIFT = 0.03;
/** Shortest contact counted, seconds. */
const CONTACT_MIN_S = 0.05;

/**
 * Heel and toe contacts of the capture: a point is in contact while it is within CONTACT_HEIGHT leg
 * lengths of the lowest that point goes in the whole motion, moves slower than CONTACT_SPEED leg
 * lengths per second horizontally and stays within CONTACT_DRIFT of where the contact began; runs
 * shorter than CONTACT_MIN_S are not counted.
 */
export function findContacts(frameTime: number, worlds: BvhWorld[], points: { side: 'left' | 'right'; point: 'heel' | 'toe'; joint: number }[], legLen: number): Contact[] {
  const out: Contact[] = [];
  const n = worlds.length;
  const minRun = Math.max(2, Math.round(CONTACT_MIN_S / frameTime));
  for (const p of points) {
    if (p.joint < 0) continue;
    let floor = Infinity;
    for (const w of worlds) floor = Math.min(floor, w.position[3 * p.joint + 1]);
    const inContact = (f: number): boolean => {
      const P = worlds[f].position;
      if (P[3 * p.joint + 1] - floor > CONTACT_HEIGHT * legLen) return false;
      const a = Math.max(0, f - 1), b = Math.min(n - 1, f + 1);
      if (a === b) return true;
      const A = worlds[a].position, B = worlds[b].position;
      const speed = Math.hypot(B[3 * p.joint] - A[3 * p.joint], B[3 * p.joint + 2] - A[3 * p.joint + 2]) / ((b - a) * frameTime);
      return speed < CONTACT_SPEED * legLen;
    };
    let start = -1;
    const P = (f: number, c: number) => worlds[f].position[3 * p.joint + c];
    for (let f = 0; f <= n; f++) {
      let c = f < n && inContact(f);
      if (c && start >= 0 && Math.hypot(P(f, 0) - P(start, 0), P(f, 2) - P(start, 2)) > CONTACT_DRIFT * legLen) c = false;
      if (!c && start >= 0) {
        if (f - start >= minRun) out.push({ side: p.side, point: p.point, from: start, to: f - 1 });
        start = -1;
        // A drift ends one contact; the point may be in a new one from here.
        if (f < n && inContact(f)) start = f;
        continue;
      }
      if (c && start < 0) start = f;
    }
  }
  return out;
}

/** Retargets every frame of the capture's first root tree onto the model. Throws nothing; an unplayable pairing gives null with the reason. */
export function retarget(m: BvhMotion, parts: readonly (HumanoidPart | null)[], model: ModelData, opts: RetargetOptions = {}): Outcome<RetargetResult> {
  const skel = buildSkeleton(model.bones);
  const names = new BoneNameIndex(model.bones);
  const restW = bvhWorldAt(m, -1);
  const refW = opts.rest === 'first' && m.frameCount > 0 ? bvhWorldAt(m, 0) : restW;
  const jointOf = new Map<HumanoidPart, number>();
  parts.forEach((p, j) => p && jointOf.set(p, j));
  const bindings: PartBinding[] = [];
  const unboundParts: HumanoidPart[] = [];
  for (const part of HUMANOID_PARTS) {
    const j = jointOf.get(part);
    if (j === undefined) continue;
    const b = boneOf(names, MMD_BONE_OF[part]);
    if (b < 0) unboundParts.push(part);
    else bindings.push({ part, joint: j, bone: b });
  }
  const bound = new Map(bindings.map((x) => [x.part, x]));
  // Joints that branch off a segment rather than continue it (a segment's tip passes over them).
  const branchJoints = new Set([...jointOf].filter(([p]) => p === 'leftEye' || p === 'rightEye' || isFingerPart(p)).map(([, j]) => j));
  const center = boneOf(names, 'センター');
  if (center < 0) return failure({ code: 'E_RETARGET', message: 'the model has no センター bone to carry the hips' });
  if (!bound.has('hips') && !bound.has('spine')) return failure({ code: 'E_RETARGET', message: 'neither the hips nor the spine is mapped onto the model (下半身, 上半身)' });
  // Segments: direction ends on both sides.
  const RP = skel.restPosition;
  const segments: Segment[] = [];
  for (const bnd of bindings) {
    let ends: number[] | null = null;
    let modelEnd: Vec3 | null = null;
    for (const end of SEGMENT_END[bnd.part]) {
      if (end === 'legs') {
        const l = bound.get('leftUpperLeg'), r = bound.get('rightUpperLeg');
        if (l && r) {
          ends = [l.joint, r.joint];
          modelEnd = meanPos(RP, [l.bone, r.bone]);
          break;
        }
      } else if (end === 'tip') {
        // A hand whose fingers the model lacks points at the capture's middle (or index) finger base, as the
        // model's 手首 tail points along the hand; a head past its eyes.
        const hand = bnd.part === 'leftHand' || bnd.part === 'rightHand' ? (jointOf.get(bnd.part.replace('Hand', 'MiddleProximal') as HumanoidPart) ?? jointOf.get(bnd.part.replace('Hand', 'IndexProximal') as HumanoidPart)) : undefined;
        const t = hand ?? captureTip(m, bnd.joint, restW, branchJoints);
        const mt = modelTip(skel, bnd.bone, isFoot(bnd.part));
        if (t >= 0 && mt) {
          ends = [t];
          modelEnd = mt;
          break;
        }
      } else {
        const nb = bound.get(end);
        if (nb) {
          ends = [nb.joint];
          modelEnd = v3(RP, nb.bone);
          break;
        }
      }
    }
    const e = modelEnd ? sub(modelEnd, v3(RP, bnd.bone)) : ([0, 0, 0] as Vec3);
    const d0 = ends ? sub(meanPos(refW.position, ends), v3(refW.position, bnd.joint)) : ([0, 0, 0] as Vec3);
    const ok = ends && len(e) > 1e-6 && len(d0) > 1e-6;
    segments.push({ binding: bnd, ends: ok ? ends! : [], e, align: ok ? fromTo(e, d0) : [0, 0, 0, 1], r0inv: qconj(q4(refW.rotation, bnd.joint)) });
  }
  // A part with no segment (a last finger joint whose bone has no tail, a hand with neither fingers nor tip)
  // takes the alignment of the nearest mapped joint above it: at the reference pose it turns with that part
  // as one piece, as on the model at rest. With none of its own (the identity) it stood turned back by its
  // parent's alignment: the standard skeleton's fingertips 40° off the hand's line after VMD → VRMA → VMD.
  const segOfJoint = new Map(segments.map((s) => [s.binding.joint, s]));
  const inherited = new Set<Segment>();
  const alignOf = (s: Segment, depth = 0): Quat => {
    if (s.ends.length || inherited.has(s) || depth > 512) return s.align;
    for (let j = m.joints[s.binding.joint].parent; j >= 0; j = m.joints[j].parent) {
      const p = segOfJoint.get(j);
      if (p) {
        s.align = alignOf(p, depth + 1);
        break;
      }
    }
    inherited.add(s);
    return s.align;
  };
  for (const s of segments) alignOf(s);
  // Parents first, as the skeleton evaluates them.
  const rank = new Int32Array(skel.count);
  skel.order.forEach((b, k) => (rank[b] = k));
  segments.sort((a, b) => rank[a.binding.bone] - rank[b.binding.bone]);

  // Scale: leg lengths.
  const side = (s: 'left' | 'right', p: 'UpperLeg' | 'LowerLeg' | 'Foot') => bound.get(`${s}${p}` as HumanoidPart);
  let capLeg = 0, modelLeg = 0;
  for (const s of LEG_SIDES) {
    const u = side(s, 'UpperLeg'), l = side(s, 'LowerLeg'), f = side(s, 'Foot');
    if (u && l && f) {
      capLeg = Math.max(capLeg, legLength(restW.position, u.joint, l.joint, f.joint));
      modelLeg = Math.max(modelLeg, legLength(RP, u.bone, l.bone, f.bone));
    }
  }
  const scale = opts.scale ?? (capLeg > 0 && modelLeg > 0 ? modelLeg / capLeg : 1);

  // Leg IK chains: 足ＩＫ (target 足首) and つま先ＩＫ (target つま先) per side; other IK chains through mapped bones go off.
  const mappedBones = new Set(bindings.map((b) => b.bone));
  const legIk = { left: { ankle: -1, toe: -1 }, right: { ankle: -1, toe: -1 } };
  const ikOff: number[] = [];
  skel.iks.forEach((ik, i) => {
    if (!ik) return;
    const touches = ik.links.some((l) => mappedBones.has(l.bone)) || mappedBones.has(ik.target);
    const name = skel.bones[i].name;
    const s = name.startsWith('左') ? 'left' : name.startsWith('右') ? 'right' : null;
    if (s && /足ＩＫ|足IK/.test(name) && ik.target === side(s, 'Foot')?.bone) legIk[s].ankle = i;
    else if (s && /つま先ＩＫ|つま先IK/.test(name)) legIk[s].toe = i;
    else if (touches) ikOff.push(i);
  });
  const hasLegIk = legIk.left.ankle >= 0 && legIk.right.ankle >= 0;
  const footIk = opts.footIk ?? hasLegIk;
  if (footIk && !hasLegIk) return failure(optionRefusal('E_RETARGET', 'the model has no leg IK (足ＩＫ) to plant the feet with; use --no-foot-ik', 'no-foot-ik', 'noLegIk'));
  for (const s of LEG_SIDES) {
    for (const k of ['ankle', 'toe'] as const) {
      const i = legIk[s][k];
      if (i >= 0 && (!footIk || (k === 'toe' && legIk[s].ankle < 0))) ikOff.push(i);
    }
  }

  // With leg IK: the upper leg's knee hinge follows the captured shin (lower leg joint → foot joint).
  const hinge = new Map<HumanoidPart, [number, number]>();
  if (footIk) {
    for (const s of LEG_SIDES) {
      const l = side(s, 'LowerLeg'), f = side(s, 'Foot');
      if (l && f) hinge.set(`${s}UpperLeg`, [l.joint, f.joint]);
    }
  }
  const keyed: number[] = [center, ...segments.map((s) => s.binding.bone)];
  const ikKeyed: number[] = [];
  if (footIk) for (const s of LEG_SIDES) for (const k of ['ankle', 'toe'] as const) if (legIk[s][k] >= 0 && !ikOff.includes(legIk[s][k])) ikKeyed.push(legIk[s][k]);
  keyed.push(...ikKeyed);
  const nb = keyed.length;
  const N = m.frameCount;
  // Seconds per capture frame at the rate the import re-times by (the --fps given over the file's Frame Time).
  const frameTime = 1 / captureRate(m, opts.fps);
  const T = new Float64Array(N * nb * 3);
  const R = new Float64Array(N * nb * 4);
  for (let k = 0; k < N * nb; k++) R[4 * k + 3] = 1;
  const slot = new Map(keyed.map((b, k) => [b, k]));

  const pose = new Pose(skel);
  const noIk = () => false;
  // MMD rule — bone morphs (shared/skeleton/bone-morphs.ts): the output's morph keys add to its bones' local
  // transforms as it plays (T + Σ w·t, turns ⊗ R). The pose below holds what plays (morphs applied), so that
  // the children are placed under it; each key is that with the morphs taken back out (as shared/retarget).
  const morphs = opts.morphs ?? [];
  const bm = morphs.length ? new MotionBoneMorphs(model, morphs.map((x) => x.name)) : null;
  const boneMorphs = bm?.any ? bm : null;
  const MT = new Float64Array(3 * skel.count), MR = new Float64Array(4 * skel.count);
  /** The bone morphs at capture frame f, as offsets from rest: MT (3 per bone), MR (4 per bone). */
  const morphsAt = (f: number) => boneMorphs!.fromRest((t) => morphs[t].weights[f] ?? 0, MT, MR);
  const hips = bound.get('hips') ?? bound.get('spine')!;
  const hipsModelRest = v3(RP, hips.bone);
  // Feet: the model points each IK bone reaches for, posed by the rotations (FK), per frame.
  const ikGoal = new Float64Array(N * 3 * ikKeyed.length);
  const ikTarget = ikKeyed.map((i) => skel.iks[i]!.target);
  // Foot tips for the floor: capture (foot tip joint) and model (foot bone's tail), per side.
  const footSeg = segments.filter((s) => s.binding.part === 'leftFoot' || s.binding.part === 'rightFoot');
  let capTipMin = Infinity, modelTipMin = Infinity;
  const worlds: BvhWorld[] = [];
  const q: Quat = [0, 0, 0, 1];
  for (let f = 0; f < N; f++) {
    const W = bvhWorldAt(m, f, newWorld(m));
    worlds.push(W);
    pose.reset();
    if (boneMorphs) {
      morphsAt(f);
      pose.translation.set(MT);
      pose.rotation.set(MR);
    }
    const hp = v3(W.position, hips.joint);
    // センター: the model's hips where the capture's are, scaled (Y shifted after, by `lift`).
    const ct: Vec3 = [scale * hp[0] - hipsModelRest[0], scale * hp[1] - hipsModelRest[1], scale * hp[2] - hipsModelRest[2]];
    pose.translation.set(ct, 3 * center);
    for (const s of segments) {
      pose.evaluate('beforePhysics', noIk);
      const bnd = s.binding;
      qmul(q4(W.rotation, bnd.joint), s.r0inv, q);
      qmul(q, s.align, q);
      if (s.ends.length) {
        const e = rotate(q, s.e);
        const d = sub(meanPos(W.position, s.ends), v3(W.position, bnd.joint));
        if (len(d) > 1e-9) qmul(fromTo(e, d), q, q);
        const shin = hinge.get(bnd.part);
        if (shin && len(d) > 1e-9) {
          // Leg IK turns the knee about its X axis alone: the thigh takes the twist that puts the captured
          // shin in the knee's hinge plane (the nearer of the two), so the IK reaches the posed ankle with
          // the leg as posed instead of swinging the knee out of it.
          const sd = sub(v3(W.position, shin[1]), v3(W.position, shin[0]));
          const h = rotate(q, [1, 0, 0]);
          const n = [d[1] * sd[2] - d[2] * sd[1], d[2] * sd[0] - d[0] * sd[2], d[0] * sd[1] - d[1] * sd[0]];
          const nl = len(n);
          // A leg straight to within a degree or so keeps its twist (the plane is not defined).
          if (nl > 0.02 * len(d) * len(sd)) {
            const sign = n[0] * h[0] + n[1] * h[1] + n[2] * h[2] >= 0 ? 1 : -1;
            qmul(fromTo(h, [(sign * n[0]) / nl, (sign * n[1]) / nl, (sign * n[2]) / nl]), q, q);
          }
        }
      }
      const p = skel.parent[bnd.bone];
      const local = p >= 0 ? qmul(qconj(q4(pose.worldRotation, p)), q) : ([q[0], q[1], q[2], q[3]] as Quat);
      // The append a bone may have on top is the model's; the key is what the bone itself turns.
      alignSign(local, [0, 0, 0, 1]);
      pose.rotation.set(local, 4 * bnd.bone);
    }
    pose.evaluate('all', noIk);
    for (const s of footSeg) {
      const t = modelTip(skel, s.binding.bone, true);
      if (!t) continue;
      const tipNow = rotate(q4(pose.worldRotation, s.binding.bone), sub(t, v3(RP, s.binding.bone)));
      modelTipMin = Math.min(modelTipMin, pose.worldPosition[3 * s.binding.bone + 1] + tipNow[1]);
      if (s.ends.length) capTipMin = Math.min(capTipMin, W.position[3 * s.ends[0] + 1]);
    }
    ikTarget.forEach((t, k) => ikGoal.set(v3(pose.worldPosition, t), (f * ikKeyed.length + k) * 3));
    for (let k = 0; k < nb; k++) {
      const b = keyed[k];
      if (ikKeyed.includes(b)) continue;
      T.set(pose.translation.subarray(3 * b, 3 * b + 3), (f * nb + k) * 3);
      R.set(pose.rotation.subarray(4 * b, 4 * b + 4), (f * nb + k) * 4);
      if (!boneMorphs) continue;
      // The key: what plays with this frame's bone morphs taken back out (T − Σ w·t, conj(turns) ⊗ R).
      const o3 = (f * nb + k) * 3, o4 = (f * nb + k) * 4;
      for (let c = 0; c < 3; c++) T[o3 + c] -= MT[3 * b + c];
      const key = qmul(qconj(q4(MR, b)), q4(R, f * nb + k));
      R.set(key, o4);
    }
  }
  // Floor: the lowest a model foot tip goes matches the capture's lowest, scaled.
  const lift = Number.isFinite(capTipMin) && Number.isFinite(modelTipMin) ? scale * capTipMin - modelTipMin : 0;
  const cs = slot.get(center)!;
  for (let f = 0; f < N; f++) T[(f * nb + cs) * 3 + 1] += lift;
  for (let k = 0; k < ikGoal.length; k += 3) ikGoal[k + 1] += lift;

  // Contacts (capture) and planted goals.
  const contacts: Contact[] = [];
  if (footIk) {
    const pts: { side: 'left' | 'right'; point: 'heel' | 'toe'; joint: number }[] = [];
    for (const s of LEG_SIDES) {
      const foot = bound.get(`${s}Foot`);
      const seg = segments.find((x) => x.binding.part === `${s}Foot`);
      pts.push({ side: s, point: 'heel', joint: foot ? foot.joint : -1 });
      pts.push({ side: s, point: 'toe', joint: seg && seg.ends.length ? seg.ends[0] : -1 });
    }
    contacts.push(...findContacts(frameTime, worlds, pts, capLeg || 1));
    // センター's X/Z follows the feet: while a point is in contact at two consecutive frames, the model's
    // leg (posed as captured) would carry it by however its proportions differ from the capture's; the
    // body moves instead so the point stays (several points: their mean). Elsewhere it moves as the
    // capture's hips, scaled. The legs then keep the captured directions and the feet stay put.
    const goalOf = (c: Contact) => ikKeyed.indexOf(c.point === 'heel' ? legIk[c.side].ankle : legIk[c.side].toe);
    const inContact: Contact[][] = Array.from({ length: N }, () => []);
    for (const c of contacts) if (goalOf(c) >= 0) for (let f = c.from; f <= c.to; f++) inContact[f].push(c);
    const G = ikKeyed.length;
    let sx = 0, sz = 0;
    let prevX = T[cs * 3], prevZ = T[cs * 3 + 2];
    for (let f = 1; f < N; f++) {
      const o = (f * nb + cs) * 3, po = ((f - 1) * nb + cs) * 3;
      // The captured step (before any shift).
      const mx = T[o] - prevX, mz = T[o + 2] - prevZ;
      prevX = T[o];
      prevZ = T[o + 2];
      let dx = 0, dz = 0, n = 0;
      for (const c of inContact[f]) {
        if (c.from === f) continue;
        const k = goalOf(c);
        // The point's motion relative to the body between f − 1 and f, undone.
        dx += -((ikGoal[(f * G + k) * 3] - T[o]) - (ikGoal[((f - 1) * G + k) * 3] - T[po]));
        dz += -((ikGoal[(f * G + k) * 3 + 2] - T[o + 2]) - (ikGoal[((f - 1) * G + k) * 3 + 2] - T[po + 2]));
        n++;
      }
      // The shift accumulated so far, plus how this step differs from the captured one.
      if (n) {
        sx += dx / n - mx;
        sz += dz / n - mz;
      }
      if (sx !== 0 || sz !== 0) {
        // Applied to this frame: centre and every goal (all are the body's points, posed from the centre).
        T[o] += sx;
        T[o + 2] += sz;
        for (let k = 0; k < G; k++) {
          ikGoal[(f * G + k) * 3] += sx;
          ikGoal[(f * G + k) * 3 + 2] += sz;
        }
      }
    }
    for (const c of contacts) {
      const ik = c.point === 'heel' ? legIk[c.side].ankle : legIk[c.side].toe;
      const k = ikKeyed.indexOf(ik);
      if (k < 0) continue;
      const at = (f: number) => (f * ikKeyed.length + k) * 3;
      // Held during the contact where the posed point is on average (what is left of its slide after
      // the centre followed the feet is split both ways); eased back to the pose over 0.1 s after it.
      let x0 = 0, z0 = 0;
      for (let f = c.from; f <= c.to; f++) {
        x0 += ikGoal[at(f)] / (c.to - c.from + 1);
        z0 += ikGoal[at(f) + 2] / (c.to - c.from + 1);
      }
      const ease = Math.max(1, Math.round(0.1 / frameTime));
      for (let f = c.from; f <= Math.min(N - 1, c.to + ease); f++) {
        const w = f <= c.to ? 1 : 1 - (f - c.to) / (ease + 1);
        const s = w * w * (3 - 2 * w);
        ikGoal[at(f)] += s * (x0 - ikGoal[at(f)]);
        ikGoal[at(f) + 2] += s * (z0 - ikGoal[at(f) + 2]);
      }
    }
    // IK bone keys: local translation reaching the goal under the parent's rest world (leg IK parents
    // are the model's root bones, which this motion does not move).
    pose.reset();
    pose.evaluate('all', noIk);
    for (let f = 0; f < N; f++) {
      ikKeyed.forEach((i, k) => {
        const p = skel.parent[i];
        const goal = v3(ikGoal, f * ikKeyed.length + k);
        let local: Vec3;
        if (p >= 0) {
          // The parent may be the other IK bone of the leg (つま先ＩＫ under 足ＩＫ): its goal this frame.
          const pk = ikKeyed.indexOf(p);
          const pp = pk >= 0 ? v3(ikGoal, f * ikKeyed.length + pk) : v3(pose.worldPosition, p);
          local = rotate(qconj(q4(pose.worldRotation, p)), sub(goal, pp));
        } else local = goal;
        const o = v3(skel.restOffset, i);
        T.set([local[0] - o[0], local[1] - o[1], local[2] - o[2]], (f * nb + slot.get(i)!) * 3);
      });
      if (!boneMorphs) continue;
      // A bone morph that moves an IK bone: its key is the goal with the morph taken back out.
      morphsAt(f);
      for (const i of ikKeyed) for (let c = 0; c < 3; c++) T[(f * nb + slot.get(i)!) * 3 + c] -= MT[3 * i + c];
    }
  }
  return success({ skeleton: skel, bones: keyed, translation: T, rotation: R, frameCount: N, bindings, unboundParts, scale, footIk, ikOff, contacts });
}
