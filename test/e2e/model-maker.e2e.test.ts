/**
 * What a model maker checks, in Chromium through the browser mode (report numodel): the File tab's Model section
 * with a model and no motion (facts against mmd-parser's own reading of Gene_light.pmx), en and ja; a morph slider
 * on the bare model starts a new motion with the key, undoable, the hint naming the New button; the morph rows
 * whole (wrapped, never cut in the middle) with each morph's kind tagged as mmd-parser reads it; a missing texture
 * named with its material and the folder looked in; a browser drop's ten textures under one reason, folded, the
 * picture keeping its height; and the Self-shadow switch (off, then MMD's default; a camera's self-shadow key
 * rules over it; remembered). Screenshots: test-artifacts/model-maker-*.png.
 */
import { createRequire } from 'node:module';
import { cpSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, dropFiles, fileForDrop, loadPreviewCamera, showModelThroughDialog, textOf } from './harness';
import { animationFrames } from './editor-page';
import { corpusPresent } from '../helpers/corpus';
import { buildFixture } from '../helpers/vmd-fixtures';
import { readVmd } from '../../shared/vmd';

const GENE = corpusPath('gene/Gene_light.pmx');
const GENE_NAME = 'ジェネ / Gene';
interface ParsedPmx {
  metadata: { modelName: string; englishModelName: string; comment: string; encoding: number; version: number; vertexCount: number; faceCount: number; textureCount: number; materialCount: number; boneCount: number; morphCount: number; frameCount: number; rigidBodyCount: number; constraintCount: number };
  morphs: { name: string; type: number }[];
  materials: { name: string; textureIndex: number; toonFlag: number; toonIndex: number }[];
  textures: string[];
  bones: { ik?: unknown }[];
}
const MMDParser = createRequire(import.meta.url)('mmd-parser') as { Parser: new () => { parsePmx(b: ArrayBuffer, ltr: boolean): ParsedPmx } };
function parseGene(): ParsedPmx {
  const b = readFileSync(GENE);
  return new MMDParser.Parser().parsePmx(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength), false);
}
/** PMX morph types as the specification numbers them (0 group, 1 vertex, 2 bone, 3 UV, 4–7 additional UV, 8 material, 9 flip, 10 impulse). */
const KIND_OF_TYPE = ['group', 'vertex', 'bone', 'uv', 'uv', 'uv', 'uv', 'uv', 'material', 'flip', 'impulse'];

async function setLocale(page: Page, locale: 'en' | 'ja') {
  await page.selectOption('[data-testid="locale"]', locale);
  await animationFrames(page, 2);
}

const int = (s: string) => Number(s.replace(/[^\d]/g, ''));

describe.skipIf(!corpusPresent)('a model maker checks a model (browser mode)', () => {
  const s = appForSuite({ viewport: { width: 1440, height: 900 } });

  it('the File tab has a Model section with no motion open: names, comment, format, encoding, counts, file (en, ja)', async () => {
    const { page } = s.app;
    await showModelThroughDialog(page, GENE, GENE_NAME);
    await page.click('[data-testid="side-tab-file"]');
    await page.waitForSelector('[data-testid="model-summary"]');
    const g = parseGene().metadata;
    expect(await textOf(page, 'model-name')).toBe(g.modelName);
    expect(await textOf(page, 'model-name-en')).toBe(g.englishModelName);
    expect(await textOf(page, 'model-format')).toBe(`PMX ${g.version.toFixed(1)}`);
    expect(await textOf(page, 'model-encoding')).toBe(g.encoding === 0 ? 'UTF-16' : 'UTF-8');
    // The comment as stored, its lines kept (CR LF shown as line breaks).
    expect(await page.$eval('[data-testid="model-comment"]', (e) => (e as HTMLElement).innerText.trim())).toBe(g.comment.replace(/\r\n/g, '\n').trim());
    const counts: [string, number][] = [['vertices', g.vertexCount], ['faces', g.faceCount], ['materials', g.materialCount], ['textures', g.textureCount], ['bones', g.boneCount], ['morphs', g.morphCount], ['frames', g.frameCount], ['bodies', g.rigidBodyCount], ['joints', g.constraintCount]];
    for (const [k, n] of counts) expect(int(await textOf(page, `model-count-${k}`)), k).toBe(n);
    // Physics is off: the bodies are known from the file anyway.
    expect(await page.isChecked('[data-testid="preview-physics"]')).toBe(false);
    expect(await textOf(page, 'model-path')).toContain(GENE);
    await s.app.screenshot('model-maker-file-tab');
    await setLocale(page, 'ja');
    const text = await textOf(page, 'model-summary');
    for (const w of ['モデル名', '英語名', '文字コード', '頂点', '材質', '剛体', 'ジョイント', '表示枠']) expect(text).toContain(w);
    await s.app.screenshot('model-maker-file-tab-ja');
    await setLocale(page, 'en');
  });

  it('Morphs: each row shows its whole name (wrapped, not cut in the middle) and its kind as mmd-parser reads it', async () => {
    const { page } = s.app;
    await page.click('[data-testid="side-tab-morphs"]');
    const parsed = parseGene();
    const kindOf = new Map(parsed.morphs.map((m) => [m.name, KIND_OF_TYPE[m.type]]));
    for (const group of ['eyes', 'mouth', 'brows', 'other']) {
      await page.click(`[data-testid="morph-group-${group}"]`);
      await page.waitForSelector('[data-testid="morph-row"]');
      const rows = await page.$$eval('[data-testid="morph-row"]', (lis) =>
        lis.map((li) => {
          const name = li.querySelector('[data-testid="morph-name"]') as HTMLElement;
          const kind = li.querySelector('[data-testid="morph-kind"]') as HTMLElement | null;
          return { morph: li.getAttribute('data-morph')!, text: name.textContent, title: name.title, clipped: name.scrollHeight > name.clientHeight + 1 || name.scrollWidth > name.clientWidth + 1, kind: kind?.getAttribute('data-kind') ?? null, kindTitle: kind?.title ?? '' };
        }),
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) {
        expect(r.text, r.morph).toBe(r.morph);
        expect(r.title).toBe(r.morph);
        expect(r.kind, r.morph).toBe(kindOf.get(r.morph));
        expect(r.kindTitle).not.toBe('');
      }
      // Gene's longest names (eye_surprise_geo_L …) fit within two lines of the panel: nothing clipped.
      expect(rows.filter((r) => r.clipped).map((r) => r.morph), group).toEqual([]);
      if (group === 'eyes') await s.app.screenshot('model-maker-morphs');
    }
    expect(new Set(parsed.morphs.map((m) => KIND_OF_TYPE[m.type])).size).toBeGreaterThan(1);
  });

  it('a morph slider with no motion open starts a new motion with its key (as a bone drag does); undo takes the key back', async () => {
    const { page } = s.app;
    expect(await page.isVisible('[data-testid="summary-name"]'), 'no motion open yet').toBe(false);
    await page.click('[data-testid="morph-group-mouth"]');
    expect(await textOf(page, 'morph-no-motion')).toContain('New');
    const morph = (await page.getAttribute('[data-testid="morph-row"] >> nth=0', 'data-morph'))!;
    const slider = page.locator(`[data-testid="morph-row"][data-morph="${morph}"] [data-testid="morph-slider"]`);
    expect(await slider.isDisabled()).toBe(false);
    await slider.evaluate((el) => {
      const input = el as HTMLInputElement;
      input.value = '1';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await page.waitForFunction(() => (window.__vmdEditor?.history().undo ?? 0) > 0);
    const doc = readVmd(new Uint8Array(Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64')));
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    expect(doc.value.morph.count).toBe(1);
    expect(await page.isVisible(`[data-testid="morph-row"][data-morph="${morph}"].keyed`)).toBe(true);
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => window.__vmdEditor?.history().undo === 0);
    const after = readVmd(new Uint8Array(Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64')));
    expect(after.ok && after.value.morph.count).toBe(0);
  });

  it('a missing texture names its material and the folder looked in', async () => {
    const { page } = s.app;
    const dir = path.join(s.tmp.dir, 'missing');
    cpSync(path.dirname(GENE), dir, { recursive: true });
    renameSync(path.join(dir, 'light', 'face.png'), path.join(dir, 'light', 'face_old.png'));
    await showModelThroughDialog(page, path.join(dir, 'Gene_light.pmx'), GENE_NAME);
    await page.waitForSelector('[data-testid="preview-missing-textures"]');
    const parsed = parseGene();
    const ti = parsed.textures.indexOf('light/face.png');
    const users = parsed.materials.filter((m) => m.textureIndex === ti).map((m) => m.name);
    expect(users.length).toBeGreaterThan(0);
    const row = await textOf(page, 'preview-texture-row');
    expect(row).toContain('light/face.png');
    expect(row).toContain(`used by ${users.join(', ')}`);
    expect(row).toContain(`looked for in ${path.join(dir, 'light')}`);
    await s.app.screenshot('model-maker-missing-texture');
  });

  it('a model dropped in the browser: its ten textures under one reason, folded, the picture keeping its height', async () => {
    const { page } = s.app;
    await page.click('[data-testid="preview-use-figure"]');
    await page.waitForFunction(() => window.__vmdPreview?.info().model == null);
    await animationFrames(page, 2);
    const before = (await page.locator('[data-testid="preview-viewport"]').boundingBox())!.height;
    await dropFiles(page, [fileForDrop(GENE)]);
    await page.waitForFunction((n) => window.__vmdPreview?.info().model === n, GENE_NAME, { timeout: 60_000 });
    await page.waitForSelector('[data-testid="preview-missing-textures"]');
    await animationFrames(page, 2);
    const textures = parseGene().textures.length;
    expect(await page.$$eval('[data-testid="preview-texture-reason"]', (e) => e.length)).toBe(1);
    expect(await page.$$eval('[data-testid="preview-texture-row"]', (e) => e.length)).toBe(textures);
    expect(await page.$eval('[data-testid="preview-missing-textures"]', (e) => (e as HTMLDetailsElement).open)).toBe(false);
    const after = (await page.locator('[data-testid="preview-viewport"]').boundingBox())!.height;
    // The folded list is one line: the picture loses that line, not the ten rows (before: 735 → 551 px).
    expect(before - after).toBeLessThan(40);
    await s.app.screenshot('model-maker-dropped');
    await page.click('[data-testid="preview-missing-textures"] summary');
    await animationFrames(page, 2);
    const open = (await page.locator('[data-testid="preview-viewport"]').boundingBox())!.height;
    // Opened, the rows scroll within a bounded height.
    expect(before - open).toBeLessThan(200);
  });
});

describe.skipIf(!corpusPresent)('the Self-shadow switch (browser mode)', () => {
  const s = appForSuite({ viewport: { width: 1440, height: 900 } });

  it('off by default; on shows MMD\'s default self-shadow; a camera\'s self-shadow key rules; remembered', async () => {
    const { page } = s.app;
    await showModelThroughDialog(page, GENE, GENE_NAME);
    const shadow = () => page.evaluate(() => window.__vmdPreview!.selfShadow());
    expect(await page.isChecked('[data-testid="preview-self-shadow"]')).toBe(false);
    expect((await shadow()).casting).toBe(false);
    expect(await page.isVisible('[data-testid="preview-self-shadow-toonless"]')).toBe(false);
    await s.app.screenshot('model-maker-self-shadow-off');
    await page.check('[data-testid="preview-self-shadow"]');
    await animationFrames(page, 2);
    // MMD's default: mode 1, distance 8875 in its dialog = 0.1 − 8875 × 1e-5 stored.
    const on = await shadow();
    expect(on.casting).toBe(true);
    expect(on.mode).toBe(1);
    expect(on.distance).toBeCloseTo(0.1 - 8875e-5, 6);
    await s.app.screenshot('model-maker-self-shadow-on');
    // Gene's materials have no toon (mmd-parser: no shared toon, no toon texture), and MMD's self-shadow is the
    // toon's dark end: the preview says why nothing darkened (a model maker took the switch for broken).
    const parsed = parseGene();
    expect(parsed.materials.every((m) => m.toonFlag === 0 && m.toonIndex < 0)).toBe(true);
    expect(await page.textContent('[data-testid="preview-self-shadow-toonless"]')).toContain('no toon');
    expect(await page.getAttribute('[data-testid="preview-self-shadow"] >> xpath=..', 'title')).toContain('self-shadow keys');
    // A camera VMD whose self-shadow key says off: its key rules over the switch.
    const cam = path.join(s.tmp.dir, 'camera-shadow-off.vmd');
    writeFileSync(cam, buildFixture({ cameras: [{ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }], shadows: [{ frame: 0, mode: 0, distance: 0.01125 }] }));
    await loadPreviewCamera(page, cam);
    await animationFrames(page, 2);
    expect((await shadow()).casting).toBe(false);
    // No self-shadow in force: nothing to explain.
    expect(await page.isVisible('[data-testid="preview-self-shadow-toonless"]')).toBe(false);
    await page.click('[data-testid="preview-clear-camera"]');
    await animationFrames(page, 2);
    await page.waitForFunction(() => window.__vmdPreview!.selfShadow().casting);
    // A key with mode 1 rules with the switch off too, and the note says why Gene shows none (before: only with the switch on).
    await page.uncheck('[data-testid="preview-self-shadow"]');
    await page.waitForSelector('[data-testid="preview-self-shadow-toonless"]', { state: 'detached' });
    const camOn = path.join(s.tmp.dir, 'camera-shadow-mode1.vmd');
    writeFileSync(camOn, buildFixture({ cameras: [{ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }], shadows: [{ frame: 0, mode: 1, distance: 0.01125 }] }));
    await loadPreviewCamera(page, camOn);
    await page.waitForFunction(() => window.__vmdPreview!.selfShadow().casting);
    expect(await page.isChecked('[data-testid="preview-self-shadow"]')).toBe(false);
    const note = (await page.textContent('[data-testid="preview-self-shadow-toonless"]'))!;
    expect(note).toContain('Self-shadow mode 1 from this frame’s key (keys rule with the switch off too)');
    expect(note).toContain('no toon');
    await s.app.screenshot('model-maker-self-shadow-key');
    await page.click('[data-testid="preview-clear-camera"]');
    await page.waitForSelector('[data-testid="preview-self-shadow-toonless"]', { state: 'detached' });
    await page.check('[data-testid="preview-self-shadow"]');
    await page.waitForFunction(() => window.__vmdPreview!.selfShadow().casting);
    // Remembered: the page loaded anew has it on.
    await page.reload();
    await page.waitForSelector('[data-ready="true"]');
    await page.waitForFunction(() => (document.querySelector('[data-testid="preview-self-shadow"]') as HTMLInputElement | null)?.checked === true);
  });
});
