/**
 * Import timings… (lipsync2), end to end in Chromium on Gene_light.pmx (あ い う え お ワ) with stand.vmd (every morph
 * keyed 0 at 0), in the English UI at 1600×900:
 *  - the Morphs tab's Lip sync on, Weight 0.8; Import timings… through the in-app dialog of a hand-written list
 *    (30 a, 36 い, 42 -, 48 お): the preview says 4 timings → 24 keys (4 × Gene's six mouth shapes; no frame-0 key, as
 *    stand.vmd keys them all at 0) on あ い う え お ワ at weight 0.8, frames 30–48;
 *  - Apply: one undo step; Save (Ctrl+S); the saved file read with the codec's reader: 24 more morph keys than
 *    stand.vmd, and at each timing's frame its vowel at 0.8 (float32) and the other five shapes 0;
 *  - a file with a bad line: the preview names the file and the line, and offers no Apply.
 * Screenshots: test-artifacts/lip-sync-import-*.png.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, openThroughDialog, showModelThroughDialog } from './harness';
import { animationFrames, openFresh } from './editor-page';
import { buildTracks, readVmd } from '../../shared/vmd';
import { copyWritable } from '../helpers/corpus';

const GENE = corpusPath('gene/Gene_light.pmx');
const STAND = corpusPath('gene/motion/stand.vmd');
const SHAPES = ['あ', 'い', 'う', 'え', 'お', 'ワ'];

const undoDepth = (page: Page) => page.evaluate(() => window.__vmdEditor!.history().undo);

/** name@frame → weight of every morph key of the VMD file, and how many there are. */
function morphKeys(file: string): Map<string, number> {
  const d = readVmd(new Uint8Array(readFileSync(file)));
  if (!d.ok) throw new Error(d.error.message);
  const t = buildTracks(d.value).morphs, out = new Map<string, number>();
  t.names.forEach((n, i) => {
    for (let k = t.start[i]; k < t.start[i + 1]; k++) out.set(`${n}@${t.frames[k]}`, t.weight[k]);
  });
  return out;
}

describe('Import timings… (en-US, 1600×900)', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 900 }, locale: 'en-US' });

  it('previews a timing list, applies it as one undo step, and the saved file holds its keys', async () => {
    const { page } = s.app;
    const file = path.join(s.tmp.dir, 'stand.vmd');
    copyWritable(STAND, file);
    const timings = path.join(s.tmp.dir, 'line.txt');
    writeFileSync(timings, '# a line of the song\n30 a\n36 い\n42 -\n48 お\n');
    const bad = path.join(s.tmp.dir, 'bad.txt');
    writeFileSync(bad, '30 a\n36 q\n');
    await openFresh(page, file);
    await showModelThroughDialog(page, GENE, 'ジェネ / Gene');
    await page.click('[data-testid="side-tab-morphs"]');
    await page.click('[data-testid="morph-lip-sync"]');
    await page.waitForSelector('[data-testid="lip-sync"]');
    await page.fill('[data-testid="lip-weight"]', '0.8');
    await page.press('[data-testid="lip-weight"]', 'Enter');

    // A bad line first: named with its file and line, no Apply.
    await openThroughDialog(page, ['lip-import'], bad, { filter: 'Mouth timings (.txt, .lab)' });
    await page.waitForSelector('[data-testid="lip-import-error"]');
    expect(await page.textContent('[data-testid="lip-import-error"]')).toBe('bad.txt, line 2: "q" is not a vowel (a i u e o, あいうえお, アイウエオ, or n ん - for the mouth closed)');
    expect(await page.$('[data-testid="lip-import-apply"]')).toBeNull();
    await animationFrames(page, 2);
    await s.app.screenshot('lip-sync-import-bad-line');
    await page.click('[data-testid="lip-import-cancel"]');

    await openThroughDialog(page, ['lip-import'], timings);
    await page.waitForSelector('[data-testid="lip-import-summary"]');
    expect(await page.textContent('[data-testid="lip-import-summary"]')).toBe('line.txt: 4 timings → 24 keys on あ い う え お ワ at weight 0.8, frames 30–48');
    expect(await page.textContent('[data-testid="lip-import-notes"]')).toBe('Read as a FRAME VOWEL list.');
    await animationFrames(page, 2);
    await s.app.screenshot('lip-sync-import-preview');

    const depth = await undoDepth(page);
    await page.click('[data-testid="lip-import-apply"]');
    await page.waitForFunction((d) => window.__vmdEditor!.history().undo === d, depth + 1);
    await page.waitForSelector('[data-testid="lip-import-preview"]', { state: 'detached' });

    const doc = Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64');
    await page.keyboard.press('Control+s');
    await expect.poll(() => readFileSync(file).equals(doc), { timeout: 30_000 }).toBe(true);
    const before = morphKeys(STAND), after = morphKeys(file);
    expect(after.size).toBe(before.size + 24);
    const w = Math.fround(0.8);
    for (const [frame, vowel] of [[30, 'あ'], [36, 'い'], [42, null], [48, 'お']] as const) {
      for (const v of SHAPES) expect(after.get(`${v}@${frame}`), `${v} at ${frame}`).toBe(v === vowel ? w : 0);
    }
    // Every key stand.vmd had is there as it was.
    for (const [k, v] of before) expect(after.get(k), k).toBe(v);
    expect(s.app.errors).toEqual([]);
  });
});
