// Reduce… in the editor on wavefile_v2.vmd: the Whole Motion dialog's Preview draws the result over
// the original and shows the key counts and the largest error, and so does the curve pane's plot for
// the active track until Apply; after Apply and Save As the file re-reads
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
    // The curve pane's plot overlays the same two series for the active track, and says the same figures.
    const pane = await page.evaluate(() => {
      const c = document.querySelector('[data-testid="curve-canvas"]') as HTMLCanvasElement;
      const oy = Number(c.dataset.oy), size = Number(c.dataset.size), ox = Number(c.dataset.ox), dpr = c.width / c.getBoundingClientRect().width;
      // The plot strip lies under the square: count the result's orange there.
      const d = c.getContext('2d')!.getImageData(Math.round(ox * dpr), Math.round((oy + 14) * dpr), Math.round(size * dpr), Math.round(40 * dpr)).data;
      let orange = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] > 200 && d[i + 1] > 140 && d[i + 1] < 200 && d[i + 2] < 100) orange++;
      return { series: c.dataset.fitSeries, points: Number(c.dataset.fitPoints), size, orange };
    });
    expect(pane.series).toBe('2');
    expect(pane.points).toBe(Math.floor(pane.size));
    expect(pane.orange).toBeGreaterThan(20);
    expect(await page.textContent('[data-testid="curve-fit-summary"]')).toBe(summary);
    await suite.app.screenshot('fit-preview');
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(0);

    await page.click('[data-testid="batch-apply"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1, undefined, { timeout: 120_000 });
    const notice = await page.textContent('[data-testid="notifications"]');
    expect(notice).toContain(`keys ${before.bone + before.morph} → ${after}`);
    // Applied: the pane's overlay and figures are gone.
    await page.waitForFunction(() => document.querySelector('[data-testid="curve-canvas"]')?.getAttribute('data-fit-series') === '0');
    expect(await page.$('[data-testid="curve-fit-summary"]')).toBeNull();

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
