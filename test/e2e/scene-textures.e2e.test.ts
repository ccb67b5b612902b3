/**
 * A second actor's textures in a paused scene, in Chromium through the browser mode: a two-actor scene (the
 * shown actor on the built-in figure, the other on Gene_light.pmx, staged 5.5 units to the left) is opened and
 * left alone. Once the other actor's materials have their textures (as many as the model's materials name a
 * texture, counted here from the file), the picture on the screen — read from a screenshot, with no click, seek
 * or render asked for — shows them: in the actor's region it is the picture a render of the scene as it
 * stands gives. Before, the textures arrived without a redraw and the actor stayed white until something else
 * drew. Screenshot: test-artifacts/scene-textures.png.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, openSceneViaDialog, writeSceneFolder } from './harness';
import { animationFrames } from './editor-page';
import { corpusPresent } from '../helpers/corpus';
import { readModel } from '../../shared/pmx/model-reader';

const GENE = corpusPath('gene/Gene_light.pmx');
const JOINTS = ['頭', 'センター', '左足首', '右足首', '左手首', '右手首', '左ひじ', '右ひじ'];

/** RGBA bytes of a client-space rectangle as the screen shows it (a screenshot of it, decoded in the page). */
async function screenRegion(page: Page, r: { x: number; y: number; width: number; height: number }): Promise<number[]> {
  const png = await page.screenshot({ clip: r });
  return page.evaluate(async ({ b64, w, h }) => {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const ctx = new OffscreenCanvas(w, h).getContext('2d')!;
    ctx.drawImage(bmp, 0, 0);
    return Array.from(ctx.getImageData(0, 0, w, h).data);
  }, { b64: png.toString('base64'), w: r.width, h: r.height });
}

describe.skipIf(!corpusPresent)('a second actor’s textures in a paused scene', () => {
  const s = appForSuite();

  it('show on the screen once they have loaded, with nothing else drawing', async () => {
    const { page } = s.app;
    const m = readModel(new Uint8Array(readFileSync(GENE)));
    if (!m.ok) throw new Error(m.error.message);
    const texturedMaterials = m.value.materials.filter((x) => x.texture >= 0 && x.texture < m.value.textures.length).length;
    expect(texturedMaterials).toBeGreaterThan(0);

    const scene = writeSceneFolder(
      s.tmp.dir,
      [
        [corpusPath('gene/motion/02_laugh.vmd'), 'laugh.vmd'],
        [corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), 'dance.vmd'],
      ],
      { actors: [{ name: 'Gene', model: GENE, motion: 'laugh.vmd', stage: { position: [-5.5, 0, 0], turn: 0 } }, { name: 'Figure', model: null, motion: 'dance.vmd' }], activeActor: 1 },
    );
    await openSceneViaDialog(page, scene);
    await page.waitForFunction(() => window.__vmdPreview?.companions().length === 1, undefined, { timeout: 120_000 });
    const key = (await page.evaluate(() => window.__vmdPreview!.companions()))[0];
    // The textures are on the materials: from here on nothing is clicked, sought or rendered by the test.
    await page.waitForFunction(({ k, n }) => window.__vmdPreview!.companionLook(k)?.textured === n, { k: key, n: texturedMaterials }, { timeout: 120_000 });
    await page.waitForFunction(() => !window.__vmdPreview!.presentation().pending);
    await animationFrames(page, 10);
    await page.waitForFunction(() => !window.__vmdPreview!.presentation().pending);

    const canvas = (await page.locator('[data-testid="preview-canvas"]').boundingBox())!;
    const pts = (await page.evaluate(({ k, names }) => names.map((n) => window.__vmdPreview!.companionBoneScreenPosition(k, n)), { k: key, names: JOINTS })).filter((p): p is [number, number] => !!p);
    expect(pts.length).toBeGreaterThan(4);
    // Whole client pixels around the actor's joints, inside the canvas.
    const x0 = Math.ceil(Math.max(canvas.x, Math.min(...pts.map((p) => p[0])) - 12)), x1 = Math.floor(Math.min(canvas.x + canvas.width, Math.max(...pts.map((p) => p[0])) + 12));
    const y0 = Math.ceil(Math.max(canvas.y, Math.min(...pts.map((p) => p[1])) - 12)), y1 = Math.floor(Math.min(canvas.y + canvas.height, Math.max(...pts.map((p) => p[1])) + 12));
    const region = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
    expect(region.width * region.height).toBeGreaterThan(400);
    const shown = await screenRegion(page, region);
    await s.app.screenshot('scene-textures');

    // A render of the scene as it stands now (the textured materials), read from the drawing buffer.
    const drawn = await page.evaluate(() => window.__vmdPreview!.frameImage());
    const raw = Buffer.from(drawn.rgba, 'base64');
    const sx = drawn.width / canvas.width, sy = drawn.height / canvas.height;
    let differ = 0;
    for (let y = 0; y < region.height; y++) {
      for (let x = 0; x < region.width; x++) {
        const bx = Math.floor((region.x - canvas.x + x + 0.5) * sx), by = Math.floor((region.y - canvas.y + y + 0.5) * sy);
        const q = 4 * (y * region.width + x);
        // The canvas sits at a fractional client position, so the screen shows the drawn pixels blended with
        // their neighbours: a screen pixel agrees with the drawing when each channel lies within the range of the
        // drawn pixel under it and its eight neighbours.
        let outside = 0;
        for (let c = 0; c < 3; c++) {
          let lo = 255, hi = 0;
          for (let dy = -1; dy <= 1; dy++) {
            for (let dx = -1; dx <= 1; dx++) {
              const px = Math.min(drawn.width - 1, Math.max(0, bx + dx)), py = Math.min(drawn.height - 1, Math.max(0, by + dy));
              const v = raw[4 * (py * drawn.width + px) + c];
              lo = Math.min(lo, v);
              hi = Math.max(hi, v);
            }
          }
          outside = Math.max(outside, lo - shown[q + c], shown[q + c] - hi);
        }
        if (outside > 12) differ++;
      }
    }
    const n = region.width * region.height;
    console.log(`[textures] the second actor's region ${region.width}×${region.height}: ${differ} of ${n} screen pixels differ from a render now`);
    expect(differ / n, 'share of the region the screen shows differently from a render now').toBeLessThan(0.01);
    expect(s.app.errors).toEqual([]);
  }, 300_000);
});
