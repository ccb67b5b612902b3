// --json on a command that fails: the failure object inspect --json gives ({ file, ok: false, error }) on
// stdout, and the one-line message on stderr, for every command that takes --json (a first run: `mirror
// bad.vmd -o out.vmd --json` exited 1 with nothing on stdout).
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { commands } from '../../electron/cli/main';
import { runCliCaptured } from '../helpers/cli-in-process';
import { ballsPmx } from '../helpers/pmx-balls';
import { useTempDirs } from './batch-helpers';

const mk = useTempDirs();

/** Each command that takes --json, with a command line whose input fails to read (bad.* is garbage). */
const FAILING: Record<string, string[]> = {
  inspect: ['inspect', 'bad.vmd'],
  sample: ['sample', 'bad.vmd', '--frame', '0'],
  convert: ['convert', 'bad.vmd', '-o', 'out.json'],
  mirror: ['mirror', 'bad.vmd', '-o', 'out.vmd'],
  trim: ['trim', 'bad.vmd', '-o', 'out.vmd', '--from', '0'],
  merge: ['merge', 'bad.vmd', 'bad.vmd', '-o', 'out.vmd'],
  speed: ['speed', 'bad.vmd', '-o', 'out.vmd', '--factor', '2'],
  shift: ['shift', 'bad.vmd', '-o', 'out.vmd', '--by', '1'],
  preset: ['preset', 'bad.vmd', '-o', 'out.vmd', '--curve', 'linear'],
  rename: ['rename', 'bad.vmd', '-o', 'out.vmd', '--map', 'map.json'],
  reduce: ['reduce', 'bad.vmd', '-o', 'out.vmd'],
  bake: ['bake', 'bad.vmd', '-o', 'out.vmd'],
  retarget: ['retarget', 'bad.vmd', '--to', 'model.pmx', '-o', 'out.vmd'],
  build: ['build', 'bad.vpd@0', '-o', 'out.vmd'],
  batch: ['batch', 'mirror', 'no-such-folder', '-o', 'out'],
  'physics-bake': ['physics-bake', 'model.pmx', 'bad.vmd', '-o', 'out.vmd'],
  'import-bvh': ['import-bvh', 'bad.bvh', '-o', 'out.vmd'],
  'export-bvh': ['export-bvh', 'bad.vmd', '-o', 'out.bvh'],
  'import-vrma': ['import-vrma', 'bad.vrma', '-o', 'out.vmd'],
  'export-vrma': ['export-vrma', 'bad.vmd', '-o', 'out.vrma'],
};

function folder(): string {
  const d = mk('jsonfail');
  mkdirSync(d, { recursive: true });
  for (const f of ['bad.vmd', 'bad.vpd', 'bad.bvh', 'bad.vrma']) writeFileSync(path.join(d, f), 'garbage\n');
  writeFileSync(path.join(d, 'map.json'), '{"a": "b"}');
  writeFileSync(path.join(d, 'model.pmx'), ballsPmx([{ centre: [0, 0, 0], radius: 1, diffuse: [1, 1, 1, 1], ambient: [0, 0, 0], flags: 0, toon: null }]));
  return d;
}

describe('--json on a failure', () => {
  it('the table covers every command that takes --json', () => {
    const taking = Object.keys(commands).filter((k) => commands[k].usage.includes('--json'));
    expect(Object.keys(FAILING).sort()).toEqual(taking.sort());
  });

  it.each(Object.entries(FAILING))('%s prints { file, ok: false, error } on stdout and the message on stderr', async (_name, argv) => {
    const d = folder();
    const r = await runCliCaptured([...argv, '--json'], d);
    expect(r.code, r.err).toBeGreaterThan(0);
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(1);
    const o = JSON.parse(lines[0]) as { file?: string; ok: boolean; error: { code: string; message: string } };
    expect(o.ok).toBe(false);
    expect(o.error.code).toMatch(/^E_/);
    expect(o.error.message.length).toBeGreaterThan(0);
    expect(o.file === undefined || path.isAbsolute(o.file)).toBe(true);
    // The human line is still there, with the same message.
    expect(r.err).toContain(o.error.message);
    // Without --json, no JSON on stdout (inspect prints its table there).
    const plain = await runCliCaptured(argv, d);
    expect(plain.out).not.toContain('"ok"');
  });

  it('a bad argument under --json is an E_ARGUMENT object (exit status 2)', async () => {
    const d = folder();
    const r = await runCliCaptured(['mirror', 'bad.vmd', '--json'], d);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toEqual({ ok: false, error: { code: 'E_ARGUMENT', message: '-o OUT is required' } });
  });
});
