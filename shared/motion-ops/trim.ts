/**
 * Trim `from A to B`: keep the keys in [A, B] and shift them by −A.
 *
 * With hold (the default), the motion inside [A, B] plays exactly as before:
 * - every bone, morph, camera and light track with a key before A but none at A gets a key at frame 0
 *   carrying the value interpolated at A with MMD's curves (not the previous key's value);
 * - the first kept key after A gets the part of its curve after the cut (de Casteljau split, then
 *   quantised to 0..127); where the rounded split strays past the default tolerance (0.01 units, 0.1°,
 *   at an integer or half frame) keys are added inside the cut segment (shared/fit refit*Span), so the
 *   motion between A and that key stays within it;
 * - a track that continues past B without a key at B gets a key at B − A with the value at B, whose
 *   curve is the part of the segment before B (or between A and B when one segment spans both cuts);
 * - self-shadow and IK/visibility keys are steps: the one in force at A is copied to frame 0.
 * New keys are copies of the key in force at the cut, so name bytes and the physics flag carry over.
 * Bone and morph tracks that stay at rest (no offset, no rotation, weight 0) through [A, B] are dropped
 * (lossless: rest is what a model shows without keys) and counted in `tracksDropped`.
 * The largest pose difference between input and output over every re-fitted segment is measured by
 * sampling both (bones every ¼ frame, camera at whole frames) and reported; without hold, a range that
 * keeps no key of a motion that has some reports `keepsNoKey` instead of error figures.
 */
import { failure, optionRefusal } from '../vmd/errors';
import { quantiseCurve, type Curve } from '../vmd/bezier';
import { setBoneCurves, setCameraCurve, type BoneChannel, type CameraChannel } from '../vmd/interpolation';
import { BLOCK_KINDS, BONE, CAMERA, LIGHT, MORPH } from '../vmd/vmd-layout';
import { blockFromRecords, ikBlockFromRecords, recordBytes, viewOf, withBlocks, type Block, type VmdDocument } from '../vmd/vmd-document';
import { buildTracks, keyAtOrBefore, type MotionTracks } from '../vmd/tracks';
import { sampleBoneInto, sampleCamera, sampleLight, sampleMorph } from '../vmd/sample';
import { curveAfter, curveBefore, curveBetween } from '../edit-core/curve-split';
import { copyRecord, frameAt, lastFrameOf, NameCache, putFrame } from '../edit-core/record-util';
import { edited, finishReport, newReport, type EditReport, type EditResult, warn } from '../edit-core/report';
import { quatAngleDeg } from '../vmd/quat-angle';
import { maxAbsDiff } from './pose-math';
import { refitBoneSpan, refitCameraSpan } from '../fit/motion-fit';

export interface TrimOptions {
  from: number;
  /** Last frame kept (inclusive); default: the document's last frame. */
  to?: number;
  /** Write hold keys and re-fit curves (default true). */
  hold?: boolean;
  /** Drop bone/morph tracks that stay at rest through the range (default true; only with hold). */
  dropStatic?: boolean;
  /** Measure the pose error of re-fitted segments (default true). */
  measure?: boolean;
}

interface Segment {
  kind: 'bone' | 'camera';
  name: string;
  lo: number;
  hi: number;
}

interface KindPlan {
  /** Replacement bytes for input records (re-fitted curves). */
  mods: Map<number, Uint8Array>;
  /** New records (frames already relative to A). */
  adds: Uint8Array[];
  /** Named tracks to leave out entirely. */
  dropTracks: Set<string>;
}

const newPlan = (): KindPlan => ({ mods: new Map(), adds: [], dropTracks: new Set() });

function setF32(rec: Uint8Array, o: number, values: ArrayLike<number>, n: number, from = 0): void {
  const v = viewOf(rec);
  for (let i = 0; i < n; i++) v.setFloat32(o + 4 * i, values[from + i], true);
}

const REST_EPS = 1e-6;
function isRestBone(pos: ArrayLike<number>, pi: number, rot: ArrayLike<number>, ri: number): boolean {
  return (
    Math.abs(pos[pi]) <= REST_EPS && Math.abs(pos[pi + 1]) <= REST_EPS && Math.abs(pos[pi + 2]) <= REST_EPS &&
    Math.abs(rot[ri]) <= REST_EPS && Math.abs(rot[ri + 1]) <= REST_EPS && Math.abs(rot[ri + 2]) <= REST_EPS &&
    Math.abs(Math.abs(rot[ri + 3]) - 1) <= REST_EPS
  );
}

/** Where the cuts fall in one sorted track [s, e). */
function cutsOf(frames: Uint32Array, s: number, e: number, A: number, B: number) {
  const kA = keyAtOrBefore(frames, s, e, A);
  const kB = keyAtOrBefore(frames, s, e, B);
  const hasA = kA >= s && frames[kA] === A;
  const hasB = kB >= s && frames[kB] === B;
  const needHold0 = !hasA && kA >= s;
  const needHoldB = kB + 1 < e && !hasB && !(A === B && (needHold0 || hasA));
  return { kA, kB, needHold0, needHoldB };
}

function boneCurves(curves: Uint8Array, k: number): Curve[] {
  const out: Curve[] = [];
  for (let c = 0; c < 4; c++) out.push([curves[16 * k + 4 * c], curves[16 * k + 4 * c + 1], curves[16 * k + 4 * c + 2], curves[16 * k + 4 * c + 3]]);
  return out;
}

function cameraCurves(curves: Uint8Array, k: number): Curve[] {
  const out: Curve[] = [];
  for (let c = 0; c < 6; c++) out.push([curves[24 * k + 4 * c], curves[24 * k + 4 * c + 1], curves[24 * k + 4 * c + 2], curves[24 * k + 4 * c + 3]]);
  return out;
}

type CutCurve = (c: Curve) => Curve;

function flat(curves: Curve[]): Uint8Array {
  const out = new Uint8Array(4 * curves.length);
  curves.forEach((c, i) => out.set(c, 4 * i));
  return out;
}

function unflat(b: Uint8Array): Curve[] {
  const out: Curve[] = [];
  for (let i = 0; i < b.length; i += 4) out.push([b[i], b[i + 1], b[i + 2], b[i + 3]]);
  return out;
}

/** The curve re-fit for the segment frames[k-1]..frames[k] cut to [lo, hi] (either may be the segment end). */
function cutFor(f0: number, f1: number, lo: number, hi: number): CutCurve {
  const t0 = (lo - f0) / (f1 - f0);
  const t1 = (hi - f0) / (f1 - f0);
  if (t0 <= 0) return (c) => quantiseCurve(curveBefore(c, t1));
  if (t1 >= 1) return (c) => quantiseCurve(curveAfter(c, t0));
  return (c) => quantiseCurve(curveBetween(c, t0, t1));
}

function applyBoneCurves(rec: Uint8Array, curves: Curve[]): void {
  const ip = rec.subarray(BONE.INTERPOLATION, BONE.INTERPOLATION + BONE.INTERPOLATION_LENGTH);
  setBoneCurves(ip, { 0: curves[0], 1: curves[1], 2: curves[2], 3: curves[3] } as Record<BoneChannel, Curve>);
}

function applyCameraCurves(rec: Uint8Array, curves: Curve[]): void {
  const ip = rec.subarray(CAMERA.INTERPOLATION, CAMERA.INTERPOLATION + CAMERA.INTERPOLATION_LENGTH);
  for (let c = 0; c < 6; c++) setCameraCurve(ip, c as CameraChannel, curves[c]);
}

function planBones(doc: VmdDocument, tr: MotionTracks, A: number, B: number, dropStatic: boolean, segs: Segment[], rep: EditReport): KindPlan {
  const plan = newPlan();
  const bt = tr.bones;
  const pos = new Float64Array(3), rot = new Float64Array(4);
  for (let t = 0; t < bt.names.length; t++) {
    const s = bt.start[t], e = bt.start[t + 1];
    const { kA, kB, needHold0, needHoldB } = cutsOf(bt.frames, s, e, A, B);
    const adds: Uint8Array[] = [];
    const mods: [number, Uint8Array][] = [];
    let rest = true;
    if (needHold0) {
      const rec = copyRecord(doc.bone, bt.record[kA]);
      sampleBoneInto(bt, t, A, pos, rot, 0);
      setF32(rec, BONE.POSITION, pos, 3);
      setF32(rec, BONE.ROTATION, rot, 4);
      putFrame('bone', rec, 0);
      adds.push(rec);
      rest &&= isRestBone(pos, 0, rot, 0);
      const n1 = kA + 1;
      if (n1 < e && bt.frames[n1] <= B) {
        const cut = cutFor(bt.frames[kA], bt.frames[n1], A, bt.frames[n1]);
        const rec1 = copyRecord(doc.bone, bt.record[n1]);
        // The rounded split, or where it strays past the default tolerance, more keys (shared/fit).
        const keys = refitBoneSpan(bt, doc.bone, t, A, bt.frames[n1], flat(boneCurves(bt.curves, n1).map(cut)), copyRecord(doc.bone, bt.record[kA]));
        applyBoneCurves(rec1, keys.length ? unflat(keys[keys.length - 1].curves) : boneCurves(bt.curves, n1).map(cut));
        for (const k of keys.slice(0, -1)) {
          putFrame('bone', k.record, k.frame - A);
          adds.push(k.record);
        }
        mods.push([bt.record[n1], rec1]);
        segs.push({ kind: 'bone', name: bt.names[t], lo: A, hi: bt.frames[n1] });
      }
    }
    if (needHoldB) {
      const base = kB >= s ? kB : kB + 1;
      const rec = copyRecord(doc.bone, bt.record[base]);
      sampleBoneInto(bt, t, B, pos, rot, 0);
      setF32(rec, BONE.POSITION, pos, 3);
      setF32(rec, BONE.ROTATION, rot, 4);
      putFrame('bone', rec, B - A);
      if (kB >= s) {
        const f0 = bt.frames[kB], f1 = bt.frames[kB + 1];
        const lo = Math.max(f0, A);
        const split = boneCurves(bt.curves, kB + 1).map(cutFor(f0, f1, lo, B));
        const keys = B > lo ? refitBoneSpan(bt, doc.bone, t, lo, B, flat(split), copyRecord(doc.bone, bt.record[base])) : [];
        applyBoneCurves(rec, keys.length ? unflat(keys[keys.length - 1].curves) : split);
        for (const k of keys.slice(0, -1)) {
          putFrame('bone', k.record, k.frame - A);
          adds.push(k.record);
        }
        segs.push({ kind: 'bone', name: bt.names[t], lo, hi: B });
      }
      adds.push(rec);
      rest &&= isRestBone(pos, 0, rot, 0);
    }
    if (dropStatic && rest) {
      for (let k = s; k < e; k++) {
        const f = bt.frames[k];
        if (f >= A && f <= B && !isRestBone(bt.position, 3 * k, bt.rotation, 4 * k)) {
          rest = false;
          break;
        }
      }
      if (rest) {
        plan.dropTracks.add(bt.names[t]);
        // No curve was re-fitted that matters: the whole track goes.
        while (segs.length && segs[segs.length - 1].name === bt.names[t] && segs[segs.length - 1].kind === 'bone') segs.pop();
        continue;
      }
    }
    plan.adds.push(...adds);
    for (const [i, r] of mods) plan.mods.set(i, r);
    rep.byKind.bone.changed += mods.length;
  }
  return plan;
}

function planMorphs(doc: VmdDocument, tr: MotionTracks, A: number, B: number, dropStatic: boolean): KindPlan {
  const plan = newPlan();
  const mt = tr.morphs;
  for (let t = 0; t < mt.names.length; t++) {
    const s = mt.start[t], e = mt.start[t + 1];
    const { kA, kB, needHold0, needHoldB } = cutsOf(mt.frames, s, e, A, B);
    const adds: Uint8Array[] = [];
    let rest = true;
    const hold = (base: number, at: number, frame: number) => {
      const rec = copyRecord(doc.morph, mt.record[base]);
      const w = sampleMorph(mt, t, at);
      viewOf(rec).setFloat32(MORPH.WEIGHT, w, true);
      putFrame('morph', rec, frame);
      adds.push(rec);
      rest &&= Math.abs(w) <= REST_EPS;
    };
    if (needHold0) hold(kA, A, 0);
    if (needHoldB) hold(kB >= s ? kB : kB + 1, B, B - A);
    if (dropStatic && rest) {
      for (let k = s; k < e && rest; k++) if (mt.frames[k] >= A && mt.frames[k] <= B && Math.abs(mt.weight[k]) > REST_EPS) rest = false;
      if (rest) {
        plan.dropTracks.add(mt.names[t]);
        continue;
      }
    }
    plan.adds.push(...adds);
  }
  return plan;
}

function planCamera(doc: VmdDocument, tr: MotionTracks, A: number, B: number, segs: Segment[], rep: EditReport): KindPlan {
  const plan = newPlan();
  const ct = tr.camera;
  const n = ct.frames.length;
  if (n === 0) return plan;
  const { kA, kB, needHold0, needHoldB } = cutsOf(ct.frames, 0, n, A, B);
  const writePose = (rec: Uint8Array, at: number) => {
    const p = sampleCamera(ct, at)!;
    const v = viewOf(rec);
    v.setFloat32(CAMERA.DISTANCE, p.distance, true);
    setF32(rec, CAMERA.TARGET, p.target, 3);
    setF32(rec, CAMERA.ROTATION, p.rotation, 3);
    v.setUint32(CAMERA.FOV, Math.max(0, Math.round(p.fov)), true);
  };
  if (needHold0) {
    const rec = copyRecord(doc.camera, ct.record[kA]);
    writePose(rec, A);
    putFrame('camera', rec, 0);
    plan.adds.push(rec);
    const n1 = kA + 1;
    if (n1 < n && ct.frames[n1] <= B) {
      const rec1 = copyRecord(doc.camera, ct.record[n1]);
      const split = cameraCurves(ct.curves, n1).map(cutFor(ct.frames[kA], ct.frames[n1], A, ct.frames[n1]));
      const keys = ct.frames[n1] - A > 1 ? refitCameraSpan(ct, A, ct.frames[n1], flat(split), copyRecord(doc.camera, ct.record[kA])) : [];
      applyCameraCurves(rec1, keys.length ? unflat(keys[keys.length - 1].curves) : split);
      for (const k of keys.slice(0, -1)) {
        putFrame('camera', k.record, k.frame - A);
        plan.adds.push(k.record);
      }
      plan.mods.set(ct.record[n1], rec1);
      rep.byKind.camera.changed++;
      segs.push({ kind: 'camera', name: '', lo: A, hi: ct.frames[n1] });
      if (ct.frames[n1] - A === 1) warn(rep, 'W_TRIM_CAMERA_CUT', `camera: the key at ${ct.frames[n1]} lands one frame after the cut and becomes a camera cut (whole frames still match)`, { frame: ct.frames[n1] });
    }
  }
  if (needHoldB) {
    const base = kB >= 0 ? kB : kB + 1;
    const rec = copyRecord(doc.camera, ct.record[base]);
    writePose(rec, B);
    putFrame('camera', rec, B - A);
    if (kB >= 0) {
      const f0 = ct.frames[kB], f1 = ct.frames[kB + 1];
      const lo = Math.max(f0, A);
      const split = cameraCurves(ct.curves, kB + 1).map(cutFor(f0, f1, lo, B));
      const keys = B - lo > 1 ? refitCameraSpan(ct, lo, B, flat(split), copyRecord(doc.camera, ct.record[base])) : [];
      applyCameraCurves(rec, keys.length ? unflat(keys[keys.length - 1].curves) : split);
      for (const k of keys.slice(0, -1)) {
        putFrame('camera', k.record, k.frame - A);
        plan.adds.push(k.record);
      }
      segs.push({ kind: 'camera', name: '', lo, hi: B });
      if (B - lo === 1) warn(rep, 'W_TRIM_HOLD_CUT', `camera: the hold key at ${B - A} lands one frame after the previous key and becomes a camera cut (whole frames still match)`, { frame: B - A });
    }
    plan.adds.push(rec);
  }
  return plan;
}

function planLight(doc: VmdDocument, tr: MotionTracks, A: number, B: number): KindPlan {
  const plan = newPlan();
  const lt = tr.light;
  const n = lt.frames.length;
  if (n === 0) return plan;
  const { kA, kB, needHold0, needHoldB } = cutsOf(lt.frames, 0, n, A, B);
  const hold = (base: number, at: number, frame: number) => {
    const rec = copyRecord(doc.light, lt.record[base]);
    const p = sampleLight(lt, at)!;
    setF32(rec, LIGHT.COLOR, p.color, 3);
    setF32(rec, LIGHT.DIRECTION, p.direction, 3);
    putFrame('light', rec, frame);
    plan.adds.push(rec);
  };
  if (needHold0) hold(kA, A, 0);
  if (needHoldB) hold(kB >= 0 ? kB : kB + 1, B, B - A);
  return plan;
}

/** Step-valued blocks (self-shadow, IK): the key in force at A is copied to frame 0. */
function planStep(block: Block, track: { frames: Uint32Array; record: Uint32Array }, A: number): KindPlan {
  const plan = newPlan();
  const n = track.frames.length;
  const kA = keyAtOrBefore(track.frames, 0, n, A);
  if (kA >= 0 && track.frames[kA] !== A) {
    const rec = copyRecord(block, track.record[kA]);
    putFrame(block.kind, rec, 0);
    plan.adds.push(rec);
  }
  return plan;
}

function assemble(block: Block, plan: KindPlan, A: number, B: number, names: NameCache, rep: EditReport): Uint8Array[] {
  const out: Uint8Array[] = [];
  const c = rep.byKind[block.kind];
  for (let i = 0; i < block.count; i++) {
    const f = frameAt(block, i);
    if (f < A || f > B) {
      c.dropped++;
      // Told apart from the keys of tracks at rest dropped inside the range: the CLI's line says which.
      rep.extra.droppedOutsideRange = (rep.extra.droppedOutsideRange ?? 0) + 1;
      continue;
    }
    const rec = plan.mods.get(i) ?? copyRecord(block, i);
    if (plan.dropTracks.size && plan.dropTracks.has(names.name(block.kind, rec))) {
      c.dropped++;
      continue;
    }
    putFrame(block.kind, rec, f - A);
    out.push(rec);
    c.kept++;
  }
  out.push(...plan.adds);
  c.added += plan.adds.length;
  // The light and self-shadow blocks (one track each) are written in frame order, the hold at 0 first: MMD sorts on
  // load, but a reader that takes them in file order would start on the wrong key (the holds came last).
  if (block.kind === 'light' || block.kind === 'shadow') {
    // Both records start with their frame (LIGHT.FRAME = SHADOW.FRAME = 0).
    const frames = new Map(out.map((r) => [r, new DataView(r.buffer, r.byteOffset, 4).getUint32(0, true)]));
    out.sort((a, b) => frames.get(a)! - frames.get(b)!); // stable: keys at one frame keep their order
  }
  return out;
}

/**
 * Without hold keys, where the output may play otherwise than the input: per bone track (and the
 * camera), from A to its first key at or after A, and from its last key at or before B to B when a key
 * follows B (the output holds where the input went on). A track with no key in [A, B] plays its rest
 * pose (or nothing, the camera) from A on.
 */
function noHoldSegments(tr: MotionTracks, A: number, B: number): Segment[] {
  const segs: Segment[] = [];
  const spans = (frames: ArrayLike<number>, s: number, e: number, kind: Segment['kind'], name: string) => {
    if (e <= s) return;
    let first = s;
    while (first < e && frames[first] < A) first++;
    let last = e - 1;
    while (last >= s && frames[last] > B) last--;
    if (first > last) {
      // No key inside: what the input plays there is gone.
      segs.push({ kind, name, lo: A, hi: B });
      return;
    }
    if (first > s && frames[first] > A) segs.push({ kind, name, lo: A, hi: frames[first] });
    if (last < e - 1 && frames[last] < B) segs.push({ kind, name, lo: frames[last], hi: B });
  };
  const bt = tr.bones;
  for (let t = 0; t < bt.names.length; t++) spans(bt.frames, bt.start[t], bt.start[t + 1], 'bone', bt.names[t]);
  spans(tr.camera.frames, 0, tr.camera.frames.length, 'camera', '');
  return segs;
}

function measure(inT: MotionTracks, outT: MotionTracks, A: number, segs: Segment[], rep: EditReport): void {
  let pos = 0, rot = 0, camPos = 0, camRot = 0, fov = 0;
  const p1 = new Float64Array(3), r1 = new Float64Array(4), p2 = new Float64Array(3), r2 = new Float64Array(4);
  for (const s of segs) {
    if (s.kind === 'bone') {
      const ti = inT.bones.index.get(s.name);
      const to = outT.bones.index.get(s.name);
      if (ti === undefined) continue;
      for (let f = s.lo; f <= s.hi + 1e-9; f += 0.25) {
        sampleBoneInto(inT.bones, ti, f, p1, r1, 0);
        // A track the output no longer has plays the rest pose.
        if (to === undefined) {
          p2.fill(0);
          r2.set([0, 0, 0, 1]);
        } else sampleBoneInto(outT.bones, to, f - A, p2, r2, 0);
        pos = Math.max(pos, maxAbsDiff(p1, 0, p2, 0, 3));
        rot = Math.max(rot, quatAngleDeg(r1, 0, r2, 0));
      }
    } else {
      for (let f = s.lo; f <= s.hi; f++) {
        const a = sampleCamera(inT.camera, f), b = sampleCamera(outT.camera, f - A);
        // No camera keys left in the output (MMD's own camera then): no pose to compare.
        if (!a || !b) break;
        camPos = Math.max(camPos, maxAbsDiff(a.target, 0, b.target, 0, 3), Math.abs(a.distance - b.distance));
        camRot = Math.max(camRot, (maxAbsDiff(a.rotation, 0, b.rotation, 0, 3) * 180) / Math.PI);
        fov = Math.max(fov, Math.abs(a.fov - b.fov));
      }
    }
  }
  rep.extra.maxPositionError = pos;
  rep.extra.maxRotationErrorDeg = rot;
  rep.extra.maxCameraPositionError = camPos;
  rep.extra.maxCameraRotationErrorDeg = camRot;
  rep.extra.maxFovError = fov;
}

/** The bone and morph tracks of `doc` with no key in [A, B]: what a trim without hold leaves out. */
function tracksWithoutKeyIn(doc: VmdDocument, A: number, B: number, names: NameCache): number {
  let n = 0;
  for (const block of [doc.bone, doc.morph]) {
    const all = new Set<string>(), kept = new Set<string>();
    for (let i = 0; i < block.count; i++) {
      const name = names.name(block.kind, recordBytes(block, i));
      all.add(name);
      const f = frameAt(block, i);
      if (f >= A && f <= B) kept.add(name);
    }
    n += all.size - kept.size;
  }
  return n;
}

export function trim(doc: VmdDocument, opts: TrimOptions): EditResult {
  const A = opts.from;
  const B = opts.to ?? Math.max(lastFrameOf(doc), A);
  if (!Number.isInteger(A) || A < 0) return failure(optionRefusal('E_ARGUMENT', `--from must be a whole frame number ≥ 0, got ${A}`, 'from', Number.isInteger(A) ? 'min' : 'integer', { min: 0, value: A }));
  if (!Number.isInteger(B) || B < A) return failure(optionRefusal('E_ARGUMENT', `--to must be a whole frame number ≥ --from (${A}), got ${B}`, 'to', Number.isInteger(B) ? 'order' : 'integer', { value: B, other: 'from', min: A }));
  const hold = opts.hold ?? true;
  const rep = newReport('trim');
  const names = new NameCache();
  const segs: Segment[] = [];
  const measuring = opts.measure ?? true;
  const tr = hold || measuring ? buildTracks(doc) : null;
  const dropStatic = hold && (opts.dropStatic ?? true);
  const plans = tr && hold
    ? {
        bone: planBones(doc, tr, A, B, dropStatic, segs, rep),
        morph: planMorphs(doc, tr, A, B, dropStatic),
        camera: planCamera(doc, tr, A, B, segs, rep),
        light: planLight(doc, tr, A, B),
        shadow: planStep(doc.shadow, tr.shadow, A),
        ik: planStep(doc.ik, tr.ik, A),
      }
    : { bone: newPlan(), morph: newPlan(), camera: newPlan(), light: newPlan(), shadow: newPlan(), ik: newPlan() };
  const out = withBlocks(doc, {
    bone: blockFromRecords('bone', assemble(doc.bone, plans.bone, A, B, names, rep)),
    morph: blockFromRecords('morph', assemble(doc.morph, plans.morph, A, B, names, rep)),
    camera: blockFromRecords('camera', assemble(doc.camera, plans.camera, A, B, names, rep)),
    light: blockFromRecords('light', assemble(doc.light, plans.light, A, B, names, rep)),
    shadow: blockFromRecords('shadow', assemble(doc.shadow, plans.shadow, A, B, names, rep)),
    ik: ikBlockFromRecords(assemble(doc.ik, plans.ik, A, B, names, rep)),
  });
  rep.extra.from = A;
  rep.extra.to = B;
  // Without hold no track is dropped for resting: the ones gone are those with no key in the range.
  rep.extra.tracksDropped = hold ? plans.bone.dropTracks.size + plans.morph.dropTracks.size : tracksWithoutKeyIn(doc, A, B, names);
  // Without hold, a range that keeps no key leaves nothing to compare: the output has no keys, and a figure
  // (the input's pose there against the rest pose) would read as the error of a cut. Said instead.
  const keepsNoKey = !hold && BLOCK_KINDS.every((k) => out[k].count === 0) && BLOCK_KINDS.some((k) => doc[k].count > 0);
  if (keepsNoKey) rep.keepsNoKey = true;
  else if (tr && measuring) measure(tr, buildTracks(out), A, hold ? segs : noHoldSegments(tr, A, B), rep);
  return edited(out, finishReport(rep));
}
