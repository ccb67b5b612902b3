/**
 * How far one motion plays from another, measured by sampling both with the player (sample.ts) and
 * nothing from the fitter: at every integer frame and (optionally) every half frame, output frame g
 * against the input at g·factor (the camera's half frames can be asked for alone: cameraHalfFrames). Bones by name: position (largest |Δ| of a coordinate) and rotation
 * (angle between the orientations); morphs by name (|Δ weight|); camera target/distance, angles
 * (largest |Δ| of an Euler angle, as stored: not wrapped) and fov. In a re-timing, a morph's peak that plays
 * between two output frames is measured at the output frame that shows it (morph-peaks.ts): a blink the
 * output drops counts as its whole height. Tracks present on one side only are
 * measured against the other's rest/hold the way a player would show them (a missing bone rests).
 */
import { quatAngleDeg } from '../vmd/quat-angle';
import { sampleBoneSeries, sampleCamera, sampleMorph } from '../vmd/sample';
import { buildTracks } from '../vmd/tracks';
import { placeMorphPeaks } from './morph-peaks';
import type { VmdDocument } from '../vmd/vmd-document';

export interface MotionErrors {
  position: number;
  rotationDeg: number;
  morph: number;
  cameraPosition: number;
  cameraAngleDeg: number;
  cameraFov: number;
}

export interface MeasureOptions {
  /** Output frame g is compared with the input at g·factor (default 1). */
  factor?: number;
  /** Also compare at every half frame (default true). */
  halfFrames?: boolean;
  /**
   * The camera at every half frame even where `halfFrames` is false (a re-timing: bones and morphs
   * promise integer frames, the camera every half frame).
   */
  cameraHalfFrames?: boolean;
  /** Output frames to compare, inclusive (default 0 … the later of both ends). */
  from?: number;
  to?: number;
}

const RAD = 180 / Math.PI;

/**
 * Whether the orientations at a[i..i+3] and b[i..i+3] may be further apart than an angle whose half has
 * cosine² `cos2`: the angle between them is at most that one when (a·b)² ≥ cos2·|a|²|b|² (the half-angle
 * between the quaternions as 4-vectors, either sign). Only those that may be further are measured exactly
 * (quatAngleDeg), so the largest error is the same number. The 1e-9 margin is far above the rounding of
 * these products (~1e-16) and far below the tolerances' cos² distance from 1 (0.1°: 7.6e-7).
 */
function mayExceed(a: Float64Array, b: Float64Array, i: number, cos2: number): boolean {
  const ax = a[i], ay = a[i + 1], az = a[i + 2], aw = a[i + 3], bx = b[i], by = b[i + 1], bz = b[i + 2], bw = b[i + 3];
  const d = ax * bx + ay * by + az * bz + aw * bw;
  // Written as "not surely within" so that a NaN is measured (and reported) as before.
  return !(d * d >= cos2 * (ax * ax + ay * ay + az * az + aw * aw) * (bx * bx + by * by + bz * bz + bw * bw) * (1 + 1e-9));
}

/** Largest differences between `input` (at g·factor) and `output` (at g). */
export function measureErrors(input: VmdDocument, output: VmdDocument, opts: MeasureOptions = {}): MotionErrors {
  const k = opts.factor ?? 1;
  const ta = buildTracks(input), tb = buildTracks(output);
  const last = Math.max(tb.lastFrame, Math.ceil(ta.lastFrame / k));
  const from = opts.from ?? 0, to = Math.min(opts.to ?? last, last);
  const step = opts.halfFrames === false ? 1 : 0.5;
  const e: MotionErrors = { position: 0, rotationDeg: 0, morph: 0, cameraPosition: 0, cameraAngleDeg: 0, cameraFov: 0 };
  // Each bone's samples in one series per side (sampleBoneSeries: what sampleBoneInto gives at each
  // time, walking the keys forward), at the same frames as the loop below visits.
  let count = 0;
  for (let g = from; g <= to; g += step) count++;
  const timesA = new Float64Array(count), timesB = new Float64Array(count);
  count = 0;
  for (let g = from; g <= to; g += step) {
    timesA[count] = g * k;
    timesB[count++] = g;
  }
  const pa = new Float64Array(3 * count), ra = new Float64Array(4 * count), pb = new Float64Array(3 * count), rb = new Float64Array(4 * count);
  /** A bone missing on one side rests there. */
  const rest = (p: Float64Array, r: Float64Array) => {
    p.fill(0);
    r.fill(0);
    for (let i = 3; i < r.length; i += 4) r[i] = 1;
  };
  /** cos² of half the largest rotation error so far (mayExceed). */
  let cos2 = 1;
  const names = new Set([...ta.bones.names, ...tb.bones.names]);
  for (const name of names) {
    const ia = ta.bones.index.get(name), ib = tb.bones.index.get(name);
    if (ia !== undefined) sampleBoneSeries(ta.bones, ia, timesA, pa, ra);
    else rest(pa, ra);
    if (ib !== undefined) sampleBoneSeries(tb.bones, ib, timesB, pb, rb);
    else rest(pb, rb);
    for (let i = 0; i < count; i++) {
      for (let c = 0; c < 3; c++) e.position = Math.max(e.position, Math.abs(pa[3 * i + c] - pb[3 * i + c]));
      if (!mayExceed(ra, rb, 4 * i, cos2)) continue;
      // Math.max, as every other figure here: a NaN stays in the figure.
      const deg = Math.max(e.rotationDeg, quatAngleDeg(ra, 4 * i, rb, 4 * i));
      if (deg !== e.rotationDeg) {
        e.rotationDeg = deg;
        cos2 = Math.cos((deg / RAD) / 2) ** 2;
      }
    }
  }
  const morphs = new Set([...ta.morphs.names, ...tb.morphs.names]);
  for (const name of morphs) {
    const ia = ta.morphs.index.get(name), ib = tb.morphs.index.get(name);
    // A re-timing: the input's peaks that play between two output frames are measured at the output frame
    // that shows each (against the peak), or, with none, at the nearer of its two (morph-peaks.ts).
    const peakAt = new Map<number, number>();
    if (ia !== undefined && k !== 1) {
      const m = ta.morphs;
      for (const p of placeMorphPeaks(m.frames, m.weight, m.start[ia], m.start[ia + 1], k)) {
        if (p.at !== null) peakAt.set(p.at, p.weight);
        else if (p.time >= from && p.time <= to) {
          const out = (g: number) => (ib !== undefined ? sampleMorph(tb.morphs, ib, g) : 0);
          e.morph = Math.max(e.morph, Math.min(Math.abs(out(Math.floor(p.time)) - p.weight), Math.abs(out(Math.ceil(p.time)) - p.weight)));
        }
      }
    }
    for (let g = from; g <= to; g += step) {
      const wa = ia !== undefined ? (peakAt.get(g) ?? sampleMorph(ta.morphs, ia, g * k)) : 0;
      const wb = ib !== undefined ? sampleMorph(tb.morphs, ib, g) : 0;
      e.morph = Math.max(e.morph, Math.abs(wa - wb));
    }
  }
  if (ta.camera.frames.length || tb.camera.frames.length) {
    // Re-timed input cuts (keys one frame apart): at a half frame whose output frame holds one, MMD
    // shows the hold before the output's cut whatever the fit, so it is not compared. (Unscaled, the
    // output's half frame there is the input's own.)
    const cf = ta.camera.frames, cuts: number[] = [];
    if (k !== 1) for (let i = 1; i < cf.length; i++) if (cf[i] - cf[i - 1] === 1) cuts.push(cf[i]);
    const cutInside = (g: number) => cuts.some((c) => (g - 0.5) * k < c && c <= (g + 0.5) * k);
    const camStep = opts.cameraHalfFrames ? 0.5 : step;
    for (let g = from; g <= to; g += camStep) {
      if (g % 1 !== 0 && cutInside(g)) continue;
      const ca = sampleCamera(ta.camera, g * k), cb = sampleCamera(tb.camera, g);
      if (!ca || !cb) {
        e.cameraPosition = Infinity;
        continue;
      }
      for (let c = 0; c < 3; c++) {
        e.cameraPosition = Math.max(e.cameraPosition, Math.abs(ca.target[c] - cb.target[c]));
        e.cameraAngleDeg = Math.max(e.cameraAngleDeg, Math.abs(ca.rotation[c] - cb.rotation[c]) * RAD);
      }
      e.cameraPosition = Math.max(e.cameraPosition, Math.abs(ca.distance - cb.distance));
      e.cameraFov = Math.max(e.cameraFov, Math.abs(ca.fov - cb.fov));
    }
  }
  return e;
}

/**
 * Writes the measured errors and the total key counts (bone + morph + camera, before and after) into a
 * fitting report's figures, and whether half frames were measured too.
 */
export function recordErrors(x: Record<string, number>, e: MotionErrors, halfFrames: boolean): void {
  x.maxPositionError = e.position;
  x.maxRotationErrorDeg = e.rotationDeg;
  x.maxMorphError = e.morph;
  x.maxCameraPositionError = e.cameraPosition;
  x.maxCameraAngleErrorDeg = e.cameraAngleDeg;
  x.maxCameraFovError = e.cameraFov;
  x.keysBefore = (x.boneKeysBefore ?? 0) + (x.morphKeysBefore ?? 0) + (x.cameraKeysBefore ?? 0);
  x.keysAfter = (x.boneKeysAfter ?? 0) + (x.morphKeysAfter ?? 0) + (x.cameraKeysAfter ?? 0);
  x.measuredHalfFrames = halfFrames ? 1 : 0;
}
