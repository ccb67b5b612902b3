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
import type { EditDiff } from './diff';
import { EDIT_KINDS, type EditKind } from './key-ref';

const TRACK_FIELD = { bone: 'bones', morph: 'morphs', camera: 'camera', light: 'light', shadow: 'shadow', ik: 'ik' } as const;

/**
 * The tracks after a diff that only moves records in time (`shifted`, nothing patched, removed, added
 * or replaced), with frames read from `doc` (the document after the edit or after its undo). Null when
 * the diff is anything else, a kind has records hidden as duplicates, or a track moves in part (its
 * keys may change order): the caller then rebuilds the tracks.
 */
export function shiftTracks(tracks: MotionTracks, doc: VmdDocument, diff: EditDiff): MotionTracks | null {
  const next: Record<string, unknown> = { ...tracks };
  let any = false;
  for (const b of diff.blocks) {
    if (b.replaced || b.patches.length || b.removed.length || b.appended.length) return null;
    if (!b.shifted || !(EDIT_KINDS as readonly string[]).includes(b.kind)) continue;
    const kind = b.kind as EditKind;
    const t = (next[TRACK_FIELD[kind]] ?? tracks[TRACK_FIELD[kind]]) as NamedTracks | FrameTrack;
    const block = doc[kind];
    if (t.duplicates > 0 || t.record.length !== block.count) return null;
    const moving = new Uint8Array(block.count);
    const rs = b.shifted.records;
    for (let i = 0; i < rs.length; i++) if (rs[i] < block.count) moving[rs[i]] = 1;
    const start = 'start' in t ? t.start : Uint32Array.of(0, t.frames.length);
    const frames = t.frames.slice();
    for (let tr = 0; tr + 1 < start.length; tr++) {
      const a = start[tr], e = start[tr + 1];
      let m = 0;
      for (let k = a; k < e; k++) m += moving[t.record[k]];
      if (m === 0) continue;
      if (m !== e - a) return null;
      for (let k = a; k < e; k++) frames[k] = frameOf(block, t.record[k]);
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
