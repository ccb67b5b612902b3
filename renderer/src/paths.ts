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

/** The path without separators at its end (`C:\out\` → `C:\out`). */
export function withoutTrailingSeparators(p: string): string {
  return p.replace(/[\\/]+$/, '');
}
