/**
 * Writes a document back to bytes: measures the exact size, allocates once, copies blocks.
 * A block that was absent in the source stays absent unless it now holds records (then it and the
 * count fields before it are written as present).
 */
import { BLOCK_KINDS } from './vmd-layout';
import type { VmdDocument } from './vmd-document';

/** How many block count fields the written file will hold. */
export function blocksToWrite(doc: VmdDocument): number {
  let present = doc.blocksPresent;
  for (let i = BLOCK_KINDS.length - 1; i >= present; i--) {
    if (doc[BLOCK_KINDS[i]].count > 0) {
      present = i + 1;
      break;
    }
  }
  return present;
}

export function vmdByteLength(doc: VmdDocument): number {
  const present = blocksToWrite(doc);
  let size = doc.header.length + doc.modelName.length;
  for (let i = 0; i < present; i++) size += 4 + doc[BLOCK_KINDS[i]].bytes.length;
  // Trailing bytes belong after the last block the source had; if blocks were added they would be
  // read as a block, so they are dropped then.
  if (present === doc.blocksPresent) size += doc.trailing.length;
  return size;
}

export function writeVmd(doc: VmdDocument): Uint8Array {
  const steps = writeVmdSteps(doc, Infinity);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * `writeVmd` in steps: the same bytes, with the records copied at most `sliceBytes` at a time and the share of
 * the file written so far (0..1) yielded after each slice, so a caller can spread a big file's copy over several
 * turns of the event loop (the page's autosave of a 600,000-key motion). The document must not change meanwhile;
 * documents are values (an edit builds new blocks), so a snapshot stays whole.
 */
export function* writeVmdSteps(doc: VmdDocument, sliceBytes = 1 << 20): Generator<number, Uint8Array, void> {
  const present = blocksToWrite(doc);
  const total = vmdByteLength(doc);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  const step = Math.max(1, sliceBytes);
  let off = 0;
  out.set(doc.header, off);
  off += doc.header.length;
  out.set(doc.modelName, off);
  off += doc.modelName.length;
  for (let i = 0; i < present; i++) {
    const block = doc[BLOCK_KINDS[i]];
    view.setUint32(off, block.count, true);
    off += 4;
    const n = block.bytes.length;
    for (let a = 0; a < n; a += step) {
      const b = Math.min(n, a + step);
      out.set(a === 0 && b === n ? block.bytes : block.bytes.subarray(a, b), off + a);
      if (b < n) yield (off + b) / total;
    }
    off += n;
  }
  if (present === doc.blocksPresent) out.set(doc.trailing, off);
  return out;
}
