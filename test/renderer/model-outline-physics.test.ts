// The shown model's physics bones (model-outline.ts), which the Key panel's 物理 field is shown for: the bones a
// simulated body (mode 1 or 2) is attached to, not those a mode-0 body follows, and no body at all for the figure.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, corpusPresent } from '../helpers/corpus';
import { modelOutline } from '../../renderer/src/model/model-outline';
import { readPmx } from '../../shared/pmx';

describe.skipIf(!corpusPresent)('model outline: physics bones', () => {
  it('Gene: the bones under simulated bodies, and not 上半身, 左腕 or a bone only a follow-bone body holds', () => {
    const r = readPmx(new Uint8Array(readFileSync(corpusPath('gene/Gene_light.pmx'))));
    if (!r.ok) throw new Error(r.error.message);
    const m = r.value;
    const out = modelOutline(m).physicsBones;
    // Worked out from the bodies as stored: a body's bone is a physics bone when its mode is 1 or 2.
    const simulated = new Set(m.rigidBodies.filter((b) => b.mode === 1 || b.mode === 2).map((b) => m.bones[b.bone].name));
    const followOnly = m.rigidBodies.filter((b) => b.mode === 0 && !simulated.has(m.bones[b.bone].name)).map((b) => m.bones[b.bone].name);
    expect(out.length).toBeGreaterThan(0);
    expect(new Set(out)).toEqual(simulated);
    expect(out).not.toContain('上半身');
    expect(out).not.toContain('左腕');
    for (const n of followOnly) expect(out).not.toContain(n);
    expect(modelOutline(null).physicsBones).toEqual([]);
  });
});
