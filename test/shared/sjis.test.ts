// decodeName decodes most names by a table of Shift_JIS units (sjis.ts, issue 31: the platform decoder costs a
// microsecond or two a call, and a dance can hold thousands of names). The table is built from that decoder, and
// a name with a unit outside it goes to the decoder itself; these tests hold it to the decoder's answer.
import { describe, expect, it } from 'vitest';
import { decodeName, readVmd } from '../../shared/vmd';
import { BONE, MORPH } from '../../shared/vmd/vmd-layout';
import { corpusFiles, corpusPresent, readCorpus, relName } from '../helpers/corpus';
import { lcg } from '../helpers/rng';

const decoder = new TextDecoder('shift_jis');

/** What decodeName gave before the table: ASCII names as they are, others through the decoder, a cut last character dropped. */
function reference(field: Uint8Array): string {
  let n = field.indexOf(0);
  if (n < 0) n = field.length;
  const name = field.subarray(0, n);
  if (name.every((b) => b < 0x80)) return String.fromCharCode(...name);
  return decoder.decode(name).replace(/\uFFFD+$/, '');
}

describe('decodeName', () => {
  it('gives what the platform decoder gives for every byte and every pair of bytes', () => {
    const mismatches: string[] = [];
    for (let a = 1; a <= 0xff; a++) {
      const one = Uint8Array.of(a);
      if (decodeName(one) !== reference(one)) mismatches.push(a.toString(16));
      for (let b = 1; b <= 0xff; b++) {
        const two = Uint8Array.of(a, b);
        if (decodeName(two) !== reference(two)) mismatches.push(`${a.toString(16)} ${b.toString(16)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('gives what the platform decoder gives for random names of kanji, kana, ASCII, control bytes and cut characters', () => {
    const rnd = lcg(31);
    const mismatches: number[][] = [];
    let nonAscii = 0;
    for (let k = 0; k < 20000; k++) {
      const field = new Uint8Array(15);
      const len = 1 + Math.floor(rnd() * 15);
      for (let i = 0; i < len; i++) {
        const r = rnd();
        if (r < 0.3) field[i] = 0x20 + Math.floor(rnd() * 0x5f); // printable ASCII
        else if (r < 0.4) field[i] = 0xa1 + Math.floor(rnd() * 63); // half-width katakana
        else if (r < 0.45) field[i] = 1 + Math.floor(rnd() * 255); // any byte, control codes included
        else {
          field[i] = rnd() < 0.7 ? 0x81 + Math.floor(rnd() * 31) : 0xe0 + Math.floor(rnd() * 29); // a lead byte
          if (i + 1 < len) field[++i] = 0x40 + Math.floor(rnd() * 0xbd); // and a trail, unless the field cuts it
        }
      }
      if (field.subarray(0, len).some((b) => b >= 0x80)) nonAscii++;
      if (decodeName(field, 0, 15) !== reference(field)) mismatches.push(Array.from(field));
    }
    expect(nonAscii).toBeGreaterThan(15000);
    expect(mismatches).toEqual([]);
  });

  it.skipIf(!corpusPresent)('gives what the platform decoder gives for every bone and morph name in the corpus', () => {
    let names = 0;
    for (const file of corpusFiles('.vmd')) {
      const r = readVmd(readCorpus(relName(file)));
      if (!r.ok) continue;
      for (const [block, size, len] of [[r.value.bone, BONE.SIZE, BONE.NAME_LENGTH], [r.value.morph, MORPH.SIZE, MORPH.NAME_LENGTH]] as const) {
        for (let i = 0; i < block.count; i++) {
          const field = block.bytes.subarray(i * size, i * size + len);
          expect(decodeName(block.bytes, i * size, len), `${relName(file)} record ${i}`).toBe(reference(field));
          names++;
        }
      }
    }
    expect(names).toBeGreaterThan(10000);
  });
});
