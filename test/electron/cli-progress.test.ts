// The one-file commands that can take seconds show their progress on stderr as batch does (finding: reduce,
// speed --refit and physics-bake sat silent for 7–16 s on a 657k-key motion): into a file, a plain line at
// most every second once the work has run that long; on a terminal one line redrawn in place, erased at the end;
// nothing under --quiet; --json's stdout stays one JSON object. The intervals are set to 0 (io.progressEveryMs)
// or driven by a fake clock: no verdict here depends on how fast the machine is. The process itself gives the
// 1 s interval (main.ts); an in-process caller that gives none sees no progress (the other tests' stderr as before).
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { blockFromRecords, emptyVmd, encodeBoneRecord, encodeMorphRecord, writeVmd, type VmdDocument } from '../../shared/vmd';
import { PROGRESS_EVERY_KEYS } from '../../shared/edit-core/record-util';
import { runCli } from '../../electron/cli/main';
import type { CliIo } from '../../electron/cli/io';
import { cliProgress, PLAIN_EVERY_MS } from '../../electron/cli/progress';
import { useTempDirs } from './batch-helpers';
import { corpusPath, corpusPresent } from '../helpers/corpus';

const mk = useTempDirs();
const c = corpusPresent ? it : it.skip;

async function run(argv: string[], cwd: string, extra: Partial<CliIo> = {}) {
  const out: string[] = [], err: string[] = [], term: string[] = [];
  const io: CliIo = { stdout: (s) => out.push(s), stderr: (s) => err.push(s), terminal: (s) => term.push(s), cwd, isTTY: false, ...extra };
  const code = await runCli(argv, io);
  return { code, out: out.join(''), err: err.join(''), term };
}

/** Two bone tracks and a morph track, a key on every frame: with the camera, 4 tracks for a fit. */
function dense(): VmdDocument {
  const bones = [];
  for (let f = 0; f <= 60; f++) {
    bones.push(encodeBoneRecord({ name: 'センター', frame: f, position: [Math.sin(f / 9), 0, 0], rotation: [0, 0, 0, 1] }));
    bones.push(encodeBoneRecord({ name: '左腕', frame: f, position: [0, 0, 0], rotation: [Math.sin(f / 40), 0, 0, Math.cos(f / 40)] }));
  }
  const morphs = Array.from({ length: 61 }, (_, f) => encodeMorphRecord({ name: 'あ', frame: f, weight: Math.abs(Math.sin(f / 15)) }));
  return { ...emptyVmd('model'), bone: blockFromRecords('bone', bones), morph: blockFromRecords('morph', morphs) };
}

function input(): string {
  const d = mk('progress');
  writeFileSync(path.join(d, 'dense.vmd'), writeVmd(dense()));
  return d;
}

/** The progress lines of stderr (warnings aside). */
const progressLines = (err: string, label: string) => err.split('\n').filter((l) => l.startsWith(`${label}: `));

describe('progress of the one-file commands', () => {
  it('reduce into a file: a line per track with the interval at 0, the last one all 4 tracks; the summary on stdout as before', async () => {
    const d = input();
    const r = await run(['reduce', 'dense.vmd', '-o', 'r.vmd'], d, { progressEveryMs: 0 });
    expect(r.code, r.err).toBe(0);
    const lines = progressLines(r.err, 'reduce');
    expect(lines.map((l) => l.replace(/, \d+ s$/, ''))).toEqual(['reduce: 1 / 4 tracks', 'reduce: 2 / 4 tracks', 'reduce: 3 / 4 tracks', 'reduce: 4 / 4 tracks']);
    for (const l of lines) expect(l).toMatch(/, \d+ s$/);
    expect(r.out).toMatch(/^reduce: r\.vmd: reduced/);
    expect(r.term).toEqual([]);
  });

  it('speed --refit and bake tell their tracks too', async () => {
    const d = input();
    const s = await run(['speed', 'dense.vmd', '-o', 's.vmd', '--factor', '0.8', '--refit'], d, { progressEveryMs: 0 });
    expect(s.code, s.err).toBe(0);
    expect(progressLines(s.err, 'speed').at(-1)).toMatch(/^speed: 4 \/ 4 tracks, \d+ s$/);
    const b = await run(['bake', 'dense.vmd', '-o', 'b.vmd'], d, { progressEveryMs: 0 });
    expect(b.code, b.err).toBe(0);
    expect(progressLines(b.err, 'bake').at(-1)).toMatch(/^bake: 4 \/ 4 tracks, \d+ s$/);
  });

  it('--quiet: nothing on stderr or stdout', async () => {
    const d = input();
    const r = await run(['reduce', 'dense.vmd', '-o', 'r.vmd', '--quiet'], d, { progressEveryMs: 0 });
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toBe('');
    const t = await run(['reduce', 'dense.vmd', '-o', 't.vmd', '--quiet'], d, { progressEveryMs: 0, isTTY: true });
    expect(t.term).toEqual([]);
    expect(t.err).toBe('');
  });

  it('--json: stdout is the JSON object alone, progress on stderr', async () => {
    const d = input();
    const r = await run(['reduce', 'dense.vmd', '-o', 'r.vmd', '--json'], d, { progressEveryMs: 0 });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).edit).toBe('reduce');
    expect(progressLines(r.err, 'reduce')).toHaveLength(4);
  });

  it('on a terminal: a carriage-return line redrawn in place, erased before the summary', async () => {
    const d = input();
    const r = await run(['reduce', 'dense.vmd', '-o', 'r.vmd'], d, { progressEveryMs: 0, isTTY: true });
    expect(r.code).toBe(0);
    expect(r.term.slice(0, -1).map((s) => s.replace(/, \d+ s\x1b\[K$/, ''))).toEqual(['\rreduce: 1 / 4 tracks', '\rreduce: 2 / 4 tracks', '\rreduce: 3 / 4 tracks', '\rreduce: 4 / 4 tracks']);
    expect(r.term.at(-1)).toBe('\r\x1b[K');
    expect(r.err).toBe('');
  });

  // Mirror and merge went silent on big files (a 36 MB dance: seconds with nothing said). Their keys, told after each
  // block of keys and every PROGRESS_EVERY_KEYS keys inside one; a line whose seconds ticked over at the end may
  // repeat the last figures, so repeats are taken out before comparing.
  const figures = (lines: string[]) => lines.map((l) => l.replace(/, \d+ s$/, '')).filter((l, i, all) => i === 0 || l !== all[i - 1]);

  it('mirror tells its keys: after the bone and the morph keys (122 + 61), and every 65,536 keys of a big block', async () => {
    const d = input();
    const r = await run(['mirror', 'dense.vmd', '-o', 'm.vmd'], d, { progressEveryMs: 0 });
    expect(r.code, r.err).toBe(0);
    expect(figures(progressLines(r.err, 'mirror'))).toEqual(['mirror: 122 / 183 keys', 'mirror: 183 / 183 keys']);
    expect(r.out).toMatch(/^mirror: m\.vmd: kept 183/);
    // 70,000 morph keys: once at 65,536, once at the block's end.
    expect(PROGRESS_EVERY_KEYS).toBe(65536);
    const morphs = Array.from({ length: 70000 }, (_, i) => encodeMorphRecord({ name: 'まばたき', frame: i, weight: (i % 10) / 10 }));
    writeFileSync(path.join(d, 'big.vmd'), writeVmd({ ...emptyVmd('model'), morph: blockFromRecords('morph', morphs) }));
    const big = await run(['mirror', 'big.vmd', '-o', 'bm.vmd'], d, { progressEveryMs: 0 });
    expect(big.code, big.err).toBe(0);
    expect(figures(progressLines(big.err, 'mirror'))).toEqual(['mirror: 65,536 / 70,000 keys', 'mirror: 70,000 / 70,000 keys']);
    // On a terminal: redrawn in place and erased; --quiet: nothing.
    const tty = await run(['mirror', 'dense.vmd', '-o', 'mt.vmd'], d, { progressEveryMs: 0, isTTY: true });
    expect(tty.term.at(-1)).toBe('\r\x1b[K');
    expect(tty.term.slice(0, -1).map((s) => s.replace(/, \d+ s\x1b\[K$/, ''))).toEqual(['\rmirror: 122 / 183 keys', '\rmirror: 183 / 183 keys']);
    expect(tty.err).toBe('');
    const quiet = await run(['mirror', 'dense.vmd', '-o', 'mq.vmd', '--quiet'], d, { progressEveryMs: 0 });
    expect([quiet.err, quiet.out]).toEqual(['', '']);
  });

  it('merge tells its keys, across the files (two of 183 keys: 366)', async () => {
    const d = input();
    writeFileSync(path.join(d, 'b.vmd'), writeVmd(dense()));
    const r = await run(['merge', 'dense.vmd', 'b.vmd', '-o', 'ab.vmd'], d, { progressEveryMs: 0 });
    expect(r.code, r.err).toBe(0);
    expect(figures(progressLines(r.err, 'merge'))).toEqual(['merge: 122 / 366 keys', 'merge: 183 / 366 keys', 'merge: 305 / 366 keys', 'merge: 366 / 366 keys']);
    expect(r.out).toMatch(/^merge: ab\.vmd: dense\.vmd 183 \+ b\.vmd 183 → 366 keys/);
    const j = await run(['merge', 'dense.vmd', 'b.vmd', '-o', 'abj.vmd', '--json'], d, { progressEveryMs: 0 });
    expect(JSON.parse(j.out).kept).toBe(366);
    expect(progressLines(j.err, 'merge').length).toBeGreaterThan(0);
    const quiet = await run(['merge', 'dense.vmd', 'b.vmd', '-o', 'abq.vmd', '--quiet'], d, { progressEveryMs: 0 });
    expect([quiet.err, quiet.out]).toEqual(['', '']);
    // An in-process caller that gives no interval sees none (the other tests' stderr stays as it was).
    const plain = await run(['merge', 'dense.vmd', 'b.vmd', '-o', 'abp.vmd'], d);
    expect(plain.err).toBe('');
  });

  it('the interval: into a file nothing in the first second, then at most a line a second, and the last figures at the end (fake clock)', () => {
    let t = 0;
    const err: string[] = [];
    const io: CliIo = { stdout: () => {}, stderr: (s) => err.push(s), cwd: '/', isTTY: false, progressEveryMs: PLAIN_EVERY_MS };
    const p = cliProgress(io, 'reduce', 'tracks', false, () => t);
    p.tell(1, 1200);
    t = 999;
    p.tell(2, 1200);
    expect(err).toEqual([]); // a run under a second says nothing
    t = 1000;
    p.tell(3, 1200);
    t = 1500;
    p.tell(4, 1200);
    t = 2600;
    p.tell(1100, 1200);
    t = 2700;
    p.tell(1200, 1200);
    p.end();
    expect(err).toEqual(['reduce: 3 / 1,200 tracks, 1 s\n', 'reduce: 1,100 / 1,200 tracks, 2 s\n', 'reduce: 1,200 / 1,200 tracks, 2 s\n']);
  });

  it('a quick run into a file stays silent (fake clock: all of it in 0.5 s)', () => {
    let t = 0;
    const err: string[] = [];
    const p = cliProgress({ stdout: () => {}, stderr: (s) => err.push(s), cwd: '/', isTTY: false, progressEveryMs: PLAIN_EVERY_MS }, 'bake', 'tracks', false, () => t);
    for (let i = 1; i <= 50; i++) {
      t = i * 10;
      p.tell(i, 50);
    }
    p.end();
    expect(err).toEqual([]);
  });

  it('steps of unlike work as a percentage (physics-bake)', () => {
    let t = 0;
    const err: string[] = [];
    const p = cliProgress({ stdout: () => {}, stderr: (s) => err.push(s), cwd: '/', isTTY: false, progressEveryMs: 0 }, 'physics-bake', null, false, () => t);
    p.tell(1, 300);
    t = 4200;
    p.tell(111, 300);
    expect(err).toEqual(['physics-bake: 0%, 0 s\n', 'physics-bake: 37%, 4 s\n']);
  });

  c('physics-bake, import-bvh and retarget tell theirs', async () => {
    const dir = mk('progress-phys');
    const model = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'), motion = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
    const p = await run(['physics-bake', motion, '--model', model, '-o', 'out.vmd', '--to', '10'], dir, { progressEveryMs: 0 });
    expect(p.code, p.err).toBe(0);
    const pl = progressLines(p.err, 'physics-bake');
    expect(pl.length).toBeGreaterThan(2);
    expect(pl.at(-1)).toMatch(/^physics-bake: 100%, \d+ s$/);
    const q = await run(['physics-bake', motion, '--model', model, '-o', 'q.vmd', '--to', '10', '--quiet'], dir, { progressEveryMs: 0 });
    expect(q.err).toBe('');
    const b = await run(['import-bvh', corpusPath('bvh11/resources/131_01.bvh'), '-o', 'bvh.vmd'], dir, { progressEveryMs: 0 });
    expect(b.code, b.err).toBe(0);
    expect(progressLines(b.err, 'import-bvh').at(-1)).toMatch(/^import-bvh: (\d+) \/ \1 tracks, \d+ s$/);
    writeFileSync(path.join(dir, 'dense.vmd'), writeVmd(dense()));
    const t = await run(['retarget', 'dense.vmd', '--to', model, '-o', 'rt.vmd'], dir, { progressEveryMs: 0 });
    expect(t.code, t.err).toBe(0);
    expect(progressLines(t.err, 'retarget').at(-1)).toMatch(/^retarget: (\d+) \/ \1 tracks, \d+ s$/);
  });
});
