/**
 * Interpolation blocks.
 *
 * Bone, 64 bytes: four curves (0 X move, 1 Y move, 2 Z move, 3 rotation), each x1, y1, x2, y2 in 0..127.
 * Row 0 (bytes 0–15) holds [i] = x1, [i+4] = y1, [i+8] = x2, [i+12] = y2 for channel i — except bytes 2
 * and 3, which hold MMD's physics-toggle flag pair (99/15 on physics-off keys; tools' 0/0; in MMD's own
 * files otherwise a copy of x1 of Z and rotation, which setBoneCurves keeps in step).
 * Rows 1–3 (bytes 16, 32, 48) repeat the true row shifted left by 1, 2, 3 bytes, so x1 of Z and of
 * rotation are at bytes 17 and 18. The bytes a shift leaves at the end of rows 1–3 ("tail": 31, 46, 47,
 * 61, 62, 63) are not curve data and are kept. Some tools leave rows 1–3 all zero; then bytes 2 and 3
 * are the only copy of x1 of Z and rotation.
 *
 * Camera, 24 bytes: six curves (target X, Y, Z, rotation, distance, fov), each stored x1, x2, y1, y2.
 */
import { LINEAR_CURVE, type Curve } from './bezier';

export const BONE_CHANNELS = ['x', 'y', 'z', 'r'] as const;
export type BoneChannel = 0 | 1 | 2 | 3;
export const CAMERA_CHANNELS = ['x', 'y', 'z', 'r', 'd', 'v'] as const;
export type CameraChannel = 0 | 1 | 2 | 3 | 4 | 5;
/** A channel's one-letter key (`x` … `v`): the names in option lists, test ids and string keys. */
export type CameraChannelKey = (typeof CAMERA_CHANNELS)[number];

/** Byte positions of the tail of rows 1–3. */
export const BONE_TAIL = [31, 46, 47, 61, 62, 63] as const;

export const PHYSICS_OFF: readonly [number, number] = [99, 15];
export const PHYSICS_ON: readonly [number, number] = [0, 0];

/** Whether bytes a, b are MMD's physics-off pair (99/15). */
function isOffPair(a: number, b: number): boolean {
  return a === PHYSICS_OFF[0] && b === PHYSICS_OFF[1];
}

/** True when rows 1–3 hold copies (anything non-zero from byte 16 on). */
export function hasCopies(ip: Uint8Array, at = 0): boolean {
  for (let i = 16; i < 64; i++) if (ip[at + i] !== 0) return true;
  return false;
}

/** The 16 true curve values (row 0 with x1 of Z and rotation restored), written into `out`. */
export function trueRow(ip: Uint8Array, at = 0, out: Uint8Array | number[] = new Uint8Array(16)): Uint8Array | number[] {
  for (let j = 0; j < 16; j++) out[j] = ip[at + j];
  if (hasCopies(ip, at)) {
    out[2] = ip[at + 17];
    out[3] = ip[at + 18];
  }
  return out;
}

/** One bone curve [x1, y1, x2, y2] (0..127). */
export function getBoneCurve(ip: Uint8Array, ch: BoneChannel, at = 0): Curve {
  const copies = ch >= 2 && hasCopies(ip, at);
  const x1 = copies ? ip[at + 15 + ch] : ip[at + ch];
  return [x1, ip[at + ch + 4], ip[at + ch + 8], ip[at + ch + 12]];
}

/** All four bone curves. */
export function getBoneCurves(ip: Uint8Array, at = 0): [Curve, Curve, Curve, Curve] {
  return [getBoneCurve(ip, 0, at), getBoneCurve(ip, 1, at), getBoneCurve(ip, 2, at), getBoneCurve(ip, 3, at)];
}

function writeRows(ip: Uint8Array, row: ArrayLike<number>, keepFlag: boolean): void {
  for (let j = 0; j < 16; j++) {
    if (keepFlag && (j === 2 || j === 3)) continue;
    ip[j] = row[j];
  }
  for (let r = 1; r <= 3; r++) for (let j = 0; j < 16 - r; j++) ip[16 * r + j] = row[j + r];
}

/**
 * Whether bytes 2 and 3 repeat x1 of Z and of rotation (bytes 17, 18) on a physics-on key: MMD writes row 0
 * whole as the curve and puts 99/15 there only on a physics-off key, and players that read row 0 (three.js's
 * MMDLoader among them) take bytes 2 and 3 as those x1 values. Such a pair must follow the curve when it
 * changes, or those players play the old one.
 */
function pairMirrorsCurve(ip: Uint8Array): boolean {
  return ip[2] === ip[17] && ip[3] === ip[18] && !isOffPair(ip[2], ip[3]);
}

/**
 * Sets curves on a 64-byte block in place: rewrites all four rows consistently and keeps the tail bytes.
 * Bytes 2 and 3: a physics-off pair (99/15) and a pair that is not a copy of the curve (tools' 0/0) stay
 * as they are; a pair that repeats x1 of Z and rotation (pairMirrorsCurve: MMD's own files) takes the new
 * x1 values — unless they are 99/15, which MMD would read as physics off. When rows 1–3 were empty, bytes
 * 2 and 3 were the only copy of x1 of Z and rotation: they get the new values and the rows are filled in.
 */
export function setBoneCurves(ip: Uint8Array, curves: Partial<Record<BoneChannel, Curve>>): void {
  const copies = hasCopies(ip);
  const mirrored = copies && pairMirrorsCurve(ip);
  const row = trueRow(ip) as Uint8Array;
  for (const key of Object.keys(curves)) {
    const ch = Number(key) as BoneChannel;
    const c = curves[ch]!;
    row[ch] = c[0];
    row[ch + 4] = c[1];
    row[ch + 8] = c[2];
    row[ch + 12] = c[3];
  }
  writeRows(ip, row, copies);
  if (mirrored && !isOffPair(row[2], row[3])) {
    ip[2] = row[2];
    ip[3] = row[3];
  }
}

export function setBoneCurve(ip: Uint8Array, ch: BoneChannel, c: Curve): void {
  setBoneCurves(ip, { [ch]: c } as Partial<Record<BoneChannel, Curve>>);
}

/** The physics-toggle pair (bytes 2, 3); meaningful only when rows 1–3 hold copies. */
export function physicsFlag(ip: Uint8Array, at = 0): [number, number] | null {
  return hasCopies(ip, at) ? [ip[at + 2], ip[at + 3]] : null;
}

/** True when the key turns physics off for its bone (flag pair 99/15). */
export function physicsOff(ip: Uint8Array, at = 0): boolean {
  const f = physicsFlag(ip, at);
  return f !== null && isOffPair(f[0], f[1]);
}

/**
 * How a motion writes bytes 2–3 on its physics-on keys: 'copy' (x1 of Z and rotation, as row 0 whole) or
 * 'zeros' (0/0). See physicsOnPairOf.
 */
export type PhysicsOnPair = 'copy' | 'zeros';

/**
 * The physics-on convention of `count` bone records of `size` bytes in `bytes` whose interpolation block
 * starts at byte `at` of each: 'zeros' when more of its physics-on keys hold 0/0 than a copy of their x1
 * of Z and rotation, else 'copy'. A key whose x1 pair is itself 0/0 tells neither, nor does a physics-off
 * key or one whose rows 1–3 are empty (bytes 2–3 are then its only curve copy).
 * What FORMAT.md records: MMD's own older files hold the copy on every physics-on key (wavefile_v2.vmd:
 * 14/14), most files (babylon-mmd's physics_toggle_test files among them) hold 0/0, some tools write
 * 20/20 (the linear curve's x1: a copy too). MMD reads only 99/15 as off; babylon-mmd 1.3.0 reads
 * anything but 0/0 as off, so in a 0/0 file a copy written by us would turn physics off there.
 */
export function physicsOnPairOf(bytes: Uint8Array, count: number, size: number, at: number): PhysicsOnPair {
  let zeros = 0, copies = 0;
  for (let i = 0, o = at; i < count; i++, o += size) {
    const a = bytes[o + 2], b = bytes[o + 3], x1z = bytes[o + 17], x1r = bytes[o + 18];
    if (isOffPair(a, b) || (x1z === 0 && x1r === 0) || !hasCopies(bytes, o)) continue;
    if (a === 0 && b === 0) zeros++;
    else if (a === x1z && b === x1r) copies++;
  }
  return zeros > copies ? 'zeros' : 'copy';
}

/**
 * Sets the physics flag pair. Off is 99/15 (rows 1–3 filled in first when a tool left them empty, so the
 * curve keeps a copy). On, on a key that is off: `on` says which pair the motion's other physics-on keys
 * use (physicsOnPairOf): 'copy' writes x1 of Z and rotation (what MMD writes, so players that read row 0
 * get the curve), or 0/0 where those happen to be 99/15; 'zeros' writes 0/0, which babylon-mmd, reading
 * anything else as off, needs. A key already on keeps its bytes.
 */
export function setPhysicsOff(ip: Uint8Array, off: boolean, on: PhysicsOnPair = 'copy'): void {
  if (!off && !physicsOff(ip)) return;
  if (!hasCopies(ip)) writeRows(ip, trueRow(ip), false);
  const own: readonly [number, number] = [ip[17], ip[18]];
  const pair = off ? PHYSICS_OFF : on === 'zeros' || isOffPair(own[0], own[1]) ? PHYSICS_ON : own;
  ip[2] = pair[0];
  ip[3] = pair[1];
}

/**
 * Builds a canonical 64-byte block: curves, flag pair, tail bytes (default zero).
 * With `copies: false` it builds the tool-style block whose rows 1–3 are empty.
 */
export function buildBoneInterpolation(
  curves: readonly Curve[],
  flag: readonly [number, number] = PHYSICS_ON,
  tail: ArrayLike<number> = [0, 0, 0, 0, 0, 0],
  copies = true,
): Uint8Array {
  const ip = new Uint8Array(64);
  const row = new Uint8Array(16);
  for (let ch = 0; ch < 4; ch++) {
    row[ch] = curves[ch][0];
    row[ch + 4] = curves[ch][1];
    row[ch + 8] = curves[ch][2];
    row[ch + 12] = curves[ch][3];
  }
  if (!copies) {
    ip.set(row);
    return ip;
  }
  writeRows(ip, row, false);
  ip[2] = flag[0];
  ip[3] = flag[1];
  for (let i = 0; i < 6; i++) ip[BONE_TAIL[i]] = tail[i];
  return ip;
}

/** MMD's default block for a new key: all four curves linear (20, 20, 107, 107), flag 0/0. */
export function defaultBoneInterpolation(): Uint8Array {
  const lin = LINEAR_CURVE;
  return buildBoneInterpolation([lin, lin, lin, lin]);
}

/** One camera curve [x1, y1, x2, y2] from the stored (x1, x2, y1, y2). */
export function getCameraCurve(ip: Uint8Array, ch: CameraChannel, at = 0): Curve {
  const o = at + ch * 4;
  return [ip[o], ip[o + 2], ip[o + 1], ip[o + 3]];
}

export function getCameraCurves(ip: Uint8Array, at = 0): Curve[] {
  return [0, 1, 2, 3, 4, 5].map((ch) => getCameraCurve(ip, ch as CameraChannel, at));
}

export function setCameraCurve(ip: Uint8Array, ch: CameraChannel, c: Curve): void {
  const o = ch * 4;
  ip[o] = c[0];
  ip[o + 1] = c[2];
  ip[o + 2] = c[1];
  ip[o + 3] = c[3];
}

export function buildCameraInterpolation(curves: readonly Curve[]): Uint8Array {
  const ip = new Uint8Array(24);
  for (let ch = 0; ch < 6; ch++) setCameraCurve(ip, ch as CameraChannel, curves[ch]);
  return ip;
}

export function defaultCameraInterpolation(): Uint8Array {
  const lin = LINEAR_CURVE;
  return buildCameraInterpolation([lin, lin, lin, lin, lin, lin]);
}
