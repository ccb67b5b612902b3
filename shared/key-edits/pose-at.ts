/**
 * A bone's or morph's pose at a frame where its track may have no key (MMD's habit: pick a bone, go to a
 * frame, copy its pose or type a value). The pose there is the key at that frame, else the interpolated
 * one playback shows (sampledBoneRecord / sampledMorphRecord: the track's name bytes, the curves of the
 * segment it splits).
 * - `copyPoseAt`: those poses as a clipboard at offset 0, which pasteKeys puts at the playhead as it pastes
 *   copied keys; `copyFaceAt`: every morph's weight at that frame so (a face copied whole).
 * - `poseSummaryAt`: what the key inspector shows for it (one record's KeySummary).
 * - `setValuesAt`: a typed value registered as the key at that frame (the key there edited, else a new key
 *   with the interpolated pose and the typed field); one edit, so one undo step.
 * A bone the motion has no key of yet (picked in the model) counts as at rest: its first key is the rest pose
 * with the typed field, as MMD's 数値入力 on a bone never keyed.
 */
import type { MotionTracks } from '../vmd/tracks';
import { fixedBlock, ikBlock, recordBytes, type VmdDocument } from '../vmd/vmd-document';
import { setRecordFrame } from '../vmd/records';
import { success } from '../vmd/errors';
import { BlockEditor, finish, refuse, type EditOutcome, type KeyEdit } from './diff';
import { keyAtFrame, trackRange, tracksOf } from './key-ref';
import { MAX_FRAME, newKeyRecord, sampledBoneRecord, sampledMorphRecord, type KeyClipboard, type TrackTarget } from './keys';
import { KeySummarizer, type KeySummary } from './mixed-values';
import { editRecord, editValues, lightWithoutDirection, physicsOnPairIn, type ValueEdit } from './values';
import { newBoneRecord } from './bone-key';

/**
 * A bone or morph track of the motion (the active row of the track list, the picked bone); or, with track −1
 * and its model name, a bone picked in the model that the motion has no key of yet: its pose is the rest pose
 * (no offset, no turn), as MMD's 登録 registers it for a bone never keyed.
 */
export interface PoseTrack {
  readonly kind: 'bone' | 'morph';
  readonly track: number;
  readonly name?: string;
}

/** The track's key record at `frame`, or −1 (a bone without keys has none). */
export function keyRecordOn(tracks: MotionTracks, t: PoseTrack, frame: number): number {
  if (t.track < 0) return -1;
  const tt = tracksOf(tracks, t.kind);
  const [a, b] = trackRange(tt, t.track);
  const k = keyAtFrame(tt.frames, a, b, frame);
  return k >= 0 ? tt.record[k] : -1;
}

/**
 * The pose record of a track at `frame`: a copy of its key there, else the interpolated pose; for a bone without
 * keys (track −1, its name) a new key with the rest pose. Null for a track without keys.
 */
export function poseRecordAt(doc: VmdDocument, tracks: MotionTracks, t: PoseTrack, frame: number): Uint8Array | null {
  const tt = t.kind === 'bone' ? tracks.bones : tracks.morphs;
  // A bone without keys: its rest pose, under its model name (null when Shift_JIS cannot store that name).
  if (t.track < 0 && t.kind === 'bone' && t.name) return newBoneRecord(t.name, Math.max(0, Math.round(frame)));
  if (t.track < 0 || t.track >= tt.names.length) return null;
  const [a, b] = trackRange(tt, t.track);
  if (a === b) return null;
  frame = Math.max(0, Math.round(frame));
  const record = keyRecordOn(tracks, t, frame);
  if (record >= 0) return recordBytes(doc[t.kind], record).slice();
  return t.kind === 'bone' ? sampledBoneRecord(doc, tracks, t.track, frame) : sampledMorphRecord(doc, tracks, t.track, frame);
}

/** The poses of `targets` at `frame` as copied keys (all at offset 0); empty when none has a key. */
export function copyPoseAt(doc: VmdDocument, tracks: MotionTracks, targets: readonly PoseTrack[], frame: number): KeyClipboard {
  const items: { kind: 'bone' | 'morph'; offset: number; bytes: Uint8Array }[] = [];
  for (const t of targets) {
    const bytes = poseRecordAt(doc, tracks, t, frame);
    if (bytes) items.push({ kind: t.kind, offset: 0, bytes });
  }
  return { items };
}

/**
 * The whole face at `frame`: every morph track of the motion with its weight there (its key, else the weight in between
 * as playback shows it) as copied keys at offset 0, so Paste registers the face at another frame as one step (new-user
 * pass numorph 7: the column of keys at a frame left out the morphs in between keys). A morph the motion has no key of
 * plays at 0 and is left out, as a paste leaves it alone. Empty when the motion has no morph key.
 */
export function copyFaceAt(doc: VmdDocument, tracks: MotionTracks, frame: number): KeyClipboard {
  const targets: PoseTrack[] = [];
  for (let t = 0; t < tracks.morphs.names.length; t++) targets.push({ kind: 'morph', track: t });
  return copyPoseAt(doc, tracks, targets, frame);
}

/** What the key inspector shows for the track's pose at `frame` (a summary of that one record), or null. */
export function poseSummaryAt(doc: VmdDocument, tracks: MotionTracks, t: PoseTrack, frame: number): KeySummary | null {
  const rec = poseRecordAt(doc, tracks, t, frame);
  if (!rec) return null;
  const one = { ...doc, [t.kind]: fixedBlock(t.kind, rec) } as VmdDocument;
  return KeySummarizer.start(one, { kind: t.kind, record: 0 })?.result() ?? null;
}

/**
 * A typed value at `frame` on a track: its key there takes the edit (editValues), else a key is added
 * holding the interpolated pose with the edit applied. Returns the record in `record`.
 */
export function setValuesAt(doc: VmdDocument, tracks: MotionTracks, t: PoseTrack, frame: number, edit: ValueEdit): EditOutcome<KeyEdit & { record: number }> {
  frame = Math.round(frame);
  if (!(frame >= 0 && frame <= MAX_FRAME)) return refuse('E_RANGE', `frame ${frame} is out of range`, 'editor.refusal.frameOutOfRange', { frame });
  const existing = keyRecordOn(tracks, t, frame);
  if (existing >= 0) {
    const out = editValues(doc, [{ kind: t.kind, record: existing }], edit);
    return out.ok ? success(Object.assign(out.value, { record: existing })) : out;
  }
  const rec = poseRecordAt(doc, tracks, t, frame);
  if (!rec && t.track < 0 && t.name) return refuse('E_RANGE', `name "${t.name}" has characters Shift_JIS cannot encode`, 'editor.refusal.boneNameNotStorable');
  if (!rec) return refuse('E_EMPTY', 'the track has no key to take a name from', 'editor.refusal.noNameKey');
  setRecordFrame(t.kind, rec, frame);
  const ed = new BlockEditor(doc[t.kind]);
  const record = ed.append(editRecord(t.kind, rec, edit, edit.physicsOff === false && t.kind === 'bone' ? physicsOnPairIn(doc) : 'copy'));
  return success(Object.assign(finish(doc, 'edit values', [ed]), { record }));
}


/**
 * The record a track holds at `frame` for the key inspector: a copy of its key there, else the key Enter (insertKey)
 * would register there. Null for a bone or morph track without keys.
 */
export function targetRecordAt(doc: VmdDocument, tracks: MotionTracks, target: TrackTarget, frame: number): Uint8Array | null {
  frame = Math.max(0, Math.round(frame));
  const tt = tracksOf(tracks, target.kind);
  const [a, b] = trackRange(tt, 'track' in target ? target.track : 0);
  if ('track' in target && a === b) return null;
  const k = keyAtFrame(tt.frames, a, b, frame);
  if (k >= 0) return recordBytes(doc[target.kind], tt.record[k]).slice();
  return newKeyRecord(doc, tracks, target, frame);
}

/** What the key inspector shows for a track at `frame` (its key there, else what Enter would register), or null. */
export function targetSummaryAt(doc: VmdDocument, tracks: MotionTracks, target: TrackTarget, frame: number): KeySummary | null {
  const rec = targetRecordAt(doc, tracks, target, frame);
  if (!rec) return null;
  const block = target.kind === 'ik' ? ikBlock(rec, new Uint32Array([0, rec.length])) : fixedBlock(target.kind, rec);
  const one = { ...doc, [target.kind]: block } as VmdDocument;
  return KeySummarizer.start(one, { kind: target.kind, record: 0 })?.result() ?? null;
}

/**
 * A value typed in the key inspector while the selected key is at another frame than the playhead (MMD works at the
 * playhead): registered on that key's track at `frame`. Its key there takes the edit; else the key Enter would
 * register there (insertKey: the pose playback shows, the curves of the segment it splits) is added with the edit
 * applied, one step named "register key" (`label` when the caller names it: a typed camera value). Returns the
 * record in `record`.
 */
export function registerValuesAt(doc: VmdDocument, tracks: MotionTracks, target: TrackTarget, frame: number, edit: ValueEdit, label?: string): EditOutcome<KeyEdit & { record: number }> {
  frame = Math.round(frame);
  if (!(frame >= 0 && frame <= MAX_FRAME)) return refuse('E_RANGE', `frame ${frame} is out of range`, 'editor.refusal.frameOutOfRange', { frame });
  const tt = tracksOf(tracks, target.kind);
  const [a, b] = trackRange(tt, 'track' in target ? target.track : 0);
  if ('track' in target && a === b) return refuse('E_EMPTY', 'the track has no key to take a name from', 'editor.refusal.noNameKey');
  const k = keyAtFrame(tt.frames, a, b, frame);
  if (k >= 0) {
    const existing = tt.record[k];
    const out = editValues(doc, [{ kind: target.kind, record: existing }], edit, label);
    return out.ok ? success(Object.assign(out.value, { record: existing })) : out;
  }
  const rec = editRecord(target.kind, newKeyRecord(doc, tracks, target, frame), edit, edit.physicsOff === false && target.kind === 'bone' ? physicsOnPairIn(doc) : 'copy');
  if (target.kind === 'light' && lightWithoutDirection(rec)) return refuse('E_ARGUMENT', 'a light direction of 0, 0, 0 has no direction', 'editor.refusal.zeroDirection');
  const ed = new BlockEditor(doc[target.kind]);
  const record = ed.append(rec);
  return success(Object.assign(finish(doc, label ?? 'register key', [ed]), { record }));
}
