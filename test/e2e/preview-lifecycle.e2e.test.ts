/**
 * The 3D preview's light and lifetime in Chromium: a light VMD built here with the codec drives the
 * directional light (unit direction and colour checked against sampleLight at two frames between keys);
 * switching from a PMX model back to the default figure gives its geometries and textures back (three.js's
 * renderer.info.memory returns to the figure-only counts); unmounting the app disposes everything (counts
 * reach 0) and loses the WebGL context.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { corpusPath, fileDialogReady, openApp, openFileViaDialog, tempDir, type AppHandle } from './harness';
import { blockFromRecords, buildTracks, emptyVmd, encodeLightRecord, readVmd, sampleLight, withBlocks, writeVmd } from '../../shared/vmd';

/** MMD's neutral light grey; the preview scales colours so that it is white (camera-view.ts). */
const MMD_GREY = 0.6;

const LIGHT_KEYS = [
  { frame: 0, color: [0.6, 0.6, 0.6], direction: [-0.5, -1, 0.5] },
  { frame: 30, color: [0.9, 0.3, 0.15], direction: [1, -0.2, -0.7] },
  { frame: 60, color: [0.2, 0.45, 0.8], direction: [0, -1, -1] },
];

async function seek(page: Page, frame: number) {
  await page.locator('[data-testid="preview-scrub"]').fill(String(frame));
  await page.waitForFunction((f) => window.__vmdPreview?.frame() === f, frame);
}

/**
 * three.js's GPU memory counts right after a render drawn now. Textures and geometries are uploaded when a
 * render first draws them, and on software GL the pane's own next render may wait for the frame before it
 * to be shown (async-present.ts), so animation frames alone do not make sure one ran; pixelAt draws at once.
 */
const memory = (page: Page) => page.evaluate(() => {
  const r = document.querySelector('[data-testid="preview-canvas"]')!.getBoundingClientRect();
  window.__vmdPreview!.pixelAt(r.left + r.width / 2, r.top + r.height / 2);
  const m = window.__vmdPreview!.liveMemory();
  return { geometries: m.geometries, textures: m.textures };
});

describe('3D preview light and lifetime', () => {
  let app: AppHandle;
  const tmp = tempDir('vmd-e2e-light-');
  const lightFile = path.join(tmp.dir, 'light-test.vmd');
  const doc = withBlocks(emptyVmd('light'), { light: blockFromRecords('light', LIGHT_KEYS.map(encodeLightRecord)) });
  const bytes = writeVmd(doc);
  writeFileSync(lightFile, bytes);
  const read = readVmd(bytes);
  if (!read.ok) throw new Error(read.error.message);
  const lightTrack = buildTracks(read.value).light;

  beforeAll(async () => {
    app = await openApp({ viewport: { width: 1440, height: 900 } });
  });
  afterAll(async () => {
    await app?.close();
    tmp.remove();
  });

  it('a light VMD opened through the UI drives the directional light: unit direction and colour as sampleLight says', async () => {
    const { page } = app;
    await page.waitForFunction(() => !!window.__vmdPreview);
    const before = await page.evaluate(() => window.__vmdPreview!.lightState());
    await openFileViaDialog(page, lightFile);
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-pane"]')?.textContent?.includes('Light keys of light-test.vmd drive the light'));
    const seen: number[][] = [];
    for (const frame of [12, 47]) {
      await seek(page, frame);
      const got = await page.evaluate(() => window.__vmdPreview!.lightState());
      const pose = sampleLight(lightTrack, frame)!;
      // MMD → three.js: z negated; a directional light's direction is normalised.
      const d = [pose.direction[0], pose.direction[1], -pose.direction[2]];
      const n = Math.hypot(d[0], d[1], d[2]);
      for (let c = 0; c < 3; c++) {
        expect(got.direction[c], `direction ${c} at ${frame}`).toBeCloseTo(d[c] / n, 5);
        expect(got.color[c], `colour ${c} at ${frame}`).toBeCloseTo(pose.color[c] / MMD_GREY, 5);
      }
      expect(Math.hypot(...got.direction)).toBeCloseTo(1, 6);
      seen.push([...got.direction, ...got.color]);
    }
    // The two frames (between different keys) light the scene differently, and unlike the default light.
    expect(Math.max(...seen[0].map((x, i) => Math.abs(x - seen[1][i])))).toBeGreaterThan(0.1);
    expect(Math.max(...before.color.map((x, i) => Math.abs(x - seen[0][3 + i])))).toBeGreaterThan(0.1);
    await app.screenshot('preview-light-47');
  });

  it('switching from a PMX model back to the default figure gives its GPU memory back', async () => {
    const { page } = app;
    const figureOnly = await memory(page);
    expect(figureOnly.geometries).toBeGreaterThan(0);
    await page.click('[data-testid="preview-open-model"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', corpusPath('gene/Gene_light.pmx'));
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes('ジェネ'), null, { timeout: 60_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid="preview-pane"]')?.textContent?.includes('Loading model'), null, { timeout: 60_000 });
    await seek(page, 30);
    const withModel = await memory(page);
    // The model's geometry, its textures and its bone texture are on the GPU now.
    expect(withModel.geometries).toBeGreaterThan(figureOnly.geometries);
    expect(withModel.textures).toBeGreaterThanOrEqual(figureOnly.textures + 3);
    await page.click('[data-testid="preview-use-figure"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes('Default figure'));
    expect(await memory(page)).toEqual(figureOnly);
  });

  it('unmounting disposes every geometry and texture and loses the WebGL context', async () => {
    const { page } = app;
    const state = await page.evaluate(() => {
      const w = window as unknown as { __mem: { geometries: number; textures: number }; __left: { geometries: number; textures: number }; __gl: WebGL2RenderingContext };
      w.__mem = window.__vmdPreview!.liveMemory();
      w.__left = window.__vmdPreview!.disposal();
      w.__gl = window.__vmdPreview!.context() as WebGL2RenderingContext;
      const before = { geometries: w.__mem.geometries, textures: w.__mem.textures, lost: w.__gl.isContextLost() };
      (document.querySelector('#app') as unknown as { __vue_app__: { unmount(): void } }).__vue_app__.unmount();
      return {
        before,
        // Counted between disposing our objects and renderer.dispose() (which would hide a leak of ours).
        leftByUs: { geometries: w.__left.geometries, textures: w.__left.textures },
        after: { geometries: w.__mem.geometries, textures: w.__mem.textures, lost: w.__gl.isContextLost(), hook: !!window.__vmdPreview },
      };
    });
    expect(state.before.lost).toBe(false);
    expect(state.before.geometries).toBeGreaterThan(0);
    expect(state.before.textures).toBeGreaterThan(0);
    expect(state.leftByUs).toEqual({ geometries: 0, textures: 0 });
    expect(state.after).toEqual({ geometries: 0, textures: 0, lost: true, hook: false });
    expect(app.errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });
});
