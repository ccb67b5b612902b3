/**
 * Key navigation and range selection over the motion's tracks, as MMD's frame buttons and 範囲選択 do:
 * the previous/next key frame of a set of tracks, and every key of a set of tracks between two frames.
 * Pure functions over the tracks' struct-of-arrays (binary search per track), so they cost the same on a
 * pose and on a 36 MB motion, and are unit-tested without the UI.
 */
import { EDIT_KINDS, keyOfRecord, lowerBound, trackCount, trackOfKey, trackRange, tracksOf, locate, type EditKind, type KeyRef } from '../../../shared/key-edits';
import type { MotionTracks } from '../../../shared/vmd/tracks';

/** A track: a bone or morph track by index, or the camera, light or display/IK track (track 0). */
export interface TrackId {
  kind: EditKind;
  track: number;
}

/** Which tracks previous/next key and range select look at. */
export type TrackScope = 'active' | 'selected' | 'all';

/** Every track of the motion that holds at least one key. */
export function allTracks(tracks: MotionTracks): TrackId[] {
  const out: TrackId[] = [];
  for (const kind of EDIT_KINDS) {
    const t = tracksOf(tracks, kind);
    for (let track = 0; track < trackCount(t); track++) {
      const [a, b] = trackRange(t, track);
      if (b > a) out.push({ kind, track });
    }
  }
  return out;
}

/**
 * The tracks holding the selected keys, plus the active track (so "the selected tracks" means the rows
 * the user is working on even when no key is selected yet). Each track once.
 */
export function tracksOfKeys(tracks: MotionTracks, refs: readonly KeyRef[], counts: Record<EditKind, number>, active: TrackId | null): TrackId[] {
  const seen = new Set<string>();
  const out: TrackId[] = [];
  const add = (id: TrackId) => {
    const k = id.kind + ':' + id.track;
    if (seen.has(k)) return;
    seen.add(k);
    out.push(id);
  };
  if (active) add(active);
  for (const r of refs) {
    const loc = locate(tracks, r, counts[r.kind]);
    if (loc) add({ kind: r.kind, track: loc.track });
  }
  return out;
}

/**
 * The nearest key frame strictly after (dir 1) or before (dir −1) frame f on any of the given tracks,
 * or null when there is none. f may be fractional (a paused playback).
 */
export function adjacentKeyFrame(tracks: MotionTracks, ids: readonly TrackId[], f: number, dir: 1 | -1): number | null {
  let best: number | null = null;
  for (const id of ids) {
    const t = tracksOf(tracks, id.kind);
    if (id.track < 0 || id.track >= trackCount(t)) continue;
    const [a, b] = trackRange(t, id.track);
    if (dir > 0) {
      const k = lowerBound(t.frames, a, b, Math.floor(f) + 1);
      if (k < b && (best === null || t.frames[k] < best)) best = t.frames[k];
    } else {
      const k = lowerBound(t.frames, a, b, Math.ceil(f)) - 1;
      if (k >= a && (best === null || t.frames[k] > best)) best = t.frames[k];
    }
  }
  return best;
}

/** Every key of the given tracks with from ≤ frame ≤ to (the bounds in either order), track by track. */
export function keysInRange(tracks: MotionTracks, ids: readonly TrackId[], from: number, to: number): KeyRef[] {
  const lo = Math.max(0, Math.ceil(Math.min(from, to))), hi = Math.floor(Math.max(from, to));
  const out: KeyRef[] = [];
  for (const id of ids) {
    const t = tracksOf(tracks, id.kind);
    if (id.track < 0 || id.track >= trackCount(t)) continue;
    const [a, b] = trackRange(t, id.track);
    for (let k = lowerBound(t.frames, a, b, lo); k < b && t.frames[k] <= hi; k++) out.push({ kind: id.kind, record: t.record[k] });
  }
  return out;
}

/** Those of `ids` that have a key from frame `from` to `to` (what a range select of them picks keys on). */
export function tracksWithKeysInRange(tracks: MotionTracks, ids: readonly TrackId[], from: number, to: number): TrackId[] {
  const lo = Math.max(0, Math.ceil(Math.min(from, to))), hi = Math.floor(Math.max(from, to));
  return ids.filter((id) => {
    const t = tracksOf(tracks, id.kind);
    if (id.track < 0 || id.track >= trackCount(t)) return false;
    const [a, b] = trackRange(t, id.track);
    const k = lowerBound(t.frames, a, b, lo);
    return k < b && t.frames[k] <= hi;
  });
}

/**
 * How many tracks of `kind` the records lie on, or null past `cap` records (not worth reading on every change
 * of a selection of 600,000 keys). Records hidden as duplicates or out of range are not counted.
 */
export function trackCountOfRecords(tracks: MotionTracks, kind: EditKind, records: { readonly size: number; forEach(fn: (r: number) => void): void }, recordCount: number, cap: number): number | null {
  if (records.size > cap) return null;
  const t = tracksOf(tracks, kind);
  const m = keyOfRecord(t, recordCount);
  const seen = new Set<number>();
  records.forEach((r) => {
    const k = r < recordCount ? m[r] : -1;
    if (k >= 0) seen.add(trackOfKey(t, k));
  });
  return seen.size;
}

/** First and last frame of the given keys, or null when none of them is in the tracks. */
export function frameSpan(tracks: MotionTracks, refs: readonly KeyRef[], counts: Record<EditKind, number>): [number, number] | null {
  let a = Infinity, b = -Infinity;
  for (const r of refs) {
    const loc = locate(tracks, r, counts[r.kind]);
    if (!loc) continue;
    if (loc.frame < a) a = loc.frame;
    if (loc.frame > b) b = loc.frame;
  }
  return a <= b ? [a, b] : null;
}
