/**
 * An error notice in the narrowest corner notices get (224 px, in a window 1024 px wide; before, the strip beside the
 * editor, about 190 px at 1366×768) shows its main line whole:
 * what is wrong, before a "More" toggle; the rest of the explanation behind it. Before, the text was capped at five
 * lines and a damaged file's notice stopped mid-sentence (「…ファイルの大きさ」) over ▾ 続きを表示 (translator pass nui18n,
 * finding 12). Read from the real layout in Chromium, in English and Japanese.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, declineSalvage, openThroughDialog } from './harness';

/** Where the main line lies in the notice's text box: its last line's bottom against what the box shows. */
async function mainLine(page: Page, lead: string) {
  return page.evaluate((lead) => {
    for (const text of document.querySelectorAll<HTMLElement>('[data-testid="notice-text"]')) {
      // The text nodes in order (a long name is split at <wbr>s), and where the main line ends in them.
      const nodes: Text[] = [];
      const walk = document.createTreeWalker(text, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) nodes.push(n as Text);
      const all = nodes.map((n) => n.data).join('');
      const at = all.indexOf(lead);
      if (at < 0) continue;
      const range = document.createRange();
      let pos = 0, started = false, ended = false;
      for (const n of nodes) {
        if (!started && at < pos + n.data.length) (range.setStart(n, at - pos), (started = true));
        if (!ended && at + lead.length <= pos + n.data.length) (range.setEnd(n, at + lead.length - pos), (ended = true));
        pos += n.data.length;
      }
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      const box = text.getBoundingClientRect();
      const cs = getComputedStyle(text);
      // A box cut by its cap fades its last line out over the More toggle: that line is not readable.
      const faded = cs.maskImage !== 'none' && cs.maskImage !== '' ? parseFloat(cs.lineHeight) : 0;
      const shownBottom = box.top + text.clientHeight - faded;
      return {
        found: true,
        below: Math.round((Math.max(...rects.map((r) => r.bottom)) - shownBottom) * 10) / 10,
        right: Math.round((Math.max(...rects.map((r) => r.right)) - box.right) * 10) / 10,
        wide: text.scrollWidth > text.clientWidth + 0.5,
        more: !!text.parentElement!.querySelector('[data-testid="notice-more"]'),
        all,
      };
    }
    const shown = [...document.querySelectorAll('[data-testid="notice-text"]')].map((e) => e.textContent).join(' | ');
    return { found: false, below: 0, right: 0, wide: false, more: false, all: shown };
  }, lead);
}

describe('an error notice at 1024×700', () => {
  const s = appForSuite({ viewport: { width: 1024, height: 700 } });

  it('shows its main line whole before More, in English and Japanese', async () => {
    const { page } = s.app;
    const trunc = path.join(s.tmp.dir, 'trunc.vmd');
    writeFileSync(trunc, readFileSync(corpusPath('gene/motion/02_laugh.vmd')).subarray(0, 3000));
    const text = path.join(s.tmp.dir, 'text.vmd');
    writeFileSync(text, 'This is a text file, not a motion.\nSecond line.\n');
    // The main line: the first sentence (all of a message with no sentence end), written out here.
    const cases = [
      {
        file: trunc,
        lead: {
          en: "trunc.vmd: The file is damaged: the bone block says it holds 548 keys, more than the file's size can (at byte 50)",
          ja: 'trunc.vmd: ファイルが壊れています：ボーンブロックのキー数が 548 個とされていますが、ファイルの大きさに収まりません（50 バイト目）',
        },
        rest: { en: '', ja: '' },
      },
      {
        file: text,
        lead: { en: 'text.vmd: plain text, not a motion: a motion is a .vmd file saved by MMD, starting with "Vocaloid Motion Data"', ja: 'text.vmd: テキストファイルで、モーションではありません。' },
        rest: { en: '', ja: 'モーションは MMD が保存する .vmd ファイルで、"Vocaloid Motion Data" で始まります' },
      },
    ];
    for (const locale of ['en', 'ja'] as const) {
      await page.selectOption('[data-testid="locale"]', locale);
      for (const c of cases) {
        await page.evaluate(() => document.querySelector<HTMLElement>('[data-testid="notify-dismiss-all"]')?.click());
        for (const b of await page.locator('[data-testid="notifications"] .close').all()) await b.click();
        await openThroughDialog(page, ['cmd-open'], c.file);
        // A file cut short is offered for its whole keys first (declined: the refusal is what this checks).
        if (c.file === trunc) await declineSalvage(page);
        await page.waitForSelector('[data-testid="notifications"] .notice.error');
        // Faded in (its enter transition), for the screenshots.
        await page.waitForFunction(() => [...document.querySelectorAll('.notice')].every((e) => getComputedStyle(e).opacity === '1'));
        await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
        const m = await mainLine(page, c.lead[locale]);
        const what = `${locale} ${path.basename(c.file)}: "${m.all}"`;
        expect(m.found, what).toBe(true);
        expect(m.below, `${what}: the main line runs under what the box shows`).toBeLessThanOrEqual(0.5);
        expect(m.right, `${what}: the main line runs past the box`).toBeLessThanOrEqual(0.5);
        expect(m.wide, what).toBe(false);
        const rest = c.rest[locale];
        if (rest) {
          // The sentence after it waits behind More, not half shown; More shows it.
          const r = await mainLine(page, rest);
          expect(r.below, `${what}: the rest is folded`).toBeGreaterThan(0);
          expect(r.more, what).toBe(true);
          await s.app.screenshot(`notice-main-line-${locale}-${path.basename(c.file, '.vmd')}-folded`);
          await page.locator('[data-testid="notice-more"]').last().click();
          await page.waitForFunction(() => document.querySelector('[data-testid="notice-text"].whole') !== null);
          expect((await mainLine(page, rest)).below, `${what}: More shows the rest`).toBeLessThanOrEqual(0.5);
        }
        await s.app.screenshot(`notice-main-line-${locale}-${path.basename(c.file, '.vmd')}`);
      }
    }
  });
});
