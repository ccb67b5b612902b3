/**
 * How the command line prints paths and numbers, the same way in every command: a path the way the
 * user gave it (control characters escaped), counts as whole numbers grouped by thousands, measurements with three significant
 * digits.
 */
import path from 'node:path';

/**
 * `s` with every control character written as `\u00XX`: C0 (but tab and line feed, unless `lines` is
 * false), DEL and C1. A file name or a file's text printed as it is could drive the terminal (`ESC ]0;…`
 * sets its title). `\u00XX` is also what JSON writes, so escaped JSON output stays JSON with the same value.
 */
export function escapeControls(s: string, lines = true): string {
  // eslint-disable-next-line no-control-regex
  const re = lines ? /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g : /[\u0000-\u001f\u007f-\u009f]/g;
  return s.replace(re, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/**
 * `file` (absolute) as the user gave `given` (the argument it came from, or the folder it was found
 * in): absolute stays absolute, relative stays relative to `cwd` — never a `../../..` chain to an
 * absolute path the user typed.
 */
export function displayPath(file: string, given: string, cwd: string): string {
  // A name's line feeds and tabs too: a name is one line.
  if (path.isAbsolute(given)) return escapeControls(path.normalize(file), false);
  return escapeControls(path.relative(cwd, file) || '.', false);
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

/**
 * A count: an integer, whatever arithmetic produced it (`82`, never `82.0` or `1.23e+3`), its thousands grouped
 * (`657,032`) as the app shows counts: six-digit key counts are hard to read ungrouped. Not for frame numbers
 * (MMD writes them ungrouped: `frame 1200`), nor in JSON, where numbers stay numbers.
 */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A measurement (an error, a distance): three significant digits, plain notation from 1e-3 to 1e6. */
export function formatMeasure(n: number): string {
  if (n === 0) return '0';
  const a = Math.abs(n);
  if (a >= 1000 && a < 1e6) return n.toFixed(0);
  if (a >= 1e-3 && a < 1e6) return n.toPrecision(3);
  return n.toExponential(2);
}

