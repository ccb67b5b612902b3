// Runs before each renderer test file. The project runs its files one after the other in one module graph
// (isolate off in vitest.config.ts), so nothing a file starts may reach into the next:
// - each test's mounted components are unmounted after it (their overlays, listeners and timers go with
//   them); the hook is registered again for each file (the previous file's went with its suite);
// - a timer a file set and left pending (a notice's fade, a debounce) is cleared when the file ends. One
//   that fired in a later file's test ran a store action there, and pinia makes the acting store's pinia
//   the active one, so that test's useXStore() read another file's stores (CI failed so on 2026-12-05);
// - an in-app file dialog a test left asking (fileDialogState is the module's, not a store's) is cancelled
//   after each test: left open, the next file's Save found it waiting with another file's name (a Save of
//   relink-motion.test.ts saw "stand.vmd" in "/m" and failed only when run after such a file).
import { disableAutoUnmount, enableAutoUnmount } from '@vue/test-utils';
import { afterAll, afterEach } from 'vitest';
import { fileDialogState } from '../../renderer/src/shell/file-dialog';

disableAutoUnmount();
enableAutoUnmount(afterEach);

afterEach(() => {
  fileDialogState.resolve?.(null);
  fileDialogState.request = null;
});

type Handle = ReturnType<typeof setTimeout>;
const pending = new Set<Handle>();
const realSetTimeout = globalThis.setTimeout, realClearTimeout = globalThis.clearTimeout;
const realSetInterval = globalThis.setInterval, realClearInterval = globalThis.clearInterval;
globalThis.setTimeout = ((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
  const h: Handle = realSetTimeout(() => {
    pending.delete(h);
    if (typeof fn === 'function') fn(...args);
  }, ms);
  pending.add(h);
  return h;
}) as typeof setTimeout;
/** A clear that also stops tracking the handle. */
const untracked = (clear: (h?: Handle) => void) => (h?: Handle) => {
  if (h !== undefined) pending.delete(h);
  clear(h);
};
globalThis.clearTimeout = untracked(realClearTimeout) as typeof clearTimeout;
globalThis.setInterval = ((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
  const h = realSetInterval(fn, ms, ...args) as Handle;
  pending.add(h);
  return h;
}) as typeof setInterval;
globalThis.clearInterval = untracked(realClearInterval) as typeof clearInterval;

afterAll(() => {
  for (const h of pending) {
    realClearTimeout(h);
    realClearInterval(h);
  }
  pending.clear();
  globalThis.setTimeout = realSetTimeout;
  globalThis.clearTimeout = realClearTimeout;
  globalThis.setInterval = realSetInterval;
  globalThis.clearInterval = realClearInterval;
});
