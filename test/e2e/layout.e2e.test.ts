/**
 * The editor on laptop-sized windows (1366×768, 1280×720): no pane paints over another, the toolbar keeps
 * its zoom buttons, the curve fields show three digits, and the top bar stays one line and the curve pane's switches keep their labels, in English and Japanese. Boxes are read from the real layout in Chromium.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { corpusPath, openApp, openFileViaDialog, type AppHandle } from './harness';
import { keyPoint } from './editor-page';

async function box(page: Page, testId: string) {
  const b = await page.locator(`[data-testid="${testId}"]`).boundingBox();
  if (!b) throw new Error(`${testId} not laid out`);
  return b;
}

describe('editor layout on small windows', () => {
  let app: AppHandle | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  for (const [width, height] of [[1366, 768], [1280, 720]] as const) {
    it(`${width}×${height}: panes side by side without overlap, zoom buttons and curve fields whole`, async () => {
      app = await openApp({ viewport: { width, height } });
      const { page } = app;
      await openFileViaDialog(page, corpusPath('gene/motion/stand.vmd'));
      const kp = await keyPoint(page, 'track-bone:1', 30);
      await page.mouse.click(kp.x, kp.y);
      await page.waitForSelector('[data-testid="curve-x1"]');
      const curve = await box(page, 'curve-editor'), inspector = await box(page, 'key-inspector');
      expect(curve.x + curve.width).toBeLessThanOrEqual(inspector.x + 0.5);
      // Everything the inspector shows lies inside it (nothing pushed out or covered).
      for (const id of ['inspector-frame', 'curve-y2']) {
        const b = await box(page, id);
        const host = id.startsWith('inspector') ? inspector : curve;
        expect(b.x, id).toBeGreaterThanOrEqual(host.x - 0.5);
        expect(b.x + b.width, id).toBeLessThanOrEqual(host.x + host.width + 0.5);
      }
      const editor = await box(page, 'editor-area');
      for (const id of ['zoom-out', 'zoom-in', 'zoom-fit', 'play', 'frame-input']) {
        const b = await box(page, id);
        expect(b.x + b.width, id).toBeLessThanOrEqual(editor.x + editor.width + 0.5);
        expect(b.width, id).toBeGreaterThan(10);
      }
      // "127" fits in a curve field: its text is not wider than the field's inside.
      const fits = await page.evaluate(() => {
        const el = document.querySelector('[data-testid="curve-y2"]') as HTMLInputElement;
        el.value = '127';
        return el.scrollWidth <= el.clientWidth;
      });
      expect(fits).toBe(true);
      await app.screenshot(`layout-${width}x${height}`);

      // The top bar fits in one line in both languages: nothing scrolls out, no button wraps its label.
      for (const locale of ['en', 'ja']) {
        await page.selectOption('[data-testid="locale"]', locale);
        await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
        const bar = await page.evaluate(() => {
          const m = document.querySelector('[data-testid="menu-bar"]') as HTMLElement;
          const buttons = [...m.querySelectorAll(':scope > button, :scope > .dropdown > button')] as HTMLElement[];
          const line = parseFloat(getComputedStyle(buttons[0]).lineHeight) || 18;
          return { overflow: m.scrollWidth - m.clientWidth, tallest: Math.max(...buttons.map((b) => b.clientHeight)), line };
        });
        expect(bar.overflow, `${locale}: menu bar overflow`).toBeLessThanOrEqual(0);
        expect(bar.tallest, `${locale}: a button wrapped its label`).toBeLessThan(bar.line * 2);
        // The curve pane's Overlay and Link switches show their labels whole.
        for (const id of ['curve-overlay', 'curve-link']) {
          const whole = await page.evaluate((id) => {
            const label = document.querySelector(`[data-testid="${id}"]`)!.closest('label') as HTMLElement;
            return label.scrollWidth <= label.clientWidth + 0.5 && label.clientWidth > 30;
          }, id);
          expect(whole, `${locale}: ${id}`).toBe(true);
        }
      }
      await app.screenshot(`layout-${width}x${height}-ja`);
    });
  }
});
