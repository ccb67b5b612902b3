/**
 * A PMX/PMD model's bones posed in pure TypeScript, the way MMD evaluates them: forward kinematics from
 * each bone's rest offset, append (付与) rotation and translation, and CCD IK with the links' Euler limits,
 * in MMD's transform order (deform layer, then index; after-physics bones after physics). MMD coordinates
 * (left-handed, Y up, model units), float64, world = parent ⊗ local as VMD rotations compose; the same
 * convention as the reference runtime's output (../shared/tools/physref). Used wherever a model is posed
 * outside the preview: the physics world, bakes, retargeting, BVH and VRM Animation import and export.
 * Deterministic: the trigonometry is shared/vmd/portable-math's, so Node and a browser give the same bits.
 */
import { BONE_FLAG, type ModelBone } from '../pmx/model-types';
import { matchKey } from '../pmx/model-inspect';
import { atan2, cos as cosP } from '../vmd/portable-math';
import { qaxisAngle, qconj, qmul, qnormalize, qpow, qrot } from './quat';

export interface SkeletonIkLink {
  bone: number;
  /** Euler limits (XYZ order, radians, MMD coordinates), or null. */
  min: [number, number, number] | null;
  max: [number, number, number] | null;
  /** A knee-style link: limited to X alone (Y and Z limits both zero). It turns about X only. */
  xOnly: boolean;
  /** Which single axis the limits leave free (0 none or several, 1 all fixed, 2 X, 3 Y, 4 Z). */
  solveAxis: number;
  /** The Euler order its limits are applied in: 0 YXZ, 1 ZYX, 2 XZY (the order whose middle angle the limits keep within ±90°). */
  eulerOrder: 0 | 1 | 2;
  /** Bones from this link down to the effector (this link first), whose worlds a turn of it changes. */
  path: Int32Array;
}

export interface SkeletonIk {
  /** The IK bone: its world position is the goal. */
  bone: number;
  /** The effector moved onto the goal (足首 for 足ＩＫ). */
  target: number;
  loopCount: number;
  limitAngle: number;
  links: SkeletonIkLink[];
  /** Every bone below the chain's top link, parents first: refreshed once the chain is solved. */
  subtree: Int32Array;
}

export interface Skeleton {
  readonly bones: readonly ModelBone[];
  readonly count: number;
  /** Rest position minus the parent's rest position (a root's: its rest position), 3 per bone. */
  readonly restOffset: Float64Array;
  /** Rest position in model space, 3 per bone. */
  readonly restPosition: Float64Array;
  /**
   * Evaluation order: after-physics bones last, then deform layer, then index, and a parent always before its
   * children (some files list a bone before its parent: the low-poly Miku's センター before 全ての親).
   */
  readonly order: Int32Array;
  /** matchKey(name) → the first bone of that name. */
  readonly byKey: ReadonlyMap<string, number>;
  /** 1 for after-physics bones (PMX flag 0x1000). */
  readonly afterPhysics: Uint8Array;
  /** The parent each bone is evaluated under (−1: a root; also where a parent index is out of range or loops). */
  readonly parent: Int32Array;
  /** Children of each bone. */
  readonly children: readonly Int32Array[];
  /** IK setup of each IK bone (null for other bones). */
  readonly iks: readonly (SkeletonIk | null)[];
}

/**
 * The bones bone `b`'s world transform depends on, as a mask for Pose.evaluate's `only`: its parents up to the
 * root, its append sources (and theirs), and every IK chain that can move one of them (the IK bone, its target,
 * its links and the bones from each link to the target, and what those depend on in turn). Following one bone
 * (the camera's follow) then evaluates a handful of bones a frame instead of the whole model.
 */
export function bonesNeededFor(s: Skeleton, b: number): Uint8Array {
  const need = new Uint8Array(s.count);
  const stack = [b];
  const add = (i: number) => {
    if (i >= 0 && i < s.count && !need[i]) {
      need[i] = 1;
      stack.push(i);
    }
  };
  need[b] = 1;
  // The bones each IK chain's solve changes (its links' paths down to the target, the chain's subtree).
  const moves = s.iks.map((ik) => (ik ? new Set<number>([...ik.subtree, ...ik.links.flatMap((l) => [l.bone, ...l.path])]) : null));
  const taken = new Uint8Array(s.count);
  let grew = true;
  while (grew) {
    while (stack.length) {
      const i = stack.pop()!;
      add(s.parent[i]);
      const bone = s.bones[i];
      if (bone.flags & (BONE_FLAG.APPEND_ROTATE | BONE_FLAG.APPEND_TRANSLATE) && bone.appendParent !== i) add(bone.appendParent);
    }
    grew = false;
    s.iks.forEach((ik, k) => {
      if (!ik || taken[k]) return;
      for (const m of moves[k]!) {
        if (!need[m]) continue;
        taken[k] = 1;
        add(k);
        add(ik.target);
        for (const l of ik.links) {
          add(l.bone);
          l.path.forEach(add);
        }
        grew = true;
        return;
      }
    });
  }
  return need;
}

function descendants(children: readonly number[][], top: number): Int32Array {
  const out: number[] = [];
  const stack = [...children[top]].reverse();
  while (stack.length) {
    const b = stack.pop()!;
    out.push(b);
    for (let k = children[b].length - 1; k >= 0; k--) stack.push(children[b][k]);
  }
  return Int32Array.from(out);
}

/** Builds the evaluation tables of a model's bones (ModelData.bones from readModel). */
export function buildSkeleton(bones: readonly ModelBone[]): Skeleton {
  const n = bones.length;
  const restPosition = new Float64Array(3 * n);
  const restOffset = new Float64Array(3 * n);
  const valid = (p: number) => p >= 0 && p < n;
  const kids: number[][] = bones.map(() => []);
  bones.forEach((b, i) => {
    restPosition.set(b.position, 3 * i);
    if (valid(b.parent) && b.parent !== i) kids[b.parent].push(i);
  });
  // A parent loop (a → b → a) is not a tree: its bones are treated as roots where the loop closes.
  const parentOf = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const p = bones[i].parent;
    if (!valid(p) || p === i) continue;
    let q = p, steps = 0;
    while (q >= 0 && q !== i && steps <= n) {
      q = valid(bones[q].parent) && bones[q].parent !== q ? bones[q].parent : -1;
      steps++;
    }
    if (q !== i) parentOf[i] = p;
  }
  const children: number[][] = bones.map(() => []);
  for (let i = 0; i < n; i++) if (parentOf[i] >= 0) children[parentOf[i]].push(i);
  for (let i = 0; i < n; i++) {
    const p = parentOf[i];
    for (let k = 0; k < 3; k++) restOffset[3 * i + k] = restPosition[3 * i + k] - (p >= 0 ? restPosition[3 * p + k] : 0);
  }
  const afterPhysics = new Uint8Array(n);
  bones.forEach((b, i) => (afterPhysics[i] = b.flags & BONE_FLAG.AFTER_PHYSICS ? 1 : 0));
  const sorted = bones.map((_, i) => i);
  sorted.sort((a, b) => afterPhysics[a] - afterPhysics[b] || bones[a].layer - bones[b].layer || a - b);
  // Parents first: a bone's unplaced ancestors are placed just before it.
  const placed = new Uint8Array(n);
  const order: number[] = [];
  const place = (i: number) => {
    const chain: number[] = [];
    for (let b = i; b >= 0 && !placed[b]; b = parentOf[b]) chain.push(b);
    for (let k = chain.length - 1; k >= 0; k--) {
      placed[chain[k]] = 1;
      order.push(chain[k]);
    }
  };
  for (const i of sorted) place(i);
  const byKey = new Map<string, number>();
  bones.forEach((b, i) => {
    const k = matchKey(b.name);
    if (!byKey.has(k)) byKey.set(k, i);
  });
  const iks: (SkeletonIk | null)[] = bones.map((b, i) => {
    const ik = b.ik;
    if (!ik || !valid(ik.target) || ik.links.length === 0) return null;
    const links: SkeletonIkLink[] = [];
    for (const l of ik.links) {
      if (!valid(l.bone)) continue;
      // The bones from the link down to the effector, when the effector lies below the link.
      const down: number[] = [];
      let b2 = ik.target, steps = 0;
      while (b2 >= 0 && b2 !== l.bone && steps++ <= n) {
        down.push(b2);
        b2 = parentOf[b2];
      }
      if (b2 !== l.bone) continue; // not an ancestor of the effector: MMD has nothing to turn
      down.push(l.bone);
      down.reverse();
      const lim = l.limits;
      const min: [number, number, number] | null = lim ? [0, 1, 2].map((k) => Math.min(lim.min[k], lim.max[k])) as [number, number, number] : null;
      const max: [number, number, number] | null = lim ? [0, 1, 2].map((k) => Math.max(lim.min[k], lim.max[k])) as [number, number, number] : null;
      const zero = (k: number) => !!min && min[k] === 0 && max![k] === 0;
      const xOnly = !!lim && zero(1) && zero(2);
      let solveAxis = 0, eulerOrder: 0 | 1 | 2 = 2;
      if (min && max) {
        const half = Math.PI / 2;
        eulerOrder = -half < min[0] && max[0] < half ? 0 : -half < min[1] && max[1] < half ? 1 : 2;
        solveAxis = zero(0) && zero(1) && zero(2) ? 1 : zero(1) && zero(2) ? 2 : zero(0) && zero(2) ? 3 : zero(0) && zero(1) ? 4 : 0;
      }
      links.push({ bone: l.bone, min, max, xOnly, solveAxis, eulerOrder, path: Int32Array.from(down) });
    }
    if (links.length === 0) return null;
    const top = links[links.length - 1].bone;
    return {
      bone: i,
      target: ik.target,
      loopCount: Math.max(1, Math.min(ik.loopCount, 256)),
      limitAngle: ik.limitAngle > 0 ? ik.limitAngle : Math.PI,
      links,
      subtree: descendants(children, top),
    };
  });
  return {
    bones,
    count: n,
    restOffset,
    restPosition,
    order: Int32Array.from(order),
    byKey,
    afterPhysics,
    parent: parentOf,
    children: children.map((c) => Int32Array.from(c)),
    iks,
  };
}

export type PosePhase = 'all' | 'beforePhysics' | 'afterPhysics';

/** Append ratios up to this many whole turns are applied turn by turn (the results stay as they were); past it, at once. */
const MAX_WHOLE_TURNS = 64;
const scratchQ = new Float64Array(8);
const scratchV = new Float64Array(12);

const turnQ = new Float64Array(8);

/**
 * The append (付与) rotation a bone takes from its source: the source's solved rotation `q[qi..]` (after its own
 * append and IK) to the power r (a negative r turns back; ratios past 1 as whole turns, then the fraction), into
 * out[o..]. The bone's solved rotation is this turn ⊗ its local rotation (Pose.evaluate); a bake that keys what
 * plays takes it back out (shared/bake/world-keys.ts).
 */
export function appendTurnInto(out: Float64Array, o: number, q: ArrayLike<number>, qi: number, r: number): void {
  const t = turnQ;
  // The source's rotation, a fraction r of it; a negative r turns back.
  if (r < 0) qconj(t, 4, q, qi);
  else {
    t[4] = q[qi]; t[5] = q[qi + 1]; t[6] = q[qi + 2]; t[7] = q[qi + 3];
  }
  const a = Math.abs(r);
  if (a > MAX_WHOLE_TURNS) {
    // Past any rig (a damaged ratio, up to 3.4e38): the source's rotation to the power |r| at once.
    // Turn by turn that was a loop of |r| products, which never ended.
    qpow(t, 0, t, 4, a);
  } else {
    qpow(t, 0, t, 4, Math.min(1, a));
    if (a > 1) {
      // Ratios past 1 (rare): whole turns of the source, then the remaining fraction.
      let whole = Math.floor(a);
      qpow(t, 0, t, 4, a - whole);
      while (whole-- > 0) qmul(t, 0, t, 4, t, 0);
    }
  }
  out[o] = t[0]; out[o + 1] = t[1]; out[o + 2] = t[2]; out[o + 3] = t[3];
}

/** The append (付与) rotation bone i takes as Pose.evaluate applies it (its source and ratio), or null when none. */
export function appendRotationOf(s: Skeleton, i: number): { src: number; ratio: number } | null {
  const b = s.bones[i];
  const src = b.appendParent;
  if (!(src >= 0 && src < s.count && src !== i && b.flags & BONE_FLAG.APPEND_ROTATE)) return null;
  const r = Number.isFinite(b.appendRatio) ? b.appendRatio : 0;
  return r !== 0 ? { src, ratio: r } : null;
}

/** The append (付与) translation bone i takes as Pose.evaluate applies it (ST += r·ST[src]), or null when none. */
export function appendTranslationOf(s: Skeleton, i: number): { src: number; ratio: number } | null {
  const b = s.bones[i];
  const src = b.appendParent;
  if (!(src >= 0 && src < s.count && src !== i && b.flags & BONE_FLAG.APPEND_TRANSLATE)) return null;
  const r = Number.isFinite(b.appendRatio) ? b.appendRatio : 0;
  return r !== 0 ? { src, ratio: r } : null;
}

/** One pose of a skeleton: the motion's local transforms in, world transforms out. */
export class Pose {
  /** The motion's local translation per bone (added to the rest offset), 3 per bone. */
  readonly translation: Float64Array;
  /** The motion's local rotation per bone, x y z w. */
  readonly rotation: Float64Array;
  /** Local translation after append, 3 per bone. */
  readonly solvedTranslation: Float64Array;
  /** Local rotation after append and IK, 4 per bone. */
  readonly solvedRotation: Float64Array;
  /** World position per bone (model space). */
  readonly worldPosition: Float64Array;
  /** World rotation per bone. */
  readonly worldRotation: Float64Array;

  constructor(readonly skeleton: Skeleton) {
    const n = skeleton.count;
    this.translation = new Float64Array(3 * n);
    this.rotation = new Float64Array(4 * n);
    this.solvedTranslation = new Float64Array(3 * n);
    this.solvedRotation = new Float64Array(4 * n);
    this.worldPosition = new Float64Array(3 * n);
    this.worldRotation = new Float64Array(4 * n);
    this.reset();
  }

  /** The rest pose: no translation, no rotation (inputs and results). */
  reset(): void {
    const n = this.skeleton.count;
    this.translation.fill(0);
    this.solvedTranslation.fill(0);
    for (let i = 0; i < n; i++) {
      this.rotation[4 * i] = this.rotation[4 * i + 1] = this.rotation[4 * i + 2] = 0;
      this.rotation[4 * i + 3] = 1;
    }
    this.solvedRotation.set(this.rotation);
    this.worldRotation.set(this.rotation);
    this.worldPosition.set(this.skeleton.restPosition);
  }

  /**
   * Evaluates the bones of a phase in transform order: each bone's local transform from the inputs, its
   * append, its world transform, then, for an IK bone whose chain is on, the chain. 'beforePhysics' is every
   * bone but the after-physics ones (MMD: deform layer, IK and append before physics), 'afterPhysics' those.
   * `only` (a mask by bone, from bonesNeededFor): just those bones; the others keep what they held. The masked
   * bones come out as from a whole evaluation, when the mask holds every bone they depend on.
   */
  evaluate(phase: PosePhase = 'all', ikEnabled?: (ikBone: number) => boolean, only?: Uint8Array): void {
    const s = this.skeleton;
    const T = this.translation, R = this.rotation, ST = this.solvedTranslation, SR = this.solvedRotation;
    for (let k = 0; k < s.order.length; k++) {
      const i = s.order[k];
      if (only && !only[i]) continue;
      if (phase === 'beforePhysics' && s.afterPhysics[i]) continue;
      if (phase === 'afterPhysics' && !s.afterPhysics[i]) continue;
      ST[3 * i] = T[3 * i]; ST[3 * i + 1] = T[3 * i + 1]; ST[3 * i + 2] = T[3 * i + 2];
      SR[4 * i] = R[4 * i]; SR[4 * i + 1] = R[4 * i + 1]; SR[4 * i + 2] = R[4 * i + 2]; SR[4 * i + 3] = R[4 * i + 3];
      const b = s.bones[i];
      const src = b.appendParent;
      if (src >= 0 && src < s.count && src !== i && b.flags & (BONE_FLAG.APPEND_ROTATE | BONE_FLAG.APPEND_TRANSLATE)) {
        // A ratio that is not a number (a damaged model the reader was not asked about) appends nothing.
        const r = Number.isFinite(b.appendRatio) ? b.appendRatio : 0;
        if (b.flags & BONE_FLAG.APPEND_ROTATE && r !== 0) {
          appendTurnInto(scratchQ, 0, SR, 4 * src, r);
          qmul(SR, 4 * i, scratchQ, 0, SR, 4 * i);
        }
        if (b.flags & BONE_FLAG.APPEND_TRANSLATE && r !== 0) {
          ST[3 * i] += ST[3 * src] * r;
          ST[3 * i + 1] += ST[3 * src + 1] * r;
          ST[3 * i + 2] += ST[3 * src + 2] * r;
        }
      }
      this.updateWorld(i);
      const ik = s.iks[i];
      if (ik && (!ikEnabled || ikEnabled(i))) this.solveIk(ik);
    }
  }

  /** Bone i's world transform from its parent's world and its solved local transform. */
  updateWorld(i: number): void {
    const s = this.skeleton;
    const p = s.parent[i];
    const WP = this.worldPosition, WR = this.worldRotation;
    const o = s.restOffset;
    scratchV[0] = o[3 * i] + this.solvedTranslation[3 * i];
    scratchV[1] = o[3 * i + 1] + this.solvedTranslation[3 * i + 1];
    scratchV[2] = o[3 * i + 2] + this.solvedTranslation[3 * i + 2];
    if (p >= 0) {
      qrot(scratchV, 0, WR, 4 * p, scratchV, 0);
      WP[3 * i] = WP[3 * p] + scratchV[0];
      WP[3 * i + 1] = WP[3 * p + 1] + scratchV[1];
      WP[3 * i + 2] = WP[3 * p + 2] + scratchV[2];
      qmul(WR, 4 * i, WR, 4 * p, this.solvedRotation, 4 * i);
    } else {
      WP[3 * i] = scratchV[0];
      WP[3 * i + 1] = scratchV[1];
      WP[3 * i + 2] = scratchV[2];
      WR.set(this.solvedRotation.subarray(4 * i, 4 * i + 4), 4 * i);
    }
  }

  /**
   * Puts bone i at a world position and rotation (a physics body's), and sets its solved local transform
   * to match, relative to its parent's current world transform.
   */
  setWorld(i: number, position: ArrayLike<number>, rotation: ArrayLike<number>): void {
    const s = this.skeleton;
    const WP = this.worldPosition, WR = this.worldRotation;
    WP[3 * i] = position[0]; WP[3 * i + 1] = position[1]; WP[3 * i + 2] = position[2];
    WR[4 * i] = rotation[0]; WR[4 * i + 1] = rotation[1]; WR[4 * i + 2] = rotation[2]; WR[4 * i + 3] = rotation[3];
    const p = s.parent[i];
    if (p >= 0) {
      qconj(scratchQ, 0, WR, 4 * p);
      qmul(this.solvedRotation, 4 * i, scratchQ, 0, WR, 4 * i);
      scratchV[0] = position[0] - WP[3 * p];
      scratchV[1] = position[1] - WP[3 * p + 1];
      scratchV[2] = position[2] - WP[3 * p + 2];
      qrot(scratchV, 0, scratchQ, 0, scratchV, 0);
    } else {
      this.solvedRotation.set(WR.subarray(4 * i, 4 * i + 4), 4 * i);
      scratchV[0] = position[0]; scratchV[1] = position[1]; scratchV[2] = position[2];
    }
    for (let k = 0; k < 3; k++) this.solvedTranslation[3 * i + k] = scratchV[k] - s.restOffset[3 * i + k];
  }

  /** Bone i's world matrix, column-major 4×4 (MMD coordinates), into out[o..o+15]. */
  worldMatrix(i: number, out: Float32Array | Float64Array, o = 0): void {
    const q = this.worldRotation, p = this.worldPosition;
    const x = q[4 * i], y = q[4 * i + 1], z = q[4 * i + 2], w = q[4 * i + 3];
    out[o] = 1 - 2 * (y * y + z * z); out[o + 1] = 2 * (x * y + w * z); out[o + 2] = 2 * (x * z - w * y); out[o + 3] = 0;
    out[o + 4] = 2 * (x * y - w * z); out[o + 5] = 1 - 2 * (x * x + z * z); out[o + 6] = 2 * (y * z + w * x); out[o + 7] = 0;
    out[o + 8] = 2 * (x * z + w * y); out[o + 9] = 2 * (y * z - w * x); out[o + 10] = 1 - 2 * (x * x + y * y); out[o + 11] = 0;
    out[o + 12] = p[3 * i]; out[o + 13] = p[3 * i + 1]; out[o + 14] = p[3 * i + 2]; out[o + 15] = 1;
  }

  /**
   * Cyclic coordinate descent as MMD runs it (the rules as saba and babylon-mmd reproduce MMD; written here
   * from their description). Each chain link keeps an IK rotation applied in its parent's space on top of its
   * motion rotation. Per iteration, each link from the effector's parent upward turns so the effector points
   * at the IK bone, by at most the chain's limit angle times the link's place in the chain (1, 2, …). A link
   * with limits is clamped in Euler angles (the order whose middle angle its limits keep within ±90°, that
   * angle held within ±88°); in the first half of the iterations a link free about one axis alone (a knee)
   * turns about its parent's axis, and an angle past a limit is reflected back inside it (so a straight knee
   * bends the way it can). All-zero limits fix a link. The chain's subtree is refreshed after.
   */
  private solveIk(ik: SkeletonIk): void {
    const WP = this.worldPosition, WR = this.worldRotation, SR = this.solvedRotation;
    const parent = this.skeleton.parent;
    const t = ik.target;
    const gx = WP[3 * ik.bone], gy = WP[3 * ik.bone + 1], gz = WP[3 * ik.bone + 2];
    const dist2 = () => (WP[3 * t] - gx) ** 2 + (WP[3 * t + 1] - gy) ** 2 + (WP[3 * t + 2] - gz) ** 2;
    if (dist2() < 1e-8) return;
    const n = ik.links.length;
    // Per link: its rotation before IK (motion and append) and its IK rotation so far.
    const base = this.ikBase.length >= 4 * n ? this.ikBase : (this.ikBase = new Float64Array(4 * n));
    const ikr = this.ikRot.length >= 4 * n ? this.ikRot : (this.ikRot = new Float64Array(4 * n));
    for (let c = 0; c < n; c++) {
      base.set(SR.subarray(4 * ik.links[c].bone, 4 * ik.links[c].bone + 4), 4 * c);
      ikr[4 * c] = ikr[4 * c + 1] = ikr[4 * c + 2] = 0;
      ikr[4 * c + 3] = 1;
    }
    const v = scratchV, q = scratchQ;
    const half = ik.loopCount >> 1;
    for (let it = 0; it < ik.loopCount; it++) {
      const useAxis = it < half;
      for (let c = 0; c < n; c++) {
        const l = ik.links[c];
        if (l.solveAxis === 1) continue; // every limit zero: the link does not turn
        const b = l.bone;
        // From the link to the effector and to the goal, unit length; the turn's axis in world space.
        v[0] = WP[3 * t] - WP[3 * b]; v[1] = WP[3 * t + 1] - WP[3 * b + 1]; v[2] = WP[3 * t + 2] - WP[3 * b + 2];
        v[3] = gx - WP[3 * b]; v[4] = gy - WP[3 * b + 1]; v[5] = gz - WP[3 * b + 2];
        const ne = Math.hypot(v[0], v[1], v[2]), ng = Math.hypot(v[3], v[4], v[5]);
        if (ne === 0 || ng === 0) continue;
        for (let k = 0; k < 3; k++) {
          v[k] /= ne;
          v[3 + k] /= ng;
        }
        v[6] = v[1] * v[5] - v[2] * v[4];
        v[7] = v[2] * v[3] - v[0] * v[5];
        v[8] = v[0] * v[4] - v[1] * v[3];
        const cn = Math.hypot(v[6], v[7], v[8]);
        if (cn * cn < 1e-8) continue;
        const dot = Math.max(-1, Math.min(1, v[0] * v[3] + v[1] * v[4] + v[2] * v[5]));
        const p = parent[b];
        // The parent's world rotation (identity for a root), inverted: the axis in the parent's space.
        if (p >= 0) qconj(q, 0, WR, 4 * p);
        else {
          q[0] = q[1] = q[2] = 0;
          q[3] = 1;
        }
        if (l.min && useAxis && l.solveAxis >= 2) {
          // Turn about the parent's own axis, the sign of the world axis' side of it.
          const k = l.solveAxis - 2;
          v[9] = k === 0 ? 1 : 0; v[10] = k === 1 ? 1 : 0; v[11] = k === 2 ? 1 : 0;
          if (p >= 0) qrot(v, 9, WR, 4 * p, v, 9);
          const side = v[6] * v[9] + v[7] * v[10] + v[8] * v[11] >= 0 ? 1 : -1;
          v[6] = v[7] = v[8] = 0;
          v[6 + k] = side;
        } else {
          qrot(v, 6, q, 0, v, 6);
          const an = Math.hypot(v[6], v[7], v[8]);
          v[6] /= an; v[7] /= an; v[8] /= an;
        }
        const angle = Math.min(ik.limitAngle * (c + 1), atan2(cn, dot));
        qaxisAngle(q, 4, v[6], v[7], v[8], angle);
        qmul(ikr, 4 * c, q, 4, ikr, 4 * c);
        if (l.min && l.max) {
          qmul(q, 0, ikr, 4 * c, base, 4 * c); // the link's whole local rotation
          limitedRotation(q, 0, l, useAxis);
          qconj(q, 4, base, 4 * c);
          qmul(ikr, 4 * c, q, 0, q, 4);
        }
        qmul(SR, 4 * b, ikr, 4 * c, base, 4 * c);
        qnormalize(SR, 4 * b);
        for (let k = 0; k < l.path.length; k++) this.updateWorld(l.path[k]);
      }
      if (dist2() < 1e-8) break;
    }
    for (let k = 0; k < ik.subtree.length; k++) this.updateWorld(ik.subtree[k]);
  }

  private ikBase = new Float64Array(0);
  private ikRot = new Float64Array(0);
}

/** An angle past a limit: the limit, or (useAxis) the angle reflected back inside the range when it fits. */
function limitAngle(a: number, min: number, max: number, useAxis: boolean): number {
  if (a < min) {
    const d = 2 * min - a;
    return d <= max && useAxis ? d : min;
  }
  if (a > max) {
    const d = 2 * max - a;
    return d >= min && useAxis ? d : max;
  }
  return a;
}

const THRESHOLD = (88 * Math.PI) / 180;
const asin = (s: number) => atan2(s, Math.sqrt(Math.max(0, 1 - s * s)));
const eulerQ = new Float64Array(12);
/** The rotation matrix being limited, row by row (R[3r + c]), and its Euler angles by axis (x, y, z). */
const eulerR = new Float64Array(9);
const eulerAngle = new Float64Array(3);
/**
 * Each Euler order (SkeletonIkLink.eulerOrder) as its axes, outermost first: R = R_a·R_b·R_c. 0 YXZ, 1 ZYX,
 * 2 XZY; all three are odd permutations of XYZ, so one set of formulas serves them.
 */
const EULER_AXES = [
  [1, 0, 2],
  [2, 1, 0],
  [0, 2, 1],
] as const;
const UNIT_AXES = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
] as const;

/**
 * q[o..] clamped to a link's Euler limits, in its order R = R_a·R_b·R_c (EULER_AXES): the middle angle
 * b = asin(−R_ac) held within ±88°, a = atan2(R_bc, R_cc), c = atan2(R_ab, R_aa) (both over cos b); each
 * angle limited to its axis' range, and q made again from the three turns in the same order.
 */
function limitedRotation(q: Float64Array, o: number, l: SkeletonIkLink, useAxis: boolean): void {
  const x = q[o], y = q[o + 1], z = q[o + 2], w = q[o + 3];
  // The rotation matrix R (column vectors: v' = R v), entries Rrc at R[3r + c].
  const R = eulerR;
  R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - w * z); R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z); R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y); R[7] = 2 * (y * z + w * x); R[8] = 1 - 2 * (x * x + y * y);
  const [a, b, c] = EULER_AXES[l.eulerOrder];
  const angle = eulerAngle;
  const mid = asin(-R[3 * a + c]);
  angle[b] = Math.abs(mid) > THRESHOLD ? Math.sign(mid) * THRESHOLD : mid;
  const k = cos0(angle[b]);
  angle[a] = atan2(R[3 * b + c] * k, R[3 * c + c] * k);
  angle[c] = atan2(R[3 * a + b] * k, R[3 * a + a] * k);
  const mn = l.min!, mx = l.max!;
  for (let i = 0; i < 3; i++) angle[i] = limitAngle(angle[i], mn[i], mx[i], useAxis);
  for (let i = 0; i < 3; i++) {
    const axis = UNIT_AXES[EULER_AXES[l.eulerOrder][i]];
    qaxisAngle(eulerQ, 4 * i, axis[0], axis[1], axis[2], angle[EULER_AXES[l.eulerOrder][i]]);
  }
  qmul(eulerQ, 0, eulerQ, 0, eulerQ, 4);
  qmul(q, o, eulerQ, 0, eulerQ, 8);
}

/** 1 / cos(a), or 0 where cos(a) is 0 (the sign of the atan2 arguments is what matters there). */
function cos0(a: number): number {
  const c = cosP(a);
  return c !== 0 ? 1 / c : 0;
}
