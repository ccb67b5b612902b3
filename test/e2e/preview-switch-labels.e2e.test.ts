/**
 * The preview's outline and look-through switches say what they are (nuvideo pass, item 8): a short visible
 * label beside each box, as the Bones switch has (they were a ○ and a camera icon, named only in tooltips),
 * whole at 1280×720 in Japanese and at 1600×900 in English; and the Video dialog says outlines are drawn in the
 * video (the preview without a GPU starts with them off). Screenshots: test-artifacts/preview-switch-labels-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, showModelThroughDialog, textFits } from './harness';
import { animationFrames, openFresh } from './editor-page';

const WAVE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const GENE = corpusPath('gene/Gene_light.pmx');

async function check(page: Page, locale: 'en' | 'ja', shot: (n: string) => Promise<string>) {
  await page.selectOption('[data-testid="locale"]', locale);
  await animationFrames(page, 2);
  const labels = await textFits(page, ['[data-testid="preview-outline-label"]', '[data-testid="preview-look-through-label"]']);
  expect(labels.map((l) => l.text)).toEqual(locale === 'en' ? ['Outline', 'Through camera'] : ['輪郭線（エッジ）', 'カメラ視点']);
  expect(labels.filter((l) => l.cut || l.lines !== 1)).toEqual([]);
  // Each label is its box's: a click on it flips the box.
  const before = await page.isChecked('[data-testid="preview-outline"]');
  await page.click('[data-testid="preview-outline-label"]');
  expect(await page.isChecked('[data-testid="preview-outline"]')).toBe(!before);
  await page.click('[data-testid="preview-outline-label"]');
  await shot(`preview-switch-labels-${locale}`);
  await page.click('[data-testid="cmd-export-video"]');
  await page.waitForSelector('[data-testid="video-dialog"]');
  const [note] = await textFits(page, ['[data-testid="video-outline-note"]']);
  expect(note.text).toBe(locale === 'en' ? 'Outlines (MMD’s edges) are drawn in the video, whatever the preview’s Outline switch' : '動画には輪郭線（エッジ）を常に描きます（プレビューの輪郭線スイッチに関わらず）');
  expect(note.wide).toBe(false);
  await page.click('[data-testid="video-close"]');
}

describe('preview switch labels at 1280×720 (browser mode, Japanese)', () => {
  const s = appForSuite({ viewport: { width: 1280, height: 720 } });
  it('outline and look-through show short labels, whole; the Video dialog says outlines are drawn', async () => {
    const { page } = s.app;
    await openFresh(page, WAVE);
    await showModelThroughDialog(page, GENE, 'ジェネ / Gene');
    await check(page, 'ja', s.app.screenshot);
  });
});

describe('preview switch labels at 1600×900 (browser mode, English)', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 900 } });
  it('outline and look-through show short labels, whole; the Video dialog says outlines are drawn', async () => {
    const { page } = s.app;
    await openFresh(page, WAVE);
    await showModelThroughDialog(page, GENE, 'ジェネ / Gene');
    await check(page, 'en', s.app.screenshot);
  });
});
