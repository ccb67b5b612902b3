// The bake worker's answer carries, beside the report, the baked bones one can see (the Bake dialog plots one of
// them): for Gene_light, the hair and cloak bones, not the cloak's weights (錘), which the bake does key.
import { describe, expect, it } from 'vitest';
import { bakeBytes } from '../../../renderer/src/physics/bake-worker-core';
import { testBullet } from '../../helpers/bullet';
import { corpusPresent, readCorpus } from '../../helpers/corpus';

describe('bake worker core', () => {
  it.skipIf(!corpusPresent)('Gene_light × wavefile_v2, frames 0–3: seen lists the baked bones but the weights (錘)', async () => {
    const out = bakeBytes(await testBullet(), readCorpus('gene/Gene_light.pmx'), readCorpus('mmd-viewer-js/vmd/wavefile_v2.vmd'), { to: 3, raw: true });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    const { report, seen } = out.value;
    const weights = report.bones.filter((n) => n.endsWith('錘'));
    expect(weights).toContain('前クローク2_2錘');
    // Every other physics bone of Gene's deforms vertices or is displayed (イヤリング1_1: displayed, no vertices).
    expect(seen).toEqual(report.bones.filter((n) => !weights.includes(n)));
    expect(seen).toContain('イヤリング1_1');
  }, 60_000);
});
