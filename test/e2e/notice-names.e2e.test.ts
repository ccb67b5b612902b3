/**
 * A file name in a notice at 1366×768 (translator pass nui18n, finding 12): the notices' strip beside the editor
 * is about 190 px wide there, narrower than "wavefile_camera.vmd" with the words around it, and the name was broken
 * at any letter ("wavefile_camera.vm" / "d is shown with…", in Japanese too). Measured in the page, character by
 * character: where the name's lines break, the line starts at the name or just after one of _ . / \ - inside it;
 * never between two letters. In English and Japanese (the notice is phrased again in place on the switch).
 * Screenshots: test-artifacts/notice-names-{en,ja}.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, loadPreviewCamera, openFileViaDialog } from './harness';

const LAUGH = corpusPath('gene/motion/02_laugh.vmd');
const CAMERA = corpusPath('threejs/vmds/wavefile_camera.vmd');
const NAME = 'wavefile_camera.vmd';

/** The message holding `name`: its text, and the offsets (in that text) of the characters that begin a line. */
function lineStarts(page: Page, name: string) {
  return page.evaluate((name) => {
    const el = [...document.querySelectorAll('[data-testid="notice-message"]')].find((e) => e.textContent!.includes(name)) as HTMLElement | undefined;
    if (!el) return null;
    const chars: { top: number }[] = [];
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (let i = 0; i < n.textContent!.length; i++) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        const rects = [...r.getClientRects()].filter((b) => b.width > 0);
        chars.push({ top: rects.length ? rects[rects.length - 1].top : Number.NaN });
      }
    }
    const starts: number[] = [];
    let last = -Infinity;
    chars.forEach((c, i) => {
      if (Number.isNaN(c.top)) return; // a space at a line's end has no box
      if (c.top > last + 2) starts.push(i);
      last = Math.max(last, c.top);
    });
    return { text: el.textContent!, starts, width: el.getBoundingClientRect().width };
  }, name);
}

describe('a file name in a notice at 1366×768', () => {
  const s = appForSuite({ viewport: { width: 1366, height: 768 } });

  it('breaks only at the name’s start or after _ . / \\ - in it, in English and Japanese', async () => {
    const { page } = s.app;
    await openFileViaDialog(page, LAUGH);
    await loadPreviewCamera(page, CAMERA);
    for (const locale of ['en', 'ja'] as const) {
      await page.selectOption('[data-testid="locale"]', locale);
      await page.waitForFunction((l) => document.documentElement.lang === l, locale);
      const m = await lineStarts(page, NAME);
      expect(m, `${locale}: no notice names ${NAME}`).not.toBeNull();
      await s.app.screenshot(`notice-names-${locale}`);
      // The strip is narrower than the name with what follows it, so the name's line does break near it.
      expect(m!.starts.length, `${locale}: "${m!.text}" on one line`).toBeGreaterThan(1);
      const at = m!.text.indexOf(NAME);
      const inside = m!.starts.filter((i) => i > at && i < at + NAME.length);
      const bad = inside.filter((i) => !'_./\\-'.includes(m!.text[i - 1]));
      expect(bad.map((i) => `${m!.text.slice(at, i)} / ${m!.text.slice(i, at + NAME.length)}`), `${locale}: "${m!.text}" (${m!.width} px)`).toEqual([]);
    }
    await page.selectOption('[data-testid="locale"]', 'en');
    expect(s.app.errors).toEqual([]);
  });
});
