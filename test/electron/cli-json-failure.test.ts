// --json on a command that fails: the failure object inspect --json gives ({ file, ok: false, error }) on
// stdout, and the one-line message on stderr, for every command that takes --json (a first run: `mirror
// bad.vmd -o out.vmd --json` exited 1 with nothing on stdout).
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { commands } from '../../electron/cli/main';
import { runCliCaptured } from '../helpers/cli-in-process';
import { ballsPmx } from '../helpers/pmx-balls';
import { useTempDirs } from './batch-helpers';
import { corpusPath, corpusPresent } from '../helpers/corpus';

const mk = useTempDirs();

/** Each command that takes --json, with a command line whose input fails to read (bad.* is garbage). */
const FAILING: Record<string, string[]> = {
  inspect: ['inspect', 'bad.vmd'],
  sample: ['sample', 'bad.vmd', '--frame', '0'],
  convert: ['convert', 'bad.vmd', '-o', 'out.json'],
  mirror: ['mirror', 'bad.vmd', '-o', 'out.vmd'],
  trim: ['trim', 'bad.vmd', '-o', 'out.vmd', '--from', '0'],
  merge: ['merge', 'bad.vmd', 'bad.vmd', '-o', 'out.vmd'],
  speed: ['speed', 'bad.vmd', '-o', 'out.vmd', '--factor', '2'],
  shift: ['shift', 'bad.vmd', '-o', 'out.vmd', '--by', '1'],
  preset: ['preset', 'bad.vmd', '-o', 'out.vmd', '--curve', 'linear'],
  rename: ['rename', 'bad.vmd', '-o', 'out.vmd', '--map', 'map.json'],
  reduce: ['reduce', 'bad.vmd', '-o', 'out.vmd'],
  bake: ['bake', 'bad.vmd', '-o', 'out.vmd'],
  retarget: ['retarget', 'bad.vmd', '--to', 'model.pmx', '-o', 'out.vmd'],
  build: ['build', 'bad.vpd@0', '-o', 'out.vmd'],
  batch: ['batch', 'mirror', 'no-such-folder', '-o', 'out'],
  'physics-bake': ['physics-bake', 'model.pmx', 'bad.vmd', '-o', 'out.vmd'],
  'ik-bake': ['ik-bake', 'model.pmx', 'bad.vmd', '-o', 'out.vmd'],
  'import-bvh': ['import-bvh', 'bad.bvh', '-o', 'out.vmd'],
  'export-bvh': ['export-bvh', 'bad.vmd', '-o', 'out.bvh'],
  'import-vrma': ['import-vrma', 'bad.vrma', '-o', 'out.vmd'],
  'export-vrma': ['export-vrma', 'bad.vmd', '-o', 'out.vrma'],
  salvage: ['salvage', 'bad.vmd', '-o', 'out.vmd'],
  // "garbage" is no timing line (E_TIMINGS, line 1).
  lipsync: ['lipsync', 'bad.vmd', '-o', 'out.vmd'],
};

function folder(): string {
  const d = mk('jsonfail');
  mkdirSync(d, { recursive: true });
  for (const f of ['bad.vmd', 'bad.vpd', 'bad.bvh', 'bad.vrma']) writeFileSync(path.join(d, f), 'garbage\n');
  writeFileSync(path.join(d, 'map.json'), '{"a": "b"}');
  writeFileSync(path.join(d, 'model.pmx'), ballsPmx([{ centre: [0, 0, 0], radius: 1, diffuse: [1, 1, 1, 1], ambient: [0, 0, 0], flags: 0, toon: null }]));
  return d;
}

describe('--json on a failure', () => {
  it('the table covers every command that takes --json', () => {
    const taking = Object.keys(commands).filter((k) => commands[k].usage.includes('--json'));
    expect(Object.keys(FAILING).sort()).toEqual(taking.sort());
  });

  it.each(Object.entries(FAILING))('%s prints { file, ok: false, error } on stdout and the message on stderr', async (_name, argv) => {
    const d = folder();
    const r = await runCliCaptured([...argv, '--json'], d);
    expect(r.code, r.err).toBeGreaterThan(0);
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(1);
    const o = JSON.parse(lines[0]) as { file?: string; ok: boolean; error: { code: string; message: string } };
    expect(o.ok).toBe(false);
    // offset always there: a number, or null where the error has none.
    expect(o.error).toHaveProperty('offset');
    expect(o.error.code).toMatch(/^E_/);
    expect(o.error.message.length).toBeGreaterThan(0);
    expect(o.file === undefined || path.isAbsolute(o.file)).toBe(true);
    // The human line is still there, with the same message.
    expect(r.err).toContain(o.error.message);
    // Without --json, no JSON on stdout (inspect prints its table there).
    const plain = await runCliCaptured(argv, d);
    expect(plain.out).not.toContain('"ok"');
  });

  it('a bad argument under --json is an E_ARGUMENT object (exit status 2)', async () => {
    const d = folder();
    const r = await runCliCaptured(['mirror', 'bad.vmd', '--json'], d);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toEqual({ ok: false, error: { code: 'E_ARGUMENT', message: '-o OUT is required', offset: null } });
  });
});

// The success side of the same envelope (a scripting pass: edit, convert and import successes had no `ok`, were
// pretty-printed over many lines while failures were one line, and batch's top-level `ok` was a count): every
// command's --json success is one line with "ok": true, so runs appended to a log make a JSON Lines file.
describe.skipIf(!corpusPresent)('--json on a success', () => {
  const LAUGH = corpusPath('gene/motion/02_laugh.vmd'), GENE = corpusPath('gene/Gene_light.pmx'), WALK = corpusPath('bvh11/resources/131_01.bvh');
  const POSE = corpusPath('threejs/vpds/05.vpd');
  const SUCCEEDING: Record<string, string[]> = {
    sample: ['sample', LAUGH, '--frame', '10'],
    convert: ['convert', LAUGH, '-o', 'out.json'],
    mirror: ['mirror', LAUGH, '-o', 'mirror.vmd'],
    trim: ['trim', LAUGH, '-o', 'trim.vmd', '--from', '0', '--to', '20'],
    merge: ['merge', LAUGH, LAUGH, '-o', 'merge.vmd'],
    speed: ['speed', LAUGH, '-o', 'speed.vmd', '--factor', '2'],
    shift: ['shift', LAUGH, '-o', 'shift.vmd', '--by', '1'],
    preset: ['preset', LAUGH, '-o', 'preset.vmd', '--curve', 'linear'],
    rename: ['rename', LAUGH, '-o', 'rename.vmd', '--map', 'map.json'],
    reduce: ['reduce', LAUGH, '-o', 'reduce.vmd', '--to', '20'],
    bake: ['bake', LAUGH, '-o', 'bake.vmd', '--from', '0', '--to', '5'],
    retarget: ['retarget', LAUGH, '--to', GENE, '-o', 'retarget.vmd'],
    build: ['build', `${POSE}@0`, '-o', 'build.vmd'],
    'physics-bake': ['physics-bake', GENE, LAUGH, '-o', 'pb.vmd', '--to', '3'],
    'ik-bake': ['ik-bake', GENE, LAUGH, '-o', 'ikb.vmd', '--to', '3'],
    'import-bvh': ['import-bvh', WALK, '-o', 'walk.vmd'],
    'export-bvh': ['export-bvh', LAUGH, '-o', 'laugh.bvh'],
    'export-vrma': ['export-vrma', LAUGH, '-o', 'laugh.vrma'],
    'import-vrma': ['import-vrma', 'laugh.vrma', '-o', 'back.vmd'],
    salvage: ['salvage', 'cut.vmd', '-o', 'salvaged.vmd'],
    lipsync: ['lipsync', 'lips.txt', '-o', 'lips.vmd', '--model', GENE],
  };
  const d = mk('jsonok');
  mkdirSync(d, { recursive: true });
  writeFileSync(path.join(d, 'map.json'), '{"a": "b"}');
  writeFileSync(path.join(d, 'lips.txt'), '10 a\n20 o\n');
  // 02_laugh.vmd cut inside its bone block: a VMD salvage takes.
  writeFileSync(path.join(d, 'cut.vmd'), readFileSync(LAUGH).subarray(0, 50 + 4 + 10 * 111 + 7));

  it('the table covers every one-file command that takes --json (inspect and batch apart)', () => {
    const taking = Object.keys(commands).filter((k) => commands[k].usage.includes('--json') && k !== 'inspect' && k !== 'batch');
    expect(Object.keys(SUCCEEDING).sort()).toEqual(taking.sort());
  });

  // In order: import-vrma reads what export-vrma wrote.
  it.each(Object.entries(SUCCEEDING))('%s prints one line { "ok": true, … }', async (_name, argv) => {
    const r = await runCliCaptured([...argv, '--json'], d);
    expect(r.code, r.err).toBe(0);
    expect(r.out.endsWith('\n')).toBe(true);
    expect(r.out.slice(0, -1)).not.toContain('\n');
    const o = JSON.parse(r.out) as Record<string, unknown>;
    expect(o.ok).toBe(true);
    expect(Object.keys(o)[0]).toBe('ok');
  }, 60_000);

  it("batch's ok is the run's verdict and its count is `written`", async () => {
    mkdirSync(path.join(d, 'in'));
    copyFileSync(LAUGH, path.join(d, 'in', 'a.vmd'));
    const r = await runCliCaptured(['batch', 'mirror', 'in', '-o', 'bout', '--json'], d);
    expect(r.code, r.err).toBe(0);
    expect(r.out.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(r.out)).toMatchObject({ ok: true, total: 1, written: 1, failed: 0, skipped: 0 });
    // Everything skipped (the outputs are there): still ok, written 0 (the old `"ok": 0` read as a failure).
    const again = await runCliCaptured(['batch', 'mirror', 'in', '-o', 'bout', '--json'], d);
    expect(JSON.parse(again.out)).toMatchObject({ ok: true, total: 1, written: 0, skipped: 1 });
    writeFileSync(path.join(d, 'in', 'b.vmd'), 'garbage');
    const bad = await runCliCaptured(['batch', 'mirror', 'in', '-o', 'bout2', '--json'], d);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out)).toMatchObject({ ok: false, total: 2, written: 1, failed: 1 });
  });
});
