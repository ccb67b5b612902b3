/**
 * Bounds of the app services on real temp folders: the recent-list check of an opened motion does not hold
 * other requests (a large pose is not parsed on the main thread), the settings' `ui` bag cannot grow call
 * by call and a window size must be one a screen can have, and a file whose name is not UTF-8 text is
 * reported as such (not "no such file") by the listing, the CLI and the batch.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServices, dispatch } from '../../electron/services';
import { noDialogs } from '../../electron/services/dialog-service';
import { normaliseSettings } from '../../electron/services/settings-service';
import { listMotionFiles, NOT_UTF8_NAME } from '../../electron/fs/files';
import { loadMotion } from '../../electron/cli/load';
import { runCli } from '../../electron/cli/main';
import { runBatch } from '../../electron/batch/engine';
import { MAX_UI_BYTES, MAX_UI_KEYS, MAX_WINDOW_EXTENT } from '../../shared/ipc/validate';
import { tempDir, type TempDir } from '../helpers/build';
import { corpusPath } from '../helpers/corpus';

let tmp: TempDir;
let dir: string;
beforeEach(() => {
  tmp = tempDir('vmd-service-bounds-');
  dir = tmp.dir;
});
afterEach(() => tmp.remove());

const services = (settingsDir = path.join(dir, 'settings')) =>
  createServices({
    settingsDir,
    dialogs: noDialogs,
    emit: () => undefined,
    runBatch,
    appInfo: { name: 'VMD Studio', version: '0', mode: 'browser', versions: { node: process.versions.node } },
  });

/** A VPD of `n` bones as ASCII text (Shift_JIS and ASCII agree there). */
function bigPose(n: number): Buffer {
  const parts = [`Vocaloid Pose Data file\r\n\r\nmodel.osm;\t\t// parent\r\n${n};\r\n\r\n`];
  for (let i = 0; i < n; i++) parts.push(`Bone${i}{b${i}\r\n  0.500000,1.250000,-0.500000;\t\t\t\t// trans x,y,z\r\n  0.000000,0.000000,0.000000,1.000000;\t\t// Quaternion x,y,z,w\r\n}\r\n\r\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

describe('the recent-list check', () => {
  it('a 40 MB pose is judged by its head, not parsed on the main thread (which held every other request); a small one is parsed', async () => {
    // Its last section is broken: only a whole parse would see it, and the old check made one.
    const pose = path.join(dir, 'big.vpd');
    writeFileSync(pose, Buffer.concat([bigPose(300_000), Buffer.from('Bone{broken\r\n1,2;\r\n')]));
    const small = path.join(dir, 'small.vpd');
    writeFileSync(small, Buffer.concat([bigPose(10), Buffer.from('Bone{broken\r\n1,2;\r\n')]));
    const s = services();
    let worst = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 5);
    try {
      for (const f of [pose, small]) expect((await s.handlers.openFile(f)).ok).toBe(true); // the bytes come back either way
    } finally {
      clearInterval(ticker);
    }
    console.log(`opening a 40 MB pose: the event loop's longest pause ${worst.toFixed(0)} ms (it was the whole parse: 2–5 s here, 23 s for 91 MiB)`);
    expect((await s.recent.list()).map((x) => x.path)).toEqual([pose]);
  });
});

describe('settings bounds', () => {
  it('refuses a window of 1e308 pixels (or one off any screen) and reads a stored one back as the default', async () => {
    const h = services().handlers;
    for (const window of [
      { width: 1e308, height: 700, maximized: false },
      { width: 1200, height: MAX_WINDOW_EXTENT + 1, maximized: false },
      { x: -1e12, y: 0, width: 1200, height: 700, maximized: false },
      { width: 0, height: 700, maximized: false },
    ]) {
      expect(await dispatch(h, 'setSettings', [{ window }]), JSON.stringify(window)).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    }
    expect(await dispatch(h, 'setSettings', [{ window: { x: 10, y: 20, width: 1600, height: 900, maximized: false } }])).toMatchObject({ ok: true, value: { window: { width: 1600 } } });
    // A settings file edited by hand (or written by an older version) is clamped on reading.
    expect(normaliseSettings({ window: { width: 1e308, height: 1e308, x: 1e308, maximized: false } }).window).toEqual({ width: 1400, height: 900, maximized: false });
  });

  it(`bounds the ui bag once merged (${MAX_UI_KEYS} keys, ${MAX_UI_BYTES / 1024} KiB): forty calls cannot grow settings.json`, async () => {
    const h = services().handlers;
    const file = path.join(dir, 'settings', 'settings.json');
    let refused = 0;
    for (let call = 0; call < 40; call++) {
      // Each call on its own is a bag a panel could send; together they were 35 MiB.
      const ui: Record<string, string> = {};
      for (let k = 0; k < 10; k++) ui[`panel${call}.${k}`] = 'x'.repeat(4000);
      const r = await dispatch(h, 'setSettings', [{ ui }]);
      if (!r.ok) {
        refused++;
        expect(r.error).toMatchObject({ code: 'E_ARGUMENT', message: expect.stringMatching(/ui is \d+ characters of JSON; at most 65536/) });
      }
    }
    expect(refused).toBeGreaterThan(30);
    expect(statSync(file).size).toBeLessThan(MAX_UI_BYTES + 4096);
    // Each call is bounded too: too many keys, a key or a value too long, a number that is not finite.
    const many: Record<string, number> = {};
    for (let k = 0; k <= MAX_UI_KEYS; k++) many[`k${k}`] = k;
    expect(await dispatch(h, 'setSettings', [{ ui: many }])).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT', message: expect.stringMatching(/257 keys; at most 256/) } });
    expect(await dispatch(h, 'setSettings', [{ ui: { ['k'.repeat(200)]: 1 } }])).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    expect(await dispatch(h, 'setSettings', [{ ui: { a: 'x'.repeat(5000) } }])).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    expect(await dispatch(h, 'setSettings', [{ ui: { a: Infinity } }])).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    // What a panel really stores still works, and the stored bag is what it was.
    expect(await dispatch(h, 'setSettings', [{ ui: { 'timeline.follow': 'smooth' } }])).toMatchObject({ ok: true, value: { ui: { 'timeline.follow': 'smooth' } } });
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(JSON.stringify(stored.ui).length).toBeLessThanOrEqual(MAX_UI_BYTES);
  });
});

describe.runIf(process.platform === 'linux')('a file name that is not UTF-8 text', () => {
  /** `<dir>/<0xFF 0xFE>.vmd`, written by bytes (Linux file names are bytes). */
  const badName = () => {
    const p = Buffer.concat([Buffer.from(path.join(dir, 'in') + '/'), Buffer.from([0xff, 0xfe]), Buffer.from('.vmd')]);
    mkdirSync(path.join(dir, 'in'), { recursive: true });
    writeFileSync(p, readFileSync(corpusPath('gene/motion/stand.vmd')));
    writeFileSync(path.join(dir, 'in', 'ok.vmd'), readFileSync(corpusPath('gene/motion/stand.vmd')));
  };

  it('the listing says so instead of listing a name that reaches no file', async () => {
    badName();
    const { files, errors } = await listMotionFiles([path.join(dir, 'in')]);
    expect(files.map((f) => f.relative)).toEqual(['ok.vmd']);
    expect(errors).toEqual([{ code: 'E_IO_NAME_NOT_UTF8', message: NOT_UTF8_NAME, file: path.join(dir, 'in', '\uFFFD\uFFFD.vmd') }]);
    // A path that came through as text (a command-line argument) names it with U+FFFD: not "no such file".
    const l = await loadMotion(path.join(dir, 'in', '\uFFFD\uFFFD.vmd'), 'inspect');
    expect(l).toMatchObject({ ok: false, error: { code: 'E_IO_NAME_NOT_UTF8', message: NOT_UTF8_NAME } });
  });

  it('inspect and batch report it by what is wrong, and go on with the rest', async () => {
    badName();
    let err = '';
    const io = { stdout: () => undefined, stderr: (s: string) => void (err += s), cwd: dir, isTTY: false };
    expect(await runCli(['inspect', path.join(dir, 'in')], io)).toBe(1);
    expect(err).toContain(NOT_UTF8_NAME);
    expect(err).not.toMatch(/no such file/);
    err = '';
    expect(await runCli(['batch', 'mirror', path.join(dir, 'in'), '-o', path.join(dir, 'out'), '--quiet'], io)).toBe(1);
    expect(err).toContain(NOT_UTF8_NAME);
    expect(statSync(path.join(dir, 'out', 'ok.vmd')).size).toBeGreaterThan(0);
  });
});
