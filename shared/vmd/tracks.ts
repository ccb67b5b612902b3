/**
 * Tracks: a document's keys regrouped once into struct-of-arrays typed arrays, per bone / morph name
 * and for the camera, light, self-shadow and IK blocks, each sorted by frame. This is what sampling,
 * drawing and the editor read. Where one name has two keys on one frame, the first in the file wins
 * (later ones are counted in `duplicates`). Names are grouped by their decoded form (a cut last
 * character dropped), the way players match them against a model.
 */
import type { FixedBlock, VmdDocument } from './vmd-document';
import { BONE, CAMERA, LIGHT, MORPH, SHADOW } from './vmd-layout';
import { decodeName } from './sjis';
import { hasCopies } from './interpolation';

export interface NamedTracks {
  /** Display name per track. */
  readonly names: string[];
  /** Keys of track t are at indices [start[t], start[t + 1]). */
  readonly start: Uint32Array;
  /** Frame per key, ascending within a track. */
  readonly frames: Uint32Array;
  /** Index of the key's record in its block. */
  readonly record: Uint32Array;
  /** Keys dropped because an earlier record had the same name and frame. */
  readonly duplicates: number;
  /** Track index by display name. */
  readonly index: Map<string, number>;
}

export interface BoneTracks extends NamedTracks {
  /** x, y, z per key. */
  readonly position: Float32Array;
  /** x, y, z, w per key, as stored (not normalised). */
  readonly rotation: Float32Array;
  /** 16 per key: channel c (X, Y, Z, rotation) at [16k + 4c] = x1, y1, x2, y2 (0..127). */
  readonly curves: Uint8Array;
}

export interface MorphTracks extends NamedTracks {
  readonly weight: Float32Array;
}

/** One unnamed track (camera, light, shadow, IK), sorted by frame. */
export interface FrameTrack {
  readonly frames: Uint32Array;
  readonly record: Uint32Array;
  readonly duplicates: number;
}

export interface CameraTrack extends FrameTrack {
  readonly distance: Float32Array;
  readonly target: Float32Array; // 3 per key
  readonly rotation: Float32Array; // 3 per key
  readonly fov: Float32Array;
  readonly perspective: Uint8Array;
  /** 24 per key: channel c (target X, Y, Z, rotation, distance, fov) at [24k + 4c] = x1, y1, x2, y2. */
  readonly curves: Uint8Array;
}

export interface LightTrack extends FrameTrack {
  readonly color: Float32Array; // 3 per key
  readonly direction: Float32Array; // 3 per key
}

export interface MotionTracks {
  readonly bones: BoneTracks;
  readonly morphs: MorphTracks;
  readonly camera: CameraTrack;
  readonly light: LightTrack;
  readonly shadow: FrameTrack;
  readonly ik: FrameTrack;
  /** Largest frame number over every block (0 when empty). */
  readonly lastFrame: number;
}

/** FNV-1a over the name bytes up to the first NUL. */
function nameHash(bytes: Uint8Array, o: number, len: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < len; i++) {
    const b = bytes[o + i];
    if (b === 0) break;
    h = Math.imul(h ^ b, 0x01000193);
  }
  return h >>> 0;
}

function sameName(bytes: Uint8Array, a: number, b: number, len: number): boolean {
  for (let i = 0; i < len; i++) {
    const x = bytes[a + i];
    if (x !== bytes[b + i]) return false;
    if (x === 0) return true;
  }
  return true;
}

/** Groups named records into tracks: returns the track of each record and the track names. */
function groupByName(block: FixedBlock, nameLength: number): { trackOf: Uint32Array; names: string[]; index: Map<string, number> } {
  const { bytes, size, count } = block;
  const trackOf = new Uint32Array(count);
  // hash -> list of [first record offset with these exact bytes, track]
  const seen = new Map<number, number[]>();
  const index = new Map<string, number>();
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const o = i * size;
    const h = nameHash(bytes, o, nameLength);
    const bucket = seen.get(h);
    let track = -1;
    if (bucket) {
      for (let j = 0; j < bucket.length; j += 2) {
        if (sameName(bytes, bucket[j], o, nameLength)) {
          track = bucket[j + 1];
          break;
        }
      }
    }
    if (track < 0) {
      const name = decodeName(bytes, o, nameLength);
      let t = index.get(name);
      if (t === undefined) {
        t = names.length;
        names.push(name);
        index.set(name, t);
      }
      track = t;
      if (bucket) bucket.push(o, track);
      else seen.set(h, [o, track]);
    }
    trackOf[i] = track;
  }
  return { trackOf, names, index };
}

/**
 * Orders records by (track, frame, file order) and drops later duplicates of a (track, frame).
 * Returns per-track start offsets and the kept record indices in order.
 */
function orderKeys(trackOf: Uint32Array, trackCount: number, frameAt: (i: number) => number) {
  const n = trackOf.length;
  const counts = new Uint32Array(trackCount + 1);
  for (let i = 0; i < n; i++) counts[trackOf[i] + 1]++;
  for (let t = 0; t < trackCount; t++) counts[t + 1] += counts[t];
  const slot = counts.slice(0, trackCount);
  const order = new Uint32Array(n);
  const frames = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const p = slot[trackOf[i]]++;
    order[p] = i;
    frames[p] = frameAt(i);
  }
  // Sort each track by frame, stable (file order breaks ties); most files are already sorted.
  // Keys frame·2^21 + rank sort natively in a Float64Array (exact: frame < 2^32, rank < 2^21).
  let keys: Float64Array | null = null;
  for (let t = 0; t < trackCount; t++) {
    const a = counts[t], b = counts[t + 1];
    let sorted = true;
    for (let k = a + 1; k < b; k++) if (frames[k] < frames[k - 1]) { sorted = false; break; }
    if (sorted) continue;
    const len = b - a;
    if (len >= 1 << 21) {
      // Too long for packed keys (a 230 MB track): a comparator sort, slower but exact.
      const idx = Array.from({ length: len }, (_, k) => k);
      const fr = frames.slice(a, b);
      const src = order.slice(a, b);
      idx.sort((x, y) => fr[x] - fr[y] || x - y);
      for (let k = 0; k < len; k++) {
        order[a + k] = src[idx[k]];
        frames[a + k] = fr[idx[k]];
      }
      continue;
    }
    if (!keys || keys.length < len) keys = new Float64Array(Math.max(len, 1024));
    const ks = keys.subarray(0, len);
    for (let k = 0; k < len; k++) ks[k] = frames[a + k] * 2097152 + k;
    ks.sort();
    const src = order.slice(a, b);
    for (let k = 0; k < len; k++) {
      const rank = ks[k] % 2097152;
      order[a + k] = src[rank];
      frames[a + k] = (ks[k] - rank) / 2097152;
    }
  }
  // Drop duplicates (same track, same frame): the first in the file sorts first and is kept.
  const start = new Uint32Array(trackCount + 1);
  let w = 0;
  for (let t = 0; t < trackCount; t++) {
    start[t] = w;
    for (let k = counts[t]; k < counts[t + 1]; k++) {
      if (k > counts[t] && frames[k] === frames[k - 1]) continue;
      order[w] = order[k];
      frames[w] = frames[k];
      w++;
    }
  }
  start[trackCount] = w;
  return { start, record: order.slice(0, w), frames: frames.slice(0, w), duplicates: n - w };
}

export function buildBoneTracks(block: FixedBlock): BoneTracks {
  const { trackOf, names, index } = groupByName(block, BONE.NAME_LENGTH);
  const v = block.view;
  const { start, record, frames, duplicates } = orderKeys(trackOf, names.length, (i) =>
    v.getUint32(i * BONE.SIZE + BONE.FRAME, true),
  );
  const n = record.length;
  const position = new Float32Array(3 * n);
  const rotation = new Float32Array(4 * n);
  const curves = new Uint8Array(16 * n);
  const bytes = block.bytes;
  for (let k = 0; k < n; k++) {
    const o = record[k] * BONE.SIZE;
    const p = o + BONE.POSITION;
    position[3 * k] = v.getFloat32(p, true);
    position[3 * k + 1] = v.getFloat32(p + 4, true);
    position[3 * k + 2] = v.getFloat32(p + 8, true);
    const r = o + BONE.ROTATION;
    rotation[4 * k] = v.getFloat32(r, true);
    rotation[4 * k + 1] = v.getFloat32(r + 4, true);
    rotation[4 * k + 2] = v.getFloat32(r + 8, true);
    rotation[4 * k + 3] = v.getFloat32(r + 12, true);
    const ip = o + BONE.INTERPOLATION;
    const copies = hasCopies(bytes, ip);
    for (let c = 0; c < 4; c++) {
      const q = 16 * k + 4 * c;
      curves[q] = c >= 2 && copies ? bytes[ip + 15 + c] : bytes[ip + c];
      curves[q + 1] = bytes[ip + c + 4];
      curves[q + 2] = bytes[ip + c + 8];
      curves[q + 3] = bytes[ip + c + 12];
    }
  }
  return { names, index, start, frames, record, duplicates, position, rotation, curves };
}

export function buildMorphTracks(block: FixedBlock): MorphTracks {
  const { trackOf, names, index } = groupByName(block, MORPH.NAME_LENGTH);
  const v = block.view;
  const { start, record, frames, duplicates } = orderKeys(trackOf, names.length, (i) =>
    v.getUint32(i * MORPH.SIZE + MORPH.FRAME, true),
  );
  const weight = new Float32Array(record.length);
  for (let k = 0; k < record.length; k++) weight[k] = v.getFloat32(record[k] * MORPH.SIZE + MORPH.WEIGHT, true);
  return { names, index, start, frames, record, duplicates, weight };
}

function frameTrack(count: number, frameAt: (i: number) => number): FrameTrack {
  const { record, frames, duplicates } = orderKeys(new Uint32Array(count), 1, frameAt);
  return { record, frames, duplicates };
}

export function buildCameraTrack(block: FixedBlock): CameraTrack {
  const v = block.view;
  const base = frameTrack(block.count, (i) => v.getUint32(i * CAMERA.SIZE + CAMERA.FRAME, true));
  const n = base.record.length;
  const distance = new Float32Array(n), fov = new Float32Array(n), perspective = new Uint8Array(n);
  const target = new Float32Array(3 * n), rotation = new Float32Array(3 * n), curves = new Uint8Array(24 * n);
  for (let k = 0; k < n; k++) {
    const o = base.record[k] * CAMERA.SIZE;
    distance[k] = v.getFloat32(o + CAMERA.DISTANCE, true);
    for (let c = 0; c < 3; c++) {
      target[3 * k + c] = v.getFloat32(o + CAMERA.TARGET + 4 * c, true);
      rotation[3 * k + c] = v.getFloat32(o + CAMERA.ROTATION + 4 * c, true);
    }
    fov[k] = v.getUint32(o + CAMERA.FOV, true);
    perspective[k] = block.bytes[o + CAMERA.PERSPECTIVE];
    const ip = o + CAMERA.INTERPOLATION;
    for (let c = 0; c < 6; c++) {
      const q = 24 * k + 4 * c;
      curves[q] = block.bytes[ip + 4 * c];
      curves[q + 1] = block.bytes[ip + 4 * c + 2];
      curves[q + 2] = block.bytes[ip + 4 * c + 1];
      curves[q + 3] = block.bytes[ip + 4 * c + 3];
    }
  }
  return { ...base, distance, target, rotation, fov, perspective, curves };
}

export function buildLightTrack(block: FixedBlock): LightTrack {
  const v = block.view;
  const base = frameTrack(block.count, (i) => v.getUint32(i * LIGHT.SIZE + LIGHT.FRAME, true));
  const n = base.record.length;
  const color = new Float32Array(3 * n), direction = new Float32Array(3 * n);
  for (let k = 0; k < n; k++) {
    const o = base.record[k] * LIGHT.SIZE;
    for (let c = 0; c < 3; c++) {
      color[3 * k + c] = v.getFloat32(o + LIGHT.COLOR + 4 * c, true);
      direction[3 * k + c] = v.getFloat32(o + LIGHT.DIRECTION + 4 * c, true);
    }
  }
  return { ...base, color, direction };
}

function lastFrameOf(...tracks: { frames: Uint32Array }[]): number {
  let m = 0;
  for (const t of tracks) for (let i = 0; i < t.frames.length; i++) if (t.frames[i] > m) m = t.frames[i];
  return m;
}

export function buildTracks(doc: VmdDocument): MotionTracks {
  const bones = buildBoneTracks(doc.bone);
  const morphs = buildMorphTracks(doc.morph);
  const camera = buildCameraTrack(doc.camera);
  const light = buildLightTrack(doc.light);
  const shadow = frameTrack(doc.shadow.count, (i) => doc.shadow.view.getUint32(i * SHADOW.SIZE, true));
  const ik = frameTrack(doc.ik.count, (i) => doc.ik.view.getUint32(doc.ik.offsets[i], true));
  const lastFrame = Math.max(lastFrameOf(bones, morphs, camera, light, shadow, ik), 0);
  return { bones, morphs, camera, light, shadow, ik, lastFrame };
}

/** Index k in [a, b) of the last key with frames[k] <= f, or a - 1 when f is before the first key. */
export function keyAtOrBefore(frames: Uint32Array, a: number, b: number, f: number): number {
  let lo = a, hi = b;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (frames[mid] <= f) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
