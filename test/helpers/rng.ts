/**
 * Seeded pseudo-random numbers in [0, 1) for the property and fuzz tests, so every run draws the same
 * cases. Three generators, each kept for the tests whose cases were drawn with it.
 */

/** A 32-bit xorshift-multiply mix (the fitter's and the portable maths' property tests). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    s = (s ^ (s >>> 13)) >>> 0;
    return s / 4294967296;
  };
}

/** mulberry32 (camera registration round trips, peak pyramids). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A linear congruential generator (Numerical Recipes' constants: mutated files, track shuffles). */
export function lcg(seed: number): () => number {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}
