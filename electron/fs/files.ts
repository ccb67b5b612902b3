/**
 * File I/O shared by the CLI, the batch engine and the app services: reads that return errors as
 * values, atomic writes (temp file in the same folder, then rename; links followed, mode and owner
 * kept, stale temps swept — see atomicWrite and temp-files.ts), output folders that say why they
 * cannot be made, and folder listing.
 */
import { promises as fsp, constants as fsc, statfsSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { sweepStaleTemps, tempPathFor } from './temp-files';
import { MOTION_EXTENSIONS } from '../../shared/ipc/file-types';
import { emptyFileError, refuseEmpty } from '../../shared/ipc/file-kind';
import type { CodecError, ErrorCode } from '../../shared/vmd/errors';

export type IoResult<T> = { ok: true; value: T } | { ok: false; error: CodecError };

/** Why a file whose name is not UTF-8 text cannot be read or written here. */
export const NOT_UTF8_NAME = 'the file name is not valid UTF-8 text, so it cannot be opened by name here; rename the file';

/** The space left for this user on the disk holding `folder`, in whole MB; null when it cannot be read. */
export function freeMegabytes(folder: string): number | null {
  try {
    const s = statfsSync(folder);
    return Math.floor((Number(s.bavail) * Number(s.bsize)) / 1048576);
  } catch {
    return null;
  }
}

/**
 * The space left for this user on the disk holding `folder`, in bytes; null when the platform gives no figure
 * (the folder is missing, or statfs is not there or fails).
 */
export async function freeBytes(folder: string): Promise<number | null> {
  try {
    const s = await fsp.statfs(folder);
    const free = Number(s.bavail) * Number(s.bsize);
    return Number.isFinite(free) && free >= 0 ? free : null;
  } catch {
    return null;
  }
}

/**
 * A name whose bytes are not UTF-8 as people can read it: decoded as Shift_JIS (code page 932: what a zip
 * made on Japanese Windows holds, unpacked by a tool that keeps the bytes) when the bytes are that, with
 * `sjis` true; else the bytes as UTF-8 with U+FFFD for what is not.
 */
export function nonUtf8Name(raw: Uint8Array): { name: string; sjis: boolean } {
  try {
    return { name: new TextDecoder('shift_jis', { fatal: true }).decode(raw), sjis: true };
  } catch {
    return { name: Buffer.from(raw).toString('utf8'), sjis: false };
  }
}

/**
 * The error for a file or folder whose name is not UTF-8 text (`raw`: its name's bytes, when known): which
 * one (the name decoded as Shift_JIS) and how to fix it, since no path string here can name it. `params.name`
 * carries the decoded name and `params.sjis` is 1 (the app's Japanese line); a name that is not Shift_JIS either
 * gets the plain NOT_UTF8_NAME.
 */
export function notUtf8Error(file: string, raw: Uint8Array | null): CodecError {
  const named = raw ? nonUtf8Name(raw) : null;
  if (!named?.sjis) return { code: 'E_IO_NAME_NOT_UTF8', message: NOT_UTF8_NAME, file };
  const message =
    `the file name is Shift_JIS text ("${named.name}", as a zip made on Japanese Windows writes names), not UTF-8, so it cannot be opened by name here: ` +
    `unzip the archive again with the Japanese code page (unzip -O cp932, or 7-Zip / your archiver's Shift_JIS option), ` +
    `or rename the files in its folder: convmv -f sjis -t utf8 --notest -r FOLDER`;
  return { code: 'E_IO_NAME_NOT_UTF8', message, file, params: { name: named.name, sjis: 1 } };
}

/**
 * The bytes of path `p` whose names (the last, or folders on the way) arrived with U+FFFD for bytes that are not
 * UTF-8: each such segment is found in its folder (read as bytes) as the one entry that decodes to it. Null when
 * `p` has no such segment, or one cannot be found (none, or two that decode alike).
 */
export async function rawPathOf(p: string): Promise<Buffer | null> {
  const abs = path.resolve(p);
  if (!abs.includes('\uFFFD')) return null;
  const { root } = path.parse(abs);
  let cur = Buffer.from(root);
  for (const seg of abs.slice(root.length).split(path.sep).filter(Boolean)) {
    const sep = cur.length && cur[cur.length - 1] !== path.sep.charCodeAt(0) ? Buffer.from(path.sep) : Buffer.alloc(0);
    if (!seg.includes('\uFFFD')) {
      cur = Buffer.concat([cur, sep, Buffer.from(seg)]);
      continue;
    }
    let names: Buffer[];
    try {
      names = await fsp.readdir(cur, { encoding: 'buffer' });
    } catch {
      return null;
    }
    const hits = names.filter((n) => n.toString('utf8') === seg);
    if (hits.length !== 1) return null;
    cur = Buffer.concat([cur, sep, hits[0]]);
  }
  return cur;
}

/**
 * `ioError` for a path, naming a file (or folder on the way) whose name is not UTF-8 by its Shift_JIS reading
 * and saying how to fix it (notUtf8Error), which takes a look in its folders (rawPathOf).
 */
export async function ioErrorNamed(e: unknown, file: string): Promise<CodecError> {
  const err = ioError(e, file);
  if (err.code !== 'E_IO_NAME_NOT_UTF8') return err;
  const raw = await rawPathOf(file);
  // The last name on the way that is not UTF-8 (the file's, or its folder's).
  let bad: Buffer | null = null;
  if (raw) for (const seg of splitBytes(raw, path.sep.charCodeAt(0))) if (utf8Name(seg) === null) bad = seg;
  return notUtf8Error(err.file ?? file, bad);
}

/** `raw` cut at each `sep` byte (empty pieces left out). */
function splitBytes(raw: Buffer, sep: number): Buffer[] {
  const out: Buffer[] = [];
  let from = 0;
  for (let i = 0; i <= raw.length; i++) {
    if (i < raw.length && raw[i] !== sep) continue;
    if (i > from) out.push(raw.subarray(from, i));
    from = i + 1;
  }
  return out;
}

/** Maps a Node fs error to one of our codes and a one-line message. */
export function ioError(e: unknown, file: string): CodecError {
  const code = (e as NodeJS.ErrnoException)?.code;
  let c: ErrorCode = 'E_IO';
  let what = (e as Error)?.message ?? String(e);
  if (code === 'ENOENT' && file.includes('\uFFFD')) {
    // Node names files by UTF-8 text: a name whose bytes are not UTF-8 arrives with U+FFFD in their place
    // and names nothing. Say so rather than "no such file" about a file the listing showed.
    c = 'E_IO_NAME_NOT_UTF8';
    what = NOT_UTF8_NAME;
  } else if (code === 'ENOENT') {
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
  } else if (code === 'ENOSPC') {
    // A full disk, in words, with what is left (a video export's temp file filled it: "ENOSPC: no space left on device").
    const free = freeMegabytes(path.dirname(file));
    what = free === null ? 'the disk is full' : `the disk is full (${free} MB free)`;
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

/**
 * The largest file anything here reads (a model with its textures, a long song as float WAV): a bound for
 * reads that name no tighter one. Motions have theirs (MAX_MOTION_FILE_BYTES), scenes and maps smaller ones.
 */
export const MAX_INPUT_BYTES = 512 * 1024 * 1024;

/** What a path that is not a regular file is (a FIFO, a device…), or null for a regular file. */
export function specialKindOf(st: import('node:fs').Stats): string | null {
  if (st.isFile()) return null;
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

/**
 * The refusal of a path that is not a regular file: a folder says so as before; a device, a FIFO or a
 * socket is "not a regular file (a FIFO (named pipe))" and is never opened for reading.
 */
export function notRegularFileError(file: string, st: import('node:fs').Stats): CodecError {
  if (st.isDirectory()) return { code: 'E_IO', message: 'is a folder, not a file', file };
  return { code: 'E_IO', message: `not a regular file (${specialKindOf(st)})`, file };
}

export function tooLargeError(file: string, size: number, maxBytes: number): CodecError {
  return { code: 'E_IO', message: `file is too large (${size} bytes; at most ${maxBytes})`, file };
}

/** Open flags for reading that never wait: a FIFO with no writer, a terminal, a device answer at once. */
const READ_FLAGS = fsc.O_RDONLY | (fsc.O_NONBLOCK ?? 0) | (fsc.O_NOCTTY ?? 0);

/**
 * Reads a whole regular file as bytes, at most `maxBytes` (default MAX_INPUT_BYTES). Anything else is
 * refused without reading it: a folder, a FIFO, a device (a link to /dev/zero), a socket ("not a regular
 * file"), a file larger than the bound ("file is too large"). The path is checked with stat before it is
 * opened, opened without blocking (O_NONBLOCK: a FIFO with no writer would wait for ever), checked again
 * on the open handle (the entry swapped between the two is refused) and read for the size it had then:
 * memory is bounded by `maxBytes` whatever the file does while it is read.
 */
export async function readBytes(file: string, opts: { maxBytes?: number } = {}): Promise<IoResult<Uint8Array>> {
  const maxBytes = opts.maxBytes ?? MAX_INPUT_BYTES;
  let fh: import('node:fs/promises').FileHandle | null = null;
  try {
    const before = await fsp.stat(file);
    if (!before.isFile()) return { ok: false, error: notRegularFileError(file, before) };
    if (before.size > maxBytes) return { ok: false, error: tooLargeError(file, before.size, maxBytes) };
    fh = await fsp.open(file, READ_FLAGS);
    const st = await fh.stat();
    if (!st.isFile()) return { ok: false, error: notRegularFileError(file, st) };
    if (st.dev !== before.dev || st.ino !== before.ino) return { ok: false, error: { code: 'E_IO', message: 'the file was replaced while it was being opened', file } };
    if (st.size > maxBytes) return { ok: false, error: tooLargeError(file, st.size, maxBytes) };
    return { ok: true, value: await readInto(fh, Buffer.allocUnsafeSlow(st.size)) };
  } catch (e) {
    // A name that is not UTF-8 is named by its Shift_JIS reading, with how to fix it (the CLI's message too).
    return { ok: false, error: await ioErrorNamed(e, file) };
  } finally {
    if (fh) await fh.close().catch(() => undefined);
  }
}

/** Fills `buf` from the file's start; a file cut short meanwhile gives what is there. */
async function readInto(fh: import('node:fs/promises').FileHandle, buf: Buffer): Promise<Uint8Array> {
  let n = 0;
  while (n < buf.length) {
    const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
    if (bytesRead === 0) break;
    n += bytesRead;
  }
  return new Uint8Array(buf.buffer, buf.byteOffset, n);
}

/**
 * The first `count` bytes of a regular file (fewer when it is shorter), and nothing more: enough to tell by its
 * magic what a file is (a VMD renamed .mvd) without reading a file of any size.
 */
export async function readHead(file: string, count: number): Promise<IoResult<Uint8Array>> {
  let fh: import('node:fs/promises').FileHandle | null = null;
  try {
    // A FIFO or a device is refused before it is opened (opening a FIFO waits for a writer).
    const before = await fsp.stat(file);
    if (!before.isFile()) return { ok: false, error: notRegularFileError(file, before) };
    fh = await fsp.open(file, READ_FLAGS);
    const st = await fh.stat();
    if (!st.isFile()) return { ok: false, error: notRegularFileError(file, st) };
    return { ok: true, value: await readInto(fh, Buffer.alloc(Math.max(0, Math.min(count, st.size)))) };
  } catch (e) {
    return { ok: false, error: await ioErrorNamed(e, file) };
  } finally {
    if (fh) await fh.close().catch(() => undefined);
  }
}

/** What every reader of an input document (the app's open and drop, the CLI, the batch) says of a 0-byte file: one, in shared/. */
export { emptyFileError };

/**
 * readBytes for an input document (motion, pose, model, capture): an empty file is E_FILE_EMPTY, as the
 * app says, rather than whatever its parser makes of no bytes ("not a VMD file").
 */
export async function readInputBytes(file: string, opts: { maxBytes?: number } = {}): Promise<IoResult<Uint8Array>> {
  const r = await readBytes(file, opts);
  const empty = r.ok ? refuseEmpty(r.value, file) : null;
  return empty ? { ok: false, error: empty } : r;
}

export { tempPathFor } from './temp-files';

/** What an output that exists and may not be replaced is reported as (the CLI, the batch, the saves). */
export const OUTPUT_EXISTS_MESSAGE = 'output exists (use --overwrite to replace it)';
export function outputExistsError(file: string): CodecError {
  return { code: 'E_IO_EXISTS', message: OUTPUT_EXISTS_MESSAGE, file };
}

/**
 * Whether the existing file `p` (permission bits `mode`) is one this process must not replace: its owner's write
 * bit off (chmod 444, Windows' read-only attribute, which Node reports as a mode without 0o200), or not writable
 * by this user (access). The mode is read because the replacing itself is never refused: the temp file renamed
 * over the target needs only the folder's permission, and a process run as root passes every access() check. A
 * file marked read-only on purpose is the person's "do not write this" (the app's saves, the CLI and the batch alike).
 */
export async function isReadOnlyFile(p: string, mode: number | bigint): Promise<boolean> {
  if ((Number(mode) & 0o200) === 0) return true;
  return fsp.access(p, fsc.W_OK).then(() => false, () => true);
}

/** What the CLI and the batch say of an output that --overwrite may not replace because it is read-only. */
export const READ_ONLY_MESSAGE = 'the file is read-only, so --overwrite does not replace it (make it writable first)';
export function readOnlyError(file: string): CodecError {
  return { code: 'E_IO_DENIED', message: READ_ONLY_MESSAGE, file, problem: 'readOnly' };
}

/**
 * Why an output cannot go to `p`, said before the work (the write checks again, atomically), or null: a folder
 * there, whatever `overwrite` says (a file never replaces one: said first, not after --overwrite was given for
 * "output exists"), anything else there when not `overwrite`, and with `overwrite` a read-only file (the file
 * a link there names: the one the write would replace).
 */
export async function outputRefusal(p: string, overwrite: boolean): Promise<CodecError | null> {
  const st = await fsp.lstat(p).catch(() => null);
  if (!st) return null;
  if (st.isDirectory()) return notRegularFileError(p, st);
  if (!overwrite) return outputExistsError(p);
  const target = st.isSymbolicLink() ? await fsp.stat(p).catch(() => null) : st;
  return target?.isFile() && (await isReadOnlyFile(p, target.mode)) ? readOnlyError(p) : null;
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
/** Told when pendingTemps becomes non-empty (true) or empty (false): see watchTemps. */
const tempWatchers = new Set<(pending: boolean) => void>();

function addTemp(temp: string): void {
  const was = pendingTemps.size;
  pendingTemps.add(temp);
  if (was === 0) for (const w of tempWatchers) w(true);
}

function dropTemp(temp: string): void {
  if (pendingTemps.delete(temp) && pendingTemps.size === 0) for (const w of tempWatchers) w(false);
}

/**
 * Calls `watcher(true)` whenever this process starts holding a temp file (none held before) and
 * `watcher(false)` when it holds none again; at once with the present state. Returns the unwatch. The
 * CLI's signal handlers are installed only while a temp is held (signals.ts), so a signal during the
 * work ends the process at once, and one during a write removes the temp first.
 */
export function watchTemps(watcher: (pending: boolean) => void): () => void {
  tempWatchers.add(watcher);
  watcher(pendingTemps.size > 0);
  return () => {
    tempWatchers.delete(watcher);
  };
}

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
  addTemp(temp);
}

export function releaseTemp(temp: string): void {
  dropTemp(temp);
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
  // `folderMissing`: the app asks to make the folder again or Save As… (renderer stores/save-refusal.ts).
  if (code === 'ENOENT' && !creating) return { code: 'E_IO_NOT_FOUND', message: `no such folder: ${dir} (create it first, or write into a folder that exists)`, file: dir, problem: 'folderMissing', params: { folder: abs } };
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
   * With `overwrite`, still never replace a read-only file (isReadOnlyFile): E_IO_DENIED (readOnlyError). The
   * CLI and the batch pass it, as --overwrite means "replace what may be replaced".
   */
  keepReadOnly?: boolean;
  /**
   * The permission bits the written file gets when it does not replace a file (or whatever it replaces):
   * a backup takes the mode of the file it backs up, not the default 0666 less the umask.
   */
  mode?: number;
}

/**
 * Writes bytes to `target` atomically: a temp file in the same folder, fsync, then rename.
 * - Without `overwrite`, an existing target is an E_IO_EXISTS error (checked again at rename time
 *   with a hard link, so a file that appears meanwhile is not replaced); with `keepReadOnly`, a
 *   read-only one is E_IO_DENIED even with `overwrite`.
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
    if (prev?.isFile() && opts.keepReadOnly && (await isReadOnlyFile(final, prev.mode))) {
      return { ok: false, error: readOnlyError(target) };
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
    addTemp(tmp);
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
    dropTemp(tmp);
    return { ok: true, value: undefined };
  } catch (e) {
    return { ok: false, error: ioError(e, target) };
  } finally {
    if (fh) await fh.close().catch(() => undefined);
    if (created && pendingTemps.has(tmp)) {
      await fsp.unlink(tmp).catch(() => undefined);
      dropTemp(tmp);
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
  for (const t of [...pendingTemps]) dropTemp(t);
}

export { MOTION_EXTENSIONS };

export interface ListedFile {
  /** Absolute path. */
  path: string;
  /** Path relative to the folder it was found under (for mirroring the tree). */
  relative: string;
  size: number;
}

/** The name of a directory entry read as bytes: its text, or null when the bytes are not UTF-8. */
export function utf8Name(raw: Buffer | string): string | null {
  if (typeof raw === 'string') return raw;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return null;
  }
}

/**
 * Expands files and folders into the motion files they hold (sorted, stable). Folders give every
 * .vmd/.vpd inside, descending only with `recursive`. Only regular files are listed (a link is followed
 * to what it names): a FIFO, a device or a socket by a motion's name, a link to /dev/zero, a name that is
 * not UTF-8 text (which no path string can name) come back as errors, as do unreadable entries.
 */
export async function listMotionFiles(
  inputs: string[],
  opts: { recursive?: boolean; extensions?: readonly string[] } = {},
): Promise<{ files: ListedFile[]; errors: CodecError[] }> {
  const exts = (opts.extensions ?? MOTION_EXTENSIONS).map((e) => e.toLowerCase());
  const files: ListedFile[] = [];
  const errors: CodecError[] = [];
  const walk = async (dir: string, rel: string) => {
    let raw: import('node:fs').Dirent<Buffer>[];
    try {
      // As bytes: a name that is not UTF-8 would otherwise turn into U+FFFD and name no file at all.
      raw = await fsp.readdir(dir, { withFileTypes: true, encoding: 'buffer' });
    } catch (e) {
      errors.push(ioError(e, dir));
      return;
    }
    const entries = raw.map((d) => ({ d, name: utf8Name(d.name) }));
    const key = (x: { d: import('node:fs').Dirent<Buffer>; name: string | null }) => x.name ?? Buffer.from(x.d.name).toString('latin1');
    entries.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    for (const { d, name: text } of entries) {
      const name = text ?? Buffer.from(d.name).toString('utf8'); // for the message only
      const p = path.join(dir, name);
      const r = rel ? path.join(rel, name) : name;
      if (text === null) {
        // Named by its Shift_JIS reading, with how to fix it (the path itself names no file).
        const shown = nonUtf8Name(d.name).name;
        if (d.isDirectory() ? opts.recursive : exts.includes(path.extname(shown).toLowerCase())) errors.push(notUtf8Error(p, d.name));
        continue;
      }
      if (d.isDirectory()) {
        if (opts.recursive) await walk(p, r);
      } else if (exts.includes(path.extname(name).toLowerCase())) {
        try {
          const st = await fsp.stat(p);
          if (st.isFile()) files.push({ path: p, relative: r, size: st.size });
          else errors.push(notRegularFileError(p, st));
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
      errors.push(await ioErrorNamed(e, input));
      continue;
    }
    if (st.isDirectory()) await walk(abs, '');
    else if (st.isFile()) files.push({ path: abs, relative: path.basename(abs), size: st.size });
    else errors.push(notRegularFileError(input, st));
  }
  return { files, errors };
}
