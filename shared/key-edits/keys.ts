/**
 * Key edits: move in time (keys landed on are replaced, as in MMD), delete, insert at a frame with the interpolated pose,
 * copy and paste. New records go to the end of their block (players and MMD sort by frame on load);
 * every other record keeps its bytes and its place.
 */
import { sampleBoneInto, sampleCamera, sampleLight, sampleMorph } from '../vmd/sample';
import type { MotionTracks } from '../vmd/tracks';
import { emptyBlock, EMPTY_IK, recordBytes, type VmdDocument } from '../vmd/vmd-document';
import { frameOf, recordFrame, setRecordFrame, shadowKey } from '../vmd/records';
import { encodeCameraRecord, encodeLightRecord, encodeShadowRecord } from '../vmd/vmd-build';
import { defaultBoneInterpolation, defaultCameraInterpolation } from '../vmd/interpolation';
import { decodeName } from '../vmd/sjis';
import { viewOf } from '../vmd/vmd-document';
import { BONE, CAMERA, MORPH, SHADOW_DEFAULT } from '../vmd/vmd-layout';
import { success, type Outcome } from '../vmd/errors';
import { applyDiff, BlockEditor, finish, refuse, type BlockDiff, type EditDiff, type EditOutcome, type EditRefusal, type KeyEdit } from './diff';
import { RecordSet } from './record-set';
import { ikRecordAt } from './ik';
import { EDIT_KINDS, keyAtFrame, keyOfRecord, lowerBound, trackOfKey, trackRange, tracksOf, type EditKind, type KeyRef } from './key-ref';

/** Largest frame the editor writes (MMD's timeline limit is far below; this only guards overflow). */
export const MAX_FRAME = 0x7fffffff;

/** Records per kind, as the selection holds them. */
export type RecordsByKind = Partial<Record<EditKind, RecordSet>>;

/** The records of `refs` per kind. */
export function recordsByKind(refs: readonly KeyRef[]): RecordsByKind {
  const out: RecordsByKind = {};
  for (const r of refs) (out[r.kind] ??= new RecordSet()).add(r.record);
  return out;
}

function anyRecord(sets: RecordsByKind): boolean {
  return EDIT_KINDS.some((k) => (sets[k]?.size ?? 0) > 0);
}

/**
 * Moves keys by `delta` frames. A key that lands on a frame where its track has a key that is not moving
 * replaces it (that key is deleted in the same step, as MMD does; `replacedCount` says how many). Refused
 * (document unchanged) when a key would land before frame 0. Two moving keys never land on one frame of one
 * track (they all move by the same offset), so moving keys never replace each other.
 */
export function moveKeys(doc: VmdDocument, tracks: MotionTracks, refs: readonly KeyRef[], delta: number): EditOutcome {
  if (refs.length === 0) return refuse('E_EMPTY', 'no key selected', 'editor.refusal.noKeySelected');
  return moveRecords(doc, tracks, recordsByKind(refs), delta);
}

/**
 * moveKeys over the selection's record sets. The diff is a shift (the records and the offset); every
 * moved record's frame field is rewritten and no other byte, and the keys landed on are removed (undo puts
 * them back in their places). A kind whose every record moves lands on no other key, so only its frames
 * are checked against frame 0 (a drag of 600,000 keys reads each frame once).
 */
export function moveRecords(doc: VmdDocument, tracks: MotionTracks, sets: RecordsByKind, delta: number): EditOutcome {
  const d = moveDiff(doc, tracks, sets, delta);
  return d.ok ? success({ doc: applyDiff(doc, d.value), diff: d.value }) : d;
}

/**
 * The diff of moveRecords without applying it (the editor applies a big one in slices between frames:
 * shift-tracks.ts applyDiffSteps), or its refusal.
 */
export function moveDiff(doc: VmdDocument, tracks: MotionTracks, sets: RecordsByKind, delta: number): Outcome<EditDiff, EditRefusal> {
  delta = Math.round(delta);
  if (!anyRecord(sets)) return refuse('E_EMPTY', 'no key selected', 'editor.refusal.noKeySelected');
  if (delta === 0) return success({ label: 'move keys', blocks: [] });
  const blocks: BlockDiff[] = [];
  for (const kind of EDIT_KINDS) {
    const set = sets[kind];
    if (!set?.size) continue;
    const block = doc[kind];
    const records = set.toArray();
    let n = records.length;
    while (n > 0 && records[n - 1] >= block.count) n--; // records past the block's end are not keys
    if (n === 0) continue;
    const all = n === block.count;
    const t = tracksOf(tracks, kind);
    const map = all ? null : keyOfRecord(t, block.count);
    const landedOn: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = records[i];
      const to = frameOf(block, r) + delta;
      if (to < 0 || to > MAX_FRAME) return refuse('E_RANGE', `a key would move to frame ${to}`, 'editor.refusal.movesTo', { frame: to });
      if (!map) continue;
      const k = map[r];
      if (k < 0) continue; // a hidden duplicate: not on the track
      const track = trackOfKey(t, k);
      const [a, b] = trackRange(t, track);
      const other = keyAtFrame(t.frames, a, b, to);
      // A key that stays where a moving one lands is replaced (each such frame is landed on by one key only).
      if (other >= 0 && !set.has(t.record[other])) landedOn.push(t.record[other]);
    }
    landedOn.sort((x, y) => x - y);
    const removed = landedOn.map((index) => ({ index, bytes: recordBytes(block, index).slice() }));
    blocks.push({ kind, patches: [], removed, appended: [], shifted: { records: n === records.length ? records : records.slice(0, n), delta } });
  }
  return success({ label: 'move keys', blocks });
}

/** Keys a move replaced (the keys its moving keys landed on, removed by it). */
export function replacedCount(diff: EditDiff): number {
  let n = 0;
  for (const b of diff.blocks) if (b.shifted) n += b.removed.length;
  return n;
}

/**
 * The moved records of a move's diff as indices in the document after it (the keys it replaced were
 * removed, so the records after them moved down): the selection after the move.
 */
export function movedRecordsAfter(diff: EditDiff): RecordsByKind {
  const out: RecordsByKind = {};
  for (const b of diff.blocks) {
    if (!b.shifted || !(EDIT_KINDS as readonly string[]).includes(b.kind)) continue;
    const set = (out[b.kind as EditKind] = new RecordSet());
    const rs = b.shifted.records;
    let below = 0;
    for (let i = 0; i < rs.length; i++) {
      while (below < b.removed.length && b.removed[below].index < rs[i]) below++;
      set.add(rs[i] - below);
    }
  }
  return out;
}

/** Deletes keys. */
export function deleteKeys(doc: VmdDocument, refs: readonly KeyRef[]): EditOutcome {
  if (refs.length === 0) return refuse('E_EMPTY', 'no key selected', 'editor.refusal.noKeySelected');
  return deleteRecords(doc, recordsByKind(refs));
}

/**
 * deleteKeys over the selection's record sets. A block losing every record is replaced whole by an
 * empty one (its diff keeps the old block, which is immutable: no copy of a record is made). `label` names
 * the step: a cut is the same deletion, and its undo says "cut keys".
 */
export function deleteRecords(doc: VmdDocument, sets: RecordsByKind, label: 'delete keys' | 'cut keys' = 'delete keys'): EditOutcome {
  if (!anyRecord(sets)) return refuse('E_EMPTY', 'no key selected', 'editor.refusal.noKeySelected');
  const blocks: BlockDiff[] = [];
  for (const kind of EDIT_KINDS) {
    const set = sets[kind];
    if (!set?.size) continue;
    const block = doc[kind];
    if (block.count > 0 && set.isAll(block.count)) {
      blocks.push({ kind, patches: [], removed: [], appended: [], replaced: { before: block, after: kind === 'ik' ? EMPTY_IK : emptyBlock(kind) } });
      continue;
    }
    const ed = new BlockEditor(block);
    set.forEach((r) => {
      if (r < block.count) ed.remove(r);
    });
    blocks.push(ed.diff());
  }
  const diff: EditDiff = { label, blocks };
  return success({ doc: applyDiff(doc, diff), diff });
}

/** Where a new key goes: a bone or morph track by index, or the camera / light / self-shadow / display·IK track. */
/**
 * A track a key is registered on. The display/IK row's `iks`: the IK bones of the model shown, where one is known,
 * which a new key there lists besides those of the key in force (ik.ts ikRecordAt).
 */
export type TrackTarget = { kind: 'bone' | 'morph'; track: number } | { kind: 'camera' } | { kind: 'light' } | { kind: 'shadow' } | { kind: 'ik'; iks?: readonly string[] };

/**
 * Inserts a key at `frame` holding the pose the motion has there (so playback does not change at that
 * frame). Its interpolation is copied from the next key of the track (the segment it splits), or the
 * previous one, or MMD's linear default. A light key holds the light sampled there (linear between keys, as
 * the preview shows it; MMD's defaults on an empty track). A display/IK key holds the state in force there (ik.ts); a
 * self-shadow key (a step, no curves) the mode and distance of the key in force there (before the first
 * key: the first key's), or MMD's panel defaults (SHADOW_DEFAULT) on an empty track.
 * Refused when the track already has a key at that frame. Returns the new record's index in `record`.
 */
export function insertKey(doc: VmdDocument, tracks: MotionTracks, target: TrackTarget, frame: number): EditOutcome<KeyEdit & { record: number }> {
  frame = Math.max(0, Math.round(frame));
  const t = tracksOf(tracks, target.kind);
  const [a, b] = trackRange(t, 'track' in target ? target.track : 0);
  if ('track' in target && a === b) return refuse('E_EMPTY', 'the track has no key to take a name from', 'editor.refusal.noNameKey');
  if (keyAtFrame(t.frames, a, b, frame) >= 0) return refuse('E_EXISTS', `frame ${frame} already has a key`, 'editor.refusal.existsAt', { frame });
  const ed = new BlockEditor(doc[target.kind]);
  const index = ed.append(newKeyRecord(doc, tracks, target, frame));
  return success(Object.assign(finish(doc, 'register key', [ed]), { record: index }));
}

/**
 * The record insertKey adds at `frame` (whether or not the track has a key there): the pose the motion has at that
 * frame, with the curves of the segment it splits. A bone or morph track must have a key.
 */
export function newKeyRecord(doc: VmdDocument, tracks: MotionTracks, target: TrackTarget, frame: number): Uint8Array {
  frame = Math.max(0, Math.round(frame));
  const kind = target.kind;
  const t = tracksOf(tracks, kind);
  const track = 'track' in target ? target.track : 0;
  const [a, b] = trackRange(t, track);
  const next = lowerBound(t.frames, a, b, frame);
  const neighbour = next < b ? next : b > a ? b - 1 : -1;
  if (target.kind === 'ik') return ikRecordAt(doc, tracks, frame, target.iks);
  if (kind === 'bone') return sampledBoneRecord(doc, tracks, track, frame);
  if (kind === 'morph') return sampledMorphRecord(doc, tracks, track, frame);
  if (kind === 'camera') {
    const block = doc.camera;
    const pose = sampleCamera(tracks.camera, frame);
    let ip = defaultCameraInterpolation();
    if (neighbour >= 0) {
      const o = tracks.camera.record[neighbour] * block.size + CAMERA.INTERPOLATION;
      ip = block.bytes.slice(o, o + CAMERA.INTERPOLATION_LENGTH);
    }
    return encodeCameraRecord({
      frame,
      distance: pose?.distance ?? -45,
      target: pose?.target ?? [0, 10, 0],
      rotation: pose?.rotation ?? [0, 0, 0],
      fov: pose?.fov ?? 30,
      perspective: pose?.perspective ?? 0,
      interpolation: ip,
    });
  }
  if (kind === 'shadow') {
    const s = tracks.shadow;
    const { mode, distance } = s.frames.length ? shadowKey(doc.shadow, s.record[keyInForce(s.frames, frame)]) : SHADOW_DEFAULT;
    return encodeShadowRecord({ frame, mode, distance });
  }
  // The light as the preview shows it there (linear between keys, as MMD's 照明 → 登録 stores it), else MMD's defaults.
  const light = sampleLight(tracks.light, frame);
  return encodeLightRecord({ frame, color: light?.color ?? [0.602, 0.602, 0.602], direction: light?.direction ?? [-0.5, -1, 0.5] });
}

/**
 * The key in force at `frame` on the self-shadow track (a step): the last key before it, or
 * before the first key the first one. `frames` must not be empty.
 */
function keyInForce(frames: Uint32Array, frame: number): number {
  return Math.max(0, lowerBound(frames, 0, frames.length, frame) - 1);
}

/**
 * A bone record for track `track` at `frame` holding the interpolated pose there (what playback
 * shows), with the track's raw name bytes and the curves of the segment it splits (the next key,
 * else the previous one, else MMD's linear default). The track must have a key.
 */
export function sampledBoneRecord(doc: VmdDocument, tracks: MotionTracks, track: number, frame: number): Uint8Array {
  const bones = tracks.bones, block = doc.bone, size = block.size;
  const [a, b] = trackRange(bones, track);
  const next = lowerBound(bones.frames, a, b, frame);
  const neighbour = next < b ? next : b > a ? b - 1 : -1;
  const rec = new Uint8Array(BONE.SIZE);
  const from = bones.record[a] * size;
  rec.set(block.bytes.subarray(from, from + BONE.NAME_LENGTH)); // raw name bytes, padding included
  const pos = new Float64Array(3), rot = new Float64Array(4);
  sampleBoneInto(bones, track, frame, pos, rot, 0);
  const v = viewOf(rec);
  v.setUint32(BONE.FRAME, frame, true);
  // + 0: a zero is written +0, as MMD writes it (an interpolation may give −0).
  for (let c = 0; c < 3; c++) v.setFloat32(BONE.POSITION + 4 * c, pos[c] + 0, true);
  for (let c = 0; c < 4; c++) v.setFloat32(BONE.ROTATION + 4 * c, rot[c] + 0, true);
  if (neighbour >= 0) {
    const o = bones.record[neighbour] * size + BONE.INTERPOLATION;
    rec.set(block.bytes.subarray(o, o + BONE.INTERPOLATION_LENGTH), BONE.INTERPOLATION);
  } else rec.set(defaultBoneInterpolation(), BONE.INTERPOLATION);
  return rec;
}

/**
 * A morph record for track `track` at `frame` holding the interpolated weight there, with the track's raw
 * name bytes. The track must have a key.
 */
export function sampledMorphRecord(doc: VmdDocument, tracks: MotionTracks, track: number, frame: number): Uint8Array {
  const morphs = tracks.morphs, block = doc.morph;
  const [a] = trackRange(morphs, track);
  const rec = new Uint8Array(MORPH.SIZE);
  const from = morphs.record[a] * block.size;
  rec.set(block.bytes.subarray(from, from + MORPH.NAME_LENGTH));
  const v = viewOf(rec);
  v.setUint32(MORPH.FRAME, frame, true);
  v.setFloat32(MORPH.WEIGHT, sampleMorph(morphs, track, frame) + 0, true);
  return rec;
}

/** Copied keys: raw records with their frame relative to the earliest copied key. */
export interface KeyClipboard {
  readonly items: readonly { readonly kind: EditKind; readonly offset: number; readonly bytes: Uint8Array }[];
}

export function copyKeys(doc: VmdDocument, refs: readonly KeyRef[]): KeyClipboard {
  const items: { kind: EditKind; frame: number; bytes: Uint8Array }[] = [];
  for (const r of refs) {
    const block = doc[r.kind];
    if (r.record >= block.count) continue;
    const bytes = recordBytes(block, r.record).slice();
    items.push({ kind: r.kind, frame: recordFrame(r.kind, bytes), bytes });
  }
  const min = items.reduce((m, it) => Math.min(m, it.frame), Infinity);
  return { items: items.map((it) => ({ kind: it.kind, offset: it.frame - min, bytes: it.bytes })) };
}

/** Track index of a copied record in the target tracks (by decoded name), or −1; 0 for camera/light/self-shadow/IK. */
function trackForRecord(tracks: MotionTracks, kind: EditKind, bytes: Uint8Array): number {
  if (kind === 'camera' || kind === 'light' || kind === 'shadow' || kind === 'ik') return tracksOf(tracks, kind).frames.length ? 0 : -1;
  const named = kind === 'bone' ? tracks.bones : tracks.morphs;
  return named.index.get(decodeName(bytes, 0, 15)) ?? -1;
}

/**
 * Pastes copied keys with the earliest at `frame`. A key landing where its track already has a key
 * overwrites that record in place; others are appended. Returns the records now holding pasted keys.
 */
export function pasteKeys(doc: VmdDocument, tracks: MotionTracks, clip: KeyClipboard, frame: number): EditOutcome<KeyEdit & { records: KeyRef[] }> {
  if (clip.items.length === 0) return refuse('E_EMPTY', 'nothing copied', 'editor.refusal.nothingCopied');
  return pasteAt(doc, tracks, clip, [Math.max(0, Math.round(frame))], 'paste keys');
}

/** What Paste repeatedly… would do: the pastes, the keys written, the first and last frame they land on. */
export interface RepeatPastePlan {
  pastes: number;
  keys: number;
  first: number;
  last: number;
  /** The copied keys' span in frames (last offset + 1): `every` below it would paste a copy over the one before. */
  span: number;
}

/** The plan of pasting `clip` `times` times, every `every` frames from `from` (no check of the numbers). */
export function repeatPastePlan(clip: KeyClipboard, from: number, times: number, every: number): RepeatPastePlan {
  const slots = new Set<string>();
  let span = 0;
  for (const it of clip.items) {
    slots.add(slotKey(it.kind, it.bytes, it.offset));
    span = Math.max(span, it.offset + 1);
  }
  from = Math.max(0, Math.round(from));
  return { pastes: times, keys: slots.size * times, first: from, last: from + (times - 1) * every + span - 1, span };
}

/**
 * Paste repeatedly… (a blink every 3 s): the copied keys pasted `times` times, the earliest at `from`, then every
 * `every` frames, as one undo step; each paste does what a paste does (a key landing on a keyed frame of its track
 * replaces that key). `every` must be at least the copied span, so no copy lands over the one before.
 */
export function pasteKeysRepeatedly(doc: VmdDocument, tracks: MotionTracks, clip: KeyClipboard, from: number, times: number, every: number): EditOutcome<KeyEdit & { records: KeyRef[] }> {
  if (clip.items.length === 0) return refuse('E_EMPTY', 'nothing copied', 'editor.refusal.nothingCopied');
  const plan = repeatPastePlan(clip, from, times, every);
  if (!Number.isInteger(times) || times < 1) return refuse('E_RANGE', `paste count ${times} is not a whole number of at least 1`, 'paste.refusal.times', { times });
  if (!Number.isInteger(every) || every < plan.span) return refuse('E_RANGE', `every ${every} frames is shorter than the copied keys (${plan.span} frames)`, 'paste.refusal.every', { every, span: plan.span });
  if (plan.last > MAX_REPEAT_FRAME) return refuse('E_RANGE', `the last paste would end at frame ${plan.last}, past ${MAX_REPEAT_FRAME}`, 'paste.refusal.tooFar', { last: plan.last, max: MAX_REPEAT_FRAME });
  return pasteAt(doc, tracks, clip, Array.from({ length: times }, (_, i) => plan.first + i * every), 'paste keys repeatedly');
}

/** The last frame Paste repeatedly… writes to: a day at 30 fps, far past any song, well inside a VMD frame's 32 bits. */
export const MAX_REPEAT_FRAME = 30 * 60 * 60 * 24;

/** A copied key's slot: its kind, name (bones, morphs) and frame offset. */
function slotKey(kind: EditKind, bytes: Uint8Array, at: number): string {
  return kind + ':' + (kind === 'bone' || kind === 'morph' ? decodeName(bytes, 0, 15) : '') + ':' + at;
}

/** Pastes `clip` with its earliest key at each of `frames` (ascending, copies not overlapping), as one edit. */
function pasteAt(doc: VmdDocument, tracks: MotionTracks, clip: KeyClipboard, frames: readonly number[], label: string): EditOutcome<KeyEdit & { records: KeyRef[] }> {
  const editors = new Map<EditKind, BlockEditor>();
  const placed: { kind: EditKind; record: number }[] = [];
  const seen = new Set<string>();
  for (const frame of frames) for (const it of clip.items) {
    let ed = editors.get(it.kind);
    if (!ed) editors.set(it.kind, (ed = new BlockEditor(doc[it.kind])));
    const rec = it.bytes.slice();
    const to = frame + it.offset;
    setRecordFrame(it.kind, rec, to);
    const nameKey = slotKey(it.kind, rec, to);
    if (seen.has(nameKey)) continue; // two copied keys on one slot: the first wins, as on load
    seen.add(nameKey);
    const t = tracksOf(tracks, it.kind);
    const track = trackForRecord(tracks, it.kind, rec);
    let existing = -1;
    if (track >= 0) {
      const [a, b] = trackRange(t, track);
      const k = keyAtFrame(t.frames, a, b, to);
      if (k >= 0) existing = t.record[k];
    }
    if (existing >= 0) {
      ed.put(existing, rec);
      placed.push({ kind: it.kind, record: existing });
    } else placed.push({ kind: it.kind, record: -1 - ed.append(rec) });
  }
  const eds = [...editors.values()];
  const result = finish(doc, label, eds);
  // Appended records' final indices: after the block's own (removals: none here).
  const records = placed.map((p) => (p.record >= 0 ? p : { kind: p.kind, record: -1 - p.record }));
  return success(Object.assign(result, { records }));
}

/** Frame of a record, read from the document. */
export function frameOfRef(doc: VmdDocument, ref: KeyRef): number {
  return frameOf(doc[ref.kind], ref.record);
}
