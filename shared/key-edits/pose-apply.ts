/**
 * Applying a pose (a VPD) to a motion at a frame, as MMD does when a pose file is loaded onto the selected
 * model: every bone and morph the pose names becomes a key at that frame, registered as MMD registers them.
 * - A key already at the frame is replaced in place: its position and rotation (a morph's weight) are the
 *   pose's; its record, name bytes and curves stay (as registering over a key does, bone-key.ts).
 * - Otherwise a key is added with MMD's linear curves, under the track's own name bytes when the motion has
 *   the bone or morph, else under the pose's name in Shift_JIS, cut at the field's 15 bytes as MMD writes it.
 * - Names the model lacks (`known`, when given) are left out and listed, as are names Shift_JIS cannot hold.
 * All of it is one edit (one undo step). Values are float32, rotations normalised, as every key stores them.
 */
import type { MotionTracks } from '../vmd/tracks';
import type { VmdDocument } from '../vmd/vmd-document';
import type { VpdPose } from '../vmd/vpd';
import { viewOf } from '../vmd/vmd-document';
import { encodable, encodeSjis } from '../vmd/sjis';
import { encodeBoneRecord, encodeMorphRecord } from '../vmd/vmd-build';
import { BONE, MORPH } from '../vmd/vmd-layout';
import { success } from '../vmd/errors';
import { matchKey } from '../pmx/model-inspect';
import { BlockEditor, finish, refuse, type EditOutcome, type KeyEdit } from './diff';
import { keyAtFrame, trackRange } from './key-ref';
import { MAX_FRAME } from './keys';

/** What applying a pose did: keys written, and the pose's names that were left out. */
export interface PoseApplied {
  /** Bones and morphs keyed at the frame (each once). */
  bones: number;
  morphs: number;
  /** Keys that replaced one already at the frame. */
  replaced: number;
  /** Pose names the model lacks (not keyed). */
  missingBones: string[];
  missingMorphs: string[];
  /** Pose names that could not be keyed (a rotation or weight that is not a number, a name Shift_JIS cannot encode). */
  skipped: string[];
}

export interface ApplyPoseOptions {
  /** The edit's label (the undo menu's); default "apply pose". */
  label?: string;
  /** The model's bone and morph names; absent: every name of the pose is keyed. */
  knownBones?: readonly string[] | null;
  knownMorphs?: readonly string[] | null;
}

/** A name's field bytes: Shift_JIS cut at the field's length (MMD writes a longer name so), or null when not encodable. */
function nameBytes(name: string, length: number): Uint8Array | null {
  if (!encodable(name)) return null;
  const field = new Uint8Array(length);
  field.set(encodeSjis(name).subarray(0, length));
  return field;
}

/** The track of `name` in a motion's names (by its own spelling, else as a 15-byte field would hold it), or −1. */
function trackOf(index: ReadonlyMap<string, number>, names: readonly string[], name: string): number {
  const t = index.get(name);
  if (t !== undefined) return t;
  const key = matchKey(name);
  return names.findIndex((n) => matchKey(n) === key);
}

/** Whether the model has `name` (its own spelling, or as a motion's 15-byte field holds it); true with no model given. */
function knownTo(known: readonly string[] | null | undefined): (name: string) => boolean {
  if (!known) return () => true;
  const keys = new Set(known.map(matchKey));
  const exact = new Set(known);
  return (name) => exact.has(name) || keys.has(matchKey(name));
}

/** A name the pose gives twice is keyed once, with its last values, in the place of its first. */
function lastOfEach<T extends { name: string }>(list: readonly T[]): T[] {
  const at = new Map<string, number>();
  const out: T[] = [];
  for (const x of list) {
    const k = matchKey(x.name);
    const i = at.get(k);
    if (i === undefined) at.set(k, out.push(x) - 1);
    else out[i] = x;
  }
  return out;
}

/**
 * Writes `pose` into `doc` as keys at `frame` (see the file comment): one edit with what it did. Refused
 * when the frame is out of range or nothing of the pose could be keyed.
 */
export function applyPose(doc: VmdDocument, tracks: MotionTracks, pose: VpdPose, frame: number, opts: ApplyPoseOptions = {}): EditOutcome<KeyEdit & PoseApplied> {
  frame = Math.round(frame);
  if (!(frame >= 0 && frame <= MAX_FRAME)) return refuse('E_RANGE', `frame ${frame} is out of range`, 'editor.refusal.frameOutOfRange', { frame });
  const out: PoseApplied = { bones: 0, morphs: 0, replaced: 0, missingBones: [], missingMorphs: [], skipped: [] };
  const boneEd = new BlockEditor(doc.bone);
  const morphEd = new BlockEditor(doc.morph);
  const hasBone = knownTo(opts.knownBones);
  const hasMorph = knownTo(opts.knownMorphs);

  const bones = tracks.bones;
  for (const b of lastOfEach(pose.bones)) {
    if (!hasBone(b.name)) {
      out.missingBones.push(b.name);
      continue;
    }
    const [x, y, z, w] = b.rotation;
    const len = Math.hypot(x, y, z, w);
    const values = [...b.position, x, y, z, w];
    if (!values.every(Number.isFinite) || !(len > 0)) {
      out.skipped.push(b.name);
      continue;
    }
    const q = [x / len, y / len, z / len, w / len];
    const track = trackOf(bones.index, bones.names, b.name);
    let record = -1;
    let rec: Uint8Array | null = null;
    if (track >= 0) {
      const [a, e] = trackRange(bones, track);
      const k = keyAtFrame(bones.frames, a, e, frame);
      if (k >= 0) {
        record = bones.record[k];
        out.replaced++;
      } else {
        // The track's own name bytes (whatever follows the NUL), as its other keys carry them; MMD's linear curves.
        const first = boneEd.copy(bones.record[a]);
        rec = encodeBoneRecord({ name: first.subarray(BONE.NAME, BONE.NAME + BONE.NAME_LENGTH), frame, position: b.position, rotation: q });
      }
    } else {
      const field = nameBytes(b.name, BONE.NAME_LENGTH);
      if (!field) {
        out.skipped.push(b.name);
        continue;
      }
      rec = encodeBoneRecord({ name: field, frame, position: b.position, rotation: q });
    }
    if (rec) {
      record = boneEd.append(rec);
    } else {
      rec = boneEd.copy(record);
      const v = viewOf(rec);
      for (let c = 0; c < 3; c++) v.setFloat32(BONE.POSITION + 4 * c, b.position[c], true);
      for (let c = 0; c < 4; c++) v.setFloat32(BONE.ROTATION + 4 * c, q[c], true);
      boneEd.put(record, rec);
    }
    out.bones++;
  }

  const morphs = tracks.morphs;
  for (const m of lastOfEach(pose.morphs)) {
    if (!hasMorph(m.name)) {
      out.missingMorphs.push(m.name);
      continue;
    }
    if (!Number.isFinite(m.weight)) {
      out.skipped.push(m.name);
      continue;
    }
    const track = trackOf(morphs.index, morphs.names, m.name);
    let record = -1;
    let rec: Uint8Array | null = null;
    if (track >= 0) {
      const [a, e] = trackRange(morphs, track);
      const k = keyAtFrame(morphs.frames, a, e, frame);
      if (k >= 0) {
        record = morphs.record[k];
        out.replaced++;
      } else {
        const first = morphEd.copy(morphs.record[a]);
        rec = encodeMorphRecord({ name: first.subarray(MORPH.NAME, MORPH.NAME + MORPH.NAME_LENGTH), frame, weight: m.weight });
      }
    } else {
      const field = nameBytes(m.name, MORPH.NAME_LENGTH);
      if (!field) {
        out.skipped.push(m.name);
        continue;
      }
      rec = encodeMorphRecord({ name: field, frame, weight: m.weight });
    }
    if (rec) record = morphEd.append(rec);
    else {
      rec = morphEd.copy(record);
      viewOf(rec).setFloat32(MORPH.WEIGHT, m.weight, true);
      morphEd.put(record, rec);
    }
    out.morphs++;
  }

  if (!out.bones && !out.morphs) return refuse('E_EMPTY', 'the pose names no bone or morph the model has', 'editor.refusal.poseNothingToKey');
  return success(Object.assign(finish(doc, opts.label ?? 'apply pose', [boneEd, morphEd]), out));
}
