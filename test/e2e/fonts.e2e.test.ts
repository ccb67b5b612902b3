/**
 * Japanese glyphs on first draw (issue 30 §4), in Chromium through the browser mode, on a machine without
 * CJK fonts (so any glyph the bundled Noto Sans JP does not supply draws as a box): once the app is ready
 * and the page's font loads are done, the half-width katakana subsets are in (MMD morph names such as ｷﾞｭｯ
 * use them) without any text having asked for them, and each glyph drawn on a canvas is the font's: its
 * pixels differ from the box a code point without a glyph draws, and from one another.
 */
import { describe, expect, it } from 'vitest';
import { appForSuite } from './harness';

describe('Japanese glyphs on first draw', () => {
  const s = appForSuite();

  it('the half-width katakana are loaded at start-up and draw as glyphs on a canvas, not boxes', async () => {
    const { page } = s.app;
    await page.waitForSelector('[data-ready="true"]');
    await page.evaluate(() => document.fonts.ready);
    // Asked before anything is drawn with these characters: the subsets are there, or they are not.
    const loaded = await page.evaluate(() => document.fonts.check('40px "Noto Sans JP"', 'ｷﾞｭｯｳｨﾝｸ'));
    expect(loaded, 'half-width katakana subsets loaded at start-up').toBe(true);
    const pixels = await page.evaluate(() => {
      const cv = document.createElement('canvas');
      cv.width = 48;
      cv.height = 48;
      const ctx = cv.getContext('2d', { willReadFrequently: true })!;
      const draw = (ch: string) => {
        ctx.clearRect(0, 0, 48, 48);
        ctx.fillStyle = '#000';
        ctx.font = '40px "Noto Sans JP"';
        ctx.fillText(ch, 4, 40);
        const d = ctx.getImageData(0, 0, 48, 48).data;
        let sig = '';
        let ink = 0;
        for (let i = 3; i < d.length; i += 4) {
          sig += d[i] > 127 ? '1' : '0';
          if (d[i] > 127) ink++;
        }
        return { sig, ink };
      };
      return { box: draw('\ue000'), chars: ['ｷ', 'ﾞ', 'ｭ', 'ｯ'].map((c) => ({ c, ...draw(c) })) };
    });
    for (const g of pixels.chars) {
      expect(g.ink, `${g.c} draws something`).toBeGreaterThan(0);
      expect(g.sig === pixels.box.sig, `${g.c} is the font's glyph, not the missing-glyph box`).toBe(false);
    }
    expect(new Set(pixels.chars.map((g) => g.sig)).size).toBe(4);
  });
});
