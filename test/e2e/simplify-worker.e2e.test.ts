// Simplify on every key of wavefile_v2.vmd (Ctrl+A, then the key inspector's Simplify) runs in the
// fitting worker: while it computes the page keeps drawing frames and the panel shows a progress bar
// with the tracks refitted; the result has the key count shared/fit's simplifyKeys gives in Node for
// the same keys (the page's selection, checked against the file's records); Apply commits the very
// bytes Node writes as one undo step and undo gives the original bytes. With `?fitWorker=off` the same
// computation runs on the main thread and gives the same bytes. The longest gap between animation
// frames while it computes is logged (worker vs main thread).
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { simplifyKeys, type SelectedKey } from '../../shared/fit/simplify';
import { readVmd, writeVmd, type VmdDocument } from '../../shared/vmd';
import { docBytes, fitCounts, startFrameWatch, stopFrameWatch, summaryKeys } from './fit-page';
import { appForSuite, corpusPath, openFileViaDialog } from './harness';

const SRC = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');

function read(b: Uint8Array): VmdDocument {
  const r = readVmd(b);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Every key of the file as {kind, record}: what Ctrl+A selects. */
function allKeys(doc: VmdDocument): SelectedKey[] {
  const kinds = ['bone', 'morph', 'camera', 'light', 'shadow', 'ik'] as const;
  return kinds.flatMap((kind) => Array.from({ length: doc[kind].count }, (_, record) => ({ kind, record })));
}

const sortKeys = (k: readonly SelectedKey[]) => [...k].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.record - b.record));

/** Opens the file and selects every key (Ctrl+A); returns the page's selection, checked against the file. */
async function openAndSelectAll(page: Page, doc: VmdDocument): Promise<SelectedKey[]> {
  await openFileViaDialog(page, SRC);
  await page.waitForFunction(() => window.__vmdEditor?.history().undo === 0 && !!window.__vmdEditor.bytes());
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Control+a');
  const want = allKeys(doc);
  await page.waitForFunction((n) => window.__vmdEditor!.selection().refs.length === n, want.length);
  const refs = (await page.evaluate(() => window.__vmdEditor!.selection().refs)) as SelectedKey[];
  expect(sortKeys(refs)).toEqual(sortKeys(want));
  return refs;
}

/** Bone + morph + camera keys of a document's bytes. */
const keyCount = (b: Uint8Array) => {
  const d = read(b);
  return d.bone.count + d.morph.count + d.camera.count;
};

describe('Simplify in the fitting worker', () => {
  const suite = appForSuite();
  const original = readFileSync(SRC);
  const doc = read(new Uint8Array(original));
  let nodeBytes = Buffer.alloc(0);
  beforeAll(() => {
    // Node, shared/fit directly, default tolerances, on the keys Ctrl+A selects (the test checks the page's are these).
    const out = simplifyKeys(doc, allKeys(doc));
    if (!out.ok) throw new Error(out.error.message);
    nodeBytes = Buffer.from(writeVmd(out.value.doc));
    expect(keyCount(nodeBytes)).toBeLessThan(doc.bone.count + doc.morph.count + doc.camera.count);
  });

  it('computes off the UI thread with a progress bar; Apply writes the bytes Node writes, one undo step; undo restores them', async () => {
    const { page } = suite.app;
    await openAndSelectAll(page, doc);
    await startFrameWatch(page);
    await page.click('[data-testid="inspector-simplify"]');
    // Mid-run: the bar has some tracks done.
    await page.waitForFunction(() => {
      const e = document.querySelector('[data-testid="simplify-progress"]') as HTMLElement | null;
      return !!e && Number(e.dataset.done) > 0 && Number(e.dataset.done) < Number(e.dataset.total);
    }, undefined, { timeout: 60_000, polling: 'raf' });
    expect(await page.getAttribute('[data-testid="simplify-panel"]', 'data-state')).toBe('pending');
    expect(await page.isVisible('[data-testid="simplify-progress"]')).toBe(true);
    // (Once every track is refitted it says the error is being measured.)
    expect(await page.textContent('[data-testid="simplify-status"]')).toMatch(/^(Computing… \d+ \/ \d+ tracks|Measuring the error played back…)$/);
    await suite.app.screenshot('simplify-worker-computing');
    // Frames keep coming while it computes: three more while the panel still says it runs.
    const framesAt = await page.evaluate(() => (window as unknown as { __frames: { n: number } }).__frames.n);
    await page.waitForFunction((n) => (window as unknown as { __frames: { n: number } }).__frames.n >= n + 3, framesAt, { polling: 'raf' });
    const stillRunning = await page.getAttribute('[data-testid="simplify-panel"]', 'data-running');
    await page.waitForSelector('[data-testid="simplify-panel"][data-state="ready"]', { timeout: 120_000 });
    const gaps = await stopFrameWatch(page);
    console.log(`simplify in the worker: longest frame gap ${gaps.max} ms over ${gaps.n} frames`);
    expect(stillRunning, 'three frames drawn while it computed').toBe('true');
    expect(await page.$('[data-testid="simplify-progress"]')).toBeNull();
    expect(await fitCounts(page)).toMatchObject({ worker: 1, main: 0, startFailures: 0 });
    expect((await fitCounts(page)).progressMessages).toBeGreaterThan(0);
    const keys = await summaryKeys(page, 'simplify-summary');
    expect(keys.before).toBe(doc.bone.count + doc.morph.count + doc.camera.count);
    expect(keys.after).toBe(keyCount(nodeBytes));

    await page.click('[data-testid="simplify-apply"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1, undefined, { timeout: 60_000 });
    expect(await page.$('[data-testid="simplify-panel"]')).toBeNull();
    const applied = await docBytes(page);
    expect(applied.equals(nodeBytes)).toBe(true);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);
    expect((await docBytes(page)).equals(original)).toBe(true);
  });

  it('a tolerance typed while it computes cancels that run; Enter then applies what the field says', async () => {
    const { page } = suite.app;
    await openAndSelectAll(page, doc);
    await page.click('[data-testid="inspector-simplify"]');
    await page.waitForSelector('[data-testid="simplify-panel"][data-running="true"]', { timeout: 60_000 });
    // Typed in one page task, so the run is surely still going when the field changes: it is cancelled at once.
    const typed = await page.evaluate(() => {
      const running = document.querySelector('[data-testid="simplify-panel"]')!.getAttribute('data-running') === 'true';
      const before = window.__vmdFit!.counts().cancelled;
      const input = document.querySelector('[data-testid="simplify-opt-pos-tol"]') as HTMLInputElement;
      input.value = '0.2';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      return { running, before, after: window.__vmdFit!.counts().cancelled };
    });
    expect(typed.running).toBe(true);
    expect(typed.after).toBe(typed.before + 1);
    await page.press('[data-testid="simplify-opt-pos-tol"]', 'Enter');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1, undefined, { timeout: 120_000 });
    expect(await page.$('[data-testid="simplify-panel"]')).toBeNull();
    const out = simplifyKeys(doc, allKeys(doc), { position: 0.2 });
    if (!out.ok) throw new Error(out.error.message);
    expect((await docBytes(page)).equals(Buffer.from(writeVmd(out.value.doc)))).toBe(true);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);
    expect((await docBytes(page)).equals(original)).toBe(true);
  });

  it('?fitWorker=off: the same computation on the main thread, the same bytes', async () => {
    const { page } = suite.app;
    await page.goto(`${suite.app.url}&fitWorker=off`);
    await page.waitForSelector('[data-ready="true"]', { timeout: 30_000 });
    await openAndSelectAll(page, doc);
    await startFrameWatch(page);
    await page.click('[data-testid="inspector-simplify"]');
    await page.waitForSelector('[data-testid="simplify-panel"][data-state="ready"]', { timeout: 120_000 });
    const gaps = await stopFrameWatch(page);
    console.log(`simplify on the main thread: longest frame gap ${gaps.max} ms over ${gaps.n} frames`);
    expect(await fitCounts(page)).toMatchObject({ worker: 0, main: 1 });
    expect((await summaryKeys(page, 'simplify-summary')).after).toBe(keyCount(nodeBytes));
    await page.click('[data-testid="simplify-apply"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1, undefined, { timeout: 60_000 });
    expect((await docBytes(page)).equals(nodeBytes)).toBe(true);
  });
});
