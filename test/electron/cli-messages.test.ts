// What the command line prints: paths as the user gave them, counts as integers, convert's summary
// line; and the message for an output folder that cannot be written (a real read-only folder: as root,
// the CLI is run as another user, since root ignores permission bits).
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../electron/cli/main';
import { runCliCaptured } from '../helpers/cli-in-process';
import { reportLine } from '../../electron/cli/commands/edit';
import { displayPath, formatCount, formatMeasure } from '../../electron/cli/format';
import { buildFixture, type FixtureBone } from '../helpers/vmd-fixtures';
import { CLI, useTempDirs } from './batch-helpers';
import { ballsPmx } from '../helpers/pmx-balls';
import { mikuWithBadBones } from '../helpers/damaged-models';
import { readCorpus } from '../helpers/corpus';

useTempDirs(); // builds the bundles the spawned CLI runs

const dirs: string[] = [];
function mk(tag: string): string {
  const d = mkdtempSync(path.join(os.tmpdir(), `vmd-cliout-${tag}-`));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) {
    spawnSync('chmod', ['-R', 'u+rwx', d]);
    rmSync(d, { recursive: true, force: true });
  }
});

const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);

/** 82 bones at rest the whole time and one that moves: trimming drops exactly the 82 resting tracks. */
function restingBones(): Uint8Array {
  const bones: FixtureBone[] = [];
  for (let i = 0; i < 82; i++) for (const frame of [0, 30]) bones.push({ name: `rest${i}`, frame });
  bones.push({ name: 'mover', frame: 0, pos: [0, 0, 0] }, { name: 'mover', frame: 30, pos: [3, 0, 0] });
  return buildFixture({ bones });
}

describe('paths are printed as given', () => {
  it('an absolute -o stays absolute from a deep working folder (no ../../.. chain); a relative one stays relative', async () => {
    const d = mk('paths');
    const deep = path.join(d, 'a', 'b', 'c', 'd');
    mkdirSync(deep, { recursive: true });
    const input = path.join(d, 'in.vmd');
    writeFileSync(input, restingBones());
    const absOut = path.join(d, 'elsewhere', 'out.vmd');
    mkdirSync(path.dirname(absOut));
    const r = await cli(deep, 'mirror', input, '-o', absOut);
    expect(r.code, r.err).toBe(0);
    expect(r.out.startsWith(`mirror: ${absOut}: kept `)).toBe(true);
    expect(r.out).not.toContain('..');
    const rel = await cli(deep, 'mirror', '../../../../in.vmd', '-o', 'here.vmd');
    expect(rel.out.startsWith('mirror: here.vmd: kept ')).toBe(true);
    const up = await cli(deep, 'convert', input, '-o', '../up.json');
    expect(up.out.startsWith('convert: ../up.json: ')).toBe(true);
  });

  it('inspect names files by the argument they came from: absolute folder → absolute, relative → relative', async () => {
    const d = mk('inspect');
    const deep = path.join(d, 'x', 'y');
    mkdirSync(deep, { recursive: true });
    mkdirSync(path.join(d, 'motions'));
    writeFileSync(path.join(d, 'motions', 'one.vmd'), restingBones());
    const abs = await cli(deep, 'inspect', path.join(d, 'motions'));
    expect(abs.code).toBe(0);
    expect(abs.out.split('\n')[0]).toBe(path.join(d, 'motions', 'one.vmd'));
    const rel = await cli(deep, 'inspect', '../../motions');
    expect(rel.out.split('\n')[0]).toBe('../../motions/one.vmd');
  });

  it('a model that does not read is named as given, and its byte is said once', async () => {
    // Seen on a first run: `inspect trunc.pmx` printed "/abs/path/trunc.pmx: vertices: count … at byte 339,
    // 99661 left (at byte 339)" while a VMD's error named the file as typed.
    const d = mk('model-err');
    writeFileSync(path.join(d, 'text.pmx'), 'hello, not a model\n');
    const whole = ballsPmx([{ centre: [0, 0, 0], radius: 1, diffuse: [1, 1, 1, 1], ambient: [0.5, 0.5, 0.5], flags: 0, toon: null }]);
    writeFileSync(path.join(d, 'cut.pmx'), whole.subarray(0, Math.floor(whole.length / 2)));
    const bad = await cli(d, 'inspect', 'text.pmx');
    expect(bad.code).toBe(1);
    expect(bad.err).toBe('vmd-studio: text.pmx: not a PMX or PMD model: it starts with neither "PMX " nor "Pmd" (at byte 0)\n');
    const cut = await cli(d, 'inspect', 'cut.pmx');
    expect(cut.code).toBe(1);
    expect(cut.err).toMatch(/^vmd-studio: cut\.pmx: /);
    expect(cut.err.split('\n').filter(Boolean)).toHaveLength(1);
    expect(cut.err.match(/at byte/g)).toHaveLength(1);
  });

  it('a model the reader had to repair: inspect lists each repair under "notes", and --json gives them with their codes', async () => {
    const d = mk('model-notes');
    writeFileSync(path.join(d, 'bad-bones.pmd'), mikuWithBadBones());
    const r = await cli(d, 'inspect', 'bad-bones.pmd');
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    const at = lines.indexOf('  notes   2:');
    expect(at, r.out).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 3)).toEqual(['    bone 5 "ﾈｸﾀｲ１" has parent 28672; treated as a root', '    bone 2 "上半身" is in a parent cycle; made a root']);
    const j = await cli(d, 'inspect', '--json', 'bad-bones.pmd');
    expect((JSON.parse(j.out) as { notes: { code: string }[] }).notes.map((n) => n.code)).toEqual(['W_MODEL_BONE_PARENT', 'W_MODEL_BONE_CYCLE']);
    // A sound model has no notes line, and an empty list in JSON.
    writeFileSync(path.join(d, 'miku.pmd'), readCorpus('mmd-viewer-js/model/low_miku/miku.pmd'));
    // (A line of its own: the missing-texture lines name the folder, whose temp name holds "notes".)
    expect((await cli(d, 'inspect', 'miku.pmd')).out).not.toMatch(/^ +notes /m);
    expect(JSON.parse((await cli(d, 'inspect', '--json', 'miku.pmd')).out).notes).toEqual([]);
  });

  it('a batch lists failed files and errors under the folder as given', async () => {
    const d = mk('batchpaths');
    mkdirSync(path.join(d, 'in'));
    writeFileSync(path.join(d, 'in', 'broken.vmd'), 'not a motion');
    writeFileSync(path.join(d, 'in', 'good.vmd'), restingBones());
    const r = await cli(d, 'batch', 'mirror', 'in', '-o', 'out', '--jobs', '1');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^ {4}in\/broken\.vmd: E_VMD/m);
    expect(r.err).toMatch(/^vmd-studio: in\/broken\.vmd/m);
    const a = await cli('/', 'batch', 'mirror', path.join(d, 'in'), '-o', path.join(d, 'out2'), '--jobs', '1');
    expect(a.out).toContain(`    ${path.join(d, 'in', 'broken.vmd')}: E_VMD`);
  });

  it('displayPath: the rule itself', () => {
    expect(displayPath('/data/m/x.vmd', '/data/m', '/home/u/deep/er')).toBe('/data/m/x.vmd');
    expect(displayPath('/home/u/m/x.vmd', '../../m', '/home/u/deep/er')).toBe('../../m/x.vmd');
    expect(displayPath('/home/u/x.vmd', 'x.vmd', '/home/u')).toBe('x.vmd');
  });
});

describe('counts print as integers', () => {
  it('trim: "tracks dropped 82", not "82.0"', async () => {
    const d = mk('counts');
    writeFileSync(path.join(d, 'in.vmd'), restingBones());
    const r = await cli(d, 'trim', 'in.vmd', '-o', 't.vmd', '--from', '0', '--to', '30');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/; tracks dropped 82(,|$)/m);
    expect(r.out).not.toMatch(/\d\.0\b(?!\d)/);
  });

  it('plain speed: keys that landed on taken frames are lost in the line and in --json, never "dropped 0"', async () => {
    const d = mk('speedlost');
    // One bone keyed at frames 0..6; ×3 puts them at round(f / 3) = 0, 0, 1, 1, 1, 2, 2: three frames, four keys lost.
    writeFileSync(path.join(d, 'in.vmd'), buildFixture({ bones: [0, 1, 2, 3, 4, 5, 6].map((frame) => ({ name: 'mover', frame, pos: [frame, 0, 0] })) }));
    const r = await cli(d, 'speed', 'in.vmd', '--factor', '3', '-o', 'fast.vmd');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('speed: fast.vmd: kept 3, added 0, lost 4; 4 keys landed on taken frames and were left out (--refit keeps them)\n');
    // The warning in the summary's words (it said "were dropped", beside the line's "left out").
    expect(r.err).toBe('vmd-studio: warning: in.vmd: 4 bone keys landed on a frame already taken and were left out (the first in the file kept)\n');
    const j = await cli(d, 'speed', 'in.vmd', '--factor', '3', '-o', 'fast2.vmd', '--json');
    expect(j.code, j.err).toBe(0);
    const o = JSON.parse(j.out) as Record<string, unknown>;
    expect([o.kept, o.dropped, o.collisions, o.lost]).toEqual([3, 0, 4, 4]);
  });

  it('reportLine: counts whole, measures with three digits, no exponent for a count', () => {
    const line = reportLine({ kept: 1234, added: 5, dropped: 82, collisions: 0, changed: 7, tracksDropped: 1234, maxPositionError: 0.00104, maxRotationErrorDeg: 0.5 });
    expect(line).toBe('kept 1,234, added 5, dropped 82, collisions 0, changed 7; tracks dropped 1,234, max position error 0.00104, max rotation error 0.500°');
    // Keys left out as collisions are counted as lost, and said why (a plain speed that merged 16 morph keys);
    // with keys dropped on purpose too, lost counts both.
    expect(reportLine({ edit: 'speed', kept: 15423, added: 0, dropped: 0, collisions: 16 })).toBe('kept 15,423, added 0, lost 16; 16 keys landed on taken frames and were left out (--refit keeps them)');
    expect(reportLine({ edit: 'rename', kept: 10, added: 0, dropped: 2, collisions: 1 })).toBe('kept 10, added 0, dropped 2, lost 3; 1 key landed on taken frames and was left out');
    // A fit is worded by what was asked (issue 30): a reduction never says "added".
    const reduced = reportLine({ edit: 'reduce', kept: 600, added: 489, dropped: 1000, collisions: 0, keysBefore: 2089, keysAfter: 1089, maxPositionError: 0.01 });
    expect(reduced).toBe('reduced; keys 2,089 → 1,089, max position error 0.0100');
    expect(reduced).not.toContain('added');
    expect(reportLine({ edit: 'bake', kept: 3, added: 297, dropped: 0, collisions: 0, keysBefore: 3, keysAfter: 300 })).toBe('baked; keys 3 → 300');
    // A bake is exact at every frame: what it measures is between frames, and the line says so (the camera's
    // fov, a whole number in a VMD, is the exception).
    const errs = { maxPositionError: 0.00323, maxRotationErrorDeg: 0.113, measuredHalfFrames: 1 };
    expect(reportLine({ edit: 'bake', keysBefore: 3, keysAfter: 300, ...errs })).toBe('baked; keys 3 → 300, exact at every frame; between frames (at half frames) max position error 0.00323, max rotation error 0.113°');
    expect(reportLine({ edit: 'bake', keysBefore: 70, keysAfter: 2817, cameraKeysBefore: 70, ...errs })).toContain("exact at every frame (the camera's fov to a whole degree); between frames");
    expect(reportLine({ edit: 'reduce', keysBefore: 3, keysAfter: 2, ...errs })).toBe('reduced; keys 3 → 2, max position error 0.00323, max rotation error 0.113°');
    expect(formatCount(82)).toBe('82');
    expect(formatCount(81.9999999)).toBe('82');
    expect(formatMeasure(12345)).toBe('12345');
    expect(formatMeasure(0.00000192)).toBe('1.92e-6');
  });
});

describe('convert prints the one-line summary the other commands print', () => {
  it('VMD → JSON and back: "convert: OUT: FROM → TO; keys …; N bytes"; --quiet prints nothing; --json the same facts', async () => {
    const d = mk('convert');
    writeFileSync(path.join(d, 'in.vmd'), buildFixture({
      bones: [{ name: 'a', frame: 0 }, { name: 'a', frame: 10 }, { name: 'b', frame: 5 }],
      morphs: [{ name: 'm', frame: 0, weight: 1 }],
      cameras: [{ frame: 0, distance: -40, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }],
    }));
    const j = await cli(d, 'convert', 'in.vmd', '-o', 'out.json');
    expect(j.code, j.err).toBe(0);
    const size = statSync(path.join(d, 'out.json')).size;
    expect(j.out).toBe(`convert: out.json: VMD → JSON; keys bone 3, morph 1, camera 1, light 0, shadow 0, ik 0; ${size.toLocaleString('en-US')} bytes\n`);
    const v = await cli(d, 'convert', 'out.json', '-o', 'back.vmd');
    expect(v.out).toBe(`convert: back.vmd: JSON → VMD; keys bone 3, morph 1, camera 1, light 0, shadow 0, ik 0; ${statSync(path.join(d, 'back.vmd')).size.toLocaleString('en-US')} bytes\n`);
    const p = await cli(d, 'convert', 'back.vmd', '-o', 'pose.vpd', '--frame', '5');
    expect(p.out).toMatch(/^convert: pose\.vpd: VMD → VPD at frame 5; bones 2, morphs 1; \d+ bytes\n$/);
    expect((await cli(d, 'convert', 'in.vmd', '-o', 'q.json', '--quiet')).out).toBe('');
    const js = JSON.parse((await cli(d, 'convert', 'in.vmd', '-o', 'q2.json', '--json')).out);
    expect(js).toMatchObject({ from: 'vmd', to: 'json', bone: 3, morph: 1, camera: 1, bytesOut: statSync(path.join(d, 'q2.json')).size });
  });
});

describe('an output folder that cannot be written says so', () => {
  const isRoot = process.getuid?.() === 0;
  /** Runs the real CLI; as root, as user nobody (65534), so that a 0555 folder is really read-only. */
  function runAsUser(args: string[], cwd: string) {
    return spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', ...(isRoot ? { uid: 65534, gid: 65534 } : {}) });
  }
  const canDrop = process.platform !== 'win32' && (!isRoot || spawnSync(process.execPath, ['-e', '0'], { uid: 65534, gid: 65534 }).status === 0);

  it.skipIf(!canDrop)('batch into a read-only subfolder: "the folder … cannot be written", not "ENOENT … mkdir"', () => {
    const d = mk('readonly');
    chmodSync(d, 0o755);
    for (const sub of ['in/ro', 'in/ro/deeper', 'in/ok']) mkdirSync(path.join(d, sub), { recursive: true });
    writeFileSync(path.join(d, 'in', 'ro', 'a.vmd'), restingBones());
    writeFileSync(path.join(d, 'in', 'ro', 'deeper', 'b.vmd'), restingBones());
    copyFileSync(path.join(d, 'in', 'ro', 'a.vmd'), path.join(d, 'in', 'ok', 'c.vmd'));
    mkdirSync(path.join(d, 'out', 'ro'), { recursive: true });
    chmodSync(path.join(d, 'out'), isRoot ? 0o777 : 0o755); // as root the run is nobody's: out/ must be writable to it
    chmodSync(path.join(d, 'out', 'ro'), 0o555);
    const r = runAsUser(['batch', 'mirror', 'in', '-o', 'out', '--recursive', '--jobs', '1', '--quiet'], d);
    expect(r.status, r.stderr).toBe(1);
    const ro = path.join(d, 'out', 'ro');
    expect(r.stderr).toContain(`the folder ${ro} cannot be written (read-only or permission denied)`);
    expect(r.stderr).toContain(`cannot create the folder ${path.join(ro, 'deeper')}: ${ro} cannot be written (read-only or permission denied)`);
    expect(r.stderr).not.toMatch(/ENOENT|EACCES|mkdir/);
    expect(readdirSync(path.join(d, 'out', 'ok'))).toEqual(['c.vmd']); // one bad folder never stops the rest
  });
});

describe('batch --help', () => {
  it('lists every operation in one column: names padded to the longest, each continuation line under the text', async () => {
    let out = '';
    const code = await runCli(['batch', '--help'], { stdout: (s) => (out += s), stderr: () => {}, cwd: os.tmpdir(), isTTY: false });
    expect(code).toBe(0);
    // (up to the common options' lines that every --help ends with)
    const block = out.slice(out.indexOf('Operations:\n') + 'Operations:\n'.length, out.indexOf('\nCommon options:')).trimEnd().split('\n');
    const names = block.filter((l) => /^ {2}\S/.test(l)).map((l) => l.trim().split(/\s+/)[0]);
    expect(names).toContain('export-vrma');
    const at = 2 + Math.max(...names.map((n) => n.length)) + 1;
    for (const l of block) {
      if (/^ {2}\S/.test(l)) expect(l.slice(at - 1, at + 1), l).toMatch(/^ \S/);
      else expect(l.slice(0, at), l).toBe(' '.repeat(at));
      if (!/^ {2}\S/.test(l)) expect(l[at], l).not.toBe(' ');
    }
  });
});
