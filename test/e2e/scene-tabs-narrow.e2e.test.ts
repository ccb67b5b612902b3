/**
 * Scene tabs on a narrow window (nuvideo pass, item 7): in Japanese at 1280×720 three documents with long file
 * names were cut to "Gene_l…", "m…", "カ…". The file names give way first: every actor's and the camera's name
 * shows whole, "+ アクター" stays in the strip, and each tab's tooltip starts with its full name.
 * Screenshot: test-artifacts/scene-tabs-ja-1280.png.
 */
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, openSceneViaDialog, textFits, writeSceneFolder } from './harness';

describe('scene tabs at 1280×720 in Japanese (browser mode)', () => {
  const s = appForSuite({ viewport: { width: 1280, height: 720 }, locale: 'ja-JP' });

  it('every tab shows its actor’s whole name; the file names shorten instead', async () => {
    const { page } = s.app;
    const scenePath = writeSceneFolder(
      s.tmp.dir,
      [
        [corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), 'wavefile_v2_long_motion_name.vmd'],
        [corpusPath('gene/motion/02_laugh.vmd'), '26_mortifying_long_motion_name.vmd'],
        [corpusPath('threejs/vmds/wavefile_camera.vmd'), 'wavefile_camera_long_name.vmd'],
      ],
      {
        actors: [{ name: 'Gene_light', model: null, motion: 'wavefile_v2_long_motion_name.vmd' }, { name: 'miku', model: null, motion: '26_mortifying_long_motion_name.vmd' }],
        activeActor: 0,
        camera: 'wavefile_camera_long_name.vmd',
      },
      'tabs.vmdscene',
    );
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 3);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await s.app.screenshot('scene-tabs-ja-1280');
    const names = await textFits(page, [1, 2, 3].map((n) => `[data-testid="scene-tab"]:nth-of-type(${n}) .name .stem`));
    expect(names.map((n) => n.text)).toEqual(['Gene_light', 'miku', 'カメラ']);
    expect(names.filter((n) => n.cut)).toEqual([]);
    // "+ Actor" is inside the strip.
    const inStrip = await page.evaluate(() => {
      const strip = document.querySelector('[data-testid="scene-tabs"]')!.getBoundingClientRect();
      const add = document.querySelector('[data-testid="scene-add"]')!.getBoundingClientRect();
      return add.right <= strip.right + 0.5;
    });
    expect(inStrip).toBe(true);
    const titles = await page.$$eval('[data-testid="scene-tab"] button[role="tab"]', (els) => els.map((e) => (e as HTMLElement).title));
    expect(titles.map((t) => t.split(' — ')[0])).toEqual(['Gene_light', 'miku', 'カメラ']);
  });
});
