/**
 * Camera geometry and coordinate conversion.
 *
 * MMD is left-handed, Y up. Camera keys store a target, Euler angles (radians) and a signed distance.
 * In MMD coordinates the camera sits at target + R·(0, 0, distance) — distance is usually negative, so
 * it stands toward −Z of the target — and |position − target| = |distance| always.
 * MMD's camera orbits its target with yaw outermost: R_mmd = Ry(−ry)·Rx(−rx)·Rz(−rz) — roll about the
 * view axis first, then pitch, then yaw — so the X angle tilts the view up or down whatever the Y angle,
 * and Z rolls the picture without moving the camera (as babylon-mmd's MmdCamera and saba do; three.js's
 * old MMDLoader composed pitch outermost, which puts real cameras up to 10 units off).
 * Conjugating by the Z mirror gives three.js's Ry(ry)·Rx(rx)·Rz(−rz): Euler (rx, ry, −rz) in 'YXZ' order.
 */
import type { Quat, Vec3 } from './records';

function rotX(v: Vec3, a: number): Vec3 {
  const c = Math.cos(a), s = Math.sin(a);
  return [v[0], c * v[1] - s * v[2], s * v[1] + c * v[2]];
}
function rotY(v: Vec3, a: number): Vec3 {
  const c = Math.cos(a), s = Math.sin(a);
  return [c * v[0] + s * v[2], v[1], -s * v[0] + c * v[2]];
}
function rotZ(v: Vec3, a: number): Vec3 {
  const c = Math.cos(a), s = Math.sin(a);
  return [c * v[0] - s * v[1], s * v[0] + c * v[1], v[2]];
}

/** R_mmd · v = Ry(−ry)·Rx(−rx)·Rz(−rz) · v for camera Euler angles (rx, ry, rz). */
export function rotateByCameraEuler(v: Vec3, rotation: Vec3): Vec3 {
  return rotY(rotX(rotZ(v, -rotation[2]), -rotation[0]), -rotation[1]);
}

/** Camera position in MMD coordinates: target + R·(0, 0, distance). */
export function cameraPosition(target: Vec3, rotation: Vec3, distance: number): Vec3 {
  const d = rotateByCameraEuler([0, 0, distance], rotation);
  return [target[0] + d[0], target[1] + d[1], target[2] + d[2]];
}

// ---- MMD (left-handed) → three.js (right-handed) ----

/** Positions: negate Z. */
export function mmdToThreePosition(p: readonly number[]): Vec3 {
  return [p[0], p[1], -p[2]];
}

/** Quaternions (x, y, z, w) → (−x, −y, z, w). */
export function mmdToThreeQuaternion(q: readonly number[]): Quat {
  return [-q[0], -q[1], q[2], q[3]];
}

/** Camera Euler angles for three.js, to be composed in 'YXZ' order (yaw outermost): negate Z only. */
export const THREE_CAMERA_EULER_ORDER = 'YXZ';
export function mmdToThreeCameraEuler(r: readonly number[]): Vec3 {
  return [r[0], r[1], -r[2]];
}

/** Quaternion to Euler degrees (X, Y, Z, applied Z then Y then X in MMD's panel convention: YXZ order). */
export function quaternionToEulerDegrees(q: readonly number[]): Vec3 {
  const [x, y, z, w] = q;
  const n = Math.hypot(x, y, z, w) || 1;
  const qx = x / n, qy = y / n, qz = z / n, qw = w / n;
  // Rotation matrix elements needed for YXZ decomposition.
  const m13 = 2 * (qx * qz + qw * qy);
  const m23 = 2 * (qy * qz - qw * qx);
  const m33 = 1 - 2 * (qx * qx + qy * qy);
  const m21 = 2 * (qx * qy + qw * qz);
  const m22 = 1 - 2 * (qx * qx + qz * qz);
  const m11 = 1 - 2 * (qy * qy + qz * qz);
  const ex = Math.asin(Math.max(-1, Math.min(1, -m23)));
  let ey: number, ez: number;
  if (Math.abs(m23) < 0.9999999) {
    ey = Math.atan2(m13, m33);
    ez = Math.atan2(m21, m22);
  } else {
    ey = Math.atan2(-2 * (qx * qz - qw * qy), m11);
    ez = 0;
  }
  const deg = 180 / Math.PI;
  return [ex * deg, ey * deg, ez * deg];
}

/** Euler degrees (YXZ order, as quaternionToEulerDegrees returns) to a quaternion. */
export function eulerDegreesToQuaternion(e: readonly number[]): Quat {
  const r = Math.PI / 180;
  const x = e[0] * r, y = e[1] * r, z = e[2] * r;
  const c1 = Math.cos(x / 2), c2 = Math.cos(y / 2), c3 = Math.cos(z / 2);
  const s1 = Math.sin(x / 2), s2 = Math.sin(y / 2), s3 = Math.sin(z / 2);
  return [
    s1 * c2 * c3 + c1 * s2 * s3,
    c1 * s2 * c3 - s1 * c2 * s3,
    c1 * c2 * s3 - s1 * s2 * c3,
    c1 * c2 * c3 + s1 * s2 * s3,
  ];
}

// ---- The inverse: a viewpoint (an orbited view) → MMD camera key values ----

/** A viewpoint in MMD coordinates: where the eye is, the point it orbits and looks at, its screen-up, its vertical fov (degrees). */
export interface CameraView {
  position: readonly number[];
  target: readonly number[];
  /** The picture's up direction (need not be exactly perpendicular to the view: only its part across it counts). */
  up: readonly number[];
  fov: number;
}

/** The values of a camera key: target, Euler angles (radians), signed distance, integer fov. */
export interface CameraKeyValues {
  target: Vec3;
  rotation: Vec3;
  distance: number;
  fov: number;
}

const TWO_PI = 2 * Math.PI;

/** `a` moved by whole turns to lie within half a turn of `ref` (so interpolating from `ref` does not spin). */
export function unwrapAngle(a: number, ref: number): number {
  return a + TWO_PI * Math.round((ref - a) / TWO_PI);
}

/** `a` by whole turns into (−π, π]. */
function wrapAngle(a: number): number {
  const w = a - TWO_PI * Math.round(a / TWO_PI);
  return w <= -Math.PI ? w + TWO_PI : w;
}

const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/**
 * The camera key that shows `view`: the inverse of cameraPosition/rotateByCameraEuler. The distance is
 * negative (the camera stands on the −Z side of its target, as MMD writes it), |distance| = |position −
 * target|; the angles solve position = target + R·(0, 0, distance) with R = Ry(−ry)·Rx(−rx)·Rz(−rz),
 * and rz rolls R·(0, 1, 0) onto `up`; fov is rounded to the whole degree MMD stores (1..179).
 *
 * Every orientation has two Euler triples (rx, ry, rz) and (π − rx, ry + π, rz + π), each up to whole
 * turns. With `previous` (the angles of the neighbouring key) the triple nearest to it is chosen, each
 * angle unwrapped to within half a turn of the previous one, so interpolation between the keys takes the
 * short way instead of spinning; without it rx lies in [−π/2, π/2] and ry, rz in (−π, π].
 * Straight up or down (yaw and roll about one axis) the yaw is the previous key's (or 0) and the roll
 * takes the rest. An eye at its target (no direction to solve) keeps the previous angles (or zeros).
 */
export function cameraKeyFromView(view: CameraView, previous?: readonly number[] | null): CameraKeyValues {
  const t: Vec3 = [view.target[0], view.target[1], view.target[2]];
  const d = [view.position[0] - t[0], view.position[1] - t[1], view.position[2] - t[2]];
  const len = Math.hypot(d[0], d[1], d[2]);
  const fov = Math.max(1, Math.min(179, Math.round(view.fov)));
  const prev = previous && previous.length >= 3 && previous.every(Number.isFinite) ? previous : null;
  if (!(len > 1e-12)) return { target: t, rotation: prev ? [prev[0], prev[1], prev[2]] : [0, 0, 0], distance: 0, fov };
  // With distance −len the eye is at target − len·R·(0, 0, 1), and R·(0, 0, 1) = (−sin ry cos rx, sin rx, cos ry cos rx).
  const v = [-d[0] / len, -d[1] / len, -d[2] / len];
  const rx = Math.asin(Math.max(-1, Math.min(1, v[1])));
  const across = Math.hypot(v[0], v[2]);
  const ry = across > 1e-12 ? Math.atan2(-v[0], v[2]) : prev ? prev[1] : 0;
  // Roll: with no roll the picture's right and up are R0·x̂ and R0·ŷ (R0 = R without rz); rz turns up toward right.
  const right0 = rotateByCameraEuler([1, 0, 0], [rx, ry, 0]);
  const up0 = rotateByCameraEuler([0, 1, 0], [rx, ry, 0]);
  const s = dot(view.up, right0), c = dot(view.up, up0);
  const rz = s === 0 && c === 0 ? (prev ? prev[2] : 0) : Math.atan2(s, c);
  let rotation: Vec3;
  if (!prev) rotation = [rx, wrapAngle(ry), wrapAngle(rz)];
  else {
    const near = (a: Vec3): Vec3 => [unwrapAngle(a[0], prev[0]), unwrapAngle(a[1], prev[1]), unwrapAngle(a[2], prev[2])];
    const a = near([rx, ry, rz]);
    const b = near([Math.PI - rx, ry + Math.PI, rz + Math.PI]);
    const cost = (x: Vec3) => Math.abs(x[0] - prev[0]) + Math.abs(x[1] - prev[1]) + Math.abs(x[2] - prev[2]);
    rotation = cost(b) < cost(a) - 1e-12 ? b : a;
  }
  return { target: t, rotation, distance: -len, fov };
}
