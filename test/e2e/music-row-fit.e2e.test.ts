/**
 * The music row over the track list (name, Beats, BPM…, ×; offset, volume, Mute) at the smallest window sizes, in
 * English and Japanese: every control lies whole inside the row's cell, which clips what runs past it. Before, in
 * Japanese at 1366×768 the 消音 (Mute) button's right border was cut by about 2 px (report n51, smaller gaps).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, openFileViaDialog, openMusicViaDialog } from './harness';
import { pcm16Wav } from '../helpers/wav';

const MOTION = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const CONTROLS = ['music-beats', 'music-bpm', 'music-remove', 'music-offset-label', 'music-offset', 'music-volume', 'music-mute'];

for (const [width, height] of [[1366, 768], [1280, 720]] as const) {
  describe(`the music row at ${width}×${height}`, () => {
    const s = appForSuite({ viewport: { width, height } });

    it('keeps every control whole inside its cell, in English and Japanese', async () => {
      const { page } = s.app;
      const wav = path.join(s.tmp.dir, 'song.wav');
      writeFileSync(wav, pcm16Wav(new Int16Array(48_000), 1, 48_000));
      await openFileViaDialog(page, MOTION);
      await openMusicViaDialog(page, wav);
      for (const locale of ['en', 'ja']) {
        await page.selectOption('[data-testid="locale"]', locale);
        await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
        const out = await page.evaluate((ids) => {
          const cell = document.querySelector('[data-testid="music-label"]') as HTMLElement;
          const c = cell.getBoundingClientRect();
          const right = c.right - parseFloat(getComputedStyle(cell).borderRightWidth);
          return ids.map((id) => {
            const e = document.querySelector(`[data-testid="${id}"]`) as HTMLElement;
            const b = e.getBoundingClientRect();
            // Past the cell's inner right edge (clipped there), or its own text wider than its box.
            return { id, text: e.textContent?.trim() ?? '', past: Math.round((b.right - right) * 10) / 10, cut: e.scrollWidth > e.clientWidth + 0.5, width: b.width };
          });
        }, CONTROLS);
        for (const o of out) {
          expect.soft(o.past, `${width}×${height} ${locale}: ${o.id} "${o.text}" runs past the cell`).toBeLessThanOrEqual(0);
          expect.soft(o.cut, `${width}×${height} ${locale}: ${o.id} "${o.text}" cut`).toBe(false);
        }
        expect(out.find((o) => o.id === 'music-volume')!.width, 'the volume keeps a usable width').toBeGreaterThanOrEqual(16);
        await s.app.screenshot(`music-row-${width}x${height}-${locale}`);
      }
    });
  });
}
