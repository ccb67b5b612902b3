// The renderer files share one module graph and one page (isolate off, vitest.config.ts): what one test leaves
// running must not reach the next (test/renderer/setup.ts). The leak CI met on 2026-12-05: a store action a
// test left waiting on a timer ran during a later test, and pinia made the acting store's pinia the active one,
// so the later test's useXStore() gave it another test's stores. Here the waiting action is Simplify's
// recompute behind its debounce (what setTolerance schedules), left pending when its test ends.
import { describe, expect, it } from 'vitest';
import { createPinia, getActivePinia, setActivePinia, type Pinia } from 'pinia';
import { SIMPLIFY_DEBOUNCE_MS, useSimplifyStore } from '../../renderer/src/stores/simplify';

/** Waits longer than the debounce: a recompute left waiting would have run by then. */
const pastTheDebounce = () => new Promise((r) => setTimeout(r, SIMPLIFY_DEBOUNCE_MS + 100));

describe('what a test leaves running does not reach the next test', () => {
  let left: Pinia | undefined;

  it('(a test that ends with Simplify\'s recompute waiting behind its debounce)', () => {
    // Its own pinia, as most renderer files make one in beforeEach.
    left = createPinia();
    setActivePinia(left);
    useSimplifyStore().schedule(SIMPLIFY_DEBOUNCE_MS);
    expect(useSimplifyStore().state).toBe('pending');
  });

  it('a test that makes its own pinia keeps it active: the recompute left waiting never runs in its time', async () => {
    const mine = createPinia();
    setActivePinia(mine);
    await pastTheDebounce();
    // Before: the recompute ran here (Simplify's compute, then its cancel, actions of the other pinia's store),
    // and the active pinia was the previous test's.
    expect(getActivePinia()).toBe(mine);
    expect(getActivePinia()).not.toBe(left);
  });

  it('(again, a test that ends with the recompute waiting)', () => {
    left = createPinia();
    setActivePinia(left);
    useSimplifyStore().schedule(SIMPLIFY_DEBOUNCE_MS);
    expect(useSimplifyStore().state).toBe('pending');
  });

  it('a test that makes no pinia starts on a fresh one: empty stores, not the previous test\'s', async () => {
    const start = getActivePinia();
    expect(start).toBeDefined();
    expect(start).not.toBe(left);
    // Before: the previous test's store, its preview still pending.
    expect(useSimplifyStore().state).toBe('closed');
    await pastTheDebounce();
    expect(getActivePinia()).toBe(start);
  });
});
