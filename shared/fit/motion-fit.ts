/**
 * Re-expressing a motion with the fitter (track-fit.ts): `reduce` (fewer keys within tolerance),
 * `speedRefit` (re-timing by a factor K without dropping motion: output frame g plays what the input
 * plays at g·K) and `bake` (a key on every frame).
 *
 * Per kind: bone tracks fit X, Y, Z (each its own curve) and the rotation (a curve timing the slerp),
 * and in a re-timing their key values may leave the samples within tolerance (track-fit.ts, freeValues);
 * morphs are linear (keys only; linear-fit.ts chooses key values within tolerance, the pinned fit of
 * track-fit.ts is the fallback); the camera fits six curves (target X/Y/Z, one shared by the three
 * angles, distance, fov as whole numbers), each stretch between cuts on its own, so cuts stay cuts;
 * angles are kept as stored, never wrapped. Light, self-shadow and IK/display keys are kept as they are
 * (re-timed like steps by speedRefit). Step attributes force keys: a bone key where the physics flag
 * changes, a camera key where perspective changes.
 *
 * New keys are copies of the input key in force at their frame (name bytes, physics bytes 2–3, tail
 * bytes and perspective carry over) with frame, values and curves rewritten. Tracks left alone (not
 * selected, nothing to gain) keep their records byte for byte; a block with no refitted track is the
 * input block itself. Changed blocks list tracks by name and keys by frame, so the output does not
 * depend on the order of records in the file.
 *
 * Each operation is a strategy (ReduceFit, RetimeFit, BakeFit: its time map, window, tolerances, which
 * tracks, how a window is fitted, what it reports); one driver (run and the per-kind fit functions)
 * applies any of them, and tests no operation by name.
 */
import { curveBetween } from '../edit-core/curve-split';
import { edited, editError, finishReport, newReport, type EditReport, type EditResult, warn } from '../edit-core/report';
import { namePattern } from '../edit-core/name-pattern';
import { denseRefusal, MAX_DENSE_VALUES } from '../edit-core/dense-limit';
import { failure, optionRefusal, type CodecError } from '../vmd/errors';
import { quantiseCurve, type Curve } from '../vmd/bezier';
import { physicsOff, setBoneCurves, setCameraCurve, type BoneChannel, type CameraChannel } from '../vmd/interpolation';
import { sampleBoneSeries, sampleCamera, sampleMorph } from '../vmd/sample';
import { decodeName } from '../vmd/sjis';
import { boneTrackOf, buildCameraTrack, buildMorphTracks, indexBoneTracks, keyAtOrBefore, type BoneTracks, type CameraTrack, type MorphTracks, type NamedTracks } from '../vmd/tracks';
import { BONE, CAMERA, MORPH } from '../vmd/vmd-layout';
import { blockFromRecords, recordBytes, viewOf, withBlocks, type Block, type FixedBlock, type VmdDocument } from '../vmd/vmd-document';
import { fitLinearFree } from './linear-fit';
import { placeMorphPeaks } from './morph-peaks';
import { fitWindow, type FitGroup, type SampledWindow, type WindowFit } from './track-fit';
import { count, plural, agree } from '../i18n/plural';

export interface Tolerances {
  /** Bone position, camera target and distance, in units. */
  position: number;
  /** Bone rotation (angle between orientations) and camera angles, in degrees. */
  rotationDeg: number;
  /** Morph weight. */
  morph: number;
}

export const DEFAULT_TOLERANCES: Readonly<Tolerances> = { position: 0.01, rotationDeg: 0.1, morph: 0.005 };

export interface FitSelection {
  /** Bone/morph name pattern (see namePattern in shared/edit-core/name-pattern.ts); all when undefined. */
  bones?: string;
  /**
   * Exact tracks instead of a pattern (the editor's Simplify on selected keys): bone and morph names,
   * and whether the camera is included. Overrides `bones`.
   */
  tracks?: { bones: ReadonlySet<string>; morphs: ReadonlySet<string>; camera: boolean };
  /** Only keys in [from, to] are refitted (reduce) or baked (bake). */
  from?: number;
  to?: number;
}

/** Told after each track is fitted: tracks done and in all (bone, morph, then the camera as one). */
export type FitProgress = (done: number, total: number) => void;

export interface WithProgress {
  progress?: FitProgress;
}

export type ReduceOptions = Partial<Tolerances> & FitSelection & WithProgress;
export type SpeedRefitOptions = Partial<Tolerances> & {
  factor: number;
  /**
   * Samples per output frame a bone or morph track's fit must meet (default 1: every output frame). A
   * capture re-timed from K× its rate gives K: every capture frame, where 30 fps keys can reach it.
   */
  samplesPerFrame?: number;
  /**
   * The last output frame (default: the first that reaches the input's last key). A capture's last
   * sample usually falls between two output frames (994 frames at 120 fps end at 248.25): a key on the
   * frame after would show that sample late, past the capture's length, so the import ends its tracks on
   * the frame before, at the capture as played there. Keys and steps past it move to it.
   */
  lastFrame?: number;
} & WithProgress;
export type BakeOptions = FitSelection & WithProgress;

type Kind = 'bone' | 'morph' | 'camera';

interface Counts {
  before: number;
  after: number;
  refitted: number;
}

const DEG = Math.PI / 180;
const F = Math.fround;

function resolveTolerances(o: Partial<Tolerances>): Tolerances | string {
  const t = { ...DEFAULT_TOLERANCES };
  for (const k of ['position', 'rotationDeg', 'morph'] as const) {
    const v = o[k];
    if (v === undefined) continue;
    if (!Number.isFinite(v) || v <= 0) return `tolerance ${k} must be a number greater than 0, got ${v}`;
    t[k] = v;
  }
  return t;
}

/** Camera fov is stored as whole degrees: a key between two fov values rounds, so its tolerance is at least ½°. */
function fovTolerance(t: Tolerances): number {
  return Math.max(0.5 + 1e-9, t.rotationDeg);
}

// ---------------------------------------------------------------------------------------------------
// Time maps: which input time a window sample plays, and which input keys a window covers.

interface Mapping {
  /** Output frame → input time. */
  time: (g: number) => number;
  /** Input frame of a step → first output frame that shows it. */
  stepFrame: (f: number) => number;
  /** Input frame → the last output frame that plays it or earlier (where a window starts). */
  firstFrame: (f: number) => number;
  /** Input frame → the output frame nearest to it (where a track's one key goes). */
  nearestFrame: (f: number) => number;
  /** True when output frames are input frames (reduce, bake). */
  identity: boolean;
  /**
   * The input frame output frame g plays when that is a whole number, else null: a segment between
   * two output frames that play consecutive input keys plays exactly as the input's own curve (a curve
   * times its segment as a fraction of it), which is then a hint for the fit.
   */
  inputFrame: (g: number) => number | null;
  /** The output frame that plays input frame f when that is a whole number, else null (inputFrame's inverse). */
  outputFrame: (f: number) => number | null;
  /**
   * Samples per output frame the fit must meet: 2 when output frames are input frames (every integer
   * and half frame), 1 for a re-timing, whose promise is every integer frame (a bone's turning point
   * the input reaches between two output frames needs no key there; a morph's does: morphWindow).
   */
  perFrame: number;
  /** The factor K of a re-timing (1 when output frames are input frames) and the last output frame. */
  factor: number;
  last: number;
}

const IDENTITY: Mapping = { factor: 1, last: Infinity, time: (g) => g, stepFrame: (f) => f, firstFrame: (f) => f, nearestFrame: (f) => f, identity: true, perFrame: 2, inputFrame: (g) => g, outputFrame: (f) => f };

function scaled(k: number, perFrame = 1, last = Infinity): Mapping {
  const inputFrame = (g: number) => {
    const x = g * k, r = Math.round(x);
    return Math.abs(x - r) < 1e-9 ? r : null;
  };
  const outputFrame = (f: number) => {
    const g = Math.round(f / k);
    return inputFrame(g) === f ? g : null;
  };
  return {
    factor: k,
    last,
    time: (g) => g * k,
    stepFrame: (f) => Math.min(last, Math.ceil(f / k - 1e-9)),
    firstFrame: (f) => Math.min(last, Math.floor(f / k + 1e-9)),
    nearestFrame: (f) => Math.min(last, Math.round(f / k)),
    identity: false,
    perFrame,
    inputFrame,
    outputFrame,
  };
}

/** Whether some input key of frames[a..e) plays between two output frames (a re-timed corner). */
function cornerBetweenFrames(frames: Uint32Array, a: number, e: number, map: Mapping): boolean {
  if (map.identity) return false;
  for (let k = a; k < e; k++) if (map.outputFrame(frames[k]) === null) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------------
// Sampling one track into a window.

function boneWindow(block: FixedBlock, b: BoneTracks, t: number, g0: number, g1: number, map: Mapping, tol: Tolerances): SampledWindow {
  const R = map.perFrame;
  const n = R * (g1 - g0) + 1;
  const px = new Float64Array(n), py = new Float64Array(n), pz = new Float64Array(n), q = new Float64Array(4 * n);
  const times = new Float64Array(n), pos = new Float64Array(3 * n);
  for (let j = 0; j < n; j++) times[j] = map.time(g0 + j / R);
  sampleBoneSeries(b, t, times, pos, q);
  for (let j = 0; j < n; j++) {
    px[j] = pos[3 * j]; py[j] = pos[3 * j + 1]; pz[j] = pos[3 * j + 2];
  }
  if (!map.identity && R > 1) towardReach(R, px, py, pz, q, tol.rotationDeg * DEG);
  const groups: FitGroup[] = [
    { kind: 'curve', comps: [px], tol: tol.position },
    { kind: 'curve', comps: [py], tol: tol.position },
    { kind: 'curve', comps: [pz], tol: tol.position },
    { kind: 'quat', q, tol: tol.rotationDeg * DEG },
  ];
  const a = b.start[t], e = b.start[t + 1];
  const forced: number[] = [];
  let prev: boolean | null = null;
  for (let k = a; k < e; k++) {
    const flag = physicsKey(block, b, k);
    if (prev !== null && flag !== prev) forced.push(map.stepFrame(b.frames[k]));
    prev = flag;
  }
  // A re-timing's corners that fall between output frames: key values may leave their samples there.
  // Where every key plays at an output frame (×0.5, say) the pinned fit can key each corner.
  return { g0, g1, perFrame: R, groups, forced, hint: segmentHint(b, a, e, 16, map), freeValues: cornerBetweenFrames(b.frames, a, e, map) };
}

/**
 * Samples between output frames (a re-timing met at every input frame) taken to where keys on whole frames
 * can reach, as the camera's half frames are (cameraWindow): a curve's progress only rises, so whatever
 * plays between output frames g and g + 1 lies, per position axis, between what plays at g and at g + 1,
 * and its rotation on the great-circle arc between those two rotations. A sample past that (a capture that
 * turns back, or leaves the arc, within one output frame) is moved to the nearest point there — a rotation
 * only when it is off the arc by more than half the tolerance; elsewhere it is unchanged.
 */
function towardReach(R: number, px: Float64Array, py: Float64Array, pz: Float64Array, q: Float64Array, rotTol: number): void {
  const n = px.length;
  for (let j = 1; j < n; j++) {
    if (j % R === 0) continue;
    const j0 = j - (j % R), j1 = j0 + R;
    if (j1 >= n) break;
    for (const s of [px, py, pz]) {
      const lo = Math.min(s[j0], s[j1]), hi = Math.max(s[j0], s[j1]);
      s[j] = s[j] < lo ? lo : s[j] > hi ? hi : s[j];
    }
    const near = nearestOnArc(q, 4 * j0, 4 * j1, 4 * j);
    let dot = 0;
    for (let c = 0; c < 4; c++) dot += near[c] * q[4 * j + c];
    if (2 * Math.acos(Math.min(1, Math.abs(dot))) > rotTol / 2) q.set(near, 4 * j);
  }
}

/** The point of the great-circle arc from rotation q[a..a+4) to q[b..b+4) nearest to q[o..o+4) (q and −q one rotation). */
export function nearestOnArc(q: ArrayLike<number>, a: number, b: number, o: number): number[] {
  let d = q[a] * q[b] + q[a + 1] * q[b + 1] + q[a + 2] * q[b + 2] + q[a + 3] * q[b + 3];
  const sb = d < 0 ? -1 : 1;
  d = Math.min(1, d * sb);
  const th = Math.acos(d);
  const qa = [q[a], q[a + 1], q[a + 2], q[a + 3]];
  if (th < 1e-9) return qa;
  const sin = Math.sin(th);
  const u = [0, 1, 2, 3].map((c) => (sb * q[b + c] - d * q[a + c]) / sin);
  let x = 0, y = 0;
  for (let c = 0; c < 4; c++) {
    x += q[o + c] * qa[c];
    y += q[o + c] * u[c];
  }
  // The arc is the points cos φ·a + sin φ·u, 0 ≤ φ ≤ θ; the nearest (to q or −q) maximises |x cos φ + y sin φ|.
  let best = 0, bestV = -1;
  for (const phi of [0, th, Math.atan2(y, x), Math.atan2(-y, -x)]) {
    if (!(phi >= 0 && phi <= th)) continue;
    const v = Math.abs(x * Math.cos(phi) + y * Math.sin(phi));
    if (v > bestV) [best, bestV] = [phi, v];
  }
  const c0 = Math.cos(best), s0 = Math.sin(best);
  return [0, 1, 2, 3].map((c) => c0 * qa[c] + s0 * u[c]);
}

/**
 * Whether key k turns physics off (its pair is 99/15) — the step a fit must keep. Any other pair is
 * physics on, whatever its bytes: MMD's own files repeat x1 of Z and rotation there (interpolation.ts),
 * so the raw pair changes from key to key without any change MMD plays.
 */
function physicsKey(block: FixedBlock, b: BoneTracks, k: number): boolean {
  const o = b.record[k] * BONE.SIZE + BONE.INTERPOLATION;
  return physicsOff(block.bytes.subarray(o, o + BONE.INTERPOLATION_LENGTH));
}

/** From output frame gx, where a key of the track plays, to the output frame of the next key when that is whole: the input's own curves, which play it exactly. */
function segmentHint(tr: { frames: Uint32Array; curves: Uint8Array }, a: number, e: number, per: number, map: Mapping) {
  return (gx: number): { b: number; curves: Uint8Array } | null => {
    const x = map.inputFrame(gx);
    if (x === null) return null;
    const k = keyAtOrBefore(tr.frames, a, e, x);
    if (k < a || tr.frames[k] !== x || k + 1 >= e) return null;
    const b = map.outputFrame(tr.frames[k + 1]);
    return b === null ? null : { b, curves: tr.curves.slice(per * (k + 1), per * (k + 2)) };
  };
}

/**
 * A morph window's samples: the input at each output frame's time, except that a peak of the input that
 * plays between two output frames (a blink's 1 at 50.5, twice as fast) is the sample of the output frame
 * given to it (morph-peaks.ts), so the fit keys it there rather than passing between 0 and 0.
 */
function morphWindow(m: MorphTracks, t: number, g0: number, g1: number, map: Mapping, tol: Tolerances): SampledWindow {
  const R = map.perFrame;
  const n = R * (g1 - g0) + 1;
  const w = new Float64Array(n);
  for (let j = 0; j < n; j++) w[j] = sampleMorph(m, t, map.time(g0 + j / R));
  if (!map.identity) {
    for (const p of placeMorphPeaks(m.frames, m.weight, m.start[t], m.start[t + 1], map.factor, map.last)) {
      if (p.at !== null && p.at >= g0 && p.at <= g1) w[R * (p.at - g0)] = p.weight;
    }
  }
  return { g0, g1, perFrame: R, groups: [{ kind: 'linear', comps: [w], tol: tol.morph }] };
}

/**
 * The camera is sampled at every integer and half frame in a re-timing too (perFrame 2): a camera
 * plays at 60 fps as often as at 30, and a segment that misses a half frame would show.
 *
 * Keys sit on whole frames and a curve's progress only rises, so whatever plays at g + ½ (a segment
 * through it, or the hold of a cut) lies between what plays at g and at g + 1. Where the input turns
 * back between two output frames (a re-timed corner: wavefile_camera ×1.5 has its distance peak at
 * 111⅓), a half frame's sample can lie past what its two whole frames play; nothing keyed on whole
 * frames gets nearer to it than that range less the two whole frames' tolerance, and asking for more
 * would leave only a cut there. So a half frame's sample is taken into the range of the two whole
 * frames' samples widened by `reach` (per channel, in tolerances; HALF_REACHES): with reach r ≤ 1 a
 * clamped sample is met within (1 − r) tolerance by a key on the whole frame, and a sample within r
 * of the range is the fit's target as it is. Elsewhere (motion that goes one way over the frame) the
 * sample is unchanged.
 */
function cameraWindow(c: CameraTrack, g0: number, g1: number, map: Mapping, tol: Tolerances, reach = 0): SampledWindow {
  const R = 2;
  const n = R * (g1 - g0) + 1;
  const ch = Array.from({ length: 8 }, () => new Float64Array(n));
  for (let j = 0; j < n; j++) {
    const p = sampleCamera(c, map.time(g0 + j / R))!;
    ch[0][j] = p.target[0]; ch[1][j] = p.target[1]; ch[2][j] = p.target[2];
    ch[3][j] = p.rotation[0]; ch[4][j] = p.rotation[1]; ch[5][j] = p.rotation[2];
    ch[6][j] = p.distance; ch[7][j] = p.fov;
  }
  const chTol = cameraTolerances(tol);
  for (let k = 0; k < 8; k++) {
    const s = ch[k], r = reach * chTol[k];
    for (let j = 1; j + 1 < n; j += 2) {
      const lo = Math.min(s[j - 1], s[j + 1]) - r, hi = Math.max(s[j - 1], s[j + 1]) + r;
      s[j] = s[j] < lo ? lo : s[j] > hi ? hi : s[j];
    }
  }
  const groups: FitGroup[] = [
    { kind: 'curve', comps: [ch[0]], tol: tol.position },
    { kind: 'curve', comps: [ch[1]], tol: tol.position },
    { kind: 'curve', comps: [ch[2]], tol: tol.position },
    { kind: 'curve', comps: [ch[3], ch[4], ch[5]], tol: tol.rotationDeg * DEG },
    { kind: 'curve', comps: [ch[6]], tol: tol.position },
    { kind: 'curve', comps: [ch[7]], tol: fovTolerance(tol), integer: true },
  ];
  const forced: number[] = [];
  for (let k = 1; k < c.frames.length; k++) if (c.perspective[k] !== c.perspective[k - 1]) forced.push(map.stepFrame(c.frames[k]));
  return { g0, g1, perFrame: R, groups, forced, noUnitSegments: true, hint: segmentHint(c, 0, c.frames.length, 24, map), search: !map.identity };
}

/** Per camera channel (target x, y, z, the three angles, distance, fov) its tolerance, in its units. */
function cameraTolerances(tol: Tolerances): number[] {
  const a = tol.rotationDeg * DEG;
  return [tol.position, tol.position, tol.position, a, a, a, tol.position, fovTolerance(tol)];
}

/**
 * How far past its whole frames' range a half frame's camera sample is kept (cameraWindow's reach),
 * each tried in a re-timing; the piece keeps the fit that plays nearest the input (pieceError). 0 asks
 * least of a corner (the range itself: the fit can follow it with keys of its own samples, at the cost
 * of up to a tolerance past the overshoot), 0.9 asks the input's own sample wherever it lies within
 * 0.9 tolerance of the range (a half frame within tolerance there), and a clamped one within 0.1.
 * Neither is better everywhere: a stricter target can leave a corner only a relaxed repair
 * (track-fit.ts, noUnitRepair), whose segments stray at whole frames too.
 */
const HALF_REACHES: readonly number[] = [0.9, 0.5, 0];

/**
 * The largest error, in tolerances, of a camera piece's keys (`recs`: records as written, output
 * frames g0..g1) against the input at every integer and half frame of [g0, g1], both played by the
 * codec's sampler: the measure that picks among HALF_REACHES.
 */
function pieceError(c: CameraTrack, recs: Uint8Array[], g0: number, g1: number, map: Mapping, tol: Tolerances): number {
  const out = buildCameraTrack(blockFromRecords('camera', recs));
  const t = cameraTolerances(tol);
  let worst = 0;
  for (let h = g0; h <= g1; h += 0.5) {
    const a = sampleCamera(c, map.time(h))!, b = sampleCamera(out, h)!;
    const va = [...a.target, ...a.rotation, a.distance, a.fov], vb = [...b.target, ...b.rotation, b.distance, b.fov];
    for (let k = 0; k < 8; k++) worst = Math.max(worst, Math.abs(va[k] - vb[k]) / t[k]);
  }
  return worst;
}

// ---------------------------------------------------------------------------------------------------
// Writing keys.

/** A bone window's sampled key values at j: x, y, z, then the rotation (as a fit's moved `values` are). */
function boneValuesAt(w: SampledWindow, j: number, out = new Float64Array(7)): Float64Array {
  for (let c = 0; c < 3; c++) out[c] = (w.groups[c] as { comps: Float64Array[] }).comps[0][j];
  const q = (w.groups[3] as { q: Float64Array }).q;
  for (let c = 0; c < 4; c++) out[3 + c] = q[4 * j + c];
  return out;
}

/** Whether two bone key values (x, y, z, then the rotation) are the same once stored as float32. */
function sameValues(a: Float64Array, b: Float64Array): boolean {
  for (let c = 0; c < a.length; c++) if (F(a[c]) !== F(b[c])) return false;
  return true;
}

const scratchValues = new Float64Array(7);

/** A bone key from `template`: values sampled at j, or `values` (x, y, z, then the rotation) when the fit moved them. */
function writeBoneKey(template: Uint8Array, frame: number, w: SampledWindow, j: number, curves: Uint8Array | null, values?: Float64Array): Uint8Array {
  const r = template.slice();
  const v = viewOf(r);
  v.setUint32(BONE.FRAME, frame, true);
  const x = values ?? boneValuesAt(w, j, scratchValues);
  for (let c = 0; c < 3; c++) v.setFloat32(BONE.POSITION + 4 * c, x[c], true);
  for (let c = 0; c < 4; c++) v.setFloat32(BONE.ROTATION + 4 * c, x[3 + c], true);
  if (curves) setBoneCurvesFrom(r, curves);
  return r;
}

function setBoneCurvesFrom(r: Uint8Array, curves: Uint8Array): void {
  const ip = r.subarray(BONE.INTERPOLATION, BONE.INTERPOLATION + BONE.INTERPOLATION_LENGTH);
  const set: Partial<Record<BoneChannel, Curve>> = {};
  for (let c = 0; c < 4; c++) set[c as BoneChannel] = [curves[4 * c], curves[4 * c + 1], curves[4 * c + 2], curves[4 * c + 3]];
  setBoneCurves(ip, set);
}

function writeMorphKey(template: Uint8Array, frame: number, weight: number): Uint8Array {
  const r = template.slice();
  const v = viewOf(r);
  v.setUint32(MORPH.FRAME, frame, true);
  v.setFloat32(MORPH.WEIGHT, weight, true);
  return r;
}

function writeCameraKey(template: Uint8Array, frame: number, w: SampledWindow, j: number, curves: Uint8Array | null): Uint8Array {
  const r = template.slice();
  const v = viewOf(r);
  v.setUint32(CAMERA.FRAME, frame, true);
  const comp = (gi: number, ci = 0) => (w.groups[gi] as { comps: Float64Array[] }).comps[ci][j];
  for (let c = 0; c < 3; c++) v.setFloat32(CAMERA.TARGET + 4 * c, comp(c), true);
  for (let c = 0; c < 3; c++) v.setFloat32(CAMERA.ROTATION + 4 * c, comp(3, c), true);
  v.setFloat32(CAMERA.DISTANCE, comp(4), true);
  v.setUint32(CAMERA.FOV, Math.max(0, Math.round(comp(5))), true);
  if (curves) setCameraCurvesFrom(r, curves);
  return r;
}

function setCameraCurvesFrom(r: Uint8Array, curves: Uint8Array): void {
  const ip = r.subarray(CAMERA.INTERPOLATION, CAMERA.INTERPOLATION + CAMERA.INTERPOLATION_LENGTH);
  for (let c = 0; c < 6; c++) setCameraCurve(ip, c as CameraChannel, [curves[4 * c], curves[4 * c + 1], curves[4 * c + 2], curves[4 * c + 3]]);
}

// ---------------------------------------------------------------------------------------------------
// Assembling blocks.

/** All records of a named block grouped by track (duplicates too), each list in frame order (stable). */
function recordsByTrack(block: FixedBlock, tr: NamedTracks, nameLength: number): Uint32Array[] {
  // No duplicates: every record is a key of its track, already in frame order (the common case, and
  // a baked dance's hundreds of thousands of records need no sort).
  if (tr.duplicates === 0) return tr.names.map((_, t) => tr.record.subarray(tr.start[t], tr.start[t + 1]));
  const lists: number[][] = tr.names.map(() => []);
  const kept = new Uint8Array(block.count);
  for (let t = 0; t < tr.names.length; t++) for (let k = tr.start[t]; k < tr.start[t + 1]; k++) {
    lists[t].push(tr.record[k]);
    kept[tr.record[k]] = 1;
  }
  const frameOf = (i: number) => block.view.getUint32(i * block.size + 15, true);
  for (let i = 0; i < block.count; i++) {
    if (kept[i]) continue;
    const t = tr.index.get(decodeName(block.bytes, i * block.size, nameLength));
    if (t !== undefined) lists[t].push(i);
  }
  return lists.map((l) => Uint32Array.from(l.map((i, p) => [frameOf(i), p, i]).sort((x, y) => x[0] - y[0] || x[1] - y[1]).map((x) => x[2])));
}

/** Track order for changed blocks: by decoded name (independent of record order). */
function sortedTracks(names: string[]): number[] {
  return names.map((_, i) => i).sort((a, b) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0));
}

interface TrackOutput {
  /** New records for the track, or null to keep it as it is. */
  records: Uint8Array[] | null;
  before: number;
}

function namedBlock(kind: 'bone' | 'morph', block: FixedBlock, tr: NamedTracks, nameLength: number, outputs: TrackOutput[], c: Counts, rep: EditReport): FixedBlock {
  let any = false;
  for (const o of outputs) if (o.records) any = true;
  const kc = rep.byKind[kind];
  if (!any) {
    kc.kept += block.count;
    c.before += block.count;
    c.after += block.count;
    return block;
  }
  const all = recordsByTrack(block, tr, nameLength);
  const recs: Uint8Array[] = [];
  for (const t of sortedTracks(tr.names)) {
    const o = outputs[t];
    if (o.records) {
      for (const r of o.records) recs.push(r);
      // Records that repeated a (name, frame) of this track never played; the refit leaves them out.
      kc.dropped += all[t].length - o.before;
      c.refitted++;
      c.before += all[t].length;
      c.after += o.records.length;
    } else {
      for (const i of all[t]) recs.push(recordBytes(block, i));
      kc.kept += all[t].length;
      c.before += all[t].length;
      c.after += all[t].length;
    }
  }
  return blockFromRecords(kind, recs);
}

/** Counts a refitted track's keys against the input's (kept = frames that were keys before). */
function countKeys(rep: EditReport, kind: Kind, inputFrames: ArrayLike<number>, outFrames: number[], duplicates: number, sameFrames: boolean): void {
  const kc = rep.byKind[kind];
  if (!sameFrames) {
    // Re-timed: every output key is rewritten; fewer keys means segments merged, not motion dropped
    // (the keys before/after figures say how many).
    kc.kept += Math.min(inputFrames.length, outFrames.length);
    kc.changed += Math.min(inputFrames.length, outFrames.length);
    kc.added += Math.max(0, outFrames.length - inputFrames.length);
    kc.dropped += duplicates;
    return;
  }
  const inSet = new Set<number>();
  for (let i = 0; i < inputFrames.length; i++) inSet.add(inputFrames[i]);
  let kept = 0;
  for (const f of outFrames) if (inSet.has(f)) kept++;
  kc.kept += kept;
  kc.changed += kept;
  kc.added += outFrames.length - kept;
  kc.dropped += inputFrames.length - kept + duplicates;
}

// ---------------------------------------------------------------------------------------------------
// The operations: one strategy each, holding what differs between them; the driver below (fitBoneTrack,
// fitMorphTrack, fitCamera, run) does the rest the same way for all.

/** Which bone and morph tracks, which key range, and whether the camera: reduce's and bake's choice. */
interface Selection {
  select: (name: string) => boolean;
  selectMorph: (name: string) => boolean;
  /** A name pattern picks bones and morphs: the camera (no name) is then left as it is. */
  named: boolean;
  from: number;
  to: number;
}

/** A camera piece's sampled window and its keys. */
interface PieceFit {
  w: SampledWindow;
  fit: WindowFit;
}

/** What one fitting operation decides. */
interface FitStrategy {
  /** The report's `edit`. */
  readonly edit: 'reduce' | 'speed' | 'bake';
  /** Output frames ↔ input time. */
  readonly map: Mapping;
  /** What a window's samples are fitted within. */
  readonly tol: Tolerances;
  /** Whether the camera track is refitted. */
  readonly camera: boolean;
  /**
   * Whether a bone or morph fit of two keys with one value becomes that one key: the window is the
   * whole track, so one key holds the same after it as before.
   */
  readonly oneKeyHolds: boolean;
  /** Whether the bone track by this name is refitted. */
  selectBone(name: string): boolean;
  /** Whether the morph track by this name is refitted. */
  selectMorph(name: string): boolean;
  /** Key index range [i0, i1] of a track that the operation rewrites, or null to leave it. */
  window(frames: Uint32Array, a: number, e: number): [number, number] | null;
  /** Whether a fit of `after` keys in place of the window's `before` input keys is taken (else the track stays as it is). */
  takes(before: number, after: number): boolean;
  /** A bone window's keys (tr: the track's keys a..e, their 16 curve bytes each). */
  fitBone(w: SampledWindow, tr: BoneTracks, a: number, e: number): WindowFit;
  /** A morph window's key frames, and their weights when they are not the samples (null). */
  morphKeys(w: SampledWindow, weights: Float64Array, g0: number, g1: number): { frames: number[]; values: number[] | null };
  /** A camera piece (output frames g0..g1) sampled and fitted; `rec(k)` is input key k's record. */
  fitCameraPiece(c: CameraTrack, g0: number, g1: number, rec: (k: number) => Uint8Array): PieceFit;
  /** The light, self-shadow or IK block of the output, or undefined for the input's own (counted as kept). */
  steps(doc: VmdDocument, kind: 'light' | 'shadow' | 'ik', rep: EditReport): Block | undefined;
  /** The operation's own figures and warnings, once the blocks are done. */
  finish(rep: EditReport, cam: CameraOutput): void;
}

const BAKE_TOL: Tolerances = { position: 1, rotationDeg: 1, morph: 1 };

/** Morph keys pinned to their samples, unless free key values (linear-fit.ts) save keys: where a corner falls between frames, a key a little off its sample can serve both sides. */
function fittedMorphKeys(w: SampledWindow, weights: Float64Array, g0: number, g1: number, perFrame: number, tol: number): { frames: number[]; values: number[] | null } {
  const pinned = fitWindow(w).frames;
  const free = pinned.length > 2 ? fitLinearFree(weights, perFrame, g0, g1, tol) : null;
  const frames = free && free.frames.length < pinned.length ? free.frames : pinned;
  return { frames, values: frames === pinned ? null : free!.values };
}

/**
 * Reduce and bake: output frames are input frames (IDENTITY), over the tracks and the key range the
 * selection names. Keys outside a track's window stay as they are, and so does the window's first key
 * (its curve shapes the segment before the window); light, self-shadow and IK are kept.
 */
abstract class InPlaceFit implements FitStrategy {
  abstract readonly edit: 'reduce' | 'bake';
  readonly map = IDENTITY;
  readonly oneKeyHolds = false;
  constructor(
    readonly tol: Tolerances,
    protected readonly s: Selection,
  ) {}
  get camera(): boolean {
    return !this.s.named;
  }
  selectBone(name: string): boolean {
    return this.s.select(name);
  }
  selectMorph(name: string): boolean {
    return this.s.selectMorph(name);
  }
  abstract window(frames: Uint32Array, a: number, e: number): [number, number] | null;
  abstract takes(before: number, after: number): boolean;
  abstract fitBone(w: SampledWindow, tr: BoneTracks, a: number, e: number): WindowFit;
  abstract morphKeys(w: SampledWindow, weights: Float64Array, g0: number, g1: number): { frames: number[]; values: number[] | null };
  abstract fitCameraPiece(c: CameraTrack, g0: number, g1: number): PieceFit;
  steps(doc: VmdDocument, kind: 'light' | 'shadow' | 'ik', rep: EditReport): undefined {
    rep.byKind[kind].kept += doc[kind].count;
    return undefined;
  }
  finish(rep: EditReport, cam: CameraOutput): void {
    if (cam.cutsKept < cam.cutsBefore) warn(rep, 'W_FIT_CUTS_LOST', `${plural(count(cam.cutsBefore - cam.cutsKept), 'camera cut')} ${agree(cam.cutsBefore - cam.cutsKept, 'was', 'were')} lost`, { n: cam.cutsBefore - cam.cutsKept });
  }
}

/** Fewer keys within tolerance: a track's keys in [from, to] (three at least) refitted, taken only when fewer. */
class ReduceFit extends InPlaceFit {
  readonly edit = 'reduce';
  window(frames: Uint32Array, a: number, e: number): [number, number] | null {
    let i0 = a;
    while (i0 < e && frames[i0] < this.s.from) i0++;
    let i1 = e - 1;
    while (i1 >= a && frames[i1] > this.s.to) i1--;
    return i1 - i0 >= 2 ? [i0, i1] : null;
  }
  takes(before: number, after: number): boolean {
    return after < before;
  }
  fitBone(w: SampledWindow): WindowFit {
    return fitWindow(w);
  }
  morphKeys(w: SampledWindow, weights: Float64Array, g0: number, g1: number): { frames: number[]; values: number[] | null } {
    return fittedMorphKeys(w, weights, g0, g1, this.map.perFrame, this.tol.morph);
  }
  fitCameraPiece(c: CameraTrack, g0: number, g1: number): PieceFit {
    const w = cameraWindow(c, g0, g1, this.map, this.tol);
    return { w, fit: fitWindow(w) };
  }
}

/** A key on every frame: the window snapped outward to keys, each frame's curves cut from the input's (bakeFit). */
class BakeFit extends InPlaceFit {
  readonly edit = 'bake';
  constructor(s: Selection) {
    super(BAKE_TOL, s);
  }
  window(frames: Uint32Array, a: number, e: number): [number, number] | null {
    // Snapped outward to keys so the motion outside is untouched.
    let i0 = keyAtOrBefore(frames, a, e, this.s.from);
    if (i0 < a) i0 = a;
    let i1 = i0;
    while (i1 < e - 1 && frames[i1] < this.s.to) i1++;
    return i1 > i0 ? [i0, i1] : null;
  }
  takes(): boolean {
    return true;
  }
  fitBone(w: SampledWindow, tr: BoneTracks, a: number, e: number): WindowFit {
    return bakeFit(w, tr, a, e, 16);
  }
  morphKeys(_w: SampledWindow, _weights: Float64Array, g0: number, g1: number): { frames: number[]; values: number[] | null } {
    return { frames: Array.from({ length: g1 - g0 + 1 }, (_, i) => g0 + i), values: null };
  }
  fitCameraPiece(c: CameraTrack, g0: number, g1: number): PieceFit {
    const w = cameraWindow(c, g0, g1, this.map, this.tol);
    return { w, fit: bakeFit(w, c, 0, c.frames.length, 24) };
  }
}

/**
 * Re-timing by a factor K: every track, all its keys (output frame g plays the input at g·K); the camera
 * tries each of HALF_REACHES per piece; light, self-shadow and IK re-timed as steps (retimeSteps).
 */
class RetimeFit implements FitStrategy {
  readonly edit = 'speed';
  readonly map: Mapping;
  readonly camera = true;
  readonly oneKeyHolds = true;
  constructor(
    readonly tol: Tolerances,
    private readonly factor: number,
    perFrame: number,
    private readonly last = Infinity,
  ) {
    this.map = scaled(factor, perFrame, last);
  }
  selectBone(): boolean {
    return true;
  }
  selectMorph(): boolean {
    return true;
  }
  window(_frames: Uint32Array, a: number, e: number): [number, number] | null {
    return e - a >= 1 ? [a, e - 1] : null;
  }
  takes(): boolean {
    return true;
  }
  fitBone(w: SampledWindow): WindowFit {
    return fitWindow(w);
  }
  morphKeys(w: SampledWindow, weights: Float64Array, g0: number, g1: number): { frames: number[]; values: number[] | null } {
    return fittedMorphKeys(w, weights, g0, g1, this.map.perFrame, this.tol.morph);
  }
  fitCameraPiece(c: CameraTrack, g0: number, g1: number, rec: (k: number) => Uint8Array): PieceFit {
    // Each reach of HALF_REACHES, measured against the input as played: the nearest wins, then the fewest keys.
    const { map, tol } = this;
    const n = c.frames.length;
    const w0 = cameraWindow(c, g0, g1, map, tol);
    const fit0 = fitWindow(w0);
    let w = w0, fit: WindowFit = fit0;
    let best = Infinity;
    for (const reach of HALF_REACHES) {
      const wr = reach === 0 ? w0 : cameraWindow(c, g0, g1, map, tol, reach);
      const fr = reach === 0 ? fit0 : fitWindow(wr);
      const recs = fr.frames.map((g, i) => writeCameraKey(rec(Math.max(0, keyAtOrBefore(c.frames, 0, n, map.time(g)))), g, wr, 2 * (g - g0), fr.curves[i]));
      const err = pieceError(c, recs, g0, g1, map, tol);
      if (err < best - 1e-9 || (err <= best + 1e-9 && fr.frames.length < fit.frames.length)) {
        best = err;
        w = wr;
        fit = fr;
      }
    }
    return { w, fit };
  }
  steps(doc: VmdDocument, kind: 'light' | 'shadow' | 'ik', rep: EditReport): Block {
    return retimeSteps(doc, kind, this.factor, rep, this.last);
  }
  finish(rep: EditReport, cam: CameraOutput): void {
    rep.extra.factor = this.factor;
    if (cam.cutsKept < cam.cutsBefore) warn(rep, 'W_FIT_CUTS_MERGED', `${plural(count(cam.cutsBefore - cam.cutsKept), 'camera cut')} fell inside one output frame of the next and merged with it`, { n: cam.cutsBefore - cam.cutsKept });
    for (const kind of ['light', 'shadow', 'ik'] as const) {
      const n = rep.byKind[kind].collisions;
      if (n) warn(rep, 'W_FIT_STEPS_REPLACED', `${plural(count(n), `${kind} key`)} ${agree(n, 'was', 'were')} replaced by a later step that shows at the same output frame`, { n, kind });
    }
  }
}

/** Output window for input keys [i0, i1]: from the output frame that plays i0 (or the last before it) to the first that reaches i1. */
function outWindow(frames: Uint32Array, i0: number, i1: number, map: Mapping): [number, number] {
  return [map.firstFrame(frames[i0]), map.stepFrame(frames[i1])];
}

/** Bake curves: the part of each input curve between consecutive frames, per curve channel. */
function bakeFit(w: SampledWindow, tr: { frames: Uint32Array; curves: Uint8Array }, a: number, e: number, per: number): { frames: number[]; curves: (Uint8Array | null)[] } {
  const frames: number[] = [w.g0];
  const curves: (Uint8Array | null)[] = [null];
  for (let g = w.g0 + 1; g <= w.g1; g++) {
    frames.push(g);
    const k = keyAtOrBefore(tr.frames, a, e, g - 1);
    const k1 = Math.min(k + 1, e - 1);
    const span = tr.frames[k1] - tr.frames[k];
    const out = new Uint8Array(per);
    for (let c = 0; c < per / 4; c++) {
      const src: Curve = [tr.curves[per * k1 + 4 * c], tr.curves[per * k1 + 4 * c + 1], tr.curves[per * k1 + 4 * c + 2], tr.curves[per * k1 + 4 * c + 3]];
      let q: Curve = src;
      if (span > 1) q = quantiseCurve(curveBetween(src, (g - 1 - tr.frames[k]) / span, (g - tr.frames[k]) / span));
      out.set(q, 4 * c);
    }
    curves.push(out);
  }
  return { frames, curves };
}

// ---------------------------------------------------------------------------------------------------
// The driver: one track or block at a time, whatever the operation.

/** A bone or morph window's fitted keys: their output frames, and key i written from `template` (the input key in force at its frame). */
interface WindowKeys {
  frames: number[];
  write: (i: number, g: number, template: Uint8Array) => Uint8Array;
}

/**
 * Track t of a bone or morph block through the operation; `fitKeys` samples and fits its output window
 * g0..g1. The records: keys before the window as they are, the fitted keys (the window's first as it is
 * where output frames are input frames: its curve shapes the segment before the window), keys after
 * the window as they are.
 */
function fitTrack(op: FitStrategy, rep: EditReport, kind: 'bone' | 'morph', block: FixedBlock, tr: NamedTracks, t: number, selected: boolean, frameField: number, fitKeys: (g0: number, g1: number) => WindowKeys): TrackOutput {
  const a = tr.start[t], e = tr.start[t + 1];
  const before = e - a;
  if (!selected) return { records: null, before };
  const win = op.window(tr.frames, a, e);
  if (!win) return { records: null, before };
  const [i0, i1] = win;
  const { map } = op;
  const rec = (k: number) => recordBytes(block, tr.record[k]);
  if (i0 === i1) {
    // One key holds everywhere: only its frame moves (a re-timed track of one key; reduce's and bake's
    // windows hold two keys or more).
    const r = rec(i0).slice();
    const g = map.nearestFrame(tr.frames[i0]);
    viewOf(r).setUint32(frameField, g, true);
    countKeys(rep, kind, [tr.frames[i0]], [g], 0, map.identity);
    return { records: [r], before };
  }
  const [g0, g1] = outWindow(tr.frames, i0, i1, map);
  const keys = fitKeys(g0, g1);
  if (!op.takes(i1 - i0 + 1, keys.frames.length)) return { records: null, before };
  const out: Uint8Array[] = [];
  for (let k = a; k < i0; k++) out.push(rec(k));
  for (let i = 0; i < keys.frames.length; i++) {
    const g = keys.frames[i];
    if (map.identity && i === 0) {
      out.push(rec(i0));
      continue;
    }
    let k = keyAtOrBefore(tr.frames, a, e, map.time(g));
    if (k < a) k = a;
    out.push(keys.write(i, g, rec(k)));
  }
  for (let k = i1 + 1; k < e; k++) out.push(rec(k));
  countKeys(rep, kind, tr.frames.subarray(i0, i1 + 1), keys.frames, 0, map.identity);
  return { records: out, before };
}

function fitBoneTrack(doc: VmdDocument, b: BoneTracks, t: number, op: FitStrategy, rep: EditReport): TrackOutput {
  const { map } = op;
  return fitTrack(op, rep, 'bone', doc.bone, b, t, op.selectBone(b.names[t]), BONE.FRAME, (g0, g1) => {
    const w = boneWindow(doc.bone, b, t, g0, g1, map, op.tol);
    let fit = op.fitBone(w, b, b.start[t], b.start[t + 1]);
    if (op.oneKeyHolds && fit.frames.length === 2 && sameValues(fit.values?.[0] ?? boneValuesAt(w, 0), fit.values?.[1] ?? boneValuesAt(w, map.perFrame * (g1 - g0)))) {
      // Two keys with one value: the segment between them holds, and so does one key alone.
      fit = { frames: [g0], curves: [null], values: fit.values && [fit.values[0]] };
    }
    const { curves, values } = fit;
    return { frames: fit.frames, write: (i, g, template) => writeBoneKey(template, g, w, map.perFrame * (g - g0), curves[i], values?.[i]) };
  });
}

function fitMorphTrack(doc: VmdDocument, m: MorphTracks, t: number, op: FitStrategy, rep: EditReport): TrackOutput {
  const { map } = op;
  return fitTrack(op, rep, 'morph', doc.morph, m, t, op.selectMorph(m.names[t]), MORPH.FRAME, (g0, g1) => {
    const w = morphWindow(m, t, g0, g1, map, op.tol);
    const weights = (w.groups[0] as { comps: Float64Array[] }).comps[0];
    let { frames, values } = op.morphKeys(w, weights, g0, g1);
    if (op.oneKeyHolds && frames.length === 2) {
      const v0 = values ? values[0] : F(weights[0]), v1 = values ? values[values.length - 1] : F(weights[weights.length - 1]);
      if (v0 === v1) {
        // Two keys with one value hold in between (the fit was checked): one key holds the same.
        frames = [g0];
        if (values) values = [v0];
      }
    }
    const v = values;
    return { frames, write: (i, g, template) => writeMorphKey(template, g, v ? v[i] : weights[map.perFrame * (g - g0)]) };
  });
}

/** The camera block as output, with its cut counts. */
interface CameraOutput {
  block: Block;
  cutsBefore: number;
  cutsAfter: number;
  cutsKept: number;
}

/**
 * The camera block: each stretch between cuts fitted on its own. cutsBefore/cutsAfter count keys one
 * frame apart (as inspect does); cutsKept the input's cuts that show as cuts in the output (a stretch
 * shorter than one output frame merges its cut with the next). Inside a stretch the fit puts no two
 * keys one frame apart (track-fit.ts, noUnitSegments), so a re-timing adds no cut; only a stretch
 * that re-times to exactly one output frame is two keys one frame apart, which cutsAfter then counts.
 */
function fitCamera(doc: VmdDocument, c: CameraTrack, op: FitStrategy, rep: EditReport, counts: Counts): CameraOutput {
  const n = c.frames.length;
  const cuts = (fr: ArrayLike<number>) => {
    let k = 0;
    for (let i = 1; i < fr.length; i++) if (fr[i] - fr[i - 1] === 1) k++;
    return k;
  };
  const cutsBefore = cuts(c.frames);
  const keep = () => {
    rep.byKind.camera.kept += doc.camera.count;
    counts.before += doc.camera.count;
    counts.after += doc.camera.count;
    return { block: doc.camera as Block, cutsBefore, cutsAfter: cutsBefore, cutsKept: cutsBefore };
  };
  if (n === 0 || !op.camera) return keep();
  const win = op.window(c.frames, 0, n);
  if (!win) return keep();
  const [i0, i1] = win;
  const { map } = op;
  const rec = (k: number) => recordBytes(doc.camera, c.record[k]);
  const out: Uint8Array[] = [];
  const outFrames: number[] = [];
  // Cuts outside the window stay as they are (reduce and bake with a frame range).
  let cutsKept = 0;
  for (let k = 1; k < n; k++) if (c.frames[k] - c.frames[k - 1] === 1 && (k <= i0 || k - 1 >= i1)) cutsKept++;
  for (let k = 0; k < i0; k++) out.push(rec(k));
  if (i0 === i1) {
    // One key holds everywhere: only its frame moves.
    const r = rec(i0).slice();
    const g = map.nearestFrame(c.frames[i0]);
    viewOf(r).setUint32(CAMERA.FRAME, g, true);
    out.push(r);
    outFrames.push(g);
  } else {
    // Pieces: runs of keys [p0, p1] inside the window with no cut inside.
    const pieces: [number, number][] = [];
    let p0 = i0;
    for (let k = i0 + 1; k <= i1; k++) {
      if (c.frames[k] - c.frames[k - 1] === 1) {
        pieces.push([p0, k - 1]);
        p0 = k;
      }
    }
    pieces.push([p0, i1]);
    for (let p = 0; p < pieces.length; p++) {
      const [k0, k1] = pieces[p];
      // A piece's output frames: from the first that shows its first key (for the window's first piece,
      // the last at or before that key) to the one before the next piece's; its keys' own frames when
      // output frames are input frames.
      let g0 = p === 0 ? map.firstFrame(c.frames[k0]) : map.stepFrame(c.frames[k0]);
      const g1 = p === pieces.length - 1 ? map.stepFrame(c.frames[k1]) : map.stepFrame(c.frames[pieces[p + 1][0]]) - 1;
      if (outFrames.length && g0 <= outFrames[outFrames.length - 1]) g0 = outFrames[outFrames.length - 1] + 1;
      if (g1 < g0) continue; // a stretch shorter than one output frame never shows
      const { w, fit } = op.fitCameraPiece(c, g0, g1, rec);
      if (p > 0 && outFrames.length && fit.frames[0] === outFrames[outFrames.length - 1] + 1) cutsKept++;
      for (let i = 0; i < fit.frames.length; i++) {
        const g = fit.frames[i];
        let k = keyAtOrBefore(c.frames, 0, n, map.time(g));
        if (k < 0) k = 0;
        outFrames.push(g);
        if (map.identity && i === 0) {
          out.push(rec(k0));
          continue;
        }
        out.push(writeCameraKey(rec(k), g, w, w.perFrame! * (g - g0), fit.curves[i]));
      }
    }
  }
  if (!op.takes(i1 - i0 + 1, outFrames.length)) return keep();
  for (let k = i1 + 1; k < n; k++) out.push(rec(k));
  countKeys(rep, 'camera', c.frames.subarray(i0, i1 + 1), outFrames, doc.camera.count - n, map.identity);
  rep.byKind.camera.kept += n - (i1 - i0 + 1);
  counts.before += doc.camera.count;
  counts.after += out.length;
  counts.refitted++;
  const sortedOut = out.map((r, i) => [viewOf(r).getUint32(CAMERA.FRAME, true), i, r] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]).map((x) => x[2]);
  const fr = sortedOut.map((r) => viewOf(r).getUint32(CAMERA.FRAME, true));
  return { block: blockFromRecords('camera', sortedOut), cutsBefore, cutsAfter: cuts(fr), cutsKept };
}

/** Steps (light, self-shadow, IK) re-timed: a key shows from the first output frame whose input time reaches it; the later of two on one frame wins. */
function retimeSteps(doc: VmdDocument, kind: 'light' | 'shadow' | 'ik', k: number, rep: EditReport, last = Infinity): Block {
  const b = doc[kind];
  if (b.count === 0) return b;
  const byFrame = new Map<number, [number, number]>(); // output frame -> [input frame, record]
  for (let i = 0; i < b.count; i++) {
    const o = b.kind === 'ik' ? b.offsets[i] : i * b.size;
    const f = b.view.getUint32(o, true);
    const g = Math.min(last, Math.ceil(f / k - 1e-9));
    const cur = byFrame.get(g);
    if (!cur || f > cur[0]) {
      if (cur) rep.byKind[kind].collisions++;
      byFrame.set(g, [f, i]);
    } else rep.byKind[kind].collisions++;
  }
  const recs = [...byFrame.entries()].sort((x, y) => x[0] - y[0]).map(([g, [, i]]) => {
    const r = recordBytes(b, i).slice();
    viewOf(r).setUint32(0, g, true);
    return r;
  });
  rep.byKind[kind].kept += recs.length;
  if (b.kind === 'ik') {
    let total = 0;
    const offsets = new Uint32Array(recs.length + 1);
    for (let i = 0; i < recs.length; i++) {
      offsets[i] = total;
      total += recs[i].length;
    }
    offsets[recs.length] = total;
    const bytes = new Uint8Array(total);
    recs.forEach((r, i) => bytes.set(r, offsets[i]));
    return { kind: 'ik', count: recs.length, bytes, view: viewOf(bytes), offsets };
  }
  return blockFromRecords(b.kind, recs);
}

/**
 * Whether a track's window runs over more output frames than a fit samples (denseRefusal), or a bake would
 * write more keys than MAX_DENSE_VALUES in all: checked on the tracks' frames before anything is sampled.
 */
function tooDense(op: FitStrategy, b: NamedTracks, m: NamedTracks, camera: CameraTrack): CodecError | null {
  let longest = 0, from = 0, to = 0, name = '', keys = 0;
  const visit = (frames: Uint32Array, a: number, e: number, label: string) => {
    const win = op.window(frames, a, e);
    if (!win) return;
    const g0 = op.map.firstFrame(frames[win[0]]), g1 = Math.max(g0, op.map.nearestFrame(frames[win[1]]));
    keys += g1 - g0 + 1;
    if (g1 - g0 + 1 > longest) [longest, from, to, name] = [g1 - g0 + 1, g0, g1, label];
  };
  b.names.forEach((n, t) => op.selectBone(n) && visit(b.frames, b.start[t], b.start[t + 1], n));
  m.names.forEach((n, t) => op.selectMorph(n) && visit(m.frames, m.start[t], m.start[t + 1], n));
  if (op.camera && camera.frames.length) visit(camera.frames, 0, camera.frames.length, 'camera');
  // reduce and bake take --from/--to (the app's fields say them); speed's refit does not.
  const one = longest > 0 ? denseRefusal(op.edit, from, to, 1, name, op.edit === 'reduce' || op.edit === 'bake') : null;
  if (one || op.edit !== 'bake' || keys <= MAX_DENSE_VALUES) return one;
  const n = (x: number) => x.toLocaleString('en-US');
  return optionRefusal('E_SPAN', `bake: ${n(keys)} keys in all, more than the ${n(MAX_DENSE_VALUES)} a bake writes: give --from and --to, or --bones`, 'from', 'bakeKeys', { keys: n(keys), limit: n(MAX_DENSE_VALUES), other: 'to' });
}

function run(doc: VmdDocument, op: FitStrategy, progress?: FitProgress): EditResult {
  const rep = newReport(op.edit);
  const counts: Record<Kind, Counts> = {
    bone: { before: 0, after: 0, refitted: 0 },
    morph: { before: 0, after: 0, refitted: 0 },
    camera: { before: 0, after: 0, refitted: 0 },
  };
  const blocks: Partial<Record<'bone' | 'morph' | 'camera' | 'light' | 'shadow' | 'ik', Block>> = {};
  // Bone values are decoded one track at a time (boneTrackOf), so that what the fit holds besides the
  // input and the output is one track's: a baked dance's whole index is half the file's size again.
  const b = indexBoneTracks(doc.bone);
  const m = buildMorphTracks(doc.morph);
  const camera = buildCameraTrack(doc.camera);
  const refused = tooDense(op, b, m, camera);
  if (refused) return failure(refused);
  const total = b.names.length + m.names.length + 1;
  let done = 0;
  const tell = <T>(x: T): T => {
    progress?.(++done, total);
    return x;
  };
  const bo = b.names.map((_, t) => tell(fitBoneTrack(doc, boneTrackOf(doc.bone, b, t), 0, op, rep)));
  blocks.bone = namedBlock('bone', doc.bone, b, BONE.NAME_LENGTH, bo, counts.bone, rep);
  const mo = m.names.map((_, t) => tell(fitMorphTrack(doc, m, t, op, rep)));
  blocks.morph = namedBlock('morph', doc.morph, m, MORPH.NAME_LENGTH, mo, counts.morph, rep);
  const cam = tell(fitCamera(doc, camera, op, rep, counts.camera));
  blocks.camera = cam.block;
  for (const kind of ['light', 'shadow', 'ik'] as const) {
    const s = op.steps(doc, kind, rep);
    if (s) blocks[kind] = s;
  }
  for (const k of ['bone', 'morph', 'camera'] as const) {
    rep.extra[`${k}KeysBefore`] = counts[k].before;
    rep.extra[`${k}KeysAfter`] = counts[k].after;
    rep.extra[`${k}TracksRefitted`] = counts[k].refitted;
  }
  rep.extra.cameraCutsBefore = cam.cutsBefore;
  rep.extra.cameraCutsAfter = cam.cutsAfter;
  rep.extra.cameraCutsKept = cam.cutsKept;
  op.finish(rep, cam);
  return edited(withBlocks(doc, blocks), finishReport(rep));
}

function selection(o: FitSelection): Selection | string {
  let select: (name: string) => boolean = () => true;
  if (o.bones !== undefined && o.bones !== '') {
    const p = namePattern(o.bones);
    if (!p.ok) return p.error.message;
    select = p.value;
  }
  const from = o.from ?? 0;
  const to = o.to ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isFinite(from) || from < 0) return `--from must be a frame number ≥ 0, got ${o.from}`;
  if (Number.isNaN(to) || to < from) return `--to (${o.to}) must not be before --from (${from})`;
  if (o.tracks) {
    const { bones, morphs, camera } = o.tracks;
    return { select: (n) => bones.has(n), selectMorph: (n) => morphs.has(n), named: !camera, from, to };
  }
  return { select, selectMorph: select, named: o.bones !== undefined && o.bones !== '', from, to };
}

/**
 * Fewer keys, same motion within tolerance: every bone, morph and camera track is refitted over its
 * keys in [from, to]; with `bones`, only the bone and morph tracks whose name matches (not the camera).
 */
export function reduce(doc: VmdDocument, opts: ReduceOptions = {}): EditResult {
  const tol = resolveTolerances(opts);
  if (typeof tol === 'string') return editError(tol, 'E_ARGUMENT');
  const s = selection(opts);
  if (typeof s === 'string') return editError(s, 'E_ARGUMENT');
  return run(doc, new ReduceFit(tol, s), opts.progress);
}

/** Re-timing by `factor` K (2 = twice as fast): output frame g plays the input at g·K, within tolerance. */
export function speedRefit(doc: VmdDocument, opts: SpeedRefitOptions): EditResult {
  const k = opts.factor;
  if (!Number.isFinite(k) || k <= 0) return editError(`--factor must be a number greater than 0, got ${k}`, 'E_ARGUMENT');
  const tol = resolveTolerances(opts);
  if (typeof tol === 'string') return editError(tol, 'E_ARGUMENT');
  const per = opts.samplesPerFrame ?? 1;
  if (!Number.isInteger(per) || per < 1 || per > 16) return editError(`samplesPerFrame must be a whole number from 1 to 16, got ${per}`, 'E_ARGUMENT');
  const last = opts.lastFrame ?? Infinity;
  if (last !== Infinity && !(Number.isInteger(last) && last >= 0)) return editError(`lastFrame must be a whole number of 0 or more, got ${last}`, 'E_ARGUMENT');
  return run(doc, new RetimeFit(tol, k, per, last), opts.progress);
}

/** A key on every frame of every bone, morph and camera track between [from, to] (snapped outward to keys). */
export function bake(doc: VmdDocument, opts: BakeOptions = {}): EditResult {
  const s = selection(opts);
  if (typeof s === 'string') return editError(s, 'E_ARGUMENT');
  return run(doc, new BakeFit(s), opts.progress);
}


// ---------------------------------------------------------------------------------------------------
// Spans for trim: one segment of the input cut at a trim boundary, re-expressed within tolerance.

/**
 * Re-expresses the input's bone track `t` over [lo, hi] (input frames inside one input segment, the
 * part a trim keeps): `split` (16 curve bytes, the rounded curve split) is tried first; where it strays
 * past the tolerance at an integer or half frame, keys are added. Returns, for every key after lo, its
 * frame, its curves (16 bytes) and a record made from `template` (values sampled, curves fitted;
 * frame field = input frame).
 */
export function refitBoneSpan(b: BoneTracks, block: FixedBlock, t: number, lo: number, hi: number, split: Uint8Array, template: Uint8Array, tol: Tolerances = DEFAULT_TOLERANCES): SpanKey[] {
  const w = boneWindow(block, b, t, lo, hi, IDENTITY, tol);
  return refitSpan(w, lo, hi, split, (g, curves) => writeBoneKey(template, g, w, 2 * (g - lo), curves));
}

/** The camera counterpart of refitBoneSpan (24 curve bytes in `split`). */
export function refitCameraSpan(c: CameraTrack, lo: number, hi: number, split: Uint8Array, template: Uint8Array, tol: Tolerances = DEFAULT_TOLERANCES): SpanKey[] {
  const w = cameraWindow(c, lo, hi, IDENTITY, tol);
  return refitSpan(w, lo, hi, split, (g, curves) => writeCameraKey(template, g, w, 2 * (g - lo), curves));
}

/** A key of a re-expressed span: its frame, its record and its curves. */
export interface SpanKey {
  frame: number;
  record: Uint8Array;
  curves: Uint8Array;
}

/** A span's window fitted with the split curve as the hint from lo to hi and no forced keys; every key after lo, its record written by `write`. */
function refitSpan(w: SampledWindow, lo: number, hi: number, split: Uint8Array, write: (g: number, curves: Uint8Array | null) => Uint8Array): SpanKey[] {
  w.forced = [];
  w.hint = (x) => (x === lo ? { b: hi, curves: split } : null);
  const fit = fitWindow(w);
  const out: SpanKey[] = [];
  for (let i = 1; i < fit.frames.length; i++) out.push({ frame: fit.frames[i], record: write(fit.frames[i], fit.curves[i]), curves: fit.curves[i]! });
  return out;
}
