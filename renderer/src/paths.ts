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
 * or control characters, no dots or spaces at the ends) and without spaces: a run of those characters and the
 * spaces around them is one `_`, other spaces `_` too ("ジェネ / Gene" → `ジェネ_Gene`, not `ジェネ _ Gene`);
 * `STEM_fitted.vmd` when nothing of the name is left.
 */
export function fittedFileName(fileName: string, modelName: string): string {
  const stem = stemOf(fileName) || 'motion';
  const safe = modelName
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .replace(/[\s\u3000]*(?:[\\/:*?"<>|\u0000-\u001f][\s\u3000]*)+/g, '_')
    .replace(/[\s\u3000]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return safe ? `${stem}_${safe}.vmd` : `${stem}_fitted.vmd`;
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

/** How wide a character shows, in half-width cells: 2 for CJK, kana, full-width forms and emoji; 1 else. */
function cellsOf(ch: string): number {
  const c = ch.codePointAt(0) ?? 0;
  return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6) || c >= 0x1f000 ? 2 : 1;
}

const widthOf = (s: string): number => [...s].reduce((n, ch) => n + cellsOf(ch), 0);

/**
 * A path shortened to about `cells` half-width cells (a CJK character takes two) by cutting its middle, as
 * Windows' recent lists do: the root and first folder stay, then "…", then as many of the last folders (and the
 * name) as fit, so two same-named files in deep folders still look different. A last part too long alone
 * is cut in its middle. The path as it is when it fits.
 */
export function middleCut(p: string, cells: number): string {
  if (widthOf(p) <= cells) return p;
  const sep = p.includes('\\') && !p.includes('/') ? '\\' : '/';
  const parts = p.split(/[\\/]/);
  // The head: the root ('' before a leading separator, a drive) and the first folder.
  const headCount = parts[0] === '' || /^[a-zA-Z]:$/.test(parts[0]) ? 2 : 1;
  const head = parts.slice(0, headCount).join(sep) + sep + '…';
  let tail = '';
  for (let i = parts.length - 1; i >= headCount; i--) {
    const next = parts[i] + (tail ? sep + tail : '');
    if (widthOf(head + sep + next) > cells) break;
    tail = next;
  }
  if (tail) return head + sep + tail;
  // Not even the last part fits beside the head: the last part alone, cut in its middle.
  const last = [...parts[parts.length - 1]];
  let a = '', b = '';
  for (let i = 0, j = last.length - 1; i <= j; ) {
    if (widthOf(a + b) + 1 >= cells) break;
    if (widthOf(a) <= widthOf(b)) a += last[i++];
    else b = last[j--] + b;
  }
  return a + '…' + b;
}

/** Characters Windows cannot hold in a file name (besides the separators): < > : " | ? * and the control codes. */
const WINDOWS_BAD_CHARS = /[<>:"|?*\u0000-\u001f]/g;
/** Names Windows keeps for devices, with or without an extension ("con.vmd" is refused there too). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\.|$)/i;

/**
 * Why Windows could not hold file name `name` (no folders in it): the characters it refuses, each once in the
 * order met, or the device name it keeps; null when Windows takes it. Linux and macOS take such names, so a save
 * is only warned (a friend unzipping the folder on Windows gets an error or a renamed file).
 */
export function windowsNameProblem(name: string): { chars: string } | { reserved: string } | null {
  const bad = [...new Set(name.match(WINDOWS_BAD_CHARS) ?? [])];
  if (bad.length) return { chars: bad.map((c) => (c < ' ' ? `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : c)).join(' ') };
  const reserved = WINDOWS_RESERVED.exec(name);
  return reserved ? { reserved: reserved[1].toUpperCase() } : null;
}
