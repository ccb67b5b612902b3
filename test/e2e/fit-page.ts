/**
 * Page helpers for the fitting-worker e2e tests (fit-worker, simplify-worker): the fitting client's run
 * counts (the e2e hook window.__vmdFit), the open document's bytes, a watch on animation frames (how
 * many came and the longest gap between two: the main thread blocked or not), and the key counts of a
 * fit's summary line.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

export type FitCounts = { worker: number; main: number; startFailures: number; progressMessages: number; cancelled: number };

export const fitCounts = (page: Page): Promise<FitCounts> => page.evaluate(() => window.__vmdFit!.counts());

/** The open document as the editor would save it. */
export const docBytes = async (page: Page): Promise<Buffer> => Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64');

/** Starts counting animation frames and their longest gap (ms) in the page. */
export async function startFrameWatch(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: { on: boolean; n: number; max: number; last: number } };
    w.__frames = { on: true, n: 0, max: 0, last: performance.now() };
    const tick = () => {
      const f = w.__frames;
      if (!f.on) return;
      const now = performance.now();
      f.max = Math.max(f.max, now - f.last);
      f.last = now;
      f.n++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Stops the watch: the frames counted and the longest gap (ms). */
export async function stopFrameWatch(page: Page): Promise<{ n: number; max: number }> {
  return page.evaluate(() => {
    const f = (window as unknown as { __frames: { on: boolean; n: number; max: number } }).__frames;
    f.on = false;
    return { n: f.n, max: Math.round(f.max) };
  });
}

/** The key counts of a fit's summary line ("keys B → A; …") in the element with that test id. */
export async function summaryKeys(page: Page, testid: string): Promise<{ before: number; after: number }> {
  const text = (await page.textContent(`[data-testid="${testid}"]`))!;
  // Counts as the app shows them, grouped by thousands ("15,439").
  const m = /keys ([\d,]+) → ([\d,]+);/.exec(text);
  expect(m, text).not.toBeNull();
  return { before: Number(m![1].replace(/,/g, '')), after: Number(m![2].replace(/,/g, '')) };
}
