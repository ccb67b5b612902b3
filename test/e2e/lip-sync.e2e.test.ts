/**
 * Lip sync and the face copied from the 表情 group row (faceplus), end to end in Chromium on Gene_light.pmx (あ い う え お
 * ワ) with stand.vmd (every morph keyed 0 at 0), in the English UI at 1600×900:
 *  - the Morphs tab's Lip sync on; Step 4; at 100 the keys A, I, O, X tap あ, い, お and closed, the playhead stepping
 *    100 → 104 → 108 → 112 → 116, one undo step each;
 *  - Save (Ctrl+S), then the saved file read with the CLI (`sample --json`): at each tapped frame the vowel at 1 and the
 *    others 0, and at 102, between あ at 100 and い at 104, both at 0.5 (MMD's linear morph interpolation, by hand);
 *  - the 表情 group row clicked, Ctrl+C at 104, Ctrl+V at 200: every morph track keyed at 200, い at 1 and あ at 0, one
 *    undo step.
 * Screenshots: test-artifacts/lip-sync-*.png.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, notice, ROOT, showModelThroughDialog } from './harness';
import { animationFrames, openFresh, seekFrameField } from './editor-page';
import { buildTracks, readVmd } from '../../shared/vmd';
import { copyWritable } from '../helpers/corpus';

const GENE = corpusPath('gene/Gene_light.pmx');
const STAND = corpusPath('gene/motion/stand.vmd');
const VOWELS = ['あ', 'い', 'う', 'え', 'お'];

const undoDepth = (page: Page) => page.evaluate(() => window.__vmdEditor!.history().undo);

/** The saved file's morph weights at `frame`, as the CLI samples them. */
function sampled(file: string, frame: number): Record<string, number> {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'electron/cli/vmd-studio.mjs'), 'sample', file, '--frame', String(frame), '--json'], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout).morphs;
}

describe('lip sync and the face group row (en-US, 1600×900)', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 900 }, locale: 'en-US' });

  it('taps vowels by key, saves them, and Ctrl+C on the 表情 row copies the face for Ctrl+V', async () => {
    const { page } = s.app;
    const file = path.join(s.tmp.dir, 'stand.vmd');
    copyWritable(STAND, file);
    await openFresh(page, file);
    await showModelThroughDialog(page, GENE, 'ジェネ / Gene');
    await page.click('[data-testid="side-tab-morphs"]');
    await page.click('[data-testid="morph-lip-sync"]');
    await page.waitForSelector('[data-testid="lip-sync"]');
    // Gene has all five vowels and ワ: no line naming a missing one; buttons あ い う え お ワ ×.
    expect(await page.$('[data-testid="lip-missing"]')).toBeNull();
    expect(await page.$$eval('[data-testid="lip-shape"]', (els) => els.map((e) => e.textContent!.trim()))).toEqual(['あ', 'い', 'う', 'え', 'お', 'ワ', '×']);
    await page.fill('[data-testid="lip-step"]', '4');
    await page.press('[data-testid="lip-step"]', 'Enter');
    await seekFrameField(page, 100);

    // A I O X: each one undo step, the playhead 4 frames on after each.
    let depth = await undoDepth(page);
    for (const [key, next] of [['a', 104], ['i', 108], ['o', 112], ['x', 116]] as const) {
      await page.keyboard.press(key);
      await page.waitForFunction((d) => window.__vmdEditor!.history().undo === d, depth + 1);
      depth++;
      await page.waitForFunction((f) => window.__vmdEditor!.frame().frame === f, next);
    }
    expect(await page.textContent('[data-testid="lip-last"]')).toBe('closed at frame 112');
    await animationFrames(page, 2);
    await s.app.screenshot('lip-sync-panel');

    // Saved, read back with the CLI.
    // (The title keeps its * here: the untitled scene of the model and the motion is unsaved.) Saved: the file holds the document.
    const doc = Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64');
    await page.keyboard.press('Control+s');
    await expect.poll(() => readFileSync(file).equals(doc), { timeout: 30_000 }).toBe(true);
    const want: [number, string | null][] = [[100, 'あ'], [104, 'い'], [108, 'お'], [112, null]];
    for (const [frame, vowel] of want) {
      const m = sampled(file, frame);
      for (const v of VOWELS) expect(m[v], `${v} at ${frame}`).toBe(v === vowel ? 1 : 0);
    }
    const mid = sampled(file, 102);
    expect(mid['あ']).toBeCloseTo(0.5, 6);
    expect(mid['い']).toBeCloseTo(0.5, 6);
    // ワ (found, not tapped) is keyed 0 with the others.
    expect(sampled(file, 100)['ワ']).toBe(0);

    // The 表情 group row: scrolled to, clicked (it folds and stays lit), Ctrl+C at 104, Ctrl+V at 200.
    await seekFrameField(page, 104);
    await page.hover('[data-testid="track-list"]');
    // The list follows the active track (お, among the morphs): the group row is above it.
    for (let i = 0; i < 80 && !(await page.$('[data-testid="group-morph"]')); i++) {
      await page.mouse.wheel(0, -200);
      await animationFrames(page, 1);
    }
    await page.click('[data-testid="group-morph"]');
    await page.waitForSelector('[data-testid="group-morph"].active');
    await page.keyboard.press('Control+c');
    const saved = readVmd(new Uint8Array(readFileSync(file)));
    if (!saved.ok) throw new Error(saved.error.message);
    const morphTracks = buildTracks(saved.value).morphs.names.length;
    await notice(page, `Copied the face at frame 104: ${morphTracks} morphs`);
    await s.app.screenshot('lip-sync-face-group');
    await seekFrameField(page, 200);
    await page.keyboard.press('Control+v');
    await page.waitForFunction((d) => window.__vmdEditor!.history().undo === d, depth + 1);
    const b64 = await page.evaluate(() => window.__vmdEditor!.bytes());
    const after = readVmd(new Uint8Array(Buffer.from(b64!, 'base64')));
    if (!after.ok) throw new Error(after.error.message);
    const t = buildTracks(after.value).morphs;
    const at200 = t.names.filter((_, i) => t.frames.subarray(t.start[i], t.start[i + 1]).includes(200));
    expect(at200.length).toBe(morphTracks);
    const w200 = (n: string) => {
      const i = t.index.get(n)!;
      const k = t.frames.subarray(t.start[i], t.start[i + 1]).indexOf(200);
      return t.weight[t.start[i] + k];
    };
    expect(w200('い')).toBe(1);
    expect(w200('あ')).toBe(0);
    expect(s.app.errors).toEqual([]);
  });
});
