/**
 * Lip sync (shared/key-edits/lip-sync.ts): the model's mouth-shape morphs found by MMD's standard names (Gene from the
 * corpus has あ い う え お and ワ; the low Miku PMD none) or their English names; a tap keys the shape at the frame and
 * every other shape 0 there as one edit, starts a new track with a 0 at frame 0, and undoes to the same bytes.
 * Expected keys worked out by hand on a motion built here.
 */
import { describe, expect, it } from 'vitest';
import { buildTracks, buildVmd, writeVmd } from '../../../shared/vmd';
import { findMouthShapes, keyMouthShape, revertDiff } from '../../../shared/key-edits';
import { readModel } from '../../../shared/pmx/model-reader';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { corpusPresent, readCorpus } from '../../helpers/corpus';

function model(rel: string) {
  const m = readModel(readCorpus(rel));
  if (!m.ok) throw new Error(m.error.message);
  return m.value.morphs.map((x) => ({ name: x.name, nameEn: x.nameEn }));
}

/** (name, frame) → weight of every morph key of `d`. */
function keys(d: VmdDocument): Map<string, number> {
  const t = buildTracks(d).morphs, out = new Map<string, number>();
  t.names.forEach((n, i) => {
    for (let k = t.start[i]; k < t.start[i + 1]; k++) out.set(`${n}@${t.frames[k]}`, t.weight[k]);
  });
  return out;
}

const FOUND = { a: 'あ', i: 'い', u: 'う', e: 'え', o: 'お' };

describe('findMouthShapes', () => {
  it.skipIf(!corpusPresent)('finds Gene’s あ い う え お and ワ by name, and names the vowels the low Miku lacks', () => {
    const gene = findMouthShapes(model('gene/Gene_light.pmx'));
    expect(gene.found).toEqual({ a: 'あ', i: 'い', u: 'う', e: 'え', o: 'お', wa: 'ワ' });
    expect(gene.missing).toEqual([]);
    const miku = findMouthShapes(model('mmd-viewer-js/model/low_miku/miku.pmd'));
    expect(miku.found).toEqual({});
    expect(miku.missing).toEqual(['a', 'i', 'u', 'e', 'o']);
  });

  it('finds English names (VRoid’s, VRChat’s, a PMX English name), half-width ﾜ, and says what is missing', () => {
    const s = findMouthShapes([
      { name: 'Fcl_MTH_A' },
      { name: 'vrc.v_ih' },
      { name: '口すぼめ', nameEn: 'oh' },
      { name: 'ﾜ' },
      { name: 'E' },
      { name: 'smile', nameEn: 'a' },
    ]);
    expect(s.found).toEqual({ a: 'Fcl_MTH_A', i: 'vrc.v_ih', e: 'E', o: '口すぼめ', wa: 'ﾜ' });
    expect(s.missing).toEqual(['u']);
  });
});

describe('keyMouthShape', () => {
  // あ 0 at 0, 1 at 10; い 1 at 20; no う え お yet.
  const start = () => buildVmd({ morphs: [{ name: 'あ', frame: 0, weight: 0 }, { name: 'あ', frame: 10, weight: 1 }, { name: 'い', frame: 20, weight: 1 }, { name: '笑い', frame: 5, weight: 0.5 }] });

  it('keys the vowel at its weight and every other vowel 0 at that frame, one edit that undoes to the same bytes', () => {
    const d = start();
    const before = writeVmd(d);
    const out = keyMouthShape(d, buildTracks(d), 30, FOUND, 'i', 0.8);
    if (!out.ok) throw new Error(out.error.message);
    const k = keys(out.value.doc);
    expect(k.get('い@30')).toBe(Math.fround(0.8));
    for (const v of ['あ', 'う', 'え', 'お']) expect(k.get(`${v}@30`), v).toBe(0);
    // い has a key before 30, so nothing at 0; う え お start at 30 with 0 (held before it: 0 too).
    expect(k.has('い@0')).toBe(false);
    expect(k.has('う@0')).toBe(false);
    // Nothing else touched: 4 keys before, 5 more.
    expect(out.value.doc.morph.count).toBe(4 + 5);
    expect(k.get('笑い@5')).toBe(0.5);
    expect(out.value.diff.label).toBe('lip sync');
    // The keys at 30, the tapped vowel's first.
    expect(out.value.records).toHaveLength(5);
    expect(nameOfRecord(out.value.doc, out.value.records[0])).toBe('い');
    expect(Buffer.from(writeVmd(revertDiff(out.value.doc, out.value.diff))).equals(Buffer.from(before))).toBe(true);
  });

  it('a vowel the motion has no key of before the frame gets a 0 at frame 0 (else it would stand open from the start)', () => {
    const d = start();
    const out = keyMouthShape(d, buildTracks(d), 40, FOUND, 'u', 1);
    if (!out.ok) throw new Error(out.error.message);
    const k = keys(out.value.doc);
    expect(k.get('う@40')).toBe(1);
    expect(k.get('う@0')).toBe(0);
    expect(out.value.doc.morph.count).toBe(4 + 6);
    // Only the keys at 40 are the tap's records.
    expect(out.value.records).toHaveLength(5);
  });

  it('replaces a key at that frame in place; closed keys every vowel 0', () => {
    const d = start();
    const out = keyMouthShape(d, buildTracks(d), 10, FOUND, 'a', 0.5);
    if (!out.ok) throw new Error(out.error.message);
    const k = keys(out.value.doc);
    expect(k.get('あ@10')).toBe(0.5);
    expect(out.value.doc.morph.count).toBe(4 + 4);
    const shut = keyMouthShape(out.value.doc, buildTracks(out.value.doc), 10, FOUND, 'closed', 1);
    if (!shut.ok) throw new Error(shut.error.message);
    const k2 = keys(shut.value.doc);
    for (const v of ['あ', 'い', 'う', 'え', 'お']) expect(k2.get(`${v}@10`), v).toBe(0);
    expect(shut.value.doc.morph.count).toBe(4 + 4);
  });
});

/** The name of the track holding morph record `r` of `d`. */
function nameOfRecord(d: VmdDocument, r: number): string {
  const t = buildTracks(d).morphs;
  for (let i = 0; i < t.names.length; i++) for (let k = t.start[i]; k < t.start[i + 1]; k++) if (t.record[k] === r) return t.names[i];
  return '';
}
