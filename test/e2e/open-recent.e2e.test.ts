// Open Recent asks what Open… and a drop ask (shell/pose-apply.ts through app-actions.ts openAny): copies of
// stand.vmd and wavefile_v2.vmd opened in turn (both on the recent list, the dance open on its own), Open Recent →
// stand.vmd over the dance offers "Load onto dance (replaces its motion)", "Add to the scene as a new actor",
// "Open it on its own" and Cancel instead of replacing the scene. Load: one undo step, the notice says that
// stand.vmd's header named another model, and Save writes stand.vmd's bytes into the dance's file with only the
// model-name field (bytes 30–49) the dance's own. Screenshot: test-artifacts/open-recent-ask.png.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, openFileViaDialog } from './harness';
import { corpusPresent } from '../helpers/corpus';
import { copyWritable } from '../helpers/corpus';

const LONG = 180_000;

describe.skipIf(!corpusPresent)('Open Recent over an open motion', () => {
  const s = appForSuite();

  it('asks Load onto / Add / open on its own / Cancel; Load keeps the dance’s model name, and Save writes only that field differently from the loaded file', async () => {
    const page = s.app.page;
    const dance = path.join(s.tmp.dir, 'dance.vmd');
    const stand = path.join(s.tmp.dir, 'stand.vmd');
    copyWritable(corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), dance);
    copyWritable(corpusPath('gene/motion/stand.vmd'), stand);
    const danceBytes = readFileSync(dance), standBytes = readFileSync(stand);
    // The two name different models (初音ミク, ジェネ / Gene): read here, not by the app.
    expect(danceBytes.subarray(30, 50).equals(standBytes.subarray(30, 50))).toBe(false);
    await openFileViaDialog(page, stand);
    await openFileViaDialog(page, dance);
    const depth = await page.evaluate(() => window.__vmdEditor!.history().undo);

    await page.click('[data-testid="cmd-recent"]');
    await page.locator('[data-testid="recent-file"]', { hasText: 'stand.vmd' }).click();
    await page.waitForSelector('[data-testid="confirm-dialog"]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid="confirm-load"]')).toContain('Load onto dance (replaces its motion)');
    expect(await page.textContent('[data-testid="confirm-add"]')).toContain('Add to the scene as a new actor');
    expect(await page.textContent('[data-testid="confirm-discard"]')).toContain('Open it on its own (replaces the scene)');
    expect(await page.isVisible('[data-testid="confirm-cancel"]')).toBe(true);
    await s.app.screenshot('open-recent-ask');
    await page.click('[data-testid="confirm-load"]');
    await page.waitForSelector('[data-testid="confirm-dialog"]', { state: 'detached' });
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, depth);
    expect(await page.getAttribute('[data-testid="cmd-undo"]', 'title')).toContain('load motion stand.vmd');
    expect(await page.$$eval('[data-testid="scene-tab"]', (e) => e.length)).toBe(1);
    const said = await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid="notifications"] .notice')].map((e) => e.textContent ?? '').find((t) => t.includes('Loaded stand.vmd onto dance')) ?? false,
    );
    expect(await said.jsonValue()).toContain('Its header named the model ジェネ / Gene; it keeps 初音ミク, the actor’s');

    // Unsaved now (the title says so), then saved over the dance's file.
    await page.waitForFunction(() => document.title.includes('*'));
    await page.click('[data-testid="cmd-save"]');
    await page.waitForFunction(() => !document.title.includes('*'));
    const saved = readFileSync(dance);
    expect(saved.length).toBe(standBytes.length);
    expect(Buffer.concat([saved.subarray(0, 30), saved.subarray(50)]).equals(Buffer.concat([standBytes.subarray(0, 30), standBytes.subarray(50)]))).toBe(true);
    expect(saved.subarray(30, 50).equals(danceBytes.subarray(30, 50))).toBe(true);
    expect(s.app.errors).toEqual([]);
  }, LONG);
});
