/**
 * A friend's scene in Chromium through the browser mode: its paths are a Windows machine's absolute paths and
 * names in another case (`C:\Users\友達\…\motions\laugh.vmd`, `Motions\WaveFile_v2.VMD`), its files lie beside
 * it as `motions/laugh.vmd`, `motions/wavefile_v2.vmd`. Before, every tab said "no motion file"; now main finds
 * them (shared/scene/scene-locate.ts), the scene opens with them, and a notice says which file stands for which.
 * Screenshot: test-artifacts/scene-located.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, openSceneViaDialog, writeSceneFolder } from './harness';

describe('a scene whose files lie beside it, not where it names them (browser mode)', () => {
  const s = appForSuite();

  it('opens the files found and says so', async () => {
    const { page } = s.app;
    const dir = path.join(s.tmp.dir, 'other', 'proj2');
    mkdirSync(path.join(dir, 'motions'), { recursive: true });
    const file = writeSceneFolder(
      dir,
      [
        [corpusPath('gene/motion/02_laugh.vmd'), 'motions/laugh.vmd'],
        [corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), 'motions/wavefile_v2.vmd'],
        [corpusPath('threejs/vmds/wavefile_camera.vmd'), 'motions/camera.vmd'],
      ],
      {
        actors: [
          { model: null, motion: 'C:\\Users\\友達\\Documents\\MMD\\proj\\motions\\laugh.vmd' },
          { model: null, motion: 'Motions\\WaveFile_v2.VMD' },
        ],
        activeActor: 0,
        camera: '/home/other/proj/motions/camera.vmd',
      },
      'win_abs.vmdscene',
    );
    await openSceneViaDialog(page, file);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 3);
    const line = 'Found 3 of the scene’s files beside it, not where it names them; saving the scene writes the paths found';
    await page.waitForFunction((l) => [...document.querySelectorAll('[data-testid="notice-message"]')].some((e) => e.textContent?.trim() === l), line);
    const tabText = await page.$$eval('[data-testid="scene-tab"]', (els) => els.map((e) => e.textContent?.replace(/\s+/g, ' ').trim() ?? ''));
    expect(tabText.some((t) => t.includes('no motion file'))).toBe(false);
    // Each actor's document is the file found (the editor's summary names the active one).
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('laugh.vmd'));
    await s.app.screenshot('scene-located');
    expect(s.app.errors).toEqual([]);
  }, 120_000);
});
