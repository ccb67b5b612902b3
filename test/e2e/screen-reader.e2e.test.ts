/**
 * What a screen reader is told, end to end in Chromium (the nua11y pass: keyboard only, a screen reader, large
 * text), with Gene_light.pmx in the preview and 02_laugh.vmd open, in English and Japanese:
 * - every button on screen has a name in words (its text, or an aria-label): no button is named by a glyph
 *   alone (⌨ ? ▶ − + ⤢ ⤡◆ ⇥ ◉ ✕ ⤡ ×N… ⟲ were read as "keyboard", "question mark", "black right-pointing
 *   triangle"…); the controls that had no tooltip have one;
 * - the track list is a tree whose active row is selected; the Key and Curve panes are headings;
 * - an inserted key, its undo and redo are said in the live region;
 * - the curve channel tabs say which one is shown.
 * The tests run in order on the app the first one opens (run the file, not one test of it); the first one's checks
 * are soft, so a failure there still leaves the files open for the others.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, dismissNotices, showModelThroughDialog } from './harness';
import { openFresh, seekFrameField } from './editor-page';

const GENE = corpusPath('gene/Gene_light.pmx');
const LAUGH = corpusPath('gene/motion/02_laugh.vmd');

const setLocale = (page: Page, locale: 'en' | 'ja') => page.selectOption('[data-testid="locale"]', locale);

/**
 * Buttons (and tabs) on screen whose name is no word: the name is what a screen reader reads (aria-labelledby's
 * text, else aria-label, else the text); it fails when, less its symbols, it is shorter than two letters or
 * digits and it had symbols ("▶", "⤡◆", "×N…"; a lone letter such as the channel tab "X" is a word).
 */
function unnamedButtons(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('button, [role="button"], [role="tab"]')) {
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
      const by = el.getAttribute('aria-labelledby');
      const name = (by ? by.split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ') : el.getAttribute('aria-label') ?? el.innerText ?? '').trim();
      const words = name.replace(/[^\p{L}\p{N}]/gu, '');
      const symbols = name.replace(/[\p{L}\p{N}\s]/gu, '');
      if (!name || (words.length < 2 && symbols.length > 0)) out.push(`${el.dataset.testid ?? el.className}: "${name}"`);
    }
    return out;
  });
}

/**
 * Contrast ratio (WCAG 2: relative luminance of sRGB, (L1 + 0.05) / (L2 + 0.05)) of each element's text colour
 * against the first opaque background behind it, in the page.
 */
function contrasts(page: Page, selectors: string[]): Promise<[string, number][]> {
  return page.evaluate((sels) => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lum = ([r, g, b]: number[]) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    return sels.map((sel) => {
      const el = document.querySelector(sel) as HTMLElement | null;
      if (!el) return [sel, -1] as [string, number];
      let bg: number[] = [];
      for (let e: HTMLElement | null = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.length === 3 || (c.length === 4 && c[3] === 1)) {
          bg = c.slice(0, 3);
          break;
        }
      }
      const a = lum(rgb(getComputedStyle(el).color)), b = lum(bg);
      return [sel, Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100] as [string, number];
    });
  }, selectors);
}

describe('what a screen reader is told', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 900 } });

  it('every button on screen is named in words, in English and Japanese', async () => {
    const { page } = s.app;
    expect.soft(await unnamedButtons(page)).toEqual([]);
    await showModelThroughDialog(page, GENE, 'ジェネ / Gene');
    await openFresh(page, LAUGH);
    await dismissNotices(page);
    // Nothing selected yet: "No key selected" reads at AA (4.48:1 before).
    for (const [sel, ratio] of await contrasts(page, ['[data-testid="key-inspector"] .empty'])) expect.soft(ratio, sel).toBeGreaterThanOrEqual(4.5);
    // A key selected: the curve pane's controls, ⤡◆ and the loop segment ⟲ show.
    // 上半身 has keys after frame 0 (its next key is 15).
    await page.click('[data-testid="track-list"] .row.track:has(.name:text-is("上半身"))');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press(']');
    await page.waitForFunction(() => window.__vmdEditor!.selectedCount() === 1);
    expect.soft(await unnamedButtons(page)).toEqual([]);
    await setLocale(page, 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="cmd-open"]')?.textContent?.includes('開く'));
    expect.soft(await unnamedButtons(page)).toEqual([]);
    await setLocale(page, 'en');
  });

  it('the controls that had no tooltip have one, in both languages: Model…, Open Recent, Loop, the left tabs, x1 y1 x2 y2', async () => {
    const { page } = s.app;
    const tips = () =>
      page.evaluate(() => {
        const el = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;
        const own = ['cmd-recent', 'preview-open-model', 'side-tab-file', 'side-tab-bones', 'side-tab-morphs', 'side-tab-stage'].map((id) => [id, el(id).title] as const);
        const loop = ['preview-loop', (el('preview-loop').closest('label') as HTMLElement).title] as const;
        const fields = ['x1', 'y1', 'x2', 'y2'].map((f) => [`curve-${f}`, (el(`curve-${f}`).closest('label') as HTMLElement).title, el(`curve-${f}`).getAttribute('aria-label') ?? ''] as const);
        return { tips: [...own, loop, ...fields.map(([id, title]) => [id, title] as const)], fieldNames: fields.map(([, , name]) => name) };
      });
    const en = await tips();
    for (const [id, title] of en.tips) expect(title, id).toMatch(/\p{L}{3}/u);
    // The fields say what they are in words, the letters kept (the handle's x is time, its y the value).
    expect(en.fieldNames).toEqual([
      'x1: when the first handle pulls (0–127, left to right)',
      'y1: how far the first handle pulls (0–127, bottom to top)',
      'x2: when the second handle pulls (0–127, left to right)',
      'y2: how far the second handle pulls (0–127, bottom to top)',
    ]);
    await setLocale(page, 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="cmd-open"]')?.textContent?.includes('開く'));
    const ja = await tips();
    for (const [id, title] of ja.tips) expect(title, id).toMatch(/[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u);
    await setLocale(page, 'en');
    await page.waitForFunction(() => document.querySelector('[data-testid="cmd-open"]')?.textContent?.includes('Open'));
  });

  it('the track list is a tree whose active row is selected and current; the Key and Curve panes are headings', async () => {
    const { page } = s.app;
    const r = await page.evaluate(() => {
      const tree = document.querySelector('[data-testid="track-list"] [role="tree"]');
      const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="track-list"] .row')];
      const active = rows.filter((e) => e.classList.contains('active'));
      return {
        tree: tree?.getAttribute('aria-label') ?? null,
        items: rows.every((e) => e.getAttribute('role') === 'treeitem'),
        active: active.map((e) => [e.getAttribute('aria-selected'), e.getAttribute('aria-current')]),
        otherSelected: rows.filter((e) => !e.classList.contains('active') && e.getAttribute('aria-selected') === 'true').length,
        groupsExpandable: rows.filter((e) => e.classList.contains('group')).every((e) => e.getAttribute('aria-level') === '1' && e.hasAttribute('aria-expanded')),
        headings: [...document.querySelectorAll('h2')].map((h) => h.getAttribute('aria-label') ?? h.textContent!.trim()),
      };
    });
    expect(r.tree).toBe('Tracks');
    expect(r.items).toBe(true);
    expect(r.active).toEqual([['true', 'true']]);
    expect(r.otherSelected).toBe(0);
    expect(r.groupsExpandable).toBe(true);
    expect(r.headings.some((h) => h.startsWith('Key'))).toBe(true);
    expect(r.headings).toContain('Interpolation curve');
  });

  it('an inserted key, its undo and its redo are said in the polite live region', async () => {
    const { page } = s.app;
    const said = () => page.textContent('[data-testid="announcer"]').then((x) => (x ?? '').trim());
    expect(await page.getAttribute('[data-testid="announcer"]', 'aria-live')).toBe('polite');
    const undo0 = (await page.evaluate(() => window.__vmdEditor!.history())).undo;
    await page.keyboard.press('Escape');
    await seekFrameField(page, 7);
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, undo0);
    await page.waitForFunction(() => /^Done: register key \(.*02_laugh\.vmd\)\. Key .+, frame 7$/.test(document.querySelector('[data-testid="announcer"]')!.textContent!.trim()));
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => document.querySelector('[data-testid="announcer"]')!.textContent!.trim().startsWith('Undo: register key'));
    await page.keyboard.press('Control+y');
    await page.waitForFunction(() => document.querySelector('[data-testid="announcer"]')!.textContent!.trim().startsWith('Redo: register key'));
    expect(await said()).toMatch(/, frame 7$/);
    await page.keyboard.press('Control+z');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n, undo0);
  });

  it('the curve channel tabs say which is shown; under forced colours it and the open left tab still stand out', async () => {
    const { page } = s.app;
    const tabs = () => page.$$eval('[data-testid="curve-editor"] [role="tab"]', (es) => es.map((e) => e.getAttribute('aria-selected')));
    expect(await page.getAttribute('[data-testid="curve-editor"] [role="tablist"]', 'aria-label')).toBe('Curve channel');
    // A bone key shows its rotation's curve first: one tab, and only one, is the shown one.
    expect(await tabs()).toEqual(['false', 'false', 'false', 'true']);
    await page.click('[data-testid="curve-channel-y"]');
    expect(await tabs()).toEqual(['false', 'true', 'false', 'false']);
    await page.emulateMedia({ forcedColors: 'active' });
    const looks = await page.evaluate(() => {
      const look = (id: string) => {
        const cs = getComputedStyle(document.querySelector(`[data-testid="${id}"]`)!);
        return `${cs.backgroundColor} ${cs.color}`;
      };
      return { on: look('curve-channel-y'), off: look('curve-channel-x'), fileOn: look('side-tab-file'), bonesOff: look('side-tab-bones') };
    });
    await s.app.screenshot('screen-reader-forced-colors');
    await page.emulateMedia({ forcedColors: 'none' });
    expect(looks.on).not.toBe(looks.off);
    expect(looks.fileOn).not.toBe(looks.bonesOff);
    await page.click('[data-testid="curve-channel-x"]');
  });

  it('small secondary text reads at AA 4.5:1: key counts (on a group, a track and the active row), the TRACKS count, the frame total, the tab\'s file name', async () => {
    const { page } = s.app;
    const got = await contrasts(page, [
      '[data-testid="track-list"] .head .count',
      '[data-testid="track-list"] .row.group .keys',
      '[data-testid="track-list"] .row.track:not(.active) .keys',
      '[data-testid="track-list"] .row.active .keys',
      '[data-testid="editor-area"] .of',
      '[data-testid="scene-tab"] .file',
    ]);
    for (const [sel, ratio] of got) expect(ratio, sel).toBeGreaterThanOrEqual(4.5);
  });

  it('the focus ring is 2 px and apart from the control; on a primary button (accent border) it is another colour', async () => {
    const { page } = s.app;
    await page.focus('[data-testid="cmd-new-motion"]');
    await page.keyboard.press('Tab');
    const ring = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const look = () => {
        const cs = getComputedStyle(el);
        return { id: el.dataset.testid, width: cs.outlineWidth, offset: cs.outlineOffset, style: cs.outlineStyle, color: cs.outlineColor, border: cs.borderTopColor };
      };
      const plain = look();
      el.classList.add('primary');
      const primary = look();
      el.classList.remove('primary');
      return { plain, primary };
    });
    expect(ring.plain).toMatchObject({ id: 'cmd-open', width: '2px', offset: '2px', style: 'solid' });
    expect(ring.primary.width).toBe('2px');
    expect(ring.primary.color).not.toBe(ring.primary.border);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  });

  it('at 1280×720 the selection readout is not cut by the preview pane: whole, or ending in … with the whole in its tooltip', async () => {
    const { page } = s.app;
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.keyboard.press(']');
    await page.waitForFunction(() => window.__vmdEditor!.selectedCount() === 1);
    const r = await page.evaluate(() => {
      const el = document.querySelector('[data-testid="selection-count"]') as HTMLElement;
      const ed = document.querySelector('[data-testid="editor-area"]')!.getBoundingClientRect();
      const cs = getComputedStyle(el);
      return { right: el.getBoundingClientRect().right, edRight: ed.right, cut: el.scrollWidth > el.clientWidth, ellipsis: cs.textOverflow, title: el.title, text: el.textContent };
    });
    await page.setViewportSize({ width: 1600, height: 900 });
    expect(r.text).toBe('1 selected');
    expect(r.right).toBeLessThanOrEqual(r.edRight + 0.5);
    if (r.cut) expect([r.ellipsis, r.title]).toEqual(['ellipsis', '1 selected']);
  });
});
