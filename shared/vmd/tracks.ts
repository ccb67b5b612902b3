/**
 * Tracks: a document's keys regrouped once into struct-of-arrays typed arrays, per bone / morph name
 * and for the camera, light, self-shadow and IK blocks, each sorted by frame. This is what sampling,
 * drawing and the editor read. Where one name has two keys on one frame, the first in the file wins
 * (later ones are counted in `duplicates`). Names are grouped by their decoded form (a cut last
 * character dropped), the way players match them against a model.
 */
import type { FixedBlock, VmdDocument } from './vmd-document';
import { BONE, CAMERA, IK, LIGHT, MORPH, SHADOW } from './vmd-layout';
import { decodeLoneName, decodeName } from './sjis';
import { wasmInstance } from './tracks-wasm';

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
  /**
   * Track index by display name. Built when first asked (and kept): a read that never looks a name up
   * (opening a motion, a conversion) does not pay for a Map of every name. Copies made by spreading the
   * tracks (`{ ...tracks }`) take the built Map.
   */
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

// ---- Building tracks ----
// Bones and morphs are read in file order, twice, and never at random: first each record's name
// and frame, which give its place in the sorted tracks; then a bone's values, written straight to
// that place. (Dances interleave their bones, so gathering a track's keys would hop across the whole
// file for each one.) A morph's one value is read with its name and frame, into a compact copy that
// is then gathered. Records are 111 and 23 bytes, so fields are not 4-byte aligned: no typed-array
// view over them; everything is read through DataView, a word at a time.

/** Marks a record dropped as a duplicate in a destination map. */
const DROPPED = 0xffffffff;

export interface Grouping {
  /** Track of each record, in file order (orderKeys overwrites it with each record's place). */
  trackOf: Uint32Array;
  /** Frame of each record, in file order: read with the name, whose cache line it shares. */
  fileFrames: Uint32Array;
  /** The word at groupByName's `valueOffset` of each record, in file order (empty without one). */
  fileValues: Int32Array;
  /** Keys per track. */
  keysPerTrack: Uint32Array;
  names: string[];
  /** The name → track Map, where the grouping needed one (some names may decode alike); else null, and namesIndex builds it. */
  index: Map<string, number> | null;
  /** Distinct names as bytes up to the NUL (names that decode alike are counted apart). */
  spellings: number;
}

/** Bone and morph name fields are both 15 bytes: grouping reads them as 4 little-endian words. */
const NAME_FIELD: typeof BONE.NAME_LENGTH & typeof MORPH.NAME_LENGTH = 15;
/** Both frames follow the name. */
const NAMED_FRAME: typeof BONE.FRAME & typeof MORPH.FRAME = 15;

/** Mixes the 4 words of a name field into a table hash. */
function fieldHash(a0: number, a1: number, a2: number, a3: number): number {
  // Each word's high bytes mixed down before the next one comes in: the table takes the low bits, and
  // a product's low bits see only its factor's low bits (Shift_JIS names share their lead bytes).
  let h = Math.imul(a0 ^ (a0 >>> 16), 0x85ebca6b) ^ a1;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) ^ a2;
  h = Math.imul(h ^ (h >>> 16), 0x27d4eb2f) ^ a3;
  h = Math.imul(h ^ (h >>> 15), 0x9e3779b1);
  return h ^ (h >>> 16);
}

/**
 * An open-addressing table (linear probing, -1 for empty) of `mask + 1` slots holding names 0..n-1 by
 * their hashes: groupByName's, made anew each time it grows past half full. A plain loop, no hash
 * callback: a closure over groupByName's growing arrays made V8 keep them in a context, and every read
 * of them in the per-key loop went through it.
 */
function nameTableOf(words: Int32Array, n: number, mask: number): Int32Array<ArrayBuffer> {
  const table = new Int32Array(mask + 1).fill(-1);
  for (let k = 0; k < n; k++) {
    let z = fieldHash(words[4 * k], words[4 * k + 1], words[4 * k + 2], words[4 * k + 3]) & mask;
    while (table[z] >= 0) z = (z + 1) & mask;
    table[z] = k;
  }
  return table;
}

/**
 * The track of a decoded name, made (appended to names, and to index when there is one) when it is new.
 * `index` null: every name so far is known to be new (lone spellings, see groupByName), and is not
 * looked up.
 */
function trackOfName(name: string, names: string[], index: Map<string, number> | null): number {
  const known = index === null ? undefined : index.get(name);
  if (known !== undefined) return known;
  names.push(name);
  index?.set(name, names.length - 1);
  return names.length - 1;
}

/**
 * The names of a grouping, made one new spelling at a time (both groupings, JS and WebAssembly). Two lone
 * spellings (see sjis.ts) never decode alike: while every spelling so far has been one, a new lone one is a
 * new name, and no index is needed (a tenth of the read of a 3,000-name motion). From the first other
 * spelling on, the index is made and every new one is looked up.
 */
class SpellingNames {
  readonly names: string[] = [];
  index: Map<string, number> | null = null;
  /** The track of the name field at bytes[o..], a new spelling of the block. */
  trackOf(bytes: Uint8Array, o: number): number {
    let name = this.index === null ? decodeLoneName(bytes, o, NAME_FIELD) : null;
    if (name === null) {
      this.index ??= indexOfNames(this.names);
      name = decodeName(bytes, o, NAME_FIELD);
    }
    return trackOfName(name, this.names, this.index);
  }
}

/**
 * The name → track Map of a grouping's names (distinct, as trackOfName makes them), in track order: what
 * a grouping that looked names up builds on the way. Exported for its test.
 */
export function indexOfNames(names: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let t = 0; t < names.length; t++) index.set(names[t], t);
  return index;
}

/** Where a NamedTracks keeps its index once made (or the grouping's, where it needed one): not enumerable, so spreads and entries skip it. */
const BUILT_INDEX = Symbol('index');

interface IndexHolder {
  readonly names: readonly string[];
  [BUILT_INDEX]: Map<string, number> | null;
}

function builtIndex(this: IndexHolder): Map<string, number> {
  return (this[BUILT_INDEX] ??= indexOfNames(this.names));
}

/** One getter for every NamedTracks: objects given it the same way share V8's hidden class (a closure per object would give each its own). */
const INDEX_GETTER: PropertyDescriptor = { get: builtIndex, enumerable: true, configurable: true };

/**
 * `t` with its `index` a getter: `built` (the grouping's Map, where it needed one) or, when first asked,
 * indexOfNames of its names, kept. A read that never looks a name up (the editor's open, a conversion,
 * the bench) does not make the Map: 2,974 Map.sets were some 200 µs of a 1.6 MB motion's ~1.6 ms read
 * (issue 31). The getter is an own, enumerable property, so `{ ...tracks }` copies the Map. Added by
 * defineProperty, not as an accessor in the object literal: V8 keeps such literals in dictionary mode,
 * and every read of their arrays (sampling, drawing) would be a slow lookup.
 */
function withIndex<T extends { readonly names: readonly string[] }>(t: T, built: Map<string, number> | null): T & { readonly index: Map<string, number> } {
  Object.defineProperty(t, BUILT_INDEX, { value: built, writable: true, enumerable: false, configurable: true });
  return Object.defineProperty(t, 'index', INDEX_GETTER) as T & { readonly index: Map<string, number> };
}

/**
 * Reads the name of every named record in file order and gives each record its track. A name is the
 * field's bytes up to its first NUL: what follows is padding, zeros or garbage, and files whose
 * garbage differs from record to record are read as fast as those padded with zeros. Each record's
 * 15 bytes are read as 4 little-endian words, the bytes from the first NUL on cleared without a
 * branch, and looked up in one hash table (open addressing, kept at most half full) by those 4
 * words; a record whose 15 bytes are those of the record before (a track written key after key, a
 * lip-synced mouth) takes its name without the lookup. A name not seen before is decoded once; names
 * that decode alike share a track (a cut last character, see sjis.ts). Each record's frame, and the
 * word at `valueOffset` when given, are copied out in file order on the way. Exported for its test
 * (`spellings`: the table's entries).
 */
export function groupByName(block: FixedBlock, valueOffset = -1): Grouping {
  if (block.count >= WASM_MIN_KEYS) {
    const g = groupByNameWasm(block, valueOffset);
    if (g !== null) return g;
  }
  const { bytes, view, size, count } = block;
  const trackOf = new Uint32Array(count);
  const fileFrames = new Uint32Array(count);
  const withValues = valueOffset >= 0;
  const fileValues = new Int32Array(withValues ? count : 0);
  const spelled = new SpellingNames();
  // Names: 4 words each, and the track.
  let cap = 64, known = 0;
  let words = new Int32Array(4 * cap), nameTrack = new Int32Array(cap);
  // Keys per name, counted here so that orderKeys needs no counting pass of its own.
  let nameKeys = new Uint32Array(cap);
  let mask = 255;
  let table = new Int32Array(mask + 1).fill(-1);
  // The previous record's field as read (garbage and all) and its name: p3 starts at a value no
  // field has (w3 is 24 bits).
  let p0 = 0, p1 = 0, p2 = 0, p3 = -1, pr = 0;
  for (let i = 0, o = 0; i < count; i++, o += size) {
    const w0 = view.getInt32(o, true);
    const w1 = view.getInt32(o + 4, true);
    const w2 = view.getInt32(o + 8, true);
    const w3 = view.getInt32(o + 12, true) & 0xffffff; // bytes 12–14 (15 is the frame), byte 3 zero
    fileFrames[i] = view.getUint32(o + NAMED_FRAME, true);
    if (withValues) fileValues[i] = view.getInt32(o + valueOffset, true);
    if (((w0 ^ p0) | (w1 ^ p1) | (w2 ^ p2) | (w3 ^ p3)) === 0) {
      trackOf[i] = nameTrack[pr];
      nameKeys[pr] = nameKeys[pr] + 1;
      continue;
    }
    p0 = w0;
    p1 = w1;
    p2 = w2;
    p3 = w3;
    // z: the high bit of each zero byte of a word (and maybe of bytes above one: never below);
    // z & -z its lowest; (that >>> 7) - 1 keeps the bytes below it (all when z is 0). `live`: no
    // NUL in the words before, so this one is kept at all.
    const z0 = (w0 - 0x01010101) & ~w0 & 0x80808080;
    const z1 = (w1 - 0x01010101) & ~w1 & 0x80808080;
    const z2 = (w2 - 0x01010101) & ~w2 & 0x80808080;
    const z3 = (w3 - 0x01010101) & ~w3 & 0x80808080;
    const live1 = ~((z0 | -z0) >> 31), live2 = live1 & ~((z1 | -z1) >> 31), live3 = live2 & ~((z2 | -z2) >> 31);
    const a0 = w0 & (((z0 & -z0) >>> 7) - 1);
    const a1 = w1 & (((z1 & -z1) >>> 7) - 1) & live1;
    const a2 = w2 & (((z2 & -z2) >>> 7) - 1) & live2;
    const a3 = w3 & (((z3 & -z3) >>> 7) - 1) & live3;
    let slot = fieldHash(a0, a1, a2, a3) & mask;
    let r: number;
    for (;;) {
      r = table[slot];
      if (r < 0 || ((words[4 * r] ^ a0) | (words[4 * r + 1] ^ a1) | (words[4 * r + 2] ^ a2) | (words[4 * r + 3] ^ a3)) === 0) break;
      slot = (slot + 1) & mask;
    }
    if (r < 0) {
      // A name not seen before.
      if (known === cap) {
        cap *= 2;
        const w = new Int32Array(4 * cap), nt = new Int32Array(cap), nk = new Uint32Array(cap);
        w.set(words);
        nt.set(nameTrack);
        nk.set(nameKeys);
        words = w;
        nameTrack = nt;
        nameKeys = nk;
      }
      r = known++;
      words[4 * r] = a0;
      words[4 * r + 1] = a1;
      words[4 * r + 2] = a2;
      words[4 * r + 3] = a3;
      nameTrack[r] = spelled.trackOf(bytes, o);
      table[slot] = r;
      if (2 * known > mask) {
        mask = 2 * mask + 1;
        table = nameTableOf(words, known, mask);
      }
    }
    trackOf[i] = nameTrack[r];
    nameKeys[r] = nameKeys[r] + 1; // not nameKeys[r]++: see orderKeys
    pr = r;
  }
  const { names, index } = spelled;
  const keysPerTrack = new Uint32Array(names.length);
  for (let r = 0; r < known; r++) keysPerTrack[nameTrack[r]] += nameKeys[r];
  return { trackOf, fileFrames, fileValues, keysPerTrack, names, index, spellings: known };
}

/** Blocks of fewer records are read by the JS loops (a memory and an instance cost some 20 µs). */
const WASM_MIN_KEYS = 2048;

/**
 * Where tracks.wat's arrays lie in its memory for a block of n records of `size` bytes (byte offsets;
 * the records at 0). Per record: spelling (then track, then place), frame, value, 4 name words, a
 * place's record index and frame and their scratch; per spelling: keys, first record, track; per
 * track: first place, next place, descents; a name table of up to 4 slots per spelling.
 */
function wasmLayout(n: number, size: number) {
  const names = Math.ceil((n * size) / 16) * 16;
  const frames = names + 4 * n, values = frames + 4 * n, words = values + 4 * n;
  const keys = words + 16 * n, first = keys + 4 * n, map = first + 4 * n, table = map + 4 * n;
  const counts = table + 4 * Math.max(256, 4 * n), slot = counts + 4 * (n + 1), descents = slot + 4 * n;
  const order = descents + 4 * n, out = order + 4 * n, scratchO = out + 4 * n, scratchF = scratchO + 4 * n, buckets = scratchF + 4 * n;
  // Decoded values go where the grouping's and the sort's work lay, all read or copied out by then:
  // bone positions (12 bytes a key) over the name table, rotations (16) over the name words, curves
  // (16) over the order, sorted frames and scratch (4 × 4); a morph's weights (4) over the name words.
  const pos = table, rot = words, curves = order, weights = words;
  return {
    names, frames, values, words, keys, first, map, table, counts, slot, descents, order, out, scratchO, scratchF, buckets,
    pos, rot, curves, weights, end: buckets + 4 * 2048,
  };
}

interface WasmGrouping {
  w: NonNullable<ReturnType<typeof wasmInstance>>;
  at: ReturnType<typeof wasmLayout>;
  spellings: number;
  names: string[];
  index: Map<string, number> | null;
  /** Track of each spelling, in the memory at `at.map`. */
  trackOfSpelling: Uint32Array;
  /** Whether every spelling is a track of its own, of the same number. */
  same: boolean;
}

/**
 * groupByName through tracks.wat's `group`, or null where WebAssembly cannot run: each record's
 * spelling (numbered in order of first sight, as groupByName meets them) and frame (and value) in the
 * memory; the names decoded here, one per spelling, in that order, into tracks as groupByName makes them.
 */
function groupInWasm(block: FixedBlock, valueOffset: number): WasmGrouping | null {
  const { bytes, size, count: n } = block;
  const at = wasmLayout(n, size);
  const w = wasmInstance(at.end);
  if (w === null) return null;
  const buf = w.memory.buffer;
  new Uint8Array(buf, 0, n * size).set(bytes);
  const spellings = w.exports.group(n, size, valueOffset, at.names, at.frames, at.values, at.words, at.keys, at.first, at.table);
  const first = new Uint32Array(buf, at.first, spellings);
  const spelled = new SpellingNames();
  const trackOfSpelling = new Uint32Array(buf, at.map, spellings);
  let same = true;
  for (let r = 0; r < spellings; r++) {
    const t = spelled.trackOf(bytes, first[r] * size);
    trackOfSpelling[r] = t;
    if (t !== r) same = false;
  }
  return { w, at, spellings, names: spelled.names, index: spelled.index, trackOfSpelling, same };
}

/** groupByName through tracks.wat, its results copied out of the memory. */
function groupByNameWasm(block: FixedBlock, valueOffset: number): Grouping | null {
  const g = groupInWasm(block, valueOffset);
  if (g === null) return null;
  const { w, at, spellings, names, index, trackOfSpelling, same } = g;
  const n = block.count, buf = w.memory.buffer;
  const keys = new Uint32Array(buf, at.keys, spellings);
  const keysPerTrack = new Uint32Array(names.length);
  for (let r = 0; r < spellings; r++) keysPerTrack[trackOfSpelling[r]] += keys[r];
  const trackOf = new Uint32Array(buf, at.names, n).slice();
  if (!same) for (let i = 0; i < n; i++) trackOf[i] = trackOfSpelling[trackOf[i]];
  const fileFrames = new Uint32Array(buf, at.frames, n).slice();
  const fileValues = valueOffset >= 0 ? new Int32Array(buf, at.values, n).slice() : new Int32Array(0);
  return { trackOf, fileFrames, fileValues, keysPerTrack, names, index, spellings };
}

interface WasmOrdered extends Ordered {
  names: string[];
  index: Map<string, number> | null;
  /** The instance and its memory's layout: `dest` is at `at.names`, the kept records at `at.order`, the file's values at `at.values`. */
  w: WasmGrouping['w'];
  at: WasmGrouping['at'];
}

/**
 * groupByName and orderKeys through tracks.wat (its `group`, `place`, `sort` and `dedup`), or null where
 * WebAssembly cannot run. Gives what orderKeys gives, record, frames and start copied out; `dest`
 * (with `places`), the kept records and the file's values stay in the memory (at `at`), where the
 * caller decodes or gathers the keys' values before anything else uses it.
 */
function groupAndOrderInWasm(block: FixedBlock, valueOffset: number, places: boolean): WasmOrdered | null {
  const g = groupInWasm(block, valueOffset);
  if (g === null) return null;
  const { w, at, spellings, names, index, trackOfSpelling } = g;
  const n = block.count, trackCount = names.length, buf = w.memory.buffer;
  const keys = new Uint32Array(buf, at.keys, spellings);
  const counts = new Uint32Array(buf, at.counts, trackCount + 1);
  counts.fill(0);
  for (let r = 0; r < spellings; r++) counts[trackOfSpelling[r] + 1] += keys[r];
  for (let t = 0; t < trackCount; t++) counts[t + 1] += counts[t];
  new Uint32Array(buf, at.slot, trackCount).set(counts.subarray(0, trackCount));
  new Uint32Array(buf, at.descents, trackCount).fill(0);
  let repeats = w.exports.place(n, at.names, at.map, at.frames, at.counts, at.slot, at.descents, at.order, at.out, places ? 1 : 0) !== 0;
  // The tracks out of order sorted there too (sort: the loop of orderKeys after its placement).
  if (w.exports.sort(trackCount, at.counts, at.descents, at.order, at.out, at.names, places ? 1 : 0, at.scratchO, at.scratchF, at.buckets) !== 0) repeats = true;
  const order = new Uint32Array(buf, at.order, n), frames = new Uint32Array(buf, at.out, n);
  const dest = new Uint32Array(buf, at.names, n);
  if (!repeats) return { names, index, start: counts.slice(), record: order.slice(), frames: frames.slice(), duplicates: 0, dest, w, at };
  // Duplicates dropped there too (dedup, as dropDuplicates), the kept records moved down to the start of
  // `order`, where the callers' gathers read them. Each track's first kept place goes where the sort's
  // next places and descents lay (at.slot, trackCount + 1 words: at most n + 1, within the two).
  const kept = w.exports.dedup(n, trackCount, at.counts, at.order, at.out, at.names, places ? 1 : 0, at.slot);
  const start = new Uint32Array(buf, at.slot, trackCount + 1).slice();
  return { names, index, start, record: order.slice(0, kept), frames: frames.slice(0, kept), duplicates: n - kept, dest, w, at };
}

/**
 * Whether a track of n keys whose steps go down `descents` times is in no order: 64 keys or more,
 * going down about half the time (7/16 to 9/16). Shuffled keys do that; real tracks with keys moved
 * back go down a third of the time or less, and insertion sort beats a radix sort on them.
 */
function inNoOrder(n: number, descents: number): boolean {
  return n >= 64 && 16 * descents > 7 * n && 16 * descents < 9 * n;
}

/**
 * Sorts order/frames on [a, b) by frame, stably (equal frames in file order, which is the order of
 * their record indices), and says whether it did. Tracks are usually nearly sorted (a few keys moved
 * back), so insertion sort; a track mostly in descending order (keys written last to first) is
 * reversed before it, and its equal frames put back in file order after. Past a work budget it
 * stops and returns false, leaving [a, b) permuted. `descents`: how many steps of [a, b) go down
 * (orderKeys counts them as it places the keys). Tracks in no order never come here (see inNoOrder).
 */
function sortRange(frames: Uint32Array, order: Uint32Array, a: number, b: number, descents: number): boolean {
  const n = b - a;
  const reversed = 2 * descents > n;
  if (reversed) {
    for (let i = a, j = b - 1; i < j; i++, j--) {
      const f = frames[i], r = order[i];
      frames[i] = frames[j];
      order[i] = order[j];
      frames[j] = f;
      order[j] = r;
    }
  }
  const budget = 4 * (b - a) + 512; // a radix sort costs some 1,000 steps over its buckets
  let moves = 0;
  for (let k = a + 1; k < b; k++) {
    const f = frames[k];
    if (f >= frames[k - 1]) continue;
    const r = order[k];
    let j = k - 1;
    while (j >= a && frames[j] > f) {
      frames[j + 1] = frames[j];
      order[j + 1] = order[j];
      j--;
    }
    frames[j + 1] = f;
    order[j + 1] = r;
    moves += k - 1 - j;
    if (moves > budget) break;
  }
  if (moves > budget) return false;
  if (reversed) tiesInFileOrder(frames, order, a, b);
  return true;
}

/** Within each run of equal frames of a sorted range, the records in ascending index (file) order. */
function tiesInFileOrder(frames: Uint32Array, order: Uint32Array, a: number, b: number): void {
  for (let k = a + 1; k < b; k++) {
    if (frames[k] !== frames[k - 1] || order[k] > order[k - 1]) continue;
    const r = order[k];
    let j = k - 1;
    while (j >= a && frames[j] === frames[k] && order[j] > r) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = r;
  }
}

/**
 * Sorts order/frames on [a, b) by (frame, file order), whatever order they hold there now. A stable
 * LSD radix sort by frame, passing the range back and forth between order/frames and the scratch
 * arrays (b - a long at least, used from 0): linear in the keys, whatever their order, and every
 * access stays in the range. Digits of at most 11 bits (two passes up to frame 4,194,303, the usual
 * case written out); one pass counts every digit. `inFileOrder`: the range holds its keys as placed,
 * in file order, which a stable sort keeps for equal frames; else (half sorted by sortRange before it
 * gave up) equal frames are put back in file order (ascending record index) after. For tracks in no
 * order (keys of many bones interleaved at random, a shuffled lip-sync block), where insertion sort
 * gives up.
 */
function radixRange(order: Uint32Array, frames: Uint32Array, scratchO: Uint32Array, scratchF: Uint32Array, a: number, b: number, inFileOrder: boolean): void {
  let maxFrame = 0;
  for (let k = a; k < b; k++) if (frames[k] > maxFrame) maxFrame = frames[k];
  // As few passes as digits of up to 11 bits allow, the bits shared evenly between them (frames up
  // to 120,000 take two passes of 9 bits, not three of 8).
  let used = 1;
  while (used < 32 && maxFrame >>> used !== 0) used++;
  const passes = Math.ceil(used / 11), bits = Math.ceil(used / passes), size = 1 << bits, mask = size - 1;
  const buckets = new Uint32Array(passes * size);
  if (passes === 2) {
    // Low digit into the scratch arrays, high digit back: no loop over passes in the per-key loops.
    for (let k = a; k < b; k++) {
      const f = frames[k];
      buckets[f & mask]++;
      buckets[size + (f >>> bits)]++;
    }
    for (let d = 0, lo = 0, hi = a; d < size; d++) {
      const cl = buckets[d], ch = buckets[size + d];
      buckets[d] = lo;
      buckets[size + d] = hi;
      lo += cl;
      hi += ch;
    }
    for (let k = a; k < b; k++) {
      const f = frames[k], d = f & mask;
      const p = buckets[d];
      buckets[d] = p + 1; // not buckets[d]++ as a value: see orderKeys
      scratchO[p] = order[k];
      scratchF[p] = f;
    }
    for (let k = 0, end = b - a; k < end; k++) {
      const f = scratchF[k], d = size + (f >>> bits);
      const p = buckets[d];
      buckets[d] = p + 1;
      order[p] = scratchO[k];
      frames[p] = f;
    }
  } else {
    for (let k = a; k < b; k++) {
      const f = frames[k];
      for (let q = 0; q < passes; q++) buckets[q * size + ((f >>> (q * bits)) & mask)]++;
    }
    // Even passes move the range into the scratch arrays (at 0), odd ones back to [a, b).
    for (let q = 0; q < passes; q++) {
      const base = q * size, shift = q * bits;
      const toScratch = (q & 1) === 0;
      const srcO = toScratch ? order : scratchO, srcF = toScratch ? frames : scratchF;
      const dstO = toScratch ? scratchO : order, dstF = toScratch ? scratchF : frames;
      const from = toScratch ? a : 0, to = toScratch ? 0 : a;
      for (let d = base, sum = to; d < base + size; d++) {
        const c = buckets[d];
        buckets[d] = sum;
        sum += c;
      }
      for (let k = from, end = from + (b - a); k < end; k++) {
        const f = srcF[k];
        const d = base + ((f >>> shift) & mask);
        const p = buckets[d];
        buckets[d] = p + 1;
        dstO[p] = srcO[k];
        dstF[p] = f;
      }
    }
    if ((passes & 1) === 1) {
      order.set(scratchO.subarray(0, b - a), a);
      frames.set(scratchF.subarray(0, b - a), a);
    }
  }
  if (!inFileOrder) tiesInFileOrder(frames, order, a, b);
}

interface Ordered {
  start: Uint32Array;
  /** Kept record indices, by (track, frame). */
  record: Uint32Array;
  frames: Uint32Array;
  duplicates: number;
  /** Place of each record (file order) in `record`, or DROPPED. */
  dest: Uint32Array;
}

/**
 * Orders records by (track, frame, file order) and drops later duplicates of a (track, frame):
 * a counting sort by track (which keeps file order within a track; the keys per track come counted
 * from the grouping), then an insertion or radix sort of only the tracks that are out of order.
 * `trackOf` becomes `dest`: each record's track is read once, where its place is then written.
 */
function orderKeys(trackOf: Uint32Array, keysPerTrack: Uint32Array, fileFrames: Uint32Array, places: boolean): Ordered {
  const n = trackOf.length, trackCount = keysPerTrack.length;
  const counts = new Uint32Array(trackCount + 1);
  for (let t = 0; t < trackCount; t++) counts[t + 1] = counts[t] + keysPerTrack[t];
  const slot = counts.slice(0, trackCount);
  // Steps down per track as placed (file order): 0 for a sorted track.
  const descents = new Uint32Array(trackCount);
  const order = new Uint32Array(n);
  const frames = new Uint32Array(n);
  const dest = trackOf;
  let repeats = false; // some (track, frame) occurs twice
  for (let i = 0; i < n; i++) {
    const t = trackOf[i];
    // Read, then write back: V8 gives `slot[t]++` used as a value (a typed array's element) a slow
    // generic path, 10+ ns a key here.
    const p = slot[t];
    slot[t] = p + 1;
    const f = fileFrames[i];
    order[p] = i;
    frames[p] = f;
    if (places) dest[i] = p;
    if (p > counts[t]) {
      const before = frames[p - 1];
      if (f < before) descents[t] = descents[t] + 1;
      else if (f === before) repeats = true;
    }
  }
  // Nearly sorted or reversed tracks by insertion; the rest by radix, through scratch arrays as long
  // as the longest such track.
  let scratchO: Uint32Array | null = null, scratchF: Uint32Array | null = null;
  for (let t = 0; t < trackCount; t++) {
    if (descents[t] === 0) continue;
    const a = counts[t], b = counts[t + 1];
    const noOrder = inNoOrder(b - a, descents[t]);
    if (noOrder || !sortRange(frames, order, a, b, descents[t])) {
      if (scratchO === null || scratchO.length < b - a) {
        let longest = 0;
        for (let u = t; u < trackCount; u++) if (descents[u] !== 0 && counts[u + 1] - counts[u] > longest) longest = counts[u + 1] - counts[u];
        scratchO = new Uint32Array(longest);
        scratchF = new Uint32Array(longest);
      }
      radixRange(order, frames, scratchO, scratchF!, a, b, noOrder);
    }
    if (placeSorted(order, frames, places ? dest : null, a, b)) repeats = true;
  }
  if (!repeats) return { start: counts, record: order, frames, duplicates: 0, dest };
  return { ...dropDuplicates(counts, order, frames, places ? dest : null), dest };
}

/**
 * Drops duplicates (same track, same frame) from keys ordered by (track, frame, file order): the first
 * in the file sorts first and is kept. `dest` (when given) becomes each record's place or DROPPED.
 */
function dropDuplicates(counts: Uint32Array, order: Uint32Array, frames: Uint32Array, dest: Uint32Array | null): Omit<Ordered, 'dest'> {
  const n = order.length, trackCount = counts.length - 1;
  if (dest !== null) dest.fill(DROPPED);
  const start = new Uint32Array(trackCount + 1);
  let w = 0;
  for (let t = 0; t < trackCount; t++) {
    start[t] = w;
    for (let k = counts[t]; k < counts[t + 1]; k++) {
      if (k > counts[t] && frames[k] === frames[k - 1]) continue;
      order[w] = order[k];
      frames[w] = frames[k];
      if (dest !== null) dest[order[w]] = w;
      w++;
    }
  }
  start[trackCount] = w;
  return { start, record: order.slice(0, w), frames: frames.slice(0, w), duplicates: n - w };
}

/** hasCopies (interpolation.ts) a word at a time: true when bytes 16–63 of the block hold anything. */
function rowsCopied(v: DataView, ip: number): boolean {
  return (
    v.getInt32(ip + 16) !== 0 ||
    (v.getInt32(ip + 20) | v.getInt32(ip + 24) | v.getInt32(ip + 28) | v.getInt32(ip + 32) |
      v.getInt32(ip + 36) | v.getInt32(ip + 40) | v.getInt32(ip + 44) | v.getInt32(ip + 48) |
      v.getInt32(ip + 52) | v.getInt32(ip + 56) | v.getInt32(ip + 60)) !== 0
  );
}

/**
 * Decodes record i of a bone block (at byte o) into key k of the arrays. Floats are copied as their bit
 * patterns: a little-endian read of the stored bits, written and later read back in the host's order,
 * is the same float on any host (NaN payloads included).
 */
function decodeBoneKey(v: DataView, o: number, k: number, posBits: Int32Array, rotBits: Int32Array, curveView: DataView): void {
  const p = o + BONE.POSITION;
  posBits[3 * k] = v.getInt32(p, true);
  posBits[3 * k + 1] = v.getInt32(p + 4, true);
  posBits[3 * k + 2] = v.getInt32(p + 8, true);
  const r = o + BONE.ROTATION;
  rotBits[4 * k] = v.getInt32(r, true);
  rotBits[4 * k + 1] = v.getInt32(r + 4, true);
  rotBits[4 * k + 2] = v.getInt32(r + 8, true);
  rotBits[4 * k + 3] = v.getInt32(r + 12, true);
  // Row 0 holds, byte c of each word, channel c's x1 (w0), y1 (w1), x2 (w2), y2 (w3); transposed
  // here to (x1, y1, x2, y2) per channel. When rows 1–3 hold copies, bytes 2 and 3 are MMD's physics
  // flag and x1 of Z and rotation come from bytes 17 and 18 (see interpolation.ts).
  const ip = o + BONE.INTERPOLATION;
  let w0 = v.getInt32(ip, true);
  if (rowsCopied(v, ip)) w0 = (w0 & 0xffff) | (v.getUint16(ip + 17, true) << 16);
  const w1 = v.getInt32(ip + 4, true), w2 = v.getInt32(ip + 8, true), w3 = v.getInt32(ip + 12, true);
  const q = 16 * k;
  curveView.setInt32(q, (w0 & 0xff) | ((w1 & 0xff) << 8) | ((w2 & 0xff) << 16) | (w3 << 24), true);
  curveView.setInt32(q + 4, ((w0 >>> 8) & 0xff) | (w1 & 0xff00) | ((w2 & 0xff00) << 8) | ((w3 & 0xff00) << 16), true);
  curveView.setInt32(q + 8, ((w0 >>> 16) & 0xff) | ((w1 >>> 8) & 0xff00) | (w2 & 0xff0000) | ((w3 & 0xff0000) << 8), true);
  curveView.setInt32(q + 12, (w0 >>> 24) | ((w1 >>> 16) & 0xff00) | ((w2 >>> 8) & 0xff0000) | (w3 & 0xff000000), true);
}

/** Arrays for n decoded bone keys, with the views decodeBoneKey writes through. */
function boneKeyArrays(n: number) {
  const position = new Float32Array(3 * n);
  const rotation = new Float32Array(4 * n);
  const curves = new Uint8Array(16 * n);
  return { position, rotation, curves, posBits: new Int32Array(position.buffer), rotBits: new Int32Array(rotation.buffer), curveView: new DataView(curves.buffer) };
}

/**
 * Decodes every record of a bone block, in file order, to its place in `dest` (DROPPED: none).
 *
 * Hot loops live in functions of their own, each ending where its loop does. A loop that runs long
 * on a function's first call is optimized there and then, on the spot (on-stack replacement), before
 * the code after it has ever run; when that code needs what V8 learns by running it (the property
 * stores of a returned object), the optimized loop gave up there on every call after, and V8 kept it
 * so: buildBoneTracks went back to the interpreter once a read, and a read cost up to half again.
 */
function decodeBoneKeys(block: FixedBlock, dest: Uint32Array, keys: ReturnType<typeof boneKeyArrays>): void {
  const { view: v, count } = block;
  const { posBits, rotBits, curveView } = keys;
  for (let i = 0, o = 0; i < count; i++, o += BONE.SIZE) {
    const k = dest[i];
    if (k !== DROPPED) decodeBoneKey(v, o, k, posBits, rotBits, curveView);
  }
}

export function buildBoneTracks(block: FixedBlock): BoneTracks {
  if (block.count >= WASM_MIN_KEYS) {
    const o = groupAndOrderInWasm(block, -1, true);
    if (o !== null) {
      // The records are in the memory already: decoded there (tracks.wat's decode, as decodeBoneKeys) and
      // copied out, a third of their bytes.
      const { names, start, record, frames, duplicates, w, at } = o;
      const m = record.length, buf = w.memory.buffer;
      w.exports.decode(block.count, at.names, at.pos, at.rot, at.curves);
      const position = new Float32Array(buf, at.pos, 3 * m).slice();
      const rotation = new Float32Array(buf, at.rot, 4 * m).slice();
      const curves = new Uint8Array(buf, at.curves, 16 * m).slice();
      return withIndex({ names, start, frames, record, duplicates, position, rotation, curves }, o.index);
    }
  }
  const g = groupByName(block);
  const { names } = g;
  const { start, record, frames, duplicates, dest } = orderKeys(g.trackOf, g.keysPerTrack, g.fileFrames, true);
  const keys = boneKeyArrays(record.length);
  decodeBoneKeys(block, dest, keys);
  const { position, rotation, curves } = keys;
  return withIndex({ names, start, frames, record, duplicates, position, rotation, curves }, g.index);
}

/**
 * The bone tracks' order without their values: names, frames and records as buildBoneTracks gives
 * them (a tenth of its memory per key); boneTrackOf then decodes one track at a time.
 */
export function indexBoneTracks(block: FixedBlock): NamedTracks {
  if (block.count >= WASM_MIN_KEYS) {
    const o = groupAndOrderInWasm(block, -1, false);
    if (o !== null) return withIndex({ names: o.names, start: o.start, frames: o.frames, record: o.record, duplicates: o.duplicates }, o.index);
  }
  const g = groupByName(block);
  const { start, record, frames, duplicates } = orderKeys(g.trackOf, g.keysPerTrack, g.fileFrames, false);
  return withIndex({ names: g.names, start, frames, record, duplicates }, g.index);
}

/**
 * Track t of `tracks` (indexBoneTracks of `block`) as BoneTracks of its own: track 0, with its keys'
 * values decoded. Its `record` still indexes `block`.
 */
export function boneTrackOf(block: FixedBlock, tracks: NamedTracks, t: number): BoneTracks {
  const a = tracks.start[t], e = tracks.start[t + 1];
  const record = tracks.record.subarray(a, e);
  const { position, rotation, curves, posBits, rotBits, curveView } = boneKeyArrays(e - a);
  for (let k = 0; k < record.length; k++) decodeBoneKey(block.view, record[k] * BONE.SIZE, k, posBits, rotBits, curveView);
  const name = tracks.names[t];
  return {
    names: [name], index: new Map([[name, 0]]), start: Uint32Array.of(0, e - a), frames: tracks.frames.subarray(a, e),
    record, duplicates: 0, position, rotation, curves,
  };
}

export function buildMorphTracks(block: FixedBlock): MorphTracks {
  // A morph key's one value is read with its name and frame, in file order, and gathered from that
  // compact copy: the records themselves, 23 bytes apart, would be read at random in a shuffled block.
  if (block.count >= WASM_MIN_KEYS) {
    const o = groupAndOrderInWasm(block, MORPH.WEIGHT, false);
    if (o !== null) {
      // Gathered in the memory (tracks.wat's gather, as gatherBits), from the kept records left at `order`.
      const { names, start, record, frames, duplicates, w, at } = o;
      w.exports.gather(record.length, at.order, at.values, at.weights);
      const weight = new Float32Array(w.memory.buffer, at.weights, record.length).slice();
      return withIndex({ names, start, frames, record, duplicates, weight }, o.index);
    }
  }
  const g = groupByName(block, MORPH.WEIGHT);
  const { names } = g;
  const { start, record, frames, duplicates } = orderKeys(g.trackOf, g.keysPerTrack, g.fileFrames, false);
  const weight = gatherBits(g.fileValues, record);
  return withIndex({ names, start, frames, record, duplicates, weight }, g.index);
}

/** Floats whose bit patterns are bits[record[k]], k in order (a loop of its own: see decodeBoneKeys). */
function gatherBits(bits: Int32Array, record: Uint32Array): Float32Array {
  const out = new Float32Array(record.length);
  const outBits = new Int32Array(out.buffer);
  for (let k = 0; k < record.length; k++) outBits[k] = bits[record[k]];
  return out;
}

/** The one track of `count` records whose frames are little-endian words `stride` bytes apart from `frameOffset` in `view`. */
function frameTrack(view: DataView, stride: number, frameOffset: number, count: number): FrameTrack {
  const fileFrames = new Uint32Array(count);
  for (let i = 0, o = frameOffset; i < count; i++, o += stride) fileFrames[i] = view.getUint32(o, true);
  const { record, frames, duplicates } = orderKeys(new Uint32Array(count), Uint32Array.of(count), fileFrames, false);
  return { record, frames, duplicates };
}

export function buildCameraTrack(block: FixedBlock): CameraTrack {
  const v = block.view, bytes = block.bytes;
  const base = frameTrack(v, CAMERA.SIZE, CAMERA.FRAME, block.count);
  const n = base.record.length;
  const distance = new Float32Array(n), fov = new Float32Array(n), perspective = new Uint8Array(n);
  const target = new Float32Array(3 * n), rotation = new Float32Array(3 * n), curves = new Uint8Array(24 * n);
  // Floats as their bit patterns, as decodeBoneKey copies them.
  const distanceBits = new Int32Array(distance.buffer), targetBits = new Int32Array(target.buffer), rotationBits = new Int32Array(rotation.buffer);
  const curveView = new DataView(curves.buffer);
  for (let k = 0; k < n; k++) {
    const o = base.record[k] * CAMERA.SIZE;
    distanceBits[k] = v.getInt32(o + CAMERA.DISTANCE, true);
    const t = o + CAMERA.TARGET, r = o + CAMERA.ROTATION;
    targetBits[3 * k] = v.getInt32(t, true);
    targetBits[3 * k + 1] = v.getInt32(t + 4, true);
    targetBits[3 * k + 2] = v.getInt32(t + 8, true);
    rotationBits[3 * k] = v.getInt32(r, true);
    rotationBits[3 * k + 1] = v.getInt32(r + 4, true);
    rotationBits[3 * k + 2] = v.getInt32(r + 8, true);
    fov[k] = v.getUint32(o + CAMERA.FOV, true);
    perspective[k] = bytes[o + CAMERA.PERSPECTIVE];
    // Each channel's 4 bytes are stored x1, x2, y1, y2: swapped to (x1, y1, x2, y2) a word at a time.
    for (let c = 0, ip = o + CAMERA.INTERPOLATION, q = 24 * k; c < 6; c++, ip += 4, q += 4) {
      const w = v.getInt32(ip, true);
      curveView.setInt32(q, (w & 0xff0000ff) | ((w >>> 8) & 0xff00) | ((w & 0xff00) << 8), true);
    }
  }
  return { ...base, distance, target, rotation, fov, perspective, curves };
}

export function buildLightTrack(block: FixedBlock): LightTrack {
  const v = block.view;
  const base = frameTrack(block.view, LIGHT.SIZE, LIGHT.FRAME, block.count);
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

/** Largest frame in named tracks: the last key of each (keys are sorted within a track). */
function lastNamedFrame(t: NamedTracks): number {
  let m = 0;
  for (let k = 1; k < t.start.length; k++) if (t.start[k] > t.start[k - 1] && t.frames[t.start[k] - 1] > m) m = t.frames[t.start[k] - 1];
  return m;
}

function lastFrameOf(t: FrameTrack): number {
  return t.frames.length > 0 ? t.frames[t.frames.length - 1] : 0;
}

export function buildTracks(doc: VmdDocument): MotionTracks {
  const bones = buildBoneTracks(doc.bone);
  const morphs = buildMorphTracks(doc.morph);
  const camera = buildCameraTrack(doc.camera);
  const light = buildLightTrack(doc.light);
  const shadow = frameTrack(doc.shadow.view, SHADOW.SIZE, SHADOW.FRAME, doc.shadow.count);
  // IK records vary in size: their frames gathered as little-endian words.
  const ikFrames = new DataView(new ArrayBuffer(4 * doc.ik.count));
  for (let i = 0; i < doc.ik.count; i++) ikFrames.setUint32(4 * i, doc.ik.view.getUint32(doc.ik.offsets[i] + IK.FRAME, true), true);
  const ik = frameTrack(ikFrames, 4, 0, doc.ik.count);
  const lastFrame = Math.max(lastNamedFrame(bones), lastNamedFrame(morphs), lastFrameOf(camera), lastFrameOf(light), lastFrameOf(shadow), lastFrameOf(ik));
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

/**
 * After track [a, b) is sorted (by the WebAssembly path or the JS one): each key's place in the sorted arrays
 * (`dest`, when the caller wants them) and whether a frame repeats in it, in one pass.
 */
function placeSorted(order: Uint32Array, frames: Uint32Array, dest: Uint32Array | null, a: number, b: number): boolean {
  let repeats = false;
  if (dest) {
    dest[order[a]] = a;
    for (let k = a + 1; k < b; k++) {
      dest[order[k]] = k;
      if (frames[k] === frames[k - 1]) repeats = true;
    }
  } else {
    for (let k = a + 1; k < b; k++) if (frames[k] === frames[k - 1]) repeats = true;
  }
  return repeats;
}
