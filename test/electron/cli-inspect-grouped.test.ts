// `inspect`'s table groups its counts by thousands as its warnings (and the rest of the CLI's summary lines) do:
// "length 2809 frames" and "bone 14160" stood beside warnings that said "2,809". The figures are the file's own as
// `inspect --json` gives them, grouped here by hand; the table is English under --lang ja too (only errors and
// warnings are said in Japanese), so both runs print the same lines.
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/cli-in-process';
import { corpusPath, corpusPresent } from '../helpers/corpus';

const WAVE = 'mmd-viewer-js/vmd/wavefile_v2.vmd';
const GENE = 'gene/Gene_light.pmx';

describe.skipIf(!corpusPresent)('inspect groups the numbers of its table', () => {
  it('a motion: length and key counts; a model: vertices, faces and skinning; English and --lang ja alike', async () => {
    const json = JSON.parse((await runCliCaptured(['inspect', '--json', corpusPath(WAVE)], process.cwd())).out.trim());
    expect([json.lastFrame, json.counts.bone, json.counts.morph]).toEqual([2809, 14160, 1279]);
    const model = JSON.parse((await runCliCaptured(['inspect', '--json', corpusPath(GENE)], process.cwd())).out.trim().split('\n')[0]);
    expect([model.vertexCount, model.faceCount, model.skinning.bdef1, model.skinning.bdef2, model.skinning.bdef4]).toEqual([28646, 47106, 13552, 10178, 4916]);
    for (const lang of ['en', 'ja']) {
      const m = await runCliCaptured(['--lang', lang, 'inspect', corpusPath(WAVE)], process.cwd());
      expect(m.out).toContain('\n  length  2,809 frames (93.63 s at 30 fps)\n  keys    bone 14,160  morph 1,279  camera 0  light 0  shadow 0  ik 0  (absent: ik)\n  tracks  140 bones, 31 morphs\n');
      const g = await runCliCaptured(['--lang', lang, 'inspect', corpusPath(GENE)], process.cwd());
      expect(g.out).toContain('\n  28,646 vertices, 47,106 faces, 13 materials, 10 textures\n');
      expect(g.out).toContain('\n  skinning BDEF1 13,552 · BDEF2 10,178 · BDEF4 4,916\n');
    }
  }, 60_000);
});
