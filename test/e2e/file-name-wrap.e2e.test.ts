// A long file name in the File panel wraps in its stem and keeps its extension whole (new-user pass nujp 7: the
// heading broke as "…テスト用ファイル）.v" / "md"). A copy of stand.vmd under a long Japanese name is opened, and
// the extension's text, measured in Chromium's layout, sits on one line while the name takes several.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, openFileViaDialog } from './harness';
import { copyWritable, corpusPresent } from '../helpers/corpus';

describe.skipIf(!corpusPresent)('a long file name in the File panel', () => {
  const s = appForSuite();

  it('wraps inside the stem, never inside ".vmd"', async () => {
    const page = s.app.page;
    const name = 'ミク ダンス（修正版・最終テイク　長い名前のテスト用ファイル）とても長い名前がまだ続きます.vmd';
    const file = path.join(s.tmp.dir, name);
    copyWritable(corpusPath('gene/motion/stand.vmd'), file);
    await openFileViaDialog(page, file);
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('.vmd'));
    const lines = await page.evaluate(() => {
      const tops = (n: Node) => {
        const r = document.createRange();
        r.selectNodeContents(n);
        return new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top))).size;
      };
      return { name: tops(document.querySelector('[data-testid="summary-name"]')!), ext: tops(document.querySelector('[data-testid="summary-ext"]')!) };
    });
    expect(await page.textContent('[data-testid="summary-name"]')).toBe(name);
    // The whole name wraps (the panel is narrower than it), its extension does not.
    expect(lines.name).toBeGreaterThan(1);
    expect(lines.ext).toBe(1);
    await s.app.screenshot('file-name-wrap');
    expect(s.app.errors).toEqual([]);
  }, 120_000);
});
