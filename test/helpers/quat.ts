/** Small quaternion helpers for tests, written out independently of three.js and of the code under test. */
export type V3 = [number, number, number];
/** A quaternion (x, y, z, w). */
export type Q = [number, number, number, number];

/** Unit quaternion (x, y, z, w) of a rotation by `rad` about `axis` (any length). */
export function axisAngle(axis: readonly number[], rad: number): Q {
  const l = Math.hypot(axis[0], axis[1], axis[2]), s = Math.sin(rad / 2) / l;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(rad / 2)];
}

/** Rotation matrix of quaternion (x, y, z, w) applied to v: the same algebra in any handedness (column vectors). */
export function rotate(q: readonly number[], v: readonly number[]): V3 {
  const [x, y, z, w] = q;
  const m = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
  return [0, 1, 2].map((r) => m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2]) as V3;
}

/** Hamilton product a·b of quaternions (x, y, z, w). */
export function qmul(a: readonly number[], b: readonly number[]): number[] {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}
