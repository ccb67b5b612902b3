/**
 * Seeded damage for parser fuzzing, shared by the fuzz tests (test/shared/fuzz.test.ts: every damaged
 * file parses or returns a typed error) and the bench (test/bench/fuzz-bench.ts: how long the slowest
 * one takes). The same seed gives the same files, so a failure reproduces.
 */

import { lcg as rng } from './rng';

/** A linear congruential generator in [0, 1) (test/helpers/rng.ts). */
export { rng };

/**
 * The n-th damaged copy of a VMD, by n mod 4: truncated at a random length; a few random bytes changed
 * among the first block counts (bytes 50–57, where they hurt most); anywhere; or set to 0xff anywhere.
 */
export function damageVmd(src: Uint8Array, n: number, rand: () => number): Uint8Array {
  let b: Uint8Array = src.slice();
  const mode = n % 4;
  if (mode === 0) return b.subarray(0, Math.floor(rand() * b.length));
  const flips = 1 + Math.floor(rand() * 8);
  for (let i = 0; i < flips; i++) {
    const p = mode === 1 ? 50 + Math.floor(rand() * 8) : Math.floor(rand() * b.length);
    b[p] = mode === 3 ? 0xff : Math.floor(rand() * 256);
  }
  return b;
}

/** The n-th damaged copy of a VPD: odd n truncated, even n with six random bytes changed. */
export function damageVpd(src: Uint8Array, n: number, rand: () => number): Uint8Array {
  const b = src.slice(0);
  if (n % 2) return b.subarray(0, Math.floor(rand() * b.length));
  for (let i = 0; i < 6; i++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
  return b;
}

/**
 * The n-th damaged copy of a PMX/PMD, by n mod 3: truncated; up to six random bytes changed; or up to
 * six set to 0xff (which turns counts and lengths huge or negative).
 */
export function damageModel(src: Uint8Array, n: number, rand: () => number): Uint8Array {
  const b: Uint8Array = src.slice();
  const mode = n % 3;
  if (mode === 0) return b.subarray(0, Math.floor(rand() * b.length));
  const flips = 1 + Math.floor(rand() * 6);
  for (let i = 0; i < flips; i++) b[Math.floor(rand() * b.length)] = mode === 2 ? 0xff : Math.floor(rand() * 256);
  return b;
}
