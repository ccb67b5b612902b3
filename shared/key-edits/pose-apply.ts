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
import type { MotionTracks, NamedTracks } from '../vmd/tracks';
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
 * What differs between keying a pose's bones and its morphs; the rest (a name the model lacks, the track by
 * name, a key at the frame replaced in place or a new one added under the track's or the pose's name bytes)
 * is keyEntries', once for both. `V`: the values one key takes.
 */
interface KindKeying<T extends { name: string }, V> {
  entries: readonly T[];
  tracks: NamedTracks;
  editor: BlockEditor;
  has: (name: string) => boolean;
  /** Where the pose's names the model lacks are listed. */
  missing: string[];
  /** The record's name field (offset and length). */
  nameAt: number;
  nameLength: number;
  /** The values to key, or null when they are not numbers (the name is skipped). */
  values: (entry: T) => V | null;
  /** A new record (MMD's linear curves) of `name` (its field bytes) at `frame`. */
  encode: (name: Uint8Array, frame: number, v: V) => Uint8Array;
  /** Writes the values into a copy of a key's record (its curves and name bytes kept). */
  write: (rec: Uint8Array, v: V) => void;
}

/** Keys every entry of one kind at `frame` (see the file comment); returns how many were keyed. */
function keyEntries<T extends { name: string }, V>(k: KindKeying<T, V>, frame: number, out: PoseApplied): number {
  const { tracks, editor } = k;
  let keyed = 0;
  for (const entry of lastOfEach(k.entries)) {
    if (!k.has(entry.name)) {
      k.missing.push(entry.name);
      continue;
    }
    const v = k.values(entry);
    if (v === null) {
      out.skipped.push(entry.name);
      continue;
    }
    const track = trackOf(tracks.index, tracks.names, entry.name);
    let record = -1;
    let rec: Uint8Array | null = null;
    if (track >= 0) {
      const [a, e] = trackRange(tracks, track);
      const at = keyAtFrame(tracks.frames, a, e, frame);
      if (at >= 0) {
        record = tracks.record[at];
        out.replaced++;
      } else {
        // The track's own name bytes (whatever follows the NUL), as its other keys carry them; MMD's linear curves.
        const first = editor.copy(tracks.record[a]);
        rec = k.encode(first.subarray(k.nameAt, k.nameAt + k.nameLength), frame, v);
      }
    } else {
      const field = nameBytes(entry.name, k.nameLength);
      if (!field) {
        out.skipped.push(entry.name);
        continue;
      }
      rec = k.encode(field, frame, v);
    }
    if (rec) editor.append(rec);
    else {
      rec = editor.copy(record);
      k.write(rec, v);
      editor.put(record, rec);
    }
    keyed++;
  }
  return keyed;
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

  out.bones = keyEntries(
    {
      entries: pose.bones,
      tracks: tracks.bones,
      editor: boneEd,
      has: knownTo(opts.knownBones),
      missing: out.missingBones,
      nameAt: BONE.NAME,
      nameLength: BONE.NAME_LENGTH,
      values: (b) => {
        const [x, y, z, w] = b.rotation;
        const len = Math.hypot(x, y, z, w);
        if (![...b.position, x, y, z, w].every(Number.isFinite) || !(len > 0)) return null;
        return { position: b.position, rotation: [x / len, y / len, z / len, w / len] };
      },
      encode: (name, f, v) => encodeBoneRecord({ name, frame: f, position: v.position, rotation: v.rotation }),
      write: (rec, v) => {
        const view = viewOf(rec);
        for (let c = 0; c < 3; c++) view.setFloat32(BONE.POSITION + 4 * c, v.position[c], true);
        for (let c = 0; c < 4; c++) view.setFloat32(BONE.ROTATION + 4 * c, v.rotation[c], true);
      },
    },
    frame,
    out,
  );
  out.morphs = keyEntries(
    {
      entries: pose.morphs,
      tracks: tracks.morphs,
      editor: morphEd,
      has: knownTo(opts.knownMorphs),
      missing: out.missingMorphs,
      nameAt: MORPH.NAME,
      nameLength: MORPH.NAME_LENGTH,
      values: (m) => (Number.isFinite(m.weight) ? m.weight : null),
      encode: (name, f, weight) => encodeMorphRecord({ name, frame: f, weight }),
      write: (rec, weight) => viewOf(rec).setFloat32(MORPH.WEIGHT, weight, true),
    },
    frame,
    out,
  );

  if (!out.bones && !out.morphs) return refuse('E_EMPTY', 'the pose names no bone or morph the model has', 'editor.refusal.poseNothingToKey');
  return success(Object.assign(finish(doc, opts.label ?? 'apply pose', [boneEd, morphEd]), out));
}
