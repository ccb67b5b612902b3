/**
 * Reads a VMD in one pass that checks every block's bounds before touching its records
 * (see vmd-layout.ts for the byte layout). The result shares the input's memory: blocks are
 * views into it. After a successful read, every record accessor is in bounds.
 */
import { fail, ok, type Diagnostic, type Result } from './errors';
import {
  BLOCK_KINDS,
  HEADER_LENGTH,
  IK,
  MAGIC,
  MODEL_NAME_LENGTH_V1,
  MODEL_NAME_LENGTH_V2,
  RECORD_SIZE,
  HEADER_V1,
} from './vmd-layout';
import { emptyBlocks, fixedBlock, ikBlock, viewOf, type VmdDocument } from './vmd-document';
import { count, plural, agree } from '../i18n/plural';

const MAGIC_BYTES = Array.from(MAGIC, (c) => c.charCodeAt(0));

/** True when the bytes start with the VMD magic. */
export function isVmd(bytes: Uint8Array): boolean {
  if (bytes.length < MAGIC_BYTES.length) return false;
  for (let i = 0; i < MAGIC_BYTES.length; i++) if (bytes[i] !== MAGIC_BYTES[i]) return false;
  return true;
}

/**
 * Whether the bytes read as a VMD as far as the header and the blocks' sizes go, in a time that does not
 * grow with the file: the magic, the model name, and each block's count against the bytes left (the IK
 * block's against its smallest record). No record is visited. For quick questions (is this file one for the
 * recent list?); readVmd is the reader.
 */
export function vmdLayoutFits(bytes: Uint8Array): boolean {
  if (!isVmd(bytes)) return false;
  const nameLength = headerText(bytes.subarray(0, HEADER_LENGTH)).startsWith(HEADER_V1) ? MODEL_NAME_LENGTH_V1 : MODEL_NAME_LENGTH_V2;
  if (bytes.length < HEADER_LENGTH + nameLength) return false;
  const view = viewOf(bytes);
  let off = HEADER_LENGTH + nameLength;
  for (const kind of BLOCK_KINDS) {
    if (bytes.length - off < 4) break;
    const count = view.getUint32(off, true);
    off += 4;
    const size = kind === 'ik' ? IK.HEADER : RECORD_SIZE[kind];
    if (count > Math.floor((bytes.length - off) / size)) return false;
    if (kind === 'ik') break;
    off += count * size;
  }
  return true;
}

/** The header text up to its first NUL. */
export function headerText(header: Uint8Array): string {
  let s = '';
  for (let i = 0; i < header.length && header[i] !== 0; i++) s += String.fromCharCode(header[i]);
  return s;
}

/**
 * Parses VMD bytes. Respects the array's byteOffset/byteLength (Node Buffers are pooled views).
 *
 * A Node Buffer is read through a plain Uint8Array over the same memory (no copy): every record the
 * document hands out is then a plain Uint8Array, whose `slice()` copies. A Buffer's `slice()` is a view,
 * so an edit that copied a record with it wrote into the file it read (speedRefit on a Buffer gave 91
 * camera records with repeated frames).
 */
export function readVmd(input: Uint8Array): Result<VmdDocument> {
  const bytes = Object.getPrototypeOf(input) === Uint8Array.prototype ? input : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (!isVmd(bytes)) {
    return fail('E_VMD_MAGIC', 'not a VMD file: it does not start with "Vocaloid Motion Data"', 0);
  }
  const nameLength = headerText(bytes.subarray(0, HEADER_LENGTH)).startsWith(HEADER_V1)
    ? MODEL_NAME_LENGTH_V1
    : MODEL_NAME_LENGTH_V2;
  if (bytes.length < HEADER_LENGTH + nameLength) {
    return fail('E_VMD_TRUNCATED', `truncated header: ${bytes.length} bytes, need ${HEADER_LENGTH + nameLength}`, bytes.length);
  }
  const view = viewOf(bytes);
  const diagnostics: Diagnostic[] = [];
  let off = HEADER_LENGTH + nameLength;
  const blocks: Record<string, unknown> = emptyBlocks();
  let present = 0;
  for (const kind of BLOCK_KINDS) {
    if (bytes.length - off < 4) break;
    const countOffset = off;
    const count = view.getUint32(off, true);
    off += 4;
    present++;
    const remaining = bytes.length - off;
    if (kind !== 'ik') {
      const size = RECORD_SIZE[kind];
      // Check against the bytes left before allocating or looping: a corrupt count may say 4 billion.
      if (count > Math.floor(remaining / size)) {
        return fail(
          'E_VMD_COUNT',
          `${kind} block promises ${count} records of ${size} bytes, but only ${remaining} bytes remain (room for ${Math.floor(remaining / size)})`,
          countOffset,
          { block: kind, count },
        );
      }
      blocks[kind] = fixedBlock(kind, bytes.subarray(off, off + count * size));
      off += count * size;
    } else {
      // Every IK record is at least 9 bytes: bound the count before allocating offsets.
      if (count > Math.floor(remaining / IK.HEADER)) {
        return fail(
          'E_VMD_COUNT',
          `IK block promises ${count} records of at least ${IK.HEADER} bytes, but only ${remaining} bytes remain`,
          countOffset,
          { block: 'ik', count },
        );
      }
      const start = off;
      const offsets = new Uint32Array(count + 1);
      for (let i = 0; i < count; i++) {
        if (bytes.length - off < IK.HEADER) {
          return fail('E_VMD_TRUNCATED', `IK record ${i} of ${count} is cut off by the end of the file`, off);
        }
        const n = view.getUint32(off + IK.COUNT, true);
        const left = bytes.length - off - IK.HEADER;
        if (n > Math.floor(left / IK.ITEM)) {
          return fail(
            'E_VMD_COUNT',
            `IK record ${i} promises ${n} IK bones of ${IK.ITEM} bytes, but only ${left} bytes remain`,
            off + IK.COUNT,
          );
        }
        offsets[i] = off - start;
        off += IK.HEADER + n * IK.ITEM;
      }
      offsets[count] = off - start;
      blocks.ik = ikBlock(bytes.subarray(start, off), offsets);
    }
  }
  const trailing = bytes.subarray(off);
  if (trailing.length > 0) {
    diagnostics.push({
      code: present < 6 ? 'W_VMD_SHORT_TAIL' : 'W_VMD_TRAILING',
      message: `${plural(count(trailing.length), 'byte')} after the last block ${agree(trailing.length, 'is kept as it is', 'are kept as they are')}`,
      params: { n: trailing.length },
      offset: off,
    });
  }
  const doc = {
    header: bytes.subarray(0, HEADER_LENGTH),
    modelName: bytes.subarray(HEADER_LENGTH, HEADER_LENGTH + nameLength),
    ...blocks,
    blocksPresent: present,
    trailing,
  } as VmdDocument;
  return ok(doc, diagnostics);
}
