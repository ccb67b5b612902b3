/**
 * Incremental track update for curve-only edits. A curve drag, a preset, a curve paste or the undo of
 * one rewrites nothing but interpolation bytes: the keys' frames, values and order stay, so the
 * tracks (shared/vmd/tracks.ts) differ only in their `curves` arrays (bone: 16 bytes per key, channel
 * c at [16k + 4c] = x1, y1, x2, y2; camera: 24 bytes per key). Rewriting those few bytes costs
 * microseconds where buildTracks costs tens of milliseconds on a 1.6 MB dance.
 */
import { getBoneCurve, getCameraCurve, type BoneChannel, type CameraChannel } from '../vmd/interpolation';
import type { MotionTracks } from '../vmd/tracks';
import type { VmdDocument } from '../vmd/vmd-document';
import { BONE, CAMERA } from '../vmd/vmd-layout';
import type { EditDiff } from './diff';
import { locate } from './key-ref';

/** Byte range [from, to) of the interpolation block inside a record, per kind with curves. */
const IP_RANGE = {
  bone: [BONE.INTERPOLATION, BONE.INTERPOLATION + BONE.INTERPOLATION_LENGTH],
  camera: [CAMERA.INTERPOLATION, CAMERA.INTERPOLATION + CAMERA.INTERPOLATION_LENGTH],
} as const;

/** True when the diff only rewrites interpolation bytes of existing bone/camera records. */
export function isCurveOnlyDiff(diff: EditDiff): boolean {
  if (diff.head) return false;
  for (const b of diff.blocks) {
    if (b.replaced || b.mirrored || b.shifted?.records.length || b.removed.length || b.appended.length) return false;
    if (!b.patches.length && !b.fields?.records.length) continue;
    if (b.kind !== 'bone' && b.kind !== 'camera') return false;
    const [from, to] = IP_RANGE[b.kind];
    if (b.fields && (b.fields.at < from || b.fields.at + b.fields.length > to)) return false;
    for (const p of b.patches) {
      for (let i = 0; i < from; i++) if (p.before[i] !== p.after[i]) return false;
      for (let i = to; i < p.after.length; i++) if (p.before[i] !== p.after[i]) return false;
    }
  }
  return true;
}

/**
 * Rewrites, in place, the curves of the keys a curve-only diff touched, reading them from `doc` (the
 * document after the edit, or after its undo). Returns false, changing nothing, when the diff is not
 * curve-only; the caller then rebuilds the tracks. Records hidden as duplicates have no key to update.
 */
export function updateTrackCurves(tracks: MotionTracks, doc: VmdDocument, diff: EditDiff): boolean {
  if (!isCurveOnlyDiff(diff)) return false;
  for (const b of diff.blocks) {
    if (b.kind !== 'bone' && b.kind !== 'camera') continue;
    const kind = b.kind;
    const block = doc[kind];
    const update = (index: number) => {
      const loc = locate(tracks, { kind, record: index }, block.count);
      if (!loc) return;
      if (kind === 'bone') {
        const at = index * BONE.SIZE + BONE.INTERPOLATION;
        for (let c = 0; c < 4; c++) tracks.bones.curves.set(getBoneCurve(block.bytes, c as BoneChannel, at), 16 * loc.key + 4 * c);
      } else {
        const at = index * CAMERA.SIZE + CAMERA.INTERPOLATION;
        for (let c = 0; c < 6; c++) tracks.camera.curves.set(getCameraCurve(block.bytes, c as CameraChannel, at), 24 * loc.key + 4 * c);
      }
    };
    for (const p of b.patches) update(p.index);
    if (b.fields) for (let k = 0; k < b.fields.records.length; k++) update(b.fields.records[k]);
  }
  return true;
}
