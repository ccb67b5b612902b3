// Dropping a dance, a camera, a pose and a second dance at once (new-user pass nuprefs 7): the pose's question sat over
// the Merge with… dialog, both modal, and the only notice said "Opened camera.vmd". Now one question at a time
// (Merge with… opens once the pose is answered) and one notice says what went where.
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, dropFiles, fileForDrop, notice } from './harness';
import { corpusPresent } from '../helpers/corpus';

describe.skipIf(!corpusPresent)('a drop of several files', () => {
  const s = appForSuite();

  it('asks one question at a time and ends with a notice naming what was opened where', async () => {
    const page = s.app.page;
    await dropFiles(page, [
      fileForDrop(corpusPath('threejs/vmds/wavefile_camera.vmd')),
      fileForDrop(corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd')),
      fileForDrop(corpusPath('threejs/vpds/01.vpd')),
      fileForDrop(corpusPath('gene/motion/stand.vmd')),
    ]);
    await page.waitForSelector('[data-testid="confirm-apply"]', { timeout: 60_000 });
    // The pose's question alone: Merge with… has not opened under it.
    expect(await page.$('[data-testid="merge-dialog"]')).toBeNull();
    await page.click('[data-testid="confirm-apply"]');
    await page.waitForSelector('[data-testid="merge-dialog"]', { timeout: 30_000 });
    expect(await page.$('[data-testid="confirm-dialog"]')).toBeNull();
    expect(await notice(page, 'Opened wavefile_v2.vmd')).toBe('Opened wavefile_v2.vmd · wavefile_camera.vmd as the camera · 01.vpd as a pose on it · stand.vmd to merge in (Merge with…)');
    expect(s.app.errors).toEqual([]);
  }, 180_000);
});
