// What a bad argument prints (the error, then usage lines short enough that it stays on screen) and
// `help COMMAND` (the command's own help). A first run: `batch mirror DIR -o OUT --jobs 0` printed its
// error above some 70 lines of help; `help trim` printed the general help.
import { describe, expect, it } from 'vitest';
import os from 'node:os';
import { commands } from '../../electron/cli/main';
import { runCliCaptured } from '../helpers/cli-in-process';

const cli = (...argv: string[]) => runCliCaptured(argv, os.tmpdir());

describe('after a bad argument', () => {
  it('batch prints the error, its line, the operation\'s options and a pointer to batch --help', async () => {
    const jobs = await cli('batch', 'mirror', 'in', '-o', 'out', '--jobs', '0');
    expect(jobs.code).toBe(2);
    expect(jobs.out).toBe('');
    const lines = jobs.err.trimEnd().split('\n');
    expect(lines[0]).toBe('vmd-studio batch: --jobs must be at least 1, got "0"');
    expect(lines[lines.length - 1]).toBe('(vmd-studio batch --help for every operation and option)');
    expect(lines).toContain('  OP: mirror [--no-light] [--model MODEL.pmx|.pmd]');
    expect(lines.length).toBeLessThanOrEqual(4);
    const trim = await cli('batch', 'trim', 'in', '-o', 'out');
    expect(trim.code).toBe(2);
    expect(trim.err.trimEnd().split('\n')).toEqual([
      'vmd-studio batch: --from is required',
      commands.batch.usage.split('\n')[0],
      '  OP: trim --from A [--to B] [--no-hold] [--keep-static]',
      '(vmd-studio batch --help for every operation and option)',
    ]);
    // No operation: the command's line and the pointer.
    const none = await cli('batch');
    expect(none.err.trimEnd().split('\n')).toHaveLength(3);
  });

  it('a single command prints the error and its own usage, as before', async () => {
    const r = await cli('mirror', 'x.vmd');
    expect(r.code).toBe(2);
    expect(r.err).toBe(`vmd-studio mirror: -o OUT is required\n${commands.mirror.usage}\n`);
  });
});

describe('help COMMAND', () => {
  it('is COMMAND --help for every command', async () => {
    for (const name of Object.keys(commands)) {
      const help = await cli('help', name);
      const own = await cli(name, '--help');
      expect(help.code).toBe(0);
      expect(help.out, name).toBe(own.out);
      // The usage, then the common options' lines (cli-help-common).
      expect(help.out.startsWith(commands[name].usage + '\n')).toBe(true);
    }
  });

  it('help with no command is the general help; an unknown one is an error', async () => {
    const general = await cli('help');
    expect(general.code).toBe(0);
    expect(general.out).toContain('Commands:');
    const bad = await cli('help', 'frobnicate');
    expect(bad.code).toBe(2);
    expect(bad.err).toBe('vmd-studio: unknown command "frobnicate" (try vmd-studio --help)\n');
  });
});
