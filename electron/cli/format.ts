/**
 * How the command line prints paths and numbers, the same way in every command: a path the way the
 * user gave it, counts as whole numbers, measurements with three significant digits.
 */
import path from 'node:path';

/**
 * `file` (absolute) as the user gave `given` (the argument it came from, or the folder it was found
 * in): absolute stays absolute, relative stays relative to `cwd` — never a `../../..` chain to an
 * absolute path the user typed.
 */
export function displayPath(file: string, given: string, cwd: string): string {
  if (path.isAbsolute(given)) return path.normalize(file);
  return path.relative(cwd, file) || '.';
}

/**
 * `file` as the argument among `givens` that names it or a folder holding it gave it (the first such;
 * displayPath). With none, as the first argument's style, or absolute.
 */
export function displayPathAmong(file: string, givens: string[], cwd: string): string {
  const abs = path.resolve(cwd, file);
  const from = givens.find((g) => {
    const r = path.relative(path.resolve(cwd, g), abs);
    return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
  });
  return displayPath(abs, from ?? givens[0] ?? abs, cwd);
}

/** A count: an integer, whatever arithmetic produced it (`82`, never `82.0` or `1.23e+3`). */
export function formatCount(n: number): string {
  return String(Math.round(n));
}

/** A measurement (an error, a distance): three significant digits, plain notation from 1e-3 to 1e6. */
export function formatMeasure(n: number): string {
  if (n === 0) return '0';
  const a = Math.abs(n);
  if (a >= 1000 && a < 1e6) return n.toFixed(0);
  if (a >= 1e-3 && a < 1e6) return n.toPrecision(3);
  return n.toExponential(2);
}
