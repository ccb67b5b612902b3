// The CLI's summary lines read as what happened: merge says how many keys came from each input (it said
// "kept 657032, added 0" after adding two whole files), trim says its dropped keys are those outside the range,
// and counts are grouped by thousands ("657,032"), as the app shows them, while --json keeps numbers as numbers.
// Frame numbers stay ungrouped (MMD writes "frame 1200").
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { blockFromRecords, emptyVmd, encodeBoneRecord, writeVmd, type VmdDocument } from '../../shared/vmd';
import { runCli } from '../../electron/cli/main';
import type { CliIo } from '../../electron/cli/io';
import { formatCount } from '../../electron/cli/format';
import { useTempDirs } from './batch-helpers';

const mk = useTempDirs();

async function run(argv: string[], cwd: string) {
  const out: string[] = [], err: string[] = [];
  const io: CliIo = { stdout: (s) => out.push(s), stderr: (s) => err.push(s), cwd, isTTY: false };
  const code = await runCli(argv, io);
  return { code, out: out.join(''), err: err.join('') };
}

/** `n` keys of one bone, on frames 0 … n-1, turning smoothly (so nothing is at rest). */
function motion(n: number, bone = 'センター'): VmdDocument {
  const bones = Array.from({ length: n }, (_, f) => encodeBoneRecord({ name: bone, frame: f, position: [Math.sin(f / 7), 0, 0], rotation: [0, Math.sin(f / 50), 0, Math.cos(f / 50)] }));
  return { ...emptyVmd('model'), bone: blockFromRecords('bone', bones) };
}

function files(d: string, list: Record<string, VmdDocument>) {
  for (const [name, doc] of Object.entries(list)) writeFileSync(path.join(d, name), writeVmd(doc));
}

describe('the CLI summary lines', () => {
  it('merge: the keys from each input, their total and the duplicates dropped, grouped', async () => {
    const d = mk('sum-merge');
    files(d, { 'a.vmd': motion(1500), 'b.vmd': motion(1500, '左腕'), 'c.vmd': motion(700, '右腕') });
    const r = await run(['merge', 'a.vmd', 'b.vmd', 'c.vmd', '-o', 'm.vmd'], d);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('merge: m.vmd: a.vmd 1,500 + b.vmd 1,500 + c.vmd 700 → 3,700 keys; 0 dropped\n');
    // Overlaid on itself, the second copy's every key repeats a (name, frame): all dropped, first file wins.
    const o = await run(['merge', 'a.vmd', 'a.vmd', '-o', 'o.vmd', '--overlay'], d);
    expect(o.code, o.err).toBe(0);
    expect(o.out).toBe('merge: o.vmd: a.vmd 1,500 + a.vmd 0 → 1,500 keys; 1,500 dropped (a (name, frame) already merged: the first file wins)\n');
  });

  it('merge --json: numbers stay numbers, the keys from each input among them', async () => {
    const d = mk('sum-merge-json');
    files(d, { 'a.vmd': motion(1500), 'b.vmd': motion(1200, '左腕') });
    const r = await run(['merge', 'a.vmd', 'b.vmd', '-o', 'm.vmd', '--json'], d);
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.kept).toBe(2700);
    expect(j.keysFrom1).toBe(1500);
    expect(j.keysFrom2).toBe(1200);
  });

  it('trim: the dropped keys are said to be outside the range; the counts grouped, the range\'s frames not', async () => {
    const d = mk('sum-trim');
    files(d, { 'a.vmd': motion(3000) });
    const r = await run(['trim', 'a.vmd', '--from', '1000', '--to', '1999', '--no-hold', '-o', 't.vmd'], d);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^trim: t\.vmd: kept 1,000, added 0, dropped 2,000 \(outside the range\), collisions 0;/);
    const j = JSON.parse((await run(['trim', 'a.vmd', '--from', '1000', '--to', '1999', '--no-hold', '-o', 'j.vmd', '--json'], d)).out);
    expect([j.kept, j.dropped, j.droppedOutsideRange]).toEqual([1000, 2000, 2000]);
  });

  it('reduce: "keys A → B" grouped', async () => {
    const d = mk('sum-reduce');
    files(d, { 'a.vmd': motion(1500) });
    const r = await run(['reduce', 'a.vmd', '-o', 'r.vmd', '--json'], d);
    expect(r.code, r.err).toBe(0);
    const after = JSON.parse(r.out).keysAfter as number;
    const line = (await run(['reduce', 'a.vmd', '-o', 'l.vmd'], d)).out;
    expect(line).toContain(`; keys 1,500 → ${after.toLocaleString('en-US')}`);
  });

  it('formatCount groups by thousands', () => {
    expect(formatCount(657032)).toBe('657,032');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1234567.4)).toBe('1,234,567');
  });
});
