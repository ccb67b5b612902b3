/**
 * Help → Getting started (the new-user pass nubegin, finding 3: F1 listed shortcuts in words a beginner did not
 * know yet, ? showed version numbers, and nothing explained VMD, key, bone, morph or frame). At 1366×768: the
 * empty first screen points to it, ? opens a menu with it first, and the page says the first evening's steps
 * (model, dance, song, play, shift the song, save, video) and a glossary, in English and in Japanese.
 */
import { describe, expect, it } from 'vitest';
import { appForSuite } from './harness';

describe('Getting started at 1366×768', () => {
  const s = appForSuite({ viewport: { width: 1366, height: 768 } });

  it('the first screen and ? lead to it; it lists the steps and the words, in English and Japanese', async () => {
    const { page } = s.app;
    // The empty first screen: both empty states point to it.
    expect(await page.textContent('[data-testid="empty-getting-started"]')).toBe('New here? Getting started');
    expect(await page.isVisible('[data-testid="summary-getting-started"]')).toBe(true);
    await page.click('[data-testid="empty-getting-started"]');
    const dialog = page.locator('[data-testid="getting-started-dialog"]');
    await dialog.waitFor();
    const steps = await page.locator('[data-testid="getting-started-steps"] li').allTextContents();
    expect(steps).toHaveLength(6);
    expect(steps[0]).toMatch(/^Load your model: Model…/);
    expect(steps[1]).toMatch(/^Open a dance: Open… and a \.vmd file \(a motion\)/);
    expect(steps[2]).toMatch(/^Add the song: ♪ Music…/);
    expect(steps[3]).toContain('30 frames = 1 second');
    expect(steps[4]).toMatch(/^Save:/);
    expect(steps[5]).toMatch(/^Make a video: Video…/);
    const terms = await page.locator('[data-testid="getting-started-glossary"] dt').allTextContents();
    expect(terms).toEqual(['Motion (VMD)', 'Pose (VPD)', 'Model (PMX/PMD)', 'Key', 'Frame', 'Bone', 'Morph', 'IK', 'Interpolation curve', 'Actor', 'Scene']);
    expect(await page.textContent('[data-testid="getting-started-glossary"] dt[data-term="frame"] + dd')).toBe('1/30 of a second: frame 30 is 1 second in, frame 900 is 30 seconds.');
    // The whole page fits the window (its body scrolls inside the dialog, the Close button in sight).
    const close = (await page.locator('[data-testid="getting-started-close"]').boundingBox())!;
    expect(close.y + close.height).toBeLessThanOrEqual(768);
    await s.app.screenshot('getting-started-1366');
    // From it, the keyboard reference.
    await page.click('[data-testid="getting-started-shortcuts"]');
    await page.waitForSelector('[data-testid="shortcuts-dialog"]');
    expect(await dialog.count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="shortcuts-dialog"]', { state: 'detached' });

    // ? is a menu: Getting started, the keyboard reference, About, and Reset layout (the panes' default sizes).
    await page.click('[data-testid="cmd-help"]');
    const items = await page.locator('[data-testid="help-menu"] button').allTextContents();
    expect(items).toEqual(['Getting started', 'Keyboard ShortcutsF1', 'About VMD Studio', 'Reset layout']);
    await page.click('[data-testid="cmd-getting-started"]');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Japanese.
    await page.selectOption('[data-testid="locale"]', 'ja');
    expect(await page.textContent('[data-testid="empty-getting-started"]')).toBe('はじめての方は「はじめに」へ');
    await page.click('[data-testid="cmd-help"]');
    await page.click('[data-testid="cmd-getting-started"]');
    await dialog.waitFor();
    expect(await page.textContent('[data-testid="getting-started-dialog"] header')).toBe('はじめに');
    expect((await page.locator('[data-testid="getting-started-steps"] li').first().textContent())!).toMatch(/^モデルを読み込む：/);
    expect(await page.textContent('[data-testid="getting-started-glossary"] dt[data-term="morph"]')).toBe('表情（モーフ）');
    await s.app.screenshot('getting-started-1366-ja');
    await page.keyboard.press('Escape');
    await page.selectOption('[data-testid="locale"]', 'en');
    expect(s.app.errors).toEqual([]);
  });
});
