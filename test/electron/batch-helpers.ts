// Helpers for the batch and edit-command tests: build the Node bundles once, make temp folders of
// corpus copies (the corpus itself is only read), hash trees, find temp files.
import { afterAll, beforeAll } from 'vitest';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, unlinkSync, writeFileSync, lstatSync, rmSync } from 'node:fs';
import path from 'node:path';
import { CORPUS, ensureBuilt, ROOT, tempDir as newTempDir } from '../helpers/build';

export { CORPUS, ensureBuilt, ROOT };
export const WORKER = path.join(ROOT, 'dist/cli/batch-worker.mjs');
export const CLI = path.join(ROOT, 'electron/cli/vmd-studio.mjs');

/**
 * Temp folders for one test file: `mk(tag)` makes one; all are removed after the file's tests.
 * Also makes sure the bundles the tests spawn are built first.
 */
export function useTempDirs(): (tag: string) => string {
  const dirs: string[] = [];
  beforeAll(() => ensureBuilt(['node']), 120_000);
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return (tag: string) => {
    const d = tempDir(tag);
    dirs.push(d);
    return d;
  };
}

/** A fresh temp folder named after the test's tag (its caller removes it). */
export function tempDir(tag: string): string {
  return newTempDir(`vmd-batch-${tag}-`).dir;
}

export function corpusVmds(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = path.join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.toLowerCase().endsWith('.vmd')) out.push(p);
    }
  };
  walk(CORPUS);
  return out;
}

/** Copies `count` corpus VMDs (cycling through the corpus) into dir, spread over two subfolders. */
export function copyCorpus(dir: string, count: number, pick?: (f: string) => boolean): string[] {
  const src = corpusVmds().filter(pick ?? (() => true));
  const made: string[] = [];
  for (let i = 0; i < count; i++) {
    const s = src[i % src.length];
    const sub = path.join(dir, i % 3 === 0 ? 'a' : i % 3 === 1 ? 'b/c' : '');
    mkdirSync(sub, { recursive: true });
    const p = path.join(sub, `${String(i).padStart(4, '0')}-${path.basename(s)}`);
    copyFileSync(s, p);
    made.push(p);
  }
  return made;
}

export interface BadFiles {
  corrupt: string;
  truncated: string;
  unreadable: string;
  /** How the unreadable case was made: chmod 000 works for non-root; as root a dangling symlink. */
  unreadableKind: 'chmod-000' | 'dangling-symlink';
}

/** Adds a corrupt, a truncated and an unreadable .vmd to dir. */
export function addBadFiles(dir: string): BadFiles {
  const good = corpusVmds().find((f) => f.endsWith('walk.vmd'))!;
  const corrupt = path.join(dir, 'corrupt.vmd');
  writeFileSync(corrupt, 'this is not a motion file at all, just text\n');
  const truncated = path.join(dir, 'b', 'truncated.vmd');
  mkdirSync(path.dirname(truncated), { recursive: true });
  writeFileSync(truncated, readFileSync(good).subarray(0, 1000));
  const unreadable = path.join(dir, 'unreadable.vmd');
  copyFileSync(good, unreadable);
  chmodSync(unreadable, 0o000);
  let kind: BadFiles['unreadableKind'] = 'chmod-000';
  let readable = false;
  try {
    readFileSync(unreadable);
    readable = true; // running as root: permissions do not stop reads
  } catch {
    /* really unreadable */
  }
  if (readable) {
    unlinkSync(unreadable);
    symlinkSync(path.join(dir, 'no-such-target.vmd'), unreadable);
    kind = 'dangling-symlink';
  }
  return { corrupt, truncated, unreadable, unreadableKind: kind };
}

/** sha256 of every regular file under dir (symlinks by their target path), keyed by relative path. */
export function hashTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = path.join(d, n);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isSymbolicLink()) out.set(path.relative(dir, p), 'link');
      else {
        let h = 'unreadable';
        try {
          h = createHash('sha256').update(readFileSync(p)).digest('hex');
        } catch {
          /* chmod 000 as non-root */
        }
        out.set(path.relative(dir, p), h + ':' + st.mode.toString(8) + ':' + st.mtimeMs);
      }
    }
  };
  walk(dir);
  return out;
}

/** An atomicWrite temp name: `.vmds-<pid>-<host>-<random>.tmp`, or the old `.vmd-studio-tmp-…`. */
export function isTempFileName(n: string): boolean {
  return n.startsWith('.vmd-studio-tmp-') || /^\.vmds-.*\.tmp$/.test(n);
}

/** Every file under dir whose name is an atomicWrite temp. */
/** lstat, or null when the entry vanished meanwhile (a batch may be renaming files as we look). */
function statIfExists(p: string): import('node:fs').Stats | null {
  try {
    return lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

export function findTemps(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const n of readdirSync(d)) {
      const p = path.join(d, n);
      if (isTempFileName(n)) out.push(p);
      else if (statIfExists(p)?.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

/** Every regular file under dir, relative, excluding temps. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const n of readdirSync(d).sort()) {
      // Temps come and go while a batch runs: skip them by name before touching them (an lstat of one
      // that was just renamed away would throw ENOENT).
      if (isTempFileName(n)) continue;
      const p = path.join(d, n);
      const st = statIfExists(p);
      if (st?.isDirectory()) walk(p);
      else if (st) out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out;
}
