// `batch OP DIR` without --recursive leaves the files in sub-folders out (the app's Batch includes them by
// default): the summary says how many, and that --recursive includes them; with --recursive, or with none
// there, it says nothing of the kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { repoRoot } from '../helpers/corpus';
import { buildFixture } from '../helpers/vmd-fixtures';

const cli = (...argv: string[]) => runCliCaptured(argv, repoRoot);
let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'vmd-cli-sub-'));
  const motion = buildFixture({ morphs: [{ name: 'a', frame: 0, weight: 1 }] });
  const input = path.join(tmp, 'in');
  mkdirSync(path.join(input, 'sub', 'deeper'), { recursive: true });
  writeFileSync(path.join(input, 'top.vmd'), motion);
  writeFileSync(path.join(input, 'sub', 'a.vmd'), motion);
  writeFileSync(path.join(input, 'sub', 'deeper', 'b.vmd'), motion);
  // A pose in a sub-folder is not a file trim takes (mirror takes poses now): not counted as left out by the missing --recursive.
  writeFileSync(path.join(input, 'sub', 'p.vpd'), 'Vocaloid Pose Data file\r\n\r\nm.osm;\r\n0;\r\n');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('batch without --recursive', () => {
  it('says how many files in sub-folders were not included, and that --recursive includes them', async () => {
    const r = await cli('batch', 'trim', path.join(tmp, 'in'), '-o', path.join(tmp, 'out1'), '--from', '0', '--to', '10');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ {2}written +1$/m);
    expect(r.out).toContain('  2 files in subfolders not included: --recursive includes them\n');
  });

  it('with --recursive they are processed, and the line is not there', async () => {
    const r = await cli('batch', 'trim', path.join(tmp, 'in'), '-o', path.join(tmp, 'out2'), '--from', '0', '--to', '10', '--recursive');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ {2}written +3$/m);
    expect(r.out).not.toContain('subfolders');
    // Not on a terminal, progress is a line a second and one at the end: the end once.
    const lines = r.err.split('\n').filter((l) => l.startsWith('progress: '));
    expect(lines.filter((l) => l.includes('3/3 files'))).toHaveLength(1);
  });

  it('the end of a run is one progress line, not the same line twice', async () => {
    // Two events say done === total (the last file's and the run's end; in a folder with no motion, the
    // start's and the end's): "progress: 0/0 files  0.0 MB/s  ETA --" was printed twice.
    mkdirSync(path.join(tmp, 'none'), { recursive: true });
    const r = await cli('batch', 'mirror', path.join(tmp, 'none'), '-o', path.join(tmp, 'out4'));
    const lines = r.err.split('\n').filter((l) => l.startsWith('progress: '));
    expect(lines.length).toBe(1);
    expect(lines[0]).toContain('0/0 files');
  });

  it('a folder without sub-folders says nothing of them', async () => {
    const r = await cli('batch', 'mirror', path.join(tmp, 'in', 'sub', 'deeper'), '-o', path.join(tmp, 'out3'));
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('subfolders');
  });
});
