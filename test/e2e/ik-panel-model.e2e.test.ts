/**
 * The 表示・IK key panel with a model shown, end to end in Chromium: low-poly miku (7 IK bones: ﾈｸﾀｲＩＫ, 左髪ＩＫ,
 * 右髪ＩＫ and the four leg IKs) and mc-mmd-rust's Drink.vmd (one key at 0: the four leg IKs off).
 * - The Display · IK row clicked with no key at the playhead (30): the state in force with every IK bone of the model
 *   and "No key at this frame — … ticking registers one" (it said "No key selected", no checkbox); unticking 右髪ＩＫ
 *   registers a key at 30 listing all seven, 右髪ＩＫ off (the hair IK could not be switched before).
 * - Key 0 selected, playhead at 30, where the row now has a key: "this track has a key at this frame (not selected)"
 *   with Select it (it said "typing registers a key at frame 30").
 * The expected key is written out by hand from Drink.vmd's key and miku's IK bones.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ikKey, readVmd } from '../../shared/vmd';
import { appForSuite, corpusPath, openFileViaDialog, showModelThroughDialog } from './harness';
import { animationFrames, clickKey, seekFrameField as seek } from './editor-page';

const DRINK = corpusPath('mc-mmd-rust/default_anim/Drink.vmd');
const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');

async function ikKeys(page: Page) {
  const b64 = await page.evaluate(() => window.__vmdEditor!.bytes());
  const r = readVmd(new Uint8Array(Buffer.from(b64!, 'base64')));
  if (!r.ok) throw new Error(r.error.message);
  return Array.from({ length: r.value.ik.count }, (_, i) => ikKey(r.value.ik, i));
}

const boxes = (page: Page) => page.$$eval('[data-testid^="inspector-ik-"][data-name]', (els) => els.map((e) => [e.getAttribute('data-name'), (e as HTMLInputElement).checked]));

describe('the 表示・IK panel follows the model shown', () => {
  const suite = appForSuite({ viewport: { width: 1600, height: 960 } });

  it('lists every IK bone of miku, shows the state in force at a frame without a key, and says when the playhead has a key', async () => {
    const { page } = suite.app;
    await openFileViaDialog(page, DRINK);
    await showModelThroughDialog(page, MIKU, 'ローポリ初音さん');
    await page.waitForSelector('[data-testid="track-ik"]');
    await seek(page, 30);
    await page.click('[data-testid="track-ik"]');
    await page.waitForSelector('[data-testid="inspector-ik-note"]');
    expect((await page.textContent('[data-testid="inspector-ik-note"]'))?.trim()).toBe('No key at this frame — the state in force here; ticking registers one');
    expect(await boxes(page)).toEqual([
      ['右足ＩＫ', false], ['右つま先ＩＫ', false], ['左足ＩＫ', false], ['左つま先ＩＫ', false], ['ﾈｸﾀｲＩＫ', true], ['左髪ＩＫ', true], ['右髪ＩＫ', true],
    ]);
    await suite.app.screenshot('ik-panel-no-key');

    await page.uncheck('[data-testid^="inspector-ik-"][data-name="右髪ＩＫ"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    const off = (names: string[]) => ['右足ＩＫ', '右つま先ＩＫ', '左足ＩＫ', '左つま先ＩＫ', 'ﾈｸﾀｲＩＫ', '左髪ＩＫ', '右髪ＩＫ'].map((name) => ({ name, enabled: names.includes(name) ? 0 : 1 }));
    expect(await ikKeys(page)).toEqual([
      { frame: 0, visible: 1, iks: off(['右足ＩＫ', '右つま先ＩＫ', '左足ＩＫ', '左つま先ＩＫ']).slice(0, 4) },
      { frame: 30, visible: 1, iks: off(['右足ＩＫ', '右つま先ＩＫ', '左足ＩＫ', '左つま先ＩＫ', '右髪ＩＫ']) },
    ]);

    // Key 0 selected, the playhead at 30 (its key there not selected): said so, with Select it.
    await seek(page, 0);
    await clickKey(page, 'track-ik', 0);
    await seek(page, 30);
    await animationFrames(page);
    const line = page.locator('[data-testid="inspector-off-frame"]');
    expect(await line.getAttribute('data-key-here')).toBe('true');
    expect(await line.textContent()).toContain('Selected key at 0 · playhead at 30 — this track has a key at this frame (not selected); typing or ticking edits it');
    await suite.app.screenshot('ik-panel-key-here');
    await page.click('[data-testid="inspector-select-here"]');
    expect((await page.evaluate(() => window.__vmdEditor!.selection())).refs).toEqual([{ kind: 'ik', record: 1 }]);
    expect(suite.app.errors).toEqual([]);
  });
});
