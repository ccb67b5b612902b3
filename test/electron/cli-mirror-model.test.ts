// `mirror --model` (and `batch mirror --model`): names in Latin letters pair by the model's bones and morphs,
// as the editor's Mirror pairs them by the actor's model. Before, the command line had no --model: a lone
// mouthLowerDownL key (Gene's mouthLowerDownLeft cut to the 15-byte field) stayed on the left side, though
// the model names both sides and the editor swapped it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { corpusPath, corpusPresent, repoRoot } from '../helpers/corpus';
import { buildFixture } from '../helpers/vmd-fixtures';
import { readVmd, buildTracks } from '../../shared/vmd';

const cli = (...argv: string[]) => runCliCaptured(argv, repoRoot);
/** The morph names of a written motion, each with its frames. */
function morphs(file: string): string[] {
  const d = readVmd(readFileSync(file));
  if (!d.ok) throw new Error(d.error.message);
  const m = buildTracks(d.value).morphs;
  return m.names.map((name, t) => `${name}@${[...m.frames.subarray(m.start[t], m.start[t + 1])].join(',')}`).sort();
}

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'vmd-cli-mirror-model-'));
  mkdirSync(path.join(tmp, 'in'));
  const motion = buildFixture({ morphs: [{ name: 'mouthLowerDownL', frame: 3, weight: 1 }, { name: 'eyeBlinkLeft', frame: 4, weight: 1 }] });
  writeFileSync(path.join(tmp, 'in', 'face.vmd'), motion);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(!corpusPresent)('mirror --model', () => {
  it('without a model the cut name stays (it could be anything); with Gene, which names both sides, it swaps', async () => {
    const plain = path.join(tmp, 'plain.vmd'), withModel = path.join(tmp, 'model.vmd');
    expect((await cli('mirror', path.join(tmp, 'in', 'face.vmd'), '-o', plain)).code).toBe(0);
    expect(morphs(plain)).toEqual(['eyeBlinkRight@4', 'mouthLowerDownL@3']);
    const r = await cli('mirror', path.join(tmp, 'in', 'face.vmd'), '-o', withModel, '--model', corpusPath('gene/Gene_light.pmx'));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(morphs(withModel)).toEqual(['eyeBlinkRight@4', 'mouthLowerDownR@3']);
  });

  it('the same in a batch; a --model that is not a model is a file of the wrong kind (exit 1) naming it', async () => {
    const out = path.join(tmp, 'out');
    const r = await cli('batch', 'mirror', path.join(tmp, 'in'), '-o', out, '--model', corpusPath('gene/Gene_light.pmx'));
    expect(r.code).toBe(0);
    expect(morphs(path.join(out, 'face.vmd'))).toEqual(['eyeBlinkRight@4', 'mouthLowerDownR@3']);
    const bad = await cli('mirror', path.join(tmp, 'in', 'face.vmd'), '-o', path.join(tmp, 'bad.vmd'), '--model', path.join(tmp, 'in', 'face.vmd'));
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('--model');
    expect(bad.err).toContain('face.vmd');
    expect(bad.err).not.toMatch(/\n\s+at /);
  });
});
