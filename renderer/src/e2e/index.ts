/**
 * The e2e test hooks' switch, the only part of them the shipped bundle holds. `__VMD_E2E__` is a build
 * flag (vite.config.ts: true only in `vite build --mode e2e`, which the e2e harness runs into
 * dist/renderer-e2e). Behind it, loadTestHooks() fetches ./hooks by dynamic import() before the app
 * mounts; in the production build the branch is dead code, so neither the hooks nor the queries they
 * use (preview-diagnostics.ts) are in it. Components call installTestHook(), which there does nothing.
 */
import type { TestHooks } from './hooks';

let loaded: TestHooks | null = null;

/** Loads the hooks in an e2e build (resolves at once in any other build). */
export async function loadTestHooks(): Promise<void> {
  if (__VMD_E2E__) loaded = (await import('./hooks')).testHooks;
}

/** Installs one test hook in an e2e build (nothing elsewhere); returns the function that removes it. */
export function installTestHook<K extends keyof TestHooks>(name: K, ...args: Parameters<TestHooks[K]>): () => void {
  if (!__VMD_E2E__ || !loaded) return () => undefined;
  return (loaded[name] as (...a: Parameters<TestHooks[K]>) => () => void)(...args);
}
