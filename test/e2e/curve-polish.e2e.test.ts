/**
 * The curve-polish pass's findings end to end in Chromium (browser mode) on walk.vmd:
 *  - a key of 左腕 selected, the playhead moved past it (→): the Key panel says "Selected key at K · playhead at P —
 *    typing registers a key at frame P" with Go to key, and shows the pose at P; a rotation typed then registers a
 *    key of 左腕 at P with it, as MMD's panel works at the playhead (key K keeps its bytes, the playhead stays).
 *    Before: key K changed and the playhead went back to it (curve-polish pass, then the numigrate pass: a switcher
 *    typing at 300 fixed the dance's frame 0);
 *  - Enter (Register) there: no warning, a quiet line "Frame P already has this pose", nothing written;
 *  - the preview's Local switch (MMD's ローカル) puts the pose rings in the bone's axes, global by default;
 *  - the Japanese range bar's Tracks select shows each fixed choice whole (アクティブなトラック was cut to アクティブなトラ).
 * Key frames and records are read from the file's bytes with the codec here, not from the app.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { boneName, buildTracks, frameOf, quaternionToEulerDegrees, readVmd, BONE, type MotionTracks } from '../../shared/vmd';
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

  it('a typed value with a key selected away from the playhead: said, registers a key at the playhead, the selected key untouched', async () => {
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
    expect(await line.textContent()).toContain(`Selected key at ${keyFrame} · playhead at ${playhead} — typing registers a key at frame ${playhead}`);
    expect(await page.isVisible('[data-testid="inspector-go-to-key"]')).toBe(true);
    await s.app.screenshot('curve-polish-off-frame');

    // Rotation Y typed: 12° more than shown (the pose at the playhead, whatever it is), so the rotation changes.
    const y = Number(await page.inputValue('[data-testid="inspector-rot-y"]'));
    const typed = Math.round(y) + 12;
    await page.fill('[data-testid="inspector-rot-y"]', String(typed));
    await page.press('[data-testid="inspector-rot-y"]', 'Enter');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    expect(await frameNow(page)).toBe(playhead);
    const after = await docBytes(page);
    // One bone record more, appended to the bone block: the count at byte 50 one up; every key before, key K
    // included, byte for byte as it was; the new record 左腕 at the playhead with the typed Y.
    const count = new DataView(before.buffer, before.byteOffset).getUint32(50, true);
    expect(after.length).toBe(before.length + BONE.SIZE);
    expect(new DataView(after.buffer, after.byteOffset).getUint32(50, true)).toBe(count + 1);
    const end = 54 + count * BONE.SIZE;
    expect(Buffer.from(after.subarray(54, end)).equals(Buffer.from(before.subarray(54, end)))).toBe(true);
    expect(Buffer.from(after.subarray(end + BONE.SIZE)).equals(Buffer.from(before.subarray(end)))).toBe(true);
    const r = readVmd(after);
    if (!r.ok) throw new Error(r.error.message);
    expect(boneName(r.value.bone, count)).toBe('左腕');
    expect(frameOf(r.value.bone, count)).toBe(playhead);
    const v = r.value.bone.view, o = count * BONE.SIZE + BONE.ROTATION;
    const q = [0, 1, 2, 3].map((c) => v.getFloat32(o + 4 * c, true));
    expect(quaternionToEulerDegrees(q)[1]).toBeCloseTo(typed, 2);
    expect(await page.isVisible('[data-testid="inspector-off-frame"]')).toBe(false);

    // Enter (Register) on that keyed frame: nothing written, no warning, a quiet line.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Enter');
    await notice(page, `Frame ${playhead} already has this pose`);
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
