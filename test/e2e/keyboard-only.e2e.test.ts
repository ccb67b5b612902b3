/**
 * The app with the keyboard alone, end to end in Chromium (new-user pass nua11y: a user with RSI, Tab, arrows,
 * Enter, Space, Esc and the app's own keys). Enter and Space press the focused control (Enter on a focused
 * "Whole Motion…" inserted a key into the motion before, Space on a checkbox played), and still insert and play
 * from the page.
 *
 * Expected key counts are read from the document's bytes (editor-page boneFrames), not from the editor.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath } from './harness';
import { animationFrames, boneFrames, openFresh, seekFrameField } from './editor-page';

const LAUGH = corpusPath('gene/motion/02_laugh.vmd');

/** The element with the focus: its data-testid, else its tag. */
const focused = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset?.testid ?? document.activeElement?.tagName ?? null);
const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
const playing = async (page: Page) => (await page.evaluate(() => window.__vmdEditor!.frame())).playing;

describe('Enter and Space press the focused control', () => {
  const suite = appForSuite();

  it('Enter or Space on a focused button opens its dialog and adds no key; on a checkbox ticks it; from the page they insert and play', async () => {
    const page = suite.app.page;
    await openFresh(page, LAUGH);
    // A track active (↓ from the page, as MMD's bone rows) and a frame with no key on it.
    await seekFrameField(page, 7);
    await blur(page);
    // ↓ from the top row (Display · IK) down to the first bone's.
    for (let i = 0; i < 12 && !(await page.$('[data-testid="track-list"] .row.active[data-testid^="track-bone"]')); i++) await page.keyboard.press('ArrowDown');
    const keys = (await boneFrames(page)).length;
    const steps = (await page.evaluate(() => window.__vmdEditor!.history())).undo;

    for (const k of ['Enter', 'Space']) {
      await page.focus('[data-testid="whole-motion"]');
      await page.keyboard.press(k);
      await page.waitForSelector('[data-testid="batch-dialog"]', { timeout: 5000 });
      expect((await boneFrames(page)).length, k).toBe(keys);
      expect((await page.evaluate(() => window.__vmdEditor!.history())).undo, k).toBe(steps);
      expect(await playing(page), k).toBe(false);
      await suite.app.screenshot(`keyboard-only-${k.toLowerCase()}-whole-motion`);
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid="batch-dialog"]', { state: 'detached' });
    }

    // Space on a checkbox ticks it (and plays nothing); Space again unticks it.
    const box = '[data-testid="curve-overlay"]';
    const was = await page.isChecked(box);
    await page.focus(box);
    await page.keyboard.press('Space');
    expect(await page.isChecked(box)).toBe(!was);
    expect(await playing(page)).toBe(false);
    await page.keyboard.press('Space');
    expect(await page.isChecked(box)).toBe(was);
    // Enter on a focused tab (the curve's channel tabs) picks it and inserts nothing.
    await page.focus('[data-testid="curve-channel-x"]');
    await page.keyboard.press('Enter');
    expect((await boneFrames(page)).length).toBe(keys);

    // From the page: Enter inserts a key at the playhead on the active track, Space plays.
    await blur(page);
    expect(await focused(page)).toBe('BODY');
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo > n, steps);
    expect((await boneFrames(page)).length).toBe(keys + 1);
    await page.keyboard.press('Space');
    await animationFrames(page, 3);
    expect(await playing(page)).toBe(true);
    await page.keyboard.press('Space');
    expect(await playing(page)).toBe(false);
  });
});
