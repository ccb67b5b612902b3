/**
 * Mirror the whole motion as an editor step (issue 31): the same edit as shared/motion-ops/mirror.ts
 * (左↔右 in names, position X, rotation Y and Z, camera target X and angles Y and Z, light direction X),
 * with the same bytes and the same report, but made in steps the editor runs between frames, and kept
 * in the history as a diff that holds no bytes: each changed block is marked `mirrored` (BlockDiff), and
 * since the rule is its own inverse, undo and redo mirror the block again. The tracks after it are the
 * old ones with names re-read and signs flipped (no buildTracks over 600,000 keys).
 */
import { finishReport, newReport, type EditReport } from '../edit-core/report';
import { ikMirror, ikNamesOf, ikSwaps, mirrorChangesValues, mirrorFor, mirrorRecordsInto, morphMirrorFor, morphSwaps, nameScanner, oneSidedBones, wholeBoneMirror } from '../motion-ops/mirror';
import { decodeName } from '../vmd/sjis';
import type { BoneTracks, CameraTrack, LightTrack, MorphTracks, MotionTracks, NamedTracks } from '../vmd/tracks';
import { fixedBlock, ikBlock, withBlocks, type Block, type FixedBlock, type VmdDocument } from '../vmd/vmd-document';
import { BONE, IK, MORPH, type BlockKind } from '../vmd/vmd-layout';
import type { NameMirror } from '../motion-ops/mirror';
import type { BlockDiff, EditDiff } from './diff';
import type { Steps } from './steps';

/** Records a step mirrors (or scans) before it yields: about a millisecond of work. */
const STEP_RECORDS = 1 << 14;
/** Keys a step of the tracks' update handles before it yields. */
const STEP_KEYS = 1 << 16;

/** The result of mirrorDiffSteps: the step's diff and the report mirror() gives for the same document. */
export interface MirrorStep {
  readonly diff: EditDiff;
  readonly report: EditReport;
}

/**
 * The diff of Mirror on `doc` (light: also the light direction, default true; the model's morph and bone
 * names where one is shown), in steps: the names are scanned to count what the report counts and to leave
 * out blocks nothing would change (so the diff names the blocks whose bytes differ, as diffDocuments of
 * mirror()'s result does). The name rules are chosen here once and kept in the diff for undo and redo.
 * Nothing is copied here.
 */
export function* mirrorDiffSteps(doc: VmdDocument, opts: { light?: boolean; modelMorphs?: Iterable<string>; modelBones?: Iterable<string> }, label: string): Steps<MirrorStep> {
  const report = newReport('mirror');
  const light = opts.light ?? true;
  const total = doc.bone.count + doc.morph.count + doc.ik.count + 1;
  let done = 0, namesSwapped = 0;
  const blocks: BlockDiff[] = [];
  const mark = (kind: BlockKind, nameMirror?: NameMirror) => blocks.push({ kind, patches: [], removed: [], appended: [], mirrored: true, ...(nameMirror ? { nameMirror } : {}) });
  const modelBones = [...(opts.modelBones ?? [])];

  // Bones: a record changes where its name is renamed or a value it negates is not an exact zero; count the
  // names the bone rule renames (左/右, Left/Right …), the rule chosen from the names gathered first.
  const bone = doc.bone;
  const scanner = nameScanner(bone);
  for (let i = 0; i < bone.count; ) {
    const end = Math.min(bone.count, i + STEP_RECORDS);
    scanner.scan(i, end);
    i = end;
    yield 0;
  }
  // With a model, a bone whose other side it lacks keeps its keys as they are (wholeBoneMirror).
  const bm = wholeBoneMirror(scanner.names, modelBones);
  let bonesChanged = 0;
  for (let i = 0; i < bone.count; ) {
    const end = Math.min(bone.count, i + STEP_RECORDS);
    for (; i < end; i++) {
      const o = i * BONE.SIZE;
      if (bm.oneSided?.(bone.bytes, o + BONE.NAME)) continue;
      const renamed = bm.changes(bone.bytes, o + BONE.NAME);
      if (renamed) namesSwapped++;
      if (renamed || mirrorChangesValues('bone', bone.bytes, o)) bonesChanged++;
    }
    done += STEP_RECORDS;
    yield Math.min(1, done / total);
  }
  report.byKind.bone.kept = bone.count;
  report.byKind.bone.changed = bonesChanged;
  const oneSided = oneSidedBones(bone, bm);
  if (oneSided.length) report.oneSidedBones = oneSided;
  if (bonesChanged) mark('bone', bm);

  // Morphs: only names change, by the rule chosen here once (the diff keeps it for undo and redo).
  const morph = doc.morph;
  const morphMirror = morphMirrorFor(morph, opts.modelMorphs);
  const swaps = morphSwaps(morph, morphMirror);
  done += morph.count;
  yield Math.min(1, done / total);
  const morphsChanged = swaps.changed;
  namesSwapped += morphsChanged;
  report.byKind.morph.kept = morph.count;
  report.byKind.morph.changed = morphsChanged;
  if (swaps.names.length) report.morphsSwapped = swaps.names;
  if (morphsChanged) mark('morph', morphMirror);

  // Cameras and lights: the keys whose negated values are not all exact zeros (those keep their bytes).
  const valuesChanged = (block: FixedBlock) => {
    let n = 0;
    for (let i = 0; i < block.count; i++) if (mirrorChangesValues(block.kind, block.bytes, i * block.size)) n++;
    return n;
  };
  report.byKind.camera.kept = doc.camera.count;
  report.byKind.camera.changed = valuesChanged(doc.camera);
  if (report.byKind.camera.changed) mark('camera');

  report.byKind.light.kept = doc.light.count;
  if (light) {
    report.byKind.light.changed = valuesChanged(doc.light);
    if (report.byKind.light.changed) mark('light');
  }

  // IK (display) keys: each IK bone name.
  const ik = doc.ik;
  const im = ikMirror(ikNamesOf(ik), modelBones);
  let iksChanged = 0;
  for (let i = 0; i < ik.count; i++) {
    const o = ik.offsets[i];
    const n = ik.view.getUint32(o + IK.COUNT, true);
    let swapped = 0;
    for (let j = 0; j < n; j++) if (im.changes(ik.bytes, o + IK.HEADER + j * IK.ITEM)) swapped++;
    namesSwapped += swapped;
    if (swapped) iksChanged++;
  }
  report.byKind.ik.kept = ik.count;
  report.byKind.ik.changed = iksChanged;
  const ikNames = ikSwaps(ik, im);
  if (ikNames.length) report.iksSwapped = ikNames;
  if (iksChanged) mark('ik', im);

  report.byKind.shadow.kept = doc.shadow.count;
  report.extra.namesSwapped = namesSwapped;
  return { diff: { label, blocks }, report: finishReport(report) };
}

/** True when every block of the diff is mirrored and nothing else (a Mirror step). */
export function isMirrorOnly(diff: EditDiff): boolean {
  return !diff.head && diff.blocks.length > 0 && diff.blocks.every((b) => b.mirrored && !b.replaced && !b.shifted && !b.fields && !b.patches.length && !b.removed.length && !b.appended.length);
}

/** Records a Mirror step rewrites in `doc` (how big its sliced application is). */
export function mirroredCount(doc: VmdDocument, diff: EditDiff): number {
  let n = 0;
  for (const b of diff.blocks) if (b.mirrored) n += doc[b.kind].count;
  return n;
}

/**
 * A mirror-only diff applied to (or reverted from: the same thing) `doc`, in steps of STEP_RECORDS
 * records: each block is copied and its records mirrored a range at a time. The bytes are applyDiff's.
 */
export function* mirrorDocSteps(doc: VmdDocument, diff: EditDiff): Steps<VmdDocument> {
  const total = Math.max(1, mirroredCount(doc, diff));
  let done = 0;
  const blocks: Partial<Record<BlockKind, Block>> = {};
  for (const b of diff.blocks) {
    const src = blocks[b.kind] ?? doc[b.kind];
    const bytes = new Uint8Array(src.bytes.length);
    // Without the diff's name rule (an older diff), the block's own names decide, once for all slices.
    const names = b.nameMirror ?? mirrorFor(src);
    for (let i = 0; i < src.count; ) {
      const end = Math.min(src.count, i + STEP_RECORDS);
      const from = src.kind === 'ik' ? src.offsets[i] : i * src.size;
      const to = src.kind === 'ik' ? src.offsets[end] : end * src.size;
      bytes.set(src.bytes.subarray(from, to), from);
      mirrorRecordsInto(src, bytes, i, end, names);
      done += end - i;
      i = end;
      yield done / total;
    }
    blocks[b.kind] = src.kind === 'ik' ? ikBlock(bytes, src.offsets) : fixedBlock(src.kind, bytes);
  }
  return withBlocks(doc, blocks);
}

/**
 * A copy of `a` with the sign bit of every `stride`-th float from each of `at` flipped, in steps; an exact
 * zero keeps its sign, as the records' negate leaves it (shared/motion-ops/mirror.ts). Keys k with `keep[k]`
 * set stay as they are (a one-sided bone's, which the mirror leaves alone).
 */
function* flipped(a: Float32Array, stride: number, at: readonly number[], keep?: Uint8Array): Steps<Float32Array> {
  const out = a.slice();
  const bits = new Uint32Array(out.buffer, out.byteOffset, out.length);
  const n = out.length / stride;
  for (let k = 0; k < n; ) {
    const end = Math.min(n, k + STEP_KEYS);
    for (; k < end; k++) {
      if (keep?.[k]) continue;
      for (const c of at) {
        const i = stride * k + c;
        if (bits[i] & 0x7fffffff) bits[i] ^= 0x80000000;
      }
    }
    yield k / Math.max(1, n);
  }
  return out;
}

/**
 * Names of named tracks after a mirror, read from the mirrored block (`doc`): each track's name is its first
 * key's record's name decoded, as buildTracks decodes it. Null when two tracks would share a name (the
 * caller rebuilds).
 */
function mirroredNames(t: NamedTracks, block: FixedBlock, nameAt: number, nameLength: number): { names: string[]; index: Map<string, number> } | null {
  const names: string[] = [];
  const index = new Map<string, number>();
  for (let tr = 0; tr + 1 < t.start.length; tr++) {
    if (t.start[tr + 1] === t.start[tr]) return null;
    const name = decodeName(block.bytes, t.record[t.start[tr]] * block.size + nameAt, nameLength);
    if (index.has(name)) return null;
    index.set(name, tr);
    names.push(name);
  }
  return { names, index };
}

/**
 * The keys of the bone tracks the rule `names` leaves as they are (one-sided bones of the model: wholeBoneMirror),
 * marked per key, judged by each track's name in `block` (a kept name is the same before and after); undefined
 * when none is.
 */
function oneSidedKeys(t: BoneTracks, block: FixedBlock, names?: NameMirror): Uint8Array | undefined {
  if (!names?.oneSided) return undefined;
  let keep: Uint8Array | undefined;
  for (let tr = 0; tr + 1 < t.start.length; tr++) {
    const a = t.start[tr], b = t.start[tr + 1];
    if (a === b || !names.oneSided(block.bytes, t.record[a] * block.size + BONE.NAME)) continue;
    keep ??= new Uint8Array(t.position.length / 3);
    keep.fill(1, a, b);
  }
  return keep;
}

/**
 * The tracks after a mirror-only diff (or its undo), in steps, without touching `tracks`: the keys keep
 * their tracks and order (the name swap is one-to-one), so only the names are re-read from `doc` (the
 * document after the step) and the mirrored values' signs flipped, bit for bit as buildTracks reads them.
 * Null when the diff is not mirror-only or a name would collide (the caller then rebuilds).
 */
export function* mirrorTracksSteps(tracks: MotionTracks, doc: VmdDocument, diff: EditDiff): Steps<MotionTracks | null> {
  if (!isMirrorOnly(diff)) return null;
  let out: MotionTracks = tracks;
  for (const b of diff.blocks) {
    switch (b.kind) {
      case 'bone': {
        const named = mirroredNames(tracks.bones, doc.bone, BONE.NAME, BONE.NAME_LENGTH);
        if (!named) return null;
        yield 0;
        const keep = oneSidedKeys(tracks.bones, doc.bone, b.nameMirror);
        const position = yield* flipped(tracks.bones.position, 3, [0], keep);
        const rotation = yield* flipped(tracks.bones.rotation, 4, [1, 2], keep);
        const bones: BoneTracks = { ...tracks.bones, ...named, position, rotation };
        out = { ...out, bones };
        break;
      }
      case 'morph': {
        const named = mirroredNames(tracks.morphs, doc.morph, MORPH.NAME, MORPH.NAME_LENGTH);
        if (!named) return null;
        const morphs: MorphTracks = { ...tracks.morphs, ...named };
        out = { ...out, morphs };
        break;
      }
      case 'camera': {
        const target = yield* flipped(tracks.camera.target, 3, [0]);
        const rotation = yield* flipped(tracks.camera.rotation, 3, [1, 2]);
        const camera: CameraTrack = { ...tracks.camera, target, rotation };
        out = { ...out, camera };
        break;
      }
      case 'light': {
        const direction = yield* flipped(tracks.light.direction, 3, [0]);
        const light: LightTrack = { ...tracks.light, direction };
        out = { ...out, light };
        break;
      }
      // IK keys' names are not in the tracks (frames and records only); shadow keys are never mirrored.
      default:
        break;
    }
  }
  return out;
}
