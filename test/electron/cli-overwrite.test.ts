// What an output that exists gets, on real temp folders through the CLI: every one-file command keeps an
// existing -o file unless --overwrite (convert replaced it: a 1.6 MB dance became a one-frame pose).
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
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
