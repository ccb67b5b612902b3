/**
 * The editor on common window sizes (1280×720, 1366×768, 1600×900, 1920×1080), in English and Japanese:
 * no pane paints over another, the editor toolbar keeps its buttons whole, the curve fields show three
 * digits, the top bar stays one line and the curve pane's switches keep their labels; and at 1366×768,
 * 1600×900 and 1920×1080 every control of the curve pane and the key inspector is reachable without
 * scrolling (with several keys selected), the camera key's channel header fits, and the preview toolbar
 * stays one line with a model loaded. Boxes are read from the real layout in Chromium; a screenshot per
 * size and language (Japanese bone names rendered with the bundled font) goes to test-artifacts/.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { corpusPath, fileDialogReady, openApp, openFileViaDialog, textFits, type AppHandle } from './harness';
import { keyPoint } from './editor-page';

const WAVEFILE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const CAMERA_FILE = corpusPath('threejs/vmds/wavefile_camera.vmd');
const GENE = corpusPath('gene/Gene_light.pmx');
const LOW_MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');

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

describe('editor layout on common window sizes', () => {
  let app: AppHandle | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('1024×640 (a window smaller than the layout): the page keeps the 1280×720 layout and scrolls to every control', async () => {
    app = await openApp({ viewport: { width: 1024, height: 640 } });
    const { page } = app;
    await openStandWithKey(page);
    const size = await page.evaluate(() => ({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight }));
    expect(size).toEqual({ w: 1280, h: 720 });
    await expectTopBarOneLine(page, 'en');
    // The panes keep their places (no overlap), as at 1280×720.
    const curve = await box(page, 'curve-editor'), inspector = await box(page, 'key-inspector');
    expect(curve.x + curve.width).toBeLessThanOrEqual(inspector.x + 0.5);
    // The top bar's last buttons are off to the right: scrolled into view, they can be clicked.
    await page.locator('[data-testid="cmd-shortcuts"]').scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollX)).toBeGreaterThan(0);
    await page.click('[data-testid="cmd-shortcuts"]');
    await page.waitForSelector('[data-testid="shortcuts-dialog"]');
    await app.screenshot('layout-1024x640-scrolled');
    await page.keyboard.press('Escape');
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

  for (const [width, height] of [[1366, 768], [1600, 900], [1920, 1080]] as const) {
    it(`${width}×${height}: every curve-pane and inspector control reachable without scrolling, camera header whole, preview toolbar one line with a model, in English and Japanese`, async () => {
      app = await openApp({ viewport: { width, height } });
      const { page } = app;
      // A model in the preview (its name and the Outline switch join the toolbar).
      await page.click('[data-testid="preview-open-model"]');
      await fileDialogReady(page);
      await page.fill('[data-testid="file-dialog-path"]', GENE);
      await page.click('[data-testid="file-dialog-go"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes('ジェネ'), null, { timeout: 60_000 });

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
