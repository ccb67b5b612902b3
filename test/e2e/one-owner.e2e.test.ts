// One file, one owner (the byte audit's finding 2): Open… of walk.vmd while it is open as an actor does not make a
// second document over that file. The question says it is open ("walk.vmd is already open (actor …)"); "Show
// actor …" (first) shows its tab and says so, nothing added; "Add a copy as a new actor" adds a tab holding an
// unsaved copy with no file: Save on it asks for a name (the Save dialog) instead of writing walk.vmd, and the
// file on disk stays as it was. Screenshot: test-artifacts/one-owner-ask.png.
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, fileDialogReady, openFileViaDialog, openToQuestion } from './harness';
import { corpusPresent } from '../helpers/corpus';

const LONG = 180_000;

const tabs = (page: Page) => page.$$eval('[data-testid="scene-tab"]', (e) => e.map((t) => ({ active: t.getAttribute('data-active'), dirty: t.getAttribute('data-dirty'), text: t.textContent ?? '' })));


describe.skipIf(!corpusPresent)('a motion opened while it is open', () => {
  const s = appForSuite();

  it('shows its tab and says it is open; added anyway, the copy has no file and Save asks for a name; walk.vmd is never written', async () => {
    const page = s.app.page;
    const walk = path.join(s.tmp.dir, 'walk.vmd');
    copyFileSync(corpusPath('gene/motion/stand.vmd'), walk);
    const original = readFileSync(walk);
    await openFileViaDialog(page, walk);
    expect(await tabs(page)).toHaveLength(1);

    await openToQuestion(page, walk);
    const question = (await page.textContent('[data-testid="confirm-dialog"]')) ?? '';
    expect(question).toMatch(/walk\.vmd is already open \(actor [^)]+\)\. Show it, add a copy as a new actor/);
    expect(await page.textContent('[data-testid="confirm-show"]')).toMatch(/^\s*Show actor \S/);
    expect(await page.textContent('[data-testid="confirm-copy"]')).toContain('Add a copy as a new actor (unsaved)');
    // No plain "Add to the scene as a new actor" over the same file.
    expect(await page.$('[data-testid="confirm-add"]')).toBeNull();
    await s.app.screenshot('one-owner-ask');
    await page.click('[data-testid="confirm-show"]');
    await page.waitForSelector('[data-testid="confirm-dialog"]', { state: 'detached' });
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="notifications"] .notice')].some((e) => /walk\.vmd is already open \(actor [^)]+\)/.test(e.textContent ?? '')),
    );
    expect(await tabs(page)).toHaveLength(1);

    await openToQuestion(page, walk);
    await page.click('[data-testid="confirm-copy"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 2);
    const two = await tabs(page);
    // The copy is the active tab, unsaved; the first keeps its file, saved.
    expect(two.map((t) => [t.active, t.dirty])).toEqual([
      ['false', 'false'],
      ['true', 'true'],
    ]);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="notifications"] .notice')].some((e) => (e.textContent ?? '').includes('as an unsaved copy')),
    );
    // Save on the copy asks for a name: the Save dialog, not a write over walk.vmd.
    await page.click('[data-testid="cmd-save"]');
    await fileDialogReady(page);
    expect(await page.isVisible('[data-testid="file-dialog-name"]')).toBe(true);
    await s.app.screenshot('one-owner-copy-save');
    await page.click('[data-testid="file-dialog-cancel"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    expect(readFileSync(walk).equals(original)).toBe(true);
    expect(s.app.errors).toEqual([]);
  }, LONG);
});
