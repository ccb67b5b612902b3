// Ctrl+C and kill during a long single-file command, through the built CLI as its own process. A JavaScript
// signal handler only runs when the main thread is free, and the CLI kept one installed for the whole
// command: a signal during `speed --refit` (seconds of fitting on the main thread) waited for the fit to
// finish. Now the handler is there only while a write holds a temp file, so the signal ends the work at once.
// What is asserted is exact (the process ended by the signal itself, nothing written); the time it took is
// printed, never compared, so a loaded machine cannot fail it.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { CLI, useTempDirs } from './batch-helpers';
import { corpusPath, corpusPresent } from '../helpers/corpus';

const mk = useTempDirs();

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** ms from spawn to exit */
  ms: number;
  /** ms from the signal to exit (NaN when none was sent) */
  afterSignal: number;
}

/** Runs the CLI in `cwd`; with `signalAt`, sends `sig` that many ms after spawn. */
function runCli(args: string[], cwd: string, sig?: NodeJS.Signals, signalAt = 0): Promise<Ended> {
  const t0 = Date.now();
  let sent = NaN;
  // SIGKILL at the limit: the point is that the CLI may not be listening to SIGTERM.
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: 'ignore', timeout: 120_000, killSignal: 'SIGKILL' });
  const timer = sig
    ? setTimeout(() => {
        sent = Date.now();
        child.kill(sig);
      }, signalAt)
    : null;
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      const now = Date.now();
      resolve({ code, signal, ms: now - t0, afterSignal: now - sent });
    }),
  );
}

describe.skipIf(!corpusPresent)('signals during a long command', () => {
  it('SIGTERM or SIGINT during speed --refit ends the fit by the signal itself (the shell sees 143/130): no output, no temp file', async () => {
    const dir = mk('signals');
    const dance = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
    const args = (out: string) => ['speed', dance, '-o', out, '--factor', '1.5', '--refit', '--quiet'];
    // The whole command once, for how long it takes on this machine now.
    const full = await runCli(args('full.vmd'), dir);
    expect(full.code).toBe(0);
    expect(existsSync(path.join(dir, 'full.vmd'))).toBe(true);
    for (const sig of ['SIGTERM', 'SIGINT'] as const) {
      // Half way through, the CLI is fitting (start-up and reading take a small part of it).
      const cut = await runCli(args(`cut-${sig}.vmd`), dir, sig, full.ms / 2);
      const status = cut.signal === sig ? `killed by ${sig}` : `exit ${cut.code}`;
      console.log(`${sig}: the whole command ${full.ms} ms; signalled at ${Math.round(full.ms / 2)} ms, ended ${cut.afterSignal} ms later (${status})`);
      // Ended by the signal's own default action, not by a handler's exit code: no JavaScript handler was
      // installed while the fit ran, so nothing waited for the main thread to come free. (The old handler
      // did wait, then exited 143/130, 0.9–1.2 s after the signal.) How soon is reported above, not asserted.
      expect(cut.signal, status).toBe(sig);
      expect(readdirSync(dir).sort()).toEqual(['full.vmd']);
    }
  }, 240_000);
});
