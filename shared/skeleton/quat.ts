/**
 * Quaternion and vector arithmetic on flat float64 arrays (x, y, z, w at 4·i), as the skeleton stores its
 * bones. Rotation of a vector is q·v·q⁻¹ on the numbers as stored: VMD and PMX data are consistent in MMD's
 * left-handed coordinates under that rule (world = parent ⊗ local), so nothing is mirrored here.
 * Trigonometry goes through shared/vmd/portable-math so Node and every browser give the same bits.
 */
import { atan2, cos, sin } from '../vmd/portable-math';

/** out[o..o+3] = a[ai..] ⊗ b[bi..] (Hamilton product; `out` may alias either input). */
export function qmul(out: Float64Array, o: number, a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): void {
  const ax = a[ai], ay = a[ai + 1], az = a[ai + 2], aw = a[ai + 3];
  const bx = b[bi], by = b[bi + 1], bz = b[bi + 2], bw = b[bi + 3];
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** out[o..o+2] = q[qi..] rotating v[vi..] (`out` may alias v). */
export function qrot(out: Float64Array, o: number, q: ArrayLike<number>, qi: number, v: ArrayLike<number>, vi: number): void {
  const x = q[qi], y = q[qi + 1], z = q[qi + 2], w = q[qi + 3];
  const vx = v[vi], vy = v[vi + 1], vz = v[vi + 2];
  // t = 2 q.xyz × v; v' = v + w t + q.xyz × t
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  out[o] = vx + w * tx + (y * tz - z * ty);
  out[o + 1] = vy + w * ty + (z * tx - x * tz);
  out[o + 2] = vz + w * tz + (x * ty - y * tx);
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

/** Euler angles (x, y, z) of q in XYZ order (R = Rx·Ry·Rz), as the IK limits of PMX are given. */
export function qtoEulerXYZ(q: ArrayLike<number>, qi: number, out: Float64Array): void {
  const x = q[qi], y = q[qi + 1], z = q[qi + 2], w = q[qi + 3];
  const m11 = 1 - 2 * (y * y + z * z), m12 = 2 * (x * y - w * z), m13 = 2 * (x * z + w * y);
  const m22 = 1 - 2 * (x * x + z * z), m23 = 2 * (y * z - w * x);
  const m32 = 2 * (y * z + w * x), m33 = 1 - 2 * (x * x + y * y);
  const s = Math.max(-1, Math.min(1, m13));
  out[1] = atan2(s, Math.sqrt(Math.max(0, 1 - s * s)));
  if (Math.abs(s) < 0.9999999) {
    out[0] = atan2(-m23, m33);
    out[2] = atan2(-m12, m11);
  } else {
    out[0] = atan2(m32, m22);
    out[2] = 0;
  }
}

/** out[o..] = the rotation with Euler angles (ex, ey, ez) in XYZ order. */
export function qfromEulerXYZ(out: Float64Array, o: number, ex: number, ey: number, ez: number): void {
  const c1 = cos(ex / 2), c2 = cos(ey / 2), c3 = cos(ez / 2);
  const s1 = sin(ex / 2), s2 = sin(ey / 2), s3 = sin(ez / 2);
  out[o] = s1 * c2 * c3 + c1 * s2 * s3;
  out[o + 1] = c1 * s2 * c3 - s1 * c2 * s3;
  out[o + 2] = c1 * c2 * s3 + s1 * s2 * c3;
  out[o + 3] = c1 * c2 * c3 - s1 * s2 * s3;
}
