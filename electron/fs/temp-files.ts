/**
 * Temp files of atomic writes: their names, and the sweep that removes the ones a killed run left.
 *
 * Name: `.vmds-<pid>-<host>-<random>.tmp` in the folder of the file being written (so the final rename
 * stays on one file system). pid = the writing process in base 36, host = 4 base-36 characters hashed
 * from the host name, random = 6 base-36 characters. At most 27 bytes whatever the final name: any name
 * the file system accepts (NAME_MAX, 255 bytes) can be written, unlike a temp name derived from it.
 *
 * Stale rule (sweepStaleTemps): an entry is removed only when all of these hold:
 *  - its name matches this tool's pattern exactly (TEMP_NAME_RE, or the old `.vmd-studio-tmp-<12 hex>-…`),
 *  - it is a regular file (lstat: never a link, folder or anything else),
 *  - and either
 *    (a) it was written on this host (host tag matches), the process in its name is not running
 *        (`kill(pid, 0)` says ESRCH), and it was last modified before the sweep started; or
 *    (b) it was last modified more than STALE_AGE_MS (1 hour) before the sweep started — for temps of
 *        another host sharing the folder (their PIDs mean nothing here) and for old-pattern names.
 *  A temp of a live process (this one included: other writes may be in flight) is never touched
 *  under (a); a write takes seconds at most, so (b) cannot catch one in progress.
 * Only folders this tool is about to write are swept: a save sweeps the folder it saves into, a batch
 * its output folders when it starts.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';

export const TEMP_NAME_RE = /^\.vmds-([0-9a-z]{1,8})-([0-9a-z]{4})-[0-9a-z]{6}\.tmp$/;
/** Names written by earlier versions (`.vmd-studio-tmp-<12 hex>-<final name>`): no PID, swept by age. */
export const LEGACY_TEMP_NAME_RE = /^\.vmd-studio-tmp-[0-9a-f]{12}-/;
/** A temp untouched this long is stale whoever wrote it. */
export const STALE_AGE_MS = 60 * 60 * 1000;

let hostTagCache: string | null = null;

/** 4 base-36 characters from the host name: tells this machine's temps from another's on a shared folder. */
export function hostTag(): string {
  if (hostTagCache === null) {
    const h = createHash('sha256').update(os.hostname()).digest();
    hostTagCache = (h.readUInt32BE(0) % 36 ** 4).toString(36).padStart(4, '0');
  }
  return hostTagCache;
}

function randomBase36(n: number): string {
  const b = randomBytes(n);
  let s = '';
  for (let i = 0; i < n; i++) s += (b[i] % 36).toString(36);
  return s;
}

/** A fresh temp name for this process (see the header for the layout). */
export function tempName(pid = process.pid): string {
  return `.vmds-${pid.toString(36)}-${hostTag()}-${randomBase36(6)}.tmp`;
}

/** A temp path next to `target` (same folder, so the rename is atomic). */
export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), tempName());
}

/** True for a name this tool's atomic writes use (current or old pattern). */
export function isTempName(name: string): boolean {
  return TEMP_NAME_RE.test(name) || LEGACY_TEMP_NAME_RE.test(name);
}

function processRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else — running.
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Whether the temp `name` with modification time `mtimeMs` is stale at `startedAt` (the header's rule). */
export function isStaleTemp(name: string, mtimeMs: number, startedAt: number): boolean {
  if (mtimeMs < startedAt - STALE_AGE_MS) return isTempName(name);
  const m = TEMP_NAME_RE.exec(name);
  if (!m || m[2] !== hostTag() || mtimeMs > startedAt) return false;
  return !processRunning(parseInt(m[1], 36));
}

/**
 * Removes this tool's stale temp files directly in each folder of `dirs` (not below). Folders that
 * do not exist or cannot be read are skipped; returns the paths removed. Never throws.
 */
export async function sweepStaleTemps(dirs: Iterable<string>, opts: { startedAt?: number } = {}): Promise<string[]> {
  const startedAt = opts.startedAt ?? Date.now();
  const removed: string[] = [];
  for (const dir of new Set(dirs)) {
    let names: string[];
    try {
      names = await fsp.readdir(dir);
    } catch {
      continue;
    }
    for (const n of names) {
      if (!isTempName(n)) continue;
      const p = path.join(dir, n);
      try {
        const st = await fsp.lstat(p);
        if (!st.isFile() || !isStaleTemp(n, st.mtimeMs, startedAt)) continue;
        await fsp.unlink(p);
        removed.push(p);
      } catch {
        /* vanished meanwhile, or not ours to remove */
      }
    }
  }
  return removed;
}
