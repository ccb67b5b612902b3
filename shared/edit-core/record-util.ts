/**
 * Small helpers every edit uses over raw records: copy a record, read/write its frame, and the
 * (name, frame) identity used to detect collisions. Names are compared in their decoded form with
 * a cut last character dropped — the way tracks.ts groups them and players match them to a model.
 */
import { BLOCK_KINDS, FRAME_OFFSET, type BlockKind } from '../vmd/vmd-layout';
import { recordBytes, viewOf, type Block, type VmdDocument } from '../vmd/vmd-document';
import { decodeName } from '../vmd/sjis';

export const NAMED_KINDS: ReadonlySet<BlockKind> = new Set<BlockKind>(['bone', 'morph']);

/** A private copy of record i (edits never write into the source document's bytes). */
export function copyRecord(block: Block, i: number): Uint8Array {
  return recordBytes(block, i).slice();
}

export function getFrame(kind: BlockKind, rec: Uint8Array): number {
  return viewOf(rec).getUint32(FRAME_OFFSET[kind], true);
}

export function putFrame(kind: BlockKind, rec: Uint8Array, frame: number): void {
  viewOf(rec).setUint32(FRAME_OFFSET[kind], frame, true);
}

/** Frame of record i straight from the block. */
export function frameAt(block: Block, i: number): number {
  const o = block.kind === 'ik' ? block.offsets[i] : i * block.size;
  return block.view.getUint32(o + FRAME_OFFSET[block.kind], true);
}

/**
 * Decoded track name of a bone/morph record ('' for unnamed kinds). Cached by raw name bytes, since
 * a file repeats a few hundred names over thousands of keys.
 */
export class NameCache {
  private cache = new Map<string, string>();
  name(kind: BlockKind, rec: Uint8Array): string {
    if (!NAMED_KINDS.has(kind)) return '';
    let raw = '';
    for (let i = 0; i < 15 && rec[i] !== 0; i++) raw += String.fromCharCode(rec[i]);
    let n = this.cache.get(raw);
    if (n === undefined) {
      n = decodeName(rec, 0, 15);
      this.cache.set(raw, n);
    }
    return n;
  }
}

/** Tracks (name, frame) pairs already written for one block kind. */
export class KeySet {
  private seen = new Set<string>();
  /** Adds the pair; false when it was already there (a collision). */
  add(name: string, frame: number): boolean {
    const k = name + '\u0000' + frame;
    if (this.seen.has(k)) return false;
    this.seen.add(k);
    return true;
  }
  has(name: string, frame: number): boolean {
    return this.seen.has(name + '\u0000' + frame);
  }
}

/** Largest frame over all records of a document (0 when empty). */
export function lastFrameOf(doc: VmdDocument): number {
  let m = 0;
  for (const kind of BLOCK_KINDS) {
    const b = doc[kind];
    for (let i = 0; i < b.count; i++) {
      const f = frameAt(b, i);
      if (f > m) m = f;
    }
  }
  return m;
}

/** True when the document holds no keys at all. */
export function isEmptyDoc(doc: VmdDocument): boolean {
  return BLOCK_KINDS.every((k) => doc[k].count === 0);
}

export const MAX_FRAME = 0xffffffff;

/** How many keys a long edit (mirror, merge) goes through between two progress reports. */
export const PROGRESS_EVERY_KEYS = 65536;

/**
 * A progress teller over `total` keys: `key()` after each key (told every PROGRESS_EVERY_KEYS), `block()` after
 * each block that had keys (told then too); nothing without `progress`.
 */
export function keyProgress(total: number, progress?: (done: number, total: number) => void): { key: () => void; block: (count: number) => void } {
  let done = 0;
  if (!progress) return { key: () => {}, block: () => {} };
  return {
    key: () => {
      if (++done % PROGRESS_EVERY_KEYS === 0) progress(done, total);
    },
    block: (count) => {
      if (count > 0 && done % PROGRESS_EVERY_KEYS !== 0) progress(done, total);
    },
  };
}
