/**
 * What tests that run the built program share: the repository root, temp folders, the corpus folder,
 * and one locked build step (several test files, and several people, may ask for a build at once).
 *
 *   ROOT              the repository root
 *   CORPUS            ../shared/corpus, or $VMD_CORPUS (see corpus.ts for VMD_CORPUS_REQUIRED)
 *   tempDir(prefix)   a fresh temp folder and the function that removes it
 *   ensureBuilt(…)    rebuilds what is older than its sources, behind a lock folder
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CORPUS = process.env.VMD_CORPUS ? path.resolve(process.env.VMD_CORPUS) : path.resolve(ROOT, '../shared/corpus');
/** Screenshots and the build lock (gitignored). */
export const ARTIFACTS = path.join(ROOT, 'test-artifacts');
/** The production renderer (what users run) and the e2e build of it (with its test hooks, renderer/src/e2e/). */
export const RENDERER_DIR = path.join(ROOT, 'dist/renderer');
export const RENDERER_E2E_DIR = path.join(ROOT, 'dist/renderer-e2e');

/** A temp folder and the function that removes it. */
export interface TempDir {
  dir: string;
  remove: () => void;
}

/** A fresh temp folder, removed by the returned function. */
export function tempDir(prefix = 'vmd-test-'): TempDir {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function newestMtime(dir: string, exts: RegExp): number {
  let newest = 0;
  if (!existsSync(dir)) return 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestMtime(p, exts));
    else if (exts.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

function mtime(p: string): number {
  return existsSync(p) ? statSync(p).mtimeMs : 0;
}

/** Several test files (and engineers) build at once: serialise builds with a lock folder. */
async function withBuildLock<T>(fn: () => T): Promise<T> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const lock = path.join(ARTIFACTS, '.build-lock');
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than 5 minutes belongs to a build that died.
      if (Date.now() - mtime(lock) > 300_000) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`build lock ${lock} held for too long`);
      else await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
}

/**
 * What a test needs built: `node` (build/build-node.mjs: the server, the CLI and its batch worker),
 * `renderer` (vite build: dist/renderer) or `renderer-e2e` (vite build --mode e2e: dist/renderer-e2e).
 */
export type BuildTarget = 'node' | 'renderer' | 'renderer-e2e';

/**
 * Rebuilds each target that is older than its sources (shared/ for all; electron/ for node; renderer/
 * and vite.config.ts for the renderers), behind the build lock. `npm test` builds node and renderer
 * before the tests, so there only the e2e renderer is built, once.
 */
export async function ensureBuilt(targets: readonly BuildTarget[] = ['node', 'renderer-e2e']): Promise<void> {
  await withBuildLock(() => {
    const src = /\.(ts|mts|vue|mjs|json|html|css)$/;
    const sharedT = newestMtime(path.join(ROOT, 'shared'), src);
    if (targets.includes('node')) {
      const nodeSrc = Math.max(sharedT, newestMtime(path.join(ROOT, 'electron'), src), mtime(path.join(ROOT, 'build/build-node.mjs')));
      const outputs = ['dist/electron/serve.mjs', 'dist/cli/cli.mjs', 'dist/cli/batch-worker.mjs'].map((p) => mtime(path.join(ROOT, p)));
      if (Math.min(...outputs) < nodeSrc) run(process.execPath, ['build/build-node.mjs']);
    }
    const rendererSrc = Math.max(sharedT, newestMtime(path.join(ROOT, 'renderer'), src), mtime(path.join(ROOT, 'vite.config.ts')));
    const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
    if (targets.includes('renderer') && mtime(path.join(RENDERER_DIR, 'index.html')) < rendererSrc) {
      run(process.execPath, [vite, 'build', '--logLevel', 'warn']);
    }
    if (targets.includes('renderer-e2e') && mtime(path.join(RENDERER_E2E_DIR, 'index.html')) < rendererSrc) {
      run(process.execPath, [vite, 'build', '--mode', 'e2e', '--logLevel', 'warn']);
    }
  });
}
