/**
 * The shell flow in the real desktop app through Playwright's `_electron`: start with a corpus file
 * on the command line (what a double-click does), see its name and key counts, Save As (the native
 * save dialog answered from the main process), compare bytes. Runs only where the Electron binary is
 * installed; elsewhere it is reported as skipped with the reason (the binary cannot be downloaded on
 * the machines this project is built on).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { findElectronBinary } from '../../electron/start.mjs';
import { corpusPath, ensureBuilt, ROOT, screenshot, tempDir } from './harness';

const found = findElectronBinary();
if (!found.path) console.warn(`[electron e2e] skipped: ${found.reason}`);

describe.skipIf(!found.path)(`desktop app (Electron)${found.path ? '' : ` — skipped: ${found.reason}`}`, () => {
  let app: ElectronApplication;
  let page: Page;
  let tmp: ReturnType<typeof tempDir>;
  const src = corpusPath('gene/motion/stand.vmd');

  beforeAll(async () => {
    await ensureBuilt(['node', 'renderer']);
    tmp = tempDir('vmd-electron-');
    app = await _electron.launch({
      executablePath: found.path!,
      args: [ROOT, src],
      // Own settings folder (Electron's appData is $XDG_CONFIG_HOME on Linux).
      env: { ...process.env, XDG_CONFIG_HOME: tmp.dir, ELECTRON_ENABLE_LOGGING: '1' },
    });
    page = await app.firstWindow();
    await page.waitForSelector('[data-ready="true"]');
  });

  afterAll(async () => {
    await app?.close();
    tmp?.remove();
  });

  it('runs with no Node in the page, no new windows and no generic invoke on the bridge', async () => {
    // No Node in the page (nodeIntegration off, context isolated): only the bridge object.
    expect(await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
    expect(await page.evaluate(() => typeof (globalThis as unknown as { process?: unknown }).process)).toBe('undefined');
    // New windows are denied.
    expect(await page.evaluate(() => window.open('https://example.com') === null)).toBe(true);
    expect(app.windows()).toHaveLength(1);
    expect(await page.evaluate(() => Object.keys((window as unknown as { vmdStudio: object }).vmdStudio).includes('invoke'))).toBe(false);
  });

  it('opens the file given on the command line, shows it, and Save As writes identical bytes', async () => {
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('stand.vmd'));
    expect(await page.getAttribute('[data-testid="count-bone"]', 'data-count')).toBe(String(readFileSync(src).readUInt32LE(50)));
    const target = path.join(tmp.dir, 'electron copy.vmd');
    await app.evaluate(({ dialog }, filePath) => {
      // Answer the native save dialog from main: it cannot be clicked through Playwright.
      dialog.showSaveDialog = (async () => ({ canceled: false, filePath })) as typeof dialog.showSaveDialog;
    }, target);
    await page.click('[data-testid="cmd-save-as"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('electron copy.vmd'));
    expect(Buffer.compare(readFileSync(target), readFileSync(src))).toBe(0);
    await screenshot(page, 'electron-shell');
  });
});
