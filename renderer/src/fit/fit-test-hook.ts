/**
 * Read-only test hook of the fitting client: `window.__vmdFit`, in the e2e build only (src/e2e/),
 * installed while the Whole Motion dialog's component is mounted. End-to-end tests read how many fits
 * ran and where (Apply after a current Preview must not run again; the fallback runs on the main thread).
 *
 *   counts()  runs in the worker and on the main thread, workers that failed to start, progress messages
 */
import { fitClient, type FitRunCounts } from './fit-client';

export interface FitTestHook {
  counts(): FitRunCounts;
}

declare global {
  interface Window {
    __vmdFit?: FitTestHook;
  }
}

/** Installs the hook; returns the function that removes it. */
export function installFitTestHook(): () => void {
  if (typeof window === 'undefined') return () => undefined;
  const hook: FitTestHook = { counts: () => ({ ...fitClient().counts }) };
  window.__vmdFit = hook;
  return () => {
    if (window.__vmdFit === hook) delete window.__vmdFit;
  };
}
