/**
 * Self-shadow keys in the timeline's Camera group (issue 13), in Chromium through the browser mode: a scene
 * of one actor (wavefile_v2.vmd on the built-in figure) and a camera document written here field by field
 * (the corpus has no self-shadow key): two camera keys and self-shadow keys at 10 (mode 1), 30 (mode 2)
 * and 50 (mode 1). The Camera group shows the Self-shadow row after Light with the camera document's three
 * keys; a press on the key at 10 makes the camera document active and selects it; the inspector shows its
 * mode and distance, and mode → off is one undo step; the key at 30 dragged 2 frames is another; Save All
 * writes exactly those two fields (frame bytes of record 1, mode byte of record 0), read back here from
 * the bytes at their offsets, the actor's file unchanged; two undos give back the original bytes.
 * Screenshots: test-artifacts/scene-shadow.png (the Camera group with the Self-shadow row and its keys) and
 * scene-shadow-ja.png (the same in Japanese).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, openSceneViaDialog, writeSceneFolder } from './harness';
import { animationFrames, keyPoint, listedRows as listed } from './editor-page';
import { buildFixture } from '../helpers/vmd-fixtures';

const DANCE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const SHADOWS = [
  { frame: 10, mode: 1, distance: 0.01125 },
  { frame: 30, mode: 2, distance: 0.05 },
  { frame: 50, mode: 1, distance: 0.02 },
];
const CAMERA_FILE = buildFixture({
  cameras: [{ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }, { frame: 60, distance: -35, target: [0, 11, 0], rotation: [0, 0.4, 0], fov: 35 }],
  shadows: SHADOWS,
});
/** Self-shadow record i in CAMERA_FILE: header 50; bone, morph, camera counts; 2 × 61 camera bytes; light and shadow counts; 9 bytes a record. */
const shadowAt = (i: number) => 50 + 4 + 4 + 4 + 2 * 61 + 4 + 4 + 9 * i;
const MOVE = 2;
const base64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

async function waitActiveTab(page: Page, i: number) {
  await page.waitForFunction((i) => document.querySelectorAll('[data-testid="scene-tab"]')[i]?.getAttribute('data-active') === 'true', i);
}

async function editorBytes(page: Page): Promise<Uint8Array> {
  return base64((await page.evaluate(() => window.__vmdEditor!.bytes()))!);
}

/** Self-shadow record i read from file bytes at its offset (not through the codec): frame, mode, distance. */
function shadowRecord(bytes: Uint8Array, i: number): [number, number, number] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [v.getUint32(shadowAt(i), true), bytes[shadowAt(i) + 4], v.getFloat32(shadowAt(i) + 5, true)];
}

describe('self-shadow keys in the Camera group (browser mode)', () => {
  const s = appForSuite({ viewport: { width: 1500, height: 950 } });

  it('shows the Self-shadow row; a key selected there is edited in the inspector, another dragged; saved field by field; undo restores the bytes', async () => {
    const { page } = s.app;
    const dir = s.tmp.dir;
    writeFileSync(path.join(dir, 'camera.vmd'), CAMERA_FILE);
    // The fixture as the test means it (its own writer, checked at the offsets used below).
    expect(SHADOWS.map((_, i) => shadowRecord(CAMERA_FILE, i))).toEqual(SHADOWS.map((k) => [k.frame, k.mode, Math.fround(k.distance)]));
    const scenePath = writeSceneFolder(dir, [[DANCE, 'dance.vmd']], { actors: [{ name: 'Fig', model: null, motion: 'dance.vmd' }], activeActor: 0, camera: 'camera.vmd' });
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 2);
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('dance.vmd'));

    // The Camera group at the end of the list: camera, light, self-shadow rows, all the camera document's.
    await page.locator('[data-testid="track-list"]').hover();
    await page.mouse.wheel(0, 100_000);
    await page.waitForSelector('[data-testid="track-shadow"]');
    const rows = await listed(page);
    expect(rows.slice(rows.findIndex(([id]) => id === 'group-camera'))).toEqual([
      ['group-camera', 'other'],
      ['track-camera', 'other'],
      ['track-light', 'other'],
      ['track-shadow', 'other'],
    ]);
    expect((await page.textContent('[data-testid="track-shadow"] .name'))?.trim()).toBe('Self-shadow');
    expect(await page.textContent('[data-testid="track-shadow"] .keys')).toBe('3');
    expect(await page.textContent('[data-testid="group-camera"] .keys')).toBe('5');

    // Zoomed in about frame 0 (the view's left edge stays there) so each key is a few pixels wide.
    for (let i = 0; i < 30 && Number(await page.getAttribute('[data-testid="timeline-canvas"]', 'data-px-per-frame')) < 6; i++) {
      const p = await keyPoint(page, 'track-shadow', 0);
      await page.mouse.move(p.x, p.y);
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -120);
      await page.keyboard.up('Control');
      await animationFrames(page, 1);
    }
    const ppf = Number(await page.getAttribute('[data-testid="timeline-canvas"]', 'data-px-per-frame'));
    expect(ppf).toBeGreaterThanOrEqual(6);
    const fs = Number(await page.getAttribute('[data-testid="timeline-canvas"]', 'data-frame-start'));
    const width = await page.$eval('[data-testid="timeline-canvas"]', (e) => e.getBoundingClientRect().width);
    expect(fs).toBeLessThan(10); // keys 10 and 32 both in view
    expect(fs + width / ppf).toBeGreaterThan(30 + MOVE + 1);
    await animationFrames(page);

    // A press on the key at 10: the camera document becomes active and the key (record 0) is selected.
    const k10 = await keyPoint(page, 'track-shadow', 10);
    await page.mouse.click(k10.x, k10.y);
    await waitActiveTab(page, 1);
    await page.waitForFunction(() => window.__vmdEditor!.selection().active?.kind === 'shadow');
    expect(await page.evaluate(() => window.__vmdEditor!.selection().refs)).toEqual([{ kind: 'shadow', record: 0 }]);
    expect((await page.textContent('[data-testid="inspector-name"]'))?.trim()).toBe('Self-shadow');
    expect(await page.inputValue('[data-testid="inspector-frame"]')).toBe('10');
    expect(await page.inputValue('[data-testid="inspector-shadow-mode"]')).toBe('1');
    // MMD's panel figure: the stored 0.01125 is the range 8875 (0.1 − 8875 / 100000).
    expect(await page.inputValue('[data-testid="inspector-shadow-distance"]')).toBe('8875');
    const options = await page.$$eval('[data-testid="inspector-shadow-mode"] option', (els) => els.map((e) => [(e as HTMLOptionElement).value, e.textContent?.trim()]));
    expect(options).toEqual([['0', 'Off'], ['1', 'Mode 1'], ['2', 'Mode 2']]);
    // The curve editor has nothing to show for it.
    expect(await page.textContent('[data-testid="curve-editor"]')).toContain('Self-shadow keys switch on their frame');

    // Mode → off: one undo step.
    await page.selectOption('[data-testid="inspector-shadow-mode"]', '0');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    expect(shadowRecord(await editorBytes(page), 0)).toEqual([10, 0, Math.fround(0.01125)]);
    expect(await page.inputValue('[data-testid="inspector-shadow-mode"]')).toBe('0');

    // Drag the key at 30 two frames right: the second step.
    const k30 = await keyPoint(page, 'track-shadow', 30);
    await page.mouse.move(k30.x, k30.y);
    await page.mouse.down();
    await page.mouse.move(k30.x + (MOVE * ppf) / 2, k30.y);
    await page.mouse.move(k30.x + MOVE * ppf, k30.y);
    await page.mouse.up();
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 2);
    expect(await page.evaluate(() => window.__vmdEditor!.selection().refs)).toEqual([{ kind: 'shadow', record: 1 }]);
    expect(shadowRecord(await editorBytes(page), 1)).toEqual([30 + MOVE, 2, Math.fround(0.05)]);
    await animationFrames(page);
    await s.app.screenshot('scene-shadow');
    // In Japanese: the row, the inspector's name and the mode choices.
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="track-shadow"] .name')?.textContent?.trim() === 'セルフ影');
    expect((await page.textContent('[data-testid="inspector-name"]'))?.trim()).toBe('セルフ影');
    expect(await page.$$eval('[data-testid="inspector-shadow-mode"] option', (els) => els.map((e) => e.textContent?.trim()))).toEqual(['影なし', 'mode1', 'mode2']);
    await s.app.screenshot('scene-shadow-ja');
    await page.selectOption('[data-testid="locale"]', 'en');
    await page.waitForFunction(() => document.querySelector('[data-testid="track-shadow"] .name')?.textContent?.trim() === 'Self-shadow');

    // Save All: the camera file differs in the mode byte of record 0 and the frame field of record 1 only.
    await page.click('[data-testid="cmd-scene"]');
    await page.click('[data-testid="cmd-save-all"]');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="scene-tab"]')].every((e) => e.getAttribute('data-dirty') === 'false'));
    const saved = new Uint8Array(readFileSync(path.join(dir, 'camera.vmd')));
    expect(saved.length).toBe(CAMERA_FILE.length);
    const changed: number[] = [];
    saved.forEach((b, i) => b !== CAMERA_FILE[i] && changed.push(i));
    expect(changed).toEqual([shadowAt(0) + 4, shadowAt(1)]); // 1 → 0; frame 30 → 32 changes its low byte only
    expect(shadowRecord(saved, 0)).toEqual([10, 0, Math.fround(0.01125)]);
    expect(shadowRecord(saved, 1)).toEqual([32, 2, Math.fround(0.05)]);
    expect(shadowRecord(saved, 2)).toEqual([50, 1, Math.fround(0.02)]);
    expect(Buffer.compare(readFileSync(path.join(dir, 'dance.vmd')), readFileSync(DANCE))).toBe(0);

    // Two undos (focus off the inspector's select first, as a click on the timeline would): the original bytes.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);
    expect(Buffer.compare(Buffer.from(await editorBytes(page)), Buffer.from(CAMERA_FILE))).toBe(0);
    expect(s.app.errors).toEqual([]);
  });
});
