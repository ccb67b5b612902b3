// A camera VMD dropped with a dance (the new-user pass's finding 2): the first .vmd dropped became the document
// and the next was offered for merging into it, so the camera dropped first (カメラ sorts before ダンス) became
// the document with the dance to merge into it, or the camera was offered for overlaying into the dance. Now the
// dance opens as the actor and the camera VMD becomes the scene's camera document, whatever the order; neither
// holds the other's keys, and nothing is offered for merging. Screenshot: test-artifacts/drop-camera-dance.png.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, dropFiles } from './harness';
import { blockFromRecords, buildVmd, emptyVmd, encodeCameraRecord, withBlocks, writeVmd } from '../../shared/vmd';

const LONG = 180_000;

const DANCE = writeVmd(buildVmd({ model: '', bones: [0, 10, 20].map((frame, i) => ({ name: 'センター', frame, position: [i, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number] })) }));
const CAMERA = writeVmd(withBlocks(emptyVmd(), { camera: blockFromRecords('camera', [0, 15, 40, 60].map((frame) => encodeCameraRecord({ frame, distance: -30, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }))) }));

/** The key counts of the document the tab of `kind` holds (its tab made active): [bone, camera]. */
async function countsOf(page: Page, kind: 'actor' | 'camera'): Promise<[number, number]> {
  const tab = page.locator(`[data-testid="scene-tab"][data-kind="${kind}"]`);
  if ((await tab.getAttribute('data-active')) !== 'true') await tab.locator('button[role="tab"]').click();
  await page.waitForFunction((k) => document.querySelector(`[data-testid="scene-tab"][data-kind="${k}"]`)?.getAttribute('data-active') === 'true', kind);
  const b64 = await page.evaluate(() => window.__vmdEditor!.bytes());
  const b = Buffer.from(b64!, 'base64');
  // VMD: header 50 bytes, then the bone count and 111-byte records, the morph count and 23-byte records, the camera count.
  const bones = b.readUInt32LE(50);
  const morphsAt = 54 + bones * 111;
  const cameraAt = morphsAt + 4 + b.readUInt32LE(morphsAt) * 23;
  return [bones, b.readUInt32LE(cameraAt)];
}

describe('a camera VMD dropped with a dance', () => {
  const s = appForSuite();

  it.each([['camera first', true], ['dance first', false]])('%s: the dance is the actor, the camera the camera document', async (_n, cameraFirst) => {
    const page = s.app.page;
    await page.reload();
    await page.waitForSelector('[data-testid="cmd-open"]');
    const cam = { name: 'カメラ 🎥.vmd', bytes: CAMERA }, dance = { name: 'ダンス.vmd', bytes: DANCE };
    await dropFiles(page, cameraFirst ? [cam, dance] : [dance, cam]);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 2);
    // The dance is the one shown.
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('ダンス.vmd'));
    if (cameraFirst) await s.app.screenshot('drop-camera-dance');
    expect(await page.locator('[data-testid="merge-dialog"]').count()).toBe(0);
    expect(await countsOf(page, 'actor')).toEqual([3, 0]);
    expect(await countsOf(page, 'camera')).toEqual([0, 4]);
    expect(s.app.errors).toEqual([]);
  }, LONG);
});
