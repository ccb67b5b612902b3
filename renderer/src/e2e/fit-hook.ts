/**
 * Read-only test hook of the fitting client: `window.__vmdFit`, installed at start by the e2e build's
 * entry (main.ts here). End-to-end tests read how many fits
 * ran and where (Apply after a current Preview must not run again; the fallback runs on the main thread).
 *
 *   counts()  runs in the worker and on the main thread, workers that failed to start, progress messages
 */
import { fitClient, type FitRunCounts } from '../fit/fit-client';

export interface FitTestHook {
  counts(): FitRunCounts;
}

declare global {
  interface Window {
    __vmdFit?: FitTestHook;
  }
}

/** Installs the hook. */
export function installFitTestHook(): void {
  window.__vmdFit = { counts: () => ({ ...fitClient().counts }) };
}
