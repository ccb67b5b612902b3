/**
 * End-to-end harness shared by every e2e test: make sure the builds are current (test/helpers/build.ts:
 * the Node bundles and the e2e build of the renderer, dist/renderer-e2e, which holds the test hooks),
 * start the browser-mode server (`dist/electron/serve.mjs`, the same program as `npm run serve`) on a
 * random port with a temp settings folder, serving that build, launch Chromium (the system one, else
 * the packaged one: chromiumBinary) through playwright-core, and open the app.
 *
 *   const app = await openApp();
 *   await openFileViaDialog(app.page, corpusPath('gene/motion/stand.vmd'));
 *   await app.screenshot('my-test');
 *   await app.close();
 *
 * Screenshots go to test-artifacts/ (gitignored). `app.errors` collects page errors and console errors,
 * so a test can assert that the page did not throw.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { copyWritable, corpusPath } from '../helpers/corpus';
import { ARTIFACTS, CORPUS, ensureBuilt, RENDERER_E2E_DIR, ROOT, tempDir, type TempDir } from '../helpers/build';

export { ARTIFACTS, CORPUS, corpusPath, ensureBuilt, ROOT, tempDir, type TempDir };

/** The system Chromium that is used when present (CHROMIUM_PATH overrides it). */
const SYSTEM_CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The Chromium the tests drive: the system one when it is installed, else the one the devDependency
 * @sparticuz/chromium carries inside its npm package (unpacked into the temp folder on first use), so
 * `npm ci && npm test` needs no apt step. `VMD_E2E_CHROMIUM=bundled` forces the packaged one (to check it
 * where a system Chromium exists), `=system` the system one.
 */
export async function chromiumBinary(): Promise<{ path: string; kind: 'system' | 'bundled' }> {
  const want = process.env.VMD_E2E_CHROMIUM;
  if (want !== 'bundled' && (want === 'system' || existsSync(SYSTEM_CHROMIUM))) return { path: SYSTEM_CHROMIUM, kind: 'system' };
  // Loaded only here: nothing else in the project imports the package.
  const packaged = (await import('@sparticuz/chromium')).default;
  return { path: await packaged.executablePath(), kind: 'bundled' };
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
  // The e2e build of the renderer (with its test hooks), not the production one in dist/renderer.
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/electron/serve.mjs'), '--port', '0', '--settings-dir', settingsDir, '--static-dir', RENDERER_E2E_DIR, ...(opts.args ?? [])], {
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

/**
 * Headless Chromium with the flags this machine needs (no sandbox in containers; WebGL through
 * SwiftShader). The same flags for the system and the packaged Chromium (none of the package's own
 * serverless flags such as --single-process), so both draw and time frames alike.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: (await chromiumBinary()).path,
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
  /** Display scaling (1.5: a 1920×1080 screen at 150 %); the viewport stays in CSS pixels. */
  deviceScaleFactor?: number;
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
    const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1440, height: 900 }, deviceScaleFactor: opts.deviceScaleFactor, locale: opts.locale ?? 'en-US' });
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

/** Open… of `file` through the in-app dialog, up to the question it asks (the dialog closed, the question shown). */
export async function openToQuestion(page: Page, file: string): Promise<void> {
  await page.click('[data-testid="cmd-open"]');
  await fileDialogReady(page);
  await page.fill('[data-testid="file-dialog-path"]', file);
  await page.click('[data-testid="file-dialog-go"]');
  await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
  await page.waitForSelector('[data-testid="confirm-dialog"]', { timeout: 30_000 });
}

/**
 * What each row of the Morphs tab shows of its name, as drawn: the characters whose box lies inside the name's
 * box (a long name wraps over two lines, then is cut at its end: "…" stands for the rest). `cut`: some character
 * did not show; `lines`: the lines the shown characters take; `title`: the row's tooltip.
 */
export function shownMorphNames(page: Page): Promise<{ name: string; shown: string; cut: boolean; lines: number; title: string }[]> {
  return page.$$eval('[data-testid="morph-row"]', (lis) =>
    lis.map((li) => {
      const name = li.querySelector('.name') as HTMLElement;
      const nb = name.getBoundingClientRect();
      const shown: string[] = [];
      const tops = new Set<number>();
      const walk = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
      let cut = false;
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const text = n.textContent!;
        for (let i = 0; i < text.length; i++) {
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + 1);
          const b = r.getBoundingClientRect();
          if (b.right <= nb.right + 0.5 && b.bottom <= nb.bottom + 0.5) {
            shown.push(text[i]);
            tops.add(Math.round(b.top));
          } else cut = true;
        }
      }
      if (cut) shown.push('…');
      return { name: li.getAttribute('data-morph')!, shown: shown.join(''), cut, lines: tops.size, title: name.title };
    }),
  );
}

/**
 * Waits until `name` shows in the summary (after the workspace's version `before`) or the app asks before it
 * replaces the scene, and then answers "Don't Save" / "Open it on its own" (a test that opens another file over
 * an open one means to replace it; the question itself is tested in close-scene.test.ts, scene-replace.e2e,
 * music.e2e and pose-apply.e2e).
 */
export async function dropUnsavedIfAsked(page: Page, name: string, before: number | null = null): Promise<void> {
  await page
    .waitForFunction(
      ([n, v]) => {
        if (document.querySelector('[data-testid="confirm-dialog"]')) return true;
        const shown = document.querySelector('[data-testid="summary-name"]')?.textContent ?? '';
        // An unsaved one of the same name is the old one; so is one shown before the workspace moved.
        return shown.includes(n) && !shown.includes('●') && (v === null || window.__vmdEditor?.version() !== v);
      },
      [name, before] as const,
      { timeout: 30_000 },
    )
    .catch(() => undefined); // the wait below says what the page shows instead
  if (!(await page.isVisible('[data-testid="confirm-dialog"]'))) return;
  await page.click('[data-testid="confirm-discard"]');
  await page.waitForSelector('[data-testid="confirm-dialog"]', { state: 'detached' });
}

/**
 * Shows a model in the preview through Model… (back to the built-in figure first when a model is shown, so
 * the new one's arrival can be waited for) and waits until the preview names it (`name`: the model's own
 * name, as the file holds it) and has loaded it.
 */
export async function showModelThroughDialog(page: Page, file: string, name: string): Promise<void> {
  if (await page.isVisible('[data-testid="preview-use-figure"]')) {
    await page.click('[data-testid="preview-use-figure"]');
    await page.waitForSelector('[data-testid="preview-use-figure"]', { state: 'detached' });
  }
  await page.click('[data-testid="preview-open-model"]');
  await fileDialogReady(page);
  await page.fill('[data-testid="file-dialog-path"]', file);
  await page.click('[data-testid="file-dialog-go"]');
  await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
  await page.waitForFunction((n) => window.__vmdPreview?.info().model === n, name, { timeout: 60_000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid="preview-pane"]')?.textContent?.includes('Loading model'), null, { timeout: 60_000 });
}

/** Loads a camera VMD beside the motion through Camera… and waits until the preview offers to take it away. */
export async function loadPreviewCamera(page: Page, file: string): Promise<void> {
  await page.click('[data-testid="preview-open-camera"]');
  await fileDialogReady(page);
  await page.fill('[data-testid="file-dialog-path"]', file);
  await page.click('[data-testid="file-dialog-go"]');
  await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
  await page.waitForSelector('[data-testid="preview-clear-camera"]');
}

/**
 * Opens a file through the UI's own flow: toolbar Open → in-app dialog → type the path → Go (and Don't
 * Save when asked about unsaved changes: dropUnsavedIfAsked).
 */
export async function openFileViaDialog(page: Page, file: string): Promise<void> {
  // The workspace's version before: a file of the name already shown (opened again) has not replaced the
  // document until the version moves (the name alone would pass at once, before the file was read).
  const before = await page.evaluate(() => window.__vmdEditor?.version() ?? null);
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
  await dropUnsavedIfAsked(page, path.basename(file), before);
  try {
    await page.waitForFunction(
      ([name, v]) => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes(name) && (v === null || window.__vmdEditor?.version() !== v),
      [path.basename(file), before] as const,
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

/**
 * Opens `file` through an in-app open dialog: clicks the `openers` in turn (a button, or a menu and then
 * its item; data-testids), types the path, Go, and Open when the dialog listed a folder instead of taking
 * the file. `filter`: the file-type line the dialog must show for that kind of file. Fails with the
 * dialog's error and a screenshot when it stays open.
 */
export async function openThroughDialog(page: Page, openers: string[], file: string, opts: { filter?: string } = {}): Promise<void> {
  for (const id of openers) await page.click(`[data-testid="${id}"]`);
  await fileDialogReady(page);
  if (opts.filter !== undefined) {
    const shown = await page.locator('[data-testid="file-dialog"] .filter').first().textContent();
    if (shown !== opts.filter) throw new Error(`the open dialog lists "${shown}", not "${opts.filter}"`);
  }
  await page.fill('[data-testid="file-dialog-path"]', file);
  await page.click('[data-testid="file-dialog-go"]');
  const closed = await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached', timeout: 3000 }).then(() => true, () => false);
  if (closed) return;
  await page.click('[data-testid="file-dialog-accept"]');
  try {
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached', timeout: 10_000 });
  } catch (e) {
    const err = await page.textContent('[data-testid="file-dialog-error"]').catch(() => null);
    const shot = await screenshot(page, 'open-dialog-stuck');
    throw new Error(`the open dialog did not close for ${path.basename(file)} (error: ${err}; screenshot: ${shot})`, { cause: e });
  }
}

/** Scene → Open Scene… through the in-app dialog. */
export const openSceneViaDialog = (page: Page, file: string, opts: { filter?: string } = {}) => openThroughDialog(page, ['cmd-scene', 'cmd-open-scene'], file, opts);

/**
 * The music row's Open… through the in-app dialog; then waits until the waveform row says the song is
 * loaded (`loaded: false`: does not wait, for a file that is meant to fail).
 */
export async function openMusicViaDialog(page: Page, file: string, opts: { filter?: string; loaded?: boolean } = {}): Promise<void> {
  await openThroughDialog(page, ['music-open'], file, opts);
  if (opts.loaded !== false) await page.waitForSelector('[data-testid="waveform"][data-loaded="true"]', { timeout: 15_000 });
}

/**
 * A scene folder for a test: copies each `[from, name]` into `dir` and writes `scene` (the JSON fields
 * after format and version) as `dir/name`. Returns the scene file's path.
 */
export function writeSceneFolder(dir: string, copies: [from: string, name: string][], scene: Record<string, unknown>, name = 'scene.vmdscene'): string {
  for (const [from, to] of copies) copyWritable(from, path.join(dir, to));
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify({ format: 'vmd-studio-scene', version: 1, ...scene }));
  return file;
}

/**
 * The duet most scene tests open: actor 1 dances gene's 02_laugh.vmd (as laugh.vmd), actor 2 — the active
 * one — wavefile_v2.vmd (as dance.vmd), on the models given (null: the built-in figure), with
 * wavefile_camera.vmd (as camera.vmd) as the camera document. Returns the scene file's path.
 */
export function writeDuetScene(dir: string, actors: [{ name?: string; model: string | null }, { name?: string; model: string | null }], name = 'duet.vmdscene'): string {
  return writeSceneFolder(
    dir,
    [
      [corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), 'dance.vmd'],
      [corpusPath('gene/motion/02_laugh.vmd'), 'laugh.vmd'],
      [corpusPath('threejs/vmds/wavefile_camera.vmd'), 'camera.vmd'],
    ],
    { actors: [{ ...actors[0], motion: 'laugh.vmd' }, { ...actors[1], motion: 'dance.vmd' }], activeActor: 1, camera: 'camera.vmd' },
    name,
  );
}

/**
 * Saves through an in-app save dialog: clicks the `openers` in turn, browses to `folder`, types `name`
 * (as the user would: the dialog adds a missing extension), Save, and confirms Replace if asked.
 */
export async function saveThroughDialog(page: Page, openers: string[], folder: string, name: string): Promise<void> {
  for (const id of openers) await page.click(`[data-testid="${id}"]`);
  await fileDialogReady(page);
  await page.fill('[data-testid="file-dialog-path"]', folder);
  await page.click('[data-testid="file-dialog-go"]');
  // The folder's listing has come (the dialog saves into the folder it lists; it also waits itself).
  await page.waitForSelector('[data-testid="file-dialog"][data-loading="false"][data-loaded="true"]');
  await page.fill('[data-testid="file-dialog-name"]', name);
  await page.click('[data-testid="file-dialog-accept"]');
  if (await page.isVisible('[data-testid="file-dialog-confirm"]')) await page.click('[data-testid="file-dialog-accept"]');
  await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
}

/** Save As through the in-app dialog. */
export const saveAsViaDialog = (page: Page, target: string) => saveThroughDialog(page, ['cmd-save-as'], path.dirname(target), path.basename(target));

/**
 * Clicks `button` (a selector) in the same task of the page that looks for `running`, and says whether that
 * was there: a job in a worker can end at any moment, but its answer cannot land between the look and the
 * click. A test that cancels a running job asserts the answer, so that "it had already finished" (a loaded
 * machine, a slow step before the click) is not mistaken for a cancellation that did nothing.
 */
export function clickWhileThere(page: Page, running: string, button: string): Promise<boolean> {
  return page.evaluate(([r, b]) => {
    const there = !!document.querySelector(r);
    (document.querySelector(b) as HTMLElement).click();
    return there;
  }, [running, button] as const);
}

/**
 * Drops files on the window as a browser does: a real drop event whose DataTransfer holds Files built from
 * these bytes (a browser gives their names and bytes, never a path).
 */
export async function dropFiles(page: Page, files: { name: string; bytes: Uint8Array }[]): Promise<void> {
  const sent = files.map((f) => [f.name, Buffer.from(f.bytes).toString('base64')] as const);
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const [name, data] of list) dt.items.add(new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], name));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, sent);
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
    tmp = tempDir('vmd-e2e-');
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

/**
 * How the text of each element lies (elements that new users found cut or broken): its lines (distinct middles
 * of its text boxes: ファイル broken into ファイ/ル gives two), `wide` (scrollWidth past clientWidth: cut at the
 * side), `cut` (wide, or scrollHeight past clientHeight, or no height at all: a label squeezed to nothing by its
 * column); an input's placeholder against its room, measured in its own font.
 */
export async function textFits(page: Page, selectors: string[]): Promise<{ sel: string; text: string; lines: number; wide: boolean; cut: boolean }[]> {
  return page.evaluate((sels) => {
    const out: { sel: string; text: string; lines: number; wide: boolean; cut: boolean }[] = [];
    for (const sel of sels) {
      const el = document.querySelector(sel) as HTMLElement | null;
      if (!el) throw new Error(`${sel} is not there`);
      if (el instanceof HTMLInputElement) {
        const cs = getComputedStyle(el);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        const wide = ctx.measureText(el.placeholder).width > room + 0.5;
        out.push({ sel, text: el.placeholder, lines: 1, wide, cut: wide });
        continue;
      }
      const boxes: DOMRect[] = [];
      const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const r = document.createRange();
        r.selectNodeContents(n);
        boxes.push(...[...r.getClientRects()].filter((b) => b.width > 0));
      }
      const mids = boxes.map((b) => ({ y: b.top + b.height / 2, h: b.height })).sort((a, b) => a.y - b.y);
      let lines = 0, last = -Infinity;
      for (const m of mids) if (m.y - last > m.h / 2) (lines++, (last = m.y));
      const wide = el.scrollWidth > el.clientWidth + 0.5;
      out.push({ sel, text: el.textContent!.trim(), lines, wide, cut: wide || el.scrollHeight > el.clientHeight + 1 || el.clientHeight === 0 });
    }
    return out;
  }, selectors);
}

/** A file of the corpus (or any path) as a drop takes it: its name and bytes. */
export const fileForDrop = (p: string) => ({ name: path.basename(p), bytes: new Uint8Array(readFileSync(p)) });

/** Waits until a notice's line contains `text`; returns that line. */
export async function notice(page: Page, text: string, timeout = 30_000): Promise<string> {
  const h = await page.waitForFunction(
    (t) => [...document.querySelectorAll('[data-testid="notice-message"]')].map((e) => e.textContent ?? '').find((m) => m.includes(t)) ?? false,
    text,
    { timeout },
  );
  return (await h.jsonValue()) as string;
}

/** Every notice's line now. */
export const notices = (page: Page) => page.$$eval('[data-testid="notice-message"]', (es) => es.map((e) => e.textContent ?? ''));

/**
 * Every notice dismissed, those drawn and those counted as "+N more" (only the newest three are drawn), and any
 * that comes while waiting (a loaded CI run once kept one: the list's count never reached 0 after one click).
 */
export async function dismissNotices(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      // Gone from the page too: a dismissed notice fades out over the picture before it leaves it.
      if (document.querySelector('[data-testid="notifications"]')?.getAttribute('data-count') === '0') return !document.querySelector('[data-testid="notifications"] .notice');
      const all = document.querySelector<HTMLElement>('[data-testid="notify-dismiss-all"]');
      if (all) all.click();
      else document.querySelectorAll<HTMLElement>('[data-testid="notifications"] .notice .close').forEach((b) => b.click());
      return false;
    },
    null,
    { polling: 100 },
  );
}

/**
 * A VMD cut short, just opened: the question offering the keys it still holds (stores/salvage.ts) is answered
 * Cancel, so the reader's refusal is shown as a notice, as before that question existed.
 */
export async function declineSalvage(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="confirm-salvage"]', { timeout: 60_000 });
  await page.click('[data-testid="confirm-cancel"]');
  await page.waitForSelector('[data-testid="confirm-dialog"]', { state: 'detached' });
}
