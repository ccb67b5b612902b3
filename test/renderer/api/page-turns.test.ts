// pageTurns (renderer/src/api/page-turns.ts), the autosave copy's and the big request body's time slicing: under the
// slice's time the work goes on at once (no promise, nothing else runs); past it the page gets a turn — a timer set
// before the turn runs before the work goes on — and the slice's clock starts again after the turn.
import { describe, expect, it } from 'vitest';
import { pageTurns } from '../../../renderer/src/api/page-turns';

describe('pageTurns', () => {
  it('goes on at once under the slice time; past it, gives a task its turn first', async () => {
    const long = pageTurns(60_000);
    expect(long()).toBeUndefined();
    expect(long()).toBeUndefined();

    const every = pageTurns(0);
    const order: string[] = [];
    setTimeout(() => order.push('timer'), 0);
    const p = every();
    expect(p).toBeInstanceOf(Promise);
    await p;
    order.push('work');
    expect(order).toEqual(['timer', 'work']);
  });

  it('starts the slice again after a turn', async () => {
    const t = pageTurns(40);
    const t0 = performance.now();
    while (performance.now() - t0 < 45) { /* a slice's worth of work */ }
    const p = t();
    expect(p).toBeInstanceOf(Promise);
    await p;
    expect(t()).toBeUndefined();
  });
});
