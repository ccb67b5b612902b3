/**
 * Mirror paste (MMD's 反転貼り付け) and its two common variants, with the whole-motion mirror's rule
 * (shared/motion-ops/mirror.ts, one record at a time): 左/右 swapped in the names, bone position X
 * negated, rotation (x, y, z, w) → (x, −y, −z, w), camera target X and yaw/roll negated, light X.
 *
 * - `mirrorPasteKeys(…, 'all')`: every copied key, mirrored, pasted with the earliest at `frame`
 *   (a centre bone such as センター lands on itself with its X mirrored).
 * Morph names follow the whole-motion mirror's morph rule (morphMirror: ウィンク ⇄ ウィンク右 on models that
 * name the left wink without a side), judged on the motion's and the copied names and the model's.
 * - `mirrorPasteKeys(…, 'otherSide')`: only the copied keys whose name has a side (左/右), so copying
 *   the left arm and pasting writes the right arm and leaves every centre bone alone.
 * - `mirrorPoseAt`: the pose at one frame mirrored in place — each bone in scope takes the mirror of
 *   its counterpart's pose there (a key at that frame mirrored byte for byte, else the interpolated
 *   pose; a counterpart without a track gives the rest pose), all read before anything is written.
 */
import { mirrorRecord, morphMirror, morphNamesOf, swapLeftRight, type MorphMirror } from '../motion-ops/mirror';
import { decodeName } from '../vmd/sjis';
import { recordBytes, viewOf, type VmdDocument } from '../vmd/vmd-document';
import { BONE, MORPH } from '../vmd/vmd-layout';
import type { MotionTracks } from '../vmd/tracks';
import { success } from '../vmd/errors';
import type { EditOutcome, KeyEdit } from './diff';
import { refuse } from './diff';
import { keyAtFrame, trackRange, type KeyRef } from './key-ref';
import { pasteKeys, sampledBoneRecord, type KeyClipboard } from './keys';

export type MirrorPasteMode = 'all' | 'otherSide';

/** Whether a name field (up to its NUL) holds 左 or 右, judged by the same byte walk as the swap. */
function hasSide(bytes: Uint8Array, start: number, length: number): boolean {
  return swapLeftRight(bytes.slice(start, start + length), 0, length);
}

/**
 * The clipboard with every key mirrored (a new clipboard; the original is untouched). In 'otherSide'
 * mode only bone and morph keys whose name has a side are kept.
 */
export function mirrorClipboard(clip: KeyClipboard, mode: MirrorPasteMode = 'all', morphs?: MorphMirror): KeyClipboard {
  const items: KeyClipboard['items'][number][] = [];
  morphs ??= morphMirror(clip.items.filter((it) => it.kind === 'morph').map((it) => decodeName(it.bytes, MORPH.NAME, MORPH.NAME_LENGTH)));
  for (const it of clip.items) {
    const sided = it.kind === 'bone' ? hasSide(it.bytes, BONE.NAME, BONE.NAME_LENGTH) : it.kind === 'morph' && morphs.changes(it.bytes, MORPH.NAME);
    if (mode === 'otherSide' && !sided) continue;
    const bytes = it.bytes.slice();
    mirrorRecord(it.kind, bytes, morphs);
    items.push({ kind: it.kind, offset: it.offset, bytes });
  }
  // Offsets stay relative to the earliest copied key, so a filtered clipboard keeps its timing.
  return { items };
}

function relabel<T extends KeyEdit>(out: EditOutcome<T>, label: string): EditOutcome<T> {
  return out.ok ? success({ ...out.value, diff: { ...out.value.diff, label } }) : out;
}

/**
 * Pastes the mirrored clipboard with its earliest key at `frame` (overwriting keys already there). Morph
 * names pair by the motion's morph names, the copied ones and `modelMorphs` (the model's, where known).
 */
export function mirrorPasteKeys(
  doc: VmdDocument, tracks: MotionTracks, clip: KeyClipboard, frame: number, mode: MirrorPasteMode = 'all', modelMorphs: Iterable<string> = [],
): EditOutcome<KeyEdit & { records: KeyRef[] }> {
  if (clip.items.length === 0) return refuse('E_EMPTY', 'nothing copied', 'editor.refusal.nothingCopied');
  const copied = clip.items.filter((it) => it.kind === 'morph').map((it) => decodeName(it.bytes, MORPH.NAME, MORPH.NAME_LENGTH));
  const mirrored = mirrorClipboard(clip, mode, morphMirror([...morphNamesOf(doc.morph), ...copied, ...modelMorphs]));
  if (mirrored.items.length === 0) return refuse('E_EMPTY', 'no copied key is on a left or right bone', 'editor.refusal.noSidedKey');
  return relabel(pasteKeys(doc, tracks, mirrored, frame), mode === 'all' ? 'mirror paste' : 'paste on the other side');
}

/**
 * Mirrors the pose at `frame` in place. `scope`: bone track indices whose pose is mirrored (with
 * their counterparts, which take the mirror of these); all bone tracks when omitted.
 */
export function mirrorPoseAt(doc: VmdDocument, tracks: MotionTracks, frame: number, scope?: readonly number[]): EditOutcome<KeyEdit & { records: KeyRef[] }> {
  frame = Math.max(0, Math.round(frame));
  const bones = tracks.bones;
  const names = new Set<string>();
  const wanted = scope ?? bones.names.map((_, i) => i);
  /** The pose record of track i at the frame: its key there (raw), else the interpolated pose. */
  const poseOf = (i: number): Uint8Array => {
    const [a, b] = trackRange(bones, i);
    const k = keyAtFrame(bones.frames, a, b, frame);
    if (k >= 0) return recordBytes(doc.bone, bones.record[k]).slice();
    return sampledBoneRecord(doc, tracks, i, frame);
  };
  const sources: Uint8Array[] = [];
  const take = (i: number) => {
    const name = bones.names[i];
    if (names.has(name)) return;
    names.add(name);
    sources.push(poseOf(i));
  };
  for (const i of wanted) {
    if (i < 0 || i >= bones.names.length) continue;
    take(i);
    const rec = poseOf(i);
    swapLeftRight(rec, BONE.NAME, BONE.NAME_LENGTH);
    const other = decodeName(rec, 0, BONE.NAME_LENGTH);
    if (other === bones.names[i]) continue; // a centre bone is its own counterpart
    const j = bones.index.get(other);
    if (j !== undefined) take(j);
    else if (!names.has(other)) {
      // The counterpart has no track, so it rests: this side gets the mirror of the rest pose.
      names.add(other);
      const v = viewOf(rec);
      for (let c = 0; c < 3; c++) v.setFloat32(BONE.POSITION + 4 * c, 0, true);
      for (let c = 0; c < 4; c++) v.setFloat32(BONE.ROTATION + 4 * c, c === 3 ? 1 : 0, true);
      sources.push(rec);
    }
  }
  if (sources.length === 0) return refuse('E_EMPTY', 'no bone to mirror', 'editor.refusal.noBoneToMirror');
  // Every source is read above; the paste writes them all at once, so swapped sides do not mix.
  const clip: KeyClipboard = { items: sources.map((bytes) => ({ kind: 'bone' as const, offset: 0, bytes })) };
  return relabel(pasteKeys(doc, tracks, mirrorClipboard(clip), frame), 'mirror pose');
}
