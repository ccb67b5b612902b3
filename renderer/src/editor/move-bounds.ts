/**
 * How far a drag may move the selected keys: no key before frame 0 or past the last frame a key can have. A drag
 * that goes further (the pointer left the timeline to the left, over the tabs or the track list) stops there, as
 * MMD's does, instead of ending in "Cannot move keys before frame 0" (new-user pass nuchaos, finding 9).
 */
import { EDIT_KINDS, MAX_FRAME, type RecordsByKind } from '../../../shared/key-edits';
import { frameOf } from '../../../shared/vmd/records';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';

/** The smallest and largest move of the keys in `sets`: −(earliest frame) … MAX_FRAME − (latest frame). */
export function moveBounds(doc: VmdDocument, sets: RecordsByKind): { min: number; max: number } {
  let first = Infinity, last = -Infinity;
  for (const kind of EDIT_KINDS) {
    const set = sets[kind];
    if (!set?.size) continue;
    const block = doc[kind];
    for (const r of set.toArray()) {
      if (r >= block.count) continue;
      const f = frameOf(block, r);
      if (f < first) first = f;
      if (f > last) last = f;
    }
  }
  return first === Infinity ? { min: 0, max: 0 } : { min: -first, max: MAX_FRAME - last };
}

/** `delta` within `b`. */
export function clampMove(delta: number, b: { min: number; max: number }): number {
  // + 0: no −0 (a key at frame 0 dragged left stays, by 0).
  return Math.min(b.max, Math.max(b.min, delta)) + 0;
}
