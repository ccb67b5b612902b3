/**
 * A face animator's flow (new-user pass numorph 3, 4, 5), end to end in Chromium on Gene_light.pmx:
 *  - dragging an eye morph's slider changes the face in the preview while the pointer is still down (before, only the
 *    release did, and it keyed the weight); the release keys it once (one undo step); a drag cancelled with Esc puts
 *    the face back and keys nothing.
 * Screenshots: test-artifacts/morph-live-*.png.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, showModelThroughDialog } from './harness';
import { animationFrames, openFresh, seekFrameField } from './editor-page';
import { readModel } from '../../shared/pmx/model-reader';

const GENE = corpusPath('gene/Gene_light.pmx');
const STAND = corpusPath('gene/motion/stand.vmd');

/** The preview's picture as RGBA bytes. */
async function picture(page: Page): Promise<Uint8Array> {
  const f = await page.evaluate(() => window.__vmdPreview!.frameImage());
  return new Uint8Array(Buffer.from(f.rgba, 'base64'));
}
/** How many pixels differ between two pictures. */
function changed(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) n++;
  return n;
}

describe('morph slider: the face moves live (numorph 3)', () => {
  const s = appForSuite({ viewport: { width: 1920, height: 1080 }, locale: 'en-US' });
  const m = readModel(new Uint8Array(readFileSync(GENE)));
  if (!m.ok) throw new Error(m.error.message);
  // An eye morph (panel 2) whose name fits a VMD field: its vertices are on the face.
  const eye = m.value.morphs.find((x) => x.panel === 2 && Buffer.byteLength(x.name, 'utf8') <= 12)!;

  it('dragging changes the face while the pointer is down; the release keys once; Esc cancels', async () => {
    const { page } = s.app;
    const file = path.join(s.tmp.dir, 'stand.vmd');
    copyFileSync(STAND, file);
    await openFresh(page, file);
    await showModelThroughDialog(page, GENE, 'ジェネ / Gene');
    await seekFrameField(page, 0);
    await page.click('[data-testid="side-tab-morphs"]');
    await page.click('[data-testid="morph-group-eyes"]');
    await animationFrames(page, 2);
    // Zoomed to the face, so its change is many pixels.
    const head = (await page.evaluate(() => window.__vmdPreview!.boneScreenPosition('頭')))!;
    await page.mouse.move(head[0], head[1]);
    for (let i = 0; i < 8; i++) {
      await page.mouse.wheel(0, -200);
      await animationFrames(page, 1);
    }
    await animationFrames(page, 3);
    const steps = await page.evaluate(() => window.__vmdEditor!.history().undo);
    const before = await picture(page);
    const still = changed(before, await picture(page));

    const slider = page.locator(`[data-testid="morph-row"][data-morph="${eye.name}"] [data-testid="morph-slider"]`);
    await slider.scrollIntoViewIfNeeded();
    const box = (await slider.boundingBox())!;
    const y = box.y + box.height / 2;
    // Pressed at its left end (0), dragged to its right end (1), not released.
    await page.mouse.move(box.x + 2, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, y, { steps: 4 });
    await page.mouse.move(box.x + box.width - 1, y, { steps: 4 });
    await animationFrames(page, 3);
    const dragging = await picture(page);
    await s.app.screenshot('morph-live-dragging');
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo), 'nothing keyed while dragging').toBe(steps);
    expect(changed(before, dragging), 'the face changed while the pointer is down').toBeGreaterThan(50 + still * 4);
    await page.mouse.up();
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, steps);
    await animationFrames(page, 3);
    const released = await picture(page);
    expect(changed(dragging, released), 'the keyed weight shows as the drag did').toBeLessThanOrEqual(still + 20);

    // Undo, then a drag cancelled with Esc: the face back, nothing keyed.
    await page.keyboard.press('Control+z');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n, steps);
    await animationFrames(page, 3);
    const undone = await picture(page);
    await page.mouse.move(box.x + 2, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width - 1, y, { steps: 6 });
    await animationFrames(page, 3);
    expect(changed(undone, await picture(page))).toBeGreaterThan(50 + still * 4);
    await page.keyboard.press('Escape');
    await animationFrames(page, 3);
    expect(changed(undone, await picture(page)), 'Esc put the face back').toBeLessThanOrEqual(still + 20);
    await page.mouse.up();
    await animationFrames(page, 3);
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(steps);
    await s.app.screenshot('morph-live-cancelled');

    expect(s.app.errors).toEqual([]);
  });
});
