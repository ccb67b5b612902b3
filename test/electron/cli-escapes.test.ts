/**
 * What the command line prints cannot drive the terminal, and what it writes stays in a VMD's range: a file
 * name holding `ESC ]0;…BEL` (which set the terminal's title) or a line feed is printed with those escaped
 * as `\u00XX`, in every command's lines and JSON alike; `build POSE@FRAME` past the last frame a VMD holds
 * is refused as shift and speed refuse it (it wrote frame 10000000000 as 1410065408 and exited 0).
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { escapeControls } from '../../electron/cli/format';
import { writeVpd } from '../../shared/vmd';
import { tempDir, type TempDir } from '../helpers/build';
import { corpusPath } from '../helpers/corpus';

let tmp: TempDir;
beforeAll(() => {
  tmp = tempDir('vmd-cli-escapes-');
});
afterAll(() => tmp.remove());

async function cli(argv: string[], isTTY = false) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), cwd: tmp.dir, isTTY });
  return { code, out, err };
}

/** Any C0 control but tab and line feed, DEL or C1: what a terminal acts on. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe.runIf(process.platform !== 'win32')('control characters in file names', () => {
  const title = 'evil\u001b]0;pwned\u0007';
  let dir: string;
  beforeAll(() => {
    dir = path.join(tmp.dir, 'names');
    mkdirSync(dir);
    copyFileSync(corpusPath('gene/motion/stand.vmd'), path.join(dir, `${title}.vmd`));
    writeFileSync(path.join(dir, 'bad\u009b31m.vmd'), 'not a motion');
    copyFileSync(corpusPath('gene/motion/stand.vmd'), path.join(dir, 'two\nlines.vmd'));
  });

  it('inspect prints them escaped, in its table, its errors and its JSON (still JSON, same names)', async () => {
    const human = await cli(['inspect', dir]);
    expect(human.code).toBe(1); // the file that is not a motion
    for (const s of [human.out, human.err]) expect(s).not.toMatch(CONTROL);
    expect(human.out).toContain('evil\\u001b]0;pwned\\u0007.vmd');
    expect(human.out).toContain('two\\u000alines.vmd');
    expect(human.err).toContain('bad\\u009b31m.vmd');
    const json = await cli(['inspect', '--json', dir]);
    expect(json.out).not.toMatch(CONTROL);
    const files = json.out.trim().split('\n').map((l) => JSON.parse(l).file as string);
    expect(files.map((f) => path.basename(f)).sort()).toEqual(['bad\u009b31m.vmd', `${title}.vmd`, 'two\nlines.vmd'].sort());
  });

  it('batch lines, failures and its progress bar: escaped, the bar keeping its own cursor control', async () => {
    const r = await cli(['batch', 'mirror', dir, '-o', path.join(tmp.dir, 'out')], true);
    expect(r.code).toBe(1);
    expect(r.out).not.toMatch(CONTROL);
    expect(r.out).toContain('bad\\u009b31m.vmd');
    // The progress bar's carriage return and erase-line are the only controls on stderr.
    expect(r.err.replace(/\r|\u001b\[K/g, '')).not.toMatch(CONTROL);
    expect(r.err).toContain('\u001b[K');
    expect(existsSync(path.join(tmp.dir, 'out', `${title}.vmd`))).toBe(true);
  });

  it('escapes C0 (but tab and line feed), DEL and C1 as \\u00XX, and names lose their line feeds too', () => {
    expect(escapeControls('a\u001b[31mb\u0007\tc\nd\u007f\u0085\u009b')).toBe('a\\u001b[31mb\\u0007\tc\nd\\u007f\\u0085\\u009b');
    expect(escapeControls('a\tb\nc', false)).toBe('a\\u0009b\\u000ac');
    expect(escapeControls('名前 ok')).toBe('名前 ok');
  });
});

describe('build POSE@FRAME', () => {
  it('refuses a frame past the last one a VMD holds (4294967295), as shift and speed do; takes the last one', async () => {
    const pose = path.join(tmp.dir, 'in.vpd');
    writeFileSync(pose, writeVpd({ model: 'm.osm', bones: [{ name: 'センター', position: [0, 1, 0], rotation: [0, 0, 0, 1] }], morphs: [] }));
    for (const frame of ['10000000000', '4294967296', '9'.repeat(400)]) {
      const out = path.join(tmp.dir, `far-${frame.length}.vmd`);
      const r = await cli(['build', `${pose}@${frame}`, '-o', out]);
      expect(r.code, frame).not.toBe(0);
      expect(r.err, frame).toMatch(/exceeds the largest frame number a VMD can hold \(4294967295\)|must be a whole number/);
      expect(existsSync(out), frame).toBe(false);
    }
    const last = path.join(tmp.dir, 'last.vmd');
    const ok = await cli(['build', `${pose}@0`, `${pose}@4294967295`, '-o', last]);
    expect(ok.code).toBe(0);
    const info = await cli(['inspect', '--json', last]);
    expect(JSON.parse(info.out).lastFrame).toBe(4294967295);
  });
});
