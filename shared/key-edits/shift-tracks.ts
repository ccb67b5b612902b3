/**
 * Incremental track update for moves in time. A move (BlockDiff.shifted), or its undo, rewrites only
 * frame fields; where each track moves whole or not at all (a drag of every key, of whole rows, of a
 * selection that spans whole tracks) the keys keep their order, so the new tracks are the old ones with
 * new `frames` arrays: one pass over the moved kinds' keys instead of buildTracks over the whole motion
 * (600,000 keys: a copy of the frames instead of re-reading and re-sorting 66 MB).
 */
import type { FrameTrack, MotionTracks, NamedTracks } from '../vmd/tracks';
import type { VmdDocument } from '../vmd/vmd-document';
import { frameOf } from '../vmd/records';
import { BONE, CAMERA, FRAME_OFFSET } from '../vmd/vmd-layout';
import { getCameraCurve, hasCopies, type CameraChannel } from '../vmd/interpolation';
import { isCurveOnlyDiff } from './curve-tracks';
import { fixedBlock, ikBlock, withBlocks, type Block, type FixedBlock } from '../vmd/vmd-document';
import { applyDiff, revertDiff, writeField, type BlockDiff } from './diff';
import type { EditDiff } from './diff';
import { EDIT_KINDS, keyOfRecord, type EditKind } from './key-ref';
import { isMirrorOnly, mirrorDocSteps, mirrorTracksSteps } from './mirror-motion';
import { drain, type Steps } from './steps';

const TRACK_FIELD = { bone: 'bones', morph: 'morphs', camera: 'camera', light: 'light', shadow: 'shadow', ik: 'ik' } as const;

/**
 * The tracks after a diff that only moves records in time (`shifted`, nothing patched, removed, added
 * or replaced), with frames read from `doc` (the document after the edit or after its undo). Null when
 * the diff is anything else, a kind has records hidden as duplicates, or a track moves in part (its
 * keys may change order): the caller then rebuilds the tracks.
 */
export function shiftTracks(tracks: MotionTracks, doc: VmdDocument, diff: EditDiff): MotionTracks | null {
  return drain(shiftTracksSteps(tracks, doc, diff));
}

/** Keys a step of the sliced forms handles before it yields. */
const STEP_KEYS = 1 << 16;
/** Bytes a step copies before it yields. */
const STEP_BYTES = 1 << 20;
/**
 * Records a step of packed fields (curves) writes, and keys of the tracks' curves it updates, before it
 * yields: 64 bytes or four curves a record, so fewer than a move's frame fields (65,536 records of curves
 * were one 20–60 ms step, over a frame's budget).
 */
const FIELD_STEP = 1 << 13;

/** shiftTracks in steps of at most STEP_KEYS keys (the editor runs them between frames). */
export function* shiftTracksSteps(tracks: MotionTracks, doc: VmdDocument, diff: EditDiff): Steps<MotionTracks | null> {
  const next: Record<string, unknown> = { ...tracks };
  let any = false;
  for (const b of diff.blocks) {
    if (b.replaced || b.mirrored || b.fields || b.patches.length || b.removed.length || b.appended.length) return null;
    if (!b.shifted || !(EDIT_KINDS as readonly string[]).includes(b.kind)) continue;
    const kind = b.kind as EditKind;
    const t = (next[TRACK_FIELD[kind]] ?? tracks[TRACK_FIELD[kind]]) as NamedTracks | FrameTrack;
    const block = doc[kind];
    if (t.duplicates > 0 || t.record.length !== block.count) return null;
    const moving = new Uint8Array(block.count);
    const rs = b.shifted.records;
    for (let i = 0; i < rs.length; i++) if (rs[i] < block.count) moving[rs[i]] = 1;
    yield 0;
    const start = 'start' in t ? t.start : Uint32Array.of(0, t.frames.length);
    const frames = t.frames.slice();
    let done = 0;
    for (let tr = 0; tr + 1 < start.length; tr++) {
      const a = start[tr], e = start[tr + 1];
      let m = 0;
      for (let k = a; k < e; k++) m += moving[t.record[k]];
      if (m !== 0) {
        if (m !== e - a) return null;
        const v = block.view, at = FRAME_OFFSET[kind];
        if (kind === 'ik') for (let k = a; k < e; k++) frames[k] = frameOf(block, t.record[k]);
        else for (let k = a, size = (block as FixedBlock).size; k < e; k++) frames[k] = v.getUint32(t.record[k] * size + at, true);
      }
      done += e - a;
      if (done >= STEP_KEYS) {
        done = 0;
        yield e / Math.max(1, t.frames.length);
      }
    }
    next[TRACK_FIELD[kind]] = { ...t, frames };
    any = true;
  }
  if (!any) return null;
  const out = next as unknown as MotionTracks;
  let last = 0;
  for (const kind of EDIT_KINDS) {
    const t: NamedTracks | FrameTrack = out[TRACK_FIELD[kind]];
    if ('start' in t) {
      for (let tr = 0; tr + 1 < t.start.length; tr++) if (t.start[tr + 1] > t.start[tr]) last = Math.max(last, t.frames[t.start[tr + 1] - 1]);
    } else if (t.frames.length) last = Math.max(last, t.frames[t.frames.length - 1]);
  }
  return { ...out, lastFrame: last };
}

/** True when every block of the diff only moves records in time (BlockDiff.shifted). */
export function isShiftOnly(diff: EditDiff): boolean {
  return diff.blocks.length > 0 && diff.blocks.every((b) => onlyShift(b));
}

function onlyShift(b: BlockDiff): boolean {
  return !!b.shifted && !b.replaced && !b.mirrored && !b.fields && b.patches.length === 0 && b.removed.length === 0 && b.appended.length === 0;
}

function onlyFields(b: BlockDiff): boolean {
  return !!b.fields && !b.shifted && !b.replaced && !b.mirrored && b.patches.length === 0 && b.removed.length === 0 && b.appended.length === 0;
}

/** True when every block of the diff is packed fields only (a curve on many keys: BlockDiff.fields). */
export function isFieldsOnly(diff: EditDiff): boolean {
  return diff.blocks.length > 0 && diff.blocks.every((b) => onlyFields(b));
}

/** Records a diff moves in time (how big a shift is). */
export function shiftedCount(diff: EditDiff): number {
  let n = 0;
  for (const b of diff.blocks) n += b.shifted?.records.length ?? 0;
  return n;
}

/** Records a shift-only or fields-only diff touches (how big its sliced application is). */
export function packedCount(diff: EditDiff): number {
  let n = 0;
  for (const b of diff.blocks) n += (b.shifted?.records.length ?? 0) + (b.fields?.records.length ?? 0);
  return n;
}

/**
 * applyDiff (way 'apply') or revertDiff ('revert') in steps: a Mirror step mirrors its blocks a range of
 * records at a time (mirror-motion.ts); a shift-only or fields-only diff copies each
 * block in pieces of STEP_BYTES and then writes STEP_KEYS records per step; any other diff is done in one
 * step. The bytes are those applyDiff / revertDiff give.
 */
export function* applyDiffSteps(doc: VmdDocument, diff: EditDiff, way: 'apply' | 'revert'): Steps<VmdDocument> {
  // A Mirror step: applying and reverting are the same mirror of its blocks.
  if (isMirrorOnly(diff)) return yield* mirrorDocSteps(doc, diff);
  if (!isShiftOnly(diff) && !isFieldsOnly(diff)) return way === 'apply' ? applyDiff(doc, diff) : revertDiff(doc, diff);
  const blocks: Partial<Record<Block['kind'], Block>> = {};
  let total = 0, done = 0;
  for (const b of diff.blocks) total += doc[b.kind].bytes.length + 16 * packedCount({ label: '', blocks: [b] });
  for (const b of diff.blocks) {
    const src = blocks[b.kind] ?? doc[b.kind];
    const bytes = new Uint8Array(src.bytes.length);
    for (let o = 0; o < bytes.length; o += STEP_BYTES) {
      bytes.set(src.bytes.subarray(o, Math.min(bytes.length, o + STEP_BYTES)), o);
      done += Math.min(STEP_BYTES, bytes.length - o);
      yield done / total;
    }
    const out: Block = src.kind === 'ik' ? ikBlock(bytes, src.offsets) : fixedBlock(src.kind, bytes);
    const place = (r: number) => (out.kind === 'ik' ? out.offsets[r] : r * out.size);
    if (b.shifted) {
      const rs = b.shifted.records, delta = way === 'apply' ? b.shifted.delta : -b.shifted.delta;
      const v = out.view, at = FRAME_OFFSET[out.kind];
      for (let k = 0; k < rs.length; k += STEP_KEYS) {
        const end = Math.min(rs.length, k + STEP_KEYS);
        for (let i = k; i < end; i++) {
          const o = place(rs[i]) + at;
          v.setUint32(o, v.getUint32(o, true) + delta, true);
        }
        done += 16 * (end - k);
        yield done / total;
      }
    } else if (b.fields) {
      const f = b.fields, rs = f.records, side = way === 'apply' ? 'after' : 'before';
      // Applying writes the curves again over the bytes before (PackedFields.rewrite): more work per record
      // than undo's copy, so fewer records per step.
      const step = side === 'after' ? FIELD_STEP >> 2 : FIELD_STEP;
      for (let k = 0; k < rs.length; k += step) {
        const end = Math.min(rs.length, k + step);
        for (let i = k; i < end; i++) writeField(f, i, side, bytes, place(rs[i]) + f.at);
        done += 16 * (end - k);
        yield done / total;
      }
    }
    blocks[b.kind] = out;
  }
  return withBlocks(doc, blocks);
}

/**
 * The tracks after a fields-only curve diff (or its undo), in steps, without touching `tracks`: the
 * kinds' curve arrays are copied and the touched keys' curves read from `doc`. Null when the diff is not
 * curve-only fields (the caller rebuilds).
 */
export function* curveTracksSteps(tracks: MotionTracks, doc: VmdDocument, diff: EditDiff): Steps<MotionTracks | null> {
  if (!isFieldsOnly(diff) || !isCurveOnlyDiff(diff)) return null;
  let out: MotionTracks = tracks;
  for (const b of diff.blocks) {
    if (b.kind !== 'bone' && b.kind !== 'camera') continue;
    const kind = b.kind;
    const t = kind === 'bone' ? out.bones : out.camera;
    const curves = t.curves.slice();
    yield 0;
    const block = doc[kind];
    const map = keyOfRecord(t, block.count);
    const rs = b.fields!.records;
    const ip = block.bytes;
    for (let k = 0; k < rs.length; k += FIELD_STEP) {
      const end = Math.min(rs.length, k + FIELD_STEP);
      for (let i = k; i < end; i++) {
        const key = map[rs[i]];
        if (key < 0) continue;
        if (kind === 'bone') {
          // getBoneCurve for the four channels, without an array each: x1 of Z and rotation come from the
          // shifted copy (bytes 17, 18) when rows 1–3 hold copies.
          const at = rs[i] * BONE.SIZE + BONE.INTERPOLATION;
          const copies = hasCopies(ip, at);
          const q = 16 * key;
          for (let c = 0; c < 4; c++) {
            curves[q + 4 * c] = copies && c >= 2 ? ip[at + 15 + c] : ip[at + c];
            curves[q + 4 * c + 1] = ip[at + c + 4];
            curves[q + 4 * c + 2] = ip[at + c + 8];
            curves[q + 4 * c + 3] = ip[at + c + 12];
          }
        } else {
          const at = rs[i] * CAMERA.SIZE + CAMERA.INTERPOLATION;
          for (let c = 0; c < 6; c++) curves.set(getCameraCurve(block.bytes, c as CameraChannel, at), 24 * key + 4 * c);
        }
      }
      yield end / rs.length;
    }
    out = kind === 'bone' ? { ...out, bones: { ...out.bones, curves } } : { ...out, camera: { ...out.camera, curves } };
  }
  return out;
}

/** The tracks after a sliced diff (a shift, packed curve fields or a Mirror), in steps; null: rebuild them. */
export function tracksAfterSteps(tracks: MotionTracks, doc: VmdDocument, diff: EditDiff): Steps<MotionTracks | null> {
  if (isMirrorOnly(diff)) return mirrorTracksSteps(tracks, doc, diff);
  return isFieldsOnly(diff) ? curveTracksSteps(tracks, doc, diff) : shiftTracksSteps(tracks, doc, diff);
}
