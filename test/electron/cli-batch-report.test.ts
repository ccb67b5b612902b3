// What a batch run tells its user (a new user's pass over Batch, 2026-12): each file's warnings on standard
// error with a count in the summary (trim past the end wrote one-pose motions with a clean "written 2"); a dry
// run says so even when nothing would be written; the poses it does not take are named, not only counted; a
// folder with nothing to take says so (bake: mirror takes poses as well); an earlier run's output folder inside the input folder is not read
// again (反転済み2/反転済み/x.vmd mirrored twice); a camera motion goes through retarget as it is, said; merge says when a camera
// motion's keys went into a model motion; a single-file output into a missing folder says how to fix it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { buildFixture } from '../helpers/vmd-fixtures';
import { buildVmd, writeVmd } from '../../shared/vmd';
import { corpusPath } from '../helpers/corpus';
import { runBatch } from '../../electron/batch/engine';

let tmp: string;
const cli = (...argv: string[]) => runCliCaptured(argv, tmp);
// Bone keys at 0 and 30 (last key 30), on the standard skeleton's センター.
const motion = buildFixture({ bones: [{ name: 'センター', frame: 0 }, { name: 'センター', frame: 30, pos: [1, 0, 0] }] });
const camera = buildFixture({ cameras: [{ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }, { frame: 10, distance: -40, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }] });
const pose = 'Vocaloid Pose Data file\r\n\r\nm.osm;\r\n0;\r\n';

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'vmd-cli-batch-report-'));
  mkdirSync(path.join(tmp, 'in', 'sub'), { recursive: true });
  writeFileSync(path.join(tmp, 'in', 'a.vmd'), motion);
  writeFileSync(path.join(tmp, 'in', 'sub', 'b.vmd'), motion);
  for (const n of ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']) writeFileSync(path.join(tmp, 'in', `${n}.vpd`), pose);
  mkdirSync(path.join(tmp, 'poses'));
  writeFileSync(path.join(tmp, 'poses', 'only.vpd'), pose);
  mkdirSync(path.join(tmp, 'cam'));
  writeFileSync(path.join(tmp, 'cam', 'c.vmd'), camera);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('batch: warnings, dry run, poses named', () => {
  it("prints each file's warnings on standard error and counts them in the summary (trim from past the end)", async () => {
    const r = await cli('batch', 'trim', 'in', '-o', 'trimmed', '--from', '5000', '--recursive');
    expect(r.code).toBe(0);
    expect(r.err).toContain(`vmd-studio: warning: ${path.join('in', 'a.vmd')}: --from 5000 is after the motion's last key (frame 30)`);
    expect(r.err).toContain(`vmd-studio: warning: ${path.join('in', 'sub', 'b.vmd')}: --from 5000`);
    expect(r.out).toContain('  2 files written with warnings (above, on standard error)\n');
  });

  it('a run with no warning says nothing of them', async () => {
    const r = await cli('batch', 'mirror', 'in', '-o', 'mirrored');
    expect(r.err).not.toContain('warning');
    expect(r.out).not.toContain('with warnings');
  });

  it('a dry run says it is one even when every output exists (all "would skip")', async () => {
    expect((await cli('batch', 'bake', 'in', '-o', 'dry-out', '--quiet')).code).toBe(0);
    const r = await cli('batch', 'bake', 'in', '-o', 'dry-out', '--dry-run');
    expect(r.out).toContain('batch bake (dry run: nothing written)');
    expect(r.out).toMatch(/^ {2}would write +0$/m);
    expect(r.out).toMatch(/^ {2}would skip +1$/m);
  });

  it('names the poses it does not take: the first five and how many more, and all of them in --json', async () => {
    const r = await cli('batch', 'bake', 'in', '-o', 'named');
    const p = (n: string) => path.join('in', `${n}.vpd`);
    expect(r.out).toContain(`7 .vpd pose files not processed: bake works on VMD motions (convert them first: vmd-studio batch convert)\n    ${['p1', 'p2', 'p3', 'p4', 'p5'].map(p).join(', ')} and 2 more\n`);
    const j = await cli('batch', 'bake', 'in', '-o', 'named-json', '--json');
    const body = JSON.parse(j.out);
    expect(body.notTaken).toBe(7);
    expect(body.notTakenFiles).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'].map((n) => path.join(tmp, 'in', `${n}.vpd`)));
  });

  it('a folder with nothing the operation takes says nothing was processed, and why', async () => {
    const r = await cli('batch', 'bake', 'poses', '-o', 'nothing');
    expect(r.out).toContain('  nothing processed: no file in the folder that bake takes (.vmd motions)\n');
    expect(r.out).toContain(`1 .vpd pose file not processed: bake works on VMD motions (convert them first: vmd-studio batch convert)\n    ${path.join('poses', 'only.vpd')}\n`);
  });
});

describe('batch: an output folder inside the input folder', () => {
  it("a second run into a sibling folder leaves the first run's outputs out, and says so", async () => {
    const root = path.join(tmp, 'set');
    mkdirSync(path.join(root, 'dances'), { recursive: true });
    for (const n of ['x.vmd', 'y.vmd']) writeFileSync(path.join(root, n), motion);
    writeFileSync(path.join(root, 'dances', 'z.vmd'), motion);
    const first = await runBatch({ op: 'mirror', inputDir: root, outputDir: path.join(root, '反転済み'), options: {}, recursive: true }, { workerPath: null });
    expect(first.ok && first.value.ok).toBe(3);
    const second = await cli('batch', 'mirror', 'set', '-o', path.join('set', '反転済み2'), '--recursive');
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/^ {2}written +3$/m);
    expect(second.out).toContain(`1 folder left out as an earlier run's outputs (inside the input folder, each file a same-named copy of an input): ${path.join('set', '反転済み')}\n`);
    expect(existsSync(path.join(root, '反転済み2', '反転済み'))).toBe(false);
    expect(readdirSync(path.join(root, '反転済み2')).sort()).toEqual(['dances', 'x.vmd', 'y.vmd']);
    // A third run: both earlier output folders are left out (反転済み2's files are copies of inputs too).
    const third = await runBatch({ op: 'mirror', inputDir: root, outputDir: path.join(root, '反転済み3'), options: {}, recursive: true }, { workerPath: null });
    expect(third.ok && [third.value.total, third.value.earlierOutputs]).toEqual([3, [path.join(root, '反転済み'), path.join(root, '反転済み2')]]);
    // A folder beside the output with a file of its own is not an earlier output: its files are processed.
    writeFileSync(path.join(root, 'dances', 'new.vmd'), motion);
    const fourth = await runBatch({ op: 'mirror', inputDir: root, outputDir: path.join(root, '反転済み4'), options: {}, recursive: true }, { workerPath: null });
    expect(fourth.ok && fourth.value.total).toBe(4);
  });
});

describe('single-file commands and bone operations', () => {
  it('batch retarget copies a camera motion as it is and says so (it does not read as fitted)', async () => {
    const r = await cli('batch', 'retarget', 'cam', '-o', 'rt', '--to', corpusPath('gene/Gene_light.pmx'), '--quiet');
    expect(r.code).toBe(0);
    expect(r.err).toContain('a camera motion (2 camera keys, no bone keys): copied unchanged (retarget fits a model\'s motion; a camera motion is not fitted to the target model\'s size)');
    // Byte for byte, its header too (MMD knows a camera motion by its name).
    expect(readFileSync(path.join(tmp, 'rt', 'c.vmd')).equals(readFileSync(path.join(tmp, 'cam', 'c.vmd')))).toBe(true);
  });

  it("batch retarget's left-out bones come through as warnings on standard error", async () => {
    mkdirSync(path.join(tmp, 'odd'));
    writeFileSync(path.join(tmp, 'odd', 'o.vmd'), writeVmd(buildVmd({ bones: [{ name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }, { name: '謎の骨', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }, { name: '謎の骨', frame: 10, position: [0, 0, 0], rotation: [0, 0.1, 0, 0.995] }] })));
    const r = await cli('batch', 'retarget', 'odd', '-o', 'odd-rt', '--to', corpusPath('gene/Gene_light.pmx'));
    expect(r.code).toBe(0);
    expect(r.err).toContain(`vmd-studio: warning: ${path.join('odd', 'o.vmd')}: 1 bone track the target model lacks was left out: 謎の骨 (2)`);
    expect(r.out).toContain('  1 file written with warnings');
  });

  it('merge warns when a camera motion went into a model motion', async () => {
    const r = await cli('merge', path.join('in', 'a.vmd'), path.join('cam', 'c.vmd'), '-o', 'merged.vmd');
    expect(r.code).toBe(0);
    // merge's warnings name its output (its inputs are several).
    expect(r.err).toContain(`vmd-studio: warning: merged.vmd: ${path.join('cam', 'c.vmd')} is a camera motion: its 2 camera keys were added to a model motion`);
    const plain = await cli('merge', path.join('in', 'a.vmd'), path.join('in', 'sub', 'b.vmd'), '-o', 'merged2.vmd');
    expect(plain.err).not.toContain('camera motion');
  });

  it('merge, mirror and convert into a missing folder say how to fix it, in the same words', async () => {
    for (const argv of [['merge', path.join('in', 'a.vmd'), path.join('in', 'sub', 'b.vmd')], ['mirror', path.join('in', 'a.vmd')], ['convert', path.join('in', 'a.vmd')]]) {
      const r = await cli(...argv, '-o', path.join('結合', `x.${argv[0] === 'convert' ? 'json' : 'vmd'}`));
      expect(r.code, argv[0]).toBe(1);
      expect(r.err, argv[0]).toContain(`no such folder: ${path.join(tmp, '結合')} (create it first, or write into a folder that exists)`);
    }
  });
});
