/**
 * Only regular files are read, everywhere: a link to /dev/zero, a FIFO or a device named like a motion,
 * a map, a model, a song, a scene or the settings file is reported "not a regular file" and never opened
 * in a way that waits or grows without end. Real links and FIFOs in temp folders. The command line runs
 * as a program, watched: it is killed past 15 s or 600 MB (before, `inspect /dev/zero` reached 5.9 GB and
 * a FIFO kept a batch from ever finishing). In-process calls that could wait on a FIFO get a watchdog that
 * opens it for writing after a few seconds, so a reader stuck there gets its end of file and the test fails
 * instead of hanging.
 */
import { execFileSync, spawn } from 'node:child_process';
import { constants as fsc, copyFileSync, existsSync, mkdirSync, openSync, closeSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../electron/services';
import { noDialogs } from '../../electron/services/dialog-service';
import { readBytes } from '../../electron/fs/files';
import { runBatch, workerCount } from '../../electron/batch/engine';
import { failedFiles, MAX_BATCH_JOBS } from '../../shared/batch/types';
import { ensureBuilt, ROOT, tempDir, type TempDir } from '../helpers/build';
import { corpusPath } from '../helpers/corpus';

const posix = process.platform !== 'win32';

interface Ran {
  code: number | null;
  out: string;
  err: string;
  /** Why the watcher killed it, if it did. */
  killed: 'time' | 'memory' | null;
  peakMb: number;
}

/** Runs the built CLI, killed past `timeoutMs` or past `maxMb` of resident memory (read from /proc). */
function cli(args: string[], cwd: string, timeoutMs = 15_000, maxMb = 600): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/cli/cli.mjs'), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let killed: Ran['killed'] = null;
    let peakMb = 0;
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const watch = setInterval(() => {
      try {
        const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        peakMb = Math.max(peakMb, kb / 1024);
        if (kb / 1024 > maxMb && !killed) {
          killed = 'memory';
          child.kill('SIGKILL');
        }
      } catch {
        /* gone */
      }
    }, 50);
    const timer = setTimeout(() => {
      killed ??= 'time';
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearInterval(watch);
      clearTimeout(timer);
      resolve({ code, out, err, killed, peakMb });
    });
  });
}

/**
 * Every `ms`, opens the FIFO for writing and closes it: a reader waiting in open() then reads an end of
 * file. The returned stop() says how many readers it found waiting (0: nothing ever waited on the FIFO).
 */
function watchdog(fifo: string, ms = 2000): () => number {
  let released = 0;
  const t = setInterval(() => {
    try {
      // Succeeds only while a reader has the FIFO open (ENXIO otherwise): then that reader is let go.
      closeSync(openSync(fifo, fsc.O_WRONLY | fsc.O_NONBLOCK));
      released++;
    } catch {
      /* nobody waiting */
    }
  }, ms);
  return () => {
    clearInterval(t);
    return released;
  };
}

let tmp: TempDir;
let dir: string;
let good: string;

beforeAll(async () => {
  await ensureBuilt(['node']);
  tmp = tempDir('vmd-special-');
  dir = tmp.dir;
  if (!posix) return;
  mkdirSync(path.join(dir, 'in'));
  good = path.join(dir, 'in', 'good.vmd');
  copyFileSync(corpusPath('gene/motion/stand.vmd'), good);
  symlinkSync('/dev/zero', path.join(dir, 'in', 'z.vmd'));
  execFileSync('mkfifo', [path.join(dir, 'in', 'f.vmd')]);
  symlinkSync('/dev/zero', path.join(dir, 'zero.csv'));
  execFileSync('mkfifo', [path.join(dir, 'fifo.csv')]);
  for (const n of ['m.pmx', 'song.wav', 's.vmdscene', 'pose.vpd']) execFileSync('mkfifo', [path.join(dir, n)]);
  symlinkSync('/dev/zero', path.join(dir, 'zero.pmx'));
});

afterAll(() => tmp?.remove());

describe.runIf(posix)('special files on the command line (the built CLI, watched)', () => {
  it('inspect /dev/zero, a link to it and a FIFO: "not a regular file", at once, without reading', async () => {
    const r = await cli(['inspect', '/dev/zero', path.join(dir, 'in', 'z.vmd'), path.join(dir, 'in', 'f.vmd')], dir);
    expect(r.killed).toBe(null);
    expect(r.code).toBe(1);
    expect(r.err).toContain('/dev/zero: not a regular file (a character device)');
    expect(r.err).toContain('z.vmd: not a regular file (a character device)');
    expect(r.err).toContain('f.vmd: not a regular file (a FIFO (named pipe))');
    expect(r.peakMb).toBeLessThan(300);
  });

  it('rename --map /dev/zero, or a FIFO map: refused before anything runs (exit 2)', async () => {
    for (const map of ['/dev/zero', path.join(dir, 'zero.csv'), path.join(dir, 'fifo.csv')]) {
      const r = await cli(['rename', good, '--map', map, '-o', path.join(dir, 'renamed.vmd')], dir);
      expect(r.killed, map).toBe(null);
      expect(r.code, map).toBe(2);
      expect(r.err, map).toMatch(/mapping file: .*not a regular file/);
      expect(existsSync(path.join(dir, 'renamed.vmd'))).toBe(false);
    }
    const b = await cli(['batch', 'rename', path.join(dir, 'in'), '--map', path.join(dir, 'fifo.csv'), '-o', path.join(dir, 'never')], dir);
    expect(b.killed).toBe(null);
    expect(b.code).toBe(2);
    expect(existsSync(path.join(dir, 'never'))).toBe(false);
  });

  it('a batch over a folder holding a link to /dev/zero and a FIFO finishes: those two fail, the rest is written', async () => {
    const out = path.join(dir, 'out');
    const r = await cli(['batch', 'mirror', path.join(dir, 'in'), '-o', out, '--quiet'], dir);
    expect(r.killed).toBe(null);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/z\.vmd: not a regular file \(a character device\)/);
    expect(r.err).toMatch(/f\.vmd: not a regular file \(a FIFO/);
    expect(readdirSync(out)).toEqual(['good.vmd']);
    expect(r.peakMb).toBeLessThan(400);
  });

  it(`--jobs past ${MAX_BATCH_JOBS} is said and capped; the help says the cap`, async () => {
    const r = await cli(['batch', 'mirror', path.join(dir, 'in'), '-o', path.join(dir, 'out-jobs'), '--jobs', '100000', '--quiet'], dir);
    expect(r.killed).toBe(null);
    expect(r.err).toContain(`--jobs 100000 is more than ${MAX_BATCH_JOBS} worker threads; running ${MAX_BATCH_JOBS}`);
    expect(readdirSync(path.join(dir, 'out-jobs'))).toEqual(['good.vmd']);
    const help = await cli(['batch', '--help'], dir);
    expect(help.out).toMatch(new RegExp(`--jobs N .*at most ${MAX_BATCH_JOBS}`));
    // The engine's own bound, whoever asks (the app's dialog, a large machine's CPU count).
    expect(workerCount(100_000, 2000)).toBe(MAX_BATCH_JOBS);
    expect(workerCount(undefined, 100_000)).toBeLessThanOrEqual(MAX_BATCH_JOBS);
    expect(workerCount(8, 3)).toBe(3);
  });
});

describe.runIf(posix)('special files in the app services and the batch engine', () => {
  const services = () =>
    createServices({
      settingsDir: path.join(dir, 'settings'),
      dialogs: noDialogs,
      emit: () => undefined,
      runBatch,
      appInfo: { name: 'VMD Studio', version: '0', mode: 'browser', versions: { node: process.versions.node } },
    });

  it('openFile, readModelFile, readAudioFile, openScene: a FIFO or a link to /dev/zero is "not a regular file"', async () => {
    const h = services().handlers;
    const stops = ['m.pmx', 'song.wav', 's.vmdscene', 'pose.vpd'].map((n) => watchdog(path.join(dir, n)));
    try {
      const cases: [string, Promise<{ ok: boolean; error?: { message: string } }>][] = [
        ['openFile link', h.openFile(path.join(dir, 'in', 'z.vmd'))],
        ['openFile FIFO', h.openFile(path.join(dir, 'in', 'f.vmd'))],
        ['openFile FIFO pose', h.openFile(path.join(dir, 'pose.vpd'))],
        ['readModelFile FIFO', h.readModelFile(path.join(dir, 'm.pmx'))],
        ['readModelFile link', h.readModelFile(path.join(dir, 'zero.pmx'))],
        ['readAudioFile FIFO', h.readAudioFile(path.join(dir, 'song.wav'))],
        ['openScene FIFO', h.openScene(path.join(dir, 's.vmdscene'))],
      ];
      for (const [what, p] of cases) expect(await p, what).toMatchObject({ ok: false, error: { code: 'E_IO', message: expect.stringMatching(/^not a regular file \(a (FIFO|character device)/) } });
    } finally {
      // Nothing ever waited on a FIFO.
      expect(stops.map((s) => s())).toEqual([0, 0, 0, 0]);
    }
  });

  it('saving over a FIFO (with a backup due) neither waits on it nor replaces it', async () => {
    const fifo = path.join(dir, 'in', 'f.vmd');
    const stop = watchdog(fifo);
    try {
      const r = await services().handlers.saveFile(fifo, new Uint8Array([1, 2, 3]), { overwrite: true, backup: true });
      expect(r).toMatchObject({ ok: false, error: { message: expect.stringMatching(/not a regular file/) } });
    } finally {
      expect(stop()).toBe(0);
    }
  });

  it('a FIFO where settings.json belongs: the app starts with the defaults instead of waiting', async () => {
    const settingsDir = path.join(dir, 'fifo-settings');
    mkdirSync(settingsDir);
    execFileSync('mkfifo', [path.join(settingsDir, 'settings.json')]);
    execFileSync('mkfifo', [path.join(settingsDir, 'recent.json')]);
    const stops = ['settings.json', 'recent.json'].map((n) => watchdog(path.join(settingsDir, n), 2000));
    try {
      const s = createServices({ settingsDir, dialogs: noDialogs, emit: () => undefined, runBatch, appInfo: { name: 'x', version: '0', mode: 'browser', versions: { node: '' } } });
      expect(await s.handlers.getSettings()).toMatchObject({ ok: true, value: { locale: null } });
      expect(await s.handlers.listRecent()).toEqual({ ok: true, value: [] });
    } finally {
      // Before, each start waited in open() until something wrote to the FIFO (here the watchdog).
      expect(stops.map((s) => s())).toEqual([0, 0]);
    }
  });

  it("the engine (the app's batch, in-process here) reports a FIFO and goes on", async () => {
    const only = path.join(dir, 'fifo-only');
    mkdirSync(only);
    execFileSync('mkfifo', [path.join(only, 'a.vmd')]);
    copyFileSync(good, path.join(only, 'b.vmd'));
    const stop = watchdog(path.join(only, 'a.vmd'));
    try {
      const r = await runBatch({ op: 'mirror', inputDir: only, outputDir: path.join(dir, 'fifo-out'), options: {} }, { workerPath: null });
      if (!r.ok) throw new Error(r.error.message);
      expect(r.value).toMatchObject({ total: 2, ok: 1, failed: 1 });
      expect(failedFiles(r.value.results)[0]?.error?.message).toBe('not a regular file (a FIFO (named pipe))');
    } finally {
      expect(stop()).toBe(0);
    }
  });

  it('readBytes bounds what it reads by its limit, and never opens what is not a regular file', async () => {
    // /dev/null: a device that would answer at once (an end of file), so an old reader cannot run away here.
    expect(await readBytes('/dev/null')).toMatchObject({ ok: false, error: { message: 'not a regular file (a character device)' } });
    const fifo = path.join(dir, 'in', 'f.vmd');
    const stop = watchdog(fifo);
    try {
      expect(await readBytes(fifo)).toMatchObject({ ok: false, error: { message: 'not a regular file (a FIFO (named pipe))' } });
    } finally {
      expect(stop()).toBe(0);
    }
    expect(await readBytes(dir)).toMatchObject({ ok: false, error: { message: 'is a folder, not a file' } });
    expect(await readBytes(good, { maxBytes: 10 })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^file is too large \(\d+ bytes; at most 10\)/) } });
    const r = await readBytes(good);
    expect(r.ok && Buffer.compare(Buffer.from(r.value), readFileSync(good))).toBe(0);
  });
});
