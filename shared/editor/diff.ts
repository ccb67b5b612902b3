/**
 * Record diffs: the unit of every edit and of undo/redo. A diff names the block, the records it
 * rewrote (old and new bytes), the records it removed (with their indices) and the records it
 * appended at the end of the block. Only touched records are stored, never whole documents, so a
 * history of hundreds of steps on a 36 MB motion stays small.
 *
 * Order of application (forward): patches (indices in the block before the edit), then removals,
 * then appends. Revert runs the mirror image. Patched and removed indices are disjoint.
 */
import { fixedBlock, withBlocks, type FixedBlock, type VmdDocument } from '../vmd/vmd-document';
import type { FixedKind } from '../vmd/vmd-layout';

/** One record rewritten in place. */
export interface RecordPatch {
  readonly index: number;
  readonly before: Uint8Array;
  readonly after: Uint8Array;
}

/** Changes to one block. */
export interface BlockDiff {
  readonly kind: FixedKind;
  readonly patches: readonly RecordPatch[];
  /** Removed records, ascending by index (indices in the block before the edit). */
  readonly removed: readonly { readonly index: number; readonly bytes: Uint8Array }[];
  /** Records added at the end of the block. */
  readonly appended: readonly Uint8Array[];
}

/** One user-visible edit (one undo step). */
export interface EditDiff {
  readonly label: string;
  readonly blocks: readonly BlockDiff[];
}

/** What every edit function returns: the new document and how to get back. */
export interface EditResult {
  readonly doc: VmdDocument;
  readonly diff: EditDiff;
}

/** An edit that was refused (collision, nothing selected, …); the document is unchanged. */
export interface EditRefusal {
  readonly refused: true;
  readonly code: 'E_COLLISION' | 'E_RANGE' | 'E_EMPTY' | 'E_EXISTS';
  readonly message: string;
}

export type EditOutcome = EditResult | EditRefusal;

export function isRefusal(o: EditOutcome): o is EditRefusal {
  return (o as EditRefusal).refused === true;
}

/** True when a diff changes nothing. */
export function isEmptyDiff(d: EditDiff): boolean {
  return d.blocks.every((b) => b.patches.length === 0 && b.removed.length === 0 && b.appended.length === 0);
}

/** Bytes a diff keeps alive (for the history's memory budget). */
export function diffBytes(d: EditDiff): number {
  let n = 0;
  for (const b of d.blocks) {
    for (const p of b.patches) n += p.before.length + p.after.length;
    for (const r of b.removed) n += r.bytes.length;
    for (const a of b.appended) n += a.length;
  }
  return n;
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

/** Applies a diff (redo). */
export function applyDiff(doc: VmdDocument, diff: EditDiff): VmdDocument {
  const blocks: Partial<Record<FixedKind, FixedBlock>> = {};
  for (const b of diff.blocks) blocks[b.kind] = applyBlock(blocks[b.kind] ?? doc[b.kind], b);
  return withBlocks(doc, blocks);
}

/** Reverts a diff (undo); blocks are reverted in reverse order. */
export function revertDiff(doc: VmdDocument, diff: EditDiff): VmdDocument {
  const blocks: Partial<Record<FixedKind, FixedBlock>> = {};
  for (let i = diff.blocks.length - 1; i >= 0; i--) {
    const b = diff.blocks[i];
    blocks[b.kind] = revertBlock(blocks[b.kind] ?? doc[b.kind], b);
  }
  return withBlocks(doc, blocks);
}

/** Collects per-record rewrites of one block and turns them into a diff. */
export class BlockEditor {
  private readonly patches = new Map<number, RecordPatch>();
  private readonly removedSet = new Map<number, Uint8Array>();
  private readonly appends: Uint8Array[] = [];
  constructor(readonly block: FixedBlock) {}

  /** A private copy of record i (the current rewrite if there is one) to edit; call `put` after. */
  copy(i: number): Uint8Array {
    const p = this.patches.get(i);
    if (p) return p.after.slice();
    const s = this.block.size;
    return this.block.bytes.slice(i * s, (i + 1) * s);
  }

  put(i: number, after: Uint8Array): void {
    const s = this.block.size;
    const before = this.block.bytes.subarray(i * s, (i + 1) * s);
    let same = true;
    for (let j = 0; j < s; j++) if (before[j] !== after[j]) { same = false; break; }
    if (same) this.patches.delete(i);
    else this.patches.set(i, { index: i, before: before.slice(), after });
  }

  remove(i: number): void {
    this.patches.delete(i);
    const s = this.block.size;
    this.removedSet.set(i, this.block.bytes.slice(i * s, (i + 1) * s));
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
export function finish(doc: VmdDocument, label: string, editors: BlockEditor[]): EditResult {
  const diff: EditDiff = { label, blocks: editors.map((e) => e.diff()) };
  return { doc: applyDiff(doc, diff), diff };
}
