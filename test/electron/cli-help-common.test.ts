// --help says what the shared options do, the same in every command (a scripting pass: every usage listed
// [--overwrite] [--json] [--quiet] and none explained them; preset never said what --from/--to count; retarget gave
// no tolerance defaults; the top-level help had no exit codes nor --version; -q worked on mirror, not on convert).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { commands } from '../../electron/cli/main';
import { runCliCaptured } from '../helpers/cli-in-process';
import { buildFixture } from '../helpers/vmd-fixtures';
import { repoRoot } from '../helpers/corpus';

let tmp: string;
const cli = (...argv: string[]) => runCliCaptured(argv, tmp);
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'vmd-cli-help-'));
  writeFileSync(path.join(tmp, 'm.vmd'), buildFixture({ bones: [{ name: 'センター', frame: 0 }, { name: 'センター', frame: 30, pos: [1, 0, 0] }] }));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const OVERWRITE = '--overwrite      replace an existing output';
const JSON_LINE = '--json           the result as one line of JSON on standard output, {"ok": true, …}';
const QUIET = '-q, --quiet      no summary line';

describe('--help', () => {
  it.each(Object.keys(commands))('%s --help explains each shared option its usage names, in the same words', async (name) => {
    const r = await cli(name, '--help');
    expect(r.code).toBe(0);
    const usage = commands[name].usage;
    for (const [option, line] of [['--overwrite', OVERWRITE], ['--json', JSON_LINE], ['--quiet', QUIET]]) {
      // A usage that explains the option on a line of its own keeps its own words (convert's --overwrite keeps
      // a backup), and the common line is not added to contradict or repeat it; otherwise the common line is there.
      const ownLine = new RegExp(`^\\s+(-\\w, )?${option}\\b\\s+\\S`, 'm').test(usage);
      if (ownLine) expect(r.out, option).not.toContain(line);
      else if (new RegExp(`${option}\\b`).test(usage)) expect(r.out, option).toContain(line);
      else expect(r.out, option).not.toContain(line);
    }
  });

  it('preset says --from/--to are frames, both included; retarget gives its tolerance defaults', async () => {
    const preset = (await cli('preset', '--help')).out.replace(/\s+/g, ' ');
    expect(preset).toContain('--from A --to B: only the keys at frames A to B, both included (frame numbers; default the whole motion)');
    const retarget = (await cli('retarget', '--help')).out.replace(/\s+/g, ' ');
    expect(retarget).toContain('--pos-tol (units, default 0.01), --rot-tol (degrees, default 0.1)');
  });

  it('the top-level help lists the exit statuses and --version; --version prints the package version', async () => {
    const h = await cli('--help');
    expect(h.out).toContain('Exit status: 0 success; 1 a file failed');
    expect(h.out).toContain('2 a bad command line');
    expect(h.out).toContain('vmd-studio --version (-v) prints the version');
    const version = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    expect(await cli('--version')).toMatchObject({ code: 0, out: `${version}\n` });
  });
});

describe('short options', () => {
  it('-q is --quiet in convert as in mirror; -j and -r are refused by a command without --jobs/--recursive', async () => {
    const c = await cli('convert', 'm.vmd', '-o', 'm.json', '-q');
    expect([c.code, c.out]).toEqual([0, '']);
    const m = await cli('mirror', 'm.vmd', '-o', 'mm.vmd', '-q');
    expect([m.code, m.out]).toEqual([0, '']);
    const j = await cli('convert', 'm.vmd', '-o', 'm2.json', '-j', '2');
    expect(j.code).toBe(2);
    expect(j.err).toContain('unknown option -j');
    expect(existsSync(path.join(tmp, 'm2.json'))).toBe(false);
  });
});
