/**
 * Record diffs: the unit of every edit and of undo/redo. A diff names the block, the records it
 * rewrote (old and new bytes), the records it removed (with their indices) and the records it
 * appended at the end of the block. Only touched records are stored, never whole documents, so a
 * history of hundreds of steps on a 36 MB motion stays small.
 *
 * Order of application (forward): patches (indices in the block before the edit), then removals,
 * then appends. Revert runs the mirror image. Patched and removed indices are disjoint.
 *
 * The IK block's records vary in size (9 + 21 bytes per IK bone), so there a patch may change a
 * record's length; applying or reverting then copies the untouched runs and rebuilds the offsets.
 *
 * A move of keys in time is `shifted`: the records and the offset, not two copies of each record (a drag
 * of 600,000 keys is 2.4 MB of indices instead of 600,000 × 2 records of 111 bytes, each its own array).
 */
import { failure, type CodecError, type ErrorCode, type Failure, type Outcome } from '../vmd/errors';
import type { UiStringKey } from '../i18n/strings';
import { fixedBlock, ikBlock, recordBytes, withBlocks, type Block, type FixedBlock, type IkBlock, type VmdDocument } from '../vmd/vmd-document';
import { BLOCK_KINDS, FRAME_OFFSET, type BlockKind } from '../vmd/vmd-layout';
import { mirroredBlock, type NameMirror } from '../motion-ops/mirror';

/** One record rewritten in place (in the IK block `after` may be longer or shorter than `before`). */
export interface RecordPatch {
  readonly index: number;
  readonly before: Uint8Array;
  readonly after: Uint8Array;
}

/** Changes to one block. */
export interface BlockDiff {
  readonly kind: BlockKind;
  readonly patches: readonly RecordPatch[];
  /** Removed records, ascending by index (indices in the block before the edit). */
  readonly removed: readonly { readonly index: number; readonly bytes: Uint8Array }[];
  /** Records added at the end of the block. */
  readonly appended: readonly Uint8Array[];
  /**
   * A whole-motion edit (mirror, speed, trim, …) rewrites most records of a block: the block before and
   * after, instead of a patch per record (then patches, removed and appended are empty). Blocks are
   * immutable, so keeping them costs the old block only; the new one is the document's.
   */
  readonly replaced?: { readonly before: Block; readonly after: Block };
  /**
   * Records whose frame field moved by `delta` frames and nothing else: indices in the block before the
   * edit, ascending, disjoint from the patched and removed ones. Applied after the patches and removals
   * (at each record's place then), reverted by moving back the same records.
   */
  readonly shifted?: ShiftedRecords;
  /**
   * One byte range of many records rewritten (a curve preset on every key: the 64 interpolation bytes of
   * each), packed: indices before the edit, ascending, disjoint from the patched and removed ones. Applied
   * and reverted like `shifted`. No array per record (600,000 patches were 1.2 million small arrays).
   */
  readonly fields?: PackedFields;
  /**
   * Every record of the block mirrored left/right (shared/motion-ops/mirror.ts: 左↔右 in names, sign flips),
   * nothing else: the rule is its own inverse, so applying and reverting both mirror the block again and
   * the diff holds no bytes at all (a Mirror of 600,000 keys kept the 66 MB block before it). Patches,
   * removals and appends are empty.
   */
  readonly mirrored?: boolean;
  /**
   * A mirrored block's name rule (which side-less morphs and which names in Latin letters pair,
   * shared/motion-ops/mirror.ts mirrorFor), chosen once from the names before the edit (and the model's)
   * so that redo and undo rename the same pairs.
   */
  readonly nameMirror?: NameMirror;
}

/**
 * The same byte range [at, at + length) of many records: the old bytes packed `length` per record, and the
 * new ones made again from the old by `rewrite` (a curve preset or handle drag writes the same curves into
 * every key, so its new bytes follow from the old; undo and redo keep one copy of the field, not two).
 */
export interface PackedFields {
  readonly records: Uint32Array;
  readonly at: number;
  readonly length: number;
  readonly before: Uint8Array;
  /** Rewrites one record's field in place, given its bytes before the edit (the same bytes every time). */
  readonly rewrite: (field: Uint8Array) => void;
}

/** Writes record k's field of `f` as it is after the edit or before it into `dst` at offset `o`. */
export function writeField(f: PackedFields, k: number, way: 'after' | 'before', dst: Uint8Array, o: number): void {
  const len = f.length;
  dst.set(f.before.subarray(k * len, (k + 1) * len), o);
  if (way === 'after') f.rewrite(dst.subarray(o, o + len));
}

/** Records moved in time by one offset (BlockDiff.shifted). */
export interface ShiftedRecords {
  readonly records: Uint32Array;
  readonly delta: number;
}

/** What a document holds outside its blocks: the header, the model-name field, which blocks the file had, trailing bytes. */
export interface DocumentHead {
  readonly header: Uint8Array;
  readonly modelName: Uint8Array;
  readonly blocksPresent: number;
  readonly trailing: Uint8Array;
}

/** One user-visible edit (one undo step). */
export interface EditDiff {
  readonly label: string;
  readonly blocks: readonly BlockDiff[];
  /**
   * A whole-motion edit that also rewrote what lies outside the blocks (retargeting names the target
   * model in the header): the head before and after, applied after the blocks (absent: unchanged).
   */
  readonly head?: { readonly before: DocumentHead; readonly after: DocumentHead };
}

/** What every key edit returns: the new document and how to get back (not the whole-motion `EditResult` of shared/motion-ops, which carries a report). */
export interface KeyEdit {
  readonly doc: VmdDocument;
  readonly diff: EditDiff;
}

/**
 * Why an edit was refused (collision, nothing selected, …); the document is unchanged. It is the one
 * error shape (`CodecError`, so it goes to a notice as it is) with a key-editing code: the error of a
 * failed `EditOutcome`.
 */
export interface EditRefusal extends CodecError {
  readonly code: Extract<ErrorCode, 'E_COLLISION' | 'E_RANGE' | 'E_EMPTY' | 'E_EXISTS' | 'E_ARGUMENT'>;
  /** What was wrong, in English (tests, logs). */
  readonly message: string;
  /** The same in the UI's words: a string key and its values, for the notice's detail line. */
  readonly detail: RefusalDetail;
}

/** A refusal's detail line as a UI string (shared/i18n/editor-strings.ts, `editor.refusal.*`). */
export interface RefusalDetail {
  readonly key: UiStringKey;
  readonly params?: Readonly<Record<string, number>>;
}

/** A refused edit: its code, its English message, and the UI string saying the same. */
export function refuse(code: EditRefusal['code'], message: string, key: UiStringKey, params?: Record<string, number>): Failure<EditRefusal> {
  return failure({ code, message, detail: params ? { key, params } : { key } });
}

/** What a key edit returns: its `KeyEdit` (with what the edit adds, e.g. the records it placed), or its refusal. */
export type EditOutcome<T extends KeyEdit = KeyEdit> = Outcome<T, EditRefusal>;

/** True when a diff changes nothing. */
export function isEmptyDiff(d: EditDiff): boolean {
  return !d.head && d.blocks.every((b) => !b.replaced && !b.mirrored && !(b.shifted && b.shifted.records.length && b.shifted.delta) && !b.fields?.records.length && b.patches.length === 0 && b.removed.length === 0 && b.appended.length === 0);
}

/** Bytes a diff keeps alive (for the history's memory budget). */
export function diffBytes(d: EditDiff): number {
  let n = d.head ? headBytes(d.head.before) + headBytes(d.head.after) : 0;
  for (const b of d.blocks) {
    if (b.replaced) n += b.replaced.before.bytes.length + b.replaced.after.bytes.length;
    for (const p of b.patches) n += p.before.length + p.after.length;
    for (const r of b.removed) n += r.bytes.length;
    for (const a of b.appended) n += a.length;
    if (b.shifted) n += b.shifted.records.byteLength;
    if (b.fields) n += b.fields.records.byteLength + b.fields.before.length;
  }
  return n;
}

function headBytes(h: DocumentHead): number {
  return h.header.length + h.modelName.length + h.trailing.length;
}

/** Number of removed indices strictly below i (removed is ascending). */
function removedBelow(removed: BlockDiff['removed'], i: number): number {
  let lo = 0, hi = removed.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (removed[mid].index < i) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function applyBlock(block: FixedBlock, d: BlockDiff): FixedBlock {
  const size = block.size;
  const count = block.count - d.removed.length + d.appended.length;
  const out = new Uint8Array(count * size);
  // Copy the kept records in runs (one memcpy per run, not per record).
  let src = 0, dst = 0;
  for (const r of d.removed) {
    out.set(block.bytes.subarray(src * size, r.index * size), dst * size);
    dst += r.index - src;
    src = r.index + 1;
  }
  out.set(block.bytes.subarray(src * size, block.count * size), dst * size);
  dst += block.count - src;
  for (const p of d.patches) out.set(p.after, (p.index - removedBelow(d.removed, p.index)) * size);
  for (const a of d.appended) out.set(a, dst++ * size);
  return fixedBlock(block.kind, out);
}

function revertBlock(block: FixedBlock, d: BlockDiff): FixedBlock {
  const size = block.size;
  const kept = block.count - d.appended.length;
  const count = kept + d.removed.length;
  const out = new Uint8Array(count * size);
  let src = 0, dst = 0;
  for (const r of d.removed) {
    const run = r.index - dst;
    out.set(block.bytes.subarray(src * size, (src + run) * size), dst * size);
    src += run;
    dst += run;
    out.set(r.bytes, dst * size);
    dst++;
  }
  out.set(block.bytes.subarray(src * size, kept * size), dst * size);
  for (const p of d.patches) out.set(p.before, p.index * size);
  return fixedBlock(block.kind, out);
}

/** A piece of a rebuilt IK block: a run [from, to) of the source block's records, or one record's bytes. */
type IkPiece = { readonly from: number; readonly to: number } | Uint8Array;

/** Builds an IK block from pieces: one copy per run of untouched records, offsets rebuilt. */
function assembleIk(src: IkBlock, pieces: readonly IkPiece[]): IkBlock {
  let count = 0, total = 0;
  for (const p of pieces) {
    if (p instanceof Uint8Array) {
      count++;
      total += p.length;
    } else {
      count += p.to - p.from;
      total += src.offsets[p.to] - src.offsets[p.from];
    }
  }
  const out = new Uint8Array(total);
  const offsets = new Uint32Array(count + 1);
  let n = 0, at = 0;
  for (const p of pieces) {
    if (p instanceof Uint8Array) {
      offsets[n++] = at;
      out.set(p, at);
      at += p.length;
      continue;
    }
    const base = src.offsets[p.from], end = src.offsets[p.to];
    out.set(src.bytes.subarray(base, end), at);
    // The run moves as a whole: its records' offsets shift by the same amount.
    for (let i = p.from; i < p.to; i++) offsets[n++] = at + src.offsets[i] - base;
    at += end - base;
  }
  offsets[count] = total;
  return ikBlock(out, offsets);
}

/** Patches and removals of a diff in index order (the two sets are disjoint). */
function ikEvents(d: BlockDiff): { index: number; patch?: RecordPatch; removed?: Uint8Array }[] {
  const events: { index: number; patch?: RecordPatch; removed?: Uint8Array }[] = [];
  for (const p of d.patches) events.push({ index: p.index, patch: p });
  for (const r of d.removed) events.push({ index: r.index, removed: r.bytes });
  return events.sort((a, b) => a.index - b.index);
}

function applyIk(block: IkBlock, d: BlockDiff): IkBlock {
  const pieces: IkPiece[] = [];
  let src = 0;
  for (const e of ikEvents(d)) {
    if (e.index > src) pieces.push({ from: src, to: e.index });
    if (e.patch) pieces.push(e.patch.after);
    src = e.index + 1;
  }
  if (block.count > src) pieces.push({ from: src, to: block.count });
  for (const a of d.appended) pieces.push(a); // a loop, not a spread: a big paste may append many
  return assembleIk(block, pieces);
}

function revertIk(block: IkBlock, d: BlockDiff): IkBlock {
  const kept = block.count - d.appended.length;
  const pieces: IkPiece[] = [];
  // src walks the edited block (kept records only), dst the original indices.
  let src = 0, dst = 0;
  for (const e of ikEvents(d)) {
    const run = e.index - dst;
    if (run > 0) pieces.push({ from: src, to: src + run });
    src += run;
    dst = e.index + 1;
    if (e.removed) pieces.push(e.removed);
    else if (e.patch) {
      pieces.push(e.patch.before);
      src++; // the patched record is still in the edited block, with its new bytes
    }
  }
  if (kept > src) pieces.push({ from: src, to: kept });
  return assembleIk(block, pieces);
}

/**
 * Moves the frame field of `records` by `delta` in `block`'s bytes, in place (the block must be a fresh
 * copy). `placeOf` maps a record's index in the shift to its index in `block`.
 */
function shiftInPlace(block: Block, s: ShiftedRecords, delta: number, placeOf: (i: number) => number): void {
  const v = block.view, at = FRAME_OFFSET[block.kind];
  const rs = s.records;
  if (block.kind === 'ik') {
    for (let k = 0; k < rs.length; k++) {
      const o = block.offsets[placeOf(rs[k])] + at;
      v.setUint32(o, v.getUint32(o, true) + delta, true);
    }
    return;
  }
  const size = block.size;
  for (let k = 0; k < rs.length; k++) {
    const o = placeOf(rs[k]) * size + at;
    v.setUint32(o, v.getUint32(o, true) + delta, true);
  }
}

/** A private copy of a block (the shift writes into it; blocks are shared and immutable). */
function copyBlock(block: Block): Block {
  return block.kind === 'ik' ? ikBlock(block.bytes.slice(), block.offsets) : fixedBlock(block.kind, block.bytes.slice());
}

function hasRecordEdits(d: BlockDiff): boolean {
  return d.patches.length > 0 || d.removed.length > 0 || d.appended.length > 0;
}

/** Writes the packed fields as they are after the edit or before it into `block`, in place. */
function writeFields(block: Block, f: PackedFields, way: 'after' | 'before', placeOf: (i: number) => number): void {
  const rs = f.records;
  for (let k = 0; k < rs.length; k++) writeField(f, k, way, block.bytes, (block.kind === 'ik' ? block.offsets[placeOf(rs[k])] : placeOf(rs[k]) * block.size) + f.at);
}

function applyAny(block: Block, d: BlockDiff): Block {
  if (d.replaced) return d.replaced.after;
  if (d.mirrored) return mirroredBlock(block, d.nameMirror);
  if (!hasRecordEdits(d) && !d.shifted && !d.fields) return block;
  const out = hasRecordEdits(d) ? (block.kind === 'ik' ? applyIk(block, d) : applyBlock(block, d)) : copyBlock(block);
  const place = (i: number) => i - removedBelow(d.removed, i);
  if (d.shifted) shiftInPlace(out, d.shifted, d.shifted.delta, place);
  if (d.fields) writeFields(out, d.fields, 'after', place);
  return out;
}

function revertAny(block: Block, d: BlockDiff): Block {
  if (d.replaced) return d.replaced.before;
  if (d.mirrored) return mirroredBlock(block, d.nameMirror);
  if (!hasRecordEdits(d) && !d.shifted && !d.fields) return block;
  const out = hasRecordEdits(d) ? (block.kind === 'ik' ? revertIk(block, d) : revertBlock(block, d)) : copyBlock(block);
  if (d.shifted) shiftInPlace(out, d.shifted, -d.shifted.delta, (i) => i);
  if (d.fields) writeFields(out, d.fields, 'before', (i) => i);
  return out;
}

/** Applies a diff (redo). */
export function applyDiff(doc: VmdDocument, diff: EditDiff): VmdDocument {
  const blocks: Partial<Record<BlockKind, Block>> = {};
  for (const b of diff.blocks) blocks[b.kind] = applyAny(blocks[b.kind] ?? doc[b.kind], b);
  return withHead(withBlocks(doc, blocks), diff.head?.after);
}

/** Reverts a diff (undo); blocks are reverted in reverse order. */
export function revertDiff(doc: VmdDocument, diff: EditDiff): VmdDocument {
  const blocks: Partial<Record<BlockKind, Block>> = {};
  for (let i = diff.blocks.length - 1; i >= 0; i--) {
    const b = diff.blocks[i];
    blocks[b.kind] = revertAny(blocks[b.kind] ?? doc[b.kind], b);
  }
  return withHead(withBlocks(doc, blocks), diff.head?.before);
}

function headOf(d: VmdDocument): DocumentHead {
  return { header: d.header, modelName: d.modelName, blocksPresent: d.blocksPresent, trailing: d.trailing };
}

function withHead(doc: VmdDocument, head: DocumentHead | undefined): VmdDocument {
  return head ? { ...doc, header: head.header, modelName: head.modelName, blocksPresent: head.blocksPresent, trailing: head.trailing } : doc;
}

/** Collects per-record rewrites of one block and turns them into a diff. */
export class BlockEditor {
  private readonly patches = new Map<number, RecordPatch>();
  private readonly removedSet = new Map<number, Uint8Array>();
  private readonly appends: Uint8Array[] = [];
  constructor(readonly block: Block) {}

  /** A private copy of record i (the current rewrite if there is one) to edit; call `put` after. */
  copy(i: number): Uint8Array {
    const p = this.patches.get(i);
    if (p) return p.after.slice();
    return recordBytes(this.block, i).slice();
  }

  /** Rewrites record i (an IK record may change length; a fixed one must keep its size). */
  put(i: number, after: Uint8Array): void {
    const before = recordBytes(this.block, i);
    let same = before.length === after.length;
    for (let j = 0; same && j < before.length; j++) if (before[j] !== after[j]) same = false;
    if (same) this.patches.delete(i);
    else this.patches.set(i, { index: i, before: before.slice(), after });
  }

  remove(i: number): void {
    this.patches.delete(i);
    this.removedSet.set(i, recordBytes(this.block, i).slice());
  }

  append(record: Uint8Array): number {
    this.appends.push(record);
    return this.block.count - this.removedSet.size + this.appends.length - 1;
  }

  diff(): BlockDiff {
    const patches = [...this.patches.values()].sort((a, b) => a.index - b.index);
    const removed = [...this.removedSet.entries()].sort((a, b) => a[0] - b[0]).map(([index, bytes]) => ({ index, bytes }));
    return { kind: this.block.kind, patches, removed, appended: this.appends };
  }
}

/** Builds the result of edits gathered by BlockEditors. */
export function finish(doc: VmdDocument, label: string, editors: BlockEditor[]): KeyEdit {
  const diff: EditDiff = { label, blocks: editors.map((e) => e.diff()) };
  return { doc: applyDiff(doc, diff), diff };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The diff from one document to another made by a whole-motion edit (mirror, speed, trim, retarget, …):
 * each block whose bytes differ is replaced whole (see BlockDiff.replaced), and when the two differ
 * outside the blocks (header, model name, which blocks the file holds, trailing bytes) the head is kept
 * before and after too, so undo and redo give back exact bytes. The result's document is `after` itself.
 */
export function diffDocuments(before: VmdDocument, after: VmdDocument, label: string): KeyEdit {
  const blocks: BlockDiff[] = [];
  for (const kind of BLOCK_KINDS) {
    const a = before[kind], b = after[kind];
    if (a.count === b.count && sameBytes(a.bytes, b.bytes)) continue;
    blocks.push({ kind, patches: [], removed: [], appended: [], replaced: { before: a, after: b } });
  }
  const headSame = sameBytes(before.header, after.header) && sameBytes(before.modelName, after.modelName) && before.blocksPresent === after.blocksPresent && sameBytes(before.trailing, after.trailing);
  return { doc: after, diff: headSame ? { label, blocks } : { label, blocks, head: { before: headOf(before), after: headOf(after) } } };
}
