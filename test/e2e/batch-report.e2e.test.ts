/**
 * The Batch dialog after a new user's pass (2026-12), in Chromium at 1280×720: a trim from past the end writes
 * one-pose motions and says so (⚠ under each row, "Done with warnings"), the footer (Close, Start) stays on
 * screen however long the list (the body scrolls), a second run into the same folder says "skipped: output
 * exists" and offers "Run again, overwriting", and a written file's name opens it in the editor. A row's
 * warning is said in the UI's language (Japanese too). Screenshots: test-artifacts/batch-report-*.png.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildVmd, writeVmd } from '../../shared/vmd';
import { appForSuite, textOf } from './harness';

/** Two bone keys, at 0 and 30: a trim from 5000 keeps none of them. */
function motion(): Uint8Array {
  return writeVmd(buildVmd({ bones: [{ name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }, { name: 'センター', frame: 30, position: [1, 0, 0], rotation: [0, 0, 0, 1] }] }));
}

/** The element's box lies inside the window (not cut by its bottom edge). */
const onScreen = (page: Page, id: string) =>
  page.$eval(`[data-testid="${id}"]`, (el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
  });

describe('the Batch dialog reports warnings, kept outputs and opens results, at 1280×720', () => {
  const suite = appForSuite({ viewport: { width: 1280, height: 720 } });

  it('warnings shown per row and counted; the footer stays on screen; kept outputs can be overwritten; a result opens', async () => {
    const { page } = suite.app;
    const input = path.join(suite.tmp.dir, 'ダンス');
    mkdirSync(input, { recursive: true });
    for (let i = 1; i <= 12; i++) writeFileSync(path.join(input, `ダンス その${i}.vmd`), motion());
    const output = path.join(suite.tmp.dir, '切り出し');
    await page.click('[data-testid="cmd-batch"]');
    await page.selectOption('[data-testid="batch-op"]', 'trim');
    await page.fill('[data-testid="batch-input"]', input);
    await page.fill('[data-testid="batch-output"]', output);
    await page.fill('[data-testid="batch-opt-from"]', '5000');
    await page.click('[data-testid="batch-start"]');
    await page.waitForSelector('[data-testid="batch-summary"]', { timeout: 120_000 });
    expect(await textOf(page, 'batch-summary')).toBe('Done with warnings: 12 ok (12 with warnings), 0 failed, 0 skipped');
    const warnings = await page.$$eval('[data-testid="batch-result-warning"]', (ws) => ws.map((w) => w.textContent!.trim()));
    expect(warnings).toHaveLength(12);
    // The form's field named, as the form labels it (fixwarn4: the row named the CLI's --from).
    expect(warnings[0]).toBe("⚠ From frame 5000 is after the motion's last key (frame 30): no key is kept, the output is the pose at frame 30 held at frame 0");
    await suite.app.screenshot('batch-report-warnings');
    // In a Japanese UI the row says it in Japanese (fixwarn3: the batch's own warnings, trim's range among them, were
    // English), naming the field 開始フレーム as the form does (fixwarn4: it said --from).
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="batch-result-warning"]')?.textContent?.trim() === '⚠ 開始フレーム 5000 はモーションの最後のキー（フレーム 30）より後です。残るキーはなく、フレーム 30 のポーズをフレーム 0 に置いて書き出します');
    await suite.app.screenshot('batch-report-warnings-ja');
    await page.selectOption('[data-testid="locale"]', 'en');
    await page.waitForFunction(() => document.querySelector('[data-testid="batch-summary"]')?.textContent?.trim() === 'Done with warnings: 12 ok (12 with warnings), 0 failed, 0 skipped');
    expect(await onScreen(page, 'batch-close'), 'Close is on screen').toBe(true);
    expect(await onScreen(page, 'batch-start'), 'Start is on screen').toBe(true);

    // The same run again: every output kept, said on each row, and "Run again, overwriting" replaces them.
    await page.click('[data-testid="batch-start"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="batch-summary"]')?.textContent?.trim() === 'Done: 0 ok, 0 failed, 12 skipped');
    const statuses = await page.$$eval('[data-testid="batch-result-status"]', (ss) => [...new Set(ss.map((s) => s.textContent!.trim()))]);
    expect(statuses).toEqual(['skipped: output exists']);
    await page.click('[data-testid="batch-rerun-overwrite"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="batch-summary"]')?.textContent?.trim() === 'Done with warnings: 12 ok (12 with warnings), 0 failed, 0 skipped');
    expect(await page.isChecked('[data-testid="batch-overwrite"]')).toBe(true);
    await suite.app.screenshot('batch-report-overwritten');

    // A written file's name opens it in the editor, as Open… does.
    const first = page.locator('button[data-testid="batch-result-file"]', { hasText: 'ダンス その1.vmd' });
    await first.click();
    await page.waitForSelector('[data-testid="batch-dialog"]', { state: 'detached' });
    await page.waitForFunction((p) => document.querySelector('[data-testid="status-bar"] .path')?.textContent?.trim() === p, path.join(output, 'ダンス その1.vmd'));
    expect(suite.app.errors).toEqual([]);
  });
});
