// The Whole Motion dialog's small texts on wavefile_v2.vmd (a dance with no light keys): Trim's "To frame"
// placeholder is shown whole (it was cut to "empty = last fram"), in English and Japanese, measured against the
// field's text box in the page's own font; Mirror's "Mirror the light direction too" is disabled with the
// reason for a motion without light keys; and Mirror's notice names the wink morphs it swapped. The operation's
// list shows its chosen name whole and the tolerances' labels take at most two lines, in both languages at
// 1280×720 and 1600×900 (the list showed "Reduce keys (fit curv" beside the Bake physics…, Fit to model… and
// Merge with… buttons, and "Rotation tolerance (degrees)" took three lines).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, openFileViaDialog, textOf } from './harness';

const DANCE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');

/** The placeholder's width in the field's font, and the room the field's text box has for it (px). */
function placeholderFit(page: Page, testId: string): Promise<{ text: string; needs: number; room: number }> {
  return page.evaluate((id) => {
    const el = document.querySelector<HTMLInputElement>(`[data-testid="${id}"]`)!;
    const cs = getComputedStyle(el);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    // A number field's spin buttons take about 15 px of its content box in Chromium.
    const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 15;
    return { text: el.placeholder, needs: ctx.measureText(el.placeholder).width, room };
  }, testId);
}

/** The operation list's chosen name in its font, and the room its box has for it (px; the arrow about 20 px). */
function selectFit(page: Page): Promise<{ text: string; needs: number; room: number }> {
  return page.evaluate(() => {
    const el = document.querySelector<HTMLSelectElement>('[data-testid="batch-op"]')!;
    const cs = getComputedStyle(el);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const text = el.selectedOptions[0].text;
    return { text, needs: ctx.measureText(text).width, room: el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20 };
  });
}

/** The lines a tolerance option's label takes: its height over its line height. */
function labelLines(page: Page, name: string): Promise<{ text: string; lines: number }> {
  return page.evaluate((n) => {
    const el = document.querySelector<HTMLLabelElement>(`label[for="batch-opt-${n}"]`)!;
    const lh = parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.2;
    return { text: el.textContent ?? '', lines: Math.round(el.getBoundingClientRect().height / lh) };
  }, name);
}

describe('Whole Motion dialog texts', () => {
  const suite = appForSuite();

  it('Trim shows its "To frame" placeholder whole; Mirror says the light option does nothing here, and names the swapped winks', async () => {
    const { page } = suite.app;
    await openFileViaDialog(page, DANCE);
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);
    await page.click('[data-testid="whole-motion"]');
    expect(await page.isChecked('[data-testid="batch-target-document"]')).toBe(true);

    await page.selectOption('[data-testid="batch-op"]', 'trim');
    await page.waitForSelector('[data-testid="batch-opt-to"]');
    for (const locale of ['en', 'ja'] as const) {
      await page.selectOption('[data-testid="locale"]', locale);
      await page.waitForFunction((want) => document.querySelector<HTMLInputElement>('[data-testid="batch-opt-to"]')?.placeholder === want, locale === 'en' ? 'empty = last frame' : '空欄 = 最終フレーム');
      const fit = await placeholderFit(page, 'batch-opt-to');
      expect(fit.needs, `${fit.text}: ${fit.needs.toFixed(1)} px in ${fit.room.toFixed(1)} px`).toBeLessThanOrEqual(fit.room);
    }
    await suite.app.screenshot('whole-trim-ja');
    await page.selectOption('[data-testid="locale"]', 'en');

    await page.selectOption('[data-testid="batch-op"]', 'mirror');
    await page.waitForSelector('[data-testid="batch-opt-no-light"]');
    expect(await page.isDisabled('[data-testid="batch-opt-no-light"]')).toBe(true);
    expect(await textOf(page, 'batch-unavailable-no-light')).toBe('(this motion has no light keys)');
    await suite.app.screenshot('whole-mirror-no-light');
    await page.click('[data-testid="batch-apply"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    await page.waitForFunction(() => document.querySelector('[data-testid="notifications"]')?.textContent?.includes('morphs swapped'));
    expect(await page.textContent('[data-testid="notifications"]')).toContain('morphs swapped: ウィンク ⇄ ウィンク右, ウィンク２ ⇄ ｳｨﾝｸ２右');
    expect(suite.app.errors).toEqual([]);
  });

  it('the operation list shows "Reduce keys (fit curves within tolerance)" whole, and the tolerances take at most two lines (en, ja; 1280×720, 1600×900)', async () => {
    const { page } = suite.app;
    // The dance the test above opened (and mirrored) is still the open motion.
    if (!(await page.isVisible('[data-testid="batch-dialog"]'))) await page.click('[data-testid="whole-motion"]');
    expect(await page.isChecked('[data-testid="batch-target-document"]')).toBe(true);
    await page.selectOption('[data-testid="batch-op"]', 'reduce');
    await page.waitForSelector('[data-testid="batch-opt-rot-tol"]');
    for (const size of [{ width: 1280, height: 720 }, { width: 1600, height: 900 }]) {
      await page.setViewportSize(size);
      for (const locale of ['en', 'ja'] as const) {
        await page.selectOption('[data-testid="locale"]', locale);
        await page.waitForFunction((want) => document.querySelector<HTMLSelectElement>('[data-testid="batch-op"]')?.selectedOptions[0]?.text === want, locale === 'en' ? 'Reduce keys (fit curves within tolerance)' : 'キーの削減（許容誤差内で曲線を当てはめ）');
        const fit = await selectFit(page);
        expect(fit.needs, `${size.width}×${size.height} ${locale}: ${fit.text}: ${fit.needs.toFixed(1)} px in ${fit.room.toFixed(1)} px`).toBeLessThanOrEqual(fit.room);
        for (const n of ['pos-tol', 'rot-tol', 'morph-tol']) {
          const l = await labelLines(page, n);
          expect(l.lines, `${size.width}×${size.height} ${locale}: ${l.text}`).toBeLessThanOrEqual(2);
        }
        await suite.app.screenshot(`whole-reduce-${locale}-${size.width}`);
      }
    }
    await page.selectOption('[data-testid="locale"]', 'en');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.click('[data-testid="batch-close"]');
    expect(suite.app.errors).toEqual([]);
  });
});
