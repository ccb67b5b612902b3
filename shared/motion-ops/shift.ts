/**
 * Shift every key by N frames (negative allowed). Only the frame numbers are rewritten, so shifting by
 * +N and then −N gives the original bytes. Keys pushed below frame 0 are an error unless `clip`: then
 * the part before 0 is cut off like `trim --from −N` (a hold key at 0 carries the pose the motion had
 * there, curves re-fitted), or with `hold: false` those keys are simply dropped.
 */
import { BLOCK_KINDS } from '../vmd/vmd-layout';
import { blockOf, withBlocks, type Block, type VmdDocument } from '../vmd/vmd-document';
import { copyRecord, frameAt, MAX_FRAME, putFrame } from '../edit-core/record-util';
import { edited, editError, finishReport, newReport, type EditResult } from '../edit-core/report';
import { trim } from './trim';
import { failure, optionRefusal } from '../vmd/errors';

export interface ShiftOptions {
  by: number;
  /** Cut off keys that would land below 0 instead of failing. */
  clip?: boolean;
  /** With clip: hold the pose at the new frame 0 (default true). */
  hold?: boolean;
}

export function shift(doc: VmdDocument, opts: ShiftOptions): EditResult {
  const N = opts.by;
  if (!Number.isInteger(N)) return failure(optionRefusal('E_ARGUMENT', `--by must be a whole number of frames, got ${N}`, 'by', 'integer', { value: N }));
  let min = Infinity, max = -Infinity;
  for (const kind of BLOCK_KINDS) {
    const b = doc[kind];
    for (let i = 0; i < b.count; i++) {
      const f = frameAt(b, i);
      if (f < min) min = f;
      if (f > max) max = f;
    }
  }
  if (max !== -Infinity && max + N > MAX_FRAME) return editError(`shifting by ${N} pushes frame ${max} past the largest frame number a VMD can hold`);
  if (min !== Infinity && min + N < 0) {
    if (!opts.clip) {
      return failure(optionRefusal('E_EDIT', `shifting by ${N} pushes the key at frame ${min} below 0 (use --clip to cut off what lands before frame 0)`, 'clip', 'belowZero', { by: N, frame: min }));
    }
    // Cut at −N, then shift the rest back up: trim already shifts by −(−N) = N.
    const t = trim(doc, { from: -N, hold: opts.hold ?? true, dropStatic: false });
    if (!t.ok) return t;
    const r = t.value.report;
    r.edit = 'shift';
    r.extra = { by: N, clipped: r.dropped, maxPositionError: r.extra.maxPositionError ?? 0, maxRotationErrorDeg: r.extra.maxRotationErrorDeg ?? 0 };
    return t;
  }
  const rep = newReport('shift');
  const blocks: Partial<Record<(typeof BLOCK_KINDS)[number], Block>> = {};
  for (const kind of BLOCK_KINDS) {
    const b = doc[kind];
    const recs: Uint8Array[] = [];
    for (let i = 0; i < b.count; i++) {
      const r = copyRecord(b, i);
      putFrame(kind, r, frameAt(b, i) + N);
      recs.push(r);
    }
    rep.byKind[kind].kept = recs.length;
    blocks[kind] = blockOf(kind, recs);
  }
  rep.extra.by = N;
  return edited(withBlocks(doc, blocks), finishReport(rep));
}
