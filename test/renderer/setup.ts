// Runs before each renderer test file. The project runs its files one after the other in one module graph
// (isolate off in vitest.config.ts), so nothing a test starts may reach into the next test, of its file or another:
// - each test starts on a fresh active pinia, made here before the file's own beforeEach: a test that makes
//   none gets empty stores, not the last test's (batch-results' refused-by-retarget tests used the pinia
//   the file's previous describe had left active, settings and all);
// - a timer a test set and left pending (a notice's fade, Simplify's debounce, a retarget's refit) is
//   cleared when the test ends; one set outside a test (the file's top level, beforeAll) when the file ends.
//   A timer that fired later ran its store's action there, and pinia makes the acting store's pinia the
//   active one, so that test's useXStore() read another test's stores (CI failed so on 2026-12-05: a notice's
//   fade from another file; test-isolation.test.ts leaves Simplify's debounce pending and fails without this);
// - each test's mounted components are unmounted after it (their overlays, listeners and timers go with
//   them), and what else it left in the page's body is removed; the hooks are registered again for each file
//   (the previous file's went with its suite);
// - an in-app file dialog a test left asking (fileDialogState is the module's, not a store's) is cancelled
//   after each test: left open, the next file's Save found it waiting with another file's name (a Save of
//   relink-motion.test.ts saw "stand.vmd" in "/m" and failed only when run after such a file).
// Not undone here: listeners on window or document that a module adds once for the page's life (overlay.ts
// watches pointer and keys from the first modal on; removing them after a test would leave every later test
// without them), and the settings store's unload listeners (a store's, for the page's life too).
import { disableAutoUnmount, enableAutoUnmount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { fileDialogState } from '../../renderer/src/shell/file-dialog';

type Handle = ReturnType<typeof setTimeout>;
/** Timers set outside any test (cleared when the file ends), and those the running test set (when it ends). */
const fileTimers = new Set<Handle>();
let testTimers: Set<Handle> | null = null;
const realSetTimeout = globalThis.setTimeout, realClearTimeout = globalThis.clearTimeout;
const realSetInterval = globalThis.setInterval, realClearInterval = globalThis.clearInterval;
const track = (h: Handle) => (testTimers ?? fileTimers).add(h);
const forget = (h: Handle) => {
  fileTimers.delete(h);
  testTimers?.delete(h);
};
const clearAll = (set: Set<Handle>) => {
  for (const h of set) {
    realClearTimeout(h);
    realClearInterval(h);
  }
  set.clear();
};
globalThis.setTimeout = ((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
  const h: Handle = realSetTimeout(() => {
    forget(h);
    if (typeof fn === 'function') fn(...args);
  }, ms);
  track(h);
  return h;
}) as typeof setTimeout;
/** A clear that also stops tracking the handle. */
const untracked = (clear: (h?: Handle) => void) => (h?: Handle) => {
  if (h !== undefined) forget(h);
  clear(h);
};
globalThis.clearTimeout = untracked(realClearTimeout) as typeof clearTimeout;
globalThis.setInterval = ((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
  const h = realSetInterval(fn, ms, ...args) as Handle;
  track(h);
  return h;
}) as typeof setInterval;
globalThis.clearInterval = untracked(realClearInterval) as typeof clearInterval;

// After hooks run last-registered first: the body is emptied after the components are unmounted.
afterEach(() => {
  document.body.innerHTML = '';
});
disableAutoUnmount();
enableAutoUnmount(afterEach);

beforeEach(() => {
  testTimers = new Set();
  setActivePinia(createPinia());
});

afterEach(() => {
  if (testTimers) clearAll(testTimers);
  testTimers = null;
  fileDialogState.resolve?.(null);
  fileDialogState.request = null;
});

afterAll(() => {
  clearAll(fileTimers);
  globalThis.setTimeout = realSetTimeout;
  globalThis.clearTimeout = realClearTimeout;
  globalThis.setInterval = realSetInterval;
  globalThis.clearInterval = realClearInterval;
});
