/**
 * File I/O shared by the CLI, the batch engine and the app services: reads that return errors as
 * values, atomic writes (temp file in the same folder, then rename), and folder listing.
 */
import { promises as fsp, constants as fsc, unlinkSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
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
  } else if (code === 'EISDIR') {
    what = 'is a folder, not a file';
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

/** Name of the temp file used while writing `target` (same folder, so rename is atomic). */
export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `.vmd-studio-tmp-${randomBytes(6).toString('hex')}-${path.basename(target)}`);
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
 * Writes bytes to `target` atomically: a temp file in the same folder, fsync, then rename.
 * Without `overwrite`, an existing target is an E_IO_EXISTS error (checked again at rename time
 * with a hard link, so a file that appears meanwhile is not replaced).
 */
export async function atomicWrite(target: string, bytes: Uint8Array, opts: { overwrite?: boolean } = {}): Promise<IoResult<void>> {
  installCleanup();
  const tmp = tempPathFor(target);
  pendingTemps.add(tmp);
  let fh: import('node:fs/promises').FileHandle | null = null;
  try {
    if (!opts.overwrite) {
      try {
        await fsp.access(target, fsc.F_OK);
        return { ok: false, error: { code: 'E_IO_EXISTS', message: 'output exists (use --overwrite to replace it)', file: target } };
      } catch {
        /* does not exist: good */
      }
    }
    fh = await fsp.open(tmp, 'wx');
    await fh.writeFile(bytes);
    await fh.sync();
    await fh.close();
    fh = null;
    if (opts.overwrite) {
      await fsp.rename(tmp, target);
    } else {
      // link() fails if the target appeared meanwhile; then the temp is removed.
      await fsp.link(tmp, target);
      await fsp.unlink(tmp);
    }
    pendingTemps.delete(tmp);
    return { ok: true, value: undefined };
  } catch (e) {
    return { ok: false, error: ioError(e, target) };
  } finally {
    if (fh) await fh.close().catch(() => undefined);
    if (pendingTemps.has(tmp)) {
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

export const MOTION_EXTENSIONS = ['.vmd', '.vpd'];

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
  opts: { recursive?: boolean; extensions?: string[] } = {},
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
