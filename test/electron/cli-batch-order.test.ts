// A batch's results in input-path order (a new user's scripting pass: `batch mirror … --json --jobs 4` three times
// gave `results` in three orders, the order workers finished, so two reports of the same folder differed; a listing
// error such as a dangling link came first whatever its name). The --json results, the --report file and the
// table's failed files follow the folder walk: each folder's names in order, a folder's files before a sibling
// folder's whose name starts the same (sub/d.vmd before `sub x/e.vmd`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { buildFixture } from '../helpers/vmd-fixtures';
import { ensureBuilt } from '../helpers/build';

let tmp: string;
const small = buildFixture({ bones: [{ name: 'センター', frame: 0 }, { name: 'センター', frame: 30, pos: [1, 0, 0] }] });
// Long enough that the workers given the small files after it finish first.
const big = buildFixture({ bones: Array.from({ length: 40000 }, (_, i) => ({ name: i % 2 ? '左腕' : '右腕', frame: i, pos: [i % 7, 0, 0] })) });

const EXPECTED = ['a.vmd', 'b.vmd', 'c.vmd', 'sub/d.vmd', 'sub x/e.vmd', 'z.vmd'];

beforeAll(() => {
  ensureBuilt(['node']); // the worker threads' script
  tmp = mkdtempSync(path.join(tmpdir(), 'vmd-cli-batch-order-'));
  const inDir = path.join(tmp, 'in');
  mkdirSync(path.join(inDir, 'sub'), { recursive: true });
  mkdirSync(path.join(inDir, 'sub x'));
  writeFileSync(path.join(inDir, 'a.vmd'), big);
  writeFileSync(path.join(inDir, 'b.vmd'), small);
  writeFileSync(path.join(inDir, 'c.vmd'), 'not a motion\n'); // fails when read
  writeFileSync(path.join(inDir, 'sub', 'd.vmd'), small);
  writeFileSync(path.join(inDir, 'sub x', 'e.vmd'), small);
  symlinkSync(path.join(tmp, 'nowhere.vmd'), path.join(inDir, 'z.vmd')); // fails when listed
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const rel = (p: string) => path.relative(path.join(tmp, 'in'), p).split(path.sep).join('/');

describe('batch results in input-path order', () => {
  it('--json results and --report rows are in path order on every run with --jobs 4', async () => {
    for (let run = 0; run < 3; run++) {
      const r = await runCliCaptured(['batch', 'mirror', 'in', '-o', `out${run}`, '--recursive', '--jobs', '4', '--json', '--report', `rep${run}.json`], tmp);
      expect(r.code, r.err).toBe(1); // c.vmd and z.vmd fail
      const body = JSON.parse(r.out) as { results: { input: string }[] };
      expect(body.results.map((x) => rel(x.input))).toEqual(EXPECTED);
      const report = JSON.parse(readFileSync(path.join(tmp, `rep${run}.json`), 'utf8')) as { results: { input: string }[] };
      expect(report.results.map((x) => rel(x.input))).toEqual(EXPECTED);
    }
  });

  it("the table's failed files are in path order (a listing error among them, not first)", async () => {
    const r = await runCliCaptured(['batch', 'mirror', 'in', '-o', 'outT', '--recursive', '--jobs', '4'], tmp);
    expect(r.code).toBe(1);
    const failed = r.out.slice(r.out.indexOf('failed files:')).split('\n').slice(1).filter((l) => l.startsWith('    ')).map((l) => l.trim().split(':')[0]);
    expect(failed).toEqual([path.join('in', 'c.vmd'), path.join('in', 'z.vmd')]);
  });
});
