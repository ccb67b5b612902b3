// Reduce… in the editor on wavefile_v2.vmd: the Whole Motion dialog's Preview draws the result over
// the original and shows the key counts and the largest error (in the dialog, in view: the modal
// dialog covers the curve pane), and so does the curve pane's plot for the active track until Apply;
// after Apply and Save As the file re-reads (counted from its bytes here) to the reported key count;
// undo gives the original bytes back.
// Simplify on a range of keys of Drink.vmd's dense 頭 track (a key on every frame): the panel opens
// with the preview, the curve pane draws the overlay over the selected frames and the figures; a
// changed tolerance changes the count; Enter applies exactly that count, within the tolerance as
// played back (measured here from the bytes); undo gives the original bytes back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildTracks, readVmd } from '../../shared/vmd';
import { playedErrors } from '../helpers/motion-error';
import { keyPoint } from './editor-page';
import { appForSuite, ARTIFACTS, corpusPath, openFileViaDialog, saveAsViaDialog } from './harness';

/** Bone and morph key counts straight from a VMD's bytes (version 0002 layout). */
function keyCounts(b: Buffer): { bone: number; morph: number } {
  const bone = b.readUInt32LE(50);
  const morph = b.readUInt32LE(54 + bone * 111);
  return { bone, morph };
}


/** A count as the app shows it, grouped by thousands ("15,439"). */
const count = (s: string) => Number(s.replace(/,/g, ''));
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
    // A short window: the dialog's form is taller than the dialog, which scrolls.
    await page.setViewportSize({ width: 1440, height: 560 });
    await page.click('[data-testid="fit-preview-run"]');
    await page.waitForSelector('[data-testid="fit-preview-summary"]', { timeout: 120_000 });
    const summary = (await page.textContent('[data-testid="fit-preview-summary"]'))!;
    // The figures are in the dialog and inside its scrolled view (the pane's copy is under the backdrop).
    const inView = await page.evaluate(() => {
      const f = document.querySelector('[data-testid="fit-preview-summary"]')!.getBoundingClientRect();
      const d = document.querySelector('[data-testid="batch-dialog"] [role="dialog"]')!.getBoundingClientRect();
      return f.height > 0 && f.top >= d.top && f.bottom <= d.bottom && f.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
    await suite.app.screenshot('fit-preview-short-window');
    await page.setViewportSize({ width: 1440, height: 900 });
    const m = /keys ([\d,]+) → ([\d,]+); largest error \(played back\) ([\d.e-]+) units, ([\d.e-]+)°/.exec(summary);
    expect(m, summary).not.toBeNull();
    expect(count(m![1])).toBe(before.bone + before.morph);
    const after = count(m![2]);
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
    // Drawn at the size it is shown (not a fixed buffer stretched), under a caption naming what it plots.
    const plot = await page.evaluate(() => {
      const c = document.querySelector('[data-testid="fit-preview-plot"]') as HTMLCanvasElement;
      return { buffer: c.width, shown: c.getBoundingClientRect().width, dpr: devicePixelRatio, caption: document.querySelector('[data-testid="fit-preview-caption"]')!.textContent!.trim() };
    });
    expect(plot.shown).toBeGreaterThan(400);
    expect(Math.abs(plot.buffer - Math.round(plot.shown * plot.dpr))).toBeLessThanOrEqual(1);
    expect(plot.caption).toMatch(/^\S.* · (X|Y|Z|Rotation|Weight|Distance|FOV): the original \(grey\) and the result \(orange\)$/);
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
    expect(notice).toContain(`keys ${(before.bone + before.morph).toLocaleString('en-US')} → ${after.toLocaleString('en-US')}`);
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

/** Orange (the result's line) pixels in the curve pane's plot strip. */
async function paneOrange(page: Page): Promise<number> {
  return page.evaluate(() => {
    const c = document.querySelector('[data-testid="curve-canvas"]') as HTMLCanvasElement;
    const oy = Number(c.dataset.oy), size = Number(c.dataset.size), ox = Number(c.dataset.ox), dpr = c.width / c.getBoundingClientRect().width;
    const d = c.getContext('2d')!.getImageData(Math.round(ox * dpr), Math.round((oy + 14) * dpr), Math.round(size * dpr), Math.round(40 * dpr)).data;
    let orange = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 200 && d[i + 1] > 140 && d[i + 1] < 200 && d[i + 2] < 100) orange++;
    return orange;
  });
}

describe('Simplify on selected keys in the editor', () => {
  const suite = appForSuite();

  it('previews in the curve pane with counts, follows the tolerance, applies the previewed count, undoes to the original bytes', async () => {
    const { page } = suite.app;
    const src = corpusPath('mc-mmd-rust/default_anim/Drink.vmd');
    const original = readFileSync(src);
    const read = (b: Uint8Array) => {
      const r = readVmd(b);
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    };
    const input = read(new Uint8Array(original));
    const tracks = buildTracks(input);
    const head = tracks.bones.index.get('頭')!;
    const headKeys = tracks.bones.start[head + 1] - tracks.bones.start[head];
    expect(headKeys, 'a key on every frame 0..90').toBe(91);
    const total = keyCounts(original);
    const docBytes = async () => Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64');
    await openFileViaDialog(page, src);
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);

    // Bring 頭's row into the timeline (wheel over the track list), then select its keys 8..40 (in view at the opening zoom).
    const row = `track-bone:${head}`;
    const rowShown = () =>
      page.evaluate((id) => {
        const r = document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect();
        const cv = document.querySelector('[data-testid="timeline-canvas"]')!.getBoundingClientRect();
        return !!r && r.top >= cv.top + 20 && r.bottom <= cv.bottom - 4;
      }, row);
    const list = (await page.locator('[data-testid="track-list"]').boundingBox())!;
    await page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
    for (let i = 0; i < 40 && !(await rowShown()); i++) {
      await page.mouse.wheel(0, 60);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
    }
    expect(await rowShown()).toBe(true);
    const k8 = await keyPoint(page, row, 8);
    await page.mouse.click(k8.x, k8.y);
    const k40 = await keyPoint(page, row, 40);
    await page.keyboard.down('Shift');
    await page.mouse.click(k40.x, k40.y);
    await page.keyboard.up('Shift');
    await page.waitForFunction(() => window.__vmdEditor!.selection().refs.length === 33);
    // The rotation channel: 頭 turns; its position stays put.
    await page.click('[data-testid="curve-channel-r"]');

    await page.click('[data-testid="inspector-simplify"]');
    await page.waitForSelector('[data-testid="simplify-panel"][data-state="ready"]', { timeout: 60_000 });
    expect(await page.inputValue('[data-testid="simplify-opt-rot-tol"]')).toBe('0.1');
    const figures = async () => {
      const text = (await page.textContent('[data-testid="simplify-summary"]'))!;
      const m = /keys ([\d,]+) → ([\d,]+); largest error \(played back\) ([\d.e-]+) units, ([\d.e-]+)°/.exec(text);
      expect(m, text).not.toBeNull();
      // First the keys Simplify refits: the 33 selected (頭 8..40 holds no other key).
      const sp = /^selected span (\d+) → (\d+) keys · /.exec(text);
      expect(sp, text).not.toBeNull();
      expect(Number(sp![1])).toBe(33);
      return { text, before: count(m![1]), after: count(m![2]), pos: Number(m![3]), rot: Number(m![4]), spanAfter: Number(sp![2]) };
    };
    const first = await figures();
    expect(first.before).toBe(total.bone + total.morph);
    expect(first.after).toBeLessThan(first.before);
    expect(first.rot).toBeLessThanOrEqual(0.1);
    // The curve pane drew this preview's overlay over the selected frames, and says the same figures.
    await page.waitForFunction((n) => document.querySelector('[data-testid="curve-canvas"]')?.getAttribute('data-fit-drawn') === String(n), first.after);
    const span = await page.evaluate(() => {
      const c = document.querySelector('[data-testid="curve-canvas"]') as HTMLCanvasElement;
      return [c.dataset.fitFrom, c.dataset.fitTo, c.dataset.fitSeries];
    });
    expect(span).toEqual(['8', '40', '2']);
    expect(await paneOrange(page)).toBeGreaterThan(20);
    expect(await page.textContent('[data-testid="curve-fit-summary"]')).toBe(first.text);
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(0);

    // A looser rotation tolerance: fewer keys, and the pane draws the new result.
    await page.fill('[data-testid="simplify-opt-rot-tol"]', '0.5');
    await page.waitForFunction(
      (prev) => document.querySelector('[data-testid="simplify-panel"]')?.getAttribute('data-state') === 'ready' && document.querySelector('[data-testid="simplify-summary"]')?.textContent !== prev,
      first.text,
      { timeout: 60_000 },
    );
    const second = await figures();
    expect(second.after).toBeLessThan(first.after);
    expect(second.rot).toBeGreaterThan(0.1);
    expect(second.rot).toBeLessThanOrEqual(0.5);
    await page.waitForFunction((n) => document.querySelector('[data-testid="curve-canvas"]')?.getAttribute('data-fit-drawn') === String(n), second.after);
    expect(await page.textContent('[data-testid="curve-fit-summary"]')).toBe(second.text);
    const markedKeys = Number(await page.getAttribute('[data-testid="curve-canvas"]', 'data-fit-keys'));
    await suite.app.screenshot('simplify-preview');
    await page.locator('[data-testid="curve-editor"]').screenshot({ path: path.join(ARTIFACTS, 'simplify-preview-pane.png') });
    await page.locator('[data-testid="key-inspector"]').screenshot({ path: path.join(ARTIFACTS, 'simplify-preview-panel.png') });
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(0);

    // Enter in the field applies: one undo step, the document holds the count the preview said.
    await page.press('[data-testid="simplify-opt-rot-tol"]', 'Enter');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    expect(await page.$('[data-testid="simplify-panel"]')).toBeNull();
    await page.waitForFunction(() => document.querySelector('[data-testid="curve-canvas"]')?.getAttribute('data-fit-series') === '0');
    const applied = await docBytes();
    const after = keyCounts(applied);
    expect(after.bone + after.morph).toBe(second.after);
    expect(await page.textContent('[data-testid="notifications"]')).toContain(`keys ${second.before.toLocaleString('en-US')} → ${second.after.toLocaleString('en-US')}`);
    // Played back (from the bytes, not the app's figures): within the tolerance, only 頭 changed.
    const out = read(new Uint8Array(applied));
    expect(playedErrors(input, out).rotationDeg).toBeLessThanOrEqual(0.5 + 1e-4);
    const t2 = buildTracks(out);
    const h2 = t2.bones.index.get('頭')!;
    expect(t2.bones.start[h2 + 1] - t2.bones.start[h2]).toBe(headKeys - (second.before - second.after));
    // The pane marked as many kept keys of 頭 in 8..40 as the applied document holds there.
    const kept = Array.from(t2.bones.frames.subarray(t2.bones.start[h2], t2.bones.start[h2 + 1])).filter((f) => f >= 8 && f <= 40);
    expect(markedKeys).toBe(kept.length);
    expect(second.spanAfter).toBe(kept.length);

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);
    expect((await docBytes()).equals(original)).toBe(true);

    // In Japanese: the same keys again, the panel in Japanese; Esc in a field cancels and changes nothing.
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.mouse.click(k8.x, k8.y);
    await page.keyboard.down('Shift');
    await page.mouse.click(k40.x, k40.y);
    await page.keyboard.up('Shift');
    await page.waitForFunction(() => window.__vmdEditor!.selection().refs.length === 33);
    await page.click('[data-testid="inspector-simplify"]');
    await page.waitForSelector('[data-testid="simplify-panel"][data-state="ready"]', { timeout: 60_000 });
    expect(await page.textContent('[data-testid="simplify-panel"]')).toContain('選択したキーの間引き');
    expect(await page.textContent('[data-testid="simplify-summary"]')).toMatch(/^選択範囲 33 → \d+ キー · キー [\d,]+ → [\d,]+; 再生して測った最大誤差/);
    await page.locator('[data-testid="key-inspector"]').screenshot({ path: path.join(ARTIFACTS, 'simplify-preview-panel-ja.png') });
    await page.press('[data-testid="simplify-opt-pos-tol"]', 'Escape');
    await page.waitForSelector('[data-testid="simplify-panel"]', { state: 'detached' });
    await page.waitForFunction(() => document.querySelector('[data-testid="curve-canvas"]')?.getAttribute('data-fit-series') === '0');
    expect(await page.evaluate(() => window.__vmdEditor!.history())).toMatchObject({ undo: 0 });
    expect((await docBytes()).equals(original)).toBe(true);
    await page.selectOption('[data-testid="locale"]', 'en');
    // Apply (above) closed the panel without the notice below; an edit made while it is open closes it
    // with that notice ("Apply to all channels", just above the panel, was one that did so unseen).
    expect(await page.textContent('[data-testid="notifications"]')).not.toContain('Simplify closed');
    await page.mouse.click(k8.x, k8.y);
    await page.keyboard.down('Shift');
    await page.mouse.click(k40.x, k40.y);
    await page.keyboard.up('Shift');
    await page.click('[data-testid="inspector-simplify"]');
    await page.waitForSelector('[data-testid="simplify-panel"][data-state="ready"]', { timeout: 60_000 });
    await page.click('[data-testid="preset-ease-in"]');
    await page.waitForSelector('[data-testid="simplify-panel"]', { state: 'detached' });
    await page.waitForFunction(() => document.querySelector('[data-testid="notifications"]')?.textContent?.includes('Simplify closed: the keys changed'));
    expect(suite.app.errors).toEqual([]);
  });
});
