/**
 * Render → Video…'s physics for the whole scene, in Chromium through the browser mode. The scene: the built-in
 * figure shown (no rigid bodies) beside Gene_light.pmx (87 rigid bodies), both dancing wavefile_v2.vmd, through
 * wavefile_camera.vmd.
 * - The Physics line is there though the shown actor has no bodies, naming the actor that has them ("Gene"):
 *   it looked only at the shown actor's model, so the box was hidden while Gene's hair was simulated.
 * - Where physics starts, as the bake offers it: warmed up from frame 0 (the bake's default, and the dialog's)
 *   or settled at the range's first frame. On a range starting at frame 150, mid-dance, the two give other
 *   hair at its first frame; warmed up, it is the picture a render of frames 0–150 draws at 150.
 * PNG sequences at 240 lines: exact pictures (no encoder in between), and what is checked does not depend on size.
 * The tests run in order on the scene the first one opens (run the file, not one test of it).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, openSceneViaDialog, textOf, writeSceneFolder } from './harness';
import { decodePng } from '../helpers/png';

const FROM = 150;

/** Mean absolute difference per channel of two PNG files' pixels (RGB). */
function meanDiff(a: string, b: string): number {
  const x = decodePng(new Uint8Array(readFileSync(a))), y = decodePng(new Uint8Array(readFileSync(b)));
  expect([x.width, x.height]).toEqual([y.width, y.height]);
  let sum = 0, n = 0;
  for (let i = 0; i < x.data.length; i += 4)
    for (let c = 0; c < 3; c++) {
      sum += Math.abs(x.data[i + c] - y.data[i + c]);
      n++;
    }
  return sum / n;
}

async function openDialog(page: Page): Promise<void> {
  await page.click('[data-testid="cmd-export-video"]');
  await page.waitForSelector('[data-testid="video-dialog"]');
}

/** Renders frames from–to as a PNG sequence NAME_… at 240 lines; `start` picks where physics starts. */
async function render(page: Page, file: string, from: number, to: number, start: 'zero' | 'range'): Promise<void> {
  await openDialog(page);
  await page.selectOption('[data-testid="video-size"]', 'scene');
  await page.fill('[data-testid="video-height"]', '240');
  await page.selectOption('[data-testid="video-format"]', 'png');
  await page.fill('[data-testid="video-from"]', String(from));
  await page.fill('[data-testid="video-to"]', String(to));
  if (from > 0) await page.selectOption('[data-testid="video-physics-start"]', start);
  await page.fill('[data-testid="video-path"]', file);
  await page.click('[data-testid="video-start"]');
  await page.waitForSelector('[data-testid="video-result"]', { timeout: 500_000 });
  const text = await textOf(page, 'video-result');
  expect(await page.getAttribute('[data-testid="video-result"]', 'data-kind'), text).toBe('done');
  console.log(`[video-physics] ${text}`);
  await page.click('[data-testid="video-close"]');
}

describe('Render → Video…: physics for every actor drawn, started as the bake starts it', () => {
  const s = appForSuite({ viewport: { width: 1400, height: 900 } });
  const LONG = 600_000;
  let dir = '';

  it('the Physics line names the actor with rigid bodies though the shown one has none', async () => {
    const { page } = s.app;
    dir = path.join(s.tmp.dir, 'scene');
    mkdirSync(dir);
    const scenePath = writeSceneFolder(dir, [[corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), 'dance.vmd'], [corpusPath('threejs/vmds/wavefile_camera.vmd'), 'camera.vmd']], {
      actors: [
        { name: 'Gene', model: corpusPath('gene/Gene_light.pmx'), motion: 'dance.vmd' },
        { name: 'Figure', model: null, motion: 'dance.vmd' },
      ],
      activeActor: 1,
      camera: 'camera.vmd',
    });
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => !!window.__vmdPreview?.info(), null, { timeout: 120_000 });
    await openDialog(page);
    // Gene is built beside the figure in the background: the line comes when its model is in.
    await page.waitForSelector('[data-testid="video-physics-row"]', { timeout: 180_000 });
    expect(await textOf(page, 'video-physics-row')).toBe('Simulate hair and skirts: Gene (the video’s own switch, whatever the preview’s)');
    expect(await page.isChecked('[data-testid="video-physics"]')).toBe(true);
    // Where physics starts: as the bake's default, warmed up from frame 0, and said.
    expect(await page.inputValue('[data-testid="video-physics-start"]')).toBe('zero');
    // Both ends typed: the dialog may have opened before the motion's length was known (To 0: the range reversed).
    await page.fill('[data-testid="video-to"]', String(FROM + 10));
    await page.fill('[data-testid="video-from"]', String(FROM));
    await page.waitForFunction(() => document.querySelector('[data-testid="video-physics-start-note"]')?.textContent?.startsWith('Frames 0–149'));
    expect(await textOf(page, 'video-physics-start-note')).toBe('Frames 0–149 are simulated first, not drawn: the hair at frame 150 swings as when the dance plays from the start');
    await page.selectOption('[data-testid="video-physics-start"]', 'range');
    expect(await textOf(page, 'video-physics-start-note')).toBe('Physics restarts at frame 150, settled in that pose: the hair does not swing as when the dance plays from the start');
    await s.app.screenshot('video-physics-dialog');
    await page.selectOption('[data-testid="video-physics-start"]', 'zero');
    await page.click('[data-testid="video-close"]');
  }, LONG);

  it('a range from frame 150: warmed up from 0 and settled at 150 give other hair; warmed up is the picture a render of 0–150 draws at 150', async () => {
    const { page } = s.app;
    const warm = path.join(dir, 'warm.png'), settled = path.join(dir, 'settled.png'), whole = path.join(dir, 'whole.png');
    await render(page, warm, FROM, FROM, 'zero');
    await render(page, settled, FROM, FROM, 'range');
    await render(page, whole, 0, FROM, 'zero');
    const at = (base: string, i: number) => base.replace(/\.png$/, `_${String(i).padStart(6, '0')}.png`);
    const dStart = meanDiff(at(warm, 0), at(settled, 0));
    const dWhole = meanDiff(at(warm, 0), at(whole, FROM));
    console.log(`[video-physics] frame ${FROM}: warmed up vs settled ${dStart.toFixed(3)}, warmed up vs the render from 0 ${dWhole.toFixed(3)} per channel`);
    // The hair is a small part of the picture (physics on vs off at frame 29 differed by 0.12 per channel in
    // video-options); the same simulation drawn twice gives the same picture.
    expect(dStart).toBeGreaterThan(0.03);
    expect(dWhole).toBeLessThan(dStart / 4);
    expect(s.app.errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  }, LONG);
});
