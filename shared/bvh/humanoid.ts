/**
 * Humanoid maps: which joint of a motion capture skeleton is which body part, and which MMD bone plays
 * that part. Parts are named as VRM's humanoid bones (hips, spine, chest, upperChest, neck, head,
 * leftShoulder, leftUpperArm, …), the vocabulary every map here goes through: a BVH joint → a part → an
 * MMD bone.
 *
 * Built-in joint tables: CMU's 3ds Max-friendly release (LeftCollar, LeftShoulder = upper arm, LeftHip,
 * LeftKnee…), CMU's MotionBuilder-friendly release (LeftShoulder = collar, LeftArm, LeftUpLeg, LowerBack,
 * Spine, Spine1…), Mixamo (mixamorig:Spine, Spine1, Spine2…; any `prefix:` is ignored, and `mixamorig_`) and
 * the VRM humanoid names themselves (1.0's, or 0.x's thumb where the file has a ThumbIntermediate). The table
 * that names most of a file's joints is taken; where none names the hips and four limbs, `guessFromShape`
 * reads the parts from the hierarchy's geometry.
 *
 * A map file (`--map`) pairs joint names with parts or MMD bone names, in the rename map's format
 * (shared/motion-ops/rename.ts: CSV `joint,part` or JSON `{ "joint": "part" }`); its rows replace the
 * built-in or guessed ones, and a row mapping to `-` (or an empty JSON string) unmaps a joint.
 */
import type { BvhMotion } from './bvh-reader';
import { len, sub } from './quat';
import { bvhWorldAt } from './bvh-pose';
import { canonicalBoneName } from '../retarget/bone-names';

/** VRM 1.0's finger parts of one side, base to tip (thumb: metacarpal, proximal, distal; the others proximal, intermediate, distal). */
export const FINGERS = ['ThumbMetacarpal', 'ThumbProximal', 'ThumbDistal', 'IndexProximal', 'IndexIntermediate', 'IndexDistal', 'MiddleProximal', 'MiddleIntermediate', 'MiddleDistal', 'RingProximal', 'RingIntermediate', 'RingDistal', 'LittleProximal', 'LittleIntermediate', 'LittleDistal'] as const;
type Finger = (typeof FINGERS)[number];

/**
 * The parts, parents before children (the take's tree and the BVH's joint order follow it). The body's
 * 22 come first, in the order every earlier version wrote them, so a model without eyes, fingers or a toe
 * bone exports as before; eyes and fingers follow.
 */
export const HUMANOID_PARTS = [
  'hips', 'spine', 'chest', 'upperChest', 'neck', 'head',
  'leftShoulder', 'leftUpperArm', 'leftLowerArm', 'leftHand',
  'rightShoulder', 'rightUpperArm', 'rightLowerArm', 'rightHand',
  'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'leftToes',
  'rightUpperLeg', 'rightLowerLeg', 'rightFoot', 'rightToes',
  'leftEye', 'rightEye',
  ...FINGERS.map((f) => `left${f}` as const),
  ...FINGERS.map((f) => `right${f}` as const),
] as const;
export type HumanoidPart = (typeof HUMANOID_PARTS)[number];
const PART_SET: ReadonlySet<string> = new Set(HUMANOID_PARTS);

export function isHumanoidPart(s: string): s is HumanoidPart {
  return PART_SET.has(s);
}

/** A finger part (either side). */
export function isFingerPart(p: HumanoidPart): boolean {
  return /^(left|right)(Thumb|Index|Middle|Ring|Little)/.test(p);
}

/** MMD's finger bones per VRM finger part (semi-standard 親指０ is the thumb's metacarpal; models without it start at 親指１, the proximal). */
const MMD_FINGER: Readonly<Record<Finger, string>> = {
  ThumbMetacarpal: '親指０', ThumbProximal: '親指１', ThumbDistal: '親指２',
  IndexProximal: '人指１', IndexIntermediate: '人指２', IndexDistal: '人指３',
  MiddleProximal: '中指１', MiddleIntermediate: '中指２', MiddleDistal: '中指３',
  RingProximal: '薬指１', RingIntermediate: '薬指２', RingDistal: '薬指３',
  LittleProximal: '小指１', LittleIntermediate: '小指２', LittleDistal: '小指３',
};

/**
 * The MMD bone that plays each part (standard and semi-standard bone names, found in a model through
 * shared/retarget/bone-names.ts, so 左つま先EX, 肘, English names… bind too). The toes are semi-standard
 * 足先EX, the toe bone that bends (左つま先 is the foot's tip, the target of つま先ＩＫ, that turns nothing);
 * a model without it has no toes part. Upper chest: MMD has none.
 */
export const MMD_BONE_OF: Readonly<Record<HumanoidPart, string | null>> = {
  hips: '下半身', spine: '上半身', chest: '上半身2', upperChest: null, neck: '首', head: '頭',
  leftShoulder: '左肩', leftUpperArm: '左腕', leftLowerArm: '左ひじ', leftHand: '左手首',
  rightShoulder: '右肩', rightUpperArm: '右腕', rightLowerArm: '右ひじ', rightHand: '右手首',
  leftUpperLeg: '左足', leftLowerLeg: '左ひざ', leftFoot: '左足首', leftToes: '左足先EX',
  rightUpperLeg: '右足', rightLowerLeg: '右ひざ', rightFoot: '右足首', rightToes: '右足先EX',
  leftEye: '左目', rightEye: '右目',
  ...(Object.fromEntries(FINGERS.flatMap((f) => [[`left${f}`, `左${MMD_FINGER[f]}`], [`right${f}`, `右${MMD_FINGER[f]}`]])) as Record<`${'left' | 'right'}${Finger}`, string>),
};

/** Each finger part's next part toward the tip (null: the finger's last part). */
function nextFinger(f: Finger): Finger | null {
  const i = FINGERS.indexOf(f);
  return i % 3 === 2 ? null : FINGERS[i + 1];
}

/**
 * Where each part's segment points: the first of these parts that both skeletons have ('legs': the
 * midpoint of the two upper legs; 'tip': the part's own tip, a BVH End Site or the model bone's tail).
 * A hand points at its middle (else index) finger's base where both have one, as the model's 手首 tail
 * does; a finger part at the next part of its finger.
 */
export const SEGMENT_END: Readonly<Record<HumanoidPart, readonly (HumanoidPart | 'legs' | 'tip')[]>> = {
  hips: ['legs'], spine: ['chest', 'upperChest', 'neck', 'head'], chest: ['upperChest', 'neck', 'head'], upperChest: ['neck', 'head'],
  neck: ['head'], head: ['tip'],
  leftShoulder: ['leftUpperArm'], leftUpperArm: ['leftLowerArm'], leftLowerArm: ['leftHand'], leftHand: ['leftMiddleProximal', 'leftIndexProximal', 'tip'],
  rightShoulder: ['rightUpperArm'], rightUpperArm: ['rightLowerArm'], rightLowerArm: ['rightHand'], rightHand: ['rightMiddleProximal', 'rightIndexProximal', 'tip'],
  leftUpperLeg: ['leftLowerLeg'], leftLowerLeg: ['leftFoot'], leftFoot: ['leftToes', 'tip'], leftToes: ['tip'],
  rightUpperLeg: ['rightLowerLeg'], rightLowerLeg: ['rightFoot'], rightFoot: ['rightToes', 'tip'], rightToes: ['tip'],
  leftEye: ['tip'], rightEye: ['tip'],
  ...(Object.fromEntries(FINGERS.flatMap((f) => {
    const n = nextFinger(f);
    return (['left', 'right'] as const).map((s) => [`${s}${f}`, n ? [`${s}${n}`, 'tip'] : ['tip']]);
  })) as unknown as Record<`${'left' | 'right'}${Finger}`, readonly (HumanoidPart | 'tip')[]>),
};

type Table = Readonly<Record<string, HumanoidPart>>;

function sides(t: Record<string, HumanoidPart>, left: (s: string) => string[], right: (s: string) => string[], parts: [string, HumanoidPart][]): Table {
  for (const [stem, p] of parts) {
    for (const n of left(stem)) t[n] = p;
    for (const n of right(stem)) t[n] = p.replace(/^left/, 'right') as HumanoidPart;
  }
  return t;
}

/** CMU, 3ds Max-friendly release (cgspeed): LeftCollar → LeftShoulder (the upper arm) → LeftElbow → LeftWrist. */
const CMU_MAX = sides({ Hips: 'hips', lowerback: 'spine', Chest: 'chest', Chest2: 'upperChest', Neck: 'neck', Head: 'head' }, (s) => [`Left${s}`], (s) => [`Right${s}`], [
  ['Collar', 'leftShoulder'], ['Shoulder', 'leftUpperArm'], ['Elbow', 'leftLowerArm'], ['Wrist', 'leftHand'],
  ['Hip', 'leftUpperLeg'], ['Knee', 'leftLowerLeg'], ['Ankle', 'leftFoot'], ['Toe', 'leftToes'],
]);
// The hand below the wrist (lhand) has one joint for the four fingers and one for the thumb: LFingers
// plays the index finger's base, LThumb the thumb's proximal (MMD 親指１), the first joint every model has.
Object.assign(CMU_MAX, { LFingers: 'leftIndexProximal', RFingers: 'rightIndexProximal', LThumb: 'leftThumbProximal', RThumb: 'rightThumbProximal' });

/** CMU, MotionBuilder-friendly release (cgspeed): Hips → LowerBack → Spine → Spine1 → Neck → Neck1 → Head; LeftShoulder is the collar. */
const CMU_MB = sides({ Hips: 'hips', LowerBack: 'spine', Spine: 'chest', Spine1: 'upperChest', Neck: 'neck', Head: 'head' }, (s) => [`Left${s}`], (s) => [`Right${s}`], [
  ['Shoulder', 'leftShoulder'], ['Arm', 'leftUpperArm'], ['ForeArm', 'leftLowerArm'], ['Hand', 'leftHand'],
  ['UpLeg', 'leftUpperLeg'], ['Leg', 'leftLowerLeg'], ['Foot', 'leftFoot'], ['ToeBase', 'leftToes'],
  // LeftHand → LeftFingerBase → LeftHandIndex1, and LThumb off the hand, as the 3ds Max release's fingers.
  ['HandIndex1', 'leftIndexProximal'],
]);
Object.assign(CMU_MB, { LThumb: 'leftThumbProximal', RThumb: 'rightThumbProximal' });

/** Mixamo (prefix `mixamorig:` dropped): Hips → Spine → Spine1 → Spine2 → Neck → Head. */
const MIXAMO = sides({ Hips: 'hips', Spine: 'spine', Spine1: 'chest', Spine2: 'upperChest', Neck: 'neck', Head: 'head' }, (s) => [`Left${s}`], (s) => [`Right${s}`], [
  ['Shoulder', 'leftShoulder'], ['Arm', 'leftUpperArm'], ['ForeArm', 'leftLowerArm'], ['Hand', 'leftHand'],
  ['UpLeg', 'leftUpperLeg'], ['Leg', 'leftLowerLeg'], ['Foot', 'leftFoot'], ['ToeBase', 'leftToes'],
  ['Eye', 'leftEye'],
  // Thumb1 sits at the wrist (VRM 1.0's metacarpal), Thumb2 and Thumb3 after it; the others 1–3 base to tip (4: the tip).
  ['HandThumb1', 'leftThumbMetacarpal'], ['HandThumb2', 'leftThumbProximal'], ['HandThumb3', 'leftThumbDistal'],
  ...(['Index', 'Middle', 'Ring', 'Pinky'] as const).flatMap((f): [string, HumanoidPart][] => {
    const v = f === 'Pinky' ? 'Little' : f;
    return [[`Hand${f}1`, `left${v}Proximal`], [`Hand${f}2`, `left${v}Intermediate`], [`Hand${f}3`, `left${v}Distal`]];
  }),
]);

/** VRM humanoid bone names used as joint names (as VRM tools export BVH). */
const VRM: Table = Object.fromEntries(HUMANOID_PARTS.map((p) => [p, p]));

/**
 * VRM 0.x's names, read where a file is clearly 0.x-named (it has a ThumbIntermediate, which 1.0 lacks): 0.x's
 * thumb is Proximal → Intermediate → Distal where 1.0's is Metacarpal → Proximal → Distal, the same three
 * joints, so 0.x's ThumbProximal is 1.0's metacarpal (MMD 親指０) and its Intermediate 1.0's proximal (親指１).
 */
const VRM0: Table = (() => {
  const t: Record<string, HumanoidPart> = { ...VRM };
  for (const s of ['left', 'right'] as const) {
    delete t[`${s}ThumbMetacarpal`];
    Object.assign(t, { [`${s}ThumbProximal`]: `${s}ThumbMetacarpal`, [`${s}ThumbIntermediate`]: `${s}ThumbProximal`, [`${s}ThumbDistal`]: `${s}ThumbDistal` });
  }
  return t;
})();
const isVrm0Name = (name: string) => /^(left|right)ThumbIntermediate$/.test(bareName(name));

export const BUILTIN_MAPS: Readonly<Record<string, Table>> = { 'cmu-max': CMU_MAX, 'cmu-motionbuilder': CMU_MB, mixamo: MIXAMO, vrm: VRM };
export type BuiltinMapName = keyof typeof BUILTIN_MAPS;

/**
 * Mixamo's rig prefix: `mixamorig:`, `mixamorig1:` (a second character in one scene), or with an underscore
 * for the colon (`mixamorig_Hips`: Blender's FBX import renames the colon on some exports).
 */
const MIXAMO_PREFIX = /^mixamorig\d*[:_]/i;

/** A joint's name as the tables spell it: Mixamo's prefix (MIXAMO_PREFIX) or any `namespace:` prefix dropped. */
export function bareName(name: string): string {
  const mx = MIXAMO_PREFIX.exec(name);
  if (mx) return name.slice(mx[0].length);
  const i = name.lastIndexOf(':');
  return i >= 0 ? name.slice(i + 1) : name;
}

/** Part per joint index (null: unmapped), and where it came from. */
export interface JointMap {
  parts: (HumanoidPart | null)[];
  source: BuiltinMapName | 'shape' | 'file';
}

const ESSENTIAL: HumanoidPart[] = ['hips', 'leftUpperArm', 'rightUpperArm', 'leftUpperLeg', 'rightUpperLeg'];

/** Joints of the first root's tree (the one that drives a model). */
function firstTree(m: BvhMotion): boolean[] {
  const inTree = m.joints.map(() => false);
  const r = m.roots[0];
  for (let j = 0; j < m.joints.length; j++) inTree[j] = j === r || (m.joints[j].parent >= 0 && inTree[m.joints[j].parent]);
  return inTree;
}

function applyTable(m: BvhMotion, t: Table, inTree: boolean[]): (HumanoidPart | null)[] {
  const seen = new Set<HumanoidPart>();
  return m.joints.map((J, j) => {
    if (!inTree[j] || J.endSite) return null;
    const p = t[bareName(J.name)] ?? null;
    if (!p || seen.has(p)) return null;
    seen.add(p);
    return p;
  });
}

/**
 * Names only one table's skeleton has: a tie between tables goes to the one whose signature the file shows
 * (Mixamo's `mixamorig:` prefix, `mixamorig1:` and `mixamorig_` included: MIXAMO_PREFIX; the MotionBuilder release's LowerBack;
 * the 3ds Max release's lowerback, LeftCollar, LHipJoint).
 */
const SIGNATURE: Readonly<Partial<Record<BuiltinMapName, (name: string) => boolean>>> = {
  mixamo: (n) => MIXAMO_PREFIX.test(n),
  'cmu-motionbuilder': (n) => bareName(n) === 'LowerBack',
  'cmu-max': (n) => ['lowerback', 'LeftCollar', 'RightCollar', 'LHipJoint', 'RHipJoint'].includes(bareName(n)),
};

/**
 * The built-in table that names most joints of the first root's tree, or the shape guess when none names the
 * hips and four limbs. A `mixamorig:` prefix decides Mixamo (its table naming those). A tie goes to the table
 * whose naming signature the file shows (SIGNATURE), then to the one that maps more parts an MMD bone plays (a
 * Mixamo rig without Spine2 names as many joints in the MotionBuilder table, but there Spine is the chest and
 * Spine1 the upper chest no MMD bone plays, and 上半身 none), then to the first in BUILTIN_MAPS' order. The VRM
 * table reads VRM 0.x's thumb names (VRM0) where a joint is named ThumbIntermediate.
 */
export function autoMap(m: BvhMotion): JointMap {
  const inTree = firstTree(m);
  const names = m.joints.filter((J, j) => inTree[j] && !J.endSite).map((J) => J.name);
  const candidates: { map: JointMap; count: number; signed: boolean; playable: number }[] = [];
  const vrm0 = names.some(isVrm0Name);
  for (const [name, t] of Object.entries(BUILTIN_MAPS)) {
    const parts = applyTable(m, name === 'vrm' && vrm0 ? VRM0 : t, inTree);
    const has = new Set(parts);
    if (!ESSENTIAL.every((p) => has.has(p))) continue;
    const sig = SIGNATURE[name as BuiltinMapName];
    candidates.push({
      map: { parts, source: name as BuiltinMapName },
      count: parts.filter((p) => p !== null).length,
      signed: !!sig && names.some(sig),
      playable: parts.filter((p) => p !== null && MMD_BONE_OF[p] !== null).length,
    });
  }
  const mixamo = candidates.find((c) => c.map.source === 'mixamo' && c.signed);
  if (mixamo) return mixamo.map;
  let best: (typeof candidates)[number] | null = null;
  for (const c of candidates) {
    if (!best || c.count > best.count || (c.count === best.count && (c.signed !== best.signed ? c.signed : c.playable > best.playable))) best = c;
  }
  return best?.map ?? { parts: guessFromShape(m), source: 'shape' };
}

/**
 * Parts read from the rest pose's geometry (in MMD coordinates: up +Y, the character's left +X):
 * the first root is the hips; of its branches the one ending highest is the spine, the two ending
 * lowest the legs (left: larger X). Up the spine the joint where it branches into three is the top of
 * the chest; there the branch ending highest is the neck and head, the others the arms. Along a leg the
 * knee is the last joint whose segment is mostly vertical: upper leg before it, foot and toes after.
 * Along an arm the upper arm is the longest of the first segments; the collar before it, forearm and
 * hand after. Joints with a zero-length segment (CMU's LHipJoint, lowerneck) are passed over.
 */
export function guessFromShape(m: BvhMotion): (HumanoidPart | null)[] {
  const parts: (HumanoidPart | null)[] = m.joints.map(() => null);
  const rest = bvhWorldAt(m, -1);
  const P = (j: number) => [rest.position[3 * j], rest.position[3 * j + 1], rest.position[3 * j + 2]];
  const children: number[][] = m.joints.map(() => []);
  m.joints.forEach((J, j) => J.parent >= 0 && children[J.parent].push(j));
  // Deepest descendant tip of each joint (lowest / highest Y among its subtree).
  const subtree = (j: number): number[] => [j, ...children[j].flatMap(subtree)];
  const root = m.roots[0];
  parts[root] = 'hips';
  // Follow single-child chains; returns the joints until a branch (inclusive) or a tip.
  const chainFrom = (j: number): number[] => {
    const c: number[] = [j];
    let k = j;
    while (children[k].length === 1) {
      k = children[k][0];
      c.push(k);
    }
    return c;
  };
  // The segment of joint j along a chain: to the next joint in the chain at a non-zero distance.
  const segEnd = (chain: number[], i: number): number => {
    for (let k = i + 1; k < chain.length; k++) if (len(sub(P(chain[k]), P(chain[i]))) > 1e-6) return chain[k];
    return -1;
  };
  const branches = children[root].map((c) => ({ c, ys: subtree(c).map((j) => P(j)[1]) }));
  if (branches.length < 3) return parts;
  const hipY = P(root)[1];
  const spineB = branches.reduce((a, b) => (Math.max(...b.ys) > Math.max(...a.ys) ? b : a));
  const legs = branches.filter((b) => b !== spineB && Math.min(...b.ys) < hipY).sort((a, b) => Math.min(...a.ys) - Math.min(...b.ys)).slice(0, 2);
  // Legs: along the longest-reaching chain.
  const legChain = (start: number): number[] => {
    const c: number[] = [start];
    let k = start;
    while (children[k].length > 0) {
      k = children[k].reduce((a, b) => (Math.min(...subtree(b).map((j) => P(j)[1])) < Math.min(...subtree(a).map((j) => P(j)[1])) ? b : a));
      c.push(k);
    }
    return c;
  };
  if (legs.length === 2) {
    const xOf = (b: { c: number }) => subtree(b.c).reduce((s, j) => s + P(j)[0], 0) / subtree(b.c).length;
    const [l, r] = xOf(legs[0]) > xOf(legs[1]) ? [legs[0], legs[1]] : [legs[1], legs[0]];
    for (const [b, side] of [[l, 'left'], [r, 'right']] as const) {
      const chain = legChain(b.c).filter((j) => !m.joints[j].endSite || true);
      let knee = -1;
      for (let i = 0; i < chain.length; i++) {
        const e = segEnd(chain, i);
        if (e < 0 || m.joints[chain[i]].endSite) continue;
        const d = sub(P(e), P(chain[i]));
        if (Math.abs(d[1]) > Math.hypot(d[0], d[2])) knee = i;
      }
      if (knee < 0) continue;
      // The upper leg: the joint before the knee with a mostly vertical segment too (the pelvis segment is not).
      let upper = -1;
      for (let i = knee - 1; i >= 0; i--) {
        const e = segEnd(chain, i);
        if (e < 0) continue;
        const d = sub(P(e), P(chain[i]));
        if (len(d) > 1e-6) {
          upper = Math.abs(d[1]) > Math.hypot(d[0], d[2]) ? i : -1;
          break;
        }
      }
      // Knee found as the last vertical segment: if two vertical segments end the chain, they are thigh and shin.
      if (upper < 0) continue;
      parts[chain[upper]] = `${side}UpperLeg`;
      parts[chain[knee]] = `${side}LowerLeg`;
      const foot = chain.findIndex((j, i) => i > knee && !m.joints[j].endSite && segEnd(chain, i) >= 0);
      if (foot > 0) {
        parts[chain[foot]] = `${side}Foot`;
        const toe = chain.findIndex((j, i) => i > foot && !m.joints[j].endSite && segEnd(chain, i) >= 0);
        if (toe > 0) parts[chain[toe]] = `${side}Toes`;
      }
    }
  }
  // Spine up to the branch of three (or more).
  const sc = chainFrom(spineB.c);
  const top = sc[sc.length - 1];
  const spineJoints = sc.filter((j, i) => segEnd(sc, i) >= 0 || j === top).filter((j) => !m.joints[j].endSite);
  const spineParts: HumanoidPart[] = spineJoints.length >= 3 ? ['spine', 'chest', 'upperChest'] : ['spine', 'chest'];
  spineJoints.slice(0, 1).forEach((j) => (parts[j] = 'spine'));
  if (spineJoints.length >= 2) parts[spineJoints[spineJoints.length - 1]] = spineParts[spineParts.length - 1];
  if (spineJoints.length >= 3) parts[spineJoints[1]] = 'chest';
  const up = children[top].map((c) => ({ c, ys: subtree(c).map((j) => P(j)[1]), xs: subtree(c).map((j) => P(j)[0]) }));
  if (up.length >= 3) {
    const neckB = up.reduce((a, b) => (Math.max(...b.ys) > Math.max(...a.ys) ? b : a));
    const nc = chainFrom(neckB.c).filter((j) => !m.joints[j].endSite);
    if (nc.length >= 1) parts[nc[nc.length - 1]] = 'head';
    if (nc.length >= 2) parts[nc[nc.length - 2]] = 'neck';
    const arms = up.filter((b) => b !== neckB);
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    arms.sort((a, b) => mean(b.xs) - mean(a.xs));
    for (const [b, side] of [[arms[0], 'left'], [arms[arms.length - 1], 'right']] as const) {
      // Along the arm, through the child with the largest subtree (the hand, not the thumb).
      const c: number[] = [b.c];
      let k = b.c;
      while (children[k].length > 0) {
        k = children[k].reduce((x, y) => (subtree(y).length > subtree(x).length ? y : x));
        c.push(k);
      }
      const segs = c.map((j, i) => ({ j, i, e: segEnd(c, i) })).filter((s) => s.e >= 0 && !m.joints[s.j].endSite);
      const first = segs.slice(0, 4);
      if (first.length < 3) continue;
      let ui = 0;
      first.forEach((s, x) => {
        if (len(sub(P(s.e), P(s.j))) > len(sub(P(first[ui].e), P(first[ui].j)))) ui = x;
      });
      if (ui + 2 > segs.length - 1 + 1) continue;
      if (ui > 0) parts[segs[ui - 1].j] = `${side}Shoulder`;
      parts[segs[ui].j] = `${side}UpperArm`;
      if (segs[ui + 1]) parts[segs[ui + 1].j] = `${side}LowerArm`;
      if (segs[ui + 2]) parts[segs[ui + 2].j] = `${side}Hand`;
    }
  }
  return parts;
}

/** Joint names mapped by a map file, as given (joint name → part name, MMD bone name or `-`). */
export type MapRows = ReadonlyMap<string, string>;

/** A map row that took its part from another joint, which is left unmapped. */
export interface LostPart {
  /** The row's joint, the part it took, and the joint that had it. */
  joint: string;
  part: HumanoidPart;
  from: string;
  /** Where `from` had the part: an earlier row of the map file ('row'), or the built-in table or shape guess. */
  by: 'row' | JointMap['source'];
}

/**
 * Applies map-file rows over `base`: each row's joint (its full name, or its bare name) takes the part
 * the row names — a part name, or the MMD bone of a part (MMD_BONE_OF, in any spelling
 * shared/retarget/bone-names.ts folds: 左人差指１, 左つま先EX, English names) — and '-' or '' unmaps it.
 * Returns the map, the rows that named no joint or no part, and the rows that took a part from another
 * joint (one joint per part: that joint is left unmapped).
 */
export function withMapRows(m: BvhMotion, base: JointMap, rows: MapRows): { map: JointMap; unknownJoints: string[]; unknownTargets: string[]; lost: LostPart[] } {
  const parts = base.parts.slice();
  const unknownJoints: string[] = [];
  const unknownTargets: string[] = [];
  const lost: LostPart[] = [];
  const fromRow = new Set<number>();
  const partOfMmd = new Map<string, HumanoidPart>();
  for (const p of HUMANOID_PARTS) if (MMD_BONE_OF[p]) partOfMmd.set(canonicalBoneName(MMD_BONE_OF[p]!), p);
  for (const [joint, target] of rows) {
    const j = m.joints.findIndex((J) => !J.endSite && (J.name === joint || bareName(J.name) === joint));
    if (j < 0) {
      unknownJoints.push(joint);
      continue;
    }
    const t = target.trim();
    if (t === '-' || t === '') {
      parts[j] = null;
      continue;
    }
    const p = isHumanoidPart(t) ? t : partOfMmd.get(canonicalBoneName(t));
    if (!p) {
      unknownTargets.push(target);
      continue;
    }
    // One joint per part: a row moves the part from whichever joint had it.
    for (let k = 0; k < parts.length; k++) {
      if (parts[k] !== p || k === j) continue;
      parts[k] = null;
      lost.push({ joint: m.joints[j].name, part: p, from: m.joints[k].name, by: fromRow.has(k) ? 'row' : base.source });
    }
    parts[j] = p;
    fromRow.add(j);
  }
  return { map: { parts, source: rows.size ? 'file' : base.source }, unknownJoints, unknownTargets, lost };
}
