/**
 * A frame typed in the frame field lands in view with context (nuvideo pass, item 6), in Chromium through the
 * browser mode: after, before or at the edge of the view, the playhead is drawn a third of the way across the
 * timeline (as MMD's frame box), not at its far right edge; a frame well inside the view does not scroll it.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath } from './harness';
import { animationFrames, openFresh, seekFrameField } from './editor-page';

/** The playhead's place across the timeline's key area (0 = left edge, 1 = right edge) as last drawn. */
async function playheadAcross(page: Page): Promise<number> {
  await animationFrames(page, 2);
  return page.evaluate(() => {
    const cv = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement;
    const span = cv.getBoundingClientRect().width / Number(cv.dataset.pxPerFrame);
    return (window.__vmdEditor!.frame().frame - Number(cv.dataset.frameStart)) / span;
  });
}

describe('the frame field (browser mode)', () => {
  const s = appForSuite();

  it('a typed frame out of view lands a third of the way across, after the view and before it', async () => {
    const { page } = s.app;
    await openFresh(page, corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'));
    await page.locator('[data-testid="timeline-canvas"]').hover();
    // Zoomed in: a few hundred frames across.
    for (let i = 0; i < 4; i++) await page.keyboard.press('+');
    await seekFrameField(page, 1500);
    expect(await playheadAcross(page)).toBeCloseTo(1 / 3, 1);
    // Before the view (it showed the right edge before): a third across too.
    await seekFrameField(page, 900);
    expect(await playheadAcross(page)).toBeCloseTo(1 / 3, 1);
    // Inside the view: it stays.
    const at = await playheadAcross(page);
    await seekFrameField(page, 920);
    const fs = await page.evaluate(() => Number((document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement).dataset.frameStart));
    expect(await playheadAcross(page)).toBeGreaterThan(at);
    await seekFrameField(page, 910);
    expect(await page.evaluate(() => Number((document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement).dataset.frameStart))).toBe(fs);
  });
});
