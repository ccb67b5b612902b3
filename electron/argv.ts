/**
 * File paths from a command line. Electron puts them in different places:
 *   development  electron . a.vmd            → [electron, '.', 'a.vmd']           (skip 2)
 *   development  electron dist/…/main.cjs a  → [electron, 'dist/…/main.cjs', 'a'] (skip 2)
 *   packaged     "VMD Studio.exe" a.vmd      → [exe, 'a.vmd']                      (skip 1)
 *   second-instance on Windows               → Chromium switches mixed in (--allow-file-access-from-files, --original-process-start-time=…)
 *   macOS Finder (old)                       → -psn_0_12345
 *   Linux .desktop with %U                   → file:///home/me/My%20Motion.vmd
 * Everything starting with '-' is a switch (unless after '--'); file: URLs become paths; relative
 * paths resolve against the working folder (second-instance passes the other process's folder);
 * only .vmd, .vpd and .vmdscene (scene) files are kept, once each.
 */
import path from 'node:path';
import { DOCUMENT_EXTENSIONS, hasExtension } from '../shared/ipc/file-types';

export interface ArgvOptions {
  /** app.isPackaged: true when running from an installed build. */
  packaged: boolean;
  platform?: NodeJS.Platform;
  /** Folder relative paths are resolved against. */
  cwd?: string;
}


function fromFileUrl(arg: string, win: boolean): string | null {
  let u: URL;
  try {
    u = new URL(arg);
  } catch {
    return null;
  }
  if (u.protocol !== 'file:') return null;
  let p = decodeURIComponent(u.pathname);
  if (win) {
    // file:///C:/x → C:/x ; file://server/share/x → \\server\share\x
    if (u.host) p = `\\\\${u.host}${p}`;
    else if (/^\/[A-Za-z]:/.test(p)) p = p.slice(1);
    p = p.replace(/\//g, '\\');
  }
  return p;
}

/** The .vmd/.vpd/.vmdscene paths in `argv` (absolute, in order, without duplicates). */
export function filesFromArgv(argv: readonly string[], opts: ArgvOptions): string[] {
  const platform = opts.platform ?? process.platform;
  const win = platform === 'win32';
  const P = win ? path.win32 : path.posix;
  const cwd = opts.cwd ?? process.cwd();
  const skip = opts.packaged ? 1 : 2;
  const out: string[] = [];
  const seen = new Set<string>();
  let switchesDone = false;
  for (const raw of argv.slice(skip)) {
    if (!switchesDone && raw === '--') {
      switchesDone = true;
      continue;
    }
    if (!switchesDone && raw.startsWith('-')) continue;
    let arg = raw.trim();
    // A shell or a .desktop Exec line may leave quotes around a path with spaces.
    if (arg.length >= 2 && ((arg.startsWith('"') && arg.endsWith('"')) || (arg.startsWith("'") && arg.endsWith("'")))) arg = arg.slice(1, -1);
    if (!arg) continue;
    if (/^file:/i.test(arg)) {
      const p = fromFileUrl(arg, win);
      if (!p) continue;
      arg = p;
    }
    if (!hasExtension(arg, DOCUMENT_EXTENSIONS)) continue;
    const abs = P.resolve(cwd, arg);
    const key = win || platform === 'darwin' ? abs.toLowerCase() : abs;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(abs);
  }
  return out;
}
