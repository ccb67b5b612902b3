// The Model section's toon count, against mmd-parser's reading of the corpus models (not our reader): the
// preview says a model without toons shows no self-shadow (MMD's shadow is the toon's dark end).
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { modelFacts } from '../../renderer/src/model/model-facts';
import { readModel } from '../../shared/pmx/model-reader';
import { corpusPresent, readCorpus } from '../helpers/corpus';

interface Parsed { materials: { toonFlag?: number; toonIndex: number }[] }
const parser = new (createRequire(import.meta.url)('mmd-parser') as { Parser: new () => { parsePmx(b: ArrayBuffer, ltr: boolean): Parsed; parsePmd(b: ArrayBuffer, ltr: boolean): Parsed } }).Parser();
const buf = (b: Uint8Array) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

describe.skipIf(!corpusPresent)('modelFacts: materials with a toon', () => {
  it('Gene_light has none; low_miku counts those whose toon index names one', () => {
    for (const [file, pmx] of [['gene/Gene_light.pmx', true], ['mmd-viewer-js/model/low_miku/miku.pmd', false]] as const) {
      const bytes = readCorpus(file);
      const parsed = pmx ? parser.parsePmx(buf(bytes), false) : parser.parsePmd(buf(bytes), false);
      // PMX: a shared toon (flag 1) or a texture index ≥ 0; PMD: a toon index ≥ 0 (toon01–10), −1 none.
      const expected = parsed.materials.filter((m) => (pmx && m.toonFlag === 1) || m.toonIndex >= 0).length;
      const r = readModel(bytes, file);
      if (!r.ok) throw new Error(r.error.message);
      expect(modelFacts(r.value).toonMaterials, file).toBe(expected);
      if (pmx) expect(expected).toBe(0);
    }
  });
});
