/**
 * File I/O shared by the CLI, the batch engine and the app services: reads that return errors as
 * values, atomic writes (temp file in the same folder, then rename; links followed, mode and owner
 * kept, stale temps swept — see atomicWrite and temp-files.ts), output folders that say why they
 * cannot be made, and folder listing.
 */
import { promises as fsp, constants as fsc, unlinkSync } from 'node:fs';
import path from 'node:path';
import { sweepStaleTemps, tempPathFor } from './temp-files';
import { MOTION_EXTENSIONS } from '../../shared/ipc/file-types';
import type { CodecError, ErrorCode } from '../../shared/vmd/errors';

export type IoResult<T> = { ok: true; value: T } | { ok: false; error: CodecError };

/** Maps a Node fs error to one of our codes and a one-line message. */
export function ioError(e: unknown, file: string): CodecError {
  const code = (e as NodeJS.ErrnoException)?.code;
  let c: ErrorCode = 'E_IO';
  let what = (e as Error)?.message ?? String(e);
  if (code === 'ENOENT') {
    c = 'E_IO_NOT_FOUND';
    what = 'no such file or folder';
  } else if (code === 'EACCES' || code === 'EPERM') {
    c = 'E_IO_DENIED';
    what = 'permission denied';
  } else if (code === 'EEXIST') {
    c = 'E_IO_EXISTS';
    what = 'already exists';
  } else if (code === 'EROFS') {
    c = 'E_IO_DENIED';
    what = 'read-only file system';
  } else if (code === 'EISDIR') {
    what = 'is a folder, not a file';
  } else if (code === 'ENOTDIR') {
    what = 'a part of the path is a file, not a folder';
  } else if (code === 'ENAMETOOLONG') {
    what = 'name too long for the file system';
  } else if (code === 'ELOOP') {
    what = 'too many levels of symbolic links';
  } else if (code) {
    what = `${code}: ${what.replace(/^[A-Z]+: /, '').split(',')[0]}`;
  }
  return { code: c, message: what, file };
}

/** Reads a whole file as bytes. */
export async function readBytes(file: string): Promise<IoResult<Uint8Array>> {
  try {
    const buf = await fsp.readFile(file);
    return { ok: true, value: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) };
  } catch (e) {
    return { ok: false, error: ioError(e, file) };
  }
}

export { tempPathFor } from './temp-files';

/** What an output that exists and may not be replaced is reported as (the CLI, the batch, the saves). */
export const OUTPUT_EXISTS_MESSAGE = 'output exists (use --overwrite to replace it)';
export function outputExistsError(file: string): CodecError {
  return { code: 'E_IO_EXISTS', message: OUTPUT_EXISTS_MESSAGE, file };
}

/** True when anything (file, folder, link, even a dangling one) is at `p`. */
export async function pathExists(p: string): Promise<boolean> {
  return fsp.lstat(p).then(
    () => true,
    () => false,
  );
}

/** Temp files created by this process that are not yet renamed; removed on exit or signal. */
const pendingTemps = new Set<string>();
let cleanupInstalled = false;

function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on('exit', () => {
    for (const t of pendingTemps) {
      try {
        unlinkSync(t);
      } catch {
        /* already gone */
      }
    }
  });
}

/**
 * Marks `temp` as this process's (removed on exit and by removePendingTemps) until releaseTemp: for
 * temps a worker thread writes, so the main thread can remove them if it has to stop the worker.
 */
export function holdTemp(temp: string): void {
  installCleanup();
  pendingTemps.add(temp);
}

export function releaseTemp(temp: string): void {
  pendingTemps.delete(temp);
}

/**
 * The file a write to `target` must replace: `target` itself, or, when it is a symbolic link, the
 * file it points to (followed link by link, so a dangling link gets its target created), as editors
 * do — the link stays a link.
 */
export async function writeTargetOf(target: string): Promise<string> {
  let p = path.resolve(target);
  for (let hops = 0; hops < 40; hops++) {
    let st: import('node:fs').Stats;
    try {
      st = await fsp.lstat(p);
    } catch {
      return p; // nothing there yet: the write creates it
    }
    if (!st.isSymbolicLink()) return p;
    const to = await fsp.readlink(p);
    // Relative link text is relative to the link's real folder (which may itself be reached by a link).
    p = path.resolve(await fsp.realpath(path.dirname(p)), to);
  }
  throw Object.assign(new Error('too many levels of symbolic links'), { code: 'ELOOP' });
}

/**
 * The path `p` is reached by with every link resolved: the file a write to `p` lands on (writeTargetOf
 * follows a link there, even one to a file not made yet), in its folder with that folder's links (and
 * its parents') resolved too.
 */
export async function realTarget(p: string): Promise<string> {
  const t = await writeTargetOf(p).catch(() => path.resolve(p));
  let dir = path.dirname(t);
  const rest = [path.basename(t)];
  for (;;) {
    try {
      return path.join(await fsp.realpath(dir), ...rest);
    } catch {
      const up = path.dirname(dir);
      if (up === dir) return t;
      rest.unshift(path.basename(dir));
      dir = up;
    }
  }
}

/**
 * Whether `a` and `b` are one file (or folder) on disk: the same path once links are resolved (a link, a
 * folder link on the way, `dir/../dir`), or the same file by device and inode (a hard link, a name in
 * another case on a case-insensitive drive). A write to one would replace the other.
 */
export async function sameFile(a: string, b: string): Promise<boolean> {
  const [ra, rb] = await Promise.all([realTarget(a), realTarget(b)]);
  if (ra === rb) return true;
  const [sa, sb] = await Promise.all([fsp.stat(ra).catch(() => null), fsp.stat(rb).catch(() => null)]);
  return !!sa && !!sb && sa.dev === sb.dev && sa.ino === sb.ino;
}

/** Whether `p` is one of `files` on disk (sameFile). */
export async function sameAsAny(files: readonly string[], p: string): Promise<boolean> {
  for (const f of files) if (await sameFile(f, p)) return true;
  return false;
}

/** The nearest existing ancestor of `p` (or `p` itself) and whether it is a folder. */
async function nearestExisting(p: string): Promise<{ path: string; isDir: boolean }> {
  let cur = path.resolve(p);
  for (;;) {
    try {
      const st = await fsp.stat(cur);
      return { path: cur, isDir: st.isDirectory() };
    } catch {
      const up = path.dirname(cur);
      if (up === cur) return { path: cur, isDir: true };
      cur = up;
    }
  }
}

/**
 * Why the folder `dir` could not be made (`creating`) or a file created in it: one line naming the
 * folder — "the folder X cannot be written (read-only or permission denied)", "cannot create the
 * folder X: Y is a file, not a folder" — instead of a bare "ENOENT … mkdir" or "EACCES … open".
 */
export async function folderError(dir: string, e: unknown, creating: boolean): Promise<CodecError> {
  const code = (e as NodeJS.ErrnoException)?.code;
  const anc = await nearestExisting(dir);
  const abs = path.resolve(dir);
  const verb = creating && anc.path !== abs ? `cannot create the folder ${dir}` : `cannot write in the folder ${dir}`;
  if (!anc.isDir) return { code: 'E_IO', message: `${verb}: ${anc.path} is a file, not a folder`, file: dir };
  if (code === 'ENOENT' && !creating) return { code: 'E_IO_NOT_FOUND', message: `no such folder: ${dir}`, file: dir };
  // mkdir can answer ENOENT where a parent is not writable; report what stops it.
  const denied = code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || (code === 'ENOENT' && (await fsp.access(anc.path, fsc.W_OK).then(() => false, () => true)));
  if (denied) {
    const why = code === 'EROFS' ? 'read-only file system' : 'read-only or permission denied';
    const what = anc.path === abs ? `the folder ${dir} cannot be written` : `${verb}: ${anc.path} cannot be written`;
    return { code: 'E_IO_DENIED', message: `${what} (${why})`, file: dir };
  }
  return { ...ioError(e, dir), message: `${verb}: ${ioError(e, dir).message}`, file: dir };
}

/** Makes `dir` (and its parents) for an output; a folder that cannot be made says why (folderError). */
export async function ensureFolder(dir: string): Promise<IoResult<void>> {
  try {
    await fsp.mkdir(dir, { recursive: true });
    return { ok: true, value: undefined };
  } catch (e) {
    return { ok: false, error: await folderError(dir, e, true) };
  }
}

export interface AtomicWriteOptions {
  /** Replace an existing file (default: an existing target is E_IO_EXISTS). */
  overwrite?: boolean;
  /** Sweep this tool's stale temps in the target's folder first (default true; batches sweep once). */
  sweep?: boolean;
  /** Use this temp path (same folder as the target) instead of a fresh name: the batch engine picks it. */
  tempPath?: string;
  /**
   * Follow a symbolic link at `target` and replace the file it points to (default true, as editors
   * save). Batch outputs pass false: a link in an output tree is replaced, never written through.
   */
  followLinks?: boolean;
  /**
   * The permission bits the written file gets when it does not replace a file (or whatever it replaces):
   * a backup takes the mode of the file it backs up, not the default 0666 less the umask.
   */
  mode?: number;
}

/**
 * Writes bytes to `target` atomically: a temp file in the same folder, fsync, then rename.
 * - Without `overwrite`, an existing target is an E_IO_EXISTS error (checked again at rename time
 *   with a hard link, so a file that appears meanwhile is not replaced).
 * - A symbolic link is followed: its target file is replaced and the link stays (writeTargetOf),
 *   unless `followLinks: false`.
 * - A replaced file keeps its permission bits, and its owner and group where this process may set
 *   them (chown failing with EPERM is ignored). The temp is created 0600 until then, so a private
 *   file is never readable by others while it is being written.
 * - The temp name is short and fixed-length (temp-files.ts), so any name the file system takes works.
 * - The folder is swept of this tool's stale temps first (temp-files.ts says which are stale).
 */
export async function atomicWrite(target: string, bytes: Uint8Array, opts: AtomicWriteOptions = {}): Promise<IoResult<void>> {
  installCleanup();
  let final: string;
  try {
    final = opts.followLinks === false ? path.resolve(target) : await writeTargetOf(target);
  } catch (e) {
    return { ok: false, error: ioError(e, target) };
  }
  const dir = path.dirname(final);
  if (opts.sweep !== false) await sweepStaleTemps([dir]);
  let tmp = opts.tempPath ?? tempPathFor(final);
  let fh: import('node:fs/promises').FileHandle | null = null;
  let created = false;
  try {
    let prev: import('node:fs').Stats | null = null;
    try {
      prev = await (opts.followLinks === false ? fsp.lstat(final) : fsp.stat(final));
    } catch {
      /* does not exist: good */
    }
    if (prev && !opts.overwrite) {
      return { ok: false, error: outputExistsError(target) };
    }
    // A fresh random name on the (unlikely) clash with an existing one; a given temp path is used as is.
    for (let attempt = 0; ; attempt++) {
      try {
        fh = await fsp.open(tmp, 'wx', prev?.isFile() || opts.mode !== undefined ? 0o600 : 0o666);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
          if (opts.tempPath || attempt >= 4) return { ok: false, error: { code: 'E_IO', message: `temp file exists: ${tmp}`, file: target } };
          tmp = tempPathFor(final);
          continue;
        }
        return { ok: false, error: { ...(await folderError(dir, e, false)), file: target } };
      }
    }
    pendingTemps.add(tmp);
    created = true;
    await fh.writeFile(bytes);
    if (opts.mode !== undefined && process.platform !== 'win32') {
      await fh.chmod(opts.mode & 0o7777);
    } else if (prev?.isFile() && process.platform !== 'win32') {
      // Owner first: chown clears set-id bits, which chmod then restores.
      const now = await fh.stat(); // the temp's owner: this process, group maybe the folder's (setgid)
      if (now.uid !== prev.uid || now.gid !== prev.gid) {
        await fh.chown(prev.uid, prev.gid).catch(() => undefined); // EPERM: not ours to give away
      }
      await fh.chmod(prev.mode & 0o7777);
    }
    await fh.sync();
    await fh.close();
    fh = null;
    if (opts.overwrite) {
      await fsp.rename(tmp, final);
    } else {
      try {
        // link() fails if the target appeared meanwhile; then the temp is removed.
        await fsp.link(tmp, final);
        await fsp.unlink(tmp);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST' || (await pathExists(final))) {
          return { ok: false, error: outputExistsError(target) };
        }
        // File systems without hard links (FAT/exFAT drives): rename, the target checked once more just now.
        await fsp.rename(tmp, final);
      }
    }
    pendingTemps.delete(tmp);
    return { ok: true, value: undefined };
  } catch (e) {
    return { ok: false, error: ioError(e, target) };
  } finally {
    if (fh) await fh.close().catch(() => undefined);
    if (created && pendingTemps.has(tmp)) {
      await fsp.unlink(tmp).catch(() => undefined);
      pendingTemps.delete(tmp);
    }
  }
}

/** Removes every temp file still pending (for signal handlers before exiting). */
export function removePendingTemps(): void {
  for (const t of pendingTemps) {
    try {
      unlinkSync(t);
    } catch {
      /* gone */
    }
  }
  pendingTemps.clear();
}

export { MOTION_EXTENSIONS };

export interface ListedFile {
  /** Absolute path. */
  path: string;
  /** Path relative to the folder it was found under (for mirroring the tree). */
  relative: string;
  size: number;
}

/**
 * Expands files and folders into the motion files they hold (sorted, stable). Folders give every
 * .vmd/.vpd inside, descending only with `recursive`. Unreadable entries come back as errors.
 */
export async function listMotionFiles(
  inputs: string[],
  opts: { recursive?: boolean; extensions?: readonly string[] } = {},
): Promise<{ files: ListedFile[]; errors: CodecError[] }> {
  const exts = (opts.extensions ?? MOTION_EXTENSIONS).map((e) => e.toLowerCase());
  const files: ListedFile[] = [];
  const errors: CodecError[] = [];
  const walk = async (dir: string, rel: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (e) {
      errors.push(ioError(e, dir));
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of entries) {
      const p = path.join(dir, d.name);
      const r = rel ? path.join(rel, d.name) : d.name;
      if (d.isDirectory()) {
        if (opts.recursive) await walk(p, r);
      } else if (exts.includes(path.extname(d.name).toLowerCase())) {
        try {
          const st = await fsp.stat(p);
          files.push({ path: p, relative: r, size: st.size });
        } catch (e) {
          errors.push(ioError(e, p));
        }
      }
    }
  };
  for (const input of inputs) {
    const abs = path.resolve(input);
    let st: import('node:fs').Stats;
    try {
      st = await fsp.stat(abs);
    } catch (e) {
      errors.push(ioError(e, input));
      continue;
    }
    if (st.isDirectory()) await walk(abs, '');
    else files.push({ path: abs, relative: path.basename(abs), size: st.size });
  }
  return { files, errors };
}
