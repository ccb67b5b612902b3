/**
 * BVH → VMD on a model: map the joints (humanoid.ts), retarget every capture frame (retarget.ts), then
 * re-time to MMD's 30 fps through the fitting engine. The retargeted frames become a dense motion, one
 * key per capture frame, which speedRefit (shared/fit) plays at fractional frames — output frame g is
 * the capture at g·K, K = capture rate / 30 — and fits with curves within the tolerances: nothing is
 * dropped, every capture frame is a sample the curves pass near (within the tolerances wherever keys on
 * whole frames can reach it: towardReach in motion-fit.ts). The report measures the result at
 * every capture frame (not only those on the output's frame grid) against the retargeted samples.
 */
import { nearestOnArc, speedRefit, type FitProgress } from '../fit/motion-fit';
import type { ModelData } from '../pmx/model-types';
import { CodecFailure, type CodecError, type Diagnostic, type Outcome } from '../vmd/errors';
import { quatAngleDeg } from '../vmd/quat-angle';
import { sampleBoneInto } from '../vmd/sample';
import { modelNameField } from '../vmd/model-name';
import { buildTracks } from '../vmd/tracks';
import { encodeBoneRecord, encodeIkRecord, encodeMorphRecord, emptyVmd } from '../vmd/vmd-build';
import { blockFromRecords, ikBlockFromRecords, type VmdDocument } from '../vmd/vmd-document';
import { MODEL_NAME_LENGTH_V2 } from '../vmd/vmd-layout';
import type { BvhMotion } from './bvh-reader';
import { autoMap, MMD_BONE_OF, withMapRows, type HumanoidPart, type JointMap, type LostPart, type MapRows } from './humanoid';
import { BoneNameIndex } from '../retarget/bone-names';
import { captureRate, retarget, type RetargetOptions, type RetargetResult } from './retarget';
import { findSpikes, removeSpikes, type CaptureSpike } from './spikes';
import { count, plural, agree } from '../i18n/plural';
import { warn } from '../edit-core/report';

export interface ImportOptions extends RetargetOptions {
  /** Map-file rows over the built-in or guessed map. */
  map?: MapRows;
  /** Fitting tolerances (defaults IMPORT_TOLERANCES). */
  positionTol?: number;
  rotationTolDeg?: number;
  /** Parts per joint decided by the caller (VRM Animation's humanoid table): no table, guess or map rows. */
  parts?: (import('./humanoid').HumanoidPart | null)[];
  /** Morph tolerance (default 0.005, the fitter's). */
  morphTol?: number;
  /** The fit's progress, tracks done of total (the editor's import dialog shows it). */
  progress?: FitProgress;
  /**
   * Start at the origin: the whole path moved so that frame 0's センター stands at X = Z = 0 (height and
   * heading kept), as MMD's BVH loaders place a capture; the leg IK goals move with it.
   */
  origin?: boolean;
  /**
   * Replace capture glitches (a joint flipping out and back within 0.1 s, far beyond its neighbours' speed:
   * spikes.ts) by the slerp between the frames either side before retargeting. Off: they are only reported.
   */
  despike?: boolean;
}

/** A capture glitch as the report gives it (spikes.ts CaptureSpike on the model's bone, in output frames). */
export interface ReportSpike {
  joint: string;
  /** The model bone the joint drives. */
  bone: string;
  /** Output (30 fps) frames the glitch spans: its first and last capture frame / K (fractional between frames). */
  fromFrame: number;
  toFrame: number;
  /** Its capture frames. */
  captureFrom: number;
  captureTo: number;
  /** How far the joint's rotation was off the slerp between the good frames either side, degrees. */
  deg: number;
  /** Replaced by that slerp (ImportOptions.despike). */
  fixed: boolean;
}

/** Import tolerances: capture is noisy, and a tenth of a degree would keep its noise as keys. */
export const IMPORT_TOLERANCES = { position: 0.02, rotationDeg: 0.5 } as const;

export interface ImportReport {
  /** Capture frames and their rate. */
  frames: number;
  captureFps: number;
  /** Output (30 fps) frames: 0 … lastFrame. */
  lastFrame: number;
  map: JointMap['source'];
  /** Capture joint → part → model bone. */
  mapped: { joint: string; part: string; bone: string }[];
  /** Joints of the driving skeleton with no part (End Sites not counted), and joints of other roots. */
  unmappedJoints: string[];
  /** Parts the capture has and the model lacks. */
  unboundParts: string[];
  /** Map-file rows naming no joint, or no part. */
  unknownMapJoints: string[];
  unknownMapTargets: string[];
  /** Keys before fitting (one per capture frame per keyed bone) and after. */
  keysRaw: number;
  keysKept: number;
  /** Morph keys written (VRM Animation expressions). */
  morphKeys: number;
  /** Bones keyed. */
  tracks: number;
  scale: number;
  footIk: boolean;
  /** Contacts found (heel and toe, both feet), when footIk. */
  contacts: number;
  contactDetail: { side: string; point: string; fromFrame: number; toFrame: number }[];
  /**
   * Largest difference between the fitted motion and the retargeted samples at the capture frames the
   * output's frames play (what the fitter holds within tolerance; a one-frame segment plays its keys
   * exactly, however the capture turned in between)…
   */
  maxPositionError: number;
  maxRotationErrorDeg: number;
  /**
   * …and at every capture frame, the frames between output frames included (the fit holds those too,
   * as far as keys on whole frames can reach them)…
   */
  maxPositionErrorAllFrames: number;
  maxRotationErrorDegAllFrames: number;
  /** Where maxRotationErrorDegAllFrames is: the bone and the output frame (capture frame / K), null with no rotation error. */
  maxRotationErrorAt: { bone: string; frame: number } | null;
  /** Capture glitches of the mapped joints (spikes.ts), in bone then frame order; `fixed` with ImportOptions.despike. */
  spikes: ReportSpike[];
  /**
   * Not a part of the two above but a property of the capture alone: how far a capture frame between output
   * frames g and g + 1 lies outside the range (per position axis) or off the rotation arc between the
   * capture's own poses at g and g + 1 (a VMD segment's progress only rises and slerps one arc). A
   * capture that turns back or swings off within 1/30 s (CMU 131_01's right wrist: 21.6°) shows here. Keys
   * holding the capture's poses at g and g + 1 come no nearer; the fit's keys may be off those poses by the
   * tolerance, so the error at every capture frame is at least this figure less the tolerance and can be the
   * smaller of the two, or the larger (131_01 on the low-poly Miku: 0.0798 at every capture frame, 0.0733
   * here; on the standard skeleton 0.125 and 0.117; tolerance 0.02).
   */
  unreachablePosition: number;
  unreachableRotationDeg: number;
  /** What the output could not keep as given (a model name longer than the header's field), map rows naming nothing. */
  warnings: string[];
  /**
   * Each of `warnings` with its code and values (the notes, and the capture that barely moves the model), so the
   * batch's rows and import-bvh/-vrma under --lang ja say them in the user's language (shared/i18n/warning-line.ts).
   */
  warningCodes: Diagnostic[];
}

/** Parts that move the figure beyond its root: the spine up to the head and the limbs (named: fingers or eyes alone are not a body). */
const BODY_PARTS: ReadonlySet<HumanoidPart> = new Set<HumanoidPart>([
  'spine', 'chest', 'upperChest', 'neck', 'head',
  'leftShoulder', 'leftUpperArm', 'leftLowerArm', 'leftHand', 'rightShoulder', 'rightUpperArm', 'rightLowerArm', 'rightHand',
  'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'rightUpperLeg', 'rightLowerLeg', 'rightFoot',
]);

/**
 * When the capture moves the model by its root alone: no joint is mapped to the spine, the neck, the head or a
 * limb (a tail, a prop, a skeleton whose names no table knows and whose shape is not a body's). The import
 * still runs — the root's motion may be what was wanted — but the report says so (import-bvh's warning, the
 * import dialog's line). `mapped`: the report's mapped joints (ImportReport.mapped).
 */
export function barelyMoves(mapped: readonly { part: string }[]): boolean {
  return !mapped.some((x) => BODY_PARTS.has(x.part as HumanoidPart));
}

export { captureRate };

/** The dense motion: a key per capture frame per keyed bone, frame = capture frame index. */
function denseDoc(rt: RetargetResult, modelName: Uint8Array, morphs: { name: string; weights: Float64Array }[]): VmdDocument {
  const recs: Uint8Array[] = [];
  const nb = rt.bones.length;
  for (let k = 0; k < nb; k++) {
    const name = rt.skeleton.bones[rt.bones[k]].name;
    for (let f = 0; f < rt.frameCount; f++) {
      const o = f * nb + k;
      recs.push(encodeBoneRecord({ name, frame: f, position: Array.from(rt.translation.subarray(3 * o, 3 * o + 3)), rotation: Array.from(rt.rotation.subarray(4 * o, 4 * o + 4)) }));
    }
  }
  const doc = { ...emptyVmd(), modelName };
  const ik = rt.ikOff.length ? [encodeIkRecord({ frame: 0, visible: 1, iks: rt.ikOff.map((i) => ({ name: rt.skeleton.bones[i].name, enabled: 0 })) })] : [];
  const mrecs: Uint8Array[] = [];
  for (const mo of morphs) for (let f = 0; f < rt.frameCount; f++) mrecs.push(encodeMorphRecord({ name: mo.name, frame: f, weight: mo.weights[f] ?? 0 }));
  return { ...doc, bone: blockFromRecords('bone', recs), morph: blockFromRecords('morph', mrecs), ik: ikBlockFromRecords(ik) };
}

/**
 * Largest position and rotation difference of `out` played at f/K from the dense key at f, every capture
 * frame (or those an output frame plays); and, between output frames, how far the dense key lies from
 * where keys on whole frames can reach (ImportReport.unreachablePosition).
 */
function measureAtCaptureFrames(dense: VmdDocument, out: VmdDocument, k: number, onGrid: boolean): { position: number; rotationDeg: number; rotationAt: { bone: string; frame: number } | null; unreachablePosition: number; unreachableRotationDeg: number } {
  const a = buildTracks(dense).bones, b = buildTracks(out).bones;
  const byName = new Map(b.names.map((n, t) => [n, t]));
  const pa = new Float64Array(3), ra = new Float64Array(4), pb = new Float64Array(3), rb = new Float64Array(4);
  let pos = 0, rot = 0, farPos = 0, farRot = 0;
  let rotationAt: { bone: string; frame: number } | null = null;
  const p0 = new Float64Array(3), p1 = new Float64Array(3), q0 = new Float64Array(4), q1 = new Float64Array(4), q01 = new Float64Array(12);
  const last = a.frames.length ? Math.max(...a.names.map((_, t) => a.frames[a.start[t + 1] - 1] ?? 0)) : 0;
  for (let t = 0; t < a.names.length; t++) {
    const tb = byName.get(a.names[t]);
    const s = a.start[t], e = a.start[t + 1];
    for (let i = s; i < e; i++) {
      const f = a.frames[i];
      // On the grid: capture frames an output frame plays (within a millionth of a frame).
      if (onGrid && Math.abs(f / k - Math.round(f / k)) > 1e-6) continue;
      sampleBoneInto(a, t, f, pa, ra, 0);
      if (tb === undefined) {
        pb.fill(0);
        rb.set([0, 0, 0, 1]);
      } else sampleBoneInto(b, tb, f / k, pb, rb, 0);
      pos = Math.max(pos, Math.abs(pa[0] - pb[0]), Math.abs(pa[1] - pb[1]), Math.abs(pa[2] - pb[2]));
      const dr = quatAngleDeg(ra, 0, rb, 0);
      if (dr > rot) {
        rot = dr;
        rotationAt = { bone: a.names[t], frame: f / k };
      }
      const g0 = Math.floor(f / k + 1e-9);
      if (onGrid || Math.abs(f / k - Math.round(f / k)) <= 1e-6 || (g0 + 1) * k > last + 1e-9) continue;
      sampleBoneInto(a, t, g0 * k, p0, q0, 0);
      sampleBoneInto(a, t, (g0 + 1) * k, p1, q1, 0);
      q01.set(q0, 0);
      q01.set(q1, 4);
      for (let c = 0; c < 3; c++) {
        const lo = Math.min(p0[c], p1[c]), hi = Math.max(p0[c], p1[c]);
        farPos = Math.max(farPos, lo - pa[c], pa[c] - hi);
      }
      q01.set(ra, 8);
      farRot = Math.max(farRot, quatAngleDeg(nearestOnArc(q01, 0, 4, 8), 0, ra, 0));
    }
  }
  return { position: pos, rotationDeg: rot, rotationAt, unreachablePosition: farPos, unreachableRotationDeg: farRot };
}

/**
 * Moves every keyed bone that hangs from no keyed bone (センター, the leg IK goals) by frame 0's センター
 * X/Z (retarget keys センター first): their keys are offsets in the model's space, so the whole path shifts
 * and the body starts over the origin, as it walks. Bones under センター keep their keys.
 */
function toOrigin(r: RetargetResult): void {
  const nb = r.bones.length;
  if (!nb || !r.frameCount) return;
  const dx = r.translation[0], dz = r.translation[2];
  const keyed = new Set(r.bones);
  const parent = r.skeleton.parent;
  const top = r.bones.map((b) => {
    for (let p = parent[b]; p >= 0; p = parent[p]) if (keyed.has(p)) return false;
    return true;
  });
  for (let f = 0; f < r.frameCount; f++)
    for (let k = 0; k < nb; k++) {
      if (!top[k]) continue;
      const o = 3 * (f * nb + k);
      r.translation[o] -= dx;
      r.translation[o + 2] -= dz;
    }
}

/** Output frame as the report writes it: whole, or to two decimals (59.25). */
export const reportFrame = (f: number): string => String(Math.round(f * 100) / 100);

/** The glitches as one line: "右親指１ frames 59.25–60.5 (179°)", the first 8, then how many more. */
export function spikeList(spikes: readonly ReportSpike[]): string {
  const s = spikes.slice(0, 8).map((x) => `${x.bone} frames ${reportFrame(x.fromFrame)}–${reportFrame(x.toFrame)} (${Math.round(x.deg)}°)`).join(', ');
  return spikes.length > 8 ? `${s} and ${spikes.length - 8} more` : s;
}

/** The joint map an import uses: built-in or guessed, with map-file rows over it. */
export function importMap(m: BvhMotion, rows?: MapRows): { map: JointMap; unknownJoints: string[]; unknownTargets: string[]; lost: LostPart[] } {
  const base = autoMap(m);
  return rows && rows.size ? withMapRows(m, base, rows) : { map: base, unknownJoints: [], unknownTargets: [], lost: [] };
}

/** BVH → VMD on `model`. Errors: E_RETARGET (the model cannot play it), E_ARGUMENT (options), E_NAME_* (a bone name). */
export function importBvh(m: BvhMotion, model: ModelData, opts: ImportOptions = {}): Outcome<{ doc: VmdDocument; dense: VmdDocument; report: ImportReport; factor: number; notes: Diagnostic[] }> {
  const fail = (e: CodecError) => ({ ok: false as const, error: e });
  if (m.frameCount === 0) return fail({ code: 'E_RETARGET', message: 'the BVH has no frames' });
  const mp = opts.parts ? { map: { parts: opts.parts, source: 'vrm' as const }, unknownJoints: [], unknownTargets: [], lost: [] } : importMap(m, opts.map);
  // Capture glitches of the mapped joints: found always, replaced when asked (before retargeting, so that the
  // feet's contacts and every bone below see the mended joint).
  const rate0 = captureRate(m, opts.fps);
  const found = findSpikes(m, mp.map.parts.flatMap((p, j) => (p ? [j] : [])), rate0);
  const fixedSpikes = new Set<CaptureSpike>();
  if (opts.despike && found.length) {
    const d = removeSpikes(m, found);
    m = d.motion;
    d.fixed.forEach((x) => fixedSpikes.add(x));
  }
  const rt = retarget(m, mp.map.parts, model, opts);
  if (!rt.ok) return rt;
  const r = rt.value;
  if (opts.origin) toOrigin(r);
  const rate = captureRate(m, opts.fps);
  const factor = rate / 30;
  // The header names the model in 20 bytes of Shift_JIS, cut at a character as retarget writes it (and MMD).
  const name = modelNameField(model.name, MODEL_NAME_LENGTH_V2);
  // The report's warnings in English (the CLI and the batch print them), each also as a code with its values
  // for the app's own wording (the import dialog).
  const notes: Diagnostic[] = [];
  if (name.note) notes.push(name.note);
  // A map row that names nothing is a typo the user would not see in the counts: said here, once, for the
  // command line, the batch and the dialog alike.
  if (mp.unknownJoints.length) notes.push({ code: 'W_MAP_JOINTS', message: `map rows naming no joint of the capture (left out): ${mp.unknownJoints.join(' ')}`, params: { names: mp.unknownJoints.join(' ') } });
  // A bone of the model that plays no humanoid part is said apart from a typo: the retargeting turns a bone
  // as a part (its rest direction aligned to the joint's along the part's segment, its key taken against
  // its parent part's), which a hair or tie bone has neither of.
  const names = new BoneNameIndex(model.bones);
  const modelBones = mp.unknownTargets.filter((t) => names.find(t.trim()) >= 0);
  const nothing = mp.unknownTargets.filter((t) => !modelBones.includes(t));
  if (nothing.length) notes.push({ code: 'W_MAP_TARGETS', message: `map rows naming no humanoid part or bone (left out): ${nothing.join(' ')}`, params: { names: nothing.join(' ') } });
  if (modelBones.length)
    notes.push({
      code: 'W_MAP_BONE_NO_PART',
      message: `map rows naming a bone of the model that plays no humanoid part (left out: a joint drives a bone only as one of the humanoid parts, whose rest direction and parent part the retargeting aligns it by; name a part, e.g. leftToes, or its MMD bone): ${modelBones.join(' ')}`,
      params: { names: modelBones.join(' ') },
    });
  for (const l of mp.lost) {
    const by = l.by === 'row' ? 'by an earlier row' : l.by === 'shape' ? 'as guessed from the shape' : `in the ${l.by} table`;
    // `byWord`: where `from` had the part, said in the reader's language (note.byWord.*).
    const byWord = l.by === 'row' || l.by === 'shape' ? l.by : 'table';
    notes.push({ code: 'W_MAP_LOST', message: `map row ${l.joint} → ${l.part} takes the part from joint ${l.from} (${by}), which is left unmapped`, params: { joint: l.joint, part: l.part, from: l.from, byWord, table: l.by } });
  }
  const warnings = notes.map((n) => n.message);
  let dense: VmdDocument;
  try {
    dense = denseDoc(r, name.field, opts.morphs ?? []);
  } catch (e) {
    if (e instanceof CodecFailure) return fail(e.error);
    throw e;
  }
  // The last output frame the capture reaches: its last sample, (frames − 1)/K, usually falls between two.
  const lastFrame = Math.floor((m.frameCount - 1) / factor + 1e-9);
  // A damaged frame count (a VRMA time that is not a number, which readVrma leaves to this layer) sets no end.
  const fit = speedRefit(dense, { factor, lastFrame: Number.isFinite(lastFrame) && lastFrame >= 0 ? lastFrame : undefined, samplesPerFrame: Math.max(1, Math.min(16, Math.ceil(factor - 1e-9))), position: opts.positionTol ?? IMPORT_TOLERANCES.position, rotationDeg: opts.rotationTolDeg ?? IMPORT_TOLERANCES.rotationDeg, morph: opts.morphTol, progress: opts.progress });
  if (!fit.ok) return fail(fit.error);
  const out = fit.value.doc;
  const err = measureAtCaptureFrames(dense, out, factor, true);
  const errAll = measureAtCaptureFrames(dense, out, factor, false);
  const inTree = m.joints.map(() => false);
  const r0 = m.roots[0];
  m.joints.forEach((J, j) => (inTree[j] = j === r0 || (J.parent >= 0 && inTree[J.parent])));
  const boundJoints = new Set(r.bindings.map((b) => b.joint));
  // 1-based number of the root a joint hangs from (roots are listed in file order, each before its joints).
  const rootNumber = (j: number) => m.roots.filter((x) => x <= j).length;
  const mapped = r.bindings.map((b) => ({ joint: m.joints[b.joint].name, part: b.part, bone: MMD_BONE_OF[b.part]! }));
  // Glitches of joints that drive a bone of the model, named by that bone (the model's spelling).
  const boneOfJoint = new Map(r.bindings.map((b) => [b.joint, r.skeleton.bones[b.bone].name]));
  const spikes: ReportSpike[] = found.flatMap((x) => {
    const bone = boneOfJoint.get(x.joint);
    return bone === undefined ? [] : [{ joint: m.joints[x.joint].name, bone, fromFrame: x.from / factor, toFrame: x.to / factor, captureFrom: x.from, captureTo: x.to, deg: x.deg, fixed: fixedSpikes.has(x) }];
  });
  if (spikes.length) {
    const fixed = spikes.filter((x) => x.fixed).length;
    const list = spikeList(spikes);
    // `spots`: the list without English words, for the Japanese line (which names bone, frames and degrees once).
    const spots = spikes.slice(0, 8).map((x) => `${x.bone} ${reportFrame(x.fromFrame)}–${reportFrame(x.toFrame)} (${Math.round(x.deg)}°)`).join(', ') + (spikes.length > 8 ? ', …' : '');
    notes.push(
      fixed
        ? { code: 'W_CAPTURE_SPIKES_FIXED', message: `${plural(count(fixed), 'capture glitch', 'capture glitches')} (a joint flipping out and back within 0.1 s) replaced by the interpolation of the frames either side: ${list}`, params: { count: fixed, list, spots } }
        : { code: 'W_CAPTURE_SPIKES', message: `${plural(count(spikes.length), 'capture glitch', 'capture glitches')} (a joint flipping out and back within 0.1 s, kept as a one-frame turn): ${list}; look there, or import with --despike to replace ${agree(spikes.length, 'it', 'them')} by the interpolation of the frames either side`, params: { count: spikes.length, list, spots } },
    );
    warnings.push(notes[notes.length - 1].message);
  }
  // The notes and what follows, each with its code (the import dialog says the capture that barely moves apart).
  const warningCodes = [...notes];
  const unmappedJoints = m.joints.flatMap((J, j) => (J.endSite || boundJoints.has(j) ? [] : [inTree[j] ? J.name : `${J.name} (root ${rootNumber(j)})`]));
  if (barelyMoves(mapped)) {
    const total = mapped.length + unmappedJoints.length;
    const joints = mapped.map((x) => `${x.joint} → ${x.part}`).join(', ');
    const which = mapped.length ? ` (${joints})` : '';
    warn(
      { warnings, warningCodes },
      mapped.length ? 'W_CAPTURE_BARELY_MOVES' : 'W_CAPTURE_NO_PART',
      `only ${mapped.length} of the capture's ${plural(total, 'joint')} ${agree(mapped.length, 'matches', 'match')} a humanoid part${which}, none of the spine, head or limbs: the model will barely move (give the parts with --map if the joints are a body's)`,
      { n: mapped.length, total, joints },
    );
  }
  const report: ImportReport = {
    frames: m.frameCount,
    captureFps: rate,
    lastFrame,
    map: mp.map.source,
    mapped,
    unmappedJoints,
    unboundParts: r.unboundParts,
    unknownMapJoints: mp.unknownJoints,
    unknownMapTargets: mp.unknownTargets,
    keysRaw: r.frameCount * r.bones.length,
    keysKept: out.bone.count,
    morphKeys: out.morph.count,
    tracks: r.bones.length,
    scale: r.scale,
    footIk: r.footIk,
    contacts: r.contacts.length,
    contactDetail: r.contacts.map((c) => ({ side: c.side, point: c.point, fromFrame: c.from, toFrame: c.to })),
    maxPositionError: err.position,
    maxRotationErrorDeg: err.rotationDeg,
    maxPositionErrorAllFrames: errAll.position,
    maxRotationErrorDegAllFrames: errAll.rotationDeg,
    maxRotationErrorAt: errAll.rotationAt,
    spikes,
    unreachablePosition: errAll.unreachablePosition,
    unreachableRotationDeg: errAll.unreachableRotationDeg,
    warnings,
    warningCodes,
  };
  return { ok: true, value: { doc: out, dense, report, factor, notes } };
}
