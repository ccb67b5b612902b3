/**
 * A camera maker's perspective-off shot, end to end in Chromium: a copy of wavefile_camera.vmd whose keys
 * from frame 800 on have Perspective off (MMD's パース OFF, byte 60 = 1) and one light key. Looking through it,
 * the preview draws those frames orthographically: floor grid lines that run side by side are drawn side by
 * side (their screen directions, from where the page draws two grid lines' points, agree), while a
 * perspective frame draws them converging. The overlay says Camera view / Free view, the light line names
 * the file holding the light keys. The Key panel shows the light colour on MMD's 0–255 scale (154), and Enter
 * in a Key panel field commits once and gives the keyboard back: `]` then steps to the next key. Screenshots (1920×1080 en, 1280×720 ja): test-artifacts/camera-ortho-*.png.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, openFileViaDialog, textOf } from './harness';
import { clickKey, seekPreview as seek } from './editor-page';
import { blockFromRecords, CAMERA, encodeLightRecord, readVmd, withBlocks, writeVmd } from '../../shared/vmd';

const ORTHO_FROM = 800;

/** The camera key frames of wavefile_camera.vmd, in order. */
function cameraFrames(): number[] {
  const r = readVmd(new Uint8Array(readFileSync(corpusPath('threejs/vmds/wavefile_camera.vmd'))));
  if (!r.ok) throw new Error(r.error.message);
  const c = r.value.camera;
  return Array.from({ length: c.count }, (_, i) => c.view.getUint32(i * CAMERA.SIZE + CAMERA.FRAME, true)).sort((a, b) => a - b);
}

/** wavefile_camera.vmd with Perspective off from frame ORTHO_FROM on, and MMD's default light as one key. */
function orthoCopy(dir: string): string {
  const r = readVmd(new Uint8Array(readFileSync(corpusPath('threejs/vmds/wavefile_camera.vmd'))));
  if (!r.ok) throw new Error(r.error.message);
  const cam = r.value.camera;
  const bytes = cam.bytes.slice();
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < cam.count; i++) if (view.getUint32(i * CAMERA.SIZE + CAMERA.FRAME, true) >= ORTHO_FROM) bytes[i * CAMERA.SIZE + CAMERA.PERSPECTIVE] = 1;
  const doc = withBlocks(r.value, {
    camera: blockFromRecords('camera', Array.from({ length: cam.count }, (_, i) => bytes.subarray(i * CAMERA.SIZE, (i + 1) * CAMERA.SIZE))),
    light: blockFromRecords('light', [encodeLightRecord({ frame: 0, color: [0.602, 0.602, 0.602], direction: [-0.5, -1, 0.5] })]),
  });
  const file = path.join(dir, 'ortho-camera.vmd');
  writeFileSync(file, writeVmd(doc));
  return file;
}

/**
 * The sine of the angle between the drawn images of two floor grid lines (x = ±10, from z = 0 to z = −20 in
 * three.js coordinates: the grid's lines every 5 units), from where the page draws their ends.
 */
async function spread(page: Page): Promise<number> {
  const dir = async (x: number) => {
    const a = await page.evaluate((p) => window.__vmdPreview!.worldScreenPosition(p), [x, 0, 0] as [number, number, number]);
    const b = await page.evaluate((p) => window.__vmdPreview!.worldScreenPosition(p), [x, 0, -20] as [number, number, number]);
    if (!a || !b) throw new Error('a grid point is off screen');
    const d = [b[0] - a[0], b[1] - a[1]], n = Math.hypot(d[0], d[1]);
    return [d[0] / n, d[1] / n];
  };
  const l = await dir(-10), r = await dir(10);
  return Math.abs(l[0] * r[1] - l[1] * r[0]);
}

describe('perspective off through the camera (1920×1080, en)', () => {
  const suite = appForSuite({ viewport: { width: 1920, height: 1080 } });

  it('draws perspective-off frames orthographic: grid lines stay parallel; says Camera view; names the light keys’ file', async () => {
    const { page } = suite.app;
    await page.waitForFunction(() => !!window.__vmdPreview);
    await openFileViaDialog(page, orthoCopy(suite.tmp.dir));
    await page.waitForSelector('[data-testid="preview-look-through"]:not([disabled])');
    expect(await textOf(page, 'preview-view-mode')).toBe('Free view');
    expect(await textOf(page, 'preview-light-info')).toBe('Light keys of ortho-camera.vmd drive the light');
    await page.check('[data-testid="preview-look-through"]');
    expect(await textOf(page, 'preview-view-mode')).toBe('Camera view');
    await seek(page, 400);
    const persp = (await page.evaluate(() => window.__vmdPreview!.cameraState()))!;
    expect(persp.orthographic).toBe(false);
    const perspSpread = await spread(page);
    await suite.app.screenshot('camera-ortho-400-perspective');
    await seek(page, 900);
    const ortho = (await page.evaluate(() => window.__vmdPreview!.cameraState()))!;
    expect(ortho.orthographic).toBe(true);
    // The output frame's shape (16:9), whatever the pane's.
    expect(ortho.aspect).toBeCloseTo(16 / 9, 6);
    expect(await spread(page)).toBeLessThan(1e-4);
    expect(perspSpread).toBeGreaterThan(1e-3);
    await suite.app.screenshot('camera-ortho-900-orthographic');
    await page.uncheck('[data-testid="preview-look-through"]');
    expect(await textOf(page, 'preview-view-mode')).toBe('Free view');
    await suite.app.screenshot('camera-ortho-900-free');

    // The light key: colour as MMD's panel reads MMD's default 0.602 (154), direction as stored.
    await clickKey(page, 'track-light', 0);
    await page.waitForSelector('[data-testid="inspector-color-r"]');
    expect([await page.inputValue('[data-testid="inspector-color-r"]'), await page.inputValue('[data-testid="inspector-dir-y"]')]).toEqual(['154', '-1']);
    await suite.app.screenshot('camera-ortho-light-key');

    // A perspective-off camera key: +5 typed in FOV, Enter: added once, and ] steps on to the next key.
    const frames = cameraFrames();
    await clickKey(page, 'track-camera', frames.find((f) => f >= 900)!);
    await page.waitForFunction(() => (document.querySelector('[data-testid="inspector-perspective"]') as HTMLInputElement | null)?.checked === false);
    // The key the click selected (of a cut's two keys, one pixel apart here, the one under the pointer).
    const k = Number(await page.inputValue('[data-testid="inspector-frame"]'));
    const next = frames.find((f) => f > k)!;
    await seek(page, k);
    const fov = Number(await page.inputValue('[data-testid="inspector-fov"]'));
    await page.fill('[data-testid="inspector-fov"]', '+5');
    await page.press('[data-testid="inspector-fov"]', 'Enter');
    await page.waitForFunction((v) => (document.querySelector('[data-testid="inspector-fov"]') as HTMLInputElement).value === String(v), fov + 5);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)).not.toBe('inspector-fov');
    await suite.app.screenshot('camera-ortho-key-panel');
    await page.keyboard.press(']');
    await page.waitForFunction((f) => window.__vmdPreview?.frame() === f, next);
    expect(Number(await page.inputValue('[data-testid="inspector-fov"]'))).not.toBeNaN();
    expect(suite.app.errors).toEqual([]);
  });
});

describe('perspective off through the camera (1280×720, ja)', () => {
  const suite = appForSuite({ viewport: { width: 1280, height: 720 }, locale: 'ja-JP' });

  it('カメラ視点 / 自由視点 and the light line in Japanese', async () => {
    const { page } = suite.app;
    await page.waitForFunction(() => !!window.__vmdPreview);
    await openFileViaDialog(page, orthoCopy(suite.tmp.dir));
    await page.waitForSelector('[data-testid="preview-look-through"]:not([disabled])');
    expect(await textOf(page, 'preview-view-mode')).toBe('自由視点');
    expect(await textOf(page, 'preview-light-info')).toBe('ortho-camera.vmd の照明キーで照明を動かしています');
    await page.check('[data-testid="preview-look-through"]');
    await seek(page, 900);
    expect(await textOf(page, 'preview-view-mode')).toBe('カメラ視点');
    expect((await page.evaluate(() => window.__vmdPreview!.cameraState()))!.orthographic).toBe(true);
    await suite.app.screenshot('camera-ortho-900-ja-720');
    expect(suite.app.errors).toEqual([]);
  });
});
