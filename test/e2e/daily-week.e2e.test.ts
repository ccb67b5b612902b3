// A daily user's first week (new-user pass nuprefs), through the browser mode:
// 1. The Open dialog's path field opens with its folder selected, so typing replaces it; a name typed opens the
//    listed folder's file, a full path is taken as is, and a file not found is named by its whole path (before:
//    "kb2.vmd: no such file or folder", the folder doubled out of sight: /tmp/f/tmp/f/kb2.vmd).
// 4. Loop under the preview comes back unticked after a reload when it was unticked (it came back ticked).
// 8. The pane borders are an 8 px grab band over both sides of the border (only 3 px could be grabbed).
// 9. A model whose textures are all missing says so once in a notice naming the folder looked in.
// 10. A model opened with Model… is on Open Recent.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, fileDialogReady, notice, openFileViaDialog, showModelThroughDialog } from './harness';
import { copyWritable, corpusPresent } from '../helpers/corpus';

const LONG = 180_000;
const summaryHas = (name: string) => `document.querySelector('[data-testid="summary-name"]')?.textContent?.includes(${JSON.stringify(name)})`;

describe.skipIf(!corpusPresent)('a daily user’s first week', () => {
  const s = appForSuite();

  it('Open dialog: the folder shown is selected, a name typed opens the listed folder’s file, a full path is taken as is, a missing file is named whole', async () => {
    const page = s.app.page;
    const dir = path.join(s.tmp.dir, 'files');
    mkdirSync(dir);
    copyWritable(corpusPath('gene/motion/stand.vmd'), path.join(dir, 'first.vmd'));
    copyWritable(corpusPath('gene/motion/stand.vmd'), path.join(dir, 'kb2.vmd'));
    copyWritable(corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), path.join(dir, 'kb3.vmd'));
    // Open… once by its full path: the dialog remembers the folder.
    await openFileViaDialog(page, path.join(dir, 'first.vmd'));

    const field = '[data-testid="file-dialog-path"]';
    const fieldState = () => page.$eval(field, (f) => {
      const i = f as HTMLInputElement;
      return { value: i.value, focused: document.activeElement === i, selected: [i.selectionStart, i.selectionEnd] };
    });
    await page.keyboard.press('Control+o');
    await fileDialogReady(page);
    const listed = (await page.getAttribute('[data-testid="file-dialog"]', 'data-folder'))!;
    expect(path.basename(listed)).toBe('files');
    expect(await fieldState()).toEqual({ value: listed, focused: true, selected: [0, listed.length] });
    // A name, typed over the folder: the listed folder's file (it opens over first.vmd: asked, on its own).
    await page.keyboard.type('kb2.vmd');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="confirm-dialog"]', { timeout: 30_000 });
    await page.click('[data-testid="confirm-discard"]');
    await page.waitForFunction(summaryHas('kb2.vmd'), null, { timeout: 30_000 });

    // A full path, typed as in a desktop dialog: replaces the folder shown, taken as it is.
    await page.keyboard.press('Control+o');
    await fileDialogReady(page);
    await page.keyboard.type(path.join(listed, 'kb3.vmd'));
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="confirm-dialog"]', { timeout: 30_000 });
    await page.click('[data-testid="confirm-discard"]');
    await page.waitForFunction(summaryHas('kb3.vmd'), null, { timeout: 30_000 });

    // A name that is not there: the notice names the whole path looked for.
    await page.keyboard.press('Control+o');
    await fileDialogReady(page);
    await page.keyboard.type('nothere.vmd');
    await page.keyboard.press('Enter');
    expect(await notice(page, 'nothere.vmd')).toBe(`nothere.vmd: no such file or folder (${path.join(listed, 'nothere.vmd')})`);
    expect(s.app.errors).toEqual([]);
  }, LONG);

  it('Loop unticked stays unticked after a reload, and ticked again stays ticked', async () => {
    const page = s.app.page;
    const loop = '[data-testid="preview-loop"]';
    const checked = () => page.$eval(loop, (e) => (e as HTMLInputElement).checked);
    expect(await checked()).toBe(true);
    await page.click(loop);
    expect(await checked()).toBe(false);
    // Saved as the other switches are (settings.json: waited for there, not for a time), then the page starts again.
    const saved = () => JSON.parse(readFileSync(path.join(s.app.server.settingsDir, 'settings.json'), 'utf8')).ui?.playLoop;
    await expect.poll(saved, { timeout: 10_000 }).toBe(false);
    await page.reload();
    await page.waitForSelector('[data-ready="true"]');
    await page.waitForSelector(loop);
    // Physics' mode (restored with it) is in: the switches beside Loop are restored by then.
    await page.waitForFunction((sel) => !(document.querySelector(sel) as HTMLInputElement).checked, loop, { timeout: 15_000 });
    await page.click(loop);
    await expect.poll(saved, { timeout: 10_000 }).toBe(true);
    await page.reload();
    await page.waitForSelector('[data-ready="true"]');
    await page.waitForSelector(loop);
    await expect.poll(checked, { timeout: 15_000 }).toBe(true);
  }, LONG);

  it('the pane borders: every pixel of an 8 px band across each border is the splitter (col-resize), and a drag from its outer edge resizes', async () => {
    const page = s.app.page;
    const hits = await page.evaluate(() => {
      const left = document.querySelector('aside.left')!.getBoundingClientRect();
      const right = document.querySelector('aside.right')!.getBoundingClientRect();
      const y = left.top + left.height / 2;
      const at = (x: number) => document.elementFromPoint(x + 0.5, y)?.getAttribute('data-testid') ?? document.elementFromPoint(x + 0.5, y)?.tagName;
      const band = (edge: number) => [-4, -3, -2, -1, 0, 1, 2, 3].map((d) => at(Math.round(edge) + d));
      const cursor = (id: string) => getComputedStyle(document.querySelector(`[data-testid="${id}"]`)!).cursor;
      return { left: band(left.right), right: band(right.left), cursors: [cursor('splitter-left'), cursor('splitter-right')] };
    });
    expect(hits.left).toEqual(Array(8).fill('splitter-left'));
    expect(hits.right).toEqual(Array(8).fill('splitter-right'));
    expect(hits.cursors).toEqual(['col-resize', 'col-resize']);
    // A drag that starts 3 px into the editor (outside the left pane): the left pane widens by what was dragged.
    const box = (await page.locator('aside.left').boundingBox())!;
    const w0 = box.width, x = Math.round(box.x + box.width) + 3, y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 40, y, { steps: 4 });
    await page.mouse.move(x + 80, y, { steps: 4 });
    await page.mouse.up();
    const w1 = (await page.locator('aside.left').boundingBox())!.width;
    expect(Math.abs(w1 - (w0 + 80))).toBeLessThanOrEqual(2);
    await page.dblclick('[data-testid="splitter-left"]');
  }, LONG);

  it('a model with its texture folder missing: one notice naming the folder looked in; Model… puts it on Open Recent', async () => {
    const page = s.app.page;
    const dir = path.join(s.tmp.dir, 'notex');
    mkdirSync(dir);
    const model = path.join(dir, 'gene_notex.pmx');
    copyFileSync(corpusPath('gene/Gene_light.pmx'), model);
    await showModelThroughDialog(page, model, 'ジェネ / Gene');
    const said = await notice(page, 'gene_notex.pmx:');
    expect(said).toMatch(new RegExp(`^gene_notex\\.pmx: \\d+ of its \\d+ textures could not be read from ${path.join(dir, 'light').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, so it draws white`));
    await page.click('[data-testid="cmd-recent"]');
    await page.waitForSelector('[data-testid="recent-menu"]');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="recent-file"]')].some((b) => b.getAttribute('title')?.endsWith('gene_notex.pmx')));
    await page.keyboard.press('Escape');
    expect(s.app.errors).toEqual([]);
  }, LONG);
});
