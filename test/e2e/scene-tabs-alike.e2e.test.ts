/**
 * Two actors on one model in the tab strip at 1366×768 in Japanese (nustage pass, item 3): the four-actor scene's
 * tabs read "Gene_light w…" and "Gene_ligh…": the "(2)" that tells actor 4 from actor 1 was what the strip cut.
 * Now the name before the number shortens and the number stays whole, inside its tab; the preview's header
 * names the actor whose model it shows ("Gene_light (2) のモデル"), since both show the same model name.
 * Screenshot: test-artifacts/scene-tabs-alike-ja-1366.png.
 */
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, openSceneViaDialog, textFits, writeSceneFolder } from './harness';

const GENE = corpusPath('gene/Gene_light.pmx');
const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');

describe('two Gene_light actors at 1366×768 in Japanese (browser mode)', () => {
  const s = appForSuite({ viewport: { width: 1366, height: 768 }, locale: 'ja-JP' });

  it('the "(2)" of the second Gene_light shows whole in its tab, and the preview header names the shown actor', async () => {
    const { page } = s.app;
    const scenePath = writeSceneFolder(
      s.tmp.dir,
      [
        [corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), 'wavefile_v2.vmd'],
        [corpusPath('mc-mmd-rust/default_anim/walk.vmd'), 'walk.vmd'],
        [corpusPath('mc-mmd-rust/default_anim/idle.vmd'), 'idle.vmd'],
        [corpusPath('gene/motion/33_angry.vmd'), '33_angry.vmd'],
        [corpusPath('threejs/vmds/wavefile_camera.vmd'), 'wavefile_camera.vmd'],
      ],
      {
        actors: [
          { model: GENE, motion: 'wavefile_v2.vmd' },
          { model: MIKU, motion: 'walk.vmd' },
          { model: null, motion: 'idle.vmd' },
          { model: GENE, motion: '33_angry.vmd' },
        ],
        activeActor: 3,
        camera: 'wavefile_camera.vmd',
      },
      'stage.vmdscene',
    );
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 5);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await s.app.screenshot('scene-tabs-alike-ja-1366');

    // The strip is narrow enough here that the names are cut (the case of the report).
    const tab = (n: number) => `[data-testid="scene-tab"]:nth-of-type(${n})`;
    const [first, fourth] = await textFits(page, [`${tab(1)} .name`, `${tab(4)} .name`]);
    expect([first.text, fourth.text]).toEqual(['Gene_light', 'Gene_light (2)']);
    // The number: whole (not cut), and inside its tab's visible button, not clipped by it.
    const [nth] = await textFits(page, [`${tab(4)} .nth`]);
    expect(nth.text).toBe('(2)');
    expect(nth.cut).toBe(false);
    const boxes = await page.evaluate((sel) => {
      const pick = document.querySelector(`${sel} button[role="tab"]`)!.getBoundingClientRect();
      const n = document.querySelector(`${sel} .nth`)!.getBoundingClientRect();
      const strip = document.querySelector('[data-testid="scene-tabs"]')!.getBoundingClientRect();
      return { nthLeft: n.left, nthRight: n.right, nthWidth: n.width, pickLeft: pick.left, pickRight: pick.right, stripRight: strip.right };
    }, tab(4));
    expect(boxes.nthWidth).toBeGreaterThan(0);
    expect(boxes.nthLeft).toBeGreaterThanOrEqual(boxes.pickLeft);
    expect(boxes.nthRight).toBeLessThanOrEqual(boxes.pickRight + 0.5);
    expect(boxes.nthRight).toBeLessThanOrEqual(boxes.stripRight + 0.5);
    // The first Gene_light has no number: what each tab shows differs.
    expect(await page.locator(`${tab(1)} .nth`).count()).toBe(0);

    // The header names the actor shown (the fourth, active), then the first.
    expect((await page.textContent('[data-testid="preview-model-label"]'))?.trim()).toBe('Gene_light (2) のモデル');
    await page.locator(`${tab(1)} button[role="tab"]`).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-label"]')?.textContent?.trim() === 'Gene_light のモデル');
  });
});
