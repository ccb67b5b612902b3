/**
 * The pose at any frame, fractional too, the way MMD plays it:
 * before the first key the first key holds, after the last the last; between keys the later key's
 * curves give the progress (bezier.ts); positions per channel, rotation by shortest-arc slerp;
 * at a key its stored values come back untouched (never normalised). Morphs and lights are linear.
 * The camera uses its six curves, and two keys one frame apart are a cut: hold, never interpolate.
 */
import { bezierProgress } from './bezier';
import { atan2, sin } from './portable-math';
import { cameraPosition } from './camera';
import { shadowKey, type Quat, type Vec3 } from './records';
import type { VmdDocument } from './vmd-document';
import { keyAtOrBefore, type BoneTracks, type CameraTrack, type LightTrack, type MorphTracks, type MotionTracks } from './tracks';

export interface BonePose {
  position: Vec3;
  rotation: Quat;
}

export interface CameraPose {
  target: Vec3;
  rotation: Vec3;
  distance: number;
  fov: number;
  /** Camera position in MMD coordinates; |position − target| = |distance|. */
  position: Vec3;
  perspective: number;
}

export interface LightPose {
  color: Vec3;
  direction: Vec3;
}

export interface Pose {
  frame: number;
  bones: Record<string, BonePose>;
  morphs: Record<string, number>;
  camera: CameraPose | null;
  light: LightPose | null;
}

const C = 1 / 127;

function progress(curves: Uint8Array, q: number, t: number): number {
  return bezierProgress(curves[q] * C, curves[q + 1] * C, curves[q + 2] * C, curves[q + 3] * C, t);
}

/** Scratch of slerpPair's answer (single-threaded callers). */
const PAIR = new Float64Array(5);

/**
 * The per-pair part of a shortest-arc slerp from a to b: writes b turned onto a's hemisphere (out[0..3])
 * and the angle θ between them (out[4]). θ comes from the chords of the normalised quaternions
 * (2·atan2(|â − b̂|, |â + b̂|)), which stays exact for small angles where acos(dot) loses half its digits.
 * A caller that plays many t of one pair (the fitter) does this once.
 */
export function slerpPair(ax: number, ay: number, az: number, aw: number, bx: number, by: number, bz: number, bw: number, out: Float64Array = PAIR): Float64Array {
  if (ax * bx + ay * by + az * bz + aw * bw < 0) {
    bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  const na = 1 / (Math.sqrt(ax * ax + ay * ay + az * az + aw * aw) || 1);
  const nb = 1 / (Math.sqrt(bx * bx + by * by + bz * bz + bw * bw) || 1);
  const dx = ax * na - bx * nb, dy = ay * na - by * nb, dz = az * na - bz * nb, dw = aw * na - bw * nb;
  const sx = ax * na + bx * nb, sy = ay * na + by * nb, sz = az * na + bz * nb, sw = aw * na + bw * nb;
  out[0] = bx; out[1] = by; out[2] = bz; out[3] = bw;
  out[4] = 2 * atan2(Math.sqrt(dx * dx + dy * dy + dz * dz + dw * dw), Math.sqrt(sx * sx + sy * sy + sz * sz + sw * sw));
  return out;
}

/**
 * Shortest-arc slerp of two quaternions given as 4-float slices; writes into out at o.
 * True slerp at every angle (θ from slerpPair); only below θ = 1e-10 (where sin θ no longer divides
 * cleanly) does it fall back to lerp, whose difference from slerp there is under 1e-20.
 */
export function slerpInto(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, t: number, out: Float32Array | Float64Array | number[], o: number): void {
  const ax = a[ai], ay = a[ai + 1], az = a[ai + 2], aw = a[ai + 3];
  const p = slerpPair(ax, ay, az, aw, b[bi], b[bi + 1], b[bi + 2], b[bi + 3]);
  const bx = p[0], by = p[1], bz = p[2], bw = p[3], th = p[4];
  let sa: number, sb: number;
  if (th < 1e-10) {
    sa = 1 - t;
    sb = t;
  } else {
    const s = sin(th);
    sa = sin((1 - t) * th) / s;
    sb = sin(t * th) / s;
  }
  out[o] = sa * ax + sb * bx;
  out[o + 1] = sa * ay + sb * by;
  out[o + 2] = sa * az + sb * bz;
  out[o + 3] = sa * aw + sb * bw;
}

/**
 * Samples bone track `t` at frame f into position (3 floats at 3·o) and rotation (4 at 4·o).
 * Allocation-free: the preview calls it for every bone every frame.
 */
export function sampleBoneInto(b: BoneTracks, t: number, f: number, pos: Float32Array | Float64Array | number[], rot: Float32Array | Float64Array | number[], o: number): void {
  const a = b.start[t], e = b.start[t + 1];
  let k = keyAtOrBefore(b.frames, a, e, f);
  if (k < a) k = a; // before the first key: the first key holds
  const P = b.position, R = b.rotation;
  if (k === e - 1 || f <= b.frames[k]) {
    pos[3 * o] = P[3 * k]; pos[3 * o + 1] = P[3 * k + 1]; pos[3 * o + 2] = P[3 * k + 2];
    rot[4 * o] = R[4 * k]; rot[4 * o + 1] = R[4 * k + 1]; rot[4 * o + 2] = R[4 * k + 2]; rot[4 * o + 3] = R[4 * k + 3];
    return;
  }
  const k1 = k + 1;
  const t01 = (f - b.frames[k]) / (b.frames[k1] - b.frames[k]);
  const q = 16 * k1;
  for (let c = 0; c < 3; c++) {
    const y = progress(b.curves, q + 4 * c, t01);
    pos[3 * o + c] = P[3 * k + c] + (P[3 * k1 + c] - P[3 * k + c]) * y;
  }
  slerpInto(R, 4 * k, R, 4 * k1, progress(b.curves, q + 12, t01), rot, 4 * o);
}

/**
 * Samples bone track `t` at each of `times` (frames, fractional too) into pos (3 per time) and rot (4 per
 * time): at every time what sampleBoneInto gives there, to the bit. For a series in ascending order
 * (a fit's samples, an error measurement) it walks the keys forward instead of searching for each,
 * and does the slerp's per-pair work (slerpPair, sin θ) once per segment, not once per time.
 */
export function sampleBoneSeries(b: BoneTracks, t: number, times: ArrayLike<number>, pos: Float64Array | Float32Array, rot: Float64Array | Float32Array): void {
  const a = b.start[t], e = b.start[t + 1];
  const F = b.frames, P = b.position, R = b.rotation, C = b.curves;
  let k = a - 1, last = -Infinity;
  // The pair cached: its later key (k1), b turned onto a's side, θ and sin θ.
  let pairK = -1, bx = 0, by = 0, bz = 0, bw = 0, th = 0, sth = 0;
  for (let i = 0; i < times.length; i++) {
    const f = times[i];
    if (f < last || k < a) k = keyAtOrBefore(F, a, e, f);
    else while (k + 1 < e && F[k + 1] <= f) k++;
    last = f;
    const kk = k < a ? a : k;
    const p3 = 3 * i, r4 = 4 * i;
    if (kk === e - 1 || f <= F[kk]) {
      pos[p3] = P[3 * kk]; pos[p3 + 1] = P[3 * kk + 1]; pos[p3 + 2] = P[3 * kk + 2];
      rot[r4] = R[4 * kk]; rot[r4 + 1] = R[4 * kk + 1]; rot[r4 + 2] = R[4 * kk + 2]; rot[r4 + 3] = R[4 * kk + 3];
      continue;
    }
    const k1 = kk + 1;
    const t01 = (f - F[kk]) / (F[k1] - F[kk]);
    const q = 16 * k1;
    for (let c = 0; c < 3; c++) {
      const y = progress(C, q + 4 * c, t01);
      pos[p3 + c] = P[3 * kk + c] + (P[3 * k1 + c] - P[3 * kk + c]) * y;
    }
    // slerpInto(R, 4kk, R, 4k1, y, rot, 4i), its per-pair part kept while the pair is the same.
    const ax = R[4 * kk], ay = R[4 * kk + 1], az = R[4 * kk + 2], aw = R[4 * kk + 3];
    if (pairK !== k1) {
      const p = slerpPair(ax, ay, az, aw, R[4 * k1], R[4 * k1 + 1], R[4 * k1 + 2], R[4 * k1 + 3]);
      bx = p[0]; by = p[1]; bz = p[2]; bw = p[3]; th = p[4];
      sth = th < 1e-10 ? 0 : sin(th);
      pairK = k1;
    }
    const y = progress(C, q + 12, t01);
    let sa: number, sb: number;
    if (th < 1e-10) {
      sa = 1 - y;
      sb = y;
    } else {
      sa = sin((1 - y) * th) / sth;
      sb = sin(y * th) / sth;
    }
    rot[r4] = sa * ax + sb * bx;
    rot[r4 + 1] = sa * ay + sb * by;
    rot[r4 + 2] = sa * az + sb * bz;
    rot[r4 + 3] = sa * aw + sb * bw;
  }
}

/** Samples every bone track at frame f into flat arrays (3 and 4 floats per track, in track order). */
export function sampleBonesInto(b: BoneTracks, f: number, pos: Float32Array | Float64Array, rot: Float32Array | Float64Array): void {
  for (let t = 0; t < b.names.length; t++) sampleBoneInto(b, t, f, pos, rot, t);
}

export function sampleMorph(m: MorphTracks, t: number, f: number): number {
  const a = m.start[t], e = m.start[t + 1];
  let k = keyAtOrBefore(m.frames, a, e, f);
  if (k < a) k = a;
  if (k === e - 1 || f <= m.frames[k]) return m.weight[k];
  const w0 = m.weight[k], w1 = m.weight[k + 1];
  return w0 + (w1 - w0) * ((f - m.frames[k]) / (m.frames[k + 1] - m.frames[k]));
}

export function sampleCamera(c: CameraTrack, f: number): CameraPose | null {
  const n = c.frames.length;
  if (n === 0) return null;
  let k = keyAtOrBefore(c.frames, 0, n, f);
  if (k < 0) k = 0;
  const hold = k === n - 1 || f <= c.frames[k] || c.frames[k + 1] - c.frames[k] <= 1; // a cut: never slide
  let target: Vec3, rotation: Vec3, distance: number, fov: number;
  if (hold) {
    target = [c.target[3 * k], c.target[3 * k + 1], c.target[3 * k + 2]];
    rotation = [c.rotation[3 * k], c.rotation[3 * k + 1], c.rotation[3 * k + 2]];
    distance = c.distance[k];
    fov = c.fov[k];
  } else {
    const k1 = k + 1;
    const t01 = (f - c.frames[k]) / (c.frames[k1] - c.frames[k]);
    const q = 24 * k1;
    const e = [0, 1, 2, 3, 4, 5].map((ch) => progress(c.curves, q + 4 * ch, t01));
    const lerp = (arr: Float32Array, i0: number, i1: number, y: number) => arr[i0] + (arr[i1] - arr[i0]) * y;
    target = [0, 1, 2].map((i) => lerp(c.target, 3 * k + i, 3 * k1 + i, e[i])) as Vec3;
    rotation = [0, 1, 2].map((i) => lerp(c.rotation, 3 * k + i, 3 * k1 + i, e[3])) as Vec3;
    distance = lerp(c.distance, k, k1, e[4]);
    fov = lerp(c.fov, k, k1, e[5]);
  }
  return { target, rotation, distance, fov, position: cameraPosition(target, rotation, distance), perspective: c.perspective[k] };
}

export function sampleLight(l: LightTrack, f: number): LightPose | null {
  const n = l.frames.length;
  if (n === 0) return null;
  let k = keyAtOrBefore(l.frames, 0, n, f);
  if (k < 0) k = 0;
  const at = (arr: Float32Array, i: number): Vec3 => [arr[3 * i], arr[3 * i + 1], arr[3 * i + 2]];
  if (k === n - 1 || f <= l.frames[k]) return { color: at(l.color, k), direction: at(l.direction, k) };
  const t = (f - l.frames[k]) / (l.frames[k + 1] - l.frames[k]);
  const mix = (arr: Float32Array): Vec3 => [0, 1, 2].map((c) => arr[3 * k + c] + (arr[3 * k + 3 + c] - arr[3 * k + c]) * t) as Vec3;
  return { color: mix(l.color), direction: mix(l.direction) };
}

/**
 * The self-shadow in force at frame f: the key at or before it (a step: keys switch on their frame, never blend;
 * before the first key, the first key's), its mode (0 off, 1, 2) and its distance as stored; null without keys.
 */
export function sampleSelfShadow(doc: VmdDocument, tracks: MotionTracks, f: number): { mode: number; distance: number } | null {
  const s = tracks.shadow;
  if (s.frames.length === 0) return null;
  const k = Math.max(0, keyAtOrBefore(s.frames, 0, s.frames.length, f));
  const { mode, distance } = shadowKey(doc.shadow, s.record[k]);
  return { mode, distance };
}

/** The whole pose at frame f (MMD coordinates). */
export function samplePose(tracks: MotionTracks, f: number): Pose {
  const bones: Record<string, BonePose> = {};
  const b = tracks.bones;
  const pos = [0, 0, 0], rot = [0, 0, 0, 0];
  for (let t = 0; t < b.names.length; t++) {
    sampleBoneInto(b, t, f, pos, rot, 0);
    bones[b.names[t]] = { position: [pos[0], pos[1], pos[2]], rotation: [rot[0], rot[1], rot[2], rot[3]] };
  }
  const morphs: Record<string, number> = {};
  for (let t = 0; t < tracks.morphs.names.length; t++) morphs[tracks.morphs.names[t]] = sampleMorph(tracks.morphs, t, f);
  return { frame: f, bones, morphs, camera: sampleCamera(tracks.camera, f), light: sampleLight(tracks.light, f) };
}
