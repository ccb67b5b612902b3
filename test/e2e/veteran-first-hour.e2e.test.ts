// What an MMD veteran met in the first hour, at 1366×768 in the Japanese UI: the Open dialog's footer buttons
// squeezed to a character a line by the long filter text (「キャ/ンセ/ル」, 「開/く」); 輪郭線 (the outline) back
// off after a reload while ボーン and 物理演算 were kept.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, fileDialogReady, showModelThroughDialog } from './harness';
import { corpusPresent } from '../helpers/corpus';

const GENE = corpusPath('gene/Gene_light.pmx');

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

  it.skipIf(!corpusPresent)('輪郭線 (the outline) set by hand is kept across a reload, as ボーン and 物理演算 are', async () => {
    const page = s.app.page;
    const outline = page.locator('[data-testid="preview-outline"]');
    await showModelThroughDialog(page, GENE, 'ジェネ / Gene');
    // Whatever the preview's default here (off on software GL), the person turns it the other way.
    const wanted = !(await outline.isChecked());
    await outline.setChecked(wanted);
    await page.waitForFunction((on) => window.__vmdPreview!.outline().on === on, wanted);
    const settingsFile = path.join(s.app.server.settingsDir, 'settings.json');
    const stored = () => (existsSync(settingsFile) ? JSON.parse(readFileSync(settingsFile, 'utf8')).ui?.previewOutline : undefined);
    await expect.poll(stored, { timeout: 10_000 }).toBe(wanted);
    await page.reload();
    await page.waitForSelector('[data-ready="true"]');
    // The model again (the preview's Model… is not reopened by itself with no motion open).
    await page.waitForFunction(() => !!window.__vmdPreview);
    await showModelThroughDialog(page, GENE, 'ジェネ / Gene');
    expect(await outline.isChecked()).toBe(wanted);
    await page.waitForFunction((on) => window.__vmdPreview!.outline().on === on, wanted);
  });
});
