// What an MMD veteran met at 1366×768 in the Japanese UI: the Open dialog's footer buttons squeezed to a
// character a line by the long filter text (「キャ/ンセ/ル」, 「開/く」).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, fileDialogReady } from './harness';

/** The lines a element's text runs over (distinct tops of its text's boxes). */
async function textLines(page: Page, selector: string): Promise<number> {
  return page.$eval(selector, (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  });
}

describe('1366×768, Japanese', () => {
  const s = appForSuite({ viewport: { width: 1366, height: 768 }, locale: 'ja-JP' });

  it('the Open dialog\'s キャンセル and 開く stay on one line; the filter text stays inside the footer, left of them', async () => {
    const page = s.app.page;
    await page.click('[data-testid="cmd-open"]');
    await fileDialogReady(page);
    expect(await page.textContent('[data-testid="file-dialog-cancel"]')).toBe('キャンセル');
    expect(await textLines(page, '[data-testid="file-dialog-cancel"]')).toBe(1);
    expect(await textLines(page, '[data-testid="file-dialog-accept"]')).toBe(1);
    const box = async (sel: string) => (await page.locator(sel).boundingBox())!;
    const filter = await box('[data-testid="file-dialog"] footer .filter');
    const cancel = await box('[data-testid="file-dialog-cancel"]');
    const footer = await box('[data-testid="file-dialog"] footer');
    expect(filter.x + filter.width).toBeLessThanOrEqual(cancel.x);
    expect(filter.y + filter.height).toBeLessThanOrEqual(footer.y + footer.height);
    await s.app.screenshot('open-dialog-1366-ja');
    await page.click('[data-testid="file-dialog-cancel"]');
  });
});
