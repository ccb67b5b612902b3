/**
 * A document read from a Node Buffer (what fs.readFileSync gives) is never written into by an edit. A
 * Buffer's slice() is a view, not a copy, and the fitter copies records with slice(): speedRefit on a
 * Buffer-read camera wrote into its input (91 camera records with repeated frames) until readVmd read
 * Buffers through a plain Uint8Array.
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readVmd, writeVmd } from '../../../shared/vmd';
import { speedRefit } from '../../../shared/fit/motion-fit';
import { corpusPath } from '../../helpers/corpus';

const sha = (u: Uint8Array) => createHash('sha256').update(u).digest('hex');

describe('edits on a document read from a Buffer', () => {
  it('speed --refit ×1.5 on wavefile_camera.vmd read as a Buffer leaves the Buffer as read, and writes what a Uint8Array copy gives', () => {
    const file = corpusPath('threejs/vmds/wavefile_camera.vmd');
    const buf = readFileSync(file);
    expect(Buffer.isBuffer(buf)).toBe(true);
    const before = sha(buf);
    const fromBuffer = readVmd(buf);
    expect(fromBuffer.ok).toBe(true);
    if (!fromBuffer.ok) return;
    const out = speedRefit(fromBuffer.value, { factor: 1.5 });
    expect(out.ok).toBe(true);
    expect(sha(buf)).toBe(before);
    // The same edit on a plain copy of the bytes writes the same file.
    const plain = readVmd(new Uint8Array(readFileSync(file)));
    if (!plain.ok || !out.ok) throw new Error('read failed');
    const ref = speedRefit(plain.value, { factor: 1.5 });
    if (!ref.ok) throw new Error('refit failed');
    expect(sha(writeVmd(out.value.doc))).toBe(sha(writeVmd(ref.value.doc)));
    // Every record the document hands out is a plain Uint8Array (slice() copies).
    expect(Object.getPrototypeOf(fromBuffer.value.camera.bytes)).toBe(Uint8Array.prototype);
  });
});
