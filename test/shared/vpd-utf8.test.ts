// new-user pass nuprefs 3: a pose saved as UTF-8 without a BOM (as many text editors save it) was read as Shift_JIS
// and refused with garbled names ("bone name: name "鬥�" has characters Shift_JIS cannot encode"), and inspect
// printed its garbled model name without a word. Now: bytes that are strict UTF-8 and not Shift_JIS are read as
// UTF-8, with one note saying so; MMD's Shift_JIS poses (the corpus's) read as before.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import Encoding from 'encoding-japanese';
import { readVpd, updateVpd } from '../../shared/vmd';
import { corpusFiles, corpusPresent, relName } from '../helpers/corpus';

const sjis = (s: string) => Uint8Array.from(Encoding.convert(Encoding.stringToCode(s), { to: 'SJIS', from: 'UNICODE' }) as number[]);
const utf8 = (s: string) => new TextEncoder().encode(s);
const POSE = ['Vocaloid Pose Data file', '', '初音ミク.osm;\t\t// 親ファイル名', '2;', '', 'Bone0{センター', '  0.000000,1.250000,-0.500000;', '  0.000000,0.000000,0.000000,1.000000;', '}', '', 'Bone1{左腕', '  0,0,0;', '  0.1,-0.2,0.3,0.927362;', '}', '', 'Morph0{まばたき', '  1.000000;', '}', ''].join('\r\n');
const notes = (b: Uint8Array) => {
  const r = readVpd(b);
  if (!r.ok) throw new Error(r.error.message);
  return r.diagnostics.filter((d) => d.code === 'W_VPD_UTF8');
};

describe('a VPD saved as UTF-8 without a BOM', () => {
  it('is read as UTF-8: the names as written, one note saying so', () => {
    const r = readVpd(utf8(POSE));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.model).toBe('初音ミク.osm');
    expect(r.value.bones.map((b) => b.name)).toEqual(['センター', '左腕']);
    expect(r.value.morphs).toEqual([{ name: 'まばたき', weight: 1 }]);
    expect(r.value.encoding).toBe('utf-8');
    expect(r.diagnostics.filter((d) => d.code === 'W_VPD_UTF8').map((d) => d.message)).toEqual(['read as UTF-8 text; MMD reads VPD as Shift_JIS: Export VPD writes Shift_JIS']);
  });

  it('the same pose as Shift_JIS, or with a BOM, or in ASCII alone: no note, read as before', () => {
    const s = readVpd(sjis(POSE));
    expect(s.ok && s.value.encoding).toBe('shift_jis');
    expect(s.ok && s.value.bones.map((b) => b.name)).toEqual(['センター', '左腕']);
    expect(notes(sjis(POSE))).toEqual([]);
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(POSE)]);
    expect(readVpd(bom).ok && (readVpd(bom) as { value: { bones: { name: string }[] } }).value.bones.map((b) => b.name)).toEqual(['センター', '左腕']);
    expect(notes(bom)).toEqual([]);
    const ascii = utf8(POSE.replace(/[^\x00-\x7f]/g, 'a'));
    expect(readVpd(ascii).ok && (readVpd(ascii) as { value: { encoding: string } }).value.encoding).toBe('shift_jis');
    expect(notes(ascii)).toEqual([]);
  });

  it('Shift_JIS bytes that are UTF-8 too (half-width katakana ﾃｱ, C3 B1, is UTF-8 "ñ") stay Shift_JIS, as MMD reads them', () => {
    const bytes = sjis(POSE.replace('左腕', 'ﾃｱ').replace(/[^\x00-\x7fﾃｱ]/g, 'a'));
    expect([...bytes.subarray(bytes.indexOf(0xc3), bytes.indexOf(0xc3) + 2)]).toEqual([0xc3, 0xb1]);
    expect(new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toContain('ñ');
    const r = readVpd(bytes);
    expect(r.ok && r.value.bones.map((b) => b.name)).toEqual(['aaaa', 'ﾃｱ']); // センター, 4 characters
    expect(notes(bytes)).toEqual([]);
  });

  it('an edit saved over it keeps it UTF-8 (no BOM added), changing only the numbers edited', () => {
    const bytes = utf8(POSE);
    const r = readVpd(bytes);
    if (!r.ok) throw new Error(r.error.message);
    const after = { bones: r.value.bones.map((b, i) => (i === 0 ? { ...b, position: [0, 2, 0] as [number, number, number] } : b)), morphs: r.value.morphs };
    const out = updateVpd(bytes, r.value, after)!;
    expect(new TextDecoder().decode(out)).toBe(POSE.replace('0.000000,1.250000,-0.500000;', '0.000000,2.000000,0.000000;'));
  });
});

describe.skipIf(!corpusPresent)('the corpus VPDs (MMD and three.js poses, Shift_JIS)', () => {
  const files = corpusFiles('.vpd');

  it('read as Shift_JIS, as before, with no UTF-8 note; their names as a Shift_JIS decoder reads them', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const bytes = new Uint8Array(readFileSync(f));
      const r = readVpd(bytes);
      expect(r.ok, relName(f)).toBe(true);
      if (!r.ok) continue;
      expect(r.value.encoding, relName(f)).toBe('shift_jis');
      expect(notes(bytes), relName(f)).toEqual([]);
      const text = new TextDecoder('shift_jis').decode(bytes);
      const heads = [...text.matchAll(/^Bone\d*\{(.*)$/gm)].map((m) => m[1].replace(/\r$/, '').trim());
      expect(r.value.bones.map((b) => b.name), relName(f)).toEqual(heads);
    }
  });

  it('converted to UTF-8 without a BOM, each reads the same pose, and says so', () => {
    for (const f of files) {
      const bytes = new Uint8Array(readFileSync(f));
      const asSjis = readVpd(bytes);
      const converted = utf8(new TextDecoder('shift_jis').decode(bytes));
      const asUtf8 = readVpd(converted);
      expect(asUtf8.ok, relName(f)).toBe(true);
      if (!asSjis.ok || !asUtf8.ok) continue;
      expect({ ...asUtf8.value, encoding: 'shift_jis' }, relName(f)).toEqual(asSjis.value);
      // A pose whose text is ASCII only is the same bytes in both: nothing to say.
      expect(notes(converted).length, relName(f)).toBe(bytes.some((b) => b >= 0x80) ? 1 : 0);
    }
  });
});
