// Save As onto the file another open document has (the new-user pass's finding 7): the dialog asked "walk.vmd
// exists. Replace it?", closed on Replace, and then an 8-second notice refused it, so Save As had to start again.
// Now the dialog says why in its error line while it stays open, before any Replace question; another name saves.
// Screenshot: test-artifacts/save-as-owned.png.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, fileDialogReady, openFileViaDialog, openToQuestion } from './harness';
import { buildVmd, writeVmd } from '../../shared/vmd';

const LONG = 180_000;
const motion = (x: number) => writeVmd(buildVmd({ model: '', bones: [0, 10].map((frame, i) => ({ name: 'センター', frame, position: [i * x, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number] })) }));

describe('Save As onto another open document’s file', () => {
  const s = appForSuite();

  it('is refused in the dialog, which stays open without asking to replace; another name saves', async () => {
    const page = s.app.page;
    const walk = path.join(s.tmp.dir, 'walk.vmd'), swim = path.join(s.tmp.dir, 'swim.vmd');
    writeFileSync(walk, motion(2));
    writeFileSync(swim, motion(5));
    const walkBytes = readFileSync(walk);
    await openFileViaDialog(page, walk);
    await openToQuestion(page, swim);
    await page.click('[data-testid="confirm-add"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 2);
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('swim.vmd'));

    await page.click('[data-testid="cmd-save-as"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-name"]', 'walk.vmd');
    await page.click('[data-testid="file-dialog-accept"]');
    await page.waitForSelector('[data-testid="file-dialog-error"]');
    expect((await page.textContent('[data-testid="file-dialog-error"]'))?.trim()).toBe(
      'walk.vmd is the file of actor walk, open here: saving over it would write over its edits. Choose another name',
    );
    await s.app.screenshot('save-as-owned');
    expect(await page.locator('[data-testid="file-dialog"]').count()).toBe(1);
    expect(await page.locator('[data-testid="file-dialog-confirm"]').count()).toBe(0);
    // Save again with the same name: still refused, never "Replace it?".
    await page.click('[data-testid="file-dialog-accept"]');
    expect(await page.locator('[data-testid="file-dialog-confirm"]').count()).toBe(0);
    expect(await page.locator('[data-testid="file-dialog"]').count()).toBe(1);
    expect(readFileSync(walk).equals(walkBytes)).toBe(true);

    // Another name: saved, the dialog closes.
    await page.fill('[data-testid="file-dialog-name"]', 'swim2.vmd');
    await page.click('[data-testid="file-dialog-accept"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    const saved = path.join(s.tmp.dir, 'swim2.vmd');
    await page.waitForFunction((p) => document.querySelector('[data-testid="status-bar"] .path')?.getAttribute('title') === p, saved);
    expect(readFileSync(saved).equals(motion(5))).toBe(true);
    expect(s.app.errors).toEqual([]);
  }, LONG);
});
