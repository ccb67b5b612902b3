/** The recent-files list (most recent first, no duplicates, at most `max`), persisted as recent.json. */
import path from 'node:path';
import type { RecentFile } from '../../shared/ipc/contract';
import { realTarget } from '../fs/files';
import { readJson, serial, writeJson } from './json-store';

export interface RecentFilesService {
  list(): Promise<RecentFile[]>;
  add(file: string): Promise<RecentFile[]>;
  /** Drops a file from the list (one that is gone); the list as it is when absent. */
  remove(file: string): Promise<RecentFile[]>;
  clear(): Promise<RecentFile[]>;
}

/** Same file? Windows and macOS file systems are usually case-insensitive. */
function samePath(a: string, b: string, platform: string): boolean {
  return platform === 'linux' ? a === b : a.toLowerCase() === b.toLowerCase();
}

export function createRecentFiles(settingsDir: string, opts: { max?: number; platform?: string; now?: () => number } = {}): RecentFilesService {
  const file = path.join(settingsDir, 'recent.json');
  const max = opts.max ?? 12;
  const platform = opts.platform ?? process.platform;
  const now = opts.now ?? Date.now;
  const queue = serial();
  const read = async (): Promise<RecentFile[]> => {
    const raw = await readJson<unknown>(file, []);
    if (!Array.isArray(raw)) return [];
    return raw.filter(
      (r): r is RecentFile => typeof r === 'object' && r !== null && typeof r.path === 'string' && typeof r.name === 'string' && typeof r.openedAt === 'number',
    );
  };
  return {
    list: () => queue(read),
    add: (p) =>
      queue(async () => {
        const abs = path.resolve(p);
        // One entry per file: an entry that is the same file by another path (a link to it, a linked folder on
        // the way) gives way to the path opened now. An entry whose file is gone is compared by its path.
        const real = await realTarget(abs);
        const old = await read();
        const reals = await Promise.all(old.map((r) => realTarget(r.path)));
        const kept = old.filter((r, i) => !samePath(r.path, abs, platform) && !samePath(reals[i], real, platform));
        const next = [{ path: abs, name: path.basename(abs), openedAt: now() }, ...kept].slice(0, max);
        await writeJson(file, next);
        return next;
      }),
    remove: (p) =>
      queue(async () => {
        const abs = path.resolve(p);
        const before = await read();
        const next = before.filter((r) => !samePath(r.path, abs, platform));
        if (next.length !== before.length) await writeJson(file, next);
        return next;
      }),
    clear: () =>
      queue(async () => {
        await writeJson(file, []);
        return [];
      }),
  };
}
