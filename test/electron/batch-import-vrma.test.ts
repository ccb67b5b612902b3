// `batch import-vrma`: a folder of VRM Animations → VMDs, through the batch engine's workers (a .vrma is
// read by gltf-transform, asynchronously), compared file by file with the single-file command (import-vrma,
// in its own process). The inputs are written by export-vrma from corpus dances, and checked to be VRM
// Animations by three's GLTFLoader with @pixiv/three-vrm-animation (the independent reader) in
// mocap-cli.test.ts. A cut file fails alone; the motions in the folder are counted as not taken; --map's
// "morphs" section reaches every file; the inputs stay as they were.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runBatch } from '../../electron/batch/engine';
import { buildTracks, readVmd } from '../../shared/vmd';
import { CLI, hashTree, useTempDirs } from './batch-helpers';
import { corpusPath, corpusPresent } from '../helpers/corpus';

const mk = useTempDirs();
const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');

function cli(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function morphNames(file: string): Set<string> {
  const d = readVmd(new Uint8Array(readFileSync(file)));
  if (!d.ok) throw new Error(d.error.message);
  return new Set(buildTracks(d.value).morphs.names);
}

describe.skipIf(!corpusPresent)('batch import-vrma', () => {
  it('every .vrma under the folder → .vmd, each the bytes import-vrma writes; a cut file fails alone; motions are not taken', async () => {
    const root = mk('import-vrma');
    const input = path.join(root, 'in');
    mkdirSync(path.join(input, 'sub'), { recursive: true });
    // Two animations: a dance with expressions (on the low-poly Miku) and a short one on the standard skeleton.
    const made = [
      cli(['export-vrma', corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), '--model', MIKU, '-o', path.join(input, 'dance.vrma')], root),
      cli(['export-vrma', corpusPath('gene/motion/02_laugh.vmd'), '-o', path.join(input, 'sub', 'LAUGH.VRMA')], root),
    ];
    for (const m of made) expect(m.code, m.err).toBe(0);
    const dance = readFileSync(path.join(input, 'dance.vrma'));
    writeFileSync(path.join(input, 'cut.vrma'), dance.subarray(0, 2000));
    copyFileSync(corpusPath('gene/motion/02_laugh.vmd'), path.join(input, 'laugh.vmd'));
    const before = hashTree(input);

    for (const [src, out] of [['dance.vrma', 'dance.vmd'], ['sub/LAUGH.VRMA', 'laugh.vmd']]) {
      const one = cli(['import-vrma', path.join(input, src), '-o', path.join(root, 'single-' + out)], root);
      expect(one.code, one.err).toBe(0);
    }
    const s = await runBatch({ op: 'import-vrma', inputDir: input, outputDir: path.join(root, 'out'), options: {}, recursive: true, jobs: 2 });
    if (!s.ok) throw new Error(s.error.message);
    const sum = s.value;
    expect([sum.total, sum.ok, sum.failed, sum.notTaken]).toEqual([3, 2, 1, 1]);
    expect(readFileSync(path.join(root, 'out', 'dance.vmd')).equals(readFileSync(path.join(root, 'single-dance.vmd')))).toBe(true);
    expect(readFileSync(path.join(root, 'out', 'sub', 'LAUGH.vmd')).equals(readFileSync(path.join(root, 'single-laugh.vmd')))).toBe(true);
    const bad = sum.results.find((r) => !r.ok)!;
    expect(bad.input).toBe(path.join(input, 'cut.vrma'));
    expect(!bad.ok && bad.error.code).toBe('E_VRMA_FORMAT');
    const rep = sum.results.find((r) => r.ok && r.input.endsWith('dance.vrma'));
    expect(rep?.ok && rep.value.report).toMatchObject({ edit: 'import-vrma', frames: 2810 });
    expect(rep?.ok && (rep.value.report as { morphKeys: number }).morphKeys).toBeGreaterThan(0);
    expect(hashTree(input)).toEqual(before);

    // Onto a model with options and a map that leaves the expression aa out, from the command line: the
    // same bytes as import-vrma with them, and no あ keys.
    writeFileSync(path.join(root, 'm.json'), JSON.stringify({ morphs: { aa: '-' } }));
    const opts = ['--model', MIKU, '--no-foot-ik', '--rot-tol', '0.8', '--map', 'm.json'];
    const one = cli(['import-vrma', path.join(input, 'dance.vrma'), '-o', path.join(root, 'single-miku.vmd'), ...opts], root);
    expect(one.code, one.err).toBe(0);
    const b = cli(['batch', 'import-vrma', input, '-o', path.join(root, 'out-miku'), ...opts, '--recursive'], root);
    expect(b.code).toBe(1); // the cut file
    expect(b.err).toMatch(/cut\.vrma: the file is cut: its header says [\d,]+ bytes \(at byte 8\), the file has 2,000/);
    expect(b.out).toMatch(/1 \.vmd\/\.vpd file not processed: import-vrma takes \.vrma files/);
    const miku = path.join(root, 'out-miku', 'dance.vmd');
    expect(readFileSync(miku).equals(readFileSync(path.join(root, 'single-miku.vmd')))).toBe(true);
    expect(morphNames(path.join(root, 'out', 'dance.vmd')).has('あ')).toBe(true);
    expect(morphNames(miku).has('あ')).toBe(false);
    expect(morphNames(miku).has('い')).toBe(true);
    // A bad option refuses the whole job before any file.
    const no = cli(['batch', 'import-vrma', input, '-o', path.join(root, 'out-none'), '--scale', '0'], root);
    expect([no.code, no.err.split('\n')[0]]).toEqual([2, 'vmd-studio batch: --scale must be greater than 0, got 0']);
    expect(hashTree(input)).toEqual(before);
  }, 240_000);
});
