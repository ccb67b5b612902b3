/**
 * The shell flow in the real desktop app through Playwright's `_electron`: start with a corpus file
 * on the command line (what a double-click does), see its name and key counts, Save As (the native
 * save dialog answered from the main process), compare bytes. Runs only where the Electron binary is
 * installed; elsewhere it is reported as skipped with the reason (the binary cannot be downloaded on
 * the machines this project is built on).
 */
import { existsSync, readFileSync } from 'node:fs';
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
    // The close test above may have ended the app already.
    await app?.close().catch(() => undefined);
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

  it('fits in the background worker from the packaged page (file://): frames keep coming while Speed ×1.5 refits the 1.6 MB dance', async () => {
    // Where Electron refused the module worker the fit would fall back to the main thread, which then
    // draws no frame and answers nothing until the fit ends, when the progress bar is gone.
    const dance = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
    await app.evaluate(({ dialog }, filePath) => {
      dialog.showOpenDialog = (async () => ({ canceled: false, filePaths: [filePath] })) as typeof dialog.showOpenDialog;
    }, dance);
    await page.click('[data-testid="cmd-open"]');
    // Opened over the file the command line gave: it is asked whether it goes into the scene; on its own here.
    await page.waitForFunction(() => !!document.querySelector('[data-testid="confirm-dialog"]') || document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('wavefile_v2.vmd'));
    if (await page.isVisible('[data-testid="confirm-dialog"]')) await page.click('[data-testid="confirm-discard"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('wavefile_v2.vmd'));
    await page.click('[data-testid="whole-motion"]');
    await page.check('[data-testid="batch-target-document"]');
    await page.selectOption('[data-testid="batch-op"]', 'speed');
    await page.fill('[data-testid="batch-opt-factor"]', '1.5');
    await page.check('[data-testid="batch-opt-refit"]');
    await page.click('[data-testid="fit-preview-run"]');
    await page.waitForFunction(() => {
      const e = document.querySelector('[data-testid="fit-progress"]') as HTMLElement | null;
      return !!e && Number(e.dataset.done) > 0 && Number(e.dataset.done) < Number(e.dataset.total) / 2;
    }, undefined, { timeout: 60_000 });
    const framesWhileFitting = await page.evaluate(
      () =>
        new Promise<{ frames: number; stillFitting: boolean }>((resolve) => {
          let n = 0;
          const tick = () => {
            if (++n < 3) requestAnimationFrame(tick);
            else {
              const e = document.querySelector('[data-testid="fit-progress"]') as HTMLElement | null;
              resolve({ frames: n, stillFitting: !!e && Number(e.dataset.done) < Number(e.dataset.total) });
            }
          };
          requestAnimationFrame(tick);
        }),
    );
    expect(framesWhileFitting).toEqual({ frames: 3, stillFitting: true });
    await page.waitForSelector('[data-testid="fit-preview-summary"]', { timeout: 120_000 });
    await screenshot(page, 'electron-fit-worker');
    await page.click('[data-testid="batch-close"]').catch(() => page.keyboard.press('Escape'));
  });

  it('closing the window with an unsaved edit asks about that document: Cancel keeps the window, Don\'t Save closes it and writes nothing', async () => {
    const name = (await page.textContent('[data-testid="summary-name"]'))!.replace('●', '').trim();
    const files = [src, path.join(tmp.dir, 'electron copy.vmd')].filter((f) => existsSync(f));
    const before = files.map((f) => readFileSync(f));
    // An edit through the page alone (no keys a menu accelerator could take): the first bone track's
    // keys selected by a double-click on its name, then Delete.
    await page.dblclick('[data-testid="track-bone:0"]');
    await page.waitForFunction(() => !!document.querySelector('[data-testid="selection-count"]')?.textContent?.trim());
    await page.keyboard.press('Delete');
    await page.waitForFunction(() => document.querySelector('[data-testid="scene-tab"]')?.getAttribute('data-dirty') === 'true');
    const closeWindow = () => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.close());

    // Main keeps the window and hands the question to the page, which names the document.
    await closeWindow();
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    expect(await page.textContent('[data-testid="confirm-message"]')).toContain(name);
    await screenshot(page, 'electron-close-question');
    await page.click('[data-testid="confirm-cancel"]');
    await page.waitForSelector('[data-testid="confirm-dialog"]', { state: 'detached' });
    expect(app.windows()).toHaveLength(1);
    expect(await page.getAttribute('[data-testid="scene-tab"]', 'data-dirty')).toBe('true');

    // Again, and Don't Save: the window closes (the app quits with its last window on Linux and Windows).
    const closed = page.waitForEvent('close');
    await closeWindow();
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    await page.click('[data-testid="confirm-discard"]');
    await closed;
    files.forEach((f, i) => expect(Buffer.compare(readFileSync(f), before[i]), f).toBe(0));
  });
});
