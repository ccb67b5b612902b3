/**
 * Text a new user found cut, wrapped mid-word or touching (a first-run report, in English and Japanese), read
 * from the real layout in Chromium:
 *  - Video…: "250 frames, 8.33 s" ("250 フレーム、8.33 秒") stays on one line, Render and Close do not touch,
 *    and no music in the scene is a line of text, not a greyed box.
 * Screenshots: test-artifacts/ui-text-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath } from './harness';
import { animationFrames, openFresh } from './editor-page';

const WAVE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');

async function setLocale(page: Page, locale: 'en' | 'ja') {
  await page.selectOption('[data-testid="locale"]', locale);
  await animationFrames(page, 2);
}

/** The lines the text of `selector` takes (distinct tops of its text's boxes), and whether it is cut (scrollWidth). */
async function textLines(page: Page, selector: string): Promise<{ text: string; lines: number; cut: boolean }> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel) as HTMLElement | null;
    if (!el) throw new Error(`${sel} is not there`);
    const r = document.createRange();
    r.selectNodeContents(el);
    const tops = new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top)));
    return { text: el.textContent!.trim(), lines: tops.size, cut: el.scrollWidth > el.clientWidth + 0.5 };
  }, selector);
}

async function gapBetween(page: Page, left: string, right: string): Promise<number> {
  const a = (await page.locator(left).boundingBox())!;
  const b = (await page.locator(right).boundingBox())!;
  return b.x - (a.x + a.width);
}

describe('text a new user found cut or wrapped', () => {
  const s = appForSuite({ viewport: { width: 1440, height: 900 } });

  it('Video…: the frame count on one line, Render apart from Close, no music as a line of text (en, ja)', async () => {
    const { page } = s.app;
    await openFresh(page, WAVE);
    await page.click('[data-testid="cmd-export-video"]');
    await page.waitForSelector('[data-testid="video-dialog"]');
    for (const locale of ['en', 'ja'] as const) {
      await setLocale(page, locale);
      const frames = await textLines(page, '[data-testid="video-frames"]');
      expect(frames.lines, `${locale}: "${frames.text}" wraps`).toBe(1);
      expect(await gapBetween(page, '[data-testid="video-start"]', '[data-testid="video-close"]'), `${locale}: Render touches Close`).toBeGreaterThanOrEqual(4);
      expect(await page.locator('[data-testid="video-music"]').count(), `${locale}: a box to tick without music`).toBe(0);
      expect(await textLines(page, '[data-testid="video-no-music"]')).toMatchObject({ lines: 1, cut: false });
      await s.app.screenshot(`ui-text-video-${locale}`);
    }
    await page.click('[data-testid="video-close"]');
    await setLocale(page, 'en');
  });
});
