/**
 * Quaternion and vector arithmetic on flat float64 arrays (x, y, z, w at 4·i), as the skeleton stores its
 * bones. Rotation of a vector is q·v·q⁻¹ on the numbers as stored: VMD and PMX data are consistent in MMD's
 * left-handed coordinates under that rule (world = parent ⊗ local), so nothing is mirrored here.
 * Trigonometry goes through shared/vmd/portable-math so Node and every browser give the same bits.
 * The one flat-array quaternion algebra of shared/: the skeleton, the physics world and retargeting use it.
 */
import { atan2, cos, sin } from '../vmd/portable-math';

/** out[o..o+3] = a[ai..] ⊗ b[bi..] (Hamilton product; `out` may alias either input: qmulInto reads both first). */
export function qmul(out: Float64Array, o: number, a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): void {
  qmulInto(a, ai, b, bi, out, o);
}

/** out[o..o+2] = q[qi..] rotating v[vi..] (`out` may alias v). */
export function qrot(out: Float64Array, o: number, q: ArrayLike<number>, qi: number, v: ArrayLike<number>, vi: number): void {
  qrotInto(q, qi, v[vi], v[vi + 1], v[vi + 2], out, o);
}

/** out[o..] = conjugate (the inverse of a unit quaternion) of q[qi..]. */
export function qconj(out: Float64Array, o: number, q: ArrayLike<number>, qi: number): void {
  out[o] = -q[qi];
  out[o + 1] = -q[qi + 1];
  out[o + 2] = -q[qi + 2];
  out[o + 3] = q[qi + 3];
}

/** Scales q[o..] to unit length (identity when it is zero). */
export function qnormalize(q: Float64Array, o: number): void {
  const n = Math.sqrt(q[o] * q[o] + q[o + 1] * q[o + 1] + q[o + 2] * q[o + 2] + q[o + 3] * q[o + 3]);
  if (n === 0) {
    q[o] = q[o + 1] = q[o + 2] = 0;
    q[o + 3] = 1;
    return;
  }
  q[o] /= n;
  q[o + 1] /= n;
  q[o + 2] /= n;
  q[o + 3] /= n;
}

/** out[o..] = rotation by `angle` radians about the unit axis (ax, ay, az). */
export function qaxisAngle(out: Float64Array, o: number, ax: number, ay: number, az: number, angle: number): void {
  const s = sin(angle / 2);
  out[o] = ax * s;
  out[o + 1] = ay * s;
  out[o + 2] = az * s;
  out[o + 3] = cos(angle / 2);
}

/** out[o..] = slerp(identity, q[qi..], t) for 0 ≤ t ≤ 1: the rotation q scaled to the fraction t of its angle. */
export function qpow(out: Float64Array, o: number, q: ArrayLike<number>, qi: number, t: number): void {
  let x = q[qi], y = q[qi + 1], z = q[qi + 2], w = q[qi + 3];
  if (w < 0) {
    x = -x; y = -y; z = -z; w = -w;
  }
  const s = Math.sqrt(x * x + y * y + z * z);
  if (s < 1e-12) {
    out[o] = x * t; out[o + 1] = y * t; out[o + 2] = z * t; out[o + 3] = 1;
    qnormalize(out, o);
    return;
  }
  const half = atan2(s, w) * t;
  const k = sin(half) / s;
  out[o] = x * k;
  out[o + 1] = y * k;
  out[o + 2] = z * k;
  out[o + 3] = cos(half);
}

/** out[o..o+4) = a[ai..] ⊗ b[bi..] (both read before out is written, so out may alias either). */
export function qmulInto(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, out: Float64Array | number[], o: number): void {
  const ax = a[ai], ay = a[ai + 1], az = a[ai + 2], aw = a[ai + 3];
  const bx = b[bi], by = b[bi + 1], bz = b[bi + 2], bw = b[bi + 3];
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** out = conj(a) ⊗ b: b expressed in a's frame (a unit). */
export function qconjMulInto(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, out: Float64Array | number[], o: number): void {
  const ax = -a[ai], ay = -a[ai + 1], az = -a[ai + 2], aw = a[ai + 3];
  const bx = b[bi], by = b[bi + 1], bz = b[bi + 2], bw = b[bi + 3];
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** out = q ⊗ v ⊗ conj(q) for a 3-vector v (q unit). */
export function qrotInto(q: ArrayLike<number>, qi: number, vx: number, vy: number, vz: number, out: Float64Array | number[], o: number): void {
  const x = q[qi], y = q[qi + 1], z = q[qi + 2], w = q[qi + 3];
  // t = 2 (q.xyz × v); v' = v + w t + q.xyz × t
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  out[o] = vx + w * tx + (y * tz - z * ty);
  out[o + 1] = vy + w * ty + (z * tx - x * tz);
  out[o + 2] = vz + w * tz + (x * ty - y * tx);
}

/** out = conj(q) ⊗ v ⊗ q: v in q's frame. */
export function qinvRotInto(q: ArrayLike<number>, qi: number, vx: number, vy: number, vz: number, out: Float64Array | number[], o: number): void {
  const x = -q[qi], y = -q[qi + 1], z = -q[qi + 2], w = q[qi + 3];
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  out[o] = vx + w * tx + (y * tz - z * ty);
  out[o + 1] = vy + w * ty + (z * tx - x * tz);
  out[o + 2] = vz + w * tz + (x * ty - y * tx);
}

/** The shortest rotation taking unit-less direction a onto direction b, as (x, y, z, w); identity when either is zero. */
export function rotationBetween(a: readonly number[], b: readonly number[]): [number, number, number, number] {
  const la = Math.hypot(a[0], a[1], a[2]), lb = Math.hypot(b[0], b[1], b[2]);
  if (la < 1e-12 || lb < 1e-12) return [0, 0, 0, 1];
  const ax = a[0] / la, ay = a[1] / la, az = a[2] / la, bx = b[0] / lb, by = b[1] / lb, bz = b[2] / lb;
  const d = ax * bx + ay * by + az * bz;
  const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  if (d < -1 + 1e-12) {
    // Opposite: half a turn about any axis perpendicular to a.
    const px = Math.abs(ax) < 0.9 ? 1 : 0, py = px ? 0 : 1;
    const ux = ay * 0 - az * py, uy = az * px - ax * 0, uz = ax * py - ay * px;
    const l = Math.hypot(ux, uy, uz);
    return [ux / l, uy / l, uz / l, 0];
  }
  const w = 1 + d;
  const l = Math.hypot(cx, cy, cz, w);
  return [cx / l, cy / l, cz / l, w / l];
}

/** Rotation angle of a unit quaternion, radians (0..π). */
export function qangle(q: ArrayLike<number>, qi = 0): number {
  const v = Math.hypot(q[qi], q[qi + 1], q[qi + 2]);
  return 2 * Math.atan2(v, Math.abs(q[qi + 3]));
}
