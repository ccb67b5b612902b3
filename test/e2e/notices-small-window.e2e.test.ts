/**
 * Notices in a small window (new-user pass nulaptop 6): at 1366×677 (a maximised window on a 1366×768 laptop) and
 * 1024×600 (Electron's smallest window), in English and Japanese, with four notices standing (a camera shown with
 * its "Edit this camera" button, an error with its folded details, a file not found, and the motion's "Opened"
 * notice when the machine is slow enough), the notices' box lies inside the window and inside the preview pane,
 * wide enough for a file name (at least 220 px), and covers none of the panels the person works in: the file panel,
 * the timeline and its track list, the curve editor, the Key panel, nor the menu bar, the status bar or the preview's
 * Model… and Camera… buttons. Each button in it (each notice's ×, Edit this camera, Details, Dismiss all) is what the
 * page finds at its centre, and pressing Details and Dismiss all does what they say. Before, the notices stood in the
 * strip left of the editor, 203 px wide over the file panel at 1366×677, and at 1024×600 over the preview's
 * header (Model…). With no bone picked the mouse hint and the pick hint at the picture's bottom left are not under
 * the notices (they were, at 1366×677 and 1024×600), and the shot's label ("Shot 16:9") is clear of the frame counter
 * (at 1024×600 it stood over "Frame 0 / 300"). Screenshots: test-artifacts/notices-small-{1366x677,1024x600}-{en,ja}.png.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, fileDialogReady, loadPreviewCamera, notice, openFileViaDialog } from './harness';
import { animationFrames } from './editor-page';
import { corpusPresent } from '../helpers/corpus';

const DANCE = corpusPath('gene/motion/02_laugh.vmd');
const CAMERA = corpusPath('threejs/vmds/wavefile_camera.vmd');

type Box = { left: number; top: number; right: number; bottom: number };
const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const inside = (a: Box, b: Box) => a.left >= b.left && a.right <= b.right && a.top >= b.top && a.bottom <= b.bottom;

/** What notices must not cover (selectors), besides the window's edges. */
const KEEP_CLEAR = [
  '[data-testid="menu-bar"]',
  '[data-testid="status-bar"]',
  '[data-testid="app-body"] > .left',
  '[data-testid="timeline-canvas"]',
  '[data-testid="track-list"]',
  '[data-testid="curve-editor"]',
  '[data-testid="key-inspector"]',
  '[data-testid="preview-open-model"]',
  '[data-testid="preview-open-camera"]',
];

/** The notices' box, the boxes to keep clear, the preview pane's, and for each button in the notices whether the page hit-tests its centre to it. */
function layout(page: Page) {
  return page.evaluate((keep) => {
    const box = (e: Element) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const list = document.querySelector('[data-testid="notifications"]')!;
    // Not those of a notice fading out (the motion's "Opened" notice timing out): it is going.
    const buttons = [...list.querySelectorAll<HTMLElement>('button')].filter((b) => !b.closest('.notice-leave-active')).map((b) => {
      const r = b.getBoundingClientRect();
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return { name: b.dataset.testid ?? b.className, hit: at !== null && (at === b || b.contains(at)) };
    });
    return {
      list: box(list),
      shown: Number(list.getAttribute('data-shown')),
      count: Number(list.getAttribute('data-count')),
      keep: keep.map((sel) => ({ sel, box: box(document.querySelector(sel)!) })),
      pane: box(document.querySelector('[data-testid="preview-pane"]')!),
      window: { left: 0, top: 0, right: document.documentElement.clientWidth, bottom: document.documentElement.clientHeight },
      buttons,
      // The preview's status lines at the picture's top left (frame, speed, Free view, Physics:, …): the box of
      // each line's text (a Range's: the line's block spans the overlay's widest line).
      status: [...document.querySelectorAll<HTMLElement>('[data-testid="preview-viewport"] .overlay.top-left > *')].map((e) => {
        const range = document.createRange();
        range.selectNodeContents(e);
        const r = e.tagName === 'BUTTON' ? e.getBoundingClientRect() : range.getBoundingClientRect();
        return { line: e.dataset.testid ?? e.textContent ?? '', box: { left: r.left, top: r.top, right: r.right, bottom: r.bottom } };
      }),
      // The shot's label ("Shot 16:9") and the lines at the picture's bottom left (the mouse hint and the pick hint,
      // with no bone picked): each text's own box, as for the status lines.
      texts: ['output-frame-guide-label', 'preview-frame', 'preview-mouse-hint', 'preview-pick-hint'].map((id) => {
        const e = document.querySelector(`[data-testid="${id}"]`);
        if (!e) return { id, box: null };
        const range = document.createRange();
        range.selectNodeContents(e);
        const r = range.getBoundingClientRect();
        return { id, box: { left: r.left, top: r.top, right: r.right, bottom: r.bottom } };
      }),
    };
  }, KEEP_CLEAR);
}

describe.skipIf(!corpusPresent)('notices in a small window', () => {
  const s = appForSuite({ viewport: { width: 1366, height: 677 } });

  it('stand in the preview’s corner inside the window at 1366×677 and 1024×600, cover no working panel, and their buttons work, in English and Japanese', async () => {
    const { page } = s.app;
    await openFileViaDialog(page, DANCE);
    await loadPreviewCamera(page, CAMERA);
    await notice(page, 'wavefile_camera.vmd is shown as the camera');
    const bad = path.join(s.tmp.dir, 'broken_motion_file_from_a_friend.vmd');
    writeFileSync(bad, 'not a motion file at all');
    for (const file of [bad, path.join(s.tmp.dir, 'a_file_that_is_not_there_any_more.vmd')]) {
      await page.click('[data-testid="cmd-open"]');
      await fileDialogReady(page);
      await page.fill('[data-testid="file-dialog-path"]', file);
      await page.click('[data-testid="file-dialog-go"]');
      await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    }
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="notifications"] [data-kind="error"]').length === 2);

    const clashes: string[] = [];
    for (const size of [{ width: 1366, height: 677 }, { width: 1024, height: 600 }]) {
      await page.setViewportSize(size);
      for (const locale of ['en', 'ja'] as const) {
        await page.selectOption('[data-testid="locale"]', locale);
        await animationFrames(page, 3);
        const l = await layout(page);
        const at = `${size.width}×${size.height} ${locale}`;
        await s.app.screenshot(`notices-small-${size.width}x${size.height}-${locale}`);
        expect(l.count, at).toBeGreaterThanOrEqual(3);
        expect(l.shown, at).toBeGreaterThanOrEqual(1);
        expect(inside(l.list, l.window), `${at}: the notices ${JSON.stringify(l.list)} inside the window`).toBe(true);
        expect(inside(l.list, l.pane), `${at}: the notices ${JSON.stringify(l.list)} inside the preview pane ${JSON.stringify(l.pane)}`).toBe(true);
        expect(l.list.right - l.list.left, `${at}: a readable width`).toBeGreaterThanOrEqual(220);
        expect(l.keep.filter((k) => overlaps(l.list, k.box)).map((k) => k.sel), `${at}: covered by the notices ${JSON.stringify(l.list)}`).toEqual([]);
        // Every status line of the preview in sight (the physics line is there at least), none under the notices.
        expect(l.status.map((x) => x.line), at).toContain('preview-physics-state');
        expect(l.status.map((x) => x.line), at).toContain('preview-view-mode');
        expect(l.status.filter((x) => overlaps(l.list, x.box)).map((x) => `${x.line} ${JSON.stringify(x.box)}`), `${at}: status lines under the notices ${JSON.stringify(l.list)}`).toEqual([]);
        // The shot's label clear of the frame counter (at 1024×600 "Shot 16:9" stood over "Frame 0 / 300"), and with
        // no bone picked the mouse hint and the pick hint clear of the notices (only a picked bone's line was a floor).
        const text = Object.fromEntries(l.texts.map((x) => [x.id, x.box]));
        for (const id of ['output-frame-guide-label', 'preview-frame', 'preview-mouse-hint', 'preview-pick-hint']) expect(text[id], `${at}: ${id} shown`).not.toBeNull();
        if (overlaps(text['output-frame-guide-label']!, text['preview-frame']!)) clashes.push(`${at}: the shot label ${JSON.stringify(text['output-frame-guide-label'])} over the frame counter ${JSON.stringify(text['preview-frame'])}`);
        for (const id of ['preview-mouse-hint', 'preview-pick-hint']) if (overlaps(l.list, text[id]!)) clashes.push(`${at}: ${id} ${JSON.stringify(text[id])} under the notices ${JSON.stringify(l.list)}`);
        // Each notice's × and Dismiss all at least; every button there answers at its centre.
        expect(l.buttons.filter((b) => b.name === 'close').length, at).toBe(l.shown);
        expect(l.buttons.map((b) => b.name), at).toContain('notify-dismiss-all');
        expect(l.buttons.filter((b) => !b.hit).map((b) => b.name), `${at}: buttons under something else`).toEqual([]);
      }
    }
    expect(clashes).toEqual([]);
    await page.selectOption('[data-testid="locale"]', 'en');
    await animationFrames(page, 3);
    // Details opens the newest error's folded detail; Dismiss all clears them all (a real click each).
    const details = page.locator('[data-testid="notifications"] [data-testid="notice-details"]').last();
    if (await details.count()) {
      await details.click();
      await page.waitForSelector('[data-testid="notifications"] [data-testid="notice-detail"]');
    }
    await page.click('[data-testid="notify-dismiss-all"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="notifications"]')?.getAttribute('data-count') === '0');
    expect(s.app.errors.filter((e) => !/favicon|not a VMD|E_VMD|E_IO_NOT_FOUND|no such file/.test(e))).toEqual([]);
  }, 300_000);
});
