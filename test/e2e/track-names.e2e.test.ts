/**
 * The timeline's track names at 1366×768 in the English UI (translator pass nui18n, finding 2): Gene_light.pmx
 * names its bones in English too, and each bone row shows the Japanese name the motion keys, then the English
 * one. The English name is the one to shrink: before, the Japanese name shrank with it by a pixel or two and its
 * ellipsis cut 下半身先 to 「下半…」, which read as 下半身 on the row above. Measured in the page: every shown
 * Japanese name whole (its text no wider than its box), while some English name is cut (the squeeze this is
 * about; without it the check would prove nothing). Screenshot: test-artifacts/track-names-1366-en.png.
 */
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, openFileViaDialog, showModelThroughDialog } from './harness';

const GENE = corpusPath('gene/Gene_light.pmx');
const LAUGH = corpusPath('gene/motion/02_laugh.vmd');

describe('track names at 1366×768 (English UI)', () => {
  const s = appForSuite({ viewport: { width: 1366, height: 768 } });

  it('the Japanese bone name is whole on every row; the English name beside it is the one cut', async () => {
    const { page } = s.app;
    await openFileViaDialog(page, LAUGH);
    await showModelThroughDialog(page, GENE, 'ジェネ / Gene');
    await page.waitForSelector('[data-testid="track-name-en"]');
    // Cut: the text laid out wider than its box. scrollWidth and clientWidth are whole pixels, and the box a
    // fraction of a pixel narrower than its text (enough for the ellipsis) read the same in them.
    const rows = await page.$$eval('[data-testid^="track-bone:"]', (els) =>
      els.flatMap((row) => {
        const cut = (el: HTMLElement) => {
          const r = document.createRange();
          r.selectNodeContents(el);
          return r.getBoundingClientRect().width > el.getBoundingClientRect().width + 0.01;
        };
        const name = row.querySelector('.name') as HTMLElement;
        const en = row.querySelector('[data-testid="track-name-en"]') as HTMLElement | null;
        if (!en) return [];
        return [{ name: name.textContent!.trim(), nameCut: cut(name), en: en.textContent!.trim(), enCut: cut(en) }];
      }),
    );
    await s.app.screenshot('track-names-1366-en');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.filter((r) => r.nameCut).map((r) => `${r.name} (${r.en})`)).toEqual([]);
    expect(rows.some((r) => r.enCut), 'no English name is cut: the rows are not narrow enough to test this').toBe(true);
    expect(s.app.errors).toEqual([]);
  });
});
