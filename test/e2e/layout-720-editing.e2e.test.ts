/**
 * 1280×720 in English and Japanese while editing (new-user pass): the Mirror ▾ (反転) menu was cut off by the
 * preview beside the editor (このフレームのポーズを左右反転 truncated, its keys hidden); the curve pane lost its
 * title (補間曲線) and, with many keys selected, the Paste on boxes were below the fold of a scrolling column;
 * with a camera key selected, Overlay and Link were cut to 重ね表 and 連. Boxes are read from the real layout
 * in Chromium; a screenshot of each state goes to test-artifacts/ (layout-720-*).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { corpusPath, openApp, openFileViaDialog, showModelThroughDialog, type AppHandle } from './harness';
import { keyPoint } from './editor-page';

const WAVEFILE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const CAMERA_FILE = corpusPath('threejs/vmds/wavefile_camera.vmd');
const GENE = corpusPath('gene/Gene_light.pmx');

const settle = (page: Page) => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

/** What of the curve pane is cut or out of reach: header labels (title included), controls outside it, columns that scroll. */
async function curvePaneProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const host = document.querySelector('[data-testid="curve-editor"]') as HTMLElement;
    const hb = host.getBoundingClientRect();
    const header = host.querySelector('header') as HTMLElement;
    const out: string[] = [];
    const title = header.querySelector('.title') as HTMLElement;
    if (!title || title.getBoundingClientRect().width < 20) out.push('no title');
    for (const el of header.querySelectorAll('.title, button, label')) {
      const e = el as HTMLElement;
      const r = e.getBoundingClientRect(), h = header.getBoundingClientRect();
      if (e.scrollWidth > e.clientWidth + 0.5 || r.right > h.right + 0.5 || r.bottom > h.bottom + 0.5) out.push(`header: ${e.textContent!.trim()} cut`);
    }
    for (const el of host.querySelectorAll('button, input, select')) {
      const e = el as HTMLElement;
      const b = e.getBoundingClientRect();
      if (!b.width && !b.height) continue;
      if (b.bottom > hb.bottom + 0.5 || b.right > hb.right + 0.5) out.push(`${e.dataset.testid ?? e.tagName} outside`);
    }
    for (const el of [host, ...host.querySelectorAll('*')] as HTMLElement[]) {
      const s = getComputedStyle(el);
      if ((s.overflowY === 'auto' || s.overflowY === 'scroll') && el.scrollHeight > el.clientHeight + 1) out.push(`${el.className} scrolls ${el.scrollHeight}>${el.clientHeight}`);
    }
    return out;
  });
}

/** The Mirror menu open: its items inside the window and on top (not under the preview), each label and key whole. */
async function mirrorMenuProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const menu = document.querySelector('[data-testid="mirror-menu-items"]') as HTMLElement;
    if (!menu) return ['no menu'];
    for (const item of menu.querySelectorAll('button')) {
      const b = item.getBoundingClientRect();
      if (b.right > window.innerWidth || b.bottom > window.innerHeight || b.left < 0) out.push(`${item.textContent} outside the window`);
      // The element at the item's label and at its key is the item (nothing paints over it).
      for (const part of item.querySelectorAll('span, kbd')) {
        const r = (part as HTMLElement).getBoundingClientRect();
        if ((part as HTMLElement).scrollWidth > (part as HTMLElement).clientWidth + 0.5) out.push(`${part.textContent} cut`);
        for (const x of [r.left + 2, r.right - 2]) {
          const hit = document.elementFromPoint(x, r.top + r.height / 2);
          if (!hit || !item.contains(hit)) out.push(`${part.textContent} covered at x=${Math.round(x)}`);
        }
      }
    }
    return out;
  });
}

describe('1280×720 while editing', () => {
  let app: AppHandle | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('the Mirror menu over the preview, the curve pane whole with many keys and with a camera key, in English and Japanese', async () => {
    app = await openApp({ viewport: { width: 1280, height: 720 } });
    const { page } = app;
    await openFileViaDialog(page, WAVEFILE);
    // Every key of the first bone track shown (the "applies to n keys" line shows), Rotation shown, a curve copied.
    const track = await page.evaluate(() => document.querySelector('[data-testid^="track-bone:"]')?.getAttribute('data-testid'));
    expect(track).toBeTruthy();
    await page.dblclick(`[data-testid="${track}"]`);
    await page.waitForSelector('[data-testid="curve-x1"]');
    await page.click('[data-testid="curve-channel-r"]');
    await page.click('[data-testid="curve-copy"]');
    for (const locale of ['en', 'ja']) {
      await page.selectOption('[data-testid="locale"]', locale);
      await settle(page);
      expect.soft(await curvePaneProblems(page), `${locale} bone keys`).toEqual([]);
      await page.click('[data-testid="mirror-menu"]');
      await page.waitForSelector('[data-testid="mirror-menu-items"]');
      await settle(page);
      await app.screenshot(`layout-720-mirror-${locale}`);
      expect.soft(await mirrorMenuProblems(page), `${locale} mirror menu`).toEqual([]);
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid="mirror-menu-items"]', { state: 'detached' });
      await app.screenshot(`layout-720-curve-${locale}`);
    }

    // A camera key: six channel tabs beside the title, Overlay and Link.
    await openFileViaDialog(page, CAMERA_FILE);
    const kp = await keyPoint(page, 'track-camera', 0);
    await page.mouse.click(kp.x, kp.y);
    await page.waitForSelector('[data-testid="curve-channel-v"]');
    for (const locale of ['en', 'ja']) {
      await page.selectOption('[data-testid="locale"]', locale);
      await settle(page);
      expect.soft(await curvePaneProblems(page), `${locale} camera key`).toEqual([]);
      await app.screenshot(`layout-720-camera-${locale}`);
    }
    expect(app.errors).toEqual([]);
  });

  it('morph names show their start (ウィンク右 was ィンク右), wrap onto two lines, cut only at the end with …, whole in the title', async () => {
    app = await openApp({ viewport: { width: 1280, height: 720 } });
    const { page } = app;
    await showModelThroughDialog(page, GENE, 'ジェネ / Gene');
    await openFileViaDialog(page, WAVEFILE);
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.click('[data-testid="side-tab-morphs"]');
    await page.click('[data-testid="morph-group-eyes"]');
    await page.waitForSelector('[data-testid="morph-row"][data-morph="ウィンク右"]');
    await settle(page);
    await app.screenshot('layout-720-morphs-ja');
    // Narrower than the reporter's column (a classic scrollbar beside the list took its room): the longest names
    // must be cut there (past two lines), and every name still shows its start.
    await page.addStyleTag({ content: '[data-testid="morph-panel"] .list { width: 140px; overflow-y: scroll; }' });
    await settle(page);
    await app.screenshot('layout-720-morphs-narrow-ja');
    // Names wrap onto a second line and are cut only at their end past it (line-clamp's …), whole in the title
    // (the model maker's pass: one line cut in the middle read "eye_s… ise_geo_L").
    const bad = await page.evaluate(() => {
      const out: string[] = [];
      let clamped = 0;
      for (const row of document.querySelectorAll('[data-testid="morph-row"]')) {
        const name = (row as HTMLElement).dataset.morph!;
        const box = row.querySelector('[data-testid="morph-name"]') as HTMLElement;
        const cs = getComputedStyle(box);
        if (box.title !== name) out.push(`${name}: title ${box.title}`);
        // The whole name is the text, so what shows is its start (wrapping begins there).
        if (box.textContent !== name) out.push(`${name}: text ${box.textContent}`);
        const em = parseFloat(cs.fontSize), lh = parseFloat(cs.lineHeight);
        if (box.clientWidth < 1.5 * em) out.push(`${name}: start hidden (${box.clientWidth}px wide)`);
        if (box.clientHeight > 2 * lh + 1) out.push(`${name}: ${box.clientHeight}px tall, over two lines`);
        if (box.scrollHeight > box.clientHeight + 1) {
          clamped++;
          if (cs.webkitLineClamp !== '2') out.push(`${name}: cut without …`);
        }
      }
      if (clamped === 0) out.push('no name long enough to be cut at this width: the check of the cut saw nothing');
      return out;
    });
    expect(bad).toEqual([]);
    expect(app.errors).toEqual([]);
  });
});
