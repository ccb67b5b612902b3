/**
 * A notice that is only text lets clicks through to the picture under it (NotificationList.vue): at 1366×677, with
 * the preview zoomed in, the notices' corner lies over the figure's legs. With "Opened …" and "Nothing to save" (information
 * notices, no button of their own) standing there, a click on a joint that lies under one picks the bone, the same
 * bone that a click on that point picks with no notice there (before, the notice took the click and nothing was
 * picked); a drag that starts on one turns the view; the notice's × still takes its click. An error notice still
 * takes the pointer (its text can be selected and copied). The notices are kept from fading meanwhile by the
 * keyboard's focus on a ×, as a keyboard user's would (stores/notify.ts hold). Screenshot:
 * test-artifacts/notice-click-through.png.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, dismissNotices, fileDialogReady, notice, openFileViaDialog } from './harness';
import { animationFrames } from './editor-page';
import { corpusPresent } from '../helpers/corpus';
import { defaultFigureBones } from '../../shared/skeleton/standard-figure';

const DANCE = corpusPath('gene/motion/02_laugh.vmd');

/** "Nothing to save" (Save on an unedited motion: an information notice), held from fading by focus on its ×. */
async function heldInfo(page: Page): Promise<void> {
  await page.click('[data-testid="cmd-save"]');
  await notice(page, 'Nothing to save');
  await page.focus('[data-testid="notifications"] .notice[data-kind="info"]:last-child .close');
  await animationFrames(page, 3);
}

/**
 * The joints (of the default figure) drawn under an information notice, away from its buttons, with the
 * element the page hit-tests there; and a point on such a notice away from every joint (for a drag).
 */
async function underNotices(page: Page, names: readonly string[]) {
  return page.evaluate((names) => {
    const notes = [...document.querySelectorAll<HTMLElement>('[data-testid="notifications"] .notice[data-kind="info"]')].filter((n) => !n.closest('.notice-leave-active') && !n.classList.contains('notice-leave-active'));
    const inBox = (r: DOMRect, x: number, y: number, m = 0) => x >= r.left + m && x <= r.right - m && y >= r.top + m && y <= r.bottom - m;
    const over = (x: number, y: number) => notes.some((n) => inBox(n.getBoundingClientRect(), x, y, 3) && ![...n.querySelectorAll('button')].some((b) => inBox(b.getBoundingClientRect(), x, y, -4)));
    const joints = names.map((name) => ({ name, p: window.__vmdPreview!.boneScreenPosition(name) })).filter((j): j is { name: string; p: [number, number] } => j.p !== null);
    const under = joints.filter((j) => over(j.p[0], j.p[1])).map((j) => {
      const at = document.elementFromPoint(j.p[0], j.p[1]) as HTMLElement | null;
      return { name: j.name, x: j.p[0], y: j.p[1], hit: at?.dataset.testid ?? at?.className ?? null };
    });
    let free: { x: number; y: number } | null = null;
    for (const n of notes) {
      const r = n.getBoundingClientRect();
      for (let x = r.left + 20; x < r.right - 40 && !free; x += 10) {
        const y = (r.top + r.bottom) / 2;
        if (over(x, y) && joints.every((j) => Math.hypot(j.p[0] - x, j.p[1] - y) > 40)) free = { x, y };
      }
    }
    return { under, free };
  }, names);
}

const picked = (page: Page) => page.evaluate(() => document.querySelector('[data-testid="preview-picked-bone"]')?.textContent?.trim() ?? null);

describe.skipIf(!corpusPresent)('a notice that is only text over the picture', () => {
  const s = appForSuite({ viewport: { width: 1366, height: 677 } });
  const names = defaultFigureBones().map((b) => b.name);

  it('lets a click on a bone under it pick the bone and a drag on it turn the view; its × and an error notice still take clicks', async () => {
    const { page } = s.app;
    await page.waitForFunction(() => !!window.__vmdPreview);
    await openFileViaDialog(page, DANCE);
    // The notices stand above the preview's hints, just under the figure's feet at this size: zoomed in (the wheel,
    // over the picture's middle) the figure's legs reach down under them.
    const view = (await page.locator('[data-testid="preview-canvas"]').boundingBox())!;
    await page.mouse.move(view.x + view.width / 2, view.y + view.height / 2);
    for (let i = 0; i < 4; i++) {
      await page.mouse.wheel(0, -240);
      await animationFrames(page, 2);
    }
    await heldInfo(page);
    const { under } = await underNotices(page, names);
    await s.app.screenshot('notice-click-through');
    expect(under.length, 'a joint of the figure under an information notice').toBeGreaterThan(0);
    const j = under[0];
    expect(j.hit, `${j.name} at (${j.x}, ${j.y}): what the page finds there`).toBe('preview-canvas');

    // The click picks a bone; nothing was picked before.
    expect(await picked(page)).toBeNull();
    await page.mouse.click(j.x, j.y);
    await page.waitForSelector('[data-testid="preview-picked-bone"]');
    const through = await picked(page);
    // The same click with no notice there picks the same bone.
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="preview-picked-bone"]', { state: 'detached' });
    await dismissNotices(page);
    await page.mouse.click(j.x, j.y);
    await page.waitForSelector('[data-testid="preview-picked-bone"]');
    expect(through).toBe(await picked(page));
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="preview-picked-bone"]', { state: 'detached' });

    // A drag that starts on a notice, away from every joint, turns the view.
    await heldInfo(page);
    const { free } = await underNotices(page, names);
    expect(free, 'a point on the notice away from the joints').not.toBeNull();
    const cam0 = await page.evaluate(() => window.__vmdPreview!.cameraState()!.position);
    await page.mouse.move(free!.x, free!.y);
    await page.mouse.down();
    await page.mouse.move(free!.x - 60, free!.y - 10, { steps: 6 });
    await page.mouse.up();
    await animationFrames(page, 2);
    const cam1 = await page.evaluate(() => window.__vmdPreview!.cameraState()!.position);
    expect(Math.hypot(cam1[0] - cam0[0], cam1[1] - cam0[1], cam1[2] - cam0[2]), 'the camera moved').toBeGreaterThan(0.01);
    expect(await picked(page)).toBeNull();

    // Its × still takes the click.
    await heldInfo(page);
    const before = Number(await page.getAttribute('[data-testid="notifications"]', 'data-count'));
    await page.click('[data-testid="notifications"] .notice[data-kind="info"]:last-child .close');
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid="notifications"]')?.getAttribute('data-count')) === n - 1, before);
    await dismissNotices(page);

    // An error notice takes the pointer: its text is what the page finds there.
    const bad = path.join(s.tmp.dir, 'not_a_motion.vmd');
    writeFileSync(bad, 'not a motion file at all');
    await page.click('[data-testid="cmd-open"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', bad);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForSelector('[data-testid="notifications"] .notice[data-kind="error"]');
    const hit = await page.evaluate(() => {
      const r = document.querySelector('[data-testid="notifications"] .notice[data-kind="error"] [data-testid="notice-message"]')!.getBoundingClientRect();
      const at = document.elementFromPoint(r.left + 10, r.top + r.height / 2);
      return at?.closest('.notice')?.getAttribute('data-kind') ?? null;
    });
    expect(hit).toBe('error');
    expect(s.app.errors.filter((e) => !/favicon|not a VMD|E_VMD/.test(e))).toEqual([]);
  }, 180_000);
});
