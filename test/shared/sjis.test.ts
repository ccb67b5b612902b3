// decodeName decodes most names by a table of Shift_JIS units (sjis.ts, issue 31: the platform decoder costs a
// microsecond or two a call, and a dance can hold thousands of names). The table is built from that decoder, and
// a name with a unit outside it goes to the decoder itself; these tests hold it to the decoder's answer.
import { describe, expect, it } from 'vitest';
import { decodeLoneName, decodeName, encodeSjis, isLoneSpelling, readVmd } from '../../shared/vmd';
import { BONE, MORPH } from '../../shared/vmd/vmd-layout';
import { corpusFiles, corpusPresent, readCorpus, relName } from '../helpers/corpus';
import { lcg } from '../helpers/rng';
import { SJIS } from '../helpers/vmd-fixtures';

const SJIS_左腕 = SJIS.左腕;

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

  it('decodes names of every length, in one field and in texts longer than its scratch for units (32), ASCII and kanji alike', () => {
    // Expected strings are the text the bytes were made from (encodeSjis: encoding-japanese, not the decoder).
    const ascii = 'Bone_0123456789-abcdefghijklmnopqrstuvwxyz';
    const kanji = '左右腕肘手首指親人中薬小足膝目眉口舌胸腰尻肩頭前後上下髪';
    const mixed = 'ｾﾝﾀｰ右足ＩＫAb１ﾟ左ひじ下半身';
    for (const text of [ascii, kanji, mixed]) {
      for (let len = 0; len <= text.length; len++) {
        const name = text.slice(0, len);
        const bytes = encodeSjis(name);
        expect(decodeName(bytes), `${len} characters of ${text}`).toBe(name);
        // In a field with room to spare, after other bytes, garbage after the NUL.
        const field = Uint8Array.from([0x41, ...bytes, 0, 0x83, 0x41, 0x7f]);
        expect(decodeName(field, 1, bytes.length + 4)).toBe(name);
      }
    }
    expect(encodeSjis(kanji).length).toBeGreaterThan(32);
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

// isLoneSpelling lets buildTracks skip the name index's lookup for a new name (issue 31): it must never vouch
// for two spellings that decode alike. Checked against the platform decoder, unit by unit, and by hand.
describe('isLoneSpelling', () => {
  const lone = (bytes: number[]) => {
    const field = new Uint8Array(15);
    field.set(bytes);
    return isLoneSpelling(field, 0, 15);
  };

  it('vouches for plain names and refuses what CP932 maps twice, cut characters, unmapped pairs and control codes', () => {
    expect(lone([0x41, 0x42])).toBe(true); // "AB"
    expect(lone([])).toBe(true);
    expect(lone([...SJIS_左腕, 0x31])).toBe(true); // 左腕1
    expect(lone([0xb1])).toBe(true); // half-width ｱ
    expect(lone([0x41, 0, 0x82, 0x40, 0x81])).toBe(true); // "A", and garbage after the NUL is not the name
    expect(lone(Array.from('abcdefghijklmno', (c) => c.charCodeAt(0)))).toBe(true); // all 15 bytes, no NUL
    // ≒ is both 81E0 (JIS X 0208) and 8790 (NEC row 13); ⅰ both EEEF (NEC-selected IBM) and FA40 (IBM).
    expect([lone([0x81, 0xe0]), lone([0x87, 0x90]), lone([0xee, 0xef]), lone([0xfa, 0x40])]).toEqual([false, false, false, false]);
    expect(lone([0x41, 0x82])).toBe(false); // a lead byte cut by the NUL: decodes as "A"
    expect(lone([...Array(14).fill(0x41), 0x82])).toBe(false); // cut by the field's end
    expect(lone([0x85, 0x40])).toBe(false); // an unmapped pair
    expect([lone([0x1a]), lone([0x7f]), lone([0x80]), lone([0xa0])]).toEqual([false, false, false, false]);
  });

  it('vouches only for units that decode to one character no other unit decodes to (every byte and pair)', () => {
    // What each unit decodes to, by the platform decoder: every single byte, then every pair whose first
    // byte decodes to nothing alone (a lead byte, cut: the decoder's U+FFFD, dropped).
    const units: number[][] = [];
    for (let b = 1; b <= 0xff; b++) units.push([b]);
    for (let a = 0x80; a <= 0xff; a++) {
      if (reference(Uint8Array.of(a)) !== '') continue;
      for (let b = 1; b <= 0xff; b++) units.push([a, b]);
    }
    const givers = new Map<string, number>();
    const decoded = units.map((u) => reference(Uint8Array.from(u)));
    for (const d of decoded) givers.set(d, (givers.get(d) ?? 0) + 1);
    let vouched = 0;
    const wrong: string[] = [];
    units.forEach((u, k) => {
      if (!lone(u)) return;
      vouched++;
      const d = decoded[k];
      // An ASCII byte decodes as itself in an ASCII name, and by the decoder in any other: both must agree.
      const ascii = u.length === 1 && u[0] < 0x80;
      const asDecoded = ascii && decoder.decode(Uint8Array.from(u)) === d;
      if (d.length !== 1 || d === '\uFFFD' || givers.get(d) !== 1 || (ascii && !asDecoded)) wrong.push(u.map((b) => b.toString(16)).join(' '));
    });
    expect(wrong).toEqual([]);
    expect(vouched).toBeGreaterThan(7000); // JIS X 0208 alone has 6,879 characters
  });
});

// decodeLoneName reads a new name once for the grouping (issue 31): the name of a lone spelling, null for any
// other. Held to isLoneSpelling and to the platform decoder (reference), not to decodeName.
describe('decodeLoneName', () => {
  const expected = (field: Uint8Array) => (isLoneSpelling(field, 0, field.length) ? reference(field) : null);
  const hex = (f: Uint8Array) => Array.from(f, (b) => b.toString(16)).join(' ');

  it('gives the decoded name of a lone spelling and null for any other (every byte and pair, alone, between ASCII, cut)', () => {
    const wrong: string[] = [];
    let lone = 0;
    const check = (bytes: number[], length = 15) => {
      const field = new Uint8Array(length);
      field.set(bytes.slice(0, length));
      const want = expected(field);
      if (want !== null) lone++;
      if (decodeLoneName(field, 0, length) !== want) wrong.push(hex(field));
    };
    for (let a = 1; a <= 0xff; a++) {
      check([a]);
      check([0x41, a]); // an ASCII name with one more byte: a lead byte here is cut by the NUL
      check([...Array(14).fill(0x42), a]); // the field's last byte
      for (let b = 1; b <= 0xff; b++) {
        check([a, b]);
        check([0x41, a, b, 0x31]);
      }
    }
    // Fields longer than any VMD name field: 40 ASCII bytes, 20 pairs.
    check(Array.from({ length: 40 }, (_, i) => 0x41 + (i % 26)), 40);
    check(Array.from({ length: 40 }, (_, i) => (i % 2 ? 0x40 + i : 0x88)), 40);
    expect(wrong.slice(0, 20)).toEqual([]);
    expect(lone).toBeGreaterThan(2 * 7000); // each lone pair alone and between ASCII
  });

  it('agrees on seeded random fields (lone units, others, NULs, garbage after them) of 15, 20 and 40 bytes', () => {
    const rnd = lcg(6);
    // Units the fields are made of: ASCII, half-width kana, JIS X 0208 pairs, doubly mapped and unmapped pairs, lone lead bytes.
    const pick = (): number[] => {
      const r = rnd();
      if (r < 0.3) return [0x20 + Math.floor(rnd() * 0x5f)];
      if (r < 0.4) return [0xa1 + Math.floor(rnd() * 0x3f)];
      if (r < 0.85) return [0x88 + Math.floor(rnd() * 0x18), 0x40 + Math.floor(rnd() * 0xbd)];
      if (r < 0.9) return rnd() < 0.5 ? [0x81, 0xe0] : [0x87, 0x90];
      if (r < 0.95) return [Math.floor(rnd() * 256)];
      return [0];
    };
    const wrong: string[] = [];
    let lone = 0, other = 0;
    for (const length of [15, 20, 40]) {
      for (let k = 0; k < 20000; k++) {
        const field = new Uint8Array(length);
        for (let i = 0; i < length; ) for (const b of pick()) if (i < length) field[i++] = b;
        const want = expected(field);
        if (want === null) other++;
        else lone++;
        const got = decodeLoneName(field, 0, length);
        if (got !== want) wrong.push(`${length}: ${hex(field)}`);
        // Inside a larger buffer, at an offset.
        const buf = new Uint8Array(length + 7).fill(0x82);
        buf.set(field, 3);
        if (decodeLoneName(buf, 3, length) !== want) wrong.push(`${length} at 3: ${hex(field)}`);
      }
    }
    expect(wrong.slice(0, 20)).toEqual([]);
    expect([lone, other].every((n) => n > 5000)).toBe(true);
  });

  it('gives every corpus name of a lone spelling, and null for the others', () => {
    if (!corpusPresent) return;
    const wrong: string[] = [];
    let names = 0;
    for (const f of corpusFiles('.vmd')) {
      const r = readVmd(readCorpus(f));
      if (!r.ok) continue;
      for (const b of [r.value.bone, r.value.morph]) {
        for (let i = 0; i < b.count; i++) {
          const field = b.bytes.subarray(i * b.size, i * b.size + 15);
          names++;
          if (decodeLoneName(b.bytes, i * b.size, 15) !== expected(field)) wrong.push(`${relName(f)} ${i}: ${hex(field)}`);
        }
      }
    }
    expect(wrong.slice(0, 20)).toEqual([]);
    expect(names).toBeGreaterThan(10000);
  });
});
