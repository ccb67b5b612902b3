/**
 * A first-time user's first steps (new-user pass nubegin), end to end in Chromium. Before a model is loaded (nubegin
 * 4): the dance on the default figure says which model it was made for (its header) and that a model goes into
 * Model…, in English and Japanese; gone once a model is shown. Then, for one who cannot read Japanese (nubegin 1): wavefile_v2.vmd on
 * miku.pmd (which names 左腕 arm_L in its PMD English names), English UI. "arm" in the Bones tab's search finds
 * 左腕 and 右腕 (it found nothing), each bone shows its English name; picked, 左腕 is "Bone: 左腕 (arm_L)" in the
 * preview, the Key panel names arm_L beside 左腕 and so does its timeline row. The motion keys the Japanese name
 * as before (the picked key is 左腕's). In the Japanese UI the English names are not shown; the search still
 * finds 左腕 by "arm". Screenshots: test-artifacts/first-steps-*.png.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, openFileViaDialog, showModelThroughDialog, textOf } from './harness';
import { seekFrameField } from './editor-page';
import { buildTracks, decodeName, readVmd } from '../../shared/vmd';
import { readModel } from '../../shared/pmx/model-reader';

const WAVE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');

const found = (page: Page) => page.$$eval('[data-testid="bone-item"]', (els) => els.map((e) => (e as HTMLElement).dataset.bone!));

describe('English bone names in the English UI (nubegin 1)', () => {
  const s = appForSuite({ viewport: { width: 1440, height: 900 } });
  const m = readModel(new Uint8Array(readFileSync(MIKU)));
  if (!m.ok) throw new Error(m.error.message);
  const model = m.value;
  const v = readVmd(new Uint8Array(readFileSync(WAVE)));
  if (!v.ok) throw new Error(v.error.message);
  const bones = buildTracks(v.value).bones;

  it('on the default figure: "Made for <the header\'s model>: load your model with Model…", in both languages; gone with a model', async () => {
    const { page } = s.app;
    await openFileViaDialog(page, WAVE);
    // The model the dance names in its header (20 bytes, Shift_JIS), read here with the codec.
    const madeFor = decodeName(v.value.modelName).trim();
    expect(madeFor).not.toBe('');
    await page.waitForSelector('[data-testid="preview-made-for"]');
    expect(await textOf(page, 'preview-made-for')).toBe(`Made for ${madeFor}: load your model with Model… (.pmx/.pmd)`);
    // Beside the line that lists what the figure lacks.
    expect(await page.isVisible('[data-testid="preview-missing-bones"]')).toBe(true);
    await s.app.screenshot('first-steps-made-for');
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.waitForFunction((m) => document.querySelector('[data-testid="preview-made-for"]')?.textContent?.trim() === `${m} 用のモーションです。モデル… でモデル（.pmx/.pmd）を読み込んでください`, madeFor);
    await page.selectOption('[data-testid="locale"]', 'en');
    await showModelThroughDialog(page, MIKU, model.name);
    expect(await page.$('[data-testid="preview-made-for"]')).toBeNull();
    expect(s.app.errors).toEqual([]);
  });

  it('"arm" finds 左腕; the list, the preview, the Key panel and the track row show arm_L', async () => {
    const { page } = s.app;
    await seekFrameField(page, 0);
    await page.click('[data-testid="side-tab-bones"]');
    await page.fill('[data-testid="bone-search"]', 'arm');
    const hits = await found(page);
    // The model's bones whose English name holds "arm" (read from the file here): 左腕 arm_L and 右腕 arm_R among them.
    const expected = model.bones.filter((b) => b.nameEn.toLowerCase().includes('arm')).map((b) => b.name);
    expect(hits.length).toBeGreaterThan(1);
    expect(hits).toContain('左腕');
    expect(hits).toContain('右腕');
    expect(new Set(hits)).toEqual(new Set(expected));
    expect(await page.textContent('[data-testid="bone-item"][data-bone="左腕"] [data-testid="bone-item-en"]')).toBe('arm_L');
    await s.app.screenshot('first-steps-bone-search');

    await page.click('[data-testid="bone-item"][data-bone="左腕"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-picked-bone"]')?.textContent?.includes('左腕'));
    expect(await textOf(page, 'preview-picked-bone')).toBe('Bone: 左腕 (arm_L)');
    await page.waitForSelector('[data-testid="inspector-name-en"]');
    expect(await textOf(page, 'inspector-name')).toBe('左腕');
    expect(await textOf(page, 'inspector-name-en')).toBe('arm_L');
    // The motion keys 左腕: its track row (the active one) shows arm_L after the name the motion holds.
    const track = bones.index.get('左腕')!;
    expect(track).toBeGreaterThanOrEqual(0);
    const row = page.locator(`[data-testid="track-bone:${track}"]`);
    await row.waitFor();
    expect((await row.locator('.name').textContent())?.trim()).toBe('左腕');
    expect(await row.locator('[data-testid="track-name-en"]').textContent()).toBe('arm_L');
    expect(await row.getAttribute('title')).toMatch(/^左腕 \(arm_L\) — /);
    await s.app.screenshot('first-steps-bone-picked');
    expect(s.app.errors).toEqual([]);
  });

  it('Japanese UI: no English names shown; "arm" still finds 左腕', async () => {
    const { page } = s.app;
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-picked-bone"]')?.textContent?.trim() === 'ボーン: 左腕');
    expect(await page.$('[data-testid="bone-item-en"]')).toBeNull();
    expect(await page.$('[data-testid="inspector-name-en"]')).toBeNull();
    expect(await page.$('[data-testid="track-name-en"]')).toBeNull();
    expect(await found(page)).toContain('左腕');
    await s.app.screenshot('first-steps-bone-ja');
    await page.selectOption('[data-testid="locale"]', 'en');
    expect(s.app.errors).toEqual([]);
  });
});
