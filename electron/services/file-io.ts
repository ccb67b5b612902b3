/**
 * Reading and saving a file the person chose, as the motion and the scene services both do.
 *
 * Reading: the extension must be one the request takes, the path a regular file (a FIFO or a device is
 * refused unopened), the size at most its limit and more than 0 bytes.
 * Saving: a folder is refused, an
 * existing file is kept unless `overwrite`, and with `backup` the previous version is copied to NAME.bak
 * (backupPathFor: shortened for names near the file-name limit) once per session (the .bak is the file as
 * it was before this session touched it, not the previous save).
 * A backup never goes through a link: see writeBackup.
 * Every write is atomic (fs/files.ts).
 */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { atomicWrite, emptyFileError, ioError, notRegularFileError, readBytes, tooLargeError } from '../fs/files';
import { errValue, okValue, type IpcResult, type OpenedFile, type SavedFile, type SaveOptions } from '../../shared/ipc/contract';

/** Reads a file's bytes for a request: `what` names the kind in the error ("a VMD or VPD file"). */
export async function readChecked(file: string, exts: readonly string[], what: string, maxBytes: number): Promise<IpcResult<OpenedFile>> {
  const abs = path.resolve(file);
  if (!exts.includes(path.extname(abs).toLowerCase())) {
    return errValue('E_UNSUPPORTED', `not ${what} (${exts.join(', ')}): ${path.basename(abs)}`, { file: abs });
  }
  try {
    const st = await fsp.stat(abs);
    // A folder, a FIFO, a device (a link to /dev/zero) is refused before it is opened.
    if (!st.isFile()) return { ok: false, error: notRegularFileError(abs, st) };
    if (st.size > maxBytes) return { ok: false, error: tooLargeError(abs, st.size, maxBytes) };
    // Nothing the app reads is empty, and an empty array cannot cross the browser mode's frame.
    if (st.size === 0) return { ok: false, error: emptyFileError(abs) };
  } catch (e) {
    return { ok: false, error: ioError(e, abs) };
  }
  const r = await readBytes(abs, { maxBytes });
  if (!r.ok) return r;
  return okValue({ path: abs, name: path.basename(abs), bytes: r.value });
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
async function backupRefusal(bak: string): Promise<string | null> {
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

/** A saver with its own "already backed up this session" set: one per service instance. */
export function createBackupSaver(): (abs: string, bytes: Uint8Array, o: SaveOptions) => Promise<IpcResult<SavedFile>> {
  const backedUp = new Set<string>();
  return async (abs, bytes, o) => {
    let exists = false;
    let mode = 0o644;
    try {
      const st = await fsp.stat(abs);
      // Only a regular file is replaced (and read for its backup): a FIFO or a device is left alone.
      if (!st.isFile()) return { ok: false, error: notRegularFileError(abs, st) };
      exists = true;
      mode = st.mode & 0o7777;
    } catch {
      /* new file */
    }
    if (exists && !o.overwrite) return errValue('E_IO_EXISTS', 'the file exists', { file: abs });
    let backupPath: string | null = null;
    let backupSkipped: string | undefined;
    if (exists && o.backup && !backedUp.has(abs)) {
      const prev = await readBytes(abs, { maxBytes: Number.MAX_SAFE_INTEGER });
      if (!prev.ok) return prev;
      const b = await writeBackup(abs, prev.value, mode);
      if (!b.ok) return b;
      backupPath = b.value.path;
      backupSkipped = b.value.skipped;
    }
    const w = await atomicWrite(abs, bytes, { overwrite: !!o.overwrite });
    if (!w.ok) return w;
    if (exists && o.backup) backedUp.add(abs);
    return okValue(backupSkipped ? { path: abs, bytesWritten: bytes.length, backupPath, backupSkipped } : { path: abs, bytesWritten: bytes.length, backupPath });
  };
}
