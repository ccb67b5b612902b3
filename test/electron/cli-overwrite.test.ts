// What an output that exists gets, on real temp folders through the CLI: every one-file command keeps an
// existing -o file unless --overwrite (convert replaced it: a 1.6 MB dance became a one-frame pose).
import { describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { buildFixture } from '../helpers/vmd-fixtures';
import { useTempDirs } from './batch-helpers';

const mk = useTempDirs();
const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);

const VPD = 'Vocaloid Pose Data file\r\n\r\nmodel.osm;\r\n1;\r\n\r\nBone0{センター\r\n  0.0,1.0,0.0;\r\n  0.0,0.0,0.0,1.0;\r\n}\r\n';
const ascii = (b: Uint8Array, n: number) => String.fromCharCode(...b.subarray(0, n));

describe('convert -o an existing file', () => {
  it('is refused as by every other command (exit 1, the file untouched); --overwrite replaces it', async () => {
    const d = mk('convert-exists');
    const dance = buildFixture({ bones: [{ name: 'センター', frame: 0 }, { name: 'センター', frame: 30, pos: [1, 0, 0] }] });
    writeFileSync(path.join(d, 'precious.vmd'), dance);
    writeFileSync(path.join(d, 'pose.vpd'), VPD);
    const r = await cli(d, 'convert', 'pose.vpd', '-o', 'precious.vmd');
    expect(r).toEqual({ code: 1, out: '', err: 'vmd-studio: precious.vmd: output exists (use --overwrite to replace it)\n' });
    expect(Buffer.compare(readFileSync(path.join(d, 'precious.vmd')), Buffer.from(dance))).toBe(0);
    // The same refusal a mirror gives, under --json too.
    const j = await cli(d, 'convert', 'pose.vpd', '-o', 'precious.vmd', '--json');
    expect(j.code).toBe(1);
    expect(JSON.parse(j.out)).toEqual({ file: path.join(d, 'precious.vmd'), ok: false, error: { code: 'E_IO_EXISTS', message: 'output exists (use --overwrite to replace it)' } });
    const m = await cli(d, 'mirror', 'precious.vmd', '-o', 'precious.vmd.vmd');
    expect(m.code).toBe(0);
    expect((await cli(d, 'mirror', 'precious.vmd', '-o', 'precious.vmd.vmd')).err).toBe(r.err.replace('precious.vmd:', 'precious.vmd.vmd:'));
    const o = await cli(d, 'convert', 'pose.vpd', '-o', 'precious.vmd', '--overwrite', '--quiet');
    expect(o).toEqual({ code: 0, out: '', err: '' });
    const written = readFileSync(path.join(d, 'precious.vmd'));
    expect(ascii(written, 20)).toBe('Vocaloid Motion Data');
    expect(written.length).not.toBe(dance.length);
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
