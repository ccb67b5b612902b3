/**
 * Render → Video…'s colour (fixvideo3 finding 1: the MP4 was flagged full range, `yuvj420p` with the sRGB transfer,
 * where players and upload sites expect H.264 in limited (TV) range BT.709). In Chromium through the browser mode,
 * read back by Debian's ffprobe/ffmpeg: a small MP4 and WebM of Gene on the preview's own dark grey background
 * - are flagged BT.709 limited range throughout (color_range tv, bt709 primaries, transfer and matrix; yuv420p);
 * - hold limited-range samples: the background's stored Y, Cb, Cr are BT.709's limited-range values of the grey the
 *   preview draws (worked out here from its RGB, ITU-R BT.709 with Y 16–235, Cb/Cr 16–240), not full-range ones;
 * - decode (ffmpeg honouring the flags) to the preview's grey within a few levels.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, openSceneViaDialog, textOf, writeSceneFolder } from './harness';

const HEIGHT = 240;
/** The background patch averaged: 16 × 16 pixels near the top left corner (the model stands in the middle). */
const PATCH = { x: 8, y: 8, size: 16 };

function colourFlags(file: string): Record<string, string> {
  const out = execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=pix_fmt,color_range,color_space,color_transfer,color_primaries,width,height', '-of', 'json', file], { encoding: 'utf8' });
  return (JSON.parse(out) as { streams: Record<string, string>[] }).streams[0];
}

/** The mean of a plane's patch (stride `w`). */
function patchMean(plane: Uint8Array, w: number, x0: number, y0: number, size: number): number {
  let sum = 0;
  for (let y = y0; y < y0 + size; y++) for (let x = x0; x < x0 + size; x++) sum += plane[y * w + x];
  return sum / (size * size);
}

/** Frame 0's stored samples, as the file holds them (no conversion): the patch's mean Y, Cb, Cr. */
function storedYuv(file: string, w: number, h: number): [number, number, number] {
  const raw = new Uint8Array(execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-vframes', '1', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-'], { maxBuffer: 64 << 20 }));
  const cw = w / 2, ch = h / 2;
  const y = raw.subarray(0, w * h), u = raw.subarray(w * h, w * h + cw * ch), v = raw.subarray(w * h + cw * ch);
  return [patchMean(y, w, PATCH.x, PATCH.y, PATCH.size), patchMean(u, cw, PATCH.x / 2, PATCH.y / 2, PATCH.size / 2), patchMean(v, cw, PATCH.x / 2, PATCH.y / 2, PATCH.size / 2)];
}

/** Frame 0 decoded to RGB by ffmpeg (honouring the file's flags): the patch's mean R, G, B. */
function decodedRgb(file: string, w: number): [number, number, number] {
  const rgb = new Uint8Array(execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-vframes', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { maxBuffer: 64 << 20 }));
  const out: number[] = [];
  for (let c = 0; c < 3; c++) {
    let sum = 0;
    for (let y = PATCH.y; y < PATCH.y + PATCH.size; y++) for (let x = PATCH.x; x < PATCH.x + PATCH.size; x++) sum += rgb[3 * (y * w + x) + c];
    out.push(sum / (PATCH.size * PATCH.size));
  }
  return out as [number, number, number];
}

/** BT.709 limited range from 8-bit R'G'B' (ITU-R BT.709-6 items 3.2–3.5, 4.6): worked out here, not the app's code. */
function bt709Limited([r, g, b]: number[]): [number, number, number] {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const Y = 0.2126 * R + 0.7152 * G + 0.0722 * B;
  return [16 + 219 * Y, 128 + 224 * ((B - Y) / 1.8556), 128 + 224 * ((R - Y) / 1.5748)];
}

async function render(page: Page, file: string, format: 'mp4' | 'webm'): Promise<void> {
  await page.click('[data-testid="cmd-export-video"]');
  await page.waitForSelector('[data-testid="video-dialog"]');
  await page.selectOption('[data-testid="video-size"]', 'scene');
  await page.fill('[data-testid="video-height"]', String(HEIGHT));
  await page.fill('[data-testid="video-from"]', '0');
  await page.fill('[data-testid="video-to"]', '2');
  await page.selectOption('[data-testid="video-format"]', format);
  // The preview's own background, so the video's can be compared with what the preview shows.
  await page.fill('[data-testid="video-background"]', '#2b2f36');
  await page.fill('[data-testid="video-path"]', file);
  await page.click('[data-testid="video-start"]');
  await page.waitForSelector('[data-testid="video-result"]', { timeout: 300_000 });
  const text = await textOf(page, 'video-result');
  expect(await page.getAttribute('[data-testid="video-result"]', 'data-kind'), text).toBe('done');
  await page.click('[data-testid="video-close"]');
}

describe('Render → Video…: BT.709 limited range, flagged as the samples are', () => {
  const s = appForSuite({ viewport: { width: 1400, height: 900 } });

  it('MP4 and WebM are flagged tv/bt709, store limited-range samples, and decode to the preview’s background within a few levels', async () => {
    const { page } = s.app;
    const dir = path.join(s.tmp.dir, 'scene');
    mkdirSync(dir);
    const scenePath = writeSceneFolder(dir, [[corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), 'dance.vmd']], {
      actors: [{ name: 'Gene', model: corpusPath('gene/Gene_light.pmx'), motion: 'dance.vmd' }],
      activeActor: 0,
    });
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => !!window.__vmdPreview?.info().model, null, { timeout: 120_000 });
    // The preview's grey as it draws it (its corner: background).
    const shown = await page.evaluate(() => window.__vmdPreview!.frameImage());
    const px = Buffer.from(shown.rgba, 'base64');
    const at = 4 * (2 * shown.width + 2);
    const preview = [px[at], px[at + 1], px[at + 2]];
    const expected = bt709Limited(preview);

    for (const format of ['mp4', 'webm'] as const) {
      const file = path.join(dir, `grey.${format}`);
      await render(page, file, format);
      const flags = colourFlags(file);
      console.log(`[video-colour] ${format}: ${JSON.stringify(flags)}`);
      const w = Number(flags.width), h = Number(flags.height);
      expect(h).toBe(HEIGHT);
      expect({ range: flags.color_range, matrix: flags.color_space, primaries: flags.color_primaries, transfer: flags.color_transfer, pix: flags.pix_fmt }).toEqual({ range: 'tv', matrix: 'bt709', primaries: 'bt709', transfer: 'bt709', pix: 'yuv420p' });
      const stored = storedYuv(file, w, h);
      const decoded = decodedRgb(file, w);
      console.log(`[video-colour] ${format}: preview ${preview.join(', ')}; stored Y Cb Cr ${stored.map((x) => x.toFixed(1)).join(', ')} (BT.709 limited: ${expected.map((x) => x.toFixed(1)).join(', ')}); decoded ${decoded.map((x) => x.toFixed(1)).join(', ')}`);
      stored.forEach((x, i) => expect(Math.abs(x - expected[i]), `stored ${'Y Cb Cr'.split(' ')[i]}`).toBeLessThanOrEqual(3));
      // A few levels: the encoder quantizes the flat grey's chroma (Cb one or two levels off is about 3 of blue).
      decoded.forEach((x, i) => expect(Math.abs(x - preview[i]), `decoded ${'RGB'[i]}`).toBeLessThanOrEqual(4));
    }
    expect(s.app.errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  }, 600_000);
});
