/**
 * The selection's bit set (shared/key-edits/record-set.ts) against a plain Set<number> on seeded random
 * operations: membership, size, ascending order, ranges across word edges, truncation, first/last.
 */
import { describe, expect, it } from 'vitest';
import { RecordSet } from '../../shared/key-edits';
import { rng } from '../helpers/rng';

const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);

describe('RecordSet', () => {
  it('agrees with a Set<number> over 20,000 seeded random adds, deletes, ranges and truncations', () => {
    const r = rng(31);
    const bits = new RecordSet();
    const ref = new Set<number>();
    for (let step = 0; step < 20_000; step++) {
      const op = r();
      const i = Math.floor(r() * 700);
      if (op < 0.45) expect(bits.add(i)).toBe(!ref.has(i) && (ref.add(i), true));
      else if (op < 0.8) expect(bits.delete(i)).toBe(ref.delete(i));
      else if (op < 0.95) {
        const b = i + Math.floor(r() * 100);
        bits.addRange(i, b);
        for (let k = i; k < b; k++) ref.add(k);
      } else {
        bits.truncate(i);
        for (const k of [...ref]) if (k >= i) ref.delete(k);
      }
      expect(bits.size).toBe(ref.size);
      if (step % 500 === 0) {
        expect([...bits]).toEqual(sorted(ref));
        expect(Array.from(bits.toArray())).toEqual(sorted(ref));
        for (let k = 0; k < 800; k++) expect(bits.has(k)).toBe(ref.has(k));
        const s = sorted(ref);
        expect(bits.first()).toBe(s.length ? s[0] : -1);
        expect(bits.last()).toBe(s.length ? s[s.length - 1] : -1);
      }
    }
  });

  it('all(n) holds exactly 0..n−1 for sizes around word edges, and isAll says so', () => {
    for (const n of [0, 1, 31, 32, 33, 63, 64, 65, 1000, 600_000]) {
      const s = RecordSet.all(n);
      expect(s.size).toBe(n);
      expect(s.isAll(n)).toBe(true);
      expect(s.has(n)).toBe(false);
      expect(s.has(-1)).toBe(false);
      if (n > 0) {
        expect(s.has(n - 1)).toBe(true);
        expect(s.first()).toBe(0);
        expect(s.last()).toBe(n - 1);
        expect(s.isAll(n + 1)).toBe(false);
        s.delete(n >> 1);
        expect(s.isAll(n)).toBe(false);
        expect(s.size).toBe(n - 1);
      }
    }
    const big = RecordSet.all(600_000).toArray();
    expect(big.length).toBe(600_000);
    expect(big[0]).toBe(0);
    expect(big[599_999]).toBe(599_999);
  });

  it('of() ignores repeats, negatives and non-integers; clone is independent', () => {
    const s = RecordSet.of([5, 3, 5, -1, 2.5, 64, 0]);
    expect([...s]).toEqual([0, 3, 5, 64]);
    const c = s.clone();
    c.add(7);
    expect(s.has(7)).toBe(false);
    expect(c.size).toBe(5);
    expect([...RecordSet.of(new Uint32Array([9, 1]))]).toEqual([1, 9]);
  });
});
