/** Small numeric helpers for comparing poses (trim's error report). */

export function maxAbsDiff(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, n: number): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const d = Math.abs(a[ai + i] - b[bi + i]);
    if (d > m) m = d;
  }
  return m;
}
