/**
 * Keys as the editor sees them: (block kind, record index). Tracks (shared/vmd/tracks.ts) give each
 * track's keys sorted by frame with the record index of each; this file maps back from a record to
 * its track and key position, once per tracks object.
 */
import type { BoneTracks, MotionTracks, NamedTracks, FrameTrack } from '../vmd/tracks';
import { BLOCK_KINDS, type BlockKind } from '../vmd/vmd-layout';

/** The kinds of keys the editor edits ('shadow': self-shadow; 'ik': the display/IK block, variable-size records). */
export type EditKind = BlockKind;

/** Every kind of key the editor selects and edits, in block order. */
export const EDIT_KINDS: readonly EditKind[] = BLOCK_KINDS;

/** The kinds a scene's camera document holds (camera, light, self-shadow); the others are a model's motion's. */
export const CAMERA_DOC_KINDS = ['camera', 'light', 'shadow'] as const satisfies readonly EditKind[];

/** Whether keys of this kind belong in a camera document (CAMERA_DOC_KINDS). */
export function isCameraDocKind(kind: string): boolean {
  return (CAMERA_DOC_KINDS as readonly string[]).includes(kind);
}

/** A key: record `record` of block `kind`. */
export interface KeyRef {
  readonly kind: EditKind;
  readonly record: number;
}

/** Where a record sits in the tracks. */
export interface KeyLocation {
  /** Track index (0 for the camera, light, self-shadow and display/IK track). */
  track: number;
  /** Key index into the tracks' arrays. */
  key: number;
  /** The track's key range [start, end). */
  start: number;
  end: number;
  frame: number;
}

type AnyTracks = NamedTracks | FrameTrack;

export function tracksOf(tracks: MotionTracks, kind: EditKind): AnyTracks {
  switch (kind) {
    case 'bone': return tracks.bones;
    case 'morph': return tracks.morphs;
    case 'camera': return tracks.camera;
    case 'light': return tracks.light;
    case 'shadow': return tracks.shadow;
    case 'ik': return tracks.ik;
  }
}

/** Key range of track t: [start, end). */
export function trackRange(t: AnyTracks, track: number): [number, number] {
  if ('start' in t) return [t.start[track], t.start[track + 1]];
  return [0, t.frames.length];
}

export function trackCount(t: AnyTracks): number {
  return 'start' in t ? t.names.length : t.frames.length > 0 ? 1 : 0;
}

const cache = new WeakMap<object, Int32Array>();

/** record → key index (−1 for records hidden as duplicates), built once per tracks object. */
export function keyOfRecord(t: AnyTracks, recordCount: number): Int32Array {
  let m = cache.get(t);
  if (!m || m.length < recordCount) {
    m = new Int32Array(recordCount).fill(-1);
    for (let k = 0; k < t.record.length; k++) if (t.record[k] < recordCount) m[t.record[k]] = k;
    cache.set(t, m);
  }
  return m;
}

/** Track index of key k (binary search over start). */
export function trackOfKey(t: AnyTracks, k: number): number {
  if (!('start' in t)) return 0;
  let lo = 0, hi = t.names.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (t.start[mid] <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Locates a key in the tracks, or null when the record is a hidden duplicate / out of range. */
export function locate(tracks: MotionTracks, ref: KeyRef, recordCount: number): KeyLocation | null {
  const t = tracksOf(tracks, ref.kind);
  if (ref.record < 0 || ref.record >= recordCount) return null;
  const k = keyOfRecord(t, recordCount)[ref.record];
  if (k === undefined || k < 0) return null;
  const track = trackOfKey(t, k);
  const [start, end] = trackRange(t, track);
  return { track, key: k, start, end, frame: t.frames[k] };
}

/**
 * Whether the bone keys [start, end) all hold one position (x, y, z exactly equal): a rotation-only
 * track such as 上半身2 in a dance, whose X/Y/Z curves move nothing.
 */
export function positionNeverChanges(bones: BoneTracks, start: number, end: number): boolean {
  const p = bones.position;
  for (let k = start + 1; k < end; k++) {
    if (p[3 * k] !== p[3 * start] || p[3 * k + 1] !== p[3 * start + 1] || p[3 * k + 2] !== p[3 * start + 2]) return false;
  }
  return true;
}

/** Index of the key at exactly `frame` in [a, b), or −1. */
export function keyAtFrame(frames: Uint32Array, a: number, b: number, frame: number): number {
  let lo = a, hi = b;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (frames[mid] < frame) lo = mid + 1;
    else hi = mid;
  }
  return lo < b && frames[lo] === frame ? lo : -1;
}

/** First key index in [a, b) with frame >= f. */
export function lowerBound(frames: Uint32Array, a: number, b: number, f: number): number {
  let lo = a, hi = b;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (frames[mid] < f) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
