// `batch export-bvh` and `batch export-vrma`: a folder of motions played on one model (or the standard MMD
// skeleton) → BVH / VRM Animation, through the batch engine's workers, compared file by file with the
// single-file commands (export-bvh, export-vrma, in their own process). A cut motion fails alone; a pose is
// counted as not taken; the inputs stay as they were. What the exports hold is checked against independent
// readers in mocap-cli.test.ts (three-vrm-animation) and bvh tests; here, that the batch writes the same.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runBatch } from '../../electron/batch/engine';
import { CLI, hashTree, useTempDirs } from './batch-helpers';
import { corpusPath, corpusPresent } from '../helpers/corpus';

const mk = useTempDirs();
const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
const LAUGH = corpusPath('gene/motion/02_laugh.vmd');
const DANCE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');

function cli(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function folder(root: string): string {
  const input = path.join(root, 'in');
  mkdirSync(path.join(input, 'sub'), { recursive: true });
  copyFileSync(LAUGH, path.join(input, 'laugh.vmd'));
  copyFileSync(DANCE, path.join(input, 'sub', 'dance.vmd'));
  writeFileSync(path.join(input, 'cut.vmd'), readFileSync(LAUGH).subarray(0, 500));
  copyFileSync(corpusPath('gene/motion/stand.vmd'), path.join(input, 'stand.vmd'));
  writeFileSync(path.join(input, 'pose.vpd'), 'Vocaloid Pose Data file\r\n\r\nmiku.osm;\r\n0;\r\n');
  return input;
}

describe.skipIf(!corpusPresent)('batch export-bvh and export-vrma', () => {
  it('export-bvh: every motion → .bvh, each the bytes export-bvh writes (standard skeleton, then a model); a cut motion fails alone; poses not taken', async () => {
    const root = mk('export-bvh');
    const input = folder(root);
    const before = hashTree(input);
    const s = await runBatch({ op: 'export-bvh', inputDir: input, outputDir: path.join(root, 'out'), options: {}, recursive: true, jobs: 2 });
    if (!s.ok) throw new Error(s.error.message);
    expect([s.value.total, s.value.ok, s.value.failed, s.value.notTaken]).toEqual([4, 3, 1, 1]);
    const bad = s.value.results.find((r) => !r.ok)!;
    expect(bad.input).toBe(path.join(input, 'cut.vmd'));
    for (const [src, out] of [['laugh.vmd', 'laugh.bvh'], ['sub/dance.vmd', 'sub/dance.bvh'], ['stand.vmd', 'stand.bvh']]) {
      const one = cli(['export-bvh', path.join(input, src), '-o', path.join(root, 'one.bvh'), '--overwrite'], root);
      expect(one.code, one.err).toBe(0);
      expect(readFileSync(path.join(root, 'out', out)).equals(readFileSync(path.join(root, 'one.bvh'))), out).toBe(true);
    }
    const rep = s.value.results.find((r) => r.ok && r.input.endsWith('dance.vmd'));
    expect(rep?.ok && rep.value.report).toMatchObject({ edit: 'export-bvh', frames: 2810, joints: 51 }); // 19 body joints, 2 eyes, 30 finger joints
    // Onto a model, from the command line.
    const b = cli(['batch', 'export-bvh', input, '-o', path.join(root, 'out-miku'), '--model', MIKU, '--recursive', '--quiet'], root);
    expect(b.code).toBe(1); // the cut motion
    const one = cli(['export-bvh', path.join(input, 'sub', 'dance.vmd'), '--model', MIKU, '-o', path.join(root, 'dance-miku.bvh')], root);
    expect(one.code, one.err).toBe(0);
    expect(readFileSync(path.join(root, 'out-miku', 'sub', 'dance.bvh')).equals(readFileSync(path.join(root, 'dance-miku.bvh')))).toBe(true);
    expect(readFileSync(path.join(root, 'out-miku', 'sub', 'dance.bvh')).equals(readFileSync(path.join(root, 'out', 'sub', 'dance.bvh')))).toBe(false);
    expect(hashTree(input)).toEqual(before);
  }, 240_000);

  it('export-vrma: every motion → .vrma, each the bytes export-vrma writes, with the expression map; a bad model refuses the job', async () => {
    const root = mk('export-vrma');
    const input = folder(root);
    const before = hashTree(input);
    writeFileSync(path.join(root, 'm.json'), JSON.stringify({ morphs: { aa: '-' } }));
    const b = cli(['batch', 'export-vrma', input, '-o', path.join(root, 'out'), '--model', MIKU, '--map', 'm.json', '--recursive', '--quiet', '--report', 'report.json'], root);
    expect(b.code).toBe(1); // the cut motion
    const sum = JSON.parse(readFileSync(path.join(root, 'report.json'), 'utf8'));
    expect([sum.total, sum.written, sum.failed, sum.notTaken]).toEqual([4, 3, 1, 1]);
    for (const [src, out] of [['laugh.vmd', 'laugh.vrma'], ['sub/dance.vmd', 'sub/dance.vrma']]) {
      const one = cli(['export-vrma', path.join(input, src), '--model', MIKU, '--map', 'm.json', '-o', path.join(root, 'one.vrma'), '--overwrite'], root);
      expect(one.code, one.err).toBe(0);
      expect(readFileSync(path.join(root, 'out', out)).equals(readFileSync(path.join(root, 'one.vrma'))), out).toBe(true);
    }
    const plain = cli(['export-vrma', path.join(input, 'sub', 'dance.vmd'), '--model', MIKU, '-o', path.join(root, 'plain.vrma')], root);
    expect(plain.code, plain.err).toBe(0);
    expect(readFileSync(path.join(root, 'out', 'sub', 'dance.vrma')).equals(readFileSync(path.join(root, 'plain.vrma')))).toBe(false);
    const no = cli(['batch', 'export-vrma', input, '-o', path.join(root, 'out-none'), '--model', path.join(input, 'laugh.vmd')], root);
    expect(no.code).toBe(2);
    expect(hashTree(input)).toEqual(before);
  }, 240_000);
});
