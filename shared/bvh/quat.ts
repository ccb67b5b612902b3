/**
 * Small float64 quaternion and vector helpers for retargeting (x, y, z, w; Hamilton product;
 * rotate(q, v) = q·v·q*). They work on plain coordinates: the same formulas serve BVH's right-handed
 * space and MMD's left-handed one, so conversion between them is a reflection (toMmd*), never a change
 * of formula.
 */
import type { Quat, Vec3 } from '../vmd/records';

export const IDENTITY: Readonly<Quat> = [0, 0, 0, 1];

export function qmul(a: ArrayLike<number>, b: ArrayLike<number>, out: Quat = [0, 0, 0, 1]): Quat {
  const ax = a[0], ay = a[1], az = a[2], aw = a[3];
  const bx = b[0], by = b[1], bz = b[2], bw = b[3];
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
  return out;
}

/** The inverse of a unit quaternion. */
export function qconj(q: ArrayLike<number>): Quat {
  return [-q[0], -q[1], -q[2], q[3]];
}

export function qnormalize(q: Quat): Quat {
  const n = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
  q[0] /= n;
  q[1] /= n;
  q[2] /= n;
  q[3] /= n;
  return q;
}

export function rotate(q: ArrayLike<number>, v: ArrayLike<number>): Vec3 {
  const qx = q[0], qy = q[1], qz = q[2], qw = q[3];
  const vx = v[0], vy = v[1], vz = v[2];
  // t = 2·(q.xyz × v); v' = v + w·t + q.xyz × t
  const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
  return [vx + qw * tx + (qy * tz - qz * ty), vy + qw * ty + (qz * tx - qx * tz), vz + qw * tz + (qx * ty - qy * tx)];
}

export function axisAngle(axis: 0 | 1 | 2, rad: number): Quat {
  const s = Math.sin(rad / 2);
  const q: Quat = [0, 0, 0, Math.cos(rad / 2)];
  q[axis] = s;
  return q;
}

export function sub(a: ArrayLike<number>, b: ArrayLike<number>): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

export function len(v: ArrayLike<number>): number {
  return Math.hypot(v[0], v[1], v[2]);
}

export function normalize(v: ArrayLike<number>): Vec3 {
  const n = len(v) || 1;
  return [v[0] / n, v[1] / n, v[2] / n];
}

/** Angle between two directions, degrees (0 when either is zero). */
export function angleDeg(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const na = len(a), nb = len(b);
  if (na === 0 || nb === 0) return 0;
  const c = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (na * nb);
  const x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
  return (Math.atan2(Math.hypot(x, y, z) / (na * nb), c) * 180) / Math.PI;
}

/** The shortest rotation taking direction a to direction b (identity when either is zero). */
export function fromTo(a: ArrayLike<number>, b: ArrayLike<number>): Quat {
  const u = normalize(a), v = normalize(b);
  if (len(a) === 0 || len(b) === 0) return [0, 0, 0, 1];
  const d = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  if (d < -1 + 1e-12) {
    // Opposite: any axis perpendicular to u.
    const p: Vec3 = Math.abs(u[0]) < 0.9 ? [0, -u[2], u[1]] : [u[2], 0, -u[0]];
    const n = normalize(p);
    return [n[0], n[1], n[2], 0];
  }
  const q: Quat = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0], 1 + d];
  return qnormalize(q);
}

/** Same hemisphere as `ref` (q and −q are one rotation). */
export function alignSign(q: Quat, ref: ArrayLike<number>): Quat {
  if (q[0] * ref[0] + q[1] * ref[1] + q[2] * ref[2] + q[3] * ref[3] < 0) {
    q[0] = -q[0];
    q[1] = -q[1];
    q[2] = -q[2];
    q[3] = -q[3];
  }
  return q;
}

/** A right-handed point or direction (BVH, glTF: +Z toward the viewer) in MMD's left-handed space: Z mirrored. */
export function toMmdVec(v: ArrayLike<number>): Vec3 {
  return [v[0], v[1], -v[2]];
}

/** A rotation in right-handed space as the same rotation seen in MMD's space (the Z mirror conjugates it). */
export function toMmdQuat(q: ArrayLike<number>): Quat {
  return [-q[0], -q[1], q[2], q[3]];
}

/** The inverses: MMD to right-handed (the mirror is its own inverse). */
export const fromMmdVec = toMmdVec;
export const fromMmdQuat = toMmdQuat;

/** Rotation as Euler angles (radians) for rotation channels in `order` (first outermost): q = R(order[0])·R(order[1])·R(order[2]). */
export function quatToEuler(q: ArrayLike<number>, order: readonly (0 | 1 | 2)[]): Vec3 {
  // Matrix of q (column vectors), then the standard decomposition for the given order.
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  const m = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
  const [i, j, k] = order;
  // Parity of the permutation (i, j, k): +1 for cyclic (XYZ, YZX, ZXY), −1 otherwise.
  const sign = (j - i + 3) % 3 === 1 ? 1 : -1;
  // For R = Ri(a)·Rj(b)·Rk(c): m[i][k] = sign·sin(b).
  const sb = Math.max(-1, Math.min(1, sign * m[i][k]));
  const b = Math.asin(sb);
  let a: number, c: number;
  if (Math.abs(sb) < 1 - 1e-9) {
    a = Math.atan2(-sign * m[j][k], m[k][k]);
    c = Math.atan2(-sign * m[i][j], m[i][i]);
  } else {
    // Gimbal lock: put everything in a.
    a = Math.atan2(sign * m[k][j], m[j][j]);
    c = 0;
  }
  const out: Vec3 = [0, 0, 0];
  out[i] = a;
  out[j] = b;
  out[k] = c;
  return out;
}
