/**
 * Paths as the renderer shows them: split into file name and folder on either separator (`/` or `\`),
 * since a path may come from Windows or POSIX main, a typed field or a recent list. No normalising here;
 * shared/scene/scene-path.ts resolves and relativises paths where a scene needs it.
 */

function lastSeparator(p: string): number {
  return Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
}

/** The part after the last separator (the whole path when it has none; '' after a trailing one). */
export function fileNameOf(p: string): string {
  return p.slice(lastSeparator(p) + 1);
}

/** The part before the last separator; '' when there is none, or when the file is at the root (`/a.vmd`). */
export function folderOf(p: string): string {
  const i = lastSeparator(p);
  return i > 0 ? p.slice(0, i) : '';
}

/** A file name without its extension (`dance.vmd` → `dance`; the name as it is when it has none). */
export function stemOf(name: string): string {
  return name.replace(/\.[^.]*$/, '');
}

/**
 * The file name a motion fitted to `modelName` is proposed under, beside the original (as vmd_sizing writes
 * `STEM_<model>.vmd`): the model's name made safe for a file name on Windows, macOS and Linux (no \\ / : * ? " < > |
 * or control characters, no dots or spaces at the ends); `STEM_fitted.vmd` when nothing of the name is left.
 */
export function fittedFileName(fileName: string, modelName: string): string {
  const stem = stemOf(fileName) || 'motion';
  const safe = modelName.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').replace(/^[\s.]+|[\s.]+$/g, '');
  return safe && !/^_+$/.test(safe) ? `${stem}_${safe}.vmd` : `${stem}_fitted.vmd`;
}

/** The path without separators at its end (`C:\out\` → `C:\out`). */
export function withoutTrailingSeparators(p: string): string {
  return p.replace(/[\\/]+$/, '');
}

/**
 * Labels for a list of files that tell same-named ones apart, as editors label tabs: each file's name, and
 * for a name that more than one path has, the fewest trailing folders that differ between those paths
 * (`miku.pmd` in `…/threejs/models` and `…/low_miku`: folders `models` and `low_miku`). folder is '' where
 * the name alone is enough.
 */
export function distinctNames(paths: readonly string[]): { name: string; folder: string }[] {
  const parts = paths.map((p) => folderOf(p).split(/[\\/]/).filter(Boolean));
  const names = paths.map(fileNameOf);
  return paths.map((_, i) => {
    const same = names.flatMap((n, j) => (n === names[i] && j !== i ? [j] : []));
    if (!same.length) return { name: names[i], folder: '' };
    const mine = parts[i];
    const tail = (segs: string[], k: number) => segs.slice(Math.max(0, segs.length - k)).join('/');
    // The fewest trailing folders that set this path apart from every other of its name.
    let k = 1;
    while (k < mine.length && same.some((j) => tail(parts[j], k) === tail(mine, k))) k++;
    return { name: names[i], folder: tail(mine, k) };
  });
}

/** Whether a typed path is absolute: `/…`, `~`, `C:\…` / `C:/…`, or a `\\server` share. */
export function isAbsoluteTyped(p: string): boolean {
  return p.startsWith('/') || p === '~' || /^~[\\/]/.test(p) || /^[a-zA-Z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

/**
 * Whether two paths main gave (absolute, resolved) name one file: the same string, or on Windows (a drive
 * letter or a share) the same string but for letter case and separators, as NTFS names files.
 */
export function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  const win = (p: string) => /^[a-zA-Z]:[\\/]/.test(p) || p.startsWith('\\\\');
  return win(a) && win(b) && a.replace(/\//g, '\\').toLowerCase() === b.replace(/\//g, '\\').toLowerCase();
}
