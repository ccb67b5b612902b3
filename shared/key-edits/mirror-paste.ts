/**
 * Mirror paste (MMD's 反転貼り付け) and its two common variants, with the whole-motion mirror's rule
 * (shared/motion-ops/mirror.ts, one record at a time): 左/右 swapped in the names, bone position X
 * negated, rotation (x, y, z, w) → (x, −y, −z, w), camera target X and yaw/roll negated, light X.
 *
 * - `mirrorPasteKeys(…, 'all')`: every copied key, mirrored, pasted with the earliest at `frame`
 *   (a centre bone such as センター lands on itself with its X mirrored).
 * Morph names follow the whole-motion mirror's morph rule (morphMirror: ウィンク ⇄ ウィンク右 on models that
 * name the left wink without a side), judged on the motion's and the copied names and the model's; bone,
 * morph and IK names in Latin letters pair as the whole-motion mirror pairs them (eyeBlinkLeft, arm_L).
 * - `mirrorPasteKeys(…, 'otherSide')`: only the copied keys whose name has a side (左/右, Left/Right …), so copying
 *   the left arm and pasting writes the right arm and leaves every centre bone alone.
 * - `mirrorPoseAt`: the pose at one frame mirrored in place — each bone in scope takes the mirror of
 *   its counterpart's pose there (a key at that frame mirrored byte for byte, else the interpolated
 *   pose; a counterpart without a track gives the rest pose), all read before anything is written.
 *
 * With the model known, MMD's rule: only a bone whose counterpart the model has is mirrored. A one-sided bone
 * (Gene's 右肩連, 右横髪1_1: a cape and hair on one side on purpose; in Latin letters, cape_L without cape_R) is
 * left as it is, neither reset to rest nor written onto a bone the model lacks, nor mirrored in place as a centre
 * bone, and a mirror paste writes no key for a bone or morph the model lacks.
 */
import { boneMirror, ikMirror, ikNamesOf, mirrorRecord, morphMirror, morphNamesOf, namesOf, wholeBoneMirror, type NameMirror } from '../motion-ops/mirror';
import { decodeName } from '../vmd/sjis';
import { ikBlock } from '../vmd/vmd-document';
import { recordBytes, viewOf, type VmdDocument } from '../vmd/vmd-document';
import { BONE, MORPH } from '../vmd/vmd-layout';
import type { EditKind } from './key-ref';
import type { MotionTracks } from '../vmd/tracks';
import { success } from '../vmd/errors';
import type { EditOutcome, KeyEdit } from './diff';
import { refuse } from './diff';
import { keyAtFrame, trackRange, type KeyRef } from './key-ref';
import { pasteKeys, sampledBoneRecord, type KeyClipboard } from './keys';

export type MirrorPasteMode = 'all' | 'otherSide';

/** The name rules of a mirror paste, by kind of key: those not given are made from the copied names. */
export interface ClipMirrors {
  readonly bone?: NameMirror;
  readonly morph?: NameMirror;
  readonly ik?: NameMirror;
}

/** The names of the copied keys of `kind` (bone and morph names; the bone names of display/IK keys). */
function copiedNames(clip: KeyClipboard, kind: 'bone' | 'morph' | 'ik'): string[] {
  const out: string[] = [];
  for (const it of clip.items) {
    if (it.kind !== kind) continue;
    if (kind === 'ik') out.push(...ikNamesOf(ikBlock(it.bytes, Uint32Array.of(0, it.bytes.length))));
    else out.push(kind === 'bone' ? decodeName(it.bytes, BONE.NAME, BONE.NAME_LENGTH) : decodeName(it.bytes, MORPH.NAME, MORPH.NAME_LENGTH));
  }
  return out;
}

/**
 * The clipboard with every key mirrored (a new clipboard; the original is untouched). In 'otherSide'
 * mode only bone and morph keys whose name has a side are kept.
 */
export function mirrorClipboard(clip: KeyClipboard, mode: MirrorPasteMode = 'all', names: ClipMirrors = {}): KeyClipboard {
  const items: KeyClipboard['items'][number][] = [];
  const bone = names.bone ?? boneMirror(copiedNames(clip, 'bone'));
  const morph = names.morph ?? morphMirror(copiedNames(clip, 'morph'));
  const ik = names.ik ?? ikMirror(copiedNames(clip, 'ik'));
  const rule = (kind: EditKind) => (kind === 'bone' ? bone : kind === 'morph' ? morph : kind === 'ik' ? ik : undefined);
  for (const it of clip.items) {
    const sided = it.kind === 'bone' ? bone.changes(it.bytes, BONE.NAME) : it.kind === 'morph' && morph.changes(it.bytes, MORPH.NAME);
    if (mode === 'otherSide' && !sided) continue;
    const bytes = it.bytes.slice();
    mirrorRecord(it.kind, bytes, rule(it.kind));
    items.push({ kind: it.kind, offset: it.offset, bytes });
  }
  // Offsets stay relative to the earliest copied key, so a filtered clipboard keeps its timing.
  return { items };
}

function relabel<T extends KeyEdit>(out: EditOutcome<T>, label: string): EditOutcome<T> {
  return out.ok ? success({ ...out.value, diff: { ...out.value.diff, label } }) : out;
}

/**
 * Pastes the mirrored clipboard with its earliest key at `frame` (overwriting keys already there). Names
 * pair by the motion's names, the copied ones and the model's where known (`modelMorphs`, `modelBones`).
 */
export function mirrorPasteKeys(
  doc: VmdDocument, tracks: MotionTracks, clip: KeyClipboard, frame: number, mode: MirrorPasteMode = 'all', modelMorphs: Iterable<string> = [], modelBones: Iterable<string> = [],
): EditOutcome<KeyEdit & { records: KeyRef[] }> {
  if (clip.items.length === 0) return refuse('E_EMPTY', 'nothing copied', 'editor.refusal.nothingCopied');
  const bones = [...modelBones];
  const morphs = [...modelMorphs];
  const boneNames = [...namesOf(doc.bone), ...copiedNames(clip, 'bone')];
  // A copied key of a one-sided bone (the model lacks its other side) is not pasted. A 右/左 name would be renamed
  // onto the bone the model lacks and left out below; a name in Latin letters (cape_L without cape_R) has no pair
  // and would be pasted onto itself mirrored, as a centre bone is: left out here (wholeBoneMirror's oneSided).
  const sided = bones.length ? wholeBoneMirror(boneNames, bones) : null;
  const copied = sided ? clip.items.filter((it) => !(it.kind === 'bone' && sided.oneSided?.(it.bytes, BONE.NAME))) : clip.items;
  if (copied.length === 0) return refuse('E_EMPTY', 'the model has no counterpart of the copied keys', 'editor.refusal.noCounterpartOnModel');
  const mirrored = mirrorClipboard({ items: copied }, mode, {
    bone: boneMirror(boneNames, bones),
    morph: morphMirror([...morphNamesOf(doc.morph), ...copiedNames(clip, 'morph')], morphs),
    ik: ikMirror([...ikNamesOf(doc.ik), ...copiedNames(clip, 'ik')], bones),
  });
  if (mirrored.items.length === 0) return refuse('E_EMPTY', 'no copied key is on a left or right bone', 'editor.refusal.noSidedKey');
  // A key mirrored onto a bone or morph the model lacks (the other side of a one-sided bone) is not
  // pasted: MMD's mirror leaves such a bone alone, and a track for a bone the model lacks does nothing.
  const has = { bone: new Set(bones), morph: new Set(morphs) };
  const onModel = mirrored.items.filter((it) => {
    if (it.kind !== 'bone' && it.kind !== 'morph') return true;
    const known = has[it.kind];
    return known.size === 0 || known.has(it.kind === 'bone' ? decodeName(it.bytes, BONE.NAME, BONE.NAME_LENGTH) : decodeName(it.bytes, MORPH.NAME, MORPH.NAME_LENGTH));
  });
  if (onModel.length === 0) return refuse('E_EMPTY', 'the model has no counterpart of the copied keys', 'editor.refusal.noCounterpartOnModel');
  return relabel(pasteKeys(doc, tracks, { items: onModel }, frame), mode === 'all' ? 'mirror paste' : 'paste on the other side');
}

/**
 * Mirrors the pose at `frame` in place. `scope`: bone track indices whose pose is mirrored (with
 * their counterparts, which take the mirror of these); all bone tracks when omitted. Counterparts by the
 * bone-name rule (左/右, names in Latin letters as the model's bone names `modelBones` pair them).
 */
export function mirrorPoseAt(
  doc: VmdDocument, tracks: MotionTracks, frame: number, scope?: readonly number[], modelBones: Iterable<string> = [],
): EditOutcome<KeyEdit & { records: KeyRef[] }> {
  frame = Math.max(0, Math.round(frame));
  const bones = tracks.bones;
  const model = new Set(modelBones);
  const bm = boneMirror(bones.names, model);
  // One-sided bones of the model, 右/左 names and names in Latin letters alike (wholeBoneMirror): left as they are.
  const sided = model.size ? wholeBoneMirror(bones.names, model) : null;
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
  let skipped = false;
  const take = (i: number) => {
    const name = bones.names[i];
    if (names.has(name)) return;
    names.add(name);
    sources.push(poseOf(i));
  };
  for (const i of wanted) {
    if (i < 0 || i >= bones.names.length) continue;
    const rec = poseOf(i);
    if (sided?.oneSided?.(rec, BONE.NAME)) {
      skipped = true;
      continue;
    }
    bm.apply(rec, BONE.NAME);
    const other = decodeName(rec, 0, BONE.NAME_LENGTH);
    // With the model known, a bone it lacks, or one whose counterpart it lacks, is left as it is (MMD's rule).
    if (model.size && (!model.has(bones.names[i]) || !model.has(other))) {
      skipped = true;
      continue;
    }
    take(i);
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
  if (sources.length === 0) {
    if (skipped) return refuse('E_EMPTY', 'the model has no counterpart of these bones', 'editor.refusal.noCounterpartOnModel');
    return refuse('E_EMPTY', 'no bone to mirror', 'editor.refusal.noBoneToMirror');
  }
  // Every source is read above; the paste writes them all at once, so swapped sides do not mix.
  const clip: KeyClipboard = { items: sources.map((bytes) => ({ kind: 'bone' as const, offset: 0, bytes })) };
  return relabel(pasteKeys(doc, tracks, mirrorClipboard(clip, 'all', { bone: bm }), frame), 'mirror pose');
}
