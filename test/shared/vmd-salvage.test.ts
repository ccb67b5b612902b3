/**
 * shared/vmd/vmd-salvage.ts on real files cut short: every corpus VMD cut at many points (inside each block, on
 * record boundaries, inside the header). The records kept are worked out here by walking the original file's
 * layout independently (counts and record sizes: bone 111, morph 23, camera 61, light 28, self-shadow 9 bytes, IK
 * 9 + 21 per IK bone), and the salvage must hold exactly those records, byte for byte, and read with readVmd.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readVmd, salvageVmd } from '../../shared/vmd';
import { corpusFiles, corpusPresent } from '../helpers/corpus';

const SIZES = [111, 23, 61, 28, 9] as const;

describe.skipIf(!corpusPresent)('salvaging a VMD cut short', () => {
  const files = corpusFiles('.vmd').filter((f) => readVmd(readFileSync(f)).ok);

  it('keeps exactly the records that lie whole before the cut, byte for byte, and the result reads', () => {
    let cuts = 0;
    for (const f of files) {
      const whole = new Uint8Array(readFileSync(f));
      const v = new DataView(whole.buffer);
      const v1 = String.fromCharCode(...whole.subarray(0, 25)) === 'Vocaloid Motion Data file';
      const head = 30 + (v1 ? 10 : 20);
      // The blocks' count offsets and record ends, walked here.
      const blocks: { countAt: number; ends: number[]; starts: number[] }[] = [];
      let off = head;
      for (let k = 0; k < 6 && whole.length - off >= 4; k++) {
        const countAt = off;
        const n = v.getUint32(off, true);
        off += 4;
        const starts: number[] = [];
        const ends: number[] = [];
        for (let i = 0; i < n; i++) {
          starts.push(off);
          off += k < 5 ? SIZES[k] : 9 + 21 * v.getUint32(off + 5, true);
          ends.push(off);
        }
        blocks.push({ countAt, ends, starts });
      }
      const step = Math.max(1, Math.floor(off / 97));
      const points = new Set<number>();
      for (let c = head + 4; c < off; c += step) points.add(c);
      for (const b of blocks) for (const e of [b.ends[0], b.ends[1], b.ends.at(-1)]) if (e !== undefined && e < off) points.add(e - 1);
      for (const cut of points) {
        const s = salvageVmd(whole.subarray(0, cut));
        // A cut between blocks (on a count) that readVmd takes as a file that ends early is no damage.
        if (readVmd(whole.subarray(0, cut)).ok) {
          expect(s).toBeNull();
          continue;
        }
        expect(s, `${f} cut at ${cut}`).not.toBeNull();
        cuts++;
        const r = readVmd(s!.bytes);
        expect(r.ok).toBe(true);
        // Expected: each block the cut begins, with its records that end at or before the cut.
        const expected = blocks.filter((b) => b.countAt + 4 <= cut).map((b) => b.ends.filter((e) => e <= cut).length);
        const damaged = expected.findIndex((k, i) => k < blocks[i].ends.length);
        expect(damaged).toBeGreaterThanOrEqual(0);
        expect(s!.blocks.map((b) => b.kept)).toEqual(expected.slice(0, damaged + 1));
        expect(s!.blocks.map((b) => b.promised)).toEqual(blocks.slice(0, damaged + 1).map((b) => b.ends.length));
        // The bytes: the header and name as they were, then each kept block's records as they were.
        const want: Buffer[] = [Buffer.from(whole.subarray(0, head))];
        for (let k = 0; k < 6; k++) {
          const n = k <= damaged ? expected[k] : 0;
          const count = Buffer.alloc(4);
          count.writeUInt32LE(n);
          want.push(count);
          if (n) want.push(Buffer.from(whole.subarray(blocks[k].starts[0], blocks[k].ends[n - 1])));
        }
        expect(Buffer.from(s!.bytes).equals(Buffer.concat(want)), `${f} cut at ${cut}`).toBe(true);
      }
    }
    expect(cuts).toBeGreaterThan(500);
  });

  it('salvages nothing from a whole file, a header cut short, or a file that is not a VMD', () => {
    const whole = readFileSync(files[0]);
    expect(salvageVmd(whole)).toBeNull();
    expect(salvageVmd(whole.subarray(0, 40))).toBeNull();
    expect(salvageVmd(new TextEncoder().encode('Vocaloid Pose Data file\n'))).toBeNull();
  });
});
