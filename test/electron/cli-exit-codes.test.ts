// Exit codes that mean one thing in every command (a scripting pass: a pose given to speed was 2, judged by its
// name, a model given to mirror as a motion 1; mirror --model MOTION 2 where retarget --to MOTION was 1; an
// unwritable --report ran the whole batch and then failed with "failed 0"; batch -o FILE failed every input), and
// README's list of error codes, checked against the codes the source defines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { buildFixture } from '../helpers/vmd-fixtures';
import { ERROR_CODES } from '../../shared/vmd/errors';
import { repoRoot } from '../helpers/corpus';
import { ballsPmx } from '../helpers/pmx-balls';

let tmp: string;
const cli = (...argv: string[]) => runCliCaptured(argv, tmp);
const motion = buildFixture({ bones: [{ name: 'センター', frame: 0 }, { name: 'センター', frame: 30, pos: [1, 0, 0] }] });

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'vmd-cli-exit-'));
  writeFileSync(path.join(tmp, 'm.vmd'), motion);
  writeFileSync(path.join(tmp, 'p.vpd'), 'Vocaloid Pose Data file\r\n\r\nm.osm;\r\n0;\r\n');
  writeFileSync(path.join(tmp, 'model.pmx'), ballsPmx([{ centre: [0, 0, 0], radius: 1, diffuse: [1, 1, 1, 1], ambient: [0, 0, 0], flags: 0, toon: null }]));
  mkdirSync(path.join(tmp, 'in'));
  writeFileSync(path.join(tmp, 'in', 'a.vmd'), motion);
  writeFileSync(path.join(tmp, 'afile'), 'x');
  mkdirSync(path.join(tmp, 'repdir'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('exit status', () => {
  it('an input of the wrong kind is 1 whether told by name or by content, whichever command', async () => {
    const byName = await cli('speed', 'p.vpd', '--factor', '2', '-o', 'o1.vmd', '--json');
    expect(byName.code).toBe(1);
    expect(JSON.parse(byName.out)).toMatchObject({ ok: false, error: { code: 'E_VMD_MAGIC' } });
    expect(byName.err).toContain('p.vpd: a VPD pose, not a VMD motion');
    // By content: a model named .vmd.
    writeFileSync(path.join(tmp, 'model-named.vmd'), readFileSync(path.join(tmp, 'model.pmx')));
    expect((await cli('speed', 'model-named.vmd', '--factor', '2', '-o', 'o2.vmd')).code).toBe(1);
    // A motion where a model is wanted: mirror's --model as retarget's --to.
    const mirror = await cli('mirror', 'm.vmd', '--model', 'm.vmd', '-o', 'o3.vmd');
    const retarget = await cli('retarget', 'm.vmd', '--to', 'm.vmd', '-o', 'o4.vmd');
    expect([mirror.code, retarget.code]).toEqual([1, 1]);
    expect(mirror.err).toContain('m.vmd: a VMD motion, not a PMX or PMD model');
    for (const f of ['o1.vmd', 'o2.vmd', 'o3.vmd', 'o4.vmd']) expect(existsSync(path.join(tmp, f))).toBe(false);
  });

  it('batch -o naming a file is a usage error (2), nothing processed', async () => {
    const r = await cli('batch', 'mirror', 'in', '-o', 'afile', '--json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    expect(r.err).toContain('-o afile is a file');
    expect(readFileSync(path.join(tmp, 'afile'), 'utf8')).toBe('x');
  });

  it('a --report that cannot be written is a usage error before the run: no output folder made', async () => {
    const r = await cli('batch', 'mirror', 'in', '-o', 'out-rep', '--report', 'repdir');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--report repdir is a folder');
    expect(existsSync(path.join(tmp, 'out-rep'))).toBe(false);
  });
});

describe("README's error codes", () => {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('<!-- error-codes:start -->'), end = readme.indexOf('<!-- error-codes:end -->');
  const listed = readme.slice(start, end).split('\n').filter((l) => l.startsWith('- `E_')).map((l) => /^- `(E_[A-Z0-9_]+)` \S/.exec(l)?.[1]);

  it('lists every code the source defines, once each, with a line saying what it is', () => {
    expect(start).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(start);
    expect(listed).not.toContain(undefined);
    expect([...listed].sort()).toEqual([...ERROR_CODES].sort());
  });
});
