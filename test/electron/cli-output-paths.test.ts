// Where the CLI's outputs go, on real temp folders: inputs are never replaced through a link (the one-file
// commands, merge, convert and batch, where -o is a symbolic link to the input, a path through a folder
// link that reaches it, or an output folder that is or holds a link to the input folder: each refused or
// reported, the inputs' sha256 unchanged, a different output still written); batch --report to a folder
// that is not there (made), or that cannot be made or written, or to a link; inspect --json --model's second line.
import { describe, expect, it } from 'vitest';
import { copyFileSync, lstatSync, mkdirSync, readFileSync, symlinkSync, existsSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { runBatch } from '../../electron/batch/engine';
import { failedFiles } from '../../shared/batch/types';
import { sameFile } from '../../electron/fs/files';
import { parseDecimal } from '../../shared/batch/options';
import { corpusPath } from '../helpers/corpus';
import { useTempDirs } from './batch-helpers';

const mk = useTempDirs();
const DANCE = corpusPath('gene/motion/02_laugh.vmd');
const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');

const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);

describe('outputs that reach an input through a link', () => {
  it('sameFile: a file link, a folder link on the way, a link to a file not made yet, and two different files', async () => {
    const d = mk('same');
    const f = path.join(d, 'dance.vmd');
    copyFileSync(DANCE, f);
    symlinkSync('dance.vmd', path.join(d, 'link.vmd'));
    symlinkSync('.', path.join(d, 'here'));
    symlinkSync('later.vmd', path.join(d, 'dangling.vmd'));
    expect(await sameFile(f, path.join(d, 'link.vmd'))).toBe(true);
    expect(await sameFile(f, path.join(d, 'here', 'dance.vmd'))).toBe(true);
    expect(await sameFile(path.join(d, 'later.vmd'), path.join(d, 'dangling.vmd'))).toBe(true);
    expect(await sameFile(f, path.join(d, 'other.vmd'))).toBe(false);
  });

  it('one-file commands, merge and convert refuse; the input is unchanged', async () => {
    const d = mk('cli');
    copyFileSync(DANCE, path.join(d, 'dance.vmd'));
    symlinkSync('dance.vmd', path.join(d, 'out.vmd'));
    symlinkSync('.', path.join(d, 'here'));
    const before = sha(path.join(d, 'dance.vmd'));
    for (const argv of [
      ['mirror', 'dance.vmd', '-o', 'out.vmd', '--overwrite'],
      ['speed', 'dance.vmd', '--factor', '2', '-o', 'here/dance.vmd', '--overwrite'],
      ['reduce', 'dance.vmd', '-o', 'here/out.vmd', '--overwrite'],
      ['merge', 'dance.vmd', 'dance.vmd', '-o', 'out.vmd', '--overwrite'],
      // convert as the others (its --overwrite used to let OUT be the input).
      ['convert', 'dance.vmd', '-o', 'out.vmd'],
      ['convert', 'dance.vmd', '-o', 'out.vmd', '--overwrite'],
    ]) {
      const r = await cli(d, ...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(/must (be a different file|not be one of the inputs)/);
    }
    expect(sha(path.join(d, 'dance.vmd'))).toBe(before);
    // A different file is written as before.
    expect((await cli(d, 'mirror', 'dance.vmd', '-o', 'mirrored.vmd')).code).toBe(0);
    expect(existsSync(path.join(d, 'mirrored.vmd'))).toBe(true);
  });

  it('-o naming a folder says so at once, with or without --overwrite (it said "output exists", then with --overwrite "is a folder")', async () => {
    const d = mk('folder-out');
    copyFileSync(DANCE, path.join(d, 'dance.vmd'));
    mkdirSync(path.join(d, 'out'));
    mkdirSync(path.join(d, 'out.bvh'));
    const model = corpusPath('gene/Gene_light.pmx');
    for (const [argv, name] of [
      [['mirror', 'dance.vmd', '-o', 'out'], 'out'],
      [['mirror', 'dance.vmd', '-o', 'out', '--overwrite'], 'out'],
      [['retarget', 'dance.vmd', '--from', model, '--to', model, '-o', 'out'], 'out'],
      [['export-bvh', 'dance.vmd', '--model', model, '-o', 'out.bvh'], 'out.bvh'],
    ] as const) {
      const r = await cli(d, ...argv);
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.err, argv.join(' ')).toBe(`vmd-studio: ${name}: is a folder, not a file\n`);
    }
    // A file there is still "exists" without --overwrite.
    writeFileSync(path.join(d, 'taken.vmd'), 'x');
    expect((await cli(d, 'mirror', 'dance.vmd', '-o', 'taken.vmd')).err).toContain('output exists');
  });

  it('batch: an output folder linking to the input folder is refused; a link inside the output tree never reaches an input', async () => {
    const d = mk('batch');
    const input = path.join(d, 'motions');
    mkdirSync(input);
    copyFileSync(DANCE, path.join(input, 'a.vmd'));
    const before = sha(path.join(input, 'a.vmd'));
    symlinkSync('motions', path.join(d, 'same'));
    const r = await runBatch({ op: 'mirror', inputDir: input, outputDir: path.join(d, 'same'), options: {}, overwrite: true });
    expect(r).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT', message: 'the output folder must differ from the input folder (inputs are never modified)' } });
    // The output tree holds a link back into the input (sub → ../motions): with the input inside the
    // output tree the job runs, and the file whose output path reaches its input is a failed result.
    const out = path.join(d, 'out');
    mkdirSync(out);
    mkdirSync(path.join(input, 'sub'));
    copyFileSync(DANCE, path.join(input, 'sub', 'b.vmd'));
    symlinkSync(path.join(input, 'sub'), path.join(out, 'sub'));
    const beforeB = sha(path.join(input, 'sub', 'b.vmd'));
    const s = await runBatch({ op: 'mirror', inputDir: input, outputDir: out, options: {}, recursive: true, overwrite: true });
    if (!s.ok) throw new Error(s.error.message);
    const failed = failedFiles(s.value.results);
    expect(failed.map((x) => path.basename(x.input))).toEqual(['b.vmd']);
    expect(failed[0].error?.message).toContain('the output is the input file itself');
    expect(sha(path.join(input, 'sub', 'b.vmd'))).toBe(beforeB);
    expect(sha(path.join(input, 'a.vmd'))).toBe(before);
    expect(existsSync(path.join(out, 'a.vmd'))).toBe(true);
  });
});

describe('batch --report', () => {
  it('a report folder that does not exist is made, as the output folder is (a first run said "--report: no such folder" for -o batchout --report batchout/report.json)', async () => {
    const d = mk('report-new');
    mkdirSync(path.join(d, 'in'));
    copyFileSync(DANCE, path.join(d, 'in', 'a.vmd'));
    const r = await cli(d, 'batch', 'mirror', 'in', '-o', 'batchout', '--quiet', '--report', 'batchout/deeper/report.json');
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(readFileSync(path.join(d, 'batchout', 'deeper', 'report.json'), 'utf8')) as { written: number };
    expect(report.written).toBe(1);
    expect(existsSync(path.join(d, 'batchout', 'a.vmd'))).toBe(true);
  });

  it('a report folder that cannot be made is refused before the run (exit 2, nothing written); a report at a folder name is refused so too', async () => {
    const d = mk('report');
    const input = path.join(d, 'in');
    mkdirSync(input);
    copyFileSync(DANCE, path.join(input, 'a.vmd'));
    writeFileSync(path.join(d, 'afile'), 'x');
    const r = await cli(d, 'batch', 'mirror', 'in', '-o', 'out', '--quiet', '--report', 'afile/r.json');
    expect(r.code).toBe(2);
    expect(r.err.split('\n')[0]).toBe(`vmd-studio batch: --report: cannot write in the folder ${path.join(d, 'afile')}: ${path.join(d, 'afile')} is a file, not a folder`);
    expect(existsSync(path.join(d, 'out'))).toBe(false);
    // The report path is a folder: refused before the run too (it ran every file, then failed with "failed 0").
    mkdirSync(path.join(d, 'taken'));
    const r2 = await cli(d, 'batch', 'mirror', 'in', '-o', 'out', '--quiet', '--report', 'taken');
    expect(r2.err.split('\n')[0]).toBe('vmd-studio batch: --report taken is a folder: give a file name');
    expect(r2.code).toBe(2);
    expect(existsSync(path.join(d, 'out'))).toBe(false);
  });

  it.skipIf(process.platform === 'win32')('a link at the report\'s name is replaced, never written through (as batch outputs)', async () => {
    const d = mk('report-link');
    mkdirSync(path.join(d, 'in'));
    copyFileSync(DANCE, path.join(d, 'in', 'a.vmd'));
    writeFileSync(path.join(d, 'precious.txt'), 'keep me');
    symlinkSync(path.join(d, 'precious.txt'), path.join(d, 'report.json'));
    const r = await cli(d, 'batch', 'mirror', 'in', '-o', 'out', '--quiet', '--report', 'report.json');
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(path.join(d, 'precious.txt'), 'utf8')).toBe('keep me');
    expect(lstatSync(path.join(d, 'report.json')).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(path.join(d, 'report.json'), 'utf8')).written).toBe(1);
  });
});

describe('batch summary', () => {
  it('a dry run counts what it would write (not as skipped); .vpd poses an edit does not take are counted and named', async () => {
    const d = mk('dry');
    const input = path.join(d, 'in');
    mkdirSync(input);
    copyFileSync(DANCE, path.join(input, 'a.vmd'));
    copyFileSync(DANCE, path.join(input, 'b.vmd'));
    copyFileSync(corpusPath('threejs/vpds/05.vpd'), path.join(input, 'pose.vpd'));
    const r = await cli(d, 'batch', 'trim', 'in', '-o', 'out', '--from', '0', '--to', '30', '--quiet', '--dry-run');
    expect(r.code).toBe(0);
    expect(existsSync(path.join(d, 'out', 'a.vmd'))).toBe(false);
    const r2 = await cli(d, 'batch', 'trim', 'in', '-o', 'out', '--from', '0', '--to', '30', '--dry-run');
    expect(r2.out).toContain('batch trim (dry run: nothing written)');
    expect(r2.out).toMatch(/would write\s+2\n/);
    expect(r2.out).toMatch(/would skip\s+0\n/);
    expect(r2.out).toContain('1 .vpd pose file not processed: trim works on VMD motions');
    // Written for real: "written", and the pose still counted; convert takes it (nothing left over).
    const r3 = await cli(d, 'batch', 'trim', 'in', '-o', 'out', '--from', '0', '--to', '30');
    expect(r3.out).toMatch(/written\s+2\n/);
    expect(r3.out).not.toContain('dry run');
    expect(existsSync(path.join(d, 'out', 'a.vmd'))).toBe(true);
    expect((await runBatch({ op: 'trim', inputDir: input, outputDir: path.join(d, 'o2'), options: { from: '0', to: '30' }, dryRun: true })).ok).toBe(true);
    const conv = await runBatch({ op: 'convert', inputDir: input, outputDir: path.join(d, 'o3'), options: {} });
    if (!conv.ok) throw new Error(conv.error.message);
    expect(conv.value.notTaken).toBeUndefined();
    expect(conv.value.total).toBe(3);
    const mir = await runBatch({ op: 'trim', inputDir: input, outputDir: path.join(d, 'o4'), options: { from: '0', to: '30' } });
    if (!mir.ok) throw new Error(mir.error.message);
    expect([mir.value.total, mir.value.notTaken]).toEqual([2, 1]);
  });
});

describe('inspect --json --model', () => {
  it('the model check is its own line, naming the model as modelCheck (the motion line keeps model: the header name)', async () => {
    const d = mk('inspect');
    const r = await cli(d, 'inspect', '--json', corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), '--model', corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'));
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0].model).toBe('初音ミク');
    expect(lines[1].modelCheck).toBe(corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'));
    expect(lines[1].model).toBeUndefined();
    expect(lines[1].missingBones.length).toBeGreaterThan(0);
  });
});

describe('edit commands and file types', () => {
  it('a .vpd or .json input (exit 1: an input of the wrong kind), or a .json or .vpd output (exit 2), is refused with the convert step to use, nothing written', async () => {
    const d = mk('types');
    copyFileSync(DANCE, path.join(d, 'dance.vmd'));
    copyFileSync(corpusPath('threejs/vpds/05.vpd'), path.join(d, 'pose.vpd'));
    const a = await cli(d, 'trim', 'pose.vpd', '--from', '0', '--to', '30', '-o', 'x.vmd');
    expect(a.code).toBe(1);
    expect(a.err).toContain('trim works on VMD motions; convert the pose first: vmd-studio convert pose.vpd -o pose.vmd');
    const b = await cli(d, 'trim', 'dance.vmd', '--from', '0', '--to', '30', '-o', 'part.json');
    expect(b.code).toBe(2);
    expect(b.err).toContain('trim writes a VMD motion: give -o a .vmd name');
    expect(existsSync(path.join(d, 'part.json'))).toBe(false);
    expect(existsSync(path.join(d, 'x.vmd'))).toBe(false);
  });
});

describe('numbers and operation names as typed', () => {
  it('a number is decimal: hex, Infinity and blanks are refused (exit 2); an unknown batch operation is named', async () => {
    const d = mk('numbers');
    copyFileSync(DANCE, path.join(d, 'dance.vmd'));
    for (const bad of ['0x10', 'Infinity', ' ', '1_000']) {
      const r = await cli(d, 'sample', 'dance.vmd', '--frame', bad);
      expect(r.code, bad).toBe(2);
      expect(r.err, bad).toContain(`--frame must be a number, got "${bad}"`);
    }
    const ok = await cli(d, 'sample', 'dance.vmd', '--frame', '1e1', '--json');
    expect(ok.code, ok.err).toBe(0);
    expect(JSON.parse(ok.out).frame).toBe(10);
    const b = await cli(d, 'batch', 'frobnicate', '.', '-o', 'out');
    expect(b.code).toBe(2);
    expect(b.err).toContain('unknown operation "frobnicate": give one of mirror');
    expect([parseDecimal('-0.5'), parseDecimal('.25'), parseDecimal('12.'), parseDecimal('3e-2')]).toEqual([-0.5, 0.25, 12, 0.03]);
    expect([parseDecimal('0x10'), parseDecimal(''), parseDecimal('1,5'), parseDecimal('NaN')].every(Number.isNaN)).toBe(true);
  });
});
