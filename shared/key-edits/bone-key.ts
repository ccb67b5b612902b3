/**
 * Registering a bone key from a pose (MMD's 登録 after turning or moving a bone in the 3D view): the
 * bone's position offset and rotation, in MMD's coordinates, become its key at `frame`.
 * - A key already at that frame keeps its record, name bytes, curves and physics bytes; only its position
 *   and rotation change (so both segments around it play the new pose, each with its own curve).
 * - Otherwise a key is added with the curves of the segment it splits (as insertKey does), or, for a bone
 *   the motion has no key of yet, under the model's bone name in Shift_JIS (cut at 15 bytes as MMD cuts it)
 *   with MMD's linear curves.
 * One edit, so one undo step. Values are stored as float32, as every bone key is.
 */
import type { MotionTracks } from '../vmd/tracks';
import type { VmdDocument } from '../vmd/vmd-document';
import { viewOf } from '../vmd/vmd-document';
import { encodable, encodeSjis } from '../vmd/sjis';
import { matchKey } from '../pmx/model-inspect';
import { encodeBoneRecord } from '../vmd/vmd-build';
import { BONE } from '../vmd/vmd-layout';
import { success } from '../vmd/errors';
import { BlockEditor, finish, refuse, type EditOutcome, type KeyEdit } from './diff';
import { keyAtFrame, trackRange } from './key-ref';
import { MAX_FRAME, sampledBoneRecord } from './keys';

export interface BonePose {
  /** Position offset from the bone's rest place (MMD coordinates, as a key stores it). */
  position: readonly [number, number, number];
  /** Rotation quaternion x, y, z, w (MMD coordinates); normalised before it is stored. */
  rotation: readonly [number, number, number, number];
}

/** The bone to key: a track of the motion, or a bone the motion has no key of (its name in the model). */
export type BoneTarget = { track: number } | { name: string };

/** The pose's rotation as a unit quaternion. */
function unitRotation(pose: BonePose): number[] {
  const [x, y, z, w] = pose.rotation;
  const s = 1 / (Math.hypot(x, y, z, w) || 1);
  return [x * s + 0, y * s + 0, z * s + 0, w * s + 0];
}

/** Writes the pose's position and (unit) rotation into a bone record, nothing else. */
function writePose(rec: Uint8Array, pose: BonePose): void {
  const v = viewOf(rec);
  const q = unitRotation(pose);
  // + 0: a zero is written +0, as MMD writes it (the handle's z and x, y flips give −0 for an untouched 0).
  for (let c = 0; c < 3; c++) v.setFloat32(BONE.POSITION + 4 * c, pose.position[c] + 0, true);
  for (let c = 0; c < 4; c++) v.setFloat32(BONE.ROTATION + 4 * c, q[c] + 0, true);
}

/** The pose of a bone the motion has no key of: where the model puts it (no offset, no turn). */
export const REST_POSE: BonePose = { position: [0, 0, 0], rotation: [0, 0, 0, 1] };

/**
 * The motion's track of a bone by its model name, or −1: as a motion stores it, a name over 15 bytes is cut
 * there (MMD writes it so), as morph-key.ts finds it.
 */
export function boneTrackOf(tracks: MotionTracks, name: string): number {
  const names = tracks.bones.names;
  const i = names.indexOf(name);
  if (i >= 0) return i;
  const key = matchKey(name);
  return names.findIndex((n) => matchKey(n) === key);
}

/**
 * A new key for a bone the motion has no key of: `pose` (the rest pose by default) at `frame` under the
 * model's bone name in Shift_JIS, with MMD's linear curves; null when the name has characters Shift_JIS lacks.
 */
export function newBoneRecord(name: string, frame: number, pose: BonePose = REST_POSE): Uint8Array | null {
  if (!encodable(name)) return null;
  // A name over the field's 15 bytes is cut there as MMD cuts it (it was refused: Gene's 前クローク2_1xcIK could not
  // be keyed); MMD matches the cut name to the bone (model-inspect matchKey), babylon-mmd and three.js do not, which
  // the app tells the user (renderer shell/cut-names.ts).
  const field = new Uint8Array(BONE.NAME_LENGTH);
  field.set(encodeSjis(name).subarray(0, BONE.NAME_LENGTH));
  // MMD's linear curves (encodeBoneRecord's default).
  const position = pose.position.map((x) => x + 0);
  return encodeBoneRecord({ name: field, frame, position, rotation: unitRotation(pose) });
}

/**
 * Writes `pose` as the bone's key at `frame`: replaced in place when the track has a key there, else
 * added. Returns the record's index in `record` (the same record when replaced). `label` names the undo step:
 * "pose bone" for a ring drag, "register key" for Enter / Register on a bone without keys (MMD's 登録, the step
 * insertKey names so for a bone with keys).
 */
export function registerBoneKey(doc: VmdDocument, tracks: MotionTracks, target: BoneTarget, frame: number, pose: BonePose, label: 'pose bone' | 'register key' = 'pose bone'): EditOutcome<KeyEdit & { record: number; replaced: boolean }> {
  frame = Math.round(frame);
  if (!(frame >= 0 && frame <= MAX_FRAME)) return refuse('E_RANGE', `frame ${frame} is out of range`, 'editor.refusal.frameOutOfRange', { frame });
  const values = [...pose.position, ...pose.rotation];
  if (!values.every(Number.isFinite)) return refuse('E_RANGE', 'the pose is not a finite number', 'editor.refusal.poseNotFinite');
  const bones = tracks.bones;
  const track = 'track' in target ? target.track : boneTrackOf(tracks, target.name);
  if (track >= bones.names.length) return refuse('E_EMPTY', 'no such bone track', 'editor.refusal.noNameKey');
  const ed = new BlockEditor(doc.bone);
  if (track >= 0) {
    const [a, b] = trackRange(bones, track);
    const k = keyAtFrame(bones.frames, a, b, frame);
    if (k >= 0) {
      const record = bones.record[k];
      const rec = ed.copy(record);
      writePose(rec, pose);
      ed.put(record, rec);
      return success(Object.assign(finish(doc, label, [ed]), { record, replaced: true }));
    }
    const rec = sampledBoneRecord(doc, tracks, track, frame);
    writePose(rec, pose);
    const record = ed.append(rec);
    return success(Object.assign(finish(doc, label, [ed]), { record, replaced: false }));
  }
  const name = (target as { name: string }).name;
  const rec = newBoneRecord(name, frame, pose);
  if (!rec) return refuse('E_RANGE', `name "${name}" has characters Shift_JIS cannot encode`, 'editor.refusal.boneNameNotStorable');
  const record = ed.append(rec);
  return success(Object.assign(finish(doc, label, [ed]), { record, replaced: false }));
}
