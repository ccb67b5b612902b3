// The edit and batch commands, run in-process with a fake CliIo, and the real CLI in a child process
// for the kill tests (SIGKILL and SIGINT mid-run).
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { buildTracks, readVmd, writeVmd } from '../../shared/vmd';
import { mirror, trim, type TrimOptions } from '../../shared/motion-ops';
import { editCommands, progressLine } from '../../electron/cli/commands/edit';
import { UsageError } from '../../electron/cli/args';
import type { CliIo } from '../../electron/cli/io';
import { addBadFiles, CLI, copyCorpus, CORPUS, findTemps, hashTree, listFiles, useTempDirs } from './batch-helpers';
import { hostTag } from '../../electron/fs/temp-files';

const mk = useTempDirs();

function fakeIo(cwd: string, isTTY = false) {
  const out: string[] = [], err: string[] = [];
  const io: CliIo = { stdout: (s) => out.push(s), stderr: (s) => err.push(s), cwd, isTTY };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

/** Runs a command the way main.ts does: UsageError → 2. */
async function run(argv: string[], cwd: string, isTTY = false) {
  const f = fakeIo(cwd, isTTY);
  const [name, ...rest] = argv;
  let code: number;
  try {
    code = await editCommands[name].run(rest, f.io);
  } catch (e) {
    if (e instanceof UsageError) code = 2;
    else throw e;
  }
  return { code, out: f.out(), err: f.err() };
}

const walk = path.join(CORPUS, 'mc-mmd-rust/default_anim/walk.vmd');
const wave = path.join(CORPUS, 'mmd-viewer-js/vmd/wavefile_v2.vmd');

describe('one-file commands', () => {
  it('mirror twice gives the input back; existing output is not replaced', async () => {
    const d = mk('cmd');
    expect((await run(['mirror', walk, '-o', 'm.vmd'], d)).code).toBe(0);
    expect((await run(['mirror', 'm.vmd', '-o', 'mm.vmd'], d)).code).toBe(0);
    expect(readFileSync(path.join(d, 'mm.vmd')).equals(readFileSync(walk))).toBe(true);
    const again = await run(['mirror', walk, '-o', 'm.vmd'], d);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/exists/);
    expect((await run(['mirror', walk, '-o', 'm.vmd', '--overwrite'], d)).code).toBe(0);
  });

  it('an existing output is refused before any work: the input is not even read (a refit of a large dance takes seconds)', async () => {
    const d = mk('early');
    writeFileSync(path.join(d, 'out.vmd'), 'keep');
    const r = await run(['speed', path.join(d, 'missing.vmd'), '-o', 'out.vmd', '--factor', '1.5', '--refit'], d);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/out\.vmd: output exists/);
    expect(r.err).not.toMatch(/missing\.vmd/);
    expect(readFileSync(path.join(d, 'out.vmd'), 'utf8')).toBe('keep');
  });

  it('trim prints counts and the pose error; --json gives the report', async () => {
    const d = mk('trim');
    const r = await run(['trim', wave, '-o', 't.vmd', '--from', '1000', '--to', '1500', '--json'], d);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.out);
    expect(rep.edit).toBe('trim');
    expect(rep.added).toBeGreaterThan(0);
    expect(rep.maxPositionError).toBeLessThan(0.01);
    const t = readVmd(new Uint8Array(readFileSync(path.join(d, 't.vmd'))));
    if (!t.ok) throw new Error('read');
    expect(buildTracks(t.value).lastFrame).toBe(500);
  });

  it('trim of a range that holds no key (past the last, or before the first): the same bytes, with a warning; batch lists it', async () => {
    const d = mk('trim-past');
    const laugh = path.join(CORPUS, 'gene/motion/02_laugh.vmd');
    const doc = readVmd(new Uint8Array(readFileSync(laugh)));
    if (!doc.ok) throw new Error('read');
    expect(buildTracks(doc.value).lastFrame).toBe(300);
    const trimmed = (opts: TrimOptions) => {
      const t = trim(doc.value, opts);
      if (!t.ok) throw new Error(t.error.message);
      return Buffer.from(writeVmd(t.value.doc));
    };
    const past = await run(['trim', laugh, '-o', 'past.vmd', '--from', '5000'], d);
    expect(past.code, past.err).toBe(0);
    // Named as the batch names it (the input as given: here an absolute path).
    expect(past.err).toBe(`vmd-studio: warning: ${laugh}: --from 5000 is after the motion's last key (frame 300): no key is kept, the output is the pose at frame 300 held at frame 0\n`);
    expect(readFileSync(path.join(d, 'past.vmd')).equals(trimmed({ from: 5000 }))).toBe(true);
    const json = await run(['trim', laugh, '-o', 'past-nohold.vmd', '--from', '301', '--no-hold', '--json'], d);
    expect(JSON.parse(json.out).warnings).toEqual(["--from 301 is after the motion's last key (frame 300): no key is kept, the output has no keys"]);
    expect(readFileSync(path.join(d, 'past-nohold.vmd')).equals(trimmed({ from: 301, hold: false }))).toBe(true);
    // Without hold nothing is left to compare: the report says so rather than a pose error (the input's held
    // pose against the rest pose, 54.5° here, read as the error of the cut).
    const nohold = JSON.parse(json.out);
    expect([nohold.keepsNoKey, 'maxPositionError' in nohold, 'maxRotationErrorDeg' in nohold]).toEqual([true, false, false]);
    const line = await run(['trim', laugh, '-o', 'past-nohold2.vmd', '--from', '301', '--no-hold'], d);
    // Every bone and morph track is gone (it said 0: only tracks dropped for resting were counted).
    const allTracks = buildTracks(doc.value).bones.names.length + buildTracks(doc.value).morphs.names.length;
    expect(allTracks).toBeGreaterThan(0);
    expect([line.code, line.out]).toEqual([0, `trim: past-nohold2.vmd: kept 0, added 0, dropped 942 (outside the range), collisions 0; tracks dropped ${allTracks}, the range keeps no key (no pose error to measure)\n`]);
    expect(nohold.tracksDropped).toBe(allTracks);
    // A motion whose keys start at 100 (shifted here), trimmed to 0–50.
    expect((await run(['shift', laugh, '-o', 'late.vmd', '--by', '100'], d)).code).toBe(0);
    const before = await run(['trim', 'late.vmd', '-o', 'before.vmd', '--from', '0', '--to', '50', '--quiet'], d);
    expect(before.code, before.err).toBe(0);
    expect(before.err).toBe("vmd-studio: warning: late.vmd: --to 50 is before the motion's first key (frame 100): no key is kept, the output is the pose at frame 100 held at frame 50\n");
    const beforeNoHold = await run(['trim', 'late.vmd', '-o', 'before-nohold.vmd', '--from', '0', '--to', '50', '--no-hold'], d);
    expect(beforeNoHold.out).toBe(`trim: before-nohold.vmd: kept 0, added 0, dropped 942 (outside the range), collisions 0; tracks dropped ${allTracks}, the range keeps no key (no pose error to measure)\n`);
    // A range that keeps keys still gives its figures.
    expect((await run(['trim', laugh, '-o', 'in-nohold.vmd', '--from', '100', '--to', '200', '--no-hold'], d)).out).toMatch(/max position error [\d.]+, max rotation error [\d.]+°\n$/);
    // A range with keys in it, and one ending on the last key: no warning.
    expect((await run(['trim', laugh, '-o', 'in.vmd', '--from', '100', '--to', '200'], d)).err).toBe('');
    expect((await run(['trim', laugh, '-o', 'end.vmd', '--from', '300'], d)).err).toBe('');
    // The batch's per-file report says the same.
    mkdirSync(path.join(d, 'in'));
    writeFileSync(path.join(d, 'in', 'laugh.vmd'), readFileSync(laugh));
    const b = await run(['batch', 'trim', 'in', '-o', 'out', '--from', '5000', '--jobs', '1', '--quiet', '--report', 'report.json'], d);
    expect(b.code, b.err).toBe(0);
    expect(readFileSync(path.join(d, 'out', 'laugh.vmd')).equals(readFileSync(path.join(d, 'past.vmd')))).toBe(true);
    const rep = JSON.parse(readFileSync(path.join(d, 'report.json'), 'utf8'));
    expect(rep.results[0].report.warnings).toEqual(["--from 5000 is after the motion's last key (frame 300): no key is kept, the output is the pose at frame 300 held at frame 0"]);
  });

  it('bad arguments exit 2, bad files exit 1', async () => {
    const d = mk('args');
    expect((await run(['trim', walk, '-o', 'x.vmd'], d)).code).toBe(2); // --from missing
    expect((await run(['speed', walk, '-o', 'x.vmd', '--factor', 'fast'], d)).code).toBe(2);
    expect((await run(['speed', walk, '-o', 'x.vmd', '--factor', '2', '--bogus'], d)).code).toBe(2);
    expect((await run(['preset', walk, '-o', 'x.vmd', '--curve', 'wobbly'], d)).code).toBe(2);
    expect((await run(['mirror', walk], d)).code).toBe(2);
    writeFileSync(path.join(d, 'bad.vmd'), 'nope');
    const bad = await run(['mirror', 'bad.vmd', '-o', 'y.vmd'], d);
    expect(bad.code).toBe(1);
    // A text file named .vmd is said to be what it is (a beginner's wrong file; the shared not-a-motion line).
    expect(bad.err).toMatch(/bad\.vmd: plain text, not a motion/);
    expect(existsSync(path.join(d, 'x.vmd'))).toBe(false);
    const neg = await run(['shift', walk, '-o', 's.vmd', '--by', '-5'], d);
    expect(neg.code).toBe(1);
    expect((await run(['shift', walk, '-o', 's.vmd', '--by', '-5', '--clip'], d)).code).toBe(0);
  });

  it('speed, preset, rename, merge, build', async () => {
    const d = mk('more');
    expect((await run(['speed', walk, '-o', 's.vmd', '--factor', '2'], d)).code).toBe(0);
    expect((await run(['preset', walk, '-o', 'p.vmd', '--curve', '10,20,30,40', '--bones', '/^左/', '--channels', 'r'], d)).code).toBe(0);
    writeFileSync(path.join(d, 'map.csv'), 'old,new\n左足ＩＫ,LeftFootIK\n');
    const ren = await run(['rename', walk, '-o', 'r.vmd', '--map', 'map.csv', '--json'], d);
    expect(ren.code).toBe(0);
    const rd = readVmd(new Uint8Array(readFileSync(path.join(d, 'r.vmd'))));
    if (!rd.ok) throw new Error('read');
    const names = buildTracks(rd.value).bones.names;
    expect(names).toContain('LeftFootIK');
    expect(names).not.toContain('左足ＩＫ');
    const m = await run(['merge', walk, walk, '-o', 'mg.vmd', '--gap', '10'], d);
    expect(m.code).toBe(0);
    const md = readVmd(new Uint8Array(readFileSync(path.join(d, 'mg.vmd'))));
    if (!md.ok) throw new Error('read');
    expect(md.value.bone.count).toBe(240);
    expect(buildTracks(md.value).lastFrame).toBe(80 + 10 + 80);
    const b = await run(['build', path.join(CORPUS, 'threejs/vpds/01.vpd') + '@0', path.join(CORPUS, 'threejs/vpds/02.vpd') + '@30', '-o', 'b.vmd', '--curve', 'ease-in-out'], d);
    expect(b.code).toBe(0);
    expect((await run(['build', path.join(CORPUS, 'threejs/vpds/01.vpd'), '-o', 'b2.vmd'], d)).code).toBe(2);
  });
});

describe('batch command', () => {
  it('exit 1 with bad files, summary table, --report JSON, inputs untouched, no temps', async () => {
    const d = mk('batchcmd');
    const input = path.join(d, 'in');
    copyCorpus(input, 12);
    addBadFiles(input);
    const before = hashTree(input);
    const r = await run(['batch', 'mirror', 'in', '-o', 'out', '--recursive', '--jobs', '2', '--report', 'rep.json'], d);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/written\s+12/);
    expect(r.out).toMatch(/failed\s+3/);
    expect(r.out).toMatch(/files\/s/);
    expect(r.err).toMatch(/corrupt\.vmd/);
    const rep = JSON.parse(readFileSync(path.join(d, 'rep.json'), 'utf8'));
    expect(rep.results.length).toBe(15);
    const okOne = rep.results.find((x: { ok: boolean }) => x.ok);
    expect(okOne).toHaveProperty('input');
    expect(okOne).toHaveProperty('output');
    expect(okOne).toHaveProperty('ms');
    expect(okOne.report).toHaveProperty('kept');
    expect(rep.results.find((x: { ok: boolean }) => !x.ok).error).toHaveProperty('code');
    expect(hashTree(input)).toEqual(before);
    expect(findTemps(d)).toEqual([]);
    // all good → 0; second run skips everything (exit 0, nothing replaced)
    const clean = path.join(d, 'clean');
    copyCorpus(clean, 4);
    expect((await run(['batch', 'speed', 'clean', '-o', 'cout', '--factor', '1.5', '--recursive', '--quiet'], d)).code).toBe(0);
    const again = await run(['batch', 'speed', 'clean', '-o', 'cout', '--factor', '1.5', '--recursive'], d);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/skipped\s+4/);
  });

  it('--json: the report on standard output in place of the table, as --report writes it', async () => {
    const d = mk('batchjson');
    const input = path.join(d, 'in');
    copyCorpus(input, 3);
    addBadFiles(input);
    const r = await run(['batch', 'mirror', 'in', '-o', 'out', '--recursive', '--jobs', '2', '--json', '--report', 'rep.json'], d);
    expect(r.code).toBe(1);
    expect(r.out).not.toContain('result      files'); // no table
    const j = JSON.parse(r.out);
    expect(j).toEqual(JSON.parse(readFileSync(path.join(d, 'rep.json'), 'utf8')));
    expect(j.op).toBe('mirror');
    expect([j.ok, j.total, j.written, j.failed]).toEqual([false, 6, 3, 3]);
    expect(j.results.filter((x: { ok: boolean }) => x.ok).map((x: { output: string }) => existsSync(x.output))).toEqual([true, true, true]);
    expect(r.err).toMatch(/corrupt\.vmd/); // per-file errors stay on stderr
    // A clean run exits 0, and --json alone writes no report file.
    copyCorpus(path.join(d, 'clean'), 2);
    const clean = await run(['batch', 'speed', 'clean', '-o', 'fast', '--factor', '2', '--recursive', '--json', '--quiet'], d);
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.out)).toMatchObject({ op: 'speed', ok: true, total: 2, written: 2, failed: 0, options: { factor: '2' } });
    expect(listFiles(d).filter((f) => f.endsWith('.json'))).toEqual(['rep.json']);
  });

  it('bad batch arguments exit 2', async () => {
    const d = mk('batchargs');
    mkdirSync(path.join(d, 'in'));
    expect((await run(['batch', 'explode', 'in', '-o', 'out'], d)).code).toBe(2);
    expect((await run(['batch', 'trim', 'in', '-o', 'out'], d)).code).toBe(2);
    expect((await run(['batch', 'mirror', 'missing', '-o', 'out'], d)).code).toBe(2);
    expect((await run(['batch', 'mirror', 'in', '-o', 'in'], d)).code).toBe(2);
    expect((await run(['batch', 'mirror', 'in', '-o', 'out', '--jobs', '0'], d)).code).toBe(2);
    expect((await run(['batch', 'rename', 'in', '-o', 'out', '--map', 'nope.json'], d)).code).toBe(2);
  });

  it('progress line: bar, done/total, MB/s, ETA', () => {
    const line = progressLine({ jobId: 'x', done: 50, total: 200, failed: 1, currentFile: null, bytesDone: 10e6, bytesTotal: 40e6, elapsedMs: 2000 });
    expect(line).toMatch(/^\[#{6}\.{18}\] 50\/200 files {2}5\.0 MB\/s {2}ETA 6s {2}1 failed$/);
  });
});

/** Starts the real CLI on a big folder and returns the child once the first outputs exist. */
async function startBigBatch(d: string, count: number) {
  const input = path.join(d, 'in');
  const output = path.join(d, 'out');
  const inputs = copyCorpus(input, count, (f) => /wavefile_v2|Drink|26_mortifying/.test(f));
  const child = spawn(process.execPath, [CLI, 'batch', 'mirror', input, '-o', output, '--recursive', '--jobs', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b) => (stderr += b));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const t0 = Date.now();
  while (listFiles(output).length < 3 && Date.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 20));
  return { child, exited, input, output, inputs, stderr: () => stderr };
}

/** Every output under its real name must be a complete mirror of its input. */
function checkOutputsWhole(input: string, output: string): number {
  const files = listFiles(output);
  for (const f of files) {
    const d = readVmd(new Uint8Array(readFileSync(path.join(output, f))));
    if (!d.ok) throw new Error(`${f}: partial or broken output: ${d.error.message}`);
    const back = mirror(d.value);
    if (!back.ok) throw new Error('mirror');
    expect(Buffer.from(writeVmd(back.value.doc)).equals(readFileSync(path.join(input, f))), f).toBe(true);
  }
  return files.length;
}

describe('killing the CLI mid-run', () => {
  it('SIGINT: stops, exit 130, finished outputs whole, no temp files', async () => {
    const d = mk('sigint');
    const b = await startBigBatch(d, 200);
    b.child.kill('SIGINT');
    const t0 = Date.now();
    const e = await b.exited;
    const ms = Date.now() - t0;
    expect(e.code).toBe(130);
    const n = checkOutputsWhole(b.input, b.output);
    expect(n).toBeGreaterThanOrEqual(3);
    expect(n).toBeLessThan(200);
    expect(findTemps(d)).toEqual([]);
    // Reported, not asserted: how soon a cancelled run stops is timed by `npm run bench` (batch-bench.ts).
    console.log(`SIGINT: exited after ${ms} ms, ${n}/200 outputs, 0 temp files`);
  });

  it('SIGKILL: no partial file under a real output name; a re-run sweeps the temps and gives a clean run\'s outputs', async () => {
    const d = mk('sigkill');
    const b = await startBigBatch(d, 80);
    // Kill while a temp exists, if one shows up within 5 s (writes are a small part of each file's time).
    for (const t0 = Date.now(); findTemps(b.output).length === 0 && Date.now() - t0 < 5000; ) await new Promise((r) => setImmediate(r));
    b.child.kill('SIGKILL');
    const e = await b.exited;
    expect(e.signal, `the CLI was not killed: it exited ${e.code} by itself; stderr: ${b.stderr()}`).toBe('SIGKILL');
    const n = checkOutputsWhole(b.input, b.output);
    expect(n).toBeLessThan(80);
    const temps = findTemps(d);
    // What a killed run leaves: full-size temps named .vmds-<its pid in base 36>-<host>-<random>.tmp.
    for (const t of temps) expect(path.basename(t)).toMatch(new RegExp(`^\\.vmds-${b.child.pid!.toString(36)}-[0-9a-z]{4}-[0-9a-z]{6}\\.tmp$`));
    // The kill may land between writes; leave one such temp in a nested output folder for certain.
    const planted = path.join(b.output, 'b', 'c', path.basename(temps[0] ?? `.vmds-${b.child.pid!.toString(36)}-${hostTag()}-k1ll3d.tmp`).replace(/-[0-9a-z]{6}\.tmp$/, '-pl4nt3.tmp'));
    mkdirSync(path.dirname(planted), { recursive: true });
    writeFileSync(planted, readFileSync(b.inputs[0]));
    const rerun = spawnSync(process.execPath, [CLI, 'batch', 'mirror', b.input, '-o', b.output, '--recursive', '--jobs', '2', '--quiet'], { encoding: 'utf8' });
    expect(rerun.status, rerun.stderr).toBe(0);
    expect(findTemps(d)).toEqual([]);
    const clean = path.join(d, 'clean');
    const cr = spawnSync(process.execPath, [CLI, 'batch', 'mirror', b.input, '-o', clean, '--recursive', '--jobs', '2', '--quiet'], { encoding: 'utf8' });
    expect(cr.status, cr.stderr).toBe(0);
    const files = listFiles(b.output);
    expect(files).toEqual(listFiles(clean));
    expect(files).toHaveLength(80);
    for (const f of files) expect(readFileSync(path.join(b.output, f)).equals(readFileSync(path.join(clean, f))), f).toBe(true);
    console.log(`SIGKILL: ${n}/80 whole outputs at the kill, ${temps.length} leftover temp file(s) (+1 planted), all swept by the re-run`);
  });
});
