// Mirror and MMD's side-less wink morphs. MMD's standard morphs (Animasa Miku, Gene, YYB Miku, every
// corpus motion with winks) name the left wink ウィンク and the right one ウィンク右, and ウィンク２ /
// ｳｨﾝｸ２右 (half-width): a mirror swaps those pairs. A model that names both sides (ウィンク左, ウィンク右)
// swaps 左/右 and leaves ウィンク alone. Expected names and bytes are written out here (Shift_JIS by
// hand); the corpus check reads the input's keys with its own little reader.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildTracks, buildVmd, decodeName, encodeMorphRecord, blockFromRecords, emptyVmd, readVmd, writeVmd, MORPH, type VmdDocument } from '../../../shared/vmd';
import { mirror } from '../../../shared/motion-ops';
import { applyDiff, copyKeys, drain, mirrorDiffSteps, mirrorPasteKeys, revertDiff } from '../../../shared/key-edits';
import { corpusPath, corpusPresent } from '../../helpers/corpus';
import { accepted } from '../../helpers/key-edit';

function must<T extends { ok: boolean }>(r: T): Extract<T, { ok: true }> {
  if (!r.ok) throw new Error(JSON.stringify((r as unknown as { error: unknown }).error));
  return r as Extract<T, { ok: true }>;
}

/** A motion of morph keys [name, frame, weight]. */
const motion = (keys: [string, number, number][]) => buildVmd({ morphs: keys.map(([name, frame, weight]) => ({ name, frame, weight })) });

/** The morph keys of a document as "name@frame=weight", sorted. */
function keysOf(doc: VmdDocument): string[] {
  const out: string[] = [];
  for (let i = 0; i < doc.morph.count; i++) {
    const o = i * MORPH.SIZE;
    out.push(`${decodeName(doc.morph.bytes, o, 15)}@${doc.morph.view.getUint32(o + MORPH.FRAME, true)}=${doc.morph.view.getFloat32(o + MORPH.WEIGHT, true)}`);
  }
  return out.sort();
}

const mirrored = (doc: VmdDocument, modelMorphs?: string[]) => must(mirror(doc, { modelMorphs })).value;

describe('mirror: MMD wink morphs', () => {
  it('swaps ウィンク ⇄ ウィンク右 and ウィンク２ ⇄ ｳｨﾝｸ２右 (Animasa Miku\'s names); 左/右 names swap as before', () => {
    const doc = motion([['ウィンク', 0, 1], ['ウィンク右', 10, 0.5], ['ウィンク２', 20, 0.25], ['ｳｨﾝｸ２右', 30, 0.75], ['困り左', 40, 1], ['あ', 50, 1]]);
    const r = mirrored(doc);
    expect(keysOf(r.doc)).toEqual(['ウィンク@10=0.5', 'ウィンク右@0=1', 'ウィンク２@30=0.75', 'ｳｨﾝｸ２右@20=0.25', '困り右@40=1', 'あ@50=1'].sort());
    expect(r.report.morphsSwapped).toEqual(['ウィンク ⇄ ウィンク右', 'ウィンク２ ⇄ ｳｨﾝｸ２右', '困り左 → 困り右']);
    expect(r.report.byKind.morph.changed).toBe(5);
  });

  it('writes the names byte for byte, padded as the field was, and mirroring twice gives the bytes back', () => {
    // ウィンク 83 45 83 42 83 93 83 4E, NUL, MMD's 0xFD padding.
    const wink = new Uint8Array([0x83, 0x45, 0x83, 0x42, 0x83, 0x93, 0x83, 0x4e, 0x00, 0xfd, 0xfd, 0xfd, 0xfd, 0xfd, 0xfd]);
    const right2 = new Uint8Array([0xb3, 0xa8, 0xdd, 0xb8, 0x82, 0x51, 0x89, 0x45, 0, 0, 0, 0, 0, 0, 0]); // ｳｨﾝｸ２右, NULs
    const doc = { ...emptyVmd('m'), morph: blockFromRecords('morph', [encodeMorphRecord({ name: wink, frame: 0, weight: 1 }), encodeMorphRecord({ name: right2, frame: 1, weight: 1 })]) };
    const once = mirrored(doc);
    // ウィンク右: + 89 45, NUL, the rest still 0xFD.
    expect(Array.from(once.doc.morph.bytes.subarray(0, 15))).toEqual([0x83, 0x45, 0x83, 0x42, 0x83, 0x93, 0x83, 0x4e, 0x89, 0x45, 0x00, 0xfd, 0xfd, 0xfd, 0xfd]);
    // ウィンク２: 83 45 83 42 83 93 83 4E 82 51, NUL, NULs.
    expect(Array.from(once.doc.morph.bytes.subarray(MORPH.SIZE, MORPH.SIZE + 15))).toEqual([0x83, 0x45, 0x83, 0x42, 0x83, 0x93, 0x83, 0x4e, 0x82, 0x51, 0, 0, 0, 0, 0]);
    const twice = mirrored(once.doc);
    expect(Buffer.from(writeVmd(twice.doc)).equals(Buffer.from(writeVmd(doc)))).toBe(true);
  });

  it('a lone left or right wink goes to its MMD counterpart', () => {
    expect(keysOf(mirrored(motion([['ウィンク', 0, 1]])).doc)).toEqual(['ウィンク右@0=1']);
    expect(keysOf(mirrored(motion([['ウィンク右', 0, 1]])).doc)).toEqual(['ウィンク@0=1']);
    expect(keysOf(mirrored(motion([['ｳｨﾝｸ２右', 0, 1]])).doc)).toEqual(['ウィンク２@0=1']);
  });

  it('a motion naming both sides (ウィンク左 and ウィンク右) swaps those and leaves ウィンク alone', () => {
    const r = mirrored(motion([['ウィンク', 0, 1], ['ウィンク左', 5, 0.5], ['ウィンク右', 10, 0.25]]));
    expect(keysOf(r.doc)).toEqual(['ウィンク@0=1', 'ウィンク右@5=0.5', 'ウィンク左@10=0.25'].sort());
    expect(r.report.morphsSwapped).toEqual(['ウィンク左 ⇄ ウィンク右']);
  });

  it('prefers the model\'s names: both sides named there, or the full-width ウィンク２右', () => {
    // The model names both sides: ウィンク is a morph of its own (both eyes), it stays.
    expect(keysOf(mirrored(motion([['ウィンク', 0, 1]]), ['ウィンク', 'ウィンク左', 'ウィンク右']).doc)).toEqual(['ウィンク@0=1']);
    // The model writes the right one full-width.
    expect(keysOf(mirrored(motion([['ウィンク２', 0, 1]]), ['ウィンク２', 'ウィンク２右']).doc)).toEqual(['ウィンク２右@0=1']);
    // Without a model, the standard half-width name.
    expect(keysOf(mirrored(motion([['ウィンク２', 0, 1]])).doc)).toEqual(['ｳｨﾝｸ２右@0=1']);
  });

  it('the editor\'s Mirror step renames the same, says it in its report, and undo gives the bytes back', () => {
    const doc = must(readVmd(writeVmd(motion([['ウィンク', 0, 1], ['ウィンク右', 10, 0.5], ['まばたき', 3, 1]])))).value;
    const step = drain(mirrorDiffSteps(doc, {}, 'mirror'));
    const next = applyDiff(doc, step.diff);
    expect(keysOf(next)).toEqual(['ウィンク@10=0.5', 'ウィンク右@0=1', 'まばたき@3=1'].sort());
    expect(step.report.morphsSwapped).toEqual(['ウィンク ⇄ ウィンク右']);
    expect(Buffer.from(writeVmd(revertDiff(next, step.diff))).equals(Buffer.from(writeVmd(doc)))).toBe(true);
    // A model that names both sides, given to the step: nothing to swap.
    const both = drain(mirrorDiffSteps(motion([['ウィンク', 0, 1]]), { modelMorphs: ['ウィンク左', 'ウィンク右'] }, 'mirror'));
    expect(both.report.byKind.morph.changed).toBe(0);
  });

  it('mirror paste writes a copied ウィンク key as ウィンク右, and "other side" counts the wink as sided', () => {
    const doc = motion([['ウィンク', 0, 1], ['あ', 0, 1]]);
    const tracks = buildTracks(doc);
    const clip = copyKeys(doc, [{ kind: 'morph', record: 0 }, { kind: 'morph', record: 1 }]);
    expect(keysOf(accepted(mirrorPasteKeys(doc, tracks, clip, 30, 'otherSide')).doc)).toEqual(['ウィンク@0=1', 'ウィンク右@30=1', 'あ@0=1'].sort());
    // The model names both sides: ウィンク has no other side, nothing to paste.
    const refused = mirrorPasteKeys(doc, tracks, clip, 30, 'otherSide', ['ウィンク', 'ウィンク左', 'ウィンク右']);
    expect(!refused.ok && refused.error.code).toBe('E_EMPTY');
  });
});

/** The morph keys of a VMD file read here from the layout (header 50 bytes, bones 111, morphs 23 each). */
function rawMorphs(bytes: Uint8Array): Map<string, [number, number][]> {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dec = new TextDecoder('shift_jis');
  let o = 50;
  o += 4 + v.getUint32(o, true) * 111;
  const n = v.getUint32(o, true);
  o += 4;
  const out = new Map<string, [number, number][]>();
  for (let i = 0; i < n; i++, o += 23) {
    let len = 0;
    while (len < 15 && bytes[o + len] !== 0) len++;
    const name = dec.decode(bytes.subarray(o, o + len));
    if (!out.has(name)) out.set(name, []);
    out.get(name)!.push([v.getUint32(o + 15, true), v.getFloat32(o + 19, true)]);
  }
  for (const keys of out.values()) keys.sort((a, b) => a[0] - b[0]);
  return out;
}

describe('mirror on the corpus dance', () => {
  it.skipIf(!corpusPresent)('wavefile_v2: the ウィンク and ウィンク右 keys (and ウィンク２ / ｳｨﾝｸ２右) change places, frame by frame', () => {
    const input = new Uint8Array(readFileSync(corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd')));
    const out = writeVmd(mirrored(must(readVmd(input)).value).doc);
    const before = rawMorphs(input), after = rawMorphs(out);
    for (const [a, b] of [['ウィンク', 'ウィンク右'], ['ウィンク２', 'ｳｨﾝｸ２右']]) {
      expect(before.get(a)!.length).toBeGreaterThan(0);
      expect(before.get(b)!.length).toBeGreaterThan(0);
      expect(after.get(b)).toEqual(before.get(a));
      expect(after.get(a)).toEqual(before.get(b));
    }
    // No morph a standard model lacks, and every other track as it was.
    expect([...after.keys()].filter((n) => n.includes('左'))).toEqual([]);
    for (const [name, keys] of before) if (!name.includes('ウィンク') && !name.includes('ｳｨﾝｸ')) expect(after.get(name)).toEqual(keys);
  });
});
