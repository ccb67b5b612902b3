/**
 * Quaternion helpers for the physics world (x, y, z, w; Hamilton product; MMD coordinates). Bones are posed
 * by shared/skeleton; these only move bodies to and from bones.
 */
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

