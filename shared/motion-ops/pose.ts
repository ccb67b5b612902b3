/**
 * Poses as edits: the pose at a frame (VMD → VPD, interpolated like playback), and a motion built from
 * poses placed at frames. A bone keyed only in a later pose would stay raised from frame 0 to the end,
 * so every pose gets a key for the union of bone names — the rest pose (no offset, no rotation) where
 * it lacks a bone — and morphs likewise at weight 0.
 */
import { CodecFailure, failure, optionRefusal, success, type Outcome } from '../vmd/errors';
import type { Curve } from '../vmd/bezier';
import { buildBoneInterpolation, defaultBoneInterpolation } from '../vmd/interpolation';
import { encodeBoneRecord, encodeMorphRecord, emptyVmd } from '../vmd/vmd-build';
import { blockFromRecords, withBlocks, type VmdDocument } from '../vmd/vmd-document';
import { sjisLength } from '../vmd/sjis';
import { modelNameField } from '../vmd/model-name';
import { buildTracks } from '../vmd/tracks';
import { vmdToVpd } from '../vmd/convert';
import { stageMotionRefusal } from '../vmd/inspect';
import type { VpdPose } from '../vmd/vpd';
import { edited, editError, finishReport, newReport, type EditReport, type EditResult, warn } from '../edit-core/report';
import { MAX_FRAME } from '../edit-core/record-util';

/**
 * The pose at `frame` as a VPD pose, with a report of how many bones and morphs it holds. A camera or light
 * motion is refused (a VPD holds no camera: it would be an empty pose); `op` names the request in that refusal.
 */
export function poseAtFrame(doc: VmdDocument, frame: number, op = 'pose'): Outcome<{ pose: VpdPose; report: EditReport }> {
  if (!Number.isFinite(frame) || frame < 0) return failure(optionRefusal('E_ARGUMENT', `--frame must be ≥ 0, got ${frame}`, 'frame', 'min', { min: 0, value: frame }));
  const stage = stageMotionRefusal(doc, op);
  if (stage) return failure(stage);
  const pose = vmdToVpd(doc, buildTracks(doc), frame);
  const rep = newReport('pose');
  rep.byKind.bone.kept = pose.bones.length;
  rep.byKind.morph.kept = pose.morphs.length;
  rep.extra.frame = frame;
  if (doc.camera.count) warn(rep, 'W_POSE_CAMERA', 'camera keys are not part of a pose and were left out');
  return success({ pose, report: finishReport(rep) });
}

export interface PoseAt {
  pose: Pick<VpdPose, 'model' | 'bones' | 'morphs'>;
  frame: number;
}

export interface BuildOptions {
  /** Curve for all four channels of every key (default: MMD's linear default block). */
  curve?: Curve;
  /** Leave out (and report) names longer than 15 bytes instead of failing. */
  skipLongNames?: boolean;
}

export function buildFromPoses(poses: readonly PoseAt[], opts: BuildOptions = {}): EditResult {
  if (poses.length === 0) return editError('build needs at least one pose', 'E_ARGUMENT');
  for (const p of poses) if (!Number.isInteger(p.frame) || p.frame < 0) return editError(`pose frame must be a whole number ≥ 0, got ${p.frame}`, 'E_ARGUMENT');
  // A VMD frame is a u32: a larger one would be written modulo 2^32 (10000000000 as 1410065408), as shift and speed also refuse.
  for (const p of poses) if (p.frame > MAX_FRAME) return editError(`pose frame ${p.frame} exceeds the largest frame number a VMD can hold (${MAX_FRAME})`, 'E_ARGUMENT');
  const rep = newReport('build');
  const long = new Set<string>();
  const fits = (n: string) => {
    if (sjisLength(n) <= 15) return true;
    long.add(n);
    return false;
  };
  // Union of names in order of first appearance.
  const boneNames: string[] = [];
  const morphNames: string[] = [];
  const seenB = new Set<string>(), seenM = new Set<string>();
  for (const p of poses) {
    for (const b of p.pose.bones) if (!seenB.has(b.name)) { seenB.add(b.name); boneNames.push(b.name); }
    for (const m of p.pose.morphs) if (!seenM.has(m.name)) { seenM.add(m.name); morphNames.push(m.name); }
  }
  const bones = boneNames.filter(fits);
  const morphs = morphNames.filter(fits);
  if (long.size && !opts.skipLongNames) {
    const names = [...long].map((n) => `"${n}"`).join(', ');
    return failure(optionRefusal('E_NAME_TOO_LONG', `name(s) longer than 15 bytes in Shift_JIS: ${names} (use --skip-long-names to leave them out)`, 'skip-long-names', 'namesTooLong', { names }));
  }
  // Each with its kind, as VPD → VMD (shared/vmd/convert.ts) says it: one code, one wording (note.W_NAME_SKIPPED).
  for (const [kind, names] of [['bone', boneNames], ['morph', morphNames]] as const)
    for (const n of names) if (long.has(n)) warn(rep, 'W_NAME_SKIPPED', `${kind} "${n}" left out: longer than 15 bytes in Shift_JIS`, { name: n, kind });
  const ip = opts.curve ? buildBoneInterpolation([opts.curve, opts.curve, opts.curve, opts.curve]) : defaultBoneInterpolation();
  const usedFrames = new Set<number>();
  const boneRecs: Uint8Array[] = [];
  const morphRecs: Uint8Array[] = [];
  try {
    for (const p of poses) {
      if (usedFrames.has(p.frame)) {
        rep.byKind.bone.collisions += bones.length;
        rep.byKind.morph.collisions += morphs.length;
        warn(rep, 'W_POSE_SECOND', `a second pose at frame ${p.frame} was left out (the first one given wins)`, { frame: p.frame });
        continue;
      }
      usedFrames.add(p.frame);
      const bmap = new Map<string, (typeof p.pose.bones)[number]>();
      for (const b of p.pose.bones) if (!bmap.has(b.name)) bmap.set(b.name, b);
      const mmap = new Map<string, number>();
      for (const m of p.pose.morphs) if (!mmap.has(m.name)) mmap.set(m.name, m.weight);
      for (const name of bones) {
        const b = bmap.get(name);
        boneRecs.push(encodeBoneRecord({ name, frame: p.frame, position: b ? b.position : [0, 0, 0], rotation: b ? b.rotation : [0, 0, 0, 1], interpolation: ip.slice() }));
        if (b) rep.byKind.bone.kept++;
        else rep.byKind.bone.added++;
      }
      for (const name of morphs) {
        const w = mmap.get(name);
        morphRecs.push(encodeMorphRecord({ name, frame: p.frame, weight: w ?? 0 }));
        if (w !== undefined) rep.byKind.morph.kept++;
        else rep.byKind.morph.added++;
      }
    }
  } catch (e) {
    if (e instanceof CodecFailure) return { ok: false, error: e.error };
    throw e;
  }
  const model = (poses[0].pose.model ?? '').replace(/\.osm$/i, '');
  // The first pose's .osm name, cut as MMD cuts a long one (it used to be left out).
  const name = modelNameField(model);
  if (name.note) warn(rep, name.note.code, name.note.message, name.note.params);
  const doc: VmdDocument = { ...emptyVmd(), modelName: name.field };
  rep.extra.poses = poses.length;
  rep.extra.bones = bones.length;
  rep.extra.morphs = morphs.length;
  const out = withBlocks(doc, { bone: blockFromRecords('bone', boneRecs), morph: blockFromRecords('morph', morphRecs) });
  return edited(out, finishReport(rep));
}
