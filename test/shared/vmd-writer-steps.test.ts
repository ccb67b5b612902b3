/**
 * writeVmdSteps (shared/vmd/vmd-writer.ts): a motion's bytes written a slice at a time, for the page's autosave of a
 * 600,000-key motion without a long task. Whatever the slice, the bytes are the file's own (every corpus VMD read and
 * written back; a file with trailing bytes and absent blocks), and the progress it yields rises to below 1.
 */
import { describe, expect, it } from 'vitest';
import { readVmd, writeVmdSteps } from '../../shared/vmd';
import { corpusFiles, corpusPresent, readCorpus, relName } from '../helpers/corpus';

function drainSteps(steps: Generator<number, Uint8Array, void>): { bytes: Uint8Array; progress: number[] } {
  const progress: number[] = [];
  for (;;) {
    const r = steps.next();
    if (r.done) return { bytes: r.value, progress };
    progress.push(r.value);
  }
}

describe.skipIf(!corpusPresent)('writeVmdSteps', () => {
  const vmds = corpusFiles('.vmd');

  it.each(vmds.map((f) => [relName(f), f]))('%s: in slices of 1, 333 and 1 MB bytes, the file byte for byte', (_n, f) => {
    const bytes = readCorpus(f);
    const r = readVmd(bytes);
    if (!r.ok) throw new Error(r.error.message);
    const d = r.value;
    const records = d.bone.bytes.length + d.morph.bytes.length + d.camera.bytes.length + d.light.bytes.length + d.shadow.bytes.length + d.ik.bytes.length;
    for (const slice of [1, 333, 1 << 20]) {
      // Not every file: a slice of 1 byte over a 1.6 MB file is 1.6 million steps; the files up to 50 kB are enough for it.
      if (slice === 1 && bytes.length > 50_000) continue;
      const { bytes: out, progress } = drainSteps(writeVmdSteps(r.value, slice));
      expect(Buffer.from(out).equals(Buffer.from(bytes))).toBe(true);
      // A step after every slice but the last of each block: at least (record bytes / slice) − 6 of them.
      expect(progress.length).toBeGreaterThanOrEqual(Math.floor(records / slice) - 6);
      for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]);
      if (progress.length) expect(progress[progress.length - 1]).toBeLessThan(1);
    }
  });

  it('keeps trailing bytes and absent blocks as the file had them (a file built here by hand)', () => {
    // Header (30) and model name (20), a bone block of one 111-byte record, a morph count 0, then 3 stray bytes.
    const file = new Uint8Array(30 + 20 + 4 + 111 + 4 + 3);
    file.set(new TextEncoder().encode('Vocaloid Motion Data 0002'), 0);
    const v = new DataView(file.buffer);
    v.setUint32(50, 1, true);
    for (let i = 0; i < 111; i++) file[54 + i] = i === 0 ? 0x41 : i < 15 ? 0 : (i * 7) & 0xff;
    v.setFloat32(54 + 15 + 4 + 12, 1, true); // rotation w
    file.set([0xde, 0xad, 0xbe], file.length - 3);
    const r = readVmd(file);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.blocksPresent).toBe(2);
    expect(Array.from(r.value.trailing)).toEqual([0xde, 0xad, 0xbe]);
    for (const slice of [1, 50, 1 << 20]) expect(Array.from(drainSteps(writeVmdSteps(r.value, slice)).bytes)).toEqual(Array.from(file));
  });
});
