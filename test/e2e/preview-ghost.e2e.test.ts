/**
 * "Ghost (as saved)" under the preview (nupolish finding 5: no before/after comparison while polishing): after a big
 * edit of 左腕 at one frame, Gene is drawn a second time, see-through, posed by the dance as it was opened: at the
 * edited frame the ghost's left hand is where the actor's was before the edit (the actor's has moved), far from the
 * edit the two agree; the ghost has no ground shadow or physics of its own. The switch's label is whole in English
 * and Japanese. Screenshots: test-artifacts/preview-ghost-as-saved.png (actor and ghost after the edit) and
 * preview-ghost-as-saved-closeup.png (the preview alone, zoomed).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import path from 'node:path';
import { appForSuite, ARTIFACTS, corpusPath, showModelThroughDialog, textFits } from './harness';
import { animationFrames, openFresh, seekFrameField } from './editor-page';

const WAVE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const GENE = corpusPath('gene/Gene_light.pmx');
const EDITED = 300, FAR = 900;

const hand = (page: Page, key: string | null) =>
  page.evaluate((k) => (k ? window.__vmdPreview!.companionBoneWorldPosition(k, '左手首') : window.__vmdPreview!.boneWorldPosition('左手首')), key);
const dist = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

describe('Ghost (as saved) in the preview (browser mode, 1600×900)', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 900 } });
  it('draws the dance as opened over the edited one: apart at the edited frame, together far from it', async () => {
    const { page } = s.app;
    await openFresh(page, WAVE);
    await showModelThroughDialog(page, GENE, 'ジェネ / Gene');
    // Off by default.
    expect(await page.isChecked('[data-testid="preview-ghost"]')).toBe(false);
    expect(await page.evaluate(() => window.__vmdPreview!.companions())).toEqual([]);

    await seekFrameField(page, EDITED);
    await animationFrames(page, 2);
    const before = (await hand(page, null))!;
    // A big arm edit: 左腕 turned 80° about Z at the edited frame (typed in the Key panel, one step).
    await page.click('[data-testid="side-tab-bones"]');
    await page.click('[data-testid="bone-item"][data-bone="左腕"]');
    const undo0 = await page.evaluate(() => window.__vmdEditor!.history().undo);
    await page.fill('[data-testid="inspector-rot-z"]', '80');
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, undo0);
    await animationFrames(page, 2);
    const edited = (await hand(page, null))!;
    expect(dist(edited, before)).toBeGreaterThan(2);

    await page.check('[data-testid="preview-ghost"]');
    await page.waitForFunction(() => window.__vmdPreview!.companions().some((k) => k.startsWith('-2:saved:')));
    const key = (await page.evaluate(() => window.__vmdPreview!.companions())).find((k) => k.startsWith('-2:saved:'))!;
    await animationFrames(page, 2);
    await page.waitForFunction(() => !window.__vmdPreview!.presentation().pending);
    // The ghost's hand is where the actor's was before the edit; the actor's is not there.
    const ghost = (await hand(page, key))!;
    expect(dist(ghost, before)).toBeLessThan(1e-3);
    expect(dist(ghost, (await hand(page, null))!)).toBeGreaterThan(2);
    // See-through, where the actor stands.
    const look = (await page.evaluate((k) => window.__vmdPreview!.companionLook(k), key))!;
    expect(look.visible).toBe(true);
    expect(look.position).toEqual([0, 0, 0]);
    expect(Math.max(...look.opacity)).toBeLessThan(1);
    await s.app.screenshot('preview-ghost-as-saved');
    // A close-up of the preview for the eye: no joint dots or rings, zoomed toward the chest.
    await page.uncheck('[data-testid="preview-bones"]');
    await page.click('[data-testid="preview-pose-off"]');
    const chest = (await page.evaluate(() => window.__vmdPreview!.boneScreenPosition('上半身2') ?? window.__vmdPreview!.boneScreenPosition('上半身')))!;
    await page.mouse.move(chest[0], chest[1]);
    for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -240);
    await animationFrames(page, 3);
    await page.waitForFunction(() => !window.__vmdPreview!.presentation().pending);
    await page.locator('[data-testid="preview-viewport"]').screenshot({ path: path.join(ARTIFACTS, 'preview-ghost-as-saved-closeup.png') });
    await page.check('[data-testid="preview-bones"]');

    // Far from the edit the two agree.
    await seekFrameField(page, FAR);
    await animationFrames(page, 2);
    expect(dist((await hand(page, key))!, (await hand(page, null))!)).toBeLessThan(1e-3);
    // No physics world for the ghost.
    const actors = await page.evaluate(() => window.__vmdPreview!.physics().actors.map((a) => a.key));
    expect(actors.filter((k) => k.startsWith('-2:'))).toEqual([]);

    // The label whole in both languages.
    for (const [locale, text] of [['en', 'Ghost (as saved)'], ['ja', 'ゴースト（保存時）']] as const) {
      await page.selectOption('[data-testid="locale"]', locale);
      await animationFrames(page, 2);
      const [label] = await textFits(page, ['[data-testid="preview-ghost-label"]']);
      expect(label.text).toBe(text);
      expect(label.cut || label.lines !== 1).toBe(false);
    }
    expect(s.app.errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });
});
