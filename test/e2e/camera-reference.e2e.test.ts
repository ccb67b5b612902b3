/**
 * One camera at a time, as in MMD (the nucamera findings 2 and 3): a reference camera shown with the preview's
 * Camera… stands in only while the scene has no camera document, and K is refused then with the control to press
 * named (✕ beside Camera…). When the scene gets its camera document (+ New camera) the reference goes with a
 * notice, K registers into that document and Through camera shows what was registered (it showed the reference's
 * shot before). Camera… with a camera document offers "Use as the scene's camera", which loads the file onto it
 * (its notice used to send the user to + Actor, which refuses a camera). Screenshots: test-artifacts/camera-ref-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, dismissNotices, fileDialogReady, loadPreviewCamera, notice, openFileViaDialog } from './harness';
import { animationFrames as frames, seekPreview as seek } from './editor-page';

const DANCE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const REFERENCE = corpusPath('threejs/vmds/wavefile_camera.vmd');

async function camera(page: Page) {
  const c = await page.evaluate(() => window.__vmdPreview!.cameraState());
  if (!c) throw new Error('no preview');
  return c;
}

async function drag(page: Page, dx: number, dy: number) {
  const r = (await page.locator('[data-testid="preview-canvas"]').boundingBox())!;
  const x = r.x + r.width / 2, y = r.y + r.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 8 });
  await page.mouse.up();
  await frames(page);
}

const history = (page: Page) => page.evaluate(() => window.__vmdEditor!.history().undo);
const cameraKeys = (page: Page) => page.getAttribute('[data-testid="count-camera"]', 'data-count');

describe('a reference camera and the scene’s camera document', () => {
  const suite = appForSuite({ viewport: { width: 1440, height: 900 } });

  it('the reference stands in only without a camera document; K, Through camera and Camera… then use the camera document', async () => {
    const { page } = suite.app;
    await openFileViaDialog(page, DANCE);
    // The preview's hint line says the mouse's mapping (not MMD's: right-drag pans here), in the UI language.
    expect(await page.textContent('[data-testid="preview-mouse-hint"]')).toBe('Drag: turn · Right/Shift+drag: pan · Wheel: zoom (MMD turns with right-drag)');
    await loadPreviewCamera(page, REFERENCE);
    await notice(page, 'wavefile_camera.vmd is shown as the camera, view only: “Edit this camera” makes it the scene’s camera, whose keys K and the Key panel edit');
    expect(await page.textContent('[data-testid="preview-pane"]')).toMatch(/Camera: 70 keys, 29 cuts/);

    // K with the reference shown and no camera document: refused, naming the control.
    await seek(page, 30);
    const before = await history(page);
    await page.locator('[data-testid="preview-scrub"]').blur();
    await page.keyboard.press('k');
    await notice(page, 'The reference camera loaded with Camera… is shown and takes no keys: “Edit this camera” makes it the scene’s camera (✕ beside Camera… removes it)');
    expect(await history(page)).toBe(before);
    await suite.app.screenshot('camera-ref-shown');
    await dismissNotices(page);

    // + New camera: the reference goes, and says so.
    await page.click('[data-testid="scene-add-camera"]');
    await page.waitForSelector('[data-testid="preview-clear-camera"]', { state: 'detached' });
    await notice(page, 'wavefile_camera.vmd is no longer shown: the scene’s camera document is now the camera you look through and register into');

    // K registers into the camera document; Through camera shows that view, not the reference's shot.
    await seek(page, 30);
    await drag(page, 120, 40);
    const orbit = await camera(page);
    const undo = await history(page);
    await page.locator('[data-testid="preview-scrub"]').blur();
    await page.keyboard.press('k');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, undo);
    await page.waitForFunction(() => document.querySelector('[data-testid="count-camera"]')?.getAttribute('data-count') === '1');
    await page.waitForFunction(() => !(document.querySelector('[data-testid="preview-look-through"]') as HTMLInputElement)?.disabled);
    await page.check('[data-testid="preview-look-through"]');
    await seek(page, 30);
    const through = await camera(page);
    expect(through.lookThrough).toBe(true);
    for (let c = 0; c < 3; c++) expect(Math.abs(through.position[c] - orbit.position[c]), `position ${c}`).toBeLessThan(1e-3);
    expect(await page.textContent('[data-testid="preview-pane"]')).toMatch(/Camera: 1 key/);
    await suite.app.screenshot('camera-ref-through-own');
    await page.uncheck('[data-testid="preview-look-through"]');
    await dismissNotices(page);

    // Camera… now offers the route that works: "Use as the scene's camera" loads the file onto the camera document.
    await page.click('[data-testid="preview-open-camera"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', REFERENCE);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    await page.waitForSelector('[data-testid="confirm-camera"]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid="confirm-camera"]')).toBe('Use as the scene’s camera');
    await suite.app.screenshot('camera-ref-use-as-camera');
    await page.click('[data-testid="confirm-camera"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="count-camera"]')?.getAttribute('data-count') === '70');
    expect(await cameraKeys(page)).toBe('70');
    expect(await page.isVisible('[data-testid="preview-clear-camera"]')).toBe(false);
  });
});

/**
 * The numigrate pass: a switcher loads a camera motion with Camera… as MMD loads one to edit, and K was refused with
 * the route behind More. The notice (and a button beside ✕) has “Edit this camera” (このカメラを編集), which makes
 * the file the scene's camera document, as Open… → “Use as the scene's camera” does.
 */
describe('Edit this camera', () => {
  const suite = appForSuite({ viewport: { width: 1440, height: 900 } });

  it('“Edit this camera” on K’s notice makes the reference the scene’s camera document (70 keys), after which K registers', async () => {
    const { page } = suite.app;
    await openFileViaDialog(page, DANCE);
    await loadPreviewCamera(page, REFERENCE);
    // The Camera… button's tooltip names the route; the button beside ✕ is it.
    expect(await page.getAttribute('[data-testid="preview-open-camera"]', 'title')).toContain('“Edit this camera” then makes it the scene’s camera');
    // Beside ✕ it is ✎ (a word there wrapped the preview's header at 1440×900: layout e2e), named for screen readers.
    expect(await page.getAttribute('[data-testid="preview-edit-camera"]', 'aria-label')).toBe('Edit this camera');
    expect(await page.textContent('[data-testid="preview-edit-camera"]')).toBe('✎');
    await dismissNotices(page);
    await seek(page, 30);
    const before = await history(page);
    await page.locator('[data-testid="preview-scrub"]').blur();
    await page.keyboard.press('k');
    await notice(page, 'takes no keys');
    expect(await history(page)).toBe(before);
    // The button is on the notice itself, in sight (not behind More).
    // (Not a notice fading out: the reference camera's load notice, replaced by this one, stays in the page while it fades.)
    const button = page.locator('[data-testid="notifications"] .notice:not(.notice-leave-active) [data-testid="notice-action"]');
    expect(await button.textContent()).toBe('Edit this camera');
    await suite.app.screenshot('camera-ref-edit-button');
    await button.click();
    await page.waitForFunction(() => document.querySelector('[data-testid="count-camera"]')?.getAttribute('data-count') === '70');
    await page.waitForSelector('[data-testid="preview-clear-camera"]', { state: 'detached' });
    expect(await history(page)).toBe(before + 1);
    // K now registers into it: a 71st key at frame 30 (the file has none there), one more undo step.
    await seek(page, 30);
    await drag(page, 120, 40);
    await page.locator('[data-testid="preview-scrub"]').blur();
    await page.keyboard.press('k');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 2, before);
    await page.waitForFunction(() => document.querySelector('[data-testid="count-camera"]')?.getAttribute('data-count') === '71');
  });
});
