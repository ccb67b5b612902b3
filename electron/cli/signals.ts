/**
 * The CLI's signal handling. A file command runs `guarded`: SIGINT/SIGTERM end it at once, with the
 * shell's 130/143; during a write, its temp file is removed first. A batch installs an `Interrupt`:
 * the first signal cancels the run (it ends with its summary and exit 130/143), a second exits at once
 * (temps removed).
 */
import { removePendingTemps, watchTemps } from '../fs/files';

/** A batch's SIGINT/SIGTERM: the first aborts `controller` (the run ends cancelled), a second exits at once. */
export class Interrupt {
  readonly controller = new AbortController();
  signal: NodeJS.Signals | null = null;
  private handlers: [NodeJS.Signals, () => void][] = [];

  /** Installs SIGINT/SIGTERM handlers: first one aborts, a second one exits at once. */
  install(): void {
    for (const sig of ['SIGINT', 'SIGTERM'] as NodeJS.Signals[]) {
      const h = () => {
        if (this.signal) {
          removePendingTemps();
          process.exit(sig === 'SIGINT' ? 130 : 143);
        }
        this.signal = sig;
        this.controller.abort();
      };
      process.on(sig, h);
      this.handlers.push([sig, h]);
    }
  }

  uninstall(): void {
    for (const [sig, h] of this.handlers) process.off(sig, h);
    this.handlers = [];
  }

  get exitCode(): number {
    return this.signal === 'SIGTERM' ? 143 : 130;
  }
}

/**
 * Runs `fn` with SIGINT/SIGTERM removing temp files before the process exits (130/143). The handlers are
 * installed only while a write holds a temp file: a JavaScript handler runs only when the main thread
 * is free, so one installed for the whole command kept Ctrl+C waiting for a reduce or a re-timing to
 * finish (seconds). Without one, the signal ends the process at once, as it ends any command; there is
 * nothing to remove then.
 */
export async function guarded(fn: () => Promise<number>): Promise<number> {
  const onSig = (sig: NodeJS.Signals) => {
    removePendingTemps();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  let installed = false;
  const unwatch = watchTemps((pending) => {
    if (pending === installed) return;
    installed = pending;
    if (pending) {
      process.on('SIGINT', onSig);
      process.on('SIGTERM', onSig);
    } else {
      process.off('SIGINT', onSig);
      process.off('SIGTERM', onSig);
    }
  });
  try {
    return await fn();
  } finally {
    unwatch();
    process.off('SIGINT', onSig);
    process.off('SIGTERM', onSig);
  }
}
