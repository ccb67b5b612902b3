/**
 * End-to-end harness shared by every e2e test: make sure the builds are current, start the
 * browser-mode server (`dist/electron/serve.mjs`, the same program as `npm run serve`) on a random
 * port with a temp settings folder, launch Debian's Chromium through playwright-core, and open the app.
 *
 *   const app = await openApp();
 *   await openFileViaDialog(app.page, corpusPath('gene/motion/stand.vmd'));
 *   await app.screenshot('my-test');
 *   await app.close();
 *
 * Screenshots go to test-artifacts/ (gitignored). `app.errors` collects page errors and console errors,
 * so a test can assert that the page did not throw.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CORPUS = process.env.VMD_CORPUS ?? path.resolve(ROOT, '../shared/corpus');
export const ARTIFACTS = path.join(ROOT, 'test-artifacts');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A file in the shared corpus (read-only; never copy it into the repository). */
export function corpusPath(rel: string): string {
  return path.join(CORPUS, rel);
}

/** A temp folder and the function that removes it. */
export interface TempDir {
  dir: string;
  remove: () => void;
}

/** A fresh temp folder, removed by the returned function. */
export function tempDir(prefix = 'vmd-e2e-'): TempDir {
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

/** Several engineers run e2e tests at once: serialise builds with a lock folder. */
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
 * Rebuilds what is older than its sources: the Node bundles (build/build-node.mjs) when electron/ or
 * shared/ changed, the renderer (vite build) when renderer/ or shared/ changed.
 */
export async function ensureBuilt(): Promise<void> {
  await withBuildLock(() => {
    const ts = /\.(ts|mts|vue|mjs|json|html|css)$/;
    const sharedT = newestMtime(path.join(ROOT, 'shared'), ts);
    const nodeSrc = Math.max(sharedT, newestMtime(path.join(ROOT, 'electron'), ts), mtime(path.join(ROOT, 'build/build-node.mjs')));
    if (mtime(path.join(ROOT, 'dist/electron/serve.mjs')) < nodeSrc) run(process.execPath, ['build/build-node.mjs']);
    const rendererSrc = Math.max(sharedT, newestMtime(path.join(ROOT, 'renderer'), ts), mtime(path.join(ROOT, 'vite.config.ts')));
    if (mtime(path.join(ROOT, 'dist/renderer/index.html')) < rendererSrc) {
      run(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn']);
    }
  });
}

export interface ServerHandle {
  url: string;
  port: number;
  token: string;
  settingsDir: string;
  process: ChildProcess;
  /** Everything the server printed (stdout + stderr). */
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts `dist/electron/serve.mjs` on a random port; resolves once it printed its URL. */
export async function startServe(opts: { settingsDir?: string; args?: string[] } = {}): Promise<ServerHandle> {
  const own = opts.settingsDir ? null : tempDir('vmd-e2e-settings-');
  const settingsDir = opts.settingsDir ?? own!.dir;
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/electron/serve.mjs'), '--port', '0', '--settings-dir', settingsDir, ...(opts.args ?? [])], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not print its URL in 20 s:\n${out}`)), 20_000);
    const check = () => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${out}`));
    });
  });
  const u = new URL(url);
  return {
    url,
    port: Number(u.port),
    token: u.searchParams.get('token')!,
    settingsDir,
    process: child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      own?.remove();
    },
  };
}

/** Headless Chromium with the flags this machine needs (no sandbox in containers; WebGL through SwiftShader). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--enable-unsafe-swiftshader',
    ],
  });
}

/** Saves a PNG of the page to test-artifacts/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name.replace(/[^\w.-]+/g, '_')}.png`);
  await page.screenshot({ path: file });
  return file;
}

export interface AppHandle {
  page: Page;
  url: string;
  server: ServerHandle;
  browser: Browser;
  /** Page errors and console errors seen so far. */
  errors: string[];
  screenshot: (name: string) => Promise<string>;
  close: () => Promise<void>;
}

/**
 * Builds if needed, starts the server, launches Chromium and opens the app; resolves once the app has
 * loaded its settings (`[data-ready=true]`). Options: the viewport, the UI locale (default 'en',
 * passed as the browser language), extra serve arguments (e.g. files to open on start).
 */
export interface OpenAppOptions {
  viewport?: { width: number; height: number };
  locale?: string;
  serveArgs?: string[];
  settingsDir?: string;
}

export async function openApp(opts: OpenAppOptions = {}): Promise<AppHandle> {
  await ensureBuilt();
  const server = await startServe({ args: opts.serveArgs, settingsDir: opts.settingsDir });
  let browser: Browser | null = null;
  try {
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1440, height: 900 }, locale: opts.locale ?? 'en-US' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    await page.goto(server.url);
    await page.waitForSelector('[data-ready="true"]', { timeout: 30_000 });
    const b = browser;
    return {
      page,
      url: server.url,
      server,
      browser: b,
      errors,
      screenshot: (name) => screenshot(page, name),
      close: async () => {
        await b.close().catch(() => undefined);
        await server.stop();
      },
    };
  } catch (e) {
    await browser?.close().catch(() => undefined);
    await server.stop();
    throw e;
  }
}

/**
 * Waits until the in-app file dialog is open and shows its folder. It fills the path field with that
 * folder when the listing arrives, so tests type only after it.
 */
export async function fileDialogReady(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="file-dialog"][data-loaded="true"]');
}

/** Opens a file through the UI's own flow: toolbar Open → in-app dialog → type the path → Go. */
export async function openFileViaDialog(page: Page, file: string): Promise<void> {
  await page.click('[data-testid="cmd-open"]');
  await fileDialogReady(page);
  await page.fill('[data-testid="file-dialog-path"]', file);
  await page.click('[data-testid="file-dialog-go"]');
  try {
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached', timeout: 10_000 });
  } catch (e) {
    const shot = await screenshot(page, 'open-dialog-stuck');
    const typed = await page.inputValue('[data-testid="file-dialog-path"]').catch(() => '?');
    const err = await page.textContent('[data-testid="file-dialog-error"]').catch(() => null);
    throw new Error(`the open dialog did not close after Go (path field: ${typed}; error: ${err}; screenshot: ${shot})`, { cause: e });
  }
  try {
    await page.waitForFunction(
      (name) => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes(name),
      path.basename(file),
      { timeout: 30_000 },
    );
  } catch (e) {
    // Say what the page showed instead (an error notification, another document), with a screenshot.
    const shot = await screenshot(page, 'open-not-shown');
    const shown = await page.textContent('[data-testid="summary-name"]').catch(() => null);
    const notes = await page.textContent('[data-testid="notifications"]').catch(() => null);
    throw new Error(`${path.basename(file)} did not open (summary shows: ${shown?.trim() ?? 'nothing'}; notifications: ${notes?.trim() || 'none'}; screenshot: ${shot})`, { cause: e });
  }
}

/** Save As through the in-app dialog: browse to the folder, type the name, Save (and confirm Replace if asked). */
export async function saveAsViaDialog(page: Page, target: string): Promise<void> {
  await page.click('[data-testid="cmd-save-as"]');
  await fileDialogReady(page);
  await page.fill('[data-testid="file-dialog-path"]', path.dirname(target));
  await page.click('[data-testid="file-dialog-go"]');
  await page.waitForFunction((dir) => (document.querySelector('[data-testid="file-dialog-path"]') as HTMLInputElement)?.value === dir, path.dirname(target));
  await page.fill('[data-testid="file-dialog-name"]', path.basename(target));
  await page.click('[data-testid="file-dialog-accept"]');
  if (await page.isVisible('[data-testid="file-dialog-confirm"]')) await page.click('[data-testid="file-dialog-accept"]');
  await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
}

/** The text of an element by data-testid (trimmed). */
export async function textOf(page: Page, testId: string): Promise<string> {
  return ((await page.textContent(`[data-testid="${testId}"]`)) ?? '').trim();
}

/**
 * The app and a temp folder shared by the tests of one describe block: opened before the first test,
 * closed and removed after the last. Call it in the describe body; read `app` and `tmp` inside tests.
 */
export function appForSuite(opts: OpenAppOptions = {}): { readonly app: AppHandle; readonly tmp: TempDir } {
  let app: AppHandle | null = null;
  let tmp: TempDir | null = null;
  beforeAll(async () => {
    tmp = tempDir();
    app = await openApp(opts);
  });
  afterAll(async () => {
    await app?.close();
    tmp?.remove();
  });
  const opened = <T>(v: T | null, what: string): T => {
    if (!v) throw new Error(`${what} is used before the suite's beforeAll opened it`);
    return v;
  };
  return {
    get app() {
      return opened(app, 'the app');
    },
    get tmp() {
      return opened(tmp, 'the temp folder');
    },
  };
}
