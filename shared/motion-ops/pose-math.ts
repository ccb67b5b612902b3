/** Small numeric helpers for comparing poses (trim's error report). */

/**
 * Angle in degrees between two rotations given as (possibly slightly non-unit) quaternions.
 * Computed from the relative rotation's vector part with atan2, which stays accurate for tiny angles
 * (acos of a dot product near 1 loses half the digits).
 */
export function quatAngleDeg(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): number {
  const ax = a[ai], ay = a[ai + 1], az = a[ai + 2], aw = a[ai + 3];
  const bx = b[bi], by = b[bi + 1], bz = b[bi + 2], bw = b[bi + 3];
  // conj(a) * b
  const w = aw * bw + ax * bx + ay * by + az * bz;
  const x = aw * bx - ax * bw - ay * bz + az * by;
  const y = aw * by + ax * bz - ay * bw - az * bx;
  const z = aw * bz - ax * by + ay * bx - az * bw;
  const v = Math.hypot(x, y, z);
  return (2 * Math.atan2(v, Math.abs(w)) * 180) / Math.PI;
}

export function maxAbsDiff(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, n: number): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const d = Math.abs(a[ai + i] - b[bi + i]);
    if (d > m) m = d;
  }
  return m;
}
