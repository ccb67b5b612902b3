/**
 * Notices and an open panel, in Chromium through the browser mode: with several error notices standing (three
 * files that are not motions, opened one after another) and the retarget panel ("Fit this motion to the
 * model…") open over the editor's side, none of the notices overlaps the panel's footer (they stand in the
 * preview's corner, and would stack above the footer where it lay across their column: notice-floor.ts), and the
 * point at the centre of Apply and of Cancel is that button. In English and Japanese (the longer lines make taller
 * notices). Closing the panel leaves the notices where they stood. Screenshots: test-artifacts/notices-panel-{en,ja}.png.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, fileDialogReady, openSceneViaDialog, writeSceneFolder } from './harness';
import { corpusPresent } from '../helpers/corpus';

const GENE = corpusPath('gene/Gene_light.pmx');
const DANCE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');

type Box = { left: number; top: number; right: number; bottom: number };

/** The footer's and its buttons' boxes, each notice's box, and what the page hit-tests at each button's centre. */
async function layout(page: Page) {
  return page.evaluate(() => {
    const box = (e: Element): Box => {
      const r = e.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const footer = document.querySelector('[data-testid="retarget-panel"] footer')!;
    const hit = (id: string) => {
      const b = document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect();
      return (document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2) as HTMLElement | null)?.dataset.testid ?? null;
    };
    return {
      footer: box(footer),
      notices: [...document.querySelectorAll('[data-testid="notifications"] .notice, [data-testid="notify-dismiss-all"]')].map(box),
      errors: document.querySelectorAll('[data-testid="notifications"] [data-kind="error"]').length,
      dismissAll: document.querySelectorAll('[data-testid="notify-dismiss-all"]').length,
      apply: hit('retarget-apply'),
      cancel: hit('retarget-cancel'),
    };
  });
}

const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe.skipIf(!corpusPresent)('notices keep clear of an open panel’s buttons', () => {
  const s = appForSuite();

  it('several error notices keep clear of the retarget panel’s footer (Apply and Cancel uncovered) and stand where they stood once it closes, in English and Japanese', async () => {
    const { page } = s.app;
    const scene = writeSceneFolder(s.tmp.dir, [[DANCE, 'dance.vmd']], { actors: [{ name: 'Gene', model: GENE, motion: 'dance.vmd' }], activeActor: 0 });
    await openSceneViaDialog(page, scene);
    await page.waitForSelector('[data-testid="retarget-open"]', { timeout: 120_000 });
    // Three files that are not motions: three error notices, which stay until dismissed.
    for (let i = 1; i <= 3; i++) {
      const bad = path.join(s.tmp.dir, `broken-${i}.vmd`);
      writeFileSync(bad, Buffer.from(`not a motion file, number ${i}`));
      await page.click('[data-testid="cmd-open"]');
      await fileDialogReady(page);
      await page.fill('[data-testid="file-dialog-path"]', bad);
      await page.click('[data-testid="file-dialog-go"]');
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="notifications"] [data-kind="error"]').length === n, i);
    }
    const listBox = () => page.evaluate(() => {
      const r = document.querySelector('[data-testid="notifications"]')!.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    });
    const before = await listBox();
    await page.click('[data-testid="retarget-open"]');
    await page.waitForSelector('[data-testid="retarget-panel"][data-state="choose"]', { timeout: 30_000 });

    for (const locale of ['en', 'ja'] as const) {
      await page.selectOption('[data-testid="locale"]', locale);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const l = await layout(page);
      await s.app.screenshot(`notices-panel-${locale}`);
      // The three errors and Dismiss all (the scene's "Opened" notice may still stand beside them, on a
      // machine slow enough that it has not timed out yet: it must keep clear of the footer too).
      expect(l.errors).toBe(3);
      expect(l.dismissAll).toBe(1);
      expect(l.notices.length).toBeGreaterThanOrEqual(4);
      expect(l.notices.filter((n) => overlaps(n, l.footer)), `notices over the footer ${JSON.stringify(l.footer)} (${locale})`).toEqual([]);
      expect(l.apply).toBe('retarget-apply');
      expect(l.cancel).toBe('retarget-cancel');
    }
    await page.selectOption('[data-testid="locale"]', 'en');
    // Closed, the panel leaves the notices where they stood before it (the preview's corner).
    await page.click('[data-testid="retarget-cancel"]');
    await page.waitForSelector('[data-testid="retarget-panel"]', { state: 'detached' });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const after = await listBox();
    for (const side of ['left', 'right', 'bottom'] as const) expect(Math.abs(after[side] - before[side]), side).toBeLessThanOrEqual(1);
    expect(s.app.errors.filter((e) => !/favicon|not a VMD|E_VMD/.test(e))).toEqual([]);
  }, 300_000);
});
