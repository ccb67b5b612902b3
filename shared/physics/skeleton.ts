/**
 * A model's skeleton posed the way MMD poses it, in float64 over typed arrays, for the physics world and the
 * bake (the preview has its own three.js rig). MMD bones have no rest rotation: a bone's local transform is a
 * translation by (its position − its parent's) plus its motion translation, then its rotation; world =
 * parent ∘ local (quaternions compose like VMD's: world = parent ⊗ local).
 *
 * MMD rule — bone order: bones are evaluated by deformation layer, then index, in two stages: every bone not
 * flagged after-physics (with IK and append (付与) solved as they come), then physics, then the after-physics
 * bones. Where a file lists a bone before its parent, the parent is evaluated first (the low-poly Miku lists
 * センター before 全ての親); babylon-mmd instead gives such a bone an identity parent.
 */
import { BONE_FLAG, type ModelData } from '../pmx/model-types';

/** q ⊗ r into out at o (Hamilton product; x, y, z, w). */
export function qmul(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, out: Float64Array, o: number): void {
  const ax = a[ai], ay = a[ai + 1], az = a[ai + 2], aw = a[ai + 3];
  const bx = b[bi], by = b[bi + 1], bz = b[bi + 2], bw = b[bi + 3];
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** Rotates (x, y, z) by unit quaternion q at qi, into out at o. */
export function qrot(q: ArrayLike<number>, qi: number, x: number, y: number, z: number, out: Float64Array, o: number): void {
  const qx = q[qi], qy = q[qi + 1], qz = q[qi + 2], qw = q[qi + 3];
  // t = 2 q×v; v' = v + w t + q×t
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  out[o] = x + qw * tx + (qy * tz - qz * ty);
  out[o + 1] = y + qw * ty + (qz * tx - qx * tz);
  out[o + 2] = z + qw * tz + (qx * ty - qy * tx);
}

function normalize4(a: Float64Array, o: number): void {
  const n = Math.hypot(a[o], a[o + 1], a[o + 2], a[o + 3]);
  if (n > 0) for (let k = 0; k < 4; k++) a[o + k] /= n;
  else { a[o] = a[o + 1] = a[o + 2] = 0; a[o + 3] = 1; }
}

const T = new Float64Array(8);

interface IkChain {
  bone: number;
  target: number;
  loops: number;
  limit: number;
  links: { bone: number; min: number[] | null; max: number[] | null; axis: number; order: number }[];
  /** Bones whose world depends on a link, in evaluation order (recomputed after the solve). */
  after: number[];
}

export class Skeleton {
  readonly n: number;
  readonly parent: Int32Array;
  /** Rest offset from the parent (position − parent's position), 3 per bone. */
  readonly rest: Float64Array;
  /** Stage 0 (before physics) and stage 1 (after physics) in evaluation order, parents first. */
  readonly order: [Int32Array, Int32Array];
  /** Motion translation and rotation per bone (inputs; set by the caller each frame). */
  readonly motionPos: Float64Array;
  readonly motionRot: Float64Array;
  /** Local translation and rotation after append and IK. */
  readonly localPos: Float64Array;
  readonly localRot: Float64Array;
  readonly worldPos: Float64Array;
  readonly worldRot: Float64Array;
  private readonly iks: (IkChain | null)[];
  private readonly append: Int32Array;
  private readonly appendRatio: Float64Array;
  private readonly appendRot: Uint8Array;
  private readonly appendMove: Uint8Array;

  constructor(readonly model: ModelData) {
    const bones = model.bones;
    const n = (this.n = bones.length);
    this.parent = Int32Array.from(bones, (b) => b.parent);
    this.rest = new Float64Array(3 * n);
    bones.forEach((b, i) => {
      const p = b.parent >= 0 ? bones[b.parent].position : [0, 0, 0];
      for (let k = 0; k < 3; k++) this.rest[3 * i + k] = b.position[k] - p[k];
    });
    this.motionPos = new Float64Array(3 * n);
    this.motionRot = new Float64Array(4 * n);
    this.localPos = new Float64Array(3 * n);
    this.localRot = new Float64Array(4 * n);
    this.worldPos = new Float64Array(3 * n);
    this.worldRot = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) this.motionRot[4 * i + 3] = this.localRot[4 * i + 3] = this.worldRot[4 * i + 3] = 1;
    this.append = Int32Array.from(bones, (b) => b.appendParent);
    this.appendRatio = Float64Array.from(bones, (b) => b.appendRatio);
    this.appendRot = Uint8Array.from(bones, (b) => (b.flags & BONE_FLAG.APPEND_ROTATE ? 1 : 0));
    this.appendMove = Uint8Array.from(bones, (b) => (b.flags & BONE_FLAG.APPEND_TRANSLATE ? 1 : 0));

    // Evaluation order: (stage, layer, index), then each bone's parent moved ahead of it within its stage.
    const stage = (i: number) => (bones[i].flags & BONE_FLAG.AFTER_PHYSICS ? 1 : 0);
    const sorted = bones.map((_, i) => i).sort((a, b) => stage(a) - stage(b) || bones[a].layer - bones[b].layer || a - b);
    const lists: number[][] = [[], []];
    const seen = new Uint8Array(n);
    const visit = (i: number, s: number) => {
      if (seen[i]) return;
      seen[i] = 1;
      const p = bones[i].parent;
      if (p >= 0 && stage(p) === s) visit(p, s);
      lists[s].push(i);
    };
    for (const i of sorted) visit(i, stage(i));
    this.order = [Int32Array.from(lists[0]), Int32Array.from(lists[1])];

    const position = new Int32Array(n);
    lists[0].concat(lists[1]).forEach((b, k) => (position[b] = k));
    const flat = lists[0].concat(lists[1]);
    this.iks = bones.map((b, i) => {
      if (!b.ik || b.ik.links.length === 0) return null;
      const links = b.ik.links.map((l) => {
        const lim = l.limits;
        if (!lim) return { bone: l.bone, min: null, max: null, axis: AXIS_NONE, order: ORDER_YXZ };
        // A link limited to one axis turns about it (knees: X); all three fixed: it does not turn.
        const free = [0, 1, 2].map((k) => lim.min[k] !== 0 || lim.max[k] !== 0);
        const nFree = free.filter(Boolean).length;
        const axis = nFree === 0 ? AXIS_FIXED : nFree === 1 ? (free[0] ? AXIS_X : free[1] ? AXIS_Y : AXIS_Z) : AXIS_NONE;
        const half = Math.PI / 2;
        const order = -half < lim.min[0] && lim.max[0] < half ? ORDER_YXZ : -half < lim.min[1] && lim.max[1] < half ? ORDER_ZYX : ORDER_XZY;
        return { bone: l.bone, min: [...lim.min], max: [...lim.max], axis, order };
      });
      const linkSet = new Set(links.map((l) => l.bone));
      const dependsOnLink = (k: number): boolean => {
        for (let p = k, steps = 0; p >= 0 && steps <= n; p = bones[p].parent, steps++) if (linkSet.has(p)) return true;
        return false;
      };
      const after = flat.filter((k) => dependsOnLink(k));
      return { bone: i, target: b.ik.target, loops: Math.max(1, Math.min(b.ik.loopCount, 256)), limit: b.ik.limitAngle > 0 ? b.ik.limitAngle : Math.PI, links, after };
    });
    void position;
  }

  /**
   * MMD rule — with physics on, an IK chain whose links are all physics bones is not solved (physics moves
   * them); `physicsBones` marks the bones a dynamic body drives (null: physics off, every IK solved).
   */
  setPhysicsBones(physicsBones: Uint8Array | null): void {
    this.skipIk = this.iks.map((ik) => !!ik && !!physicsBones && ik.links.every((l) => physicsBones[l.bone] === 1));
  }
  private skipIk: boolean[] = [];

  /** Resets the motion inputs to the rest pose. */
  clearMotion(): void {
    this.motionPos.fill(0);
    this.motionRot.fill(0);
    for (let i = 0; i < this.n; i++) this.motionRot[4 * i + 3] = 1;
  }

  /** World transform of bone i from its parent's world and its local transform. */
  updateWorld(i: number): void {
    const p = this.parent[i];
    const lx = this.rest[3 * i] + this.localPos[3 * i], ly = this.rest[3 * i + 1] + this.localPos[3 * i + 1], lz = this.rest[3 * i + 2] + this.localPos[3 * i + 2];
    const W = this.worldPos, R = this.worldRot;
    if (p < 0) {
      W[3 * i] = lx; W[3 * i + 1] = ly; W[3 * i + 2] = lz;
      for (let k = 0; k < 4; k++) R[4 * i + k] = this.localRot[4 * i + k];
      return;
    }
    qrot(R, 4 * p, lx, ly, lz, T, 0);
    W[3 * i] = W[3 * p] + T[0]; W[3 * i + 1] = W[3 * p + 1] + T[1]; W[3 * i + 2] = W[3 * p + 2] + T[2];
    qmul(R, 4 * p, this.localRot, 4 * i, R, 4 * i);
  }

  /** Local transform from the motion and append (付与): the source's local rotation scaled by the ratio. */
  private local(i: number): void {
    const L = this.localRot, M = this.motionRot;
    for (let k = 0; k < 3; k++) this.localPos[3 * i + k] = this.motionPos[3 * i + k];
    for (let k = 0; k < 4; k++) L[4 * i + k] = M[4 * i + k];
    const a = this.append[i];
    if (a < 0) return;
    const r = this.appendRatio[i];
    if (this.appendRot[i]) {
      // slerp(identity, source, ratio) ⊗ own
      const sx = L[4 * a], sy = L[4 * a + 1], sz = L[4 * a + 2];
      let sw = L[4 * a + 3];
      const sign = sw < 0 ? -1 : 1;
      sw *= sign;
      const half = Math.acos(Math.min(1, sw));
      const s = Math.sin(half);
      const h = half * r;
      const f = s > 1e-12 ? (sign * Math.sin(h)) / s : sign * r;
      T[0] = sx * f; T[1] = sy * f; T[2] = sz * f; T[3] = Math.cos(h);
      qmul(T, 0, M, 4 * i, L, 4 * i);
      normalize4(L, 4 * i);
    }
    if (this.appendMove[i]) for (let k = 0; k < 3; k++) this.localPos[3 * i + k] += this.localPos[3 * a + k] * r;
  }

  /** Evaluates one stage (0: before physics, 1: after physics) from the motion inputs. */
  evaluate(stageIndex: 0 | 1): void {
    const order = this.order[stageIndex];
    for (let k = 0; k < order.length; k++) {
      const i = order[k];
      this.local(i);
      this.updateWorld(i);
      const ik = this.iks[i];
      if (ik && !this.skipIk[i]) this.solveIk(ik);
    }
  }

  /** Recomputes world transforms from the current locals for the bones of a stage, except `skip` (driven bones). */
  refresh(stageIndex: 0 | 1, skip: Uint8Array): void {
    const order = this.order[stageIndex];
    for (let k = 0; k < order.length; k++) if (!skip[order[k]]) this.updateWorld(order[k]);
  }

  /**
   * Cyclic-coordinate-descent IK as MMD runs it (babylon-mmd's reading of it): per iteration each link, from the
   * effector's parent up, turns about the axis (in its parent's frame) that brings the effector toward the IK
   * bone, by at most the chain's limit angle × (link number + 1); a limited link's rotation is decomposed into
   * Euler angles and clamped (reflected back inside its range during the first half of the iterations), and a
   * link limited to one axis turns about that axis only during that half.
   */
  private solveIk(ik: IkChain): void {
    const W = this.worldPos, R = this.worldRot, L = this.localRot;
    const gx = W[3 * ik.bone], gy = W[3 * ik.bone + 1], gz = W[3 * ik.bone + 2];
    const e = ik.target;
    for (const k of ik.after) this.updateWorld(k);
    const dist2 = () => (W[3 * e] - gx) ** 2 + (W[3 * e + 1] - gy) ** 2 + (W[3 * e + 2] - gz) ** 2;
    if (dist2() < 1e-8) return;
    const links = ik.links, nl = links.length;
    const base = IK_BASE.length >= 4 * nl ? IK_BASE : (IK_BASE = new Float64Array(4 * nl));
    const rot = IK_ROT.length >= 4 * nl ? IK_ROT : (IK_ROT = new Float64Array(4 * nl));
    for (let c = 0; c < nl; c++) {
      const j = links[c].bone;
      for (let k = 0; k < 4; k++) base[4 * c + k] = L[4 * j + k];
      rot[4 * c] = rot[4 * c + 1] = rot[4 * c + 2] = 0; rot[4 * c + 3] = 1;
    }
    const half = ik.loops >> 1;
    for (let it = 0; it < ik.loops; it++) {
      const useAxis = it < half;
      for (let c = 0; c < nl; c++) {
        const l = links[c];
        if (l.axis === AXIS_FIXED) continue;
        const j = l.bone;
        let tx = W[3 * j] - W[3 * e], ty = W[3 * j + 1] - W[3 * e + 1], tz = W[3 * j + 2] - W[3 * e + 2];
        let ix = W[3 * j] - gx, iy = W[3 * j + 1] - gy, iz = W[3 * j + 2] - gz;
        const nt = Math.hypot(tx, ty, tz), ni = Math.hypot(ix, iy, iz);
        if (nt === 0 || ni === 0) continue;
        tx /= nt; ty /= nt; tz /= nt; ix /= ni; iy /= ni; iz /= ni;
        let ax = ty * iz - tz * iy, ay = tz * ix - tx * iz, az = tx * iy - ty * ix;
        if (ax * ax + ay * ay + az * az < 1e-8) continue;
        const p = this.parent[j];
        if (p >= 0) { Q[0] = R[4 * p]; Q[1] = R[4 * p + 1]; Q[2] = R[4 * p + 2]; Q[3] = R[4 * p + 3]; }
        else { Q[0] = Q[1] = Q[2] = 0; Q[3] = 1; }
        if (l.min && useAxis && l.axis !== AXIS_NONE) {
          // The parent's world axis X, Y or Z; the turn goes about it, its sign from the world axis.
          qrot(Q, 0, l.axis === AXIS_X ? 1 : 0, l.axis === AXIS_Y ? 1 : 0, l.axis === AXIS_Z ? 1 : 0, V, 0);
          const sgn = ax * V[0] + ay * V[1] + az * V[2] >= 0 ? 1 : -1;
          ax = l.axis === AXIS_X ? sgn : 0; ay = l.axis === AXIS_Y ? sgn : 0; az = l.axis === AXIS_Z ? sgn : 0;
        } else {
          Q[0] = -Q[0]; Q[1] = -Q[1]; Q[2] = -Q[2];
          qrot(Q, 0, ax, ay, az, V, 0);
          const n = Math.hypot(V[0], V[1], V[2]);
          ax = V[0] / n; ay = V[1] / n; az = V[2] / n;
        }
        const dot = Math.max(-1, Math.min(1, tx * ix + ty * iy + tz * iz));
        const angle = Math.min(ik.limit * (c + 1), Math.acos(dot));
        const s = Math.sin(angle / 2);
        Q[0] = ax * s; Q[1] = ay * s; Q[2] = az * s; Q[3] = Math.cos(angle / 2);
        qmul(Q, 0, rot, 4 * c, rot, 4 * c);
        if (l.min && l.max) {
          qmul(rot, 4 * c, base, 4 * c, Q, 0);
          limitEuler(Q, l.order, l.min, l.max, useAxis);
          // ik rotation = limited ⊗ base⁻¹
          const bx = -base[4 * c], by = -base[4 * c + 1], bz = -base[4 * c + 2], bw = base[4 * c + 3];
          V4[0] = bx; V4[1] = by; V4[2] = bz; V4[3] = bw;
          qmul(Q, 0, V4, 0, rot, 4 * c);
        }
        qmul(rot, 4 * c, base, 4 * c, L, 4 * j);
        normalize4(L, 4 * j);
        for (const k of ik.after) this.updateWorld(k);
      }
      if (dist2() < 1e-8) break;
    }
  }
}

let IK_BASE = new Float64Array(64);
let IK_ROT = new Float64Array(64);
const Q = new Float64Array(4);
const V = new Float64Array(3);
const V4 = new Float64Array(4);
const AXIS_NONE = 0, AXIS_FIXED = 1, AXIS_X = 2, AXIS_Y = 3, AXIS_Z = 4;
const ORDER_YXZ = 0, ORDER_ZYX = 1, ORDER_XZY = 2;
const THRESHOLD = (88 * Math.PI) / 180;

function limit1(a: number, min: number, max: number, useAxis: boolean): number {
  if (a < min) { const d = 2 * min - a; return d <= max && useAxis ? d : min; }
  if (a > max) { const d = 2 * max - a; return d >= min && useAxis ? d : max; }
  return a;
}

function axisQuat(x: number, y: number, z: number, angle: number, out: Float64Array, o: number): void {
  const s = Math.sin(angle / 2);
  out[o] = x * s; out[o + 1] = y * s; out[o + 2] = z * s; out[o + 3] = Math.cos(angle / 2);
}

const E = new Float64Array(12);
/** Clamps rotation q (in place) to Euler limits in the link's order (MMD: YXZ unless X nears ±90°). */
function limitEuler(q: Float64Array, order: number, min: number[], max: number[], useAxis: boolean): void {
  const x = q[0], y = q[1], z = q[2], w = q[3];
  // Row-vector rotation matrix entries (m[r*4+c]) as babylon-mmd names them.
  const m1 = 2 * (x * y + z * w), m2 = 2 * (x * z - y * w), m0 = 1 - 2 * (y * y + z * z);
  const m4 = 2 * (x * y - z * w), m5 = 1 - 2 * (x * x + z * z), m6 = 2 * (y * z + x * w);
  const m8 = 2 * (x * z + y * w), m9 = 2 * (y * z - x * w), m10 = 1 - 2 * (x * x + y * y);
  let rx: number, ry: number, rz: number;
  const clampT = (a: number) => (Math.abs(a) > THRESHOLD ? (a < 0 ? -THRESHOLD : THRESHOLD) : a);
  const inv = (a: number) => { const c = Math.cos(a); return c !== 0 ? 1 / c : c; };
  if (order === ORDER_YXZ) {
    rx = clampT(Math.asin(Math.max(-1, Math.min(1, -m9))));
    const c = inv(rx);
    ry = Math.atan2(m8 * c, m10 * c); rz = Math.atan2(m1 * c, m5 * c);
  } else if (order === ORDER_ZYX) {
    ry = clampT(Math.asin(Math.max(-1, Math.min(1, -m2))));
    const c = inv(ry);
    rx = Math.atan2(m6 * c, m10 * c); rz = Math.atan2(m1 * c, m0 * c);
  } else {
    rz = clampT(Math.asin(Math.max(-1, Math.min(1, -m4))));
    const c = inv(rz);
    rx = Math.atan2(m6 * c, m5 * c); ry = Math.atan2(m8 * c, m0 * c);
  }
  rx = limit1(rx, min[0], max[0], useAxis);
  ry = limit1(ry, min[1], max[1], useAxis);
  rz = limit1(rz, min[2], max[2], useAxis);
  axisQuat(1, 0, 0, rx, E, 0);
  axisQuat(0, 1, 0, ry, E, 4);
  axisQuat(0, 0, 1, rz, E, 8);
  // YXZ: Ry ⊗ Rx ⊗ Rz; ZYX: Rz ⊗ Ry ⊗ Rx; XZY: Rx ⊗ Rz ⊗ Ry.
  const [a, b, c] = order === ORDER_YXZ ? [4, 0, 8] : order === ORDER_ZYX ? [8, 4, 0] : [0, 8, 4];
  const t = new Float64Array(4);
  qmul(E, a, E, b, t, 0);
  qmul(t, 0, E, c, q, 0);
}
