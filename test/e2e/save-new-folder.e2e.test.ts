// Save As into a new folder in the browser mode (the byte audit's finding 4: there was no New folder, and a
// folder typed that was not there made Save do nothing, without a word). A folder typed in the path box says
// "New folder: … (made when you save)" and Save makes it and writes there; New folder makes one in the folder
// shown, and Save writes into it; both files are the motion's bytes. Screenshots:
// test-artifacts/save-new-folder-note.png, save-new-folder-row.png.
import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, fileDialogReady, openFileViaDialog } from './harness';
import { corpusPresent } from '../helpers/corpus';

const LONG = 180_000;

describe.skipIf(!corpusPresent)('Save As into a new folder', () => {
  const s = appForSuite();

  it('a typed folder that is not there is made on Save; New folder makes one and goes into it', async () => {
    const page = s.app.page;
    const src = path.join(s.tmp.dir, 'stand.vmd');
    copyFileSync(corpusPath('gene/motion/stand.vmd'), src);
    const bytes = readFileSync(src);
    await openFileViaDialog(page, src);

    const typed = path.join(s.tmp.dir, 'k', '新しい フォルダ');
    await page.click('[data-testid="cmd-save-as"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', typed);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForSelector('[data-testid="file-dialog-new-folder"]');
    expect(await page.textContent('[data-testid="file-dialog-new-folder"]')).toBe(`New folder: ${typed} (made when you save)`);
    expect(await page.isVisible('[data-testid="file-dialog-error"]')).toBe(false);
    await page.fill('[data-testid="file-dialog-name"]', 'wave copy.vmd');
    await s.app.screenshot('save-new-folder-note');
    await page.click('[data-testid="file-dialog-accept"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    const first = path.join(typed, 'wave copy.vmd');
    await page.waitForFunction((p) => document.querySelector('[data-testid="status-bar"] .path')?.getAttribute('title') === p, first);
    expect(readFileSync(first).equals(bytes)).toBe(true);

    // New folder: in the folder shown (the one just made), named here, then Save goes into it.
    await page.click('[data-testid="cmd-save-as"]');
    await fileDialogReady(page);
    await page.click('[data-testid="file-dialog-new-folder-button"]');
    expect(await page.inputValue('[data-testid="file-dialog-folder-name"]')).toBe('New folder');
    await page.fill('[data-testid="file-dialog-folder-name"]', 'takes 2');
    await s.app.screenshot('save-new-folder-row');
    await page.click('[data-testid="file-dialog-folder-create"]');
    const made = path.join(typed, 'takes 2');
    await page.waitForFunction((p) => document.querySelector('[data-testid="file-dialog"]')?.getAttribute('data-folder') === p, made);
    expect(statSync(made).isDirectory()).toBe(true);
    await page.fill('[data-testid="file-dialog-name"]', 'second');
    await page.click('[data-testid="file-dialog-accept"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    const second = path.join(made, 'second.vmd');
    await page.waitForFunction((p) => document.querySelector('[data-testid="status-bar"] .path')?.getAttribute('title') === p, second);
    expect(existsSync(second) && readFileSync(second).equals(bytes)).toBe(true);
    expect(s.app.errors).toEqual([]);
  }, LONG);
});
