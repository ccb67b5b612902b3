/**
 * Textures in real-world model folders, in Chromium through the browser mode (report nutex): folders made at
 * test time from the corpus's Gene (helpers/messy-models.ts), each opened with Model…, and what each material
 * draws read back (materialTextures: the texture on it, its toon ramp's far-side colour).
 * - formats: a PNG named arm.tga, an 8-bit colour-mapped TGA, an uncompressed A8R8G8B8 DDS are drawn; a DXT5
 *   DDS is drawn where SwiftShader takes S3TC, else listed with "convert hair.dds to PNG";
 * - a PMX toon file toon01.bmp not beside the model: MMD's shared toon01 ramp, nothing listed;
 * - names garbled by a Shift_JIS zip (CP437, raw bytes) and a renamed texture folder: used, and listed under
 *   "Textures found under another name or folder";
 * - in Japanese, a missing folder's reason in Japanese, main's English text in its tooltip.
 * Screenshots: test-artifacts/preview-texture-files-*.png.
 */
import { copyFileSync, cpSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, showModelThroughDialog } from './harness';
import { animationFrames } from './editor-page';
import { corpusPresent } from '../helpers/corpus';
import { geneFolder, withTextures } from '../helpers/messy-models';
import { ddsFile as dds } from '../helpers/dds-file';
import { decodePng } from '../helpers/png';

const GENE_NAME = 'ジェネ / Gene';


/** A PNG's pixels as an A8R8G8B8 DDS. */
function pngAsDds(png: Uint8Array): Uint8Array {
  const img = decodePng(png);
  const px = new Uint8Array(img.data.length);
  for (let i = 0; i < px.length; i += 4) px.set([img.data[i + 2], img.data[i + 1], img.data[i], img.data[i + 3]], i);
  return dds(img.width, img.height, px);
}

/** An 8-bit colour-mapped TGA (type 1), 4×4, two map entries: skin and a darker skin, in a checker. */
function paletteTga(): Uint8Array {
  const header = [0, 1, 1, 0, 0, 2, 0, 24, 0, 0, 0, 0, 4, 0, 4, 0, 8, 0x20];
  const map = [200, 220, 250, 150, 170, 210];
  const idx = Array.from({ length: 16 }, (_, i) => ((i >> 2) + i) & 1);
  return Uint8Array.from([...header, ...map, ...idx]);
}

type Looks = { name: string; map: string | null; toonShade: number[] | null }[];
const looks = (page: Page) => page.evaluate(() => window.__vmdPreview!.materialTextures()) as Promise<Looks>;
const mapOf = (l: Looks, name: string) => l.find((m) => m.name === name)?.map;

describe.skipIf(!corpusPresent)('3D preview: textures in messy model folders', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 1000 } });

  it('formats by content: a PNG named .tga, a colour-mapped TGA and an A8R8G8B8 DDS are drawn; DXT5 as the GPU allows', async () => {
    const { page } = s.app;
    const dir = path.join(s.tmp.dir, 'formats');
    const model = geneFolder(dir, { textures: withTextures([1, 'light/arm.tga'], [3, 'light/face8.tga'], [7, 'light/top.dds'], [0, 'light/hair.dds']) });
    copyFileSync(path.join(dir, 'light', 'arm.png'), path.join(dir, 'light', 'arm.tga'));
    writeFileSync(path.join(dir, 'light', 'face8.tga'), paletteTga());
    writeFileSync(path.join(dir, 'light', 'top.dds'), pngAsDds(new Uint8Array(readFileSync(path.join(dir, 'light', 'top.png')))));
    writeFileSync(path.join(dir, 'light', 'hair.dds'), dds(4, 4, new Uint8Array(16), 'DXT5'));
    const s3tc = await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      return !!gl?.getExtension('WEBGL_compressed_texture_s3tc') && !!gl?.getExtension('WEBGL_compressed_texture_s3tc_srgb');
    });
    console.log(`[preview-texture-files] S3TC with sRGB in this Chromium: ${s3tc}`);
    await showModelThroughDialog(page, model, GENE_NAME);
    const l = await looks(page);
    expect(mapOf(l, '手肌')).toBe('light/arm.tga');
    expect(mapOf(l, '顔')).toBe('light/face8.tga');
    expect(mapOf(l, 'トップス')).toBe('light/top.dds');
    if (s3tc) {
      expect(mapOf(l, '髪')).toBe('light/hair.dds');
      expect(await page.isVisible('[data-testid="preview-missing-textures"]')).toBe(false);
    } else {
      expect(mapOf(l, '髪')).toBe(null);
      expect(await page.$$eval('[data-testid="preview-texture-reason"]', (e) => e.map((x) => x.textContent))).toEqual(['DDS (DXT5) textures cannot be shown here: convert hair.dds to PNG']);
    }
    await s.app.screenshot('preview-texture-files-formats');
  });

  it('a PMX toon file toon01.bmp not beside the model: the shared toon01 ramp, nothing listed', async () => {
    const { page } = s.app;
    const model = geneFolder(path.join(s.tmp.dir, 'toon'), {
      textures: [...withTextures(), 'toon01.bmp'],
      edit: (m) => {
        if (m.name === '髪') (m.toonShared = false), (m.toon = 10);
      },
    });
    await showModelThroughDialog(page, model, GENE_NAME);
    await animationFrames(page, 2);
    const l = await looks(page);
    // Our shared ramp 1's shade (mmd-toon.ts SHARED_TOON_RAMPS[0]); the other materials have no toon (white).
    expect(l.find((m) => m.name === '髪')?.toonShade).toEqual([205, 205, 205]);
    expect(l.find((m) => m.name === '顔')?.toonShade).toEqual([255, 255, 255]);
    expect(await page.isVisible('[data-testid="preview-missing-textures"]')).toBe(false);
  });

  it('names garbled by a Shift_JIS zip and a renamed folder: used, and listed as found elsewhere', async () => {
    const { page } = s.app;
    const dir = path.join(s.tmp.dir, 'mojibake');
    const model = geneFolder(dir, { textures: withTextures([3, 'light/顔.png'], [0, 'light/髪.png']) });
    renameSync(path.join(dir, 'light', 'face.png'), path.join(dir, 'light', 'èτ.png'));
    renameSync(path.join(dir, 'light', 'hair2.png'), Buffer.concat([Buffer.from(path.join(dir, 'light') + path.sep), Buffer.from([0x94, 0xaf]), Buffer.from('.png')]));
    await showModelThroughDialog(page, model, GENE_NAME);
    await page.waitForSelector('[data-testid="preview-texture-notes"]');
    const l = await looks(page);
    expect([mapOf(l, '顔'), mapOf(l, '髪')]).toEqual(['light/顔.png', 'light/髪.png']);
    const rows = await page.$$eval('[data-testid="preview-texture-note"]', (e) => e.map((x) => x.textContent!.replace(/\s+/g, ' ').trim()));
    expect(rows).toEqual([
      'light/顔.png — found as light/èτ.png (the zip’s names were extracted in another encoding; re-extract with Japanese encoding, e.g. `unzip -O cp932`) · used by 顔',
      'light/髪.png — found as light/髪.png (the zip’s names were extracted in another encoding; re-extract with Japanese encoding, e.g. `unzip -O cp932`) · used by 髪',
    ]);
    expect(await page.isVisible('[data-testid="preview-missing-textures"]')).toBe(false);
    await s.app.screenshot('preview-texture-files-mojibake');

    const renamed = geneFolder(path.join(s.tmp.dir, 'renamed'), { into: 'Textures' });
    await showModelThroughDialog(page, renamed, GENE_NAME);
    await page.waitForSelector('[data-testid="preview-texture-notes"]');
    expect((await looks(page)).filter((m) => m.map === null)).toEqual([]);
    expect(await page.getAttribute('[data-testid="preview-texture-notes"]', 'data-count')).toBe('10');
    expect(await page.textContent('[data-testid="preview-texture-note"][data-path="light/arm.png"]')).toContain('light/ is not there: used Textures/arm.png');
    await s.app.screenshot('preview-texture-files-renamed');
  });

  it('in Japanese: a missing folder is said in Japanese, main’s English text kept in the tooltip', async () => {
    const { page } = s.app;
    const dir = path.join(s.tmp.dir, 'twice');
    const model = geneFolder(dir, { into: 'Textures' });
    cpSync(path.join(dir, 'Textures'), path.join(dir, 'old'), { recursive: true });
    await page.selectOption('[data-testid="locale"]', 'ja');
    await animationFrames(page, 2);
    await showModelThroughDialog(page, model, GENE_NAME);
    await page.waitForSelector('[data-testid="preview-missing-textures"]');
    const reason = page.locator('[data-testid="preview-texture-reason"]');
    expect(await reason.allTextContents()).toEqual(['フォルダ light/ がありません']);
    expect(await reason.first().getAttribute('title')).toBe('folder light/ not found');
    await page.click('[data-testid="preview-missing-textures"] summary');
    await animationFrames(page, 2);
    await s.app.screenshot('preview-texture-files-ja');
    await page.selectOption('[data-testid="locale"]', 'en');
  });
});
