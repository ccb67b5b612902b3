/**
 * A tiny pure path helper for scene files, which name their models, motions, camera and audio relative
 * to the scene file. shared/ cannot use `node:path`, and a scene saved on Windows must open on macOS or
 * Linux (and back), so this handles both styles by the path's own shape, not by the host:
 *
 *   windows  `C:\a\b`, `C:/a/b`, `\\server\share\a` (UNC); `\` and `/` both separate; names compare
 *            case-insensitively (the file system does)
 *   posix    `/a/b`; only `/` separates the absolute part
 *
 * Relative paths inside a scene are always written with `/`; when read, `\` is taken as a separator too
 * (scene files edited by hand on Windows), at the cost of not supporting `\` inside a POSIX file name.
 */

export type PathStyle = 'posix' | 'windows';

/** An absolute path split into its root (`/`, `C:\`, `\\server\share\`) and its segments. */
export interface SplitPath {
  style: PathStyle;
  /** `/` for posix; `C:\` (upper-case drive) or `\\server\share\` for windows. */
  root: string;
  segments: string[];
}

const DRIVE = /^[A-Za-z]:[\\/]/;
const UNC = /^[\\/]{2}[^\\/]+[\\/]+[^\\/]+/;

/** The style an absolute path is written in; null for a relative path. */
export function absoluteStyle(p: string): PathStyle | null {
  if (DRIVE.test(p) || UNC.test(p)) return 'windows';
  if (p.startsWith('/')) return 'posix';
  return null;
}

/** True for `/x`, `C:\x`, `C:/x`, `\\server\share`. A bare `C:` or `C:x` (drive-relative) is not absolute. */
export function isAbsolutePath(p: string): boolean {
  return absoluteStyle(p) !== null;
}

/** Splits on `/` and `\`, dropping empty and `.` segments and folding `..` (never above the start). */
function normalSegments(parts: string[], keepLeadingUp: boolean): string[] {
  const out: string[] = [];
  for (const s of parts) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (keepLeadingUp) out.push('..');
      continue;
    }
    out.push(s);
  }
  return out;
}

/** Splits an absolute path; null when `p` is relative. */
export function splitAbsolute(p: string): SplitPath | null {
  const style = absoluteStyle(p);
  if (style === 'posix') return { style, root: '/', segments: normalSegments(p.split('/'), false) };
  if (style === 'windows') {
    if (DRIVE.test(p)) return { style, root: p[0].toUpperCase() + ':\\', segments: normalSegments(p.slice(3).split(/[\\/]/), false) };
    const m = UNC.exec(p)!;
    const [server, share] = m[0].split(/[\\/]+/).filter(Boolean);
    return { style, root: `\\\\${server}\\${share}\\`, segments: normalSegments(p.slice(m[0].length).split(/[\\/]/), false) };
  }
  return null;
}

/** Whether `p` is a root: `/`, a drive's (`C:\`, `C:`), or a share's (`\\server\share`). */
export function isRootPath(p: string): boolean {
  if (/^[a-zA-Z]:$/.test(p)) return true;
  return splitAbsolute(p)?.segments.length === 0;
}

/** Joins a split path back in its own style (`/` for posix, `\` for windows). */
export function formatAbsolute(s: SplitPath): string {
  return s.root + s.segments.join(s.style === 'posix' ? '/' : '\\');
}

/** Normalises an absolute path (`.`/`..` folded, one separator style); a relative one is cleaned and given `/`. */
export function normalizePath(p: string): string {
  const s = splitAbsolute(p);
  if (s) return formatAbsolute(s);
  return normalSegments(p.split(/[\\/]/), true).join('/') || '.';
}

/** The folder holding `p` (an absolute file path); a root stays itself. */
export function dirnamePath(p: string): string {
  const s = splitAbsolute(p);
  if (!s) {
    const segs = normalSegments(p.split(/[\\/]/), true);
    return segs.length > 1 ? segs.slice(0, -1).join('/') : '.';
  }
  return formatAbsolute({ ...s, segments: s.segments.slice(0, -1) });
}

/** The last segment of `p` (file name), '' for a root. */
export function basenamePath(p: string): string {
  const segs = p.split(/[\\/]/).filter((x) => x !== '');
  if (splitAbsolute(p)?.segments.length === 0) return '';
  return segs.length ? segs[segs.length - 1] : '';
}

/**
 * `rel` resolved against the absolute folder `baseDir`, in `baseDir`'s style. An absolute `rel` is
 * returned normalised as it is (a scene may name a file on another drive).
 */
export function resolvePath(baseDir: string, rel: string): string {
  if (isAbsolutePath(rel)) return normalizePath(rel);
  const base = splitAbsolute(baseDir);
  if (!base) return normalizePath(baseDir + '/' + rel);
  return formatAbsolute({ ...base, segments: normalSegments([...base.segments, ...rel.split(/[\\/]/)], false) });
}

const sameName = (style: PathStyle, a: string, b: string) => (style === 'windows' ? a.toLowerCase() === b.toLowerCase() : a === b);

/**
 * `target` relative to the absolute folder `fromDir`, written with `/` (`models/miku.pmx`, `../song.wav`,
 * `.` for the folder itself). Null when no relative path exists: different styles, drives or shares.
 */
export function relativePath(fromDir: string, target: string): string | null {
  const a = splitAbsolute(fromDir);
  const b = splitAbsolute(target);
  if (!a || !b || a.style !== b.style || !sameName(a.style, a.root, b.root)) return null;
  let i = 0;
  while (i < a.segments.length && i < b.segments.length && sameName(a.style, a.segments[i], b.segments[i])) i++;
  const up = a.segments.slice(i).map(() => '..');
  const parts = [...up, ...b.segments.slice(i)];
  return parts.length ? parts.join('/') : '.';
}

/** Whether two absolute paths name the same file (case-insensitive for windows paths). */
export function samePath(a: string, b: string): boolean {
  const x = splitAbsolute(a);
  const y = splitAbsolute(b);
  if (!x || !y) return normalizePath(a) === normalizePath(b);
  return x.style === y.style && relativePath(formatAbsolute(x), formatAbsolute(y)) === '.';
}

/**
 * The deepest folder holding every one of `files` (absolute paths; relative ones are left out), in their own
 * style; null when there are none, or they lie on different drives, shares or styles.
 */
export function commonFolder(files: readonly string[]): string | null {
  const dirs = files.map((f) => splitAbsolute(f)).filter((s): s is SplitPath => s !== null).map((s) => ({ ...s, segments: s.segments.slice(0, -1) }));
  if (dirs.length === 0) return null;
  const [first, ...rest] = dirs;
  let n = first.segments.length;
  for (const d of rest) {
    if (d.style !== first.style || !sameName(first.style, d.root, first.root)) return null;
    let i = 0;
    while (i < n && i < d.segments.length && sameName(first.style, d.segments[i], first.segments[i])) i++;
    n = i;
  }
  return formatAbsolute({ ...first, segments: first.segments.slice(0, n) });
}
