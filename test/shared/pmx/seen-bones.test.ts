// Which bones of a model one can see move (shared/pmx seen-bones.ts): those with a skin weight above 0 or the
// visible flag. Checked against mmd-parser's own reading of Gene_light.pmx's vertices and bone flags, and on the
// physics bones a bake plots: the cloak's weights (前クローク2_2錘 …: no vertex, not displayed) are left out,
// the cloak bones they hang from kept.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readModel, seenBoneMask, seenBones } from '../../../shared/pmx';
import { corpusPresent, readCorpus } from '../../helpers/corpus';

type Parsed = { vertices: { skinIndices: number[]; skinWeights: number[] }[]; bones: { name: string; flag: number }[] };
const MMDParser = createRequire(import.meta.url)('mmd-parser') as { Parser: new () => { parsePmx(b: ArrayBuffer, ltr: boolean): Parsed } };

describe('seen bones', () => {
  it.skipIf(!corpusPresent)('Gene_light.pmx: weighted or visible bones as mmd-parser reads the file; the cloak weights (錘) are not among them', () => {
    const b = readCorpus('gene/Gene_light.pmx');
    const p = new MMDParser.Parser().parsePmx(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer, false);
    const want = new Uint8Array(p.bones.length);
    for (const v of p.vertices) v.skinIndices.forEach((k, i) => { if ((v.skinWeights[i] ?? 0) > 0) want[k] = 1; });
    p.bones.forEach((x, i) => { if (x.flag & 0x0008) want[i] = 1; });
    const m = readModel(b);
    expect(m.ok).toBe(true);
    if (!m.ok) return;
    expect([...seenBoneMask(m.value)]).toEqual([...want]);
    expect(want.includes(0)).toBe(true);
    const names = ['前クローク2_2', '前クローク2_2錘', '後クローク1_2錘', '前髪1_1', 'イヤリング1_1', 'ない'];
    expect(seenBones(m.value, names)).toEqual(['前クローク2_2', '前髪1_1', 'イヤリング1_1']);
  });
});
