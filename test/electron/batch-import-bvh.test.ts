// `batch import-bvh`: a folder of BVH captures → VMDs, through the batch engine's workers, compared file by
// file with the single-file command (import-bvh, in its own process: the independent path). Onto the
// standard MMD skeleton (no --model) and onto the low-poly Miku with options; a truncated capture fails
// alone, naming its line; the motions in the folder are counted as not taken; the inputs stay as they were.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runBatch } from '../../electron/batch/engine';
import { CLI, hashTree, useTempDirs } from './batch-helpers';
import { corpusPath, corpusPresent } from '../helpers/corpus';
import { decodeName, readVmd } from '../../shared/vmd';

const mk = useTempDirs();
const WALK = corpusPath('bvh11/resources/131_01.bvh');
const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');

function cli(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe.skipIf(!corpusPresent)('batch import-bvh', () => {
  it('every .bvh under the folder → .vmd, each the bytes import-bvh writes; a cut capture fails alone; motions are not taken', async () => {
    const root = mk('import-bvh');
    const input = path.join(root, 'in');
    mkdirSync(path.join(input, 'sub'), { recursive: true });
    copyFileSync(WALK, path.join(input, 'walk.bvh'));
    copyFileSync(WALK, path.join(input, 'sub', 'WALK2.BVH'));
    const text = readFileSync(WALK, 'utf8');
    writeFileSync(path.join(input, 'cut.bvh'), text.slice(0, 3000));
    copyFileSync(corpusPath('gene/motion/02_laugh.vmd'), path.join(input, 'laugh.vmd'));
    const before = hashTree(input);

    const single = cli(['import-bvh', WALK, '-o', path.join(root, 'single.vmd')], root);
    expect(single.code, single.err).toBe(0);
    const s = await runBatch({ op: 'import-bvh', inputDir: input, outputDir: path.join(root, 'out'), options: {}, recursive: true, jobs: 2 });
    if (!s.ok) throw new Error(s.error.message);
    const sum = s.value;
    expect([sum.total, sum.ok, sum.failed]).toEqual([3, 2, 1]);
    expect(sum.notTaken).toBe(1);
    const ref = readFileSync(path.join(root, 'single.vmd'));
    expect(readFileSync(path.join(root, 'out', 'walk.vmd')).equals(ref)).toBe(true);
    expect(readFileSync(path.join(root, 'out', 'sub', 'WALK2.vmd')).equals(ref)).toBe(true);
    const bad = sum.results.find((r) => !r.ok)!;
    expect(bad.input).toBe(path.join(input, 'cut.bvh'));
    expect(!bad.ok && bad.error.code).toBe('E_BVH_TRUNCATED');
    expect(!bad.ok && bad.error.message).toMatch(/LeftWrist/);
    const rep = sum.results.find((r) => r.ok && r.input.endsWith('walk.bvh'));
    expect(rep?.ok && rep.value.report).toMatchObject({ edit: 'import-bvh', frames: 994, captureFps: 120, map: 'cmu-max' });
    // What the capture has and the skeleton lacks is said of the skeleton (import-bvh --json: unboundParts).
    expect(rep?.ok && (rep.value.report as { warnings: string[] }).warnings).toContain('parts the standard skeleton lacks: upperChest leftToes rightToes');
    expect(hashTree(input)).toEqual(before);

    // Onto a model with options, from the command line: the same bytes as import-bvh with them.
    const opts = ['--no-foot-ik', '--rot-tol', '0.8', '--scale', '0.5'];
    const one = cli(['import-bvh', WALK, '--model', MIKU, '-o', path.join(root, 'single-miku.vmd'), ...opts], root);
    expect(one.code, one.err).toBe(0);
    const b = cli(['batch', 'import-bvh', input, '-o', path.join(root, 'out-miku'), '--model', MIKU, ...opts, '--quiet'], root);
    expect(b.code).toBe(1); // the cut capture
    expect(b.err).toMatch(/cut\.bvh: the file ends where the closing "\}" of LeftWrist should be \(line \d+\)/);
    expect(readFileSync(path.join(root, 'out-miku', 'walk.vmd')).equals(readFileSync(path.join(root, 'single-miku.vmd')))).toBe(true);
    // The header names the model (16 bytes of Shift_JIS).
    const miku = readVmd(new Uint8Array(readFileSync(path.join(root, 'out-miku', 'walk.vmd'))));
    expect(miku.ok && decodeName(miku.value.modelName)).toBe('ローポリ初音さん');
    expect(readFileSync(path.join(root, 'out-miku', 'walk.vmd')).equals(ref)).toBe(false);
    // A bad option refuses the whole job before any file: a model that is not one.
    const no = cli(['batch', 'import-bvh', input, '-o', path.join(root, 'out-none'), '--model', path.join(input, 'laugh.vmd')], root);
    expect(no.code).toBe(2);
  }, 240_000);
});
