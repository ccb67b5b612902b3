// The open scene file itself is checked when the window gets the focus back, as its documents are (disk-changed):
// before, only the motions were compared with the disk, and a .vmdscene another program rewrote (a text editor, a
// sync tool, a second window) went unnoticed until Save refused to write over it. Changed: "The scene NAME was
// changed by another program. Reload it?" (with "Unsaved changes in the scene will be lost." when there are
// some), Reload / Keep. Keep is not asked again for that version; Reload opens the file as it is now. A scene file
// deleted meanwhile is said in a notice. Screenshot: test-artifacts/disk-changed-scene-ask.png.
import { mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, dismissNotices, notice, openSceneViaDialog, writeSceneFolder } from './harness';
import { corpusPresent } from '../helpers/corpus';

const LONG = 240_000;

const refocus = (page: Page) => page.evaluate(() => window.dispatchEvent(new Event('focus')));
/** The focus comes back and the check it starts has had main's answers (and a frame to show a question). */
const refocusChecked = async (page: Page) => {
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/call/fileStamp'), { timeout: 60_000 });
  await refocus(page);
  await answered;
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
};
/** Another program writes the scene file as an editor does: a temp file renamed over it (a new inode). */
const writeOver = (file: string, json: Record<string, unknown>) => {
  writeFileSync(`${file}.tmp`, JSON.stringify({ format: 'vmd-studio-scene', version: 1, ...json }));
  renameSync(`${file}.tmp`, file);
};
const tabs = (page: Page) => page.$$eval('[data-testid="scene-tab"]', (els) => els.length);
const actor = (name: string, motion: string) => ({ name, model: null, motion, hidden: false });

describe.skipIf(!corpusPresent)('the open scene file changed on disk while the window was in the background', () => {
  const s = appForSuite();

  it('asks on focus: Keep is not asked again for that version; Reload opens the file as it is now; a deleted scene file is said', async () => {
    const page = s.app.page;
    const dir = path.join(s.tmp.dir, 'proj');
    mkdirSync(dir, { recursive: true });
    const scenePath = writeSceneFolder(
      dir,
      [
        [corpusPath('gene/motion/stand.vmd'), 'a.vmd'],
        [corpusPath('gene/motion/02_laugh.vmd'), 'b.vmd'],
        [corpusPath('gene/motion/00_normal.vmd'), 'c.vmd'],
      ],
      { actors: [actor('A1', 'a.vmd'), actor('A2', 'b.vmd')], activeActor: 0, camera: null },
      'stage.vmdscene',
    );
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 2);
    await dismissNotices(page);

    // Unchanged: focus asks nothing.
    await refocusChecked(page);
    expect(await page.$('[data-testid="confirm-dialog"]')).toBeNull();

    // Another program adds a third actor: asked, with Reload / Keep; nothing unsaved here, so nothing said lost.
    writeOver(scenePath, { actors: [actor('A1', 'a.vmd'), actor('A2', 'b.vmd'), actor('A3', 'c.vmd')], activeActor: 0, camera: null });
    await refocus(page);
    await page.waitForSelector('[data-testid="confirm-dialog"]', { timeout: 60_000 });
    const question = (await page.textContent('[data-testid="confirm-dialog"]')) ?? '';
    expect(question).toContain('The scene stage.vmdscene was changed by another program. Reload it?');
    expect(question).not.toContain('Unsaved changes in the scene will be lost.');
    // A reload replaces every document and starts the history afresh: no undo step brings the window's scene back,
    // and the question says so before it is chosen.
    expect(question).toContain('A reload cannot be undone (the window’s undo history starts afresh).');
    expect((await page.textContent('[data-testid="confirm-reload"]'))?.trim()).toBe('Reload');
    expect((await page.textContent('[data-testid="confirm-cancel"]'))?.trim()).toBe('Keep');

    // Keep: the window's scene stays (two actors), and the same version is not asked about again.
    await page.click('[data-testid="confirm-cancel"]');
    await page.waitForSelector('[data-testid="confirm-dialog"]', { state: 'detached' });
    expect(await tabs(page)).toBe(2);
    await refocusChecked(page);
    expect(await page.$('[data-testid="confirm-dialog"]')).toBeNull();

    // An unsaved change to the scene here (actor 1 moved to X 10 on the Stage tab), then another write: the
    // question says it will be lost.
    await page.click('[data-testid="side-tab-stage"]');
    const x = page.locator('[data-testid="stage-actor"]').nth(0).locator('[data-testid="stage-x"]');
    await x.fill('10');
    await x.press('Enter');
    await page.waitForFunction(() => document.title.includes('*'));
    expect(await page.isEnabled('[data-testid="cmd-undo"]')).toBe(true);
    writeOver(scenePath, { actors: [actor('B1', 'c.vmd'), actor('B2', 'a.vmd'), actor('B3', 'b.vmd')], activeActor: 0, camera: null });
    await refocus(page);
    await page.waitForSelector('[data-testid="confirm-reload"]', { timeout: 60_000 });
    await s.app.screenshot('disk-changed-scene-ask');
    expect(await page.textContent('[data-testid="confirm-dialog"]')).toContain(
      'The scene stage.vmdscene was changed by another program. Reload it? Unsaved changes in the scene will be lost. A reload cannot be undone (the window’s undo history starts afresh).',
    );
    // Reload: the file as it is now, three actors named as the other program wrote them.
    await page.click('[data-testid="confirm-reload"]');
    await notice(page, 'Reloaded the scene stage.vmdscene from disk', 60_000);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 3);
    const names = await page.$$eval('[data-testid="scene-tab"]', (els) => els.map((e) => e.textContent ?? ''));
    expect(names.map((n) => n.match(/B\d/)?.[0])).toEqual(['B1', 'B2', 'B3']);
    expect(await page.evaluate(() => document.title.includes('*'))).toBe(false);
    // As the question said: the move made before is not in the history any more (Undo has nothing).
    expect(await page.isEnabled('[data-testid="cmd-undo"]')).toBe(false);
    await refocusChecked(page);
    expect(await page.$('[data-testid="confirm-dialog"]')).toBeNull();
    await dismissNotices(page);

    // Deleted meanwhile: a notice says so; the scene stays open.
    unlinkSync(scenePath);
    await refocus(page);
    const said = await notice(page, 'is no longer on disk', 60_000);
    expect(said).toContain('The scene stage.vmdscene is no longer on disk (moved, renamed or deleted)');
    expect(await tabs(page)).toBe(3);
    expect(s.app.errors).toEqual([]);
  }, LONG);
});
