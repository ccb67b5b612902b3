/**
 * The VMD document: raw header and model-name bytes plus six blocks of raw records.
 * Nothing is expanded into objects: fields are read from the bytes on demand (see records.ts),
 * and writing copies the blocks. Edits build new blocks from copied records.
 */
import { BLOCK_KINDS, RECORD_SIZE, type BlockKind, type FixedKind } from './vmd-layout';

/** A block of fixed-size records, contiguous: record i is bytes[i*size, (i+1)*size). */
export interface FixedBlock {
  readonly kind: FixedKind;
  readonly size: number;
  readonly count: number;
  readonly bytes: Uint8Array;
  readonly view: DataView;
}

/** The IK/visibility block: variable-length records; record i is bytes[offsets[i], offsets[i+1]). */
export interface IkBlock {
  readonly kind: 'ik';
  readonly count: number;
  readonly bytes: Uint8Array;
  readonly view: DataView;
  readonly offsets: Uint32Array;
}

export type Block = FixedBlock | IkBlock;

export interface VmdDocument {
  /** The 30 header bytes as stored. */
  readonly header: Uint8Array;
  /** The model-name field as stored (20 bytes, 10 in version 0001). */
  readonly modelName: Uint8Array;
  readonly bone: FixedBlock;
  readonly morph: FixedBlock;
  readonly camera: FixedBlock;
  readonly light: FixedBlock;
  readonly shadow: FixedBlock;
  readonly ik: IkBlock;
  /** How many block count fields the file held, 0–6 in order bone…ik; later ones were absent. */
  readonly blocksPresent: number;
  /** Bytes after the last block that do not form a block (kept so writing reproduces the file). */
  readonly trailing: Uint8Array;
}

export function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Wraps contiguous record bytes (length must be a multiple of the record size) as a block. */
export function fixedBlock(kind: FixedKind, bytes: Uint8Array): FixedBlock {
  const size = RECORD_SIZE[kind];
  return { kind, size, count: Math.floor(bytes.length / size), bytes, view: viewOf(bytes) };
}

/** Wraps IK records given their start offsets (offsets has count + 1 entries, the last = bytes.length). */
export function ikBlock(bytes: Uint8Array, offsets: Uint32Array): IkBlock {
  return { kind: 'ik', count: offsets.length - 1, bytes, view: viewOf(bytes), offsets };
}

export const EMPTY_IK: IkBlock = ikBlock(new Uint8Array(0), new Uint32Array([0]));

export function emptyBlock(kind: FixedKind): FixedBlock {
  return fixedBlock(kind, new Uint8Array(0));
}

/** The six blocks of a document with no records. */
export function emptyBlocks(): Pick<VmdDocument, BlockKind> {
  return {
    bone: emptyBlock('bone'),
    morph: emptyBlock('morph'),
    camera: emptyBlock('camera'),
    light: emptyBlock('light'),
    shadow: emptyBlock('shadow'),
    ik: EMPTY_IK,
  };
}

/** Record i of a block, as a view into the block's bytes (not a copy). */
export function recordBytes(block: Block, i: number): Uint8Array {
  if (block.kind === 'ik') return block.bytes.subarray(block.offsets[i], block.offsets[i + 1]);
  return block.bytes.subarray(i * block.size, (i + 1) * block.size);
}

/** Builds a fixed block from a list of records (each exactly the record size). */
export function blockFromRecords(kind: FixedKind, records: readonly Uint8Array[]): FixedBlock {
  const size = RECORD_SIZE[kind];
  const out = new Uint8Array(records.length * size);
  for (let i = 0; i < records.length; i++) out.set(records[i], i * size);
  return fixedBlock(kind, out);
}

/** Builds an IK block from a list of variable-length records. */
export function ikBlockFromRecords(records: readonly Uint8Array[]): IkBlock {
  let total = 0;
  const offsets = new Uint32Array(records.length + 1);
  for (let i = 0; i < records.length; i++) {
    offsets[i] = total;
    total += records[i].length;
  }
  offsets[records.length] = total;
  const out = new Uint8Array(total);
  for (let i = 0; i < records.length; i++) out.set(records[i], offsets[i]);
  return ikBlock(out, offsets);
}

/** Builds a block of either kind from records. */
export function blockOf(kind: BlockKind, records: readonly Uint8Array[]): Block {
  return kind === 'ik' ? ikBlockFromRecords(records) : blockFromRecords(kind, records);
}

/** The records of a block as a list of views. */
export function recordsOf(block: Block): Uint8Array[] {
  const out = new Array<Uint8Array>(block.count);
  for (let i = 0; i < block.count; i++) out[i] = recordBytes(block, i);
  return out;
}

/** Returns a document with some blocks replaced; the rest are shared. */
export function withBlocks(doc: VmdDocument, blocks: Partial<{ [K in BlockKind]: Block }>): VmdDocument {
  return { ...doc, ...(blocks as object) } as VmdDocument;
}

export function blockOfKind(doc: VmdDocument, kind: BlockKind): Block {
  return doc[kind];
}

/** Which blocks a file lacked entirely (not even a count). */
export function absentBlocks(doc: VmdDocument): BlockKind[] {
  return BLOCK_KINDS.slice(doc.blocksPresent) as BlockKind[];
}
