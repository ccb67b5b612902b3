// Speed ×1.5 with refit on wavefile_v2.vmd in the Whole Motion dialog runs in the fitting worker: while
// it runs the page keeps drawing frames and answering, and the dialog shows a progress bar with the
// tracks fitted; the result has the key count shared/fit's speedRefit gives in Node for the same file;
// Cancel leaves the document as it was; Apply after Preview commits without a second run (counted by
// the fitting client's e2e hook) and undo gives the original bytes; Apply with no preview runs once, in
// the worker, with the same progress. The fallback: where the worker's script cannot load, and with
// `?fitWorker=off`, the same edit runs on the main thread and gives the same result.
// The longest gap between animation frames during each run is logged (worker vs main thread).
// The player and the fitter use shared/vmd/portable-math.ts, not Math.sin/cos/atan2 (which differ in
// the last bit between Node's and Chromium's V8): the page's result is the very file Node writes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { speedRefit } from '../../shared/fit/motion-fit';
import { readVmd, writeVmd } from '../../shared/vmd';
import { docBytes, fitCounts, startFrameWatch, stopFrameWatch, summaryKeys } from './fit-page';
import { appForSuite, ARTIFACTS, clickWhileThere, corpusPath, openFileViaDialog } from './harness';

const SRC = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');

/** The document after Apply in the worker, for the main-thread run to be compared with. */
let workerApplied: Buffer | null = null;

/** The page's key count is Node's (see the header). */
function expectNodeCount(got: number, node: number, what: string): void {
  expect(got, what).toBe(node);
}

/** Bone and morph keys in a VMD's bytes (version 0002 layout), counted from the bytes. */
function keyCount(b: Buffer): number {
  const bone = b.readUInt32LE(50);
  return bone + b.readUInt32LE(54 + bone * 111);
}

let node: { bytes: Buffer; keys: number } | null = null;

/** What Speed ×1.5 with refit (default tolerances) writes in Node for SRC, from shared/fit directly (computed once). */
function nodeResult(): { bytes: Buffer; keys: number } {
  if (node) return node;
  const r = readVmd(new Uint8Array(readFileSync(SRC)));
  if (!r.ok) throw new Error(r.error.message);
  const out = speedRefit(r.value, { factor: 1.5 });
  if (!out.ok) throw new Error(out.error.message);
  const bytes = Buffer.from(writeVmd(out.value.doc));
  node = { bytes, keys: keyCount(bytes) };
  return node;
}

/** Opens the file and the Whole Motion dialog on Speed ×`factor` with refit. */
async function openSpeedDialog(page: Page, factor: string): Promise<void> {
  await openFileViaDialog(page, SRC);
  await page.waitForFunction(() => window.__vmdEditor?.history().undo === 0 && !!window.__vmdEditor.bytes());
  await page.click('[data-testid="whole-motion"]');
  expect(await page.isChecked('[data-testid="batch-target-document"]')).toBe(true);
  await page.selectOption('[data-testid="batch-op"]', 'speed');
  await page.fill('[data-testid="batch-opt-factor"]', factor);
  await page.check('[data-testid="batch-opt-refit"]');
  await page.waitForSelector('[data-testid="fit-preview-run"]');
}

const progress = (page: Page) =>
  page.evaluate(() => {
    const e = document.querySelector('[data-testid="fit-progress"]') as HTMLElement | null;
    return e ? { task: e.dataset.task!, done: Number(e.dataset.done), total: Number(e.dataset.total), text: e.textContent!.trim() } : null;
  });

describe('fitting in the worker', () => {
  const suite = appForSuite();
  const original = readFileSync(SRC);

  it('Preview runs off the UI thread with progress; Cancel changes nothing; Apply after Preview does not run again; undo restores the bytes', async () => {
    const { page } = suite.app;
    await openSpeedDialog(page, '1.5');
    const c0 = await fitCounts(page);

    await startFrameWatch(page);
    await page.click('[data-testid="fit-preview-run"]');
    // Mid-run (some tracks done, fewer than half): the bar is there, the count is in words.
    await page.waitForFunction(() => {
      const e = document.querySelector('[data-testid="fit-progress"]') as HTMLElement | null;
      return !!e && Number(e.dataset.done) > 0 && Number(e.dataset.done) < Number(e.dataset.total) / 2;
    }, undefined, { timeout: 60_000 });
    const p1 = (await progress(page))!;
    expect(p1.task).toBe('preview');
    expect(p1.text).toMatch(new RegExp(`^Fitting… ${p1.done} / ${p1.total} tracks`));
    expect(await page.isVisible('[data-testid="fit-progress"] progress')).toBe(true);
    expect(await page.isDisabled('[data-testid="fit-preview-run"]')).toBe(true);
    expect(await page.isDisabled('[data-testid="batch-apply"]')).toBe(true);
    // The page answers and keeps drawing frames while the worker fits: three more animation frames come
    // while the fit is still under way (a blocked main thread gives none until it ends), and the bar moves on.
    const asked = Date.now();
    const framesAt1 = await page.evaluate(() => (window as unknown as { __frames: { n: number } }).__frames.n);
    const answerMs = Date.now() - asked;
    await page.waitForFunction((n) => (window as unknown as { __frames: { n: number } }).__frames.n >= n + 3, framesAt1);
    const during = await progress(page);
    expect(during, 'the fit still runs').not.toBeNull();
    expect(during!.done).toBeLessThan(during!.total);
    await page.waitForFunction((d) => {
      const e = document.querySelector('[data-testid="fit-progress"]') as HTMLElement | null;
      return !e || Number(e.dataset.done) > d;
    }, p1.done, { timeout: 60_000 });
    const p2 = await progress(page);
    if (p2) expect(p2.done).toBeGreaterThan(p1.done);
    // A picture with the bar a third of the way (when the fit is still under way by then).
    await page.waitForFunction(() => {
      const e = document.querySelector('[data-testid="fit-progress"]') as HTMLElement | null;
      return !e || Number(e.dataset.done) >= Number(e.dataset.total) / 3;
    }, undefined, { timeout: 60_000 });
    if (await progress(page)) await suite.app.screenshot('fit-worker-progress');

    await page.waitForSelector('[data-testid="fit-preview-summary"]', { timeout: 120_000 });
    const gaps = await stopFrameWatch(page);
    console.log(`worker preview: longest frame gap ${gaps.max} ms over ${gaps.n} frames; page.evaluate answered in ${answerMs} ms mid-run`);
    const keys = await summaryKeys(page, 'fit-preview-summary');
    expect(keys.before).toBe(keyCount(original));
    expectNodeCount(keys.after, nodeResult().keys, 'worker preview');
    const c1 = await fitCounts(page);
    expect(c1.worker - c0.worker).toBe(1);
    expect(c1.main - c0.main).toBe(0);
    expect(c1.progressMessages).toBeGreaterThan(c0.progressMessages + 1);
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(0);

    // Another factor drops the preview; Cancel mid-run stops it: no result, the document untouched.
    await page.fill('[data-testid="batch-opt-factor"]', '1.25');
    await page.waitForSelector('[data-testid="fit-preview-summary"]', { state: 'detached' });
    await page.click('[data-testid="fit-preview-run"]');
    await page.waitForFunction(() => Number((document.querySelector('[data-testid="fit-progress"]') as HTMLElement | null)?.dataset.done) > 0, undefined, { timeout: 60_000 });
    const beforeCancel = await fitCounts(page);
    expect(await clickWhileThere(page, '[data-testid="fit-progress"]', '[data-testid="fit-cancel"]')).toBe(true);
    await page.waitForSelector('[data-testid="fit-progress"]', { state: 'detached' });
    expect((await fitCounts(page)).cancelled).toBe(beforeCancel.cancelled + 1);
    expect(await page.$('[data-testid="fit-preview-summary"]')).toBeNull();
    expect(await page.isEnabled('[data-testid="fit-preview-run"]')).toBe(true);
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(0);
    expect((await docBytes(page)).equals(original)).toBe(true);

    // Back to ×1.5: Preview, then Apply commits that result; no second run.
    await page.fill('[data-testid="batch-opt-factor"]', '1.5');
    await page.click('[data-testid="fit-preview-run"]');
    await page.waitForSelector('[data-testid="fit-preview-summary"]', { timeout: 120_000 });
    const again = (await summaryKeys(page, 'fit-preview-summary')).after;
    expect(again).toBe(keys.after);
    const c2 = await fitCounts(page);
    await page.click('[data-testid="batch-apply"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1, undefined, { timeout: 60_000 });
    const c3 = await fitCounts(page);
    expect(c3.worker).toBe(c2.worker);
    expect(c3.main).toBe(c2.main);
    workerApplied = await docBytes(page);
    expect(keyCount(workerApplied)).toBe(keys.after);
    // The file the worker wrote in Chromium is the one Node writes, byte for byte.
    expect(workerApplied.equals(nodeResult().bytes)).toBe(true);
    expect(await page.textContent('[data-testid="notifications"]')).toContain(`keys ${keyCount(original).toLocaleString('en-US')} → ${keys.after.toLocaleString('en-US')}`);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);
    expect((await docBytes(page)).equals(original)).toBe(true);
    expect(suite.app.errors).toEqual([]);
  });

  it('Apply with no preview runs once in the worker with the same progress, and commits one undo step', async () => {
    const { page } = suite.app;
    await page.click('[data-testid="whole-motion"]');
    await page.selectOption('[data-testid="batch-op"]', 'speed');
    await page.fill('[data-testid="batch-opt-factor"]', '1.5');
    await page.check('[data-testid="batch-opt-refit"]');
    const c0 = await fitCounts(page);
    await page.click('[data-testid="batch-apply"]');
    await page.waitForFunction(() => (document.querySelector('[data-testid="fit-progress"]') as HTMLElement | null)?.dataset.task === 'apply', undefined, { timeout: 60_000 });
    expect(await page.isDisabled('[data-testid="batch-opt-factor"]')).toBe(true);
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1, undefined, { timeout: 120_000 });
    const c1 = await fitCounts(page);
    expect(c1.worker - c0.worker).toBe(1);
    expect(c1.main).toBe(c0.main);
    expect((await docBytes(page)).equals(workerApplied!)).toBe(true);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);
    expect((await docBytes(page)).equals(original)).toBe(true);

    // In Japanese: the bar says it in Japanese; closing the dialog mid-run cancels it (nothing changes).
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.click('[data-testid="whole-motion"]');
    await page.selectOption('[data-testid="batch-op"]', 'speed');
    await page.fill('[data-testid="batch-opt-factor"]', '1.5');
    await page.check('[data-testid="batch-opt-refit"]');
    const c2 = await fitCounts(page);
    const runToMidway = async () => {
      await page.click('[data-testid="fit-preview-run"]');
      await page.waitForFunction(() => {
        const e = document.querySelector('[data-testid="fit-progress"]') as HTMLElement | null;
        return !!e && Number(e.dataset.done) > 0 && Number(e.dataset.done) < Number(e.dataset.total) / 2;
      }, undefined, { timeout: 60_000 });
    };
    await runToMidway();
    const ja = (await progress(page))!;
    expect(ja.text).toMatch(/^フィッティング中… \d+ \/ \d+ トラック/);
    expect(ja.text).toContain('キャンセル');
    await page.locator('[data-testid="batch-dialog"] [role="dialog"]').screenshot({ path: path.join(ARTIFACTS, 'fit-worker-progress-ja.png') });
    // Closing must find the run going. The worker does not wait for the page: on a loaded machine the run
    // finished during the screenshot once (the close then had nothing to cancel). So it runs again if it
    // has, and the close is clicked in the same task that sees the bar (the worker's answer cannot land between).
    if (!(await page.$('[data-testid="fit-progress"]'))) await runToMidway();
    expect(await clickWhileThere(page, '[data-testid="fit-progress"]', '[data-testid="batch-close"]')).toBe(true);
    await page.waitForSelector('[data-testid="batch-dialog"]', { state: 'detached' });
    expect((await fitCounts(page)).cancelled).toBe(c2.cancelled + 1);
    expect(await page.$('[data-testid="curve-fit-summary"]')).toBeNull();
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(0);
    expect((await docBytes(page)).equals(original)).toBe(true);
    await page.selectOption('[data-testid="locale"]', 'en');
    expect(suite.app.errors).toEqual([]);
  });
});

describe('fitting without a worker', () => {
  const suite = appForSuite();
  const original = readFileSync(SRC);

  it('a worker whose script cannot load: the edit runs on the main thread, same result', async () => {
    const { page } = suite.app;
    const blocked: string[] = [];
    await page.route(/fit\.worker[^/]*\.js/, (r) => {
      blocked.push(r.request().url());
      return r.abort();
    });
    await openSpeedDialog(page, '1.5');
    await page.click('[data-testid="fit-preview-run"]');
    await page.waitForSelector('[data-testid="fit-preview-summary"]', { timeout: 120_000 });
    expect(blocked.length).toBeGreaterThan(0);
    expect(await fitCounts(page)).toMatchObject({ worker: 0, main: 1, startFailures: 1 });
    expectNodeCount((await summaryKeys(page, 'fit-preview-summary')).after, nodeResult().keys, 'fallback preview');
    if (workerApplied) expect((await summaryKeys(page, 'fit-preview-summary')).after).toBe(keyCount(workerApplied));
    await page.unroute(/fit\.worker[^/]*\.js/);
    // The failed worker load is the only console error there (the fallback said nothing else).
    expect(suite.app.errors.filter((e) => !/fit\.worker|net::ERR_FAILED/.test(e))).toEqual([]);
    suite.app.errors.length = 0;
  });

  it('?fitWorker=off: Preview and Apply on the main thread as before, the same result, undo to the original bytes', async () => {
    const { page } = suite.app;
    await page.goto(`${suite.app.url}&fitWorker=off`);
    await page.waitForSelector('[data-ready="true"]', { timeout: 30_000 });
    await openSpeedDialog(page, '1.5');
    await startFrameWatch(page);
    await page.click('[data-testid="fit-preview-run"]');
    await page.waitForSelector('[data-testid="fit-preview-summary"]', { timeout: 120_000 });
    const gaps = await stopFrameWatch(page);
    console.log(`main-thread preview: longest frame gap ${gaps.max} ms over ${gaps.n} frames`);
    expect(await fitCounts(page)).toMatchObject({ worker: 0, main: 1, startFailures: 0 });
    expectNodeCount((await summaryKeys(page, 'fit-preview-summary')).after, nodeResult().keys, 'main-thread preview');
    await page.click('[data-testid="batch-apply"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1, undefined, { timeout: 60_000 });
    expect(await fitCounts(page)).toMatchObject({ worker: 0, main: 1 });
    // The same bytes as the worker gave, and as Node writes.
    const applied = await docBytes(page);
    expect(workerApplied, 'the worker suite ran first').not.toBeNull();
    expect(applied.equals(workerApplied!)).toBe(true);
    expect(applied.equals(nodeResult().bytes)).toBe(true);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);
    expect((await docBytes(page)).equals(original)).toBe(true);
    expect(suite.app.errors).toEqual([]);
  });
});
