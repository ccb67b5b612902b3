/**
 * Opening a lone file over a scene with unsaved documents (issue 13), in Chromium through the browser
 * mode: the in-app question names the file and the unsaved documents; Cancel keeps the scene, its tabs
 * and its unsaved mark, nothing opened; Open and Discard replaces it with a one-actor scene.
 * Screenshot: test-artifacts/scene-replace-question.png.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pcm16Wav } from '../helpers/wav';
import { buildTracks, readVmd } from '../../shared/vmd';
import type { VmdDocument } from '../../shared/vmd/vmd-document';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, openMusicViaDialog, openSceneViaDialog, openThroughDialog, writeDuetScene } from './harness';
import { keyPoint } from './editor-page';

const STAND = corpusPath('gene/motion/stand.vmd');
/** A key of wavefile_camera.vmd. */
const KEY_FRAME = 167;

async function tabsDirty(page: Page) {
  return page.$$eval('[data-testid="scene-tab"]', (els) => els.map((e) => (e as HTMLElement).dataset.dirty === 'true'));
}

describe('opening a lone file over an unsaved scene (browser mode)', () => {
  const s = appForSuite();

  it('asks first: Cancel keeps the scene and its unsaved document, Open and Discard replaces it', async () => {
    const { page } = s.app;
    const dir = s.tmp.dir;
    const scenePath = writeDuetScene(dir, [{ name: 'A', model: null }, { name: 'B', model: null }]);
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 3);

    // The camera document gets an edit: its tab is unsaved.
    await page.locator('[data-testid="scene-tab"] button[role="tab"]').nth(2).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('camera.vmd'));
    await page.fill('[data-testid="frame-input"]', String(KEY_FRAME));
    await page.press('[data-testid="frame-input"]', 'Enter');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const p = await keyPoint(page, 'track-camera', KEY_FRAME);
    await page.mouse.click(p.x, p.y);
    await page.click('[data-testid="curve-channel-x"]');
    await page.click('[data-testid="preset-ease-in"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]')[2]?.getAttribute('data-dirty') === 'true');

    // A lone motion: the question comes before anything is dropped.
    await openThroughDialog(page, ['cmd-open'], STAND);
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    // It may also go into the scene (pose-apply.e2e): the same question offers that first, and says what opening it on its own loses.
    expect(await page.textContent('[data-testid="confirm-message"]')).toBe(
      'stand.vmd is a motion: add it to the scene as a new actor, load it onto an actor in place of its motion (one undo step), or open it on its own, which replaces the scene. Opening it on its own loses the unsaved changes to camera.vmd.',
    );
    await s.app.screenshot('scene-replace-question');
    await page.click('[data-testid="confirm-cancel"]');
    await page.waitForSelector('[data-testid="confirm-dialog"]', { state: 'detached' });
    expect(await tabsDirty(page)).toEqual([false, false, true]);
    expect(await page.textContent('[data-testid="summary-name"]')).toContain('camera.vmd');
    expect(await page.title()).toBe('duet.vmdscene * — camera.vmd * — VMD Studio');

    // Again, Open and Discard: a one-actor scene of the lone motion.
    await openThroughDialog(page, ['cmd-open'], STAND);
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    await page.click('[data-testid="confirm-discard"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 1);
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('stand.vmd'));
    expect(await page.title()).toBe('stand.vmd — VMD Studio');
    expect(await tabsDirty(page)).toEqual([false]);
  });
});

describe('changes to the scene file itself (browser mode)', () => {
  const s = appForSuite();

  it('hiding an actor marks the scene unsaved: the title says so, opening a file names the scene, Save All writes it hidden; music added and its offset are changes too', async () => {
    const { page } = s.app;
    const scenePath = writeDuetScene(s.tmp.dir, [{ name: 'A', model: null }, { name: 'B', model: null }], 'hide.vmdscene');
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 3);
    // Just opened: nothing unsaved.
    expect(await page.title()).not.toContain('*');
    await page.locator('[data-testid="scene-hide"]').first().click();
    await page.waitForFunction(() => document.title.includes('*'));
    expect(await tabsDirty(page)).toEqual([false, false, false]);

    // Opening a lone file says the scene's own changes would be lost.
    await openThroughDialog(page, ['cmd-open'], STAND);
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    expect(await page.textContent('[data-testid="confirm-message"]')).toContain('hide.vmdscene');
    await page.click('[data-testid="confirm-cancel"]');
    await page.waitForSelector('[data-testid="confirm-dialog"]', { state: 'detached' });

    // Save All writes the scene file; the mark goes; the file holds the hidden actor.
    await page.click('[data-testid="cmd-scene"]');
    await page.click('[data-testid="cmd-save-all"]');
    await page.waitForFunction(() => !document.title.includes('*'));
    const saved = JSON.parse(readFileSync(scenePath, 'utf8'));
    expect(saved.actors.map((a: { hidden?: boolean }) => !!a.hidden)).toEqual([true, false]);
    // Showing it again is a change; hiding it once more is back to what is saved.
    await page.locator('[data-testid="scene-hide"]').first().click();
    await page.waitForFunction(() => document.title.includes('*'));
    await page.locator('[data-testid="scene-hide"]').first().click();
    await page.waitForFunction(() => !document.title.includes('*'));

    // Music: adding a song is a change, Save All writes it, a new offset is a change again.
    const song = path.join(s.tmp.dir, 'song.wav');
    writeFileSync(song, pcm16Wav(new Int16Array(44_100 * 2), 1));
    await openMusicViaDialog(page, song);
    await page.waitForFunction(() => document.title.includes('*'));
    await page.click('[data-testid="cmd-scene"]');
    await page.click('[data-testid="cmd-save-all"]');
    await page.waitForFunction(() => !document.title.includes('*'));
    expect(JSON.parse(readFileSync(scenePath, 'utf8')).audio?.path).toBe('song.wav');
    await page.fill('[data-testid="music-offset"]', '12');
    await page.press('[data-testid="music-offset"]', 'Enter');
    await page.waitForFunction(() => document.title.includes('*'));
    expect(await page.evaluate(() => document.title)).toContain('hide.vmdscene');
  });

  it('F fits the active actor’s motion, not the scene’s longest document', async () => {
    const { page } = s.app;
    const laughLast = buildTracks((readVmd(new Uint8Array(readFileSync(corpusPath('gene/motion/02_laugh.vmd')))) as { value: VmdDocument }).value).lastFrame;
    await page.locator('[data-testid="scene-tab"] button[role="tab"]').nth(0).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('laugh.vmd'));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('f');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const span = await page.evaluate(() => {
      const cv = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement;
      return { start: Number(cv.dataset.frameStart), frames: cv.getBoundingClientRect().width / Number(cv.dataset.pxPerFrame) };
    });
    expect(span.start).toBeLessThanOrEqual(0);
    expect(span.frames).toBeGreaterThanOrEqual(laughLast);
    expect(span.frames).toBeLessThan(laughLast * 1.5);
  });
});
