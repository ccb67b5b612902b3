/**
 * The keys a damaged VMD still holds: a file cut short (a download or copy that stopped, a disk that filled up)
 * keeps every record before the cut intact. readVmd refuses such a file
 * (E_VMD_COUNT, E_VMD_TRUNCATED: nothing is guessed); this takes the records that lie whole in the file, block
 * by block in the file's order, up to the first block that does not fit, and writes them as a VMD of their own
 * (the header and model name as they are, each kept block with the count of records kept, the blocks after the
 * damage empty). Those bytes read with readVmd like any file. What was kept and what was lost is listed per
 * block, so the person can judge before opening it. Nothing is salvaged from a file whose header is cut or that
 * is not a VMD at all.
 */
import { BLOCK_KINDS, HEADER_LENGTH, HEADER_V1, IK, MODEL_NAME_LENGTH_V1, MODEL_NAME_LENGTH_V2, RECORD_SIZE, type BlockKind } from './vmd-layout';
import { headerText, isVmd } from './vmd-reader';

/** One block of a salvage: the records kept (whole in the file) of the count the file promised. */
export interface SalvagedBlock {
  block: BlockKind;
  kept: number;
  promised: number;
}

export interface VmdSalvage {
  /** A VMD of the records kept (readVmd reads it). */
  bytes: Uint8Array;
  /** The blocks the file began, in its order: the last one is where the damage is (kept < promised) when any is. */
  blocks: SalvagedBlock[];
  /** Records kept in all, and records the file promised in the blocks it began. */
  kept: number;
  promised: number;
  /** The byte where the damage begins (the first record, or count, that does not fit). */
  damagedAt: number;
}

/**
 * The records of a damaged VMD that lie whole in it (see the file comment), or null when there is nothing to
 * salvage: not a VMD, a header cut short, or a file that reads as it is (nothing damaged).
 */
export function salvageVmd(input: Uint8Array): VmdSalvage | null {
  const bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (!isVmd(bytes)) return null;
  const nameLength = headerText(bytes.subarray(0, HEADER_LENGTH)).startsWith(HEADER_V1) ? MODEL_NAME_LENGTH_V1 : MODEL_NAME_LENGTH_V2;
  const head = HEADER_LENGTH + nameLength;
  if (bytes.length < head) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Uint8Array[] = [bytes.subarray(0, head)];
  const blocks: SalvagedBlock[] = [];
  let off = head;
  let damagedAt = -1;
  const countBytes = (n: number) => {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, n, true);
    return b;
  };
  for (const kind of BLOCK_KINDS) {
    // Fewer than 4 bytes left: the file ends here (older files stop after the camera or light block; readVmd
    // keeps a few bytes more as a short tail).
    if (bytes.length - off < 4) break;
    const promised = view.getUint32(off, true);
    off += 4;
    let kept = 0;
    const start = off;
    if (kind !== 'ik') {
      const size = RECORD_SIZE[kind];
      kept = Math.min(promised, Math.floor((bytes.length - off) / size));
      off += kept * size;
    } else {
      while (kept < promised && bytes.length - off >= IK.HEADER) {
        const n = view.getUint32(off + IK.COUNT, true);
        if (n > Math.floor((bytes.length - off - IK.HEADER) / IK.ITEM)) break;
        off += IK.HEADER + n * IK.ITEM;
        kept++;
      }
    }
    blocks.push({ block: kind, kept, promised });
    parts.push(countBytes(kept), bytes.subarray(start, off));
    if (kept < promised) {
      damagedAt = off;
      break;
    }
  }
  if (damagedAt < 0) return null;
  // The blocks after the damage are written empty, so every later block reads as present with no keys.
  for (let i = blocks.length; i < BLOCK_KINDS.length; i++) parts.push(countBytes(0));
  const size = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  const kept = blocks.reduce((n, b) => n + b.kept, 0);
  const promised = blocks.reduce((n, b) => n + b.promised, 0);
  return { bytes: out, blocks, kept, promised, damagedAt };
}
