// Registering a morph key from the morph panel (shared/key-edits/morph-key.ts) on wavefile_v2.vmd: a key at
// the frame gets the weight in place; a frame between keys gets a new record under the track's own name
// bytes; a morph the motion lacks gets its first key under its Shift_JIS name; every other record keeps its
// bytes, the codec plays the weight at that frame, and undo gives the original bytes back.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../helpers/corpus';
import { buildTracks, MORPH, readVmd, sampleMorph, writeVmd } from '../../shared/vmd';
import { applyDiff, registerMorphKey, revertDiff } from '../../shared/key-edits';
import type { VmdDocument } from '../../shared/vmd/vmd-document';

function load(): VmdDocument {
  const r = readVmd(new Uint8Array(readFileSync(corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'))));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
const rec = (d: VmdDocument, i: number) => Buffer.from(d.morph.bytes.subarray(i * MORPH.SIZE, (i + 1) * MORPH.SIZE)).toString('hex');

describe('registerMorphKey', () => {
  const doc = load();
  const tracks = buildTracks(doc);
  const m = tracks.morphs;
  // The morph with the most keys.
  let t = 0;
  for (let i = 1; i < m.names.length; i++) if (m.start[i + 1] - m.start[i] > m.start[t + 1] - m.start[t]) t = i;
  const name = m.names[t];
  const [a, b] = [m.start[t], m.start[t + 1]];

  it('a key at the frame: its weight, in place; nothing else changes; undo restores the bytes', () => {
    // A key alone at its frame (a track may hold two keys at one frame).
    let k = a + 1;
    while (m.frames[k] === m.frames[k - 1] || m.frames[k] === m.frames[k + 1]) k++;
    const frame = m.frames[k];
    const out = registerMorphKey(doc, tracks, name, frame, 0.25);
    if (!out.ok) throw new Error(out.error.message);
    expect(out.value.replaced).toBe(true);
    expect(out.value.record).toBe(m.record[k]);
    const after = applyDiff(doc, out.value.diff);
    expect(after.morph.count).toBe(doc.morph.count);
    for (let i = 0; i < doc.morph.count; i++) if (i !== out.value.record) expect(rec(after, i)).toBe(rec(doc, i));
    expect(sampleMorph(buildTracks(after).morphs, t, frame)).toBeCloseTo(0.25, 6);
    expect(Buffer.from(writeVmd(revertDiff(after, out.value.diff))).equals(Buffer.from(writeVmd(doc)))).toBe(true);
  });

  it('between keys: a new record with the track\'s name bytes; a morph the motion lacks: its first key', () => {
    let frame = m.frames[a] + 1;
    while (m.frames.subarray(a, b).includes(frame)) frame++;
    const out = registerMorphKey(doc, tracks, name, frame, 0.5);
    if (!out.ok) throw new Error(out.error.message);
    expect(out.value.replaced).toBe(false);
    const after = applyDiff(doc, out.value.diff);
    expect(after.morph.count).toBe(doc.morph.count + 1);
    expect(rec(after, out.value.record!).slice(0, 30)).toBe(rec(doc, m.record[a]).slice(0, 30));
    expect(sampleMorph(buildTracks(after).morphs, t, frame)).toBeCloseTo(0.5, 6);

    const fresh = registerMorphKey(doc, tracks, 'ｷﾞｭｯ', 40, 1);
    if (!fresh.ok) throw new Error(fresh.error.message);
    const got = buildTracks(applyDiff(doc, fresh.value.diff)).morphs;
    const ft = got.index.get('ｷﾞｭｯ')!;
    expect(ft).toBeGreaterThanOrEqual(0);
    expect(sampleMorph(got, ft, 40)).toBe(1);
  });

  it('a model name over 15 bytes: cut there as MMD writes it, and found again on those bytes', () => {
    const long = 'eye_surprise_geo_L'; // 18 bytes
    const first = registerMorphKey(doc, tracks, long, 10, 0.5);
    if (!first.ok) throw new Error(first.error.message);
    const d1 = applyDiff(doc, first.value.diff);
    const t1 = buildTracks(d1);
    expect(t1.morphs.index.get('eye_surprise_ge')).toBeGreaterThanOrEqual(0);
    const second = registerMorphKey(d1, t1, long, 10, 0.75);
    if (!second.ok) throw new Error(second.error.message);
    expect(second.value.replaced).toBe(true);
    expect(second.value.record).toBe(first.value.record);
    const t2 = buildTracks(applyDiff(d1, second.value.diff)).morphs;
    expect(sampleMorph(t2, t2.index.get('eye_surprise_ge')!, 10)).toBe(0.75);
  });
});
