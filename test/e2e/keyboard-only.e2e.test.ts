/**
 * The app with the keyboard alone, end to end in Chromium (new-user pass nua11y: a user with RSI, Tab, arrows,
 * Enter, Space, Esc and the app's own keys). Enter and Space press the focused control (Enter on a focused
 * "Whole Motion…" inserted a key into the motion before, Space on a checkbox played), and still insert and play
 * from the page. Modal dialogs take the focus, keep Tab inside and give it back. The file dialog's list works with
 * the arrows, Enter and typed letters. F6 / Shift+F6 go from pane to pane; the track list takes the focus and shows
 * it; the curve square takes it and 1 / 2 pick a handle for the arrow keys.
 *
 * Expected key counts are read from the document's bytes (editor-page boneFrames), not from the editor.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, dropUnsavedIfAsked } from './harness';
import { animationFrames, boneFrames, openFresh, seekFrameField } from './editor-page';

const LAUGH = corpusPath('gene/motion/02_laugh.vmd');

/** The element with the focus: its data-testid, else its tag. */
const focused = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset?.testid ?? document.activeElement?.tagName ?? null);
const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
/** One app for the file (the describes below run in order). */
const suite = appForSuite();
const playing = async (page: Page) => (await page.evaluate(() => window.__vmdEditor!.frame())).playing;

describe('Enter and Space press the focused control', () => {

  it('Enter or Space on a focused button opens its dialog and adds no key; on a checkbox ticks it; from the page they insert and play', async () => {
    const page = suite.app.page;
    await openFresh(page, LAUGH);
    // A track active (↓ from the page, as MMD's bone rows) and a frame with no key on it.
    await seekFrameField(page, 7);
    await blur(page);
    // ↓ from the top row (Display · IK) down to the first bone's.
    for (let i = 0; i < 12 && !(await page.$('[data-testid="track-list"] .row.active[data-testid^="track-bone"]')); i++) await page.keyboard.press('ArrowDown');
    const keys = (await boneFrames(page)).length;
    const steps = (await page.evaluate(() => window.__vmdEditor!.history())).undo;

    for (const k of ['Enter', 'Space']) {
      await page.focus('[data-testid="whole-motion"]');
      await page.keyboard.press(k);
      await page.waitForSelector('[data-testid="batch-dialog"]');
      expect((await boneFrames(page)).length, k).toBe(keys);
      expect((await page.evaluate(() => window.__vmdEditor!.history())).undo, k).toBe(steps);
      expect(await playing(page), k).toBe(false);
      await suite.app.screenshot(`keyboard-only-${k.toLowerCase()}-whole-motion`);
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid="batch-dialog"]', { state: 'detached' });
    }

    // Space on a checkbox ticks it (and plays nothing); Space again unticks it.
    const box = '[data-testid="curve-overlay"]';
    const was = await page.isChecked(box);
    await page.focus(box);
    await page.keyboard.press('Space');
    expect(await page.isChecked(box)).toBe(!was);
    expect(await playing(page)).toBe(false);
    await page.keyboard.press('Space');
    expect(await page.isChecked(box)).toBe(was);
    // Enter on a focused tab (the curve's channel tabs) picks it and inserts nothing.
    await page.focus('[data-testid="curve-channel-x"]');
    await page.keyboard.press('Enter');
    expect((await boneFrames(page)).length).toBe(keys);

    // From the page: Enter inserts a key at the playhead on the active track, Space plays.
    await blur(page);
    expect(await focused(page)).toBe('BODY');
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo > n, steps);
    expect((await boneFrames(page)).length).toBe(keys + 1);
    await page.keyboard.press('Space');
    await animationFrames(page, 3);
    expect(await playing(page)).toBe(true);
    await page.keyboard.press('Space');
    expect(await playing(page)).toBe(false);

    // A control clicked with the mouse leaves Enter and Space the editor's (MMD's buttons never keep the keys; a
    // mouse user clicks Overlay, then presses Space to play): Space plays and the box stays as the click left it.
    await page.click(box);
    const clicked = await page.isChecked(box);
    expect(await focused(page)).toBe('curve-overlay');
    await page.keyboard.press('Space');
    await animationFrames(page, 3);
    expect(await playing(page)).toBe(true);
    expect(await page.isChecked(box)).toBe(clicked);
    await page.keyboard.press('Space');
    expect(await playing(page)).toBe(false);
    expect(await page.isChecked(box)).toBe(clicked);
  });
});

/**
 * Opens a dialog from `opener` (a data-testid to focus first; null: from the page) with `key`, and checks that it
 * holds the focus as the ARIA dialog pattern says: the focus goes in, 25 Tabs and 5 Shift+Tabs never leave it,
 * it is aria-modal with a name, and Escape gives the focus back to the opener (`back`: another control, the
 * menu's button when a menu item opened it). Returns the Tab stops seen.
 */
async function dialogHoldsFocus(page: Page, o: { opener: string | null; key: string; dialog: string; back?: string; shot: string }): Promise<string[]> {
  if (o.opener) await page.focus(`[data-testid="${o.opener}"]`);
  else await blur(page);
  await page.keyboard.press(o.key);
  const sel = `[data-testid="${o.dialog}"]`;
  await page.waitForSelector(sel);
  const inside = () => page.evaluate((s) => !!document.querySelector(s)?.contains(document.activeElement), sel);
  await page.waitForFunction((s) => !!document.querySelector(s)?.contains(document.activeElement), sel);
  const box = await page.evaluate((s) => {
    const d = document.querySelector(s)!;
    const b = (d.matches('[role="dialog"]') ? d : d.querySelector('[role="dialog"]'))!;
    return { modal: b.getAttribute('aria-modal'), name: b.getAttribute('aria-label') ?? (b.getAttribute('aria-labelledby') ? document.getElementById(b.getAttribute('aria-labelledby')!)?.textContent : null) };
  }, sel);
  expect(box.modal, o.dialog).toBe('true');
  expect(box.name?.trim(), o.dialog).toBeTruthy();
  await page.waitForTimeout(50);
  await suite.app.screenshot(`${o.shot}-opened`);
  const stops = new Set<string>();
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press('Tab');
    expect(await inside(), `${o.dialog}: Tab ${i + 1} left the dialog for ${await focused(page)}`).toBe(true);
    stops.add(await page.evaluate(() => { const a = document.activeElement as HTMLElement; return a.dataset.testid ?? a.textContent?.trim().slice(0, 20) ?? a.tagName; }));
  }
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Shift+Tab');
    expect(await inside(), `${o.dialog}: Shift+Tab ${i + 1} left the dialog for ${await focused(page)}`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await page.waitForSelector(sel, { state: 'detached' });
  await page.waitForFunction((want) => ((document.activeElement as HTMLElement | null)?.dataset?.testid ?? document.activeElement?.tagName) === want, o.back ?? o.opener ?? 'BODY')
    .catch(async () => expect(await focused(page), `${o.dialog}: focus after Escape`).toBe(o.back ?? o.opener ?? 'BODY'));
  return [...stops];
}

describe('modal dialogs hold the focus and give it back', () => {

  it('Whole Motion, Batch, Video, F1, About, Open and Export VPD take the focus, keep Tab inside and give it back on Escape', async () => {
    const page = suite.app.page;
    await openFresh(page, LAUGH);
    // Through a focused button and Enter (the keyboard user's way), and through the app's keys from the page.
    const whole = await dialogHoldsFocus(page, { opener: 'whole-motion', key: 'Enter', dialog: 'batch-dialog', shot: 'keyboard-only-whole-motion' });
    // The dialog's controls were reached, not one alone.
    expect(whole.length).toBeGreaterThan(3);
    await dialogHoldsFocus(page, { opener: 'cmd-batch', key: 'Enter', dialog: 'batch-dialog', shot: 'keyboard-only-batch' });
    await dialogHoldsFocus(page, { opener: null, key: 'Control+b', dialog: 'batch-dialog', shot: 'keyboard-only-batch-keys' });
    await dialogHoldsFocus(page, { opener: 'cmd-export-video', key: 'Enter', dialog: 'video-dialog', shot: 'keyboard-only-video' });
    const f1 = await dialogHoldsFocus(page, { opener: null, key: 'F1', dialog: 'shortcuts-dialog', shot: 'keyboard-only-f1' });
    // Tab goes round its text (which has the focus first: ↑ ↓ Page Down scroll it) and Close.
    expect(f1.sort()).toEqual(['shortcuts-body', 'shortcuts-close']);
    // About is in the ? menu (Help): its item is gone with the menu, so the focus goes back to ?.
    await page.focus('[data-testid="cmd-help"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="help-menu"]');
    await dialogHoldsFocus(page, { opener: 'cmd-about', key: 'Space', dialog: 'about-dialog', back: 'cmd-help', shot: 'keyboard-only-about' });
    await dialogHoldsFocus(page, { opener: 'cmd-open', key: 'Enter', dialog: 'file-dialog', shot: 'keyboard-only-open' });
    // Export ▾ → Export VPD…: the item is gone with its menu, so the focus goes back to Export ▾.
    await page.focus('[data-testid="cmd-export"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="export-menu"]');
    await dialogHoldsFocus(page, { opener: 'cmd-export-vpd', key: 'Enter', dialog: 'vpd-parts-dialog', back: 'cmd-export', shot: 'keyboard-only-export-vpd' });
    // Opened with the mouse, a dialog gives the keys back to the page (Space then plays, as before), not to About.
    await page.click('[data-testid="cmd-help"]');
    await page.click('[data-testid="cmd-about"]');
    await page.waitForSelector('[data-testid="about-dialog"]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="about-dialog"]', { state: 'detached' });
    expect(await focused(page)).toBe('BODY');
  });
});

describe('F1 read from the keyboard', () => {
  it('the list takes the focus; Page Down and End scroll it to its last rows, Home back; the playhead stays', async () => {
    const page = suite.app.page;
    await openFresh(page, LAUGH);
    await page.setViewportSize({ width: 1366, height: 600 });
    try {
      await seekFrameField(page, 7);
      await blur(page);
      await page.keyboard.press('F1');
      await page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.dataset?.testid === 'shortcuts-body');
      const scroll = () => page.$eval('[data-testid="shortcuts-body"]', (b) => ({ top: b.scrollTop, room: b.scrollHeight - b.clientHeight }));
      const at0 = await scroll();
      // At 600 px high the list does not fit: there is something to scroll to.
      expect(at0.room).toBeGreaterThan(100);
      expect(at0.top).toBe(0);
      await page.keyboard.press('PageDown');
      await page.waitForFunction(() => document.querySelector('[data-testid="shortcuts-body"]')!.scrollTop > 0);
      await page.keyboard.press('End');
      await page.waitForFunction(() => { const b = document.querySelector('[data-testid="shortcuts-body"]')!; return b.scrollTop >= b.scrollHeight - b.clientHeight - 1; });
      await suite.app.screenshot('keyboard-only-f1-scrolled');
      await page.keyboard.press('Home');
      await page.waitForFunction(() => document.querySelector('[data-testid="shortcuts-body"]')!.scrollTop === 0);
      // The keys scrolled the list, not the timeline: the playhead is where it was.
      expect((await page.evaluate(() => window.__vmdEditor!.frame())).frame).toBe(7);
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid="shortcuts-dialog"]', { state: 'detached' });
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });
});

describe('the file dialog’s list with the keyboard', () => {
  it('Tab reaches the list; ↓, typed letters and Enter open a folder and then a file; the Save name box has a name', async () => {
    const page = suite.app.page;
    // A folder with a subfolder and two motions (folders list first, then files by name).
    const root = path.join(suite.tmp.dir, 'pick');
    mkdirSync(path.join(root, 'dance'), { recursive: true });
    copyFileSync(LAUGH, path.join(root, 'dance', 'laugh.vmd'));
    copyFileSync(corpusPath('gene/motion/stand.vmd'), path.join(root, 'dance', 'stand.vmd'));
    copyFileSync(LAUGH, path.join(root, 'after.vmd'));
    await blur(page);
    await page.keyboard.press('Control+o');
    await page.waitForSelector('[data-testid="file-dialog"][data-loaded="true"]');
    await page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.dataset?.testid === 'file-dialog-path');
    await page.keyboard.press('Control+a');
    await page.keyboard.type(root);
    await page.keyboard.press('Enter');
    await page.waitForFunction((r) => document.querySelector('[data-testid="file-dialog"]')?.getAttribute('data-folder') === r, root);
    // Tab from the path field: Go, then the list.
    for (let i = 0; i < 4 && (await focused(page)) !== 'file-dialog-entries'; i++) await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('file-dialog-entries');
    const list = await page.$eval('[data-testid="file-dialog-entries"]', (ul) => ({ role: ul.getAttribute('role'), name: ul.getAttribute('aria-label'), options: [...ul.querySelectorAll('[role="option"]')].map((o) => o.getAttribute('data-name')) }));
    expect(list).toEqual({ role: 'listbox', name: 'Folders and files', options: ['dance', 'after.vmd'] });
    const selectedName = () => page.$eval('[data-testid="file-dialog-entries"]', (ul) => {
      const id = ul.getAttribute('aria-activedescendant');
      const sel = [...ul.querySelectorAll('[aria-selected="true"]')].map((o) => o.getAttribute('data-name'));
      return { sel, active: id ? document.getElementById(id)?.getAttribute('data-name') : null };
    });
    await page.keyboard.press('ArrowDown');
    expect(await selectedName()).toEqual({ sel: ['dance'], active: 'dance' });
    await page.keyboard.press('End');
    expect(await selectedName()).toEqual({ sel: ['after.vmd'], active: 'after.vmd' });
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await page.waitForFunction((r) => document.querySelector('[data-testid="file-dialog"]')?.getAttribute('data-folder') === r, path.join(root, 'dance'));
    expect(await focused(page)).toBe('file-dialog-entries');
    await page.keyboard.type('st');
    expect((await selectedName()).sel).toEqual(['stand.vmd']);
    await suite.app.screenshot('keyboard-only-file-list');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    // (The motion open before has unsaved edits: "Don't Save", as the harness does.)
    await dropUnsavedIfAsked(page, 'stand.vmd');
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('stand.vmd'), null, { timeout: 30_000 });

    // Save As: the name box is named for a screen reader.
    await blur(page);
    await page.keyboard.press('Control+Shift+s');
    await page.waitForSelector('[data-testid="file-dialog-name"]');
    expect(await page.getAttribute('[data-testid="file-dialog-name"]', 'aria-label')).toBe('File name');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
  });
});

/** Where the focus is, by pane: the element's data-testid (or tag and role), and whether its ring shows. */
const focusInfo = (page: Page) => page.evaluate(() => {
  const a = document.activeElement as HTMLElement;
  const pane = ['[data-testid="menu-bar"]', '[data-testid="app-body"] > aside.left', '[data-testid="track-list"]', '[data-testid="curve-editor"]', '[data-testid="key-inspector"]', '[data-testid="preview-pane"]']
    .findIndex((s) => !!document.querySelector(s)?.contains(a));
  return { pane, id: a.dataset.testid ?? a.tagName, role: a.getAttribute('role'), ring: a.matches(':focus-visible') && getComputedStyle(a).outlineStyle !== 'none' };
});

describe('F6 between the panes; the track list and the curve square take the keys', () => {
  it('F6 / Shift+F6 go round menu bar → left panel → tracks → curve → Key panel → preview, from a field too; F1 lists it', async () => {
    const page = suite.app.page;
    await openFresh(page, LAUGH);
    // A bone key selected ([ from frame 7 on the first bone's row): the Key panel has its fields to focus.
    await seekFrameField(page, 7);
    await blur(page);
    for (let i = 0; i < 12 && !(await page.$('[data-testid="track-list"] .row.active[data-testid^="track-bone"]')); i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('[');
    await page.waitForFunction(() => window.__vmdEditor!.selection().active?.kind === 'bone');
    await blur(page);
    const seen: { pane: number; id: string; role: string | null; ring: boolean }[] = [];
    for (let i = 0; i < 7; i++) {
      await page.keyboard.press('F6');
      seen.push(await focusInfo(page));
    }
    expect(seen.map((s) => s.pane)).toEqual([0, 1, 2, 3, 4, 5, 0]);
    expect(seen[1].role).toBe('tab');
    expect(seen[2].id).toBe('track-list');
    expect(seen[3].id).toBe('curve-canvas');
    // Each pane's focus shows its ring.
    for (const s of seen) expect(s.ring, s.id).toBe(true);
    await page.keyboard.press('Shift+F6');
    expect((await focusInfo(page)).pane).toBe(5);
    await page.keyboard.press('Shift+F6');
    expect((await focusInfo(page)).pane).toBe(4);
    // From a text field (the frame field, in no pane): F6 leaves it for the first pane.
    await page.focus('[data-testid="frame-input"]');
    await page.keyboard.press('F6');
    expect((await focusInfo(page)).pane).toBe(0);
    // F1 lists F6.
    await blur(page);
    await page.keyboard.press('F1');
    await page.waitForSelector('[data-testid="shortcuts-dialog"]');
    const f1 = await page.textContent('[data-testid="shortcuts-dialog"]');
    expect(f1).toContain('Next / previous pane: menu bar, left panel, tracks, curve, Key panel, preview');
    expect(f1).toContain('Select handle 1 / 2');
    await page.keyboard.press('Escape');
  });

  it('the track list focused shows its ring; ↓, [, → and Enter work there; the curve square: 1 / 2 pick a handle, arrows nudge it, Esc drops it', async () => {
    const page = suite.app.page;
    await openFresh(page, LAUGH);
    await seekFrameField(page, 7);
    await blur(page);
    // F6 three times: the track list.
    for (let i = 0; i < 3; i++) await page.keyboard.press('F6');
    expect((await focusInfo(page)).id).toBe('track-list');
    for (let i = 0; i < 12 && !(await page.$('[data-testid="track-list"] .row.active[data-testid^="track-bone"]')); i++) await page.keyboard.press('ArrowDown');
    const track = await page.getAttribute('[data-testid="track-list"] .row.active', 'data-testid');
    expect(track).toMatch(/^track-bone:/);
    // [: the key before the playhead (frame 7) on the active track.
    await page.keyboard.press('[');
    await page.waitForFunction(() => window.__vmdEditor!.selection().active?.kind === 'bone');
    await suite.app.screenshot('keyboard-only-track-list-focused');
    expect((await focusInfo(page))).toMatchObject({ id: 'track-list', ring: true });
    // [ took the playhead to that key (frame 0); → three frames on, where the track has no key: Enter inserts one.
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    expect((await page.evaluate(() => window.__vmdEditor!.frame())).frame).toBe(3);
    const keys = (await boneFrames(page)).length;
    const steps = (await page.evaluate(() => window.__vmdEditor!.history())).undo;
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo > n, steps);
    expect((await boneFrames(page)).length).toBe(keys + 1);
    await page.keyboard.press('Control+z');
    expect((await boneFrames(page)).length).toBe(keys);
    await page.keyboard.press('[');
    await page.waitForSelector('[data-testid="curve-x1"]:not([disabled])');

    // F6: the curve square. 1 picks handle 1: the arrows move it (one undo step each), the hint says so.
    await page.keyboard.press('F6');
    expect((await focusInfo(page))).toMatchObject({ id: 'curve-canvas', ring: true });
    const field = async (f: string) => Number(await page.inputValue(`[data-testid="curve-${f}"]`));
    const before = { x1: await field('x1'), y1: await field('y1'), x2: await field('x2'), y2: await field('y2') };
    const frame = (await page.evaluate(() => window.__vmdEditor!.frame())).frame;
    await page.keyboard.press('1');
    await page.waitForSelector('[data-testid="curve-handle-hint"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((x) => Number((document.querySelector('[data-testid="curve-x1"]') as HTMLInputElement).value) !== x, before.x1);
    expect(await field('x1')).toBe(Math.min(127, before.x1 + 1));
    // 2 picks handle 2: ↓ moves its y.
    await page.keyboard.press('2');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((y) => Number((document.querySelector('[data-testid="curve-y2"]') as HTMLInputElement).value) !== y, before.y2);
    expect(await field('y2')).toBe(Math.max(0, before.y2 - 1));
    expect(await field('x2')).toBe(before.x2);
    expect(await field('y1')).toBe(before.y1);
    await suite.app.screenshot('keyboard-only-curve-handle');
    // The frame did not move (the arrows were the handle's).
    expect((await page.evaluate(() => window.__vmdEditor!.frame())).frame).toBe(frame);
    // Esc drops the handle: → steps the playhead again.
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="curve-handle-hint"]', { state: 'detached' });
    await page.keyboard.press('ArrowRight');
    expect((await page.evaluate(() => window.__vmdEditor!.frame())).frame).toBe(frame + 1);
    // Enter with the curve square focused inserts a key (the pane is the editor's, not a button).
    const now = (await boneFrames(page)).length;
    const undoNow = (await page.evaluate(() => window.__vmdEditor!.history())).undo;
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo > n, undoNow);
    expect((await boneFrames(page)).length).toBe(now + 1);
  });
});
