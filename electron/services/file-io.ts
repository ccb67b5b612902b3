/**
 * Reading and saving a file the person chose, as the motion and the scene services both do.
 *
 * Reading: the extension must be one the request takes, the path a regular file (a FIFO or a device is
 * refused unopened), the size at most its limit and more than 0 bytes.
 * Saving: a folder is refused, an existing file is kept unless `overwrite`, a read-only one is never replaced
 * (saveRefusal), one that another program changed since it was read or last written is refused with E_IO_CHANGED
 * (the caller's `expect` stamp: fileStamp, changedSince), and with `backup` the version replaced is copied to
 * NAME.bak (backupPathFor: shortened for names near the file-name limit). The renderer asks for a backup on the
 * first save of a document after each open, so the .bak is the file as it was before that opening (not the
 * previous save); an Overwrite of a changed file always keeps the other program's version as the .bak.
 * A backup never goes through a link: see writeBackup.
 * Every write is atomic (fs/files.ts).
 */
import { createHash } from 'node:crypto';
import { promises as fsp, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { atomicWrite, emptyFileError, ioErrorNamed, isReadOnlyFile, notRegularFileError, readBytes, readHead, realTarget, tooLargeError } from '../fs/files';
import { FILE_HEAD_BYTES } from '../../shared/ipc/contract';
import { errValue, okValue, type FileStamp, type IpcResult, type OpenedFile, type SavedFile, type SaveOptions } from '../../shared/ipc/contract';
import type { CodecError } from '../../shared/vmd/errors';

/**
 * How close to its modification time a stamp must be taken for size, time and inode not to be trusted alone:
 * FAT keeps times to 2 s, HFS+ to 1 s, and Linux stamps writes with a clock that ticks every few milliseconds,
 * so a second write within that time can leave all three as they were (as git's "racy" index entries). Such a
 * stamp carries the bytes' SHA-256, and a save compares the bytes on disk too. A stamp taken later needs no
 * read: any write after it moves the time on (or the size, or the inode for a file renamed over it).
 */
export const RACY_MS = 2000;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A stamp's size, modification time and inode, from the file's stat. */
const statStamp = (st: BigIntStats): FileStamp => ({ size: Number(st.size), mtimeNs: st.mtimeNs.toString(), ino: st.ino.toString() });

/**
 * The version of the file at `file` now, from its stat alone (no hash: nothing is read), or null when nothing is
 * there (moved or deleted) or what is there is not a regular file. A link is followed, as opening it did.
 */
export async function fileStampNow(file: string): Promise<IpcResult<FileStamp | null>> {
  const abs = path.resolve(file);
  try {
    const st = await fsp.stat(abs, { bigint: true });
    return okValue(st.isFile() ? statStamp(st) : null);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException)?.code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return okValue(null);
    return { ok: false, error: await ioErrorNamed(e, abs) };
  }
}

/** The stamp of a file whose stat is `st` and whose bytes are `bytes` (hashed only when the stamp is racy). */
function stampOf(st: BigIntStats, bytes: Uint8Array): FileStamp {
  const stamp = statStamp(st);
  // A modification time ahead of this clock (a network drive's skewed clock) counts as racy too.
  if (Date.now() - Number(st.mtimeMs) < RACY_MS) stamp.sha256 = sha256(bytes);
  return stamp;
}

/**
 * Whether the file on disk (stat `st`; its bytes read only when `expect` carries a hash and the rest matches)
 * is another version than `expect`. Size, modification time and inode catch a write in place, a truncation, and
 * a sync client's or editor's temp file renamed over it (a new inode, even with the old time kept, as
 * `rsync -t` does); the hash catches a write too close to the stamp for the clock (RACY_MS). The inode-change
 * time is not compared: a chmod or a new hard link would read as a change of the contents.
 */
async function changedSince(abs: string, st: BigIntStats, expect: FileStamp): Promise<IpcResult<{ changed: boolean; bytes?: Uint8Array }>> {
  if (String(st.size) !== String(expect.size) || st.mtimeNs.toString() !== expect.mtimeNs || st.ino.toString() !== expect.ino) return okValue({ changed: true });
  if (!expect.sha256) return okValue({ changed: false });
  const now = await readBytes(abs, { maxBytes: Number.MAX_SAFE_INTEGER });
  if (!now.ok) return now;
  return okValue({ changed: sha256(now.value) !== expect.sha256, bytes: now.value });
}

/**
 * Reads a file's bytes for a request: `what` names the kind in the error ("a VMD or VPD file"); with `stamp`, the
 * version read and its real path too. With `byContent`, a file of another extension is read when its first bytes
 * (FILE_HEAD_BYTES, read alone first) pass it: a VMD renamed .mvd opens by Open… as it does when dropped.
 */
export async function readChecked(
  file: string,
  exts: readonly string[],
  what: string,
  maxBytes: number,
  opts: { stamp?: boolean; byContent?: (head: Uint8Array) => boolean } = {},
): Promise<IpcResult<OpenedFile>> {
  const abs = path.resolve(file);
  const unsupported = () => errValue<OpenedFile>('E_UNSUPPORTED', `not ${what} (${exts.join(', ')}): ${path.basename(abs)}`, { file: abs });
  if (!exts.includes(path.extname(abs).toLowerCase())) {
    if (!opts.byContent) return unsupported();
    const head = await readHead(abs, FILE_HEAD_BYTES);
    if (!head.ok || !opts.byContent(head.value)) return unsupported();
  }
  let st: BigIntStats;
  try {
    // Taken before the read: a write during the read leaves a stamp older than the file, so the next save asks
    // (never the other way round, which would let that write be overwritten).
    st = await fsp.stat(abs, { bigint: true });
    // A folder, a FIFO, a device (a link to /dev/zero) is refused before it is opened.
    if (!st.isFile()) return { ok: false, error: notRegularFileError(abs, st as unknown as import('node:fs').Stats) };
    if (st.size > BigInt(maxBytes)) return { ok: false, error: tooLargeError(abs, Number(st.size), maxBytes) };
    // Nothing the app reads is empty, and an empty array cannot cross the browser mode's frame.
    if (st.size === 0n) return { ok: false, error: emptyFileError(abs) };
  } catch (e) {
    // A name that is not UTF-8 is named by its Shift_JIS reading, with how to fix it.
    return { ok: false, error: await ioErrorNamed(e, abs) };
  }
  const r = await readBytes(abs, { maxBytes });
  if (!r.ok) return r;
  const opened: OpenedFile = { path: abs, name: path.basename(abs), bytes: r.value };
  if (opts.stamp) {
    opened.stamp = stampOf(st, r.value);
    // The same file by another path (a link, a linked folder) is one file to the renderer.
    opened.realPath = await realTarget(abs);
  }
  return okValue(opened);
}

/** The longest file name, in bytes of UTF-8, that Linux and macOS file systems take (ext4, APFS: 255). */
const NAME_MAX_BYTES = 255;

/**
 * Where the backup of `abs` goes: NAME.bak beside it; for a name so long that ".bak" would pass the
 * file-name limit, the name cut at a character boundary, "~", 8 hex digits of a hash of the whole name,
 * then ".bak" (two long names sharing a beginning keep separate backups).
 */
export function backupPathFor(abs: string): string {
  const name = path.basename(abs);
  if (Buffer.byteLength(name + '.bak') <= NAME_MAX_BYTES) return abs + '.bak';
  const tag = '~' + createHash('sha256').update(name).digest('hex').slice(0, 8) + '.bak';
  let cut = '';
  for (const ch of name) {
    if (Buffer.byteLength(cut + ch + tag) > NAME_MAX_BYTES) break;
    cut += ch;
  }
  return path.join(path.dirname(abs), cut + tag);
}

/**
 * Why the name a backup would take cannot be used, or null when it can. A backup replaces only what this
 * tool would have made there: nothing, or a regular file of this user's with no other hard link. A
 * symbolic link (to a file, dangling or to a folder), a folder, a device, a FIFO, another user's file or
 * a file with more names is left as it is: a downloaded folder can hold `dance.vmd.bak → ~/.ssh/…`.
 */
export async function backupRefusal(bak: string): Promise<string | null> {
  let st: import('node:fs').Stats;
  try {
    st = await fsp.lstat(bak);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : `${path.basename(bak)} cannot be checked`;
  }
  const name = path.basename(bak);
  if (st.isSymbolicLink()) return `${name} is a symbolic link (not followed)`;
  if (!st.isFile()) return `${name} is not a regular file`;
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return `${name} belongs to another user`;
  if (st.nlink > 1) return `${name} has other hard links`;
  return null;
}

/**
 * Writes the backup of `abs` (its previous bytes `prev`, its mode `mode`) at backupPathFor(abs), replacing
 * the entry itself (rename; a link swapped in after the check is replaced, not written through). Returns
 * the backup's path, or why none was written.
 */
async function writeBackup(abs: string, prev: Uint8Array, mode: number): Promise<IpcResult<{ path: string | null; skipped?: string }>> {
  const bak = backupPathFor(abs);
  const refusal = await backupRefusal(bak);
  if (refusal) return okValue({ path: null, skipped: refusal });
  const w = await atomicWrite(bak, prev, { overwrite: true, followLinks: false, mode });
  if (!w.ok) return w;
  return okValue({ path: bak });
}

/**
 * Whether this process may not replace the existing file `abs` (stat `st`), as an error, or null: its owner's
 * write bit off, whoever runs it (root included), or a file this user may not write (files.ts isReadOnlyFile,
 * the rule the CLI's and the batch's --overwrite follow too).
 */
async function saveRefusal(abs: string, st: BigIntStats): Promise<CodecError | null> {
  if (!(await isReadOnlyFile(abs, st.mode))) return null;
  return { code: 'E_IO_DENIED', message: `${path.basename(abs)} is read-only`, file: abs, problem: 'readOnly' };
}

/**
 * The error of a save whose write (the file's or its backup's) was refused for the folder: it names the document
 * the person saved, not the .bak the save was making first, and says what to do. Other errors as they are.
 */
function saveError(abs: string, e: CodecError): CodecError {
  if (e.code !== 'E_IO_DENIED') return e;
  const dir = path.dirname(abs);
  const why = / \(([^)]*)\)$/.exec(e.message)?.[1] ?? 'read-only or permission denied';
  return {
    code: 'E_IO_DENIED',
    message: `Cannot save ${path.basename(abs)}: the folder ${dir} cannot be written (${why}). Use Save As… to save elsewhere.`,
    file: abs,
    problem: 'folderNotWritable',
    params: { folder: dir },
  };
}

/**
 * A saver (one per service instance; it holds nothing between saves: whether a save backs up is the caller's
 * `backup`, asked for on the first save after each open).
 */
export function createBackupSaver(): (abs: string, bytes: Uint8Array, o: SaveOptions) => Promise<IpcResult<SavedFile>> {
  return async (abs, bytes, o) => {
    let st: BigIntStats | null = null;
    try {
      st = await fsp.stat(abs, { bigint: true });
    } catch {
      /* new file */
    }
    // Only a regular file is replaced (and read for its backup): a FIFO or a device is left alone.
    if (st && !st.isFile()) return { ok: false, error: notRegularFileError(abs, st as unknown as import('node:fs').Stats) };
    if (st && !o.overwrite) return errValue('E_IO_EXISTS', 'the file exists', { file: abs });
    if (st) {
      const denied = await saveRefusal(abs, st);
      if (denied) return { ok: false, error: denied };
    }
    let prev: Uint8Array | undefined;
    let replacedChanged = false;
    if (st && o.expect) {
      // A file gone since it was read is written again: there is no other version to lose.
      const c = await changedSince(abs, st, o.expect);
      if (!c.ok) return c;
      prev = c.value.bytes;
      if (c.value.changed && !o.replaceChanged) {
        return errValue('E_IO_CHANGED', `${path.basename(abs)} was changed on disk by another program since it was opened or last saved`, { file: abs });
      }
      replacedChanged = c.value.changed;
    }
    let backupPath: string | null = null;
    let backupSkipped: string | undefined;
    if (st && (o.backup || replacedChanged)) {
      if (!prev) {
        const r = await readBytes(abs, { maxBytes: Number.MAX_SAFE_INTEGER });
        if (!r.ok) return r;
        prev = r.value;
      }
      const b = await writeBackup(abs, prev, Number(st.mode) & 0o7777);
      if (!b.ok) return { ok: false, error: saveError(abs, b.error) };
      // The other program's version must survive an Overwrite: with no .bak for it, nothing is written.
      if (replacedChanged && !b.value.path) {
        return errValue('E_IO', `${path.basename(abs)} was not saved: the other program's version cannot be kept (${b.value.skipped}). Use Save As… to save elsewhere.`, { file: abs });
      }
      backupPath = b.value.path;
      backupSkipped = b.value.skipped;
    }
    const w = await atomicWrite(abs, bytes, { overwrite: !!o.overwrite });
    if (!w.ok) return { ok: false, error: saveError(abs, w.error) };
    const saved: SavedFile = { path: abs, bytesWritten: bytes.length, backupPath };
    if (backupSkipped) saved.backupSkipped = backupSkipped;
    if (replacedChanged) saved.replacedChanged = true;
    // The version just written, hashed whatever its time (it is racy by nature): a write by another program
    // right after the rename gives the next save a stamp whose bytes are not the file's, so that save asks.
    const now = await fsp.stat(abs, { bigint: true }).catch(() => null);
    if (now) saved.stamp = { ...statStamp(now), sha256: sha256(bytes) };
    return okValue(saved);
  };
}
