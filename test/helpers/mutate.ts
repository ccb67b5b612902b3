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

/** Tokens a damaged BVH takes in place of one of its own: numbers past any capture, bad counts, stray keywords. */
const BVH_TOKENS = ['1e308', '-1e308', '1e30', '9999999', '-9999999', '1e-7', 'NaN', 'Infinity', '-0', '0', '-1', '3', '6', '9', '{', '}', 'JOINT', 'End', 'CHANNELS', 'Xrotation', 'Xposition', 'ROOT', 'x', ''];

/**
 * The n-th damaged copy of a BVH's text, by n mod 5: truncated; lines deleted or repeated; every OFFSET of a
 * random half of the joints made 0 0 0 (zero-length bones); or up to six tokens replaced (BVH_TOKENS), twice
 * as often as the others.
 */
export function damageBvh(src: string, n: number, rand: () => number): string {
  const mode = n % 5;
  if (mode === 0) return src.slice(0, Math.floor(rand() * src.length));
  if (mode === 1) {
    const lines = src.split('\n');
    const k = 1 + Math.floor(rand() * 4);
    for (let i = 0; i < k; i++) {
      const j = Math.floor(rand() * lines.length);
      if (rand() < 0.5) lines.splice(j, 1);
      else lines.splice(j, 0, lines[Math.floor(rand() * lines.length)]);
    }
    return lines.join('\n');
  }
  if (mode === 2) return src.replace(/OFFSET [^\n]*/g, (m) => (rand() < 0.5 ? 'OFFSET 0 0 0' : m));
  const toks = src.split(/(\s+)/);
  const k = 1 + Math.floor(rand() * 6);
  for (let i = 0; i < k; i++) {
    const j = Math.floor(rand() * toks.length);
    if (!/^\s*$/.test(toks[j])) toks[j] = BVH_TOKENS[Math.floor(rand() * BVH_TOKENS.length)];
  }
  return toks.join('');
}
