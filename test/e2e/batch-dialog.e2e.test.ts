/**
 * The Batch dialog's results, progress and messages in Chromium through the browser mode, on a folder of mixed
 * files with a sub-folder (what a new user ran): one list of the files, each once by its path under the input
 * folder (same-named files in two folders told apart), failures first, each error said once without its file's
 * name or a bare code first, in a box that scrolls and shows no row cut by its bottom edge; a VMD whose bone
 * count says 2,147,483,647 says that; shift by −5 names the dialog's checkbox, not the CLI's --clip; progress
 * never reads "0 / 0 files"; and six error toasts are drawn three at a time on an opaque backdrop.
 * Screenshots: test-artifacts/batch-dialog-*.png.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildVmd, writeVmd } from '../../shared/vmd';
import { appForSuite, ARTIFACTS, corpusPath, fileDialogReady, textOf } from './harness';
import { corpusPresent } from '../helpers/corpus';

/** A small motion: two bone keys, the first at frame 2 (a shift by −5 pushes it below 0). */
function motion(): Uint8Array {
  return writeVmd(buildVmd({ bones: [{ name: 'センター', frame: 2, position: [0, 0, 0], rotation: [0, 0, 0, 1] }, { name: 'センター', frame: 12, position: [1, 0, 0], rotation: [0, 0, 0, 1] }] }));
}

/** A VMD of the right size whose bone count says 2147483647: header, model name, five counts of 0 after it. */
function hugeCount(): Uint8Array {
  const bytes = new Uint8Array(30 + 20 + 4 * 6);
  bytes.set(new TextEncoder().encode('Vocaloid Motion Data 0002'), 0);
  new DataView(bytes.buffer).setUint32(50, 0x7fffffff, true);
  return bytes;
}

/** Records every text the progress count shows from now on (a MutationObserver: each render, not a poll). */
async function watchCount(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __batchCounts: string[]; __batchCountObserver?: MutationObserver };
    w.__batchCountObserver?.disconnect();
    const seen: string[] = (w.__batchCounts = []);
    const look = () => {
      const t = document.querySelector('[data-testid="batch-count"]')?.textContent?.trim();
      if (t && seen[seen.length - 1] !== t) seen.push(t);
    };
    w.__batchCountObserver = new MutationObserver(look);
    w.__batchCountObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}
const countsSeen = (page: Page) => page.evaluate(() => (window as unknown as { __batchCounts: string[] }).__batchCounts);

async function runBatch(page: Page, op: string, input: string, output: string, options: Record<string, string> = {}): Promise<void> {
  if (!(await page.isVisible('[data-testid="batch-dialog"]'))) await page.click('[data-testid="cmd-batch"]');
  await page.selectOption('[data-testid="batch-op"]', op);
  await page.fill('[data-testid="batch-input"]', input);
  await page.fill('[data-testid="batch-output"]', output);
  for (const [name, value] of Object.entries(options)) await page.fill(`[data-testid="batch-opt-${name}"]`, value);
  await watchCount(page);
  await page.click('[data-testid="batch-start"]');
  await page.waitForSelector('[data-testid="batch-summary"]', { timeout: 120_000 });
}

describe('the Batch dialog says its results, progress and messages readably', () => {
  const suite = appForSuite();

  it('one list, each file once by its path under the input folder, failures first, in a box of whole rows', async () => {
    const { page } = suite.app;
    const input = path.join(suite.tmp.dir, 'mixed');
    mkdirSync(path.join(input, 'sub'), { recursive: true });
    for (let i = 1; i <= 8; i++) writeFileSync(path.join(input, `m${i}.vmd`), motion());
    writeFileSync(path.join(input, 'A) ミク.vmd'), motion());
    writeFileSync(path.join(input, 'sub', 'A) ミク.vmd'), motion());
    writeFileSync(path.join(input, 'empty.vmd'), new Uint8Array(0));
    writeFileSync(path.join(input, 'sub', 'empty.vmd'), new Uint8Array(0));
    writeFileSync(path.join(input, 'hugecount.vmd'), hugeCount());
    await runBatch(page, 'mirror', input, path.join(suite.tmp.dir, 'mixed-out'));
    expect(await textOf(page, 'batch-summary')).toBe('Done: 10 ok, 3 failed, 0 skipped');
    await suite.app.screenshot('batch-dialog-mirror');

    const rows = await page.$$eval('[data-testid="batch-result"]', (rs) =>
      rs.map((r) => ({
        file: r.querySelector('[data-testid="batch-result-file"]')!.textContent!.trim(),
        status: r.getAttribute('data-status'),
        error: r.querySelector('[data-testid="batch-result-error"]')?.textContent?.trim() ?? null,
      })),
    );
    // Every file once, by its path under the input folder; the failures first.
    expect(rows.map((r) => r.file).sort()).toEqual(['A) ミク.vmd', 'empty.vmd', 'hugecount.vmd', ...Array.from({ length: 8 }, (_, i) => `m${i + 1}.vmd`), 'sub/A) ミク.vmd', 'sub/empty.vmd'].sort());
    expect(rows.map((r) => r.status)).toEqual([...Array(3).fill('failed'), ...Array(10).fill('ok')]);
    expect(rows.slice(0, 3).map((r) => r.file)).toEqual(['empty.vmd', 'hugecount.vmd', 'sub/empty.vmd']);
    // No second table of the failures: the dialog names each failed file once.
    const dialogText = await page.innerText('[data-testid="batch-dialog"]');
    expect(dialogText.split('hugecount.vmd').length - 1).toBe(1);
    expect(await page.locator('[data-testid="batch-failure"]').count()).toBe(0);
    // Each failure said once: not its name again, not a bare code first.
    for (const r of rows.filter((x) => x.status === 'failed')) {
      expect(r.error, r.file).not.toContain(path.basename(r.file));
      expect(r.error, r.file).not.toMatch(/^E_/);
    }
    // The damaged count keeps what the reader found, in the dialog's own words.
    expect(rows.find((r) => r.file === 'hugecount.vmd')!.error).toBe("The file is damaged: the bone block says it holds 2,147,483,647 keys, more than the file's size can (at byte 50)");

    // The box scrolls (13 rows do not fit), shows its scroll bar, and its bottom edge falls between two rows.
    const box = await page.$eval('[data-testid="batch-results-box"]', (b: HTMLElement) => {
      const r = b.getBoundingClientRect();
      const cut = [...b.querySelectorAll('[data-testid="batch-result"]')].map((row) => row.getBoundingClientRect()).filter((x) => x.top < r.bottom - 1 && x.bottom > r.bottom + 1);
      return { scrolls: b.scrollHeight > b.clientHeight, overflowY: getComputedStyle(b).overflowY, scrollbar: b.offsetWidth - b.clientWidth - parseFloat(getComputedStyle(b).borderLeftWidth) - parseFloat(getComputedStyle(b).borderRightWidth), cut: cut.length };
    });
    expect(box.scrolls).toBe(true);
    expect(['auto', 'scroll']).toContain(box.overflowY);
    expect(box.scrollbar, 'a scroll bar drawn beside the rows').toBeGreaterThan(0);
    expect(box.cut, 'rows cut by the bottom edge').toBe(0);
    await page.locator('[data-testid="batch-results-box"]').screenshot({ path: path.join(ARTIFACTS, 'batch-dialog-results-box.png') });
    // "Failed only" leaves the three failures.
    await page.check('[data-testid="batch-only-failed"]');
    expect(await page.locator('[data-testid="batch-result"]').count()).toBe(3);
    await page.uncheck('[data-testid="batch-only-failed"]');
    expect((await countsSeen(page)).filter((t) => /^0 \/ 0\b/.test(t))).toEqual([]);
  });

  it('shift by −5 names the dialog’s checkbox (not --clip), in English and Japanese', async () => {
    const { page } = suite.app;
    const input = path.join(suite.tmp.dir, 'shift-in');
    mkdirSync(input);
    writeFileSync(path.join(input, 'walk.vmd'), motion());
    await runBatch(page, 'shift', input, path.join(suite.tmp.dir, 'shift-out'), { by: '-5' });
    const error = page.locator('[data-testid="batch-result-error"]');
    expect(await error.count()).toBe(1);
    const label = (await page.textContent('label:has([data-testid="batch-opt-clip"])'))!.trim();
    expect(label).toBe('Cut keys that land before frame 0');
    expect(await error.textContent()).toBe(`Shifting by -5 moves the key at frame 2 before frame 0: tick “${label}” to cut off what lands before it`);
    await page.selectOption('[data-testid="locale"]', 'ja');
    const ja = (await page.textContent('label:has([data-testid="batch-opt-clip"])'))!.trim();
    await page.waitForFunction((l) => document.querySelector('[data-testid="batch-result-error"]')?.textContent?.includes(`「${l}」`), ja);
    expect(await error.textContent()).not.toContain('--clip');
    await suite.app.screenshot('batch-dialog-shift-ja');
    await page.selectOption('[data-testid="locale"]', 'en');
    expect((await countsSeen(page)).filter((t) => /^0 \/ 0\b/.test(t))).toEqual([]);
  });

  it.skipIf(!corpusPresent)('Bake physics (a model read before the files are counted) says "Finding files…", never "0 / 0 files"', async () => {
    const { page } = suite.app;
    const input = path.join(suite.tmp.dir, 'bake-in');
    mkdirSync(input);
    writeFileSync(path.join(input, 'walk.vmd'), motion());
    await runBatch(page, 'physics-bake', input, path.join(suite.tmp.dir, 'bake-out'), { model: corpusPath('gene/Gene_light.pmx') });
    const seen = await countsSeen(page);
    expect(seen.filter((t) => /^0 \/ 0\b/.test(t)), seen.join(' | ')).toEqual([]);
    await page.click('[data-testid="batch-close"]');
  });

  it('six error toasts: the newest three drawn, on an opaque backdrop, the rest counted as "+3 more"', async () => {
    const { page } = suite.app;
    if (await page.isVisible('[data-testid="batch-dialog"]')) await page.click('[data-testid="batch-close"]');
    for (let i = 1; i <= 6; i++) {
      const bad = path.join(suite.tmp.dir, `notes-${i}.vmd`);
      writeFileSync(bad, `not a motion, note ${i}`);
      await page.click('[data-testid="cmd-open"]');
      await fileDialogReady(page);
      await page.fill('[data-testid="file-dialog-path"]', bad);
      await page.click('[data-testid="file-dialog-go"]');
      await page.waitForFunction((n) => document.querySelector('[data-testid="notifications"]')?.getAttribute('data-count') === String(n), i);
    }
    // Three drawn once the newest's entry (and the pushed-back ones' leave) transitions are over.
    await page.waitForFunction(() => {
      const ns = [...document.querySelectorAll('[data-testid="notifications"] .notice')];
      return ns.length === 3 && ns.every((n) => getComputedStyle(n).opacity === '1');
    });
    await suite.app.screenshot('batch-dialog-toasts');
    const look = await page.evaluate(() => {
      const root = document.querySelector('[data-testid="notifications"]')!;
      const alpha = (c: string) => {
        const m = c.match(/rgba?\(([^)]+)\)/);
        if (!m) return 0;
        const parts = m[1].split(',').map((x) => Number(x.trim()));
        return parts.length === 4 ? parts[3] : 1;
      };
      const notices = [...root.querySelectorAll('.notice')];
      return {
        messages: notices.map((n) => n.querySelector('[data-testid="notice-message"]')!.textContent!.trim()),
        backdrop: alpha(getComputedStyle(root).backgroundColor),
        notices: notices.map((n) => alpha(getComputedStyle(n).backgroundColor)),
        opacity: notices.map((n) => Number(getComputedStyle(n).opacity)),
        more: root.querySelector('[data-testid="notify-more"]')?.textContent?.trim(),
      };
    });
    expect(look.messages.map((m) => m.split(':')[0])).toEqual(['notes-4.vmd', 'notes-5.vmd', 'notes-6.vmd']);
    expect(look.more).toBe('+3 more');
    expect(look.backdrop, 'the stack’s backdrop is opaque').toBe(1);
    expect(look.notices).toEqual([1, 1, 1]);
    expect(look.opacity).toEqual([1, 1, 1]);
    await page.click('[data-testid="notify-dismiss-all"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="notifications"] .notice').length === 0);
    expect(suite.app.errors).toEqual([]);
  });
});
