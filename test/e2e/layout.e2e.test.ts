/**
 * The editor on small windows (1366×677, 1280×621 at 150 %, 1024×700: maximised and un-maximised laptop windows):
 * nothing past the window's edges and no page scrolling; the timeline's lower border, a layout fitted to a smaller
 * window after a reload, ? → Reset layout, the preview's views menu closing.
 * The editor on common window sizes (1280×720, 1366×768, 1600×900, 1920×1080), in English and Japanese:
 * no pane paints over another, the editor toolbar keeps its buttons whole, the curve fields show three
 * digits, the top bar stays one line and the curve pane's switches keep their labels; and at 1366×768,
 * 1600×900 and 1920×1080 every control of the curve pane and the key inspector is reachable without
 * scrolling (with several keys selected), the camera key's channel header fits, and the preview toolbar
 * stays one line with a model loaded. Boxes are read from the real layout in Chromium; a screenshot per
 * size and language (Japanese bone names rendered with the bundled font) goes to test-artifacts/.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, fileDialogReady, openApp, openFileViaDialog, textFits, type AppHandle } from './harness';
import { keyPoint } from './editor-page';

const WAVEFILE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const CAMERA_FILE = corpusPath('threejs/vmds/wavefile_camera.vmd');
const GENE = corpusPath('gene/Gene_light.pmx');
const LOW_MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
const MORTIFYING = corpusPath('gene/motion/26_mortifying.vmd');

async function box(page: Page, testId: string) {
  const b = await page.locator(`[data-testid="${testId}"]`).first().boundingBox();
  if (!b) throw new Error(`${testId} not laid out`);
  return b;
}

const settle = (page: Page) => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

async function setLocale(page: Page, locale: string) {
  await page.selectOption('[data-testid="locale"]', locale);
  await settle(page);
}

/** The top bar fits in one line: nothing scrolls out, no button wraps its label. */
async function expectTopBarOneLine(page: Page, locale: string) {
  const bar = await page.evaluate(() => {
    const m = document.querySelector('[data-testid="menu-bar"]') as HTMLElement;
    const buttons = [...m.querySelectorAll(':scope > button, :scope > .dropdown > button')] as HTMLElement[];
    const line = parseFloat(getComputedStyle(buttons[0]).lineHeight) || 18;
    return { overflow: m.scrollWidth - m.clientWidth, tallest: Math.max(...buttons.map((b) => b.clientHeight)), line };
  });
  expect(bar.overflow, `${locale}: menu bar overflow`).toBeLessThanOrEqual(0);
  expect(bar.tallest, `${locale}: a button wrapped its label`).toBeLessThan(bar.line * 2);
}

/** Labels of the curve pane's header (channel tabs, Overlay, Link) are whole. */
async function expectCurveHeaderWhole(page: Page, what: string) {
  const cut = await page.evaluate(() => {
    const header = document.querySelector('[data-testid="curve-editor"] header') as HTMLElement;
    const out: string[] = [];
    for (const el of header.querySelectorAll('button, label')) {
      const e = el as HTMLElement;
      const r = e.getBoundingClientRect(), h = header.getBoundingClientRect();
      if (e.scrollWidth > e.clientWidth + 0.5 || r.right > h.right + 0.5 || e.clientWidth < 8) out.push(e.textContent!.trim() || e.outerHTML.slice(0, 60));
    }
    return out;
  });
  expect.soft(cut, `${what}: cut labels in the curve header`).toEqual([]);
}

/**
 * Every control (button, input, select, label) of `host` lies inside its visible box and no part of it
 * scrolls: scrollHeight of every scrolling box within is its clientHeight.
 */
async function expectAllReachable(page: Page, testId: string, what: string) {
  const r = await page.evaluate((id) => {
    const host = document.querySelector(`[data-testid="${id}"]`) as HTMLElement;
    const hb = host.getBoundingClientRect();
    const outside: string[] = [];
    for (const el of host.querySelectorAll('button, input, select, textarea')) {
      const e = el as HTMLElement;
      const b = e.getBoundingClientRect();
      if (!b.width && !b.height) continue; // not rendered (v-if'd parts are absent anyway)
      if (b.bottom > hb.bottom + 0.5 || b.right > hb.right + 0.5 || b.top < hb.top - 0.5 || b.left < hb.left - 0.5) {
        outside.push(`${e.dataset.testid ?? e.tagName.toLowerCase()} (${e.textContent?.trim().slice(0, 24) ?? ''}) at ${Math.round(b.bottom)} > ${Math.round(hb.bottom)}`);
      }
    }
    const scrolling: string[] = [];
    for (const el of [host, ...host.querySelectorAll('*')] as HTMLElement[]) {
      const s = getComputedStyle(el);
      if ((s.overflowY === 'auto' || s.overflowY === 'scroll') && el.scrollHeight > el.clientHeight + 1) scrolling.push(`${el.className} ${el.scrollHeight}>${el.clientHeight}`);
    }
    return { outside, scrolling };
  }, testId);
  expect.soft(r.outside, `${what}: controls outside ${testId}`).toEqual([]);
  expect.soft(r.scrolling, `${what}: boxes that need scrolling in ${testId}`).toEqual([]);
}

/** The editor toolbar: every control whole and inside the bar (nothing cut to an ellipsis). */
async function expectEditorToolbarWhole(page: Page, what: string) {
  const cut = await page.evaluate(() => {
    const bar = document.querySelector('[data-testid="editor-area"] .toolbar') as HTMLElement;
    const hb = bar.getBoundingClientRect();
    const out: string[] = [];
    for (const el of bar.querySelectorAll('button, select, input, .selcount')) {
      const e = el as HTMLElement;
      const b = e.getBoundingClientRect();
      if (b.right > hb.right + 0.5 || e.scrollWidth > e.clientWidth + 1 || b.width < 10) out.push(`${e.dataset.testid ?? e.tagName} "${e.textContent?.trim()}"`);
    }
    return out;
  });
  expect.soft(cut, `${what}: cut editor toolbar controls`).toEqual([]);
}

/**
 * The preview's header row: one line, inside the bar, and no control's label cut (scrollWidth ≤ clientWidth
 * for every button, label and text in it). The model name alone may give way, to an ellipsis with the full
 * name as its tooltip, but keeps room for a few characters.
 */
async function expectPreviewHeaderWhole(page: Page, what: string) {
  const r = await page.evaluate(() => {
    const bar = document.querySelector('[data-testid="preview-pane"] header.bar') as HTMLElement;
    const hb = bar.getBoundingClientRect();
    const items = [...bar.querySelectorAll('button, label, span, select')] as HTMLElement[];
    const shown = items.filter((e) => e.getBoundingClientRect().width > 0 && !e.classList.contains('spacer'));
    const name = bar.querySelector('[data-testid="preview-model-name"]') as HTMLElement;
    const cut: string[] = [];
    for (const e of shown) {
      if (e === name || name.contains(e)) continue;
      const b = e.getBoundingClientRect();
      if (e.scrollWidth > e.clientWidth + 0.5 || b.right > hb.right + 0.5 || b.left < hb.left - 0.5) cut.push(`${e.dataset.testid ?? e.tagName.toLowerCase()} "${e.textContent?.trim()}" ${e.scrollWidth}>${e.clientWidth}`);
    }
    const tops = [...bar.children].map((c) => (c as HTMLElement).getBoundingClientRect()).filter((b) => b.width > 0).map((b) => b.top + b.height / 2);
    const fontPx = parseFloat(getComputedStyle(name).fontSize);
    return { cut, spread: Math.max(...tops) - Math.min(...tops), overflow: bar.scrollWidth - bar.clientWidth, nameEms: name.clientWidth / fontPx, nameTitle: name.title, nameText: name.textContent?.trim() ?? '' };
  });
  expect.soft(r.cut, `${what}: cut labels in the preview header`).toEqual([]);
  expect.soft(r.spread, `${what}: preview toolbar wrapped`).toBeLessThan(6);
  expect.soft(r.overflow, `${what}: preview toolbar overflows`).toBeLessThanOrEqual(0);
  expect.soft(r.nameEms, `${what}: room left for the model name`).toBeGreaterThanOrEqual(4);
  expect.soft(r.nameTitle, `${what}: the model name's tooltip names it whole`).toContain(r.nameText);
}

/** Two boxes of the page (by selector) share no pixel. */
async function expectApart(page: Page, a: string, b: string, what: string) {
  const ba = await page.locator(a).first().boundingBox(), bb = await page.locator(b).first().boundingBox();
  expect(ba, `${what}: ${a} shown`).toBeTruthy();
  expect(bb, `${what}: ${b} shown`).toBeTruthy();
  const overlap = ba!.x < bb!.x + bb!.width && bb!.x < ba!.x + ba!.width && ba!.y < bb!.y + bb!.height && bb!.y < ba!.y + ba!.height;
  expect(overlap, `${what}: ${a} ${JSON.stringify(ba)} overlaps ${b} ${JSON.stringify(bb)}`).toBe(false);
}

/** Opens gene's stand.vmd and clicks its second bone's key at frame 30, so the curve pane and inspector fill. */
async function openStandWithKey(page: Page) {
  await openFileViaDialog(page, corpusPath('gene/motion/stand.vmd'));
  const kp = await keyPoint(page, 'track-bone:1', 30);
  await page.mouse.click(kp.x, kp.y);
  await page.waitForSelector('[data-testid="curve-x1"]');
}

/**
 * The lines `testId`'s text takes in the layout, as the text of each (characters grouped by the top of their box;
 * a <wbr> adds none).
 */
async function textLines(page: Page, testId: string): Promise<string[]> {
  return page.evaluate((id) => {
    const el = document.querySelector(`[data-testid="${id}"]`)!;
    const lines = new Map<number, string>();
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode() as Text | null; n; n = walk.nextNode() as Text | null) {
      for (let i = 0; i < n.data.length; i++) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        const b = [...r.getClientRects()].find((x) => x.width > 0);
        if (!b) continue;
        const top = Math.round(b.top + b.height / 2);
        const at = [...lines.keys()].find((t) => Math.abs(t - top) < 4) ?? top;
        lines.set(at, (lines.get(at) ?? '') + n.data[i]);
      }
    }
    return [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t.trim());
  }, testId);
}

/**
 * Gene_light in the preview, loaded through Model… unless the preview shows her already (the tests of one window
 * size share an app: the first loads her, the others find her there).
 */
async function showGene(page: Page) {
  if (await page.evaluate(() => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes('ジェネ'))) return;
  await page.click('[data-testid="preview-open-model"]');
  await fileDialogReady(page);
  await page.fill('[data-testid="file-dialog-path"]', GENE);
  await page.click('[data-testid="file-dialog-go"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes('ジェネ'), null, { timeout: 60_000 });
}

/** Gene in the preview, 26_mortifying.vmd on it, and wavefile_camera.vmd opened as the scene's camera (its tab shown). */
async function openGeneWithCamera(page: Page, beforeCamera?: () => Promise<void>) {
  await showGene(page);
  await openFileViaDialog(page, MORTIFYING);
  await beforeCamera?.();
  await page.click('[data-testid="cmd-open"]');
  await fileDialogReady(page);
  await page.fill('[data-testid="file-dialog-path"]', CAMERA_FILE);
  await page.click('[data-testid="file-dialog-go"]');
  await page.click('[data-testid="confirm-camera"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('wavefile_camera.vmd'));
  await settle(page);
}

/** The three small windows of new-user pass nulaptop: a size, its display scaling and the browser's language. */
interface SmallWindow {
  width: number;
  height: number;
  scale: number;
  locale: string;
}

/**
 * The windows of new-user pass nulaptop (findings 1–3): a maximised window on a 1366×768 laptop (1366×677 CSS px
 * once the taskbar, title bar and menu bar are off), on a 1920×1080 screen at 150 % (1280×621), and an
 * un-maximised 1024×700 one. Before, the page kept a 1280×720 layout: the status bar, the preview's switches and
 * the Paste on boxes were under the window's bottom edge, and at 1024 the preview, language, ⌨ and ? past its
 * right edge.
 */
async function smallWindowFits(app: AppHandle, { width, height, scale, locale }: SmallWindow) {
  const { page } = app;
  const what = `${width}×${height}@${scale} ${locale}`;
  await showGene(page);
  await openStandWithKey(page);
  // An edit, so the status bar says there are unsaved changes (the marker the user looks for).
  await page.click('[data-testid="delete-keys"]');
  await page.waitForSelector('[data-testid="status-state"].dirty');
  await settle(page);
  const page0 = await page.evaluate(() => ({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight }));
  expect(page0, `${what}: the page is the window's size`).toEqual({ w: width, h: height });
  const ids = [
    'status-state', 'cmd-help', 'cmd-shortcuts', 'locale', 'cmd-undo', 'whole-motion',
    'preview-play', 'preview-self-shadow', 'preview-bones', 'preview-ghost', 'preview-outline', 'preview-look-through', 'preview-scrub', 'preview-full', 'preview-view-more',
    'paste-ch-x', 'paste-ch-r', 'curve-apply-all', 'preset-save', 'curve-x1', 'key-inspector',
    'zoom-fit', 'play', 'frame-input', 'splitter-left', 'splitter-right', 'splitter-bottom',
  ];
  const outside: string[] = [];
  for (const id of ids) {
    const b = await box(page, id);
    if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > width + 0.5 || b.y + b.height > height + 0.5 || b.width < 1) outside.push(`${id} ${JSON.stringify(b)}`);
  }
  expect.soft(outside, `${what}: controls outside the window`).toEqual([]);
  // The top bar: every button inside the window (wrapped to a second line where it must), none cut.
  const bar = await page.evaluate(() => {
    const m = document.querySelector('[data-testid="menu-bar"]') as HTMLElement;
    return [...m.querySelectorAll('button, select')].filter((e) => {
      const b = e.getBoundingClientRect();
      return b.right > innerWidth + 0.5 || b.bottom > m.getBoundingClientRect().bottom + 0.5 || e.scrollWidth > e.clientWidth + 1;
    }).map((e) => (e as HTMLElement).dataset.testid ?? e.textContent);
  });
  expect.soft(bar, `${what}: top bar controls cut or outside`).toEqual([]);
  // The panes side by side, the editor between them wide enough for its toolbar.
  const left = await page.locator('aside.left').boundingBox(), right = await page.locator('aside.right').boundingBox();
  expect(left!.width, `${what}: left pane`).toBeGreaterThanOrEqual(160 - 0.5);
  expect(right!.width, `${what}: preview`).toBeGreaterThanOrEqual(240 - 0.5);
  expect(right!.x + right!.width, `${what}: preview's right edge`).toBeLessThanOrEqual(width + 0.5);
  await expectEditorToolbarWhole(page, what);
  await expectAllReachable(page, 'curve-editor', what);
  await app.screenshot(`layout-${width}x${height}@${scale}-${locale}`);
  expect(app.errors).toEqual([]);
}

/**
 * New-user pass nulaptop 7: the File panel broke names at the last letter that fitted ("wavefile_camer" / "a.vmd",
 * "CHMSgeneric.m" / "odel.v0") and its labels mid-word (カメラのカ / ット). Now a name wraps at its words (after "_",
 * before or after "."), a label keeps one line.
 */
async function fileNamesWrap(app: AppHandle, { width, height }: SmallWindow) {
  const { page } = app;
  await openGeneWithCamera(page);
  const what = `${width}×${height}`;
  const name = await textLines(page, 'summary-name');
  expect(name.join(''), what).toBe('wavefile_camera.vmd');
  // Narrower than the panel at this size: it wraps, and each line but the last ends a word.
  expect(name.length, `${what}: ${JSON.stringify(name)}`).toBeGreaterThan(1);
  const atWords = (lines: string[]) => lines.slice(1).every((l, i) => /[_.]$/.test(lines[i]) || l.startsWith('.'));
  expect(atWords(name), `${what}: ${JSON.stringify(name)}`).toBe(true);
  // The model's English name, the same (under its label, on one line at 1280, wrapped at 1024).
  const en = await textLines(page, 'model-name-en');
  expect(en.join(''), what).toBe('CHMSgeneric.model.v0');
  if (width === 1024) expect(en.length, `${what}: ${JSON.stringify(en)}`).toBeGreaterThan(1);
  expect(atWords(en), `${what}: ${JSON.stringify(en)}`).toBe(true);
  // Every label of the two lists (カメラのカット, 英語名, 文字コード…) on one line.
  const labels = await page.evaluate(() => [...document.querySelectorAll('[data-testid="file-summary"] dt, [data-testid="model-summary"] dt')].map((d) => {
    const r = document.createRange();
    r.selectNodeContents(d);
    return { text: d.textContent!.trim(), lines: new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top))).size };
  }));
  expect(labels.map((l) => l.text)).toContain('カメラのカット');
  expect(labels.filter((l) => l.lines > 1), what).toEqual([]);
  // And no value past the panel's edge (beside a whole label at 1024, 2,816 フレーム had no room left).
  const past = await page.evaluate(() => {
    const pane = document.querySelector('aside.left')!.getBoundingClientRect();
    return [...document.querySelectorAll('[data-testid="file-summary"] dd, [data-testid="model-summary"] dd')].filter((d) => {
      const r = document.createRange();
      r.selectNodeContents(d);
      return [...r.getClientRects()].some((b) => b.width > 0 && b.right > pane.right + 0.5);
    }).map((d) => d.textContent!.trim());
  });
  expect(past, what).toEqual([]);
  await app.screenshot(`layout-names-${width}x${height}-ja`);
  expect(app.errors).toEqual([]);
}

/**
 * New-user pass nulaptop 8: a camera key's six channel tabs pushed Link (in Japanese Overlay too) onto a second
 * header line, and the graph down a row, at 1366 (en) and 1024/1280 (ja); at 1024 in Japanese even a bone's four
 * did. The header stays one line, its labels whole, and the plot starts at the same height for the motion and
 * the camera.
 */
async function curveHeaderOneLine(app: AppHandle, { width, height, locale }: SmallWindow) {
  const { page } = app;
  const what = `${width}×${height} ${locale}`;
  const look = () => page.evaluate(() => {
    const header = document.querySelector('[data-testid="curve-editor"] header') as HTMLElement;
    const mids = [...header.children].map((c) => c.getBoundingClientRect()).filter((b) => b.width > 0).map((b) => b.top + b.height / 2);
    return {
      plotTop: Math.round(document.querySelector('[data-testid="curve-editor"] .plot')!.getBoundingClientRect().top),
      spread: Math.max(...mids) - Math.min(...mids),
      tabs: header.querySelectorAll('[role="tab"]').length,
    };
  });
  let motion: Awaited<ReturnType<typeof look>> | null = null;
  await openGeneWithCamera(page, async () => {
    await settle(page);
    motion = await look();
  });
  const camera = await look();
  expect(motion!.tabs).toBe(4);
  expect(camera.tabs).toBe(6);
  expect.soft(motion!.spread, `${what}: motion header on one line`).toBeLessThan(6);
  expect.soft(camera.spread, `${what}: camera header on one line`).toBeLessThan(6);
  expect(camera.plotTop, `${what}: the plot's top with the camera`).toBe(motion!.plotTop);
  await expectCurveHeaderWhole(page, what);
  await app.screenshot(`layout-curve-header-${width}x${height}-${locale}`);
  expect(app.errors).toEqual([]);
}

async function timelineBorder(app: AppHandle) {
  const { page } = app;
  await openFileViaDialog(page, WAVEFILE);
  const heightOf = (sel: string) => page.evaluate((s) => document.querySelector(s)!.getBoundingClientRect().height, sel);
  const sheet0 = await heightOf('.sheet'), bottom0 = await heightOf('[data-testid="editor-bottom"]');
  const b = await box(page, 'splitter-bottom');
  const x = b.x + b.width / 2, y = b.y + b.height / 2;
  expect(await page.evaluate(([px, py]) => document.elementFromPoint(px, py)?.getAttribute('data-testid'), [x, y])).toBe('splitter-bottom');
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y + 40, { steps: 3 });
  await page.mouse.move(x, y + 80, { steps: 3 });
  await page.mouse.up();
  // 80 px down: the curve/key area 80 lower, the timeline 80 taller.
  const sheet1 = await heightOf('.sheet'), bottom1 = await heightOf('[data-testid="editor-bottom"]');
  expect(sheet1 - sheet0).toBeCloseTo(80, 0);
  expect(bottom0 - bottom1).toBeCloseTo(80, 0);
  // Never below the area's minimum (220 px): a drag far down stops there.
  await page.mouse.move(x, y + 80);
  await page.mouse.down();
  await page.mouse.move(x, y + 600, { steps: 4 });
  await page.mouse.up();
  expect(await heightOf('[data-testid="editor-bottom"]')).toBeCloseTo(220, 0);
  await page.reload();
  await page.waitForSelector('[data-ready="true"]');
  await openFileViaDialog(page, WAVEFILE);
  await expect.poll(() => heightOf('[data-testid="editor-bottom"]')).toBeCloseTo(220, 0);
  await page.dblclick('[data-testid="splitter-bottom"]');
  await expect.poll(() => heightOf('[data-testid="editor-bottom"]')).toBeCloseTo(bottom0, 0);
  expect(app.errors).toEqual([]);
}

async function viewsMenuCloses(app: AppHandle) {
  const { page } = app;
  await openFileViaDialog(page, WAVEFILE);
  const menu = page.locator('[data-testid="preview-view-menu"]');
  await page.click('[data-testid="preview-view-more"]');
  await expect.poll(() => menu.count()).toBe(1);
  await page.keyboard.press('Escape');
  await expect.poll(() => menu.count()).toBe(0);
  // A press on the timeline (whose handlers take the pointer) and one on a side tab.
  for (const target of ['[data-testid="timeline-canvas"]', '[data-testid="side-tab-bones"]']) {
    await page.click('[data-testid="preview-view-more"]');
    await expect.poll(() => menu.count()).toBe(1);
    await page.locator(target).first().click({ position: { x: 40, y: 10 } });
    await expect.poll(() => menu.count(), { message: target }).toBe(0);
  }
  // Its items still work (a press inside does not close it before the click).
  await page.click('[data-testid="preview-view-more"]');
  await page.click('[data-testid="preview-view-back"]');
  await expect.poll(() => menu.count()).toBe(0);
  expect(app.errors).toEqual([]);
}

async function reachableAt(app: AppHandle, width: number, height: number) {
  const { page } = app;
  // A model in the preview (its name and the Outline switch join the toolbar).
  await showGene(page);

  await openFileViaDialog(page, WAVEFILE);
  // Several keys selected (every key of 上半身: "applies to n keys" shows), one active.
  const upperRow = () => page.evaluate(() => [...document.querySelectorAll('[data-testid^="track-bone:"]')].find((r) => r.querySelector('.name')?.textContent?.trim() === '上半身')?.getAttribute('data-testid'));
  // The list holds only the rows in view, and Gene's bones the dance has no key of have rows too (全ての親 and
  // グルーブ above it: fix job fixrows): at 1366×768 上半身 is at or below the list's foot, so the list is scrolled a
  // little at a time until the row lies whole in its upper half.
  const list = (await page.locator('[data-testid="track-list"]').boundingBox())!;
  const inUpperHalf = async () => {
    const id = await upperRow();
    const b = id ? await page.locator(`[data-testid="${id}"]`).boundingBox() : null;
    return b !== null && b.y >= list.y && b.y + b.height <= list.y + list.height / 2;
  };
  await page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
  for (let i = 0; !(await inUpperHalf()) && i < 40; i++) await page.mouse.wheel(0, 20);
  expect(await inUpperHalf()).toBe(true);
  const upper = await upperRow();
  expect(upper).toBeTruthy();
  await page.dblclick(`[data-testid="${upper}"]`);
  await page.waitForSelector('[data-testid="curve-x1"]');
  await page.click('[data-testid="curve-copy"]');
  await page.click('[data-testid="range-toggle"]');

  for (const locale of ['en', 'ja']) {
    const what = `${width}×${height} ${locale}`;
    await setLocale(page, locale);
    const curve = await box(page, 'curve-editor'), inspector = await box(page, 'key-inspector');
    expect(curve.x + curve.width, what).toBeLessThanOrEqual(inspector.x + 0.5);
    await expectTopBarOneLine(page, what);
    await expectEditorToolbarWhole(page, what);
    await expectCurveHeaderWhole(page, `${what} bone`);
    await expectAllReachable(page, 'curve-editor', what);
    await expectAllReachable(page, 'key-inspector', what);
    for (const id of ['curve-apply-all', 'curve-paste', 'paste-ch-x', 'paste-ch-r', 'preset-save']) {
      const b = await box(page, id);
      expect.soft(b.y + b.height, `${what}: ${id}`).toBeLessThanOrEqual(curve.y + curve.height + 0.5);
    }
    // "127" fits in a curve field.
    const fits = await page.evaluate(() => {
      const el = document.querySelector('[data-testid="curve-y2"]') as HTMLInputElement;
      const v = el.value;
      el.value = '127';
      const ok = el.scrollWidth <= el.clientWidth;
      el.value = v;
      return ok;
    });
    expect(fits, what).toBe(true);
    // The preview toolbar: one line, no label cut.
    await expectPreviewHeaderWhole(page, what);
    await app.screenshot(`layout-${width}x${height}-${locale}`);
  }

  // A camera key: six channel tabs, Overlay and Link whole.
  await openFileViaDialog(page, CAMERA_FILE);
  const kp = await keyPoint(page, 'track-camera', 0);
  await page.mouse.click(kp.x, kp.y);
  await page.waitForSelector('[data-testid="curve-channel-v"]');
  for (const locale of ['en', 'ja']) {
    const what = `${width}×${height} ${locale} camera`;
    await setLocale(page, locale);
    await expectCurveHeaderWhole(page, what);
    await expectAllReachable(page, 'curve-editor', what);
    await expectAllReachable(page, 'key-inspector', what);
  }
  await app.screenshot(`layout-${width}x${height}-camera-ja`);
  expect(app.errors).toEqual([]);
}

describe('editor layout on common window sizes', () => {
  /**
   * One app per window size (suitee2e2: 16 openings of the app were 9): the tests of a size run in turn on the
   * app the first of them opens, each setting up what it checks (Gene is loaded when the preview does not show
   * her, a file opened over the last test's asks and is answered Don't Save), so that any one of them also runs
   * alone (`-t`).
   */
  for (const size of [
    { width: 1366, height: 677, scale: 1, locale: 'en-US' },
    { width: 1280, height: 621, scale: 1.5, locale: 'ja-JP' },
    { width: 1024, height: 700, scale: 1, locale: 'ja-JP' },
  ]) {
    const { width, height, scale, locale } = size;
    describe(`${width}×${height} at ${scale * 100} % (${locale}), one app`, () => {
      const s = appForSuite({ viewport: { width, height }, deviceScaleFactor: scale, locale });
      it(`${width}×${height} at ${scale * 100} % (${locale}): no page scrolling; the top bar, status bar, preview switches and curve pane all in the window`, () => smallWindowFits(s.app, size));
      // The File panel's names at the two narrower sizes.
      if (width !== 1366) it(`${width}×${height} at ${scale * 100} % (ja): the File panel wraps the file's and the model's names at "_" and ".", and keeps each label on one line`, () => fileNamesWrap(s.app, size));
      it(`${width}×${height} at ${scale * 100} % (${locale}): the curve header stays one line with a camera's six channels; the plot does not move down`, () => curveHeaderOneLine(s.app, size));
    });
  }

  describe('1366×768, one app', () => {
    const s = appForSuite({ viewport: { width: 1366, height: 768 } });
    it('the timeline\'s lower border trades the curve/key area\'s height for track rows; kept over a reload; a double-click resets it', () => timelineBorder(s.app));
    it('the preview\'s ▾ views menu closes on Escape and on a press outside it, as the toolbar menus do', () => viewsMenuCloses(s.app));
    it('1366×768: every curve-pane and inspector control reachable without scrolling, camera header whole, preview toolbar one line with a model, in English and Japanese', () => reachableAt(s.app, 1366, 768));
  });

  describe('a fresh app each', () => {
    let app: AppHandle | null = null;
    afterEach(async () => {
      await app?.close();
      app = null;
    });

    it('a layout dragged wide on a big window fits a smaller one after a reload; ? → Reset layout brings the defaults back', async () => {
      app = await openApp({ viewport: { width: 1600, height: 900 } });
      const { page } = app;
      // The preview dragged as wide as it goes (the editor keeps 420 px), the left pane widened too.
      for (const [id, dx] of [['splitter-right', -700], ['splitter-left', 200]] as const) {
        const b = await box(page, id);
        const x = b.x + b.width / 2, y = b.y + b.height / 2;
        await page.mouse.move(x, y);
        await page.mouse.down();
        await page.mouse.move(x + dx, y, { steps: 5 });
        await page.mouse.up();
      }
      const wide = { left: (await page.locator('aside.left').boundingBox())!.width, right: (await page.locator('aside.right').boundingBox())!.width };
      expect(wide.right).toBeGreaterThan(700);
      const settingsFile = path.join(app.server.settingsDir, 'settings.json');
      await expect.poll(() => JSON.parse(readFileSync(settingsFile, 'utf8')).ui?.['layout.leftWidth'], { timeout: 10_000 }).toBe(Math.round(wide.left));
      // The same settings in a 1024×700 window: every pane inside it, the editor keeps its 420 px.
      await page.setViewportSize({ width: 1024, height: 700 });
      await page.reload();
      await page.waitForSelector('[data-ready="true"]');
      await settle(page);
      const l = (await page.locator('aside.left').boundingBox())!, c = (await page.locator('section.center').boundingBox())!, r = (await page.locator('aside.right').boundingBox())!;
      expect(r.x + r.width).toBeLessThanOrEqual(1024.5);
      expect(c.width).toBeGreaterThanOrEqual(420 - 0.5);
      expect(l.width).toBeGreaterThanOrEqual(160 - 0.5);
      expect(r.width).toBeGreaterThanOrEqual(240 - 0.5);
      const sr = await box(page, 'splitter-right');
      expect(sr.x + sr.width).toBeLessThanOrEqual(1024);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(1024);
      await app.screenshot('layout-restored-1024');
      // ? → Reset layout: the defaults at 1024 (left 16 % = 164 px, the preview 240 px), written to the settings too.
      await page.click('[data-testid="cmd-help"]');
      await page.click('[data-testid="cmd-reset-layout"]');
      await expect.poll(async () => (await page.locator('aside.right').boundingBox())!.width).toBeCloseTo(240, 0);
      expect((await page.locator('aside.left').boundingBox())!.width).toBeCloseTo(163.84, 0);
      await expect.poll(() => JSON.parse(readFileSync(settingsFile, 'utf8')).ui?.['layout.rightWidth'], { timeout: 10_000 }).toBe(null);
      expect(app.errors).toEqual([]);
    });

    it('1280×720: panes side by side without overlap, zoom buttons and curve fields whole, top bar one line', async () => {
      app = await openApp({ viewport: { width: 1280, height: 720 } });
      const { page } = app;
      await openStandWithKey(page);
      const curve = await box(page, 'curve-editor'), inspector = await box(page, 'key-inspector');
      expect(curve.x + curve.width).toBeLessThanOrEqual(inspector.x + 0.5);
      const editor = await box(page, 'editor-area');
      for (const id of ['zoom-out', 'zoom-in', 'zoom-fit', 'play', 'frame-input']) {
        const b = await box(page, id);
        expect(b.x + b.width, id).toBeLessThanOrEqual(editor.x + editor.width + 0.5);
        expect(b.width, id).toBeGreaterThan(10);
      }
      for (const locale of ['en', 'ja']) {
        await setLocale(page, locale);
        await expectTopBarOneLine(page, locale);
        // The side tabs (ファイル was ファイ/ル), the header ("Vocaloid Motion Data 00 / 02"), the curve column's
        // Presets label (squeezed away), the preset name's field (プリセッ), Save, Copy and Paste (曲線を貼り…):
        // each whole, on one line.
        const fits = await textFits(page, [
          ...['file', 'bones', 'morphs', 'stage'].map((id) => `[data-testid="side-tab-${id}"]`),
          '[data-testid="summary-header"]',
          '[data-testid="curve-editor"] .side .label',
          '[data-testid="preset-name"]',
          '[data-testid="preset-save"]',
          '[data-testid="curve-copy"]',
          '[data-testid="curve-paste"]',
          '[data-testid="curve-apply-all"]',
        ]);
        for (const f of fits) expect.soft(f, `${locale}: "${f.text}" cut or broken`).toMatchObject({ lines: 1, cut: false });
        // And nothing of the curve pane below its edge, or in a column to scroll (the Paste on boxes), on a
        // position's channel and on the rotation's (its plot caption is the longer).
        for (const ch of ['x', 'r']) {
          await page.click(`[data-testid="curve-channel-${ch}"]`);
          await settle(page);
          await expectAllReachable(page, 'curve-editor', `1280×720 ${locale} ${ch}`);
        }
        await page.click('[data-testid="curve-channel-x"]');
        for (const id of ['curve-overlay', 'curve-link']) {
          const whole = await page.evaluate((id) => {
            const label = document.querySelector(`[data-testid="${id}"]`)!.closest('label') as HTMLElement;
            return label.scrollWidth <= label.clientWidth + 0.5 && label.clientWidth > 30;
          }, id);
          expect(whole, `${locale}: ${id}`).toBe(true);
        }
      }
      await app.screenshot('layout-1280x720-ja');

      // The bundled Japanese font (@fontsource/noto-sans-jp) is served and covers bone and morph names,
      // so they render on a machine without CJK fonts: loading it for them yields loaded faces of it.
      const faces = await page.evaluate(async () => {
        const got = await document.fonts.load('16px "Noto Sans JP"', '上半身左腕捩右ひじ親指３センター');
        return got.map((f) => ({ family: f.family.replace(/["']/g, ''), status: f.status }));
      });
      expect(faces.length).toBeGreaterThan(0);
      for (const f of faces) expect(f).toEqual({ family: 'Noto Sans JP', status: 'loaded' });
    });

    for (const [width, height] of [[1600, 900], [1920, 1080]] as const) {
      it(`${width}×${height}: every curve-pane and inspector control reachable without scrolling, camera header whole, preview toolbar one line with a model, in English and Japanese`, async () => {
        app = await openApp({ viewport: { width, height } });
        await reachableAt(app, width, height);
      });
    }

    it('1440×900 with a model and a camera shown: the preview header keeps every label whole, the shot label clear of the pick hint (normal and full window), in English and Japanese', async () => {
      app = await openApp({ viewport: { width: 1440, height: 900 } });
      const { page } = app;
      await page.click('[data-testid="preview-open-model"]');
      await fileDialogReady(page);
      await page.fill('[data-testid="file-dialog-path"]', LOW_MIKU);
      await page.click('[data-testid="file-dialog-go"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes('ローポリ初音さん'), null, { timeout: 60_000 });
      await openFileViaDialog(page, WAVEFILE);
      // A camera VMD shown with the motion: its name and ✕, Register view and a live Through-camera switch join the row.
      await page.click('[data-testid="preview-open-camera"]');
      await fileDialogReady(page);
      await page.fill('[data-testid="file-dialog-path"]', CAMERA_FILE);
      await page.click('[data-testid="file-dialog-go"]');
      await page.waitForSelector('[data-testid="preview-clear-camera"]');
      await page.waitForFunction(() => !(document.querySelector('[data-testid="preview-look-through"]') as HTMLInputElement)?.disabled);
      await page.waitForSelector('[data-testid="output-frame-guide"]');
      for (const locale of ['en', 'ja']) {
        const what = `1440×900 ${locale}`;
        await setLocale(page, locale);
        await expectPreviewHeaderWhole(page, what);
        await expectApart(page, '[data-testid="output-frame-guide-label"]', '[data-testid="preview-pick-hint"]', what);
        await app.screenshot(`layout-1440x900-preview-${locale}`);
        await page.click('[data-testid="preview-full"]');
        await page.waitForFunction(() => document.querySelector('[data-testid="app-body"]')?.classList.contains('preview-full'));
        await settle(page);
        await expectPreviewHeaderWhole(page, `${what} full window`);
        await expectApart(page, '[data-testid="output-frame-guide-label"]', '[data-testid="preview-pick-hint"]', `${what} full window`);
        await app.screenshot(`layout-1440x900-preview-full-${locale}`);
        await page.click('[data-testid="preview-full"]');
        await page.waitForFunction(() => !document.querySelector('[data-testid="app-body"]')?.classList.contains('preview-full'));
        await settle(page);
      }
      expect(app.errors).toEqual([]);
    });
  });
});
