import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { corpusPath, corpusPresent, repoRoot } from '../helpers/corpus';
import { buildFixture } from '../helpers/vmd-fixtures';
import { ensureBuilt } from '../helpers/build';

const cli = (...argv: string[]) => runCliCaptured(argv, repoRoot);

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'vmd-cli-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('vmd-studio --version', () => {
  it('prints package.json’s version, the one the app and the server give', async () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) expect(await cli(flag)).toEqual({ code: 0, out: `${pkg.version}\n`, err: '' });
  });
});

describe('vmd-studio inspect', () => {
  it('prints one JSON object per file with the documented fields', async () => {
    const f = path.join(tmp, 'fixture.vmd');
    writeFileSync(f, buildFixture({ cameras: Array.from({ length: 12 }, (_, i) => ({ frame: i < 2 ? i : i * 10, distance: -40, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 })), blocks: 3 }));
    const r = await cli('inspect', '--json', f);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out.trim());
    expect(o).toMatchObject({
      file: f,
      ok: true,
      format: 'vmd',
      header: 'Vocaloid Motion Data 0002',
      model: 'model',
      kind: 'camera',
      counts: { bone: 0, morph: 0, camera: 12, light: 0, shadow: 0, ik: 0 },
      absentBlocks: ['light', 'shadow', 'ik'],
      lastFrame: 110,
      cameraCuts: 1,
      nonUnitQuaternions: 0,
    });
    expect(o.durationSeconds).toBeCloseTo(110 / 30, 3);
    expect(Array.isArray(o.warnings)).toBe(true);
  });

  it('reports a bad file with ok:false and its error, still prints the others, and exits 1', async () => {
    const good = path.join(tmp, 'good.vmd');
    const bad = path.join(tmp, 'bad.vmd');
    writeFileSync(good, buildFixture({}));
    writeFileSync(bad, Buffer.concat([Buffer.from(buildFixture({})).subarray(0, 50), Buffer.from([0xff, 0xff, 0xff, 0x7f])]));
    const r = await cli('inspect', '--json', bad, good);
    expect(r.code).toBe(1);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ ok: false, error: { code: 'E_VMD_COUNT', offset: 50 } });
    expect(lines[1].ok).toBe(true);
    expect(r.err).toContain('bad.vmd');
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it.skipIf(!corpusPresent)('walks folders, recursively when asked', async () => {
    // Its files are all in sub-folders: without --recursive, one failed line says so (it was an empty answer, exit 0).
    const flat = await cli('inspect', '--json', corpusPath('gene'));
    expect(flat.code).toBe(1);
    expect(flat.out.trim().split('\n').map((l) => JSON.parse(l).error?.code)).toEqual(['E_IO_NOT_FOUND']);
    const deep = await cli('inspect', '--json', '--recursive', corpusPath('gene'));
    expect(deep.out.trim().split('\n')).toHaveLength(7);
  });

  it('is readable for people by default', async () => {
    const f = path.join(tmp, 'human.vmd');
    writeFileSync(f, buildFixture({ bones: Array.from({ length: 12 }, (_, i) => ({ name: 'bone' + (i % 3), frame: i * 5 })) }));
    const r = await cli('inspect', f);
    expect(r.out).toMatch(/motion\s+Vocaloid Motion Data 0002/);
    expect(r.out).toMatch(/length\s+55 frames \(1\.83 s/);
    expect(r.out).toContain('bone 12');
  });
});

describe('vmd-studio sample and convert', () => {
  it.skipIf(!corpusPresent)('samples a fractional frame as JSON in MMD coordinates', async () => {
    const r = await cli('sample', corpusPath('threejs/vmds/wavefile_camera.vmd'), '--frame', '100.5', '--json');
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out);
    expect(o.frame).toBe(100.5);
    const c = o.camera;
    const dist = Math.hypot(c.position[0] - c.target[0], c.position[1] - c.target[1], c.position[2] - c.target[2]);
    expect(dist).toBeCloseTo(Math.abs(c.distance), 4);
    expect(o.light).toBeNull();
  });

  it('prints the self-shadow in force (mode, MMD’s 0–9999 range; the stored distance in --json) and the light in 0–255 too', async () => {
    // Light keys at 0 and 100 (linear between); self-shadow keys at 0, 20 and 50 (a step), stored 0.1 − range / 100000.
    const f = path.join(tmp, 'stage.vmd');
    writeFileSync(f, buildFixture({
      lights: [{ frame: 0, color: [0.2, 0.4, 0.6], direction: [-1, 0, 0] }, { frame: 100, color: [0.6, 0, 1], direction: [1, -1, 0] }],
      shadows: [{ frame: 20, mode: 2, distance: 0.05 }, { frame: 0, mode: 1, distance: 0.01125 }, { frame: 50, mode: 0, distance: 0.1 }],
    }));
    // Frame 25: colour a quarter of the way, 0.3 0.3 0.7 = 76.5 76.5 178.5 of 255; the key at 20 in force: mode 2, 5000.
    const r = await cli('sample', f, '--frame', '25');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('(0–255: 76.5 76.5 178.5)');
    expect(r.out).toMatch(/\nself-shadow: mode 2 {2}distance 5000 \(0–9999, as MMD's panel; stored 0\.050000\)\n/);
    expect((await cli('sample', f, '--frame', '10')).out).toContain('self-shadow: mode 1  distance 8875 ');
    expect((await cli('sample', f, '--frame', '60')).out).toContain('self-shadow: off (mode 0)  distance 0 ');
    const j = JSON.parse((await cli('sample', f, '--frame', '25', '--json')).out);
    expect(j.selfShadow).toEqual({ mode: 2, distance: Math.fround(0.05), range: 5000 });
    j.light.color.forEach((c: number, i: number) => expect(c).toBeCloseTo([0.3, 0.3, 0.7][i], 6));
    expect(JSON.parse((await cli('sample', f, '--frame', '0', '--json')).out).selfShadow).toEqual({ mode: 1, distance: Math.fround(0.01125), range: 8875 });
    // Without self-shadow keys: null, and no line.
    const none = path.join(tmp, 'nolight.vmd');
    writeFileSync(none, buildFixture({ lights: [{ frame: 0, color: [0.6, 0.6, 0.6], direction: [0, -1, 0] }] }));
    expect(JSON.parse((await cli('sample', none, '--frame', '0', '--json')).out).selfShadow).toBeNull();
    expect((await cli('sample', none, '--frame', '0')).out).not.toContain('self-shadow');
  });

  it.skipIf(!corpusPresent)('VMD → JSON → VMD is byte-identical, and an existing OUT is replaced with --overwrite', async () => {
    const src = corpusPath('gene/motion/stand.vmd');
    const j = path.join(tmp, 'stand.json');
    const v = path.join(tmp, 'stand.vmd');
    expect((await cli('convert', src, '-o', j)).code).toBe(0);
    expect((await cli('convert', j, '-o', v)).code).toBe(0);
    expect(readFileSync(v).equals(readFileSync(src))).toBe(true);
    expect((await cli('convert', j, '-o', v, '--overwrite')).code).toBe(0);
    expect(readdirSync(tmp).some((n) => n.startsWith('.vmd-studio-tmp') || n.startsWith('.vmds-'))).toBe(false);
  });

  it('never writes over its own input, --overwrite or not (a bad argument, as in the other commands)', async () => {
    const f = path.join(tmp, 'self.vmd');
    writeFileSync(f, buildFixture({}));
    for (const extra of [[], ['--overwrite']]) {
      const r = await cli('convert', f, '-o', f, ...extra);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/the output must be a different file \(inputs are never modified\)/);
    }
  });

  it.skipIf(!corpusPresent)('VPD → VMD holds the pose at frame 0; VMD → VPD writes the pose at a frame', async () => {
    const vpd = path.join(tmp, '01.vpd');
    copyFileSync(corpusPath('threejs/vpds/01.vpd'), vpd);
    const out = path.join(tmp, '01.vmd');
    expect((await cli('convert', vpd, '-o', out)).code).toBe(0);
    const s = JSON.parse((await cli('sample', out, '--frame', '0', '--json')).out);
    expect(Object.keys(s.bones).length).toBeGreaterThan(10);
    const back = path.join(tmp, 'back.vpd');
    expect((await cli('convert', out, '-o', back, '--frame', '0')).code).toBe(0);
    expect(new TextDecoder('shift_jis').decode(readFileSync(back))).toMatch(/^Vocaloid Pose Data file\r\n/);
  });

  it('a frame given without --frame is told where it goes (not "give exactly one .vmd file") (nulight 7)', async () => {
    const r = await cli('sample', 'stage.vmd', '150');
    expect(r.code).toBe(2);
    expect(r.err).toContain('the frame goes after --frame: vmd-studio sample stage.vmd --frame 150');
    expect(r.err).not.toContain('give exactly one .vmd file');
    // Two files are still two files.
    expect((await cli('sample', 'a.vmd', 'b.vmd', '--frame', '1')).err).toContain('give exactly one .vmd file');
  });

  it('bad arguments exit 2 with usage; a missing file is one line naming it', async () => {
    expect((await cli('sample', 'x.vmd')).code).toBe(2);
    expect((await cli('nonsense')).code).toBe(2);
    expect((await cli('inspect', '--bogus', 'x')).code).toBe(2);
    const r = await cli('sample', path.join(tmp, 'missing.vmd'), '--frame', '1');
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/missing\.vmd: no such file/);
  });
});

describe('the installed bin', () => {
  // The build goes through ensureBuilt (under the build lock, only when a source is newer): rebuilding here
  // unconditionally rewrote dist/cli while another file's CLI child was starting from it (the SIGKILL batch
  // test's CLI then exited at once, in a loaded full run).
  it('runs as `vmd-studio` through the package bin after a build', async () => {
    await ensureBuilt(['node']);
    const help = spawnSync(process.execPath, [path.join(repoRoot, 'electron/cli/vmd-studio.mjs'), '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/inspect/);
    const bad = spawnSync(process.execPath, [path.join(repoRoot, 'electron/cli/vmd-studio.mjs'), 'inspect', '/nonexistent/x.vmd'], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/x\.vmd: no such file/);
    expect(bad.stderr).not.toMatch(/\bat .*\.m?js:\d+/);
  });

  it.skipIf(!corpusPresent)('a reader that stops early (`| head`) gets no stack trace: the rest of the output is dropped, exit 0', async () => {
    await ensureBuilt(['node']);
    const files = readdirSync(corpusPath('gene/motion')).filter((f) => f.endsWith('.vmd')).map((f) => corpusPath(`gene/motion/${f}`));
    expect(files.length).toBeGreaterThan(3);
    // The pipe is closed before the command writes, as `head` closes it after its lines.
    const child = spawn(process.execPath, [path.join(repoRoot, 'electron/cli/vmd-studio.mjs'), 'inspect', ...files, ...files], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(err).not.toMatch(/EPIPE|\bat .*\.m?js:\d+/);
    expect(err).toBe('');
    expect(code).toBe(0);
  });
});
