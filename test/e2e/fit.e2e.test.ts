// Reduce… in the editor on wavefile_v2.vmd: the Whole Motion dialog's Preview draws the result over
// the original and shows the key counts and the largest error; after Apply and Save As the file re-reads
// (counted from its bytes here) to the reported key count; undo gives the original bytes back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, openFileViaDialog, saveAsViaDialog } from './harness';

/** Bone and morph key counts straight from a VMD's bytes (version 0002 layout). */
function keyCounts(b: Buffer): { bone: number; morph: number } {
  const bone = b.readUInt32LE(50);
  const morph = b.readUInt32LE(54 + bone * 111);
  return { bone, morph };
}

describe('Reduce in the editor', () => {
  const suite = appForSuite();

  it('previews counts and error with a plot, applies as one undo step, saves the reported count, undoes to the original bytes', async () => {
    const { page } = suite.app;
    const src = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
    const original = readFileSync(src);
    const before = keyCounts(original);
    const docBytes = async () => Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64');
    await openFileViaDialog(page, src);
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);

    await page.click('[data-testid="whole-motion"]');
    expect(await page.isChecked('[data-testid="batch-target-document"]')).toBe(true);
    await page.selectOption('[data-testid="batch-op"]', 'reduce');
    await page.fill('[data-testid="batch-opt-pos-tol"]', '0.02');
    await page.fill('[data-testid="batch-opt-rot-tol"]', '0.2');
    await page.click('[data-testid="fit-preview-run"]');
    await page.waitForSelector('[data-testid="fit-preview-summary"]', { timeout: 120_000 });
    const summary = (await page.textContent('[data-testid="fit-preview-summary"]'))!;
    const m = /keys (\d+) → (\d+); largest error \(played back\) ([\d.e-]+) units, ([\d.e-]+)°/.exec(summary);
    expect(m, summary).not.toBeNull();
    expect(Number(m![1])).toBe(before.bone + before.morph);
    const after = Number(m![2]);
    expect(after).toBeLessThan(before.bone + before.morph);
    expect(Number(m![3])).toBeLessThanOrEqual(0.02);
    expect(Number(m![4])).toBeLessThanOrEqual(0.2);
    expect(await page.isVisible('[data-testid="fit-preview-plot"]')).toBe(true);
    // The plot has both lines drawn: some pixels are the original's grey and some the result's orange.
    const colours = await page.evaluate(() => {
      const c = document.querySelector('[data-testid="fit-preview-plot"]') as HTMLCanvasElement;
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let grey = 0, orange = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (Math.abs(d[i] - 0x8b) < 12 && Math.abs(d[i + 1] - 0x93) < 12 && Math.abs(d[i + 2] - 0xa1) < 12) grey++;
        if (d[i] > 200 && d[i + 1] > 140 && d[i + 1] < 200 && d[i + 2] < 100) orange++;
      }
      return { grey, orange };
    });
    expect(colours.grey).toBeGreaterThan(50);
    expect(colours.orange).toBeGreaterThan(50);
    await suite.app.screenshot('fit-preview');
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(0);

    await page.click('[data-testid="batch-apply"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1, undefined, { timeout: 120_000 });
    const notice = await page.textContent('[data-testid="notifications"]');
    expect(notice).toContain(`keys ${before.bone + before.morph} → ${after}`);

    const target = path.join(suite.tmp.dir, 'reduced.vmd');
    await saveAsViaDialog(page, target);
    await page.waitForFunction(() => !document.title.includes('*'), undefined, { timeout: 30_000 });
    const saved = keyCounts(readFileSync(target));
    expect(saved.bone + saved.morph).toBe(after);

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    expect((await docBytes()).equals(original)).toBe(true);
    expect(suite.app.errors).toEqual([]);
  });
});
