// A file another program changes while the window is in the background is asked about when the window gets the
// focus back (as text editors do), not only when it is opened again or saved: the real browser-mode server stats
// the open document's file (fileStamp: size, modification time, inode), the page compares it with the version it
// read. "Reload from disk" takes the file as it is now; "Keep the version open here" keeps it, is not asked again
// for that version (Save's own check of the file on disk is unchanged: file-io.ts). A file deleted meanwhile is
// said in a notice, and counts as unsaved: Save writes it there again. Screenshot: test-artifacts/disk-changed-ask.png.
import { copyFileSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, dismissNotices, notice, openFileViaDialog } from './harness';
import { corpusPresent } from '../helpers/corpus';

const LONG = 240_000;

/** The window gets the focus back (another program's window was in front). */
const refocus = (page: Page) => page.evaluate(() => window.dispatchEvent(new Event('focus')));
/** The focus comes back and the check it starts has had main's answer (and a frame to show a question). */
const refocusChecked = async (page: Page) => {
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/call/fileStamp'), { timeout: 60_000 });
  await refocus(page);
  await answered;
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
};
const lastFrame = (page: Page) => page.getAttribute('[data-testid="summary-length"]', 'data-frames');
/** Another program writes `bytes` as an editor does: a temp file renamed over it (a new inode). */
const writeOver = (file: string, bytes: Uint8Array) => {
  writeFileSync(`${file}.tmp`, bytes);
  renameSync(`${file}.tmp`, file);
};
/** The last bone or morph key frame of a VMD, read here from the bytes (records of 111 and 23 bytes, frame at 15). */
const lastFrameOf = (bytes: Uint8Array) => {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 50;
  let m = 0;
  for (const size of [111, 23]) {
    const n = v.getUint32(at, true);
    at += 4;
    for (let i = 0; i < n; i++, at += size) m = Math.max(m, v.getUint32(at + 15, true));
  }
  return String(m);
};

describe.skipIf(!corpusPresent)('a file changed on disk while the window was in the background', () => {
  const s = appForSuite();

  it('asks on focus: Keep is not asked again for that version; Reload takes the new file; a deleted file is said', async () => {
    const page = s.app.page;
    const walk = path.join(s.tmp.dir, 'walk.vmd');
    copyFileSync(corpusPath('gene/motion/stand.vmd'), walk);
    await openFileViaDialog(page, walk);
    expect(await lastFrame(page)).toBe(lastFrameOf(readFileSync(walk)));

    // Unchanged: focus asks nothing.
    await refocusChecked(page);
    expect(await page.$('[data-testid="confirm-dialog"]')).toBeNull();

    const laugh = readFileSync(corpusPath('gene/motion/02_laugh.vmd'));
    writeOver(walk, laugh);
    await refocus(page);
    await page.waitForSelector('[data-testid="confirm-dialog"]', { timeout: 60_000 });
    const question = (await page.textContent('[data-testid="confirm-dialog"]')) ?? '';
    expect(question).toMatch(/walk\.vmd \(actor [^)]+\) was changed on disk by another program while this window was in the background/);
    expect(await page.textContent('[data-testid="confirm-reload"]')).toContain('Reload from disk');
    expect(await page.textContent('[data-testid="confirm-cancel"]')).toContain('Keep the version open here');
    await s.app.screenshot('disk-changed-ask');

    // Keep: the open version stays, and the same version on disk is not asked about again.
    await page.click('[data-testid="confirm-cancel"]');
    await page.waitForSelector('[data-testid="confirm-dialog"]', { state: 'detached' });
    expect(await lastFrame(page)).toBe(lastFrameOf(readFileSync(corpusPath('gene/motion/stand.vmd'))));
    await refocusChecked(page);
    expect(await page.$('[data-testid="confirm-dialog"]')).toBeNull();

    // Another write: asked again; Reload from disk takes the file as it is now, unedited.
    const normal = readFileSync(corpusPath('gene/motion/00_normal.vmd'));
    writeOver(walk, normal);
    await refocus(page);
    await page.waitForSelector('[data-testid="confirm-reload"]', { timeout: 60_000 });
    await page.click('[data-testid="confirm-reload"]');
    await notice(page, 'Reloaded walk.vmd from disk', 60_000);
    expect(await lastFrame(page)).toBe(lastFrameOf(normal));
    expect(readFileSync(walk).equals(normal)).toBe(true);
    await refocusChecked(page);
    expect(await page.$('[data-testid="confirm-dialog"]')).toBeNull();
    await dismissNotices(page);

    // Deleted meanwhile: a notice says so, once; the document stays open.
    unlinkSync(walk);
    await refocus(page);
    await notice(page, 'walk.vmd', 60_000);
    const said = await notice(page, 'is no longer on disk', 60_000);
    expect(said).toMatch(/walk\.vmd \(actor [^)]+\) is no longer on disk \(moved, renamed or deleted\)/);
    expect(await lastFrame(page)).toBe(lastFrameOf(normal));
    // It counts as unsaved now (no version of it is on disk), and Save writes it there again as the notice says
    // (new-user pass nuchaos 5: "Nothing to save", and closing did not ask).
    await page.waitForFunction(() => document.title.startsWith('walk.vmd *'));
    await page.keyboard.press('Control+s');
    await page.waitForFunction(() => document.title.startsWith('walk.vmd —'), null, { timeout: 60_000 });
    expect(readFileSync(walk).equals(normal)).toBe(true);
    expect(s.app.errors).toEqual([]);
  }, LONG);
});
