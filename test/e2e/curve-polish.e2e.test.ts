/**
 * The curve-polish pass's findings end to end in Chromium (browser mode) on walk.vmd:
 *  - a key of 左腕 selected, the playhead moved past it: the Key panel says "Key at K · playhead at P" with Go to
 *    key; a rotation typed then edits that key (and only it: the record's rotation bytes, no new key) and takes
 *    the editor's and the preview's playhead to it (before: key K changed silently, the preview stayed at P);
 *  - Enter (Register) there: no warning, a quiet line "Frame K already has this pose", nothing written;
 *  - the preview's Local switch (MMD's ローカル) puts the pose rings in the bone's axes, global by default;
 *  - the Japanese range bar's Tracks select shows each fixed choice whole (アクティブなトラック was cut to アクティブなトラ).
 * Key frames and records are read from the file's bytes with the codec here, not from the app.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildTracks, readVmd, BONE, type MotionTracks } from '../../shared/vmd';
import { appForSuite, corpusPath, notice, notices } from './harness';
import { animationFrames, clickKey, openFresh, seekFrameField as seek } from './editor-page';

/** A walk (few bones: every row shown at once). */
const WALK = corpusPath('mc-mmd-rust/default_anim/walk.vmd');

function load(): { bytes: Uint8Array; tracks: MotionTracks } {
  const bytes = new Uint8Array(readFileSync(WALK));
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return { bytes, tracks: buildTracks(r.value) };
}

const docBytes = async (page: Page) => new Uint8Array(Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64'));
const frameNow = async (page: Page) => (await page.evaluate(() => window.__vmdEditor!.frame())).frame;

describe('curve polishing in the browser', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 900 } });
  const { tracks } = load();
  const b = tracks.bones, arm = b.index.get('左腕')!;
  // The first key of 左腕 with at least 5 frames to its next key: the playhead goes 3 past it, onto no key.
  let k = b.start[arm];
  while (k + 1 < b.start[arm + 1] && b.frames[k + 1] - b.frames[k] < 5) k++;
  const keyFrame = b.frames[k], record = b.record[k], playhead = keyFrame + 3;
  const rowId = `track-bone:${arm}`;

  it('a typed value for a key away from the playhead: said, edits that key, the playhead goes to it', async () => {
    const { page } = s.app;
    expect(b.frames[k + 1] - keyFrame).toBeGreaterThanOrEqual(5);
    await openFresh(page, WALK);
    const before = await docBytes(page);
    await seek(page, keyFrame);
    await animationFrames(page);
    await clickKey(page, rowId, keyFrame);
    await page.waitForFunction((r) => window.__vmdEditor!.selection().refs.some((x) => x.kind === 'bone' && x.record === r), record);
    expect(await page.isVisible('[data-testid="inspector-off-frame"]')).toBe(false);
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.waitForFunction((f) => window.__vmdEditor!.frame().frame === f, playhead);
    const line = page.locator('[data-testid="inspector-off-frame"]');
    await line.waitFor();
    expect(await line.textContent()).toContain(`Key at ${keyFrame} · playhead at ${playhead}`);
    expect(await page.isVisible('[data-testid="inspector-go-to-key"]')).toBe(true);
    await s.app.screenshot('curve-polish-off-frame');

    // Rotation Y typed: 12° more than shown (the key's own value, whatever it is), so the rotation changes.
    const y = Number(await page.inputValue('[data-testid="inspector-rot-y"]'));
    await page.fill('[data-testid="inspector-rot-y"]', String(Math.round(y) + 12));
    await page.press('[data-testid="inspector-rot-y"]', 'Enter');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    await page.waitForFunction((f) => window.__vmdEditor!.frame().frame === f, keyFrame);
    expect(await frameNow(page)).toBe(keyFrame);
    await page.waitForFunction((f) => !window.__vmdPreview || window.__vmdPreview.frame() === f, keyFrame);
    const after = await docBytes(page);
    expect(after.length).toBe(before.length);
    // Only that record's rotation bytes changed.
    const at = 54 + record * BONE.SIZE;
    const changed: number[] = [];
    for (let i = 0; i < after.length; i++) if (after[i] !== before[i]) changed.push(i);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every((i) => i >= at + BONE.ROTATION && i < at + BONE.ROTATION + 16)).toBe(true);
    expect(await page.isVisible('[data-testid="inspector-off-frame"]')).toBe(false);

    // Enter (Register) on that keyed frame: nothing written, no warning, a quiet line.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Enter');
    await notice(page, `Frame ${keyFrame} already has this pose`);
    expect((await notices(page)).filter((m) => /already has a key/.test(m))).toEqual([]);
    expect(await page.$$('[data-testid="notifications"] .notice[data-kind="warning"]')).toEqual([]);
    expect((await page.evaluate(() => window.__vmdEditor!.history())).undo).toBe(1);
    expect(await docBytes(page)).toEqual(after);
    await s.app.screenshot('curve-polish-register-again');
    expect(s.app.errors).toEqual([]);
  });

  it('Local beside Rotate / Move / Off puts the rings in the bone’s own axes; global (the model’s) by default', async () => {
    const { page } = s.app;
    await openFresh(page, WALK);
    await seek(page, keyFrame);
    await clickKey(page, rowId, keyFrame);
    // The key's track is active: its bone is picked in the preview (the default figure) and wears the rings.
    await page.waitForFunction(() => window.__vmdPreview?.poseHandle('X').bone === '左腕', undefined, { timeout: 60_000 });
    const local = page.locator('[data-testid="preview-pose-local"]');
    expect(await local.textContent()).toBe('Local');
    expect(await local.getAttribute('aria-pressed')).toBe('false');
    expect((await page.evaluate(() => window.__vmdPreview!.poseHandle('X'))).space).toBe('global');
    await local.click();
    await page.waitForFunction(() => window.__vmdPreview!.poseHandle('X').space === 'local');
    expect(await local.getAttribute('aria-pressed')).toBe('true');
    await s.app.screenshot('curve-polish-local');
    await local.click();
    await page.waitForFunction(() => window.__vmdPreview!.poseHandle('X').space === 'global');
    expect(s.app.errors).toEqual([]);
  });

  it('Japanese: the Tracks select of the range bar shows each fixed choice whole', async () => {
    const { page } = s.app;
    await openFresh(page, WALK);
    await page.selectOption('[data-testid="locale"]', 'ja');
    await animationFrames(page, 2);
    if (!(await page.isVisible('[data-testid="range-bar"]'))) await page.click('[data-testid="range-toggle"]');
    await page.waitForSelector('[data-testid="range-bar"]');
    for (const value of ['all', 'active', 'selected']) {
      await page.selectOption('[data-testid="range-tracks"]', value);
      // The chosen option's text against the select's room (less its arrow), in the select's own font.
      const fit = await page.evaluate(() => {
        const sel = document.querySelector('[data-testid="range-tracks"]') as HTMLSelectElement;
        const cs = getComputedStyle(sel);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const text = sel.options[sel.selectedIndex].text;
        const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
        return { text, width: ctx.measureText(text).width, room };
      });
      expect.soft(fit.width, `"${fit.text}" cut in the Tracks select`).toBeLessThanOrEqual(fit.room);
    }
    await page.selectOption('[data-testid="range-tracks"]', 'active');
    await s.app.screenshot('curve-polish-range-ja');
    await page.selectOption('[data-testid="locale"]', 'en');
  });
});
