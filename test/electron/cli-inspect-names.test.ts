// inspect on real temp folders through the CLI: a file whose name says another kind than its first bytes is
// described as what it is, `ok` (it could be read) with a warning and `nameMismatch` (an upload checker saw
// `ok: true` and nothing else for laugh.vpd holding a VMD, which MMD and the app refuse).
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { buildFixture } from '../helpers/vmd-fixtures';
import { useTempDirs } from './batch-helpers';

const mk = useTempDirs();
const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);

const VPD = 'Vocaloid Pose Data file\r\n\r\nmodel.osm;\r\n1;\r\n\r\nBone0{センター\r\n  0.0,1.0,0.0;\r\n  0.0,0.0,0.0,1.0;\r\n}\r\n';
/** A PNG's signature and IHDR chunk: 16 × 16 pixels. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 16, 0, 0, 0, 16, 8, 6, 0, 0, 0]);

describe('inspect: a name that says another kind', () => {
  it('is read as what its bytes say (ok: true), warned of in the table and in --json (warnings, nameMismatch); a well-named file has neither', async () => {
    const d = mk('inspect-names');
    const vmd = buildFixture({ bones: [{ name: 'センター', frame: 0 }, { name: 'センター', frame: 10, pos: [1, 0, 0] }] });
    writeFileSync(path.join(d, 'laugh.vpd'), vmd);
    writeFileSync(path.join(d, 'posed.vmd'), VPD);
    writeFileSync(path.join(d, 'fake.vmd'), PNG);
    writeFileSync(path.join(d, 'dance.vmd'), vmd);
    const r = await cli(d, 'inspect', '--json', 'laugh.vpd', 'posed.vmd', 'fake.vmd', 'dance.vmd');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l) as { ok: boolean; format: string; warnings: string[]; nameMismatch?: unknown });
    expect(lines.map((l) => [l.ok, l.format, l.nameMismatch ?? null])).toEqual([
      [true, 'vmd', { extension: '.vpd', kind: 'vmd' }],
      [true, 'vpd', { extension: '.vmd', kind: 'vpd' }],
      [true, 'image', { extension: '.vmd', kind: 'png' }],
      [true, 'vmd', null],
    ]);
    expect(lines[0].warnings).toContain('a VMD motion named .vpd: MMD and VMD Studio open a file by its extension and refuse this one; rename it laugh.vmd');
    expect(lines[1].warnings).toContain('a VPD pose named .vmd: MMD and VMD Studio open a file by its extension and refuse this one; rename it posed.vpd');
    expect(lines[2].warnings).toEqual(['a PNG image named .vmd: MMD and VMD Studio open a file by its extension and refuse this one; rename it fake.png']);
    expect(lines[3].warnings.some((w) => w.includes('named'))).toBe(false);
    const t = await cli(d, 'inspect', 'laugh.vpd');
    expect(t.code).toBe(0);
    expect(t.out).toContain('\n  warning a VMD motion named .vpd: MMD and VMD Studio open a file by its extension and refuse this one; rename it laugh.vmd\n');
  });
});

describe('inspect: a folder with no file it reads', () => {
  // It printed nothing and exited 0 for all three: a loop over uploads got an empty answer.
  const NONE = 'a folder with no .vmd, .vpd, .bvh or .vrma file';

  it('an empty folder, a folder named x.vmd, a folder of other files: said (stderr, a failed --json line), exit 1', async () => {
    const d = mk('inspect-empty');
    mkdirSync(path.join(d, 'empty'));
    mkdirSync(path.join(d, 'x.vmd'));
    mkdirSync(path.join(d, 'notes'));
    writeFileSync(path.join(d, 'notes', 'readme.txt'), 'hello');
    for (const name of ['empty', 'x.vmd', 'notes']) {
      const t = await cli(d, 'inspect', name);
      expect(t.code, name).toBe(1);
      expect(t.err).toBe(`vmd-studio: ${name}: ${NONE} (sub-folders are read with --recursive)\n`);
      const j = await cli(d, 'inspect', '--json', '--recursive', name);
      expect(j.code).toBe(1);
      expect(JSON.parse(j.out)).toEqual({ file: path.join(d, name), ok: false, error: { code: 'E_IO_NOT_FOUND', message: NONE, offset: null } });
    }
  });

  it('a folder with a file, and one whose files are only in sub-folders with --recursive, are said as before', async () => {
    const d = mk('inspect-some');
    mkdirSync(path.join(d, 'deep', 'inner'), { recursive: true });
    writeFileSync(path.join(d, 'deep', 'inner', 'dance.vmd'), buildFixture({ bones: [{ name: 'センター', frame: 0 }] }));
    const r = await cli(d, 'inspect', '--json', '--recursive', 'deep');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ file: path.join(d, 'deep', 'inner', 'dance.vmd'), ok: true, format: 'vmd' });
    expect(r.err).toBe('');
  });
});
