// What an output that exists gets, on real temp folders through the CLI: every one-file command keeps an
// existing -o file unless --overwrite, except convert, which replaces it keeping OUT.bak (it replaced a 1.6 MB
// dance with a one-frame pose without a word).
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { buildFixture } from '../helpers/vmd-fixtures';
import { useTempDirs } from './batch-helpers';

const mk = useTempDirs();
const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);

const VPD = 'Vocaloid Pose Data file\r\n\r\nmodel.osm;\r\n1;\r\n\r\nBone0{センター\r\n  0.0,1.0,0.0;\r\n  0.0,0.0,0.0,1.0;\r\n}\r\n';
const ascii = (b: Uint8Array, n: number) => String.fromCharCode(...b.subarray(0, n));

describe('convert -o an existing file', () => {
  // convert replaces its -o (README; the project's conformance check converts into the same names again and
  // again), but the file it replaces is kept as OUT.bak (it replaced a 1.6 MB dance with a one-frame pose, silently).
  it('replaces it keeping the previous bytes as OUT.bak, with a warning; --overwrite replaces without a backup; a link at OUT.bak refuses', async () => {
    const d = mk('convert-exists');
    const dance = buildFixture({ bones: [{ name: 'センター', frame: 0 }, { name: 'センター', frame: 30, pos: [1, 0, 0] }] });
    writeFileSync(path.join(d, 'precious.vmd'), dance);
    writeFileSync(path.join(d, 'pose.vpd'), VPD);
    const r = await cli(d, 'convert', 'pose.vpd', '-o', 'precious.vmd');
    expect(r.code).toBe(0);
    expect(r.err).toBe('vmd-studio: warning: precious.vmd: it existed and was replaced; its previous version is kept as precious.vmd.bak (--overwrite replaces without a backup)\n');
    expect(Buffer.compare(readFileSync(path.join(d, 'precious.vmd.bak')), Buffer.from(dance))).toBe(0);
    const written = readFileSync(path.join(d, 'precious.vmd'));
    expect(ascii(written, 20)).toBe('Vocaloid Motion Data');
    expect(written.length).not.toBe(dance.length);
    // --json names the backup.
    const j = await cli(d, 'convert', 'pose.vpd', '-o', 'precious.vmd', '--json');
    expect(j.code).toBe(0);
    expect((JSON.parse(j.out) as { backup: string }).backup).toBe(path.join(d, 'precious.vmd.bak'));
    // --overwrite: no backup written (the .bak left is the one before, now the pose's previous bytes).
    writeFileSync(path.join(d, 'other.vmd'), dance);
    const o = await cli(d, 'convert', 'pose.vpd', '-o', 'other.vmd', '--overwrite', '--quiet');
    expect(o).toEqual({ code: 0, out: '', err: '' });
    expect(existsSync(path.join(d, 'other.vmd.bak'))).toBe(false);
    // A link at OUT.bak: nothing is written through it, and the output is kept (the refusal of the other commands).
    writeFileSync(path.join(d, 'third.vmd'), dance);
    writeFileSync(path.join(d, 'elsewhere.txt'), 'keep');
    symlinkSync(path.join(d, 'elsewhere.txt'), path.join(d, 'third.vmd.bak'));
    const l = await cli(d, 'convert', 'pose.vpd', '-o', 'third.vmd');
    expect(l.code).toBe(1);
    expect(l.err).toBe('vmd-studio: third.vmd: output exists (use --overwrite to replace it); its backup cannot be kept (third.vmd.bak is a symbolic link (not followed))\n');
    expect(Buffer.compare(readFileSync(path.join(d, 'third.vmd')), Buffer.from(dance))).toBe(0);
    expect(readFileSync(path.join(d, 'elsewhere.txt'), 'utf8')).toBe('keep');
  });
});

describe('--overwrite and a read-only output (owner write bit off)', () => {
  // Judged by the mode, so root (these tests, a container) is refused too: the replacing rename needs only the
  // folder's permission, and root passes access() whatever the mode.
  const READ_ONLY = 'the file is read-only, so --overwrite does not replace it (make it writable first)';

  it('a one-file command refuses it before the work (exit 1, the file and its mode as they were); a writable one is replaced', async () => {
    const d = mk('read-only');
    writeFileSync(path.join(d, 'dance.vmd'), buildFixture({ bones: [{ name: '左腕', frame: 0, pos: [1, 2, 3] }] }));
    writeFileSync(path.join(d, 'pose.vpd'), VPD);
    const kept = new Uint8Array([1, 2, 3]);
    for (const [name, argv] of [
      ['a.vmd', ['mirror', 'dance.vmd', '-o', 'a.vmd', '--overwrite']],
      ['b.vmd', ['convert', 'pose.vpd', '-o', 'b.vmd', '--overwrite']],
      ['c.vmd', ['merge', 'dance.vmd', 'dance.vmd', '-o', 'c.vmd', '--overwrite']],
      ['d.bvh', ['export-bvh', 'dance.vmd', '-o', 'd.bvh', '--overwrite']],
    ] as const) {
      const out = path.join(d, name);
      writeFileSync(out, kept);
      chmodSync(out, 0o444);
      const r = await cli(d, ...argv);
      expect(r, argv.join(' ')).toEqual({ code: 1, out: '', err: `vmd-studio: ${name}: ${READ_ONLY}\n` });
      expect([...readFileSync(out)]).toEqual([1, 2, 3]);
      expect(statSync(out).mode & 0o777).toBe(0o444);
      // --json: the error document names the code a script tells it by.
      const j = await cli(d, ...argv, '--json');
      expect(JSON.parse(j.out).error).toMatchObject({ code: 'E_IO_DENIED', message: READ_ONLY });
      chmodSync(out, 0o644);
      expect((await cli(d, ...argv)).code, argv.join(' ')).toBe(0);
      expect(readFileSync(out).length).toBeGreaterThan(3);
    }
  });

  it('a batch fails that file (one failed row, exit 1) and writes the others', async () => {
    const d = mk('read-only-batch');
    mkdirSync(path.join(d, 'in'));
    mkdirSync(path.join(d, 'out'));
    const vmd = buildFixture({ bones: [{ name: '左腕', frame: 0, pos: [1, 2, 3] }] });
    writeFileSync(path.join(d, 'in', 'a.vmd'), vmd);
    writeFileSync(path.join(d, 'in', 'b.vmd'), vmd);
    writeFileSync(path.join(d, 'out', 'a.vmd'), new Uint8Array([9]));
    chmodSync(path.join(d, 'out', 'a.vmd'), 0o444);
    writeFileSync(path.join(d, 'out', 'b.vmd'), new Uint8Array([9]));
    const r = await cli(d, 'batch', 'mirror', 'in', '-o', 'out', '--overwrite', '--json', '--quiet');
    expect(r.code).toBe(1);
    const rows = (JSON.parse(r.out) as { results: { input: string; ok: boolean; error?: { code: string; message: string } }[] }).results;
    const byName = Object.fromEntries(rows.map((x) => [path.basename(x.input), x]));
    expect(byName['a.vmd']).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED', message: READ_ONLY } });
    expect(byName['b.vmd'].ok).toBe(true);
    expect([...readFileSync(path.join(d, 'out', 'a.vmd'))]).toEqual([9]);
    expect(readFileSync(path.join(d, 'out', 'b.vmd')).length).toBe(vmd.length);
    expect(r.err).toContain(`vmd-studio: out/a.vmd: ${READ_ONLY}\n`);
  });
});
