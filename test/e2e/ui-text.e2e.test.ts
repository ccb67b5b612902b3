/**
 * Text a new user found cut, wrapped mid-word or touching (a first-run report, in English and Japanese), read
 * from the real layout in Chromium:
 *  - Video…: "250 frames, 8.33 s" ("250 フレーム、8.33 秒") stays on one line, Render and Close do not touch,
 *    and no music or no camera in the scene is a line of text, not a greyed box (the camera's says what is filmed);
 *  - the curve pane with a key selected: "Frames 0–125" / "Angle turned (°)" whole (was "Frames 0–1…"), the key's
 *    caption above the square (it covered the 127 corner and the handle's line), "Paste on"'s boxes on one line;
 *  - the Morphs tab on Gene: a name too long for its column keeps its end (eye_wink_geo_L and _R were both "eye_wi…");
 *  - the preview header at 1280×720 with Gene and a camera: nothing clipped at the window's edge, room for the
 *    model's name, and every control named (its text, or an aria-label and a tooltip for a glyph);
 *  - the BVH import dialog: the Foot IK choice whole (was "auto (when the model ha"), and in Japanese the humanoid
 *    parts by their MMD bone or a Japanese label (upperChest, leftToes showed in English);
 *  - the key inspector's labels on one line (クォータニオン broke after クォータニオ).
 * Screenshots: test-artifacts/ui-text-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, fileDialogReady, openThroughDialog, showModelThroughDialog, shownMorphNames, textFits } from './harness';
import { animationFrames, clickKey, openFresh } from './editor-page';

const WAVE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const GENE = corpusPath('gene/Gene_light.pmx');
const CAMERA_FILE = corpusPath('threejs/vmds/wavefile_camera.vmd');
const WALK = corpusPath('bvh11/resources/131_01.bvh');

/** Gene_light in the preview (its own name, ジェネ / Gene). */
const loadGene = (page: Page) => showModelThroughDialog(page, GENE, 'ジェネ / Gene');

async function setLocale(page: Page, locale: 'en' | 'ja') {
  await page.selectOption('[data-testid="locale"]', locale);
  await animationFrames(page, 2);
}

/** One element's text lines and whether it is cut at the side (harness textFits). */
async function textLines(page: Page, selector: string): Promise<{ text: string; lines: number; cut: boolean }> {
  const [t] = await textFits(page, [selector]);
  return { text: t.text, lines: t.lines, cut: t.wide };
}

async function gapBetween(page: Page, left: string, right: string): Promise<number> {
  const a = (await page.locator(left).boundingBox())!;
  const b = (await page.locator(right).boundingBox())!;
  return b.x - (a.x + a.width);
}

describe('text a new user found cut or wrapped', () => {
  const s = appForSuite({ viewport: { width: 1440, height: 900 } });

  it('Video…: the frame count on one line, Render apart from Close, no music as a line of text (en, ja)', async () => {
    const { page } = s.app;
    await openFresh(page, WAVE);
    await page.click('[data-testid="cmd-export-video"]');
    await page.waitForSelector('[data-testid="video-dialog"]');
    for (const locale of ['en', 'ja'] as const) {
      await setLocale(page, locale);
      const frames = await textLines(page, '[data-testid="video-frames"]');
      expect(frames.lines, `${locale}: "${frames.text}" wraps`).toBe(1);
      expect(await gapBetween(page, '[data-testid="video-start"]', '[data-testid="video-close"]'), `${locale}: Render touches Close`).toBeGreaterThanOrEqual(4);
      expect(await page.locator('[data-testid="video-music"]').count(), `${locale}: a box to tick without music`).toBe(0);
      expect(await textLines(page, '[data-testid="video-no-music"]')).toMatchObject({ lines: 1, cut: false });
      // No camera in the scene: a plain line saying what is filmed (the preview's view, held still), not a greyed box.
      expect(await page.locator('[data-testid="video-camera"]').count(), `${locale}: a box to tick without a camera`).toBe(0);
      const noCamera = await textLines(page, '[data-testid="video-no-camera"]');
      expect(noCamera.cut, `${locale}: "${noCamera.text}" cut`).toBe(false);
      expect(noCamera.text).toMatch(locale === 'en' ? /preview’s view as it is now, held still/ : /プレビューの今の視点のまま撮ります/);
      // Japanese on one line (it broke inside 動かさずに); English may wrap, between words.
      if (locale === 'ja') expect(noCamera.lines, `ja: "${noCamera.text}" wraps`).toBe(1);
      await s.app.screenshot(`ui-text-video-${locale}`);
    }
    await page.click('[data-testid="video-close"]');
    await setLocale(page, 'en');
  });

  it('the curve pane: the plot caption whole, the key caption clear of the square, Paste on\'s boxes on one line (en, ja)', async () => {
    const { page } = s.app;
    await openFresh(page, WAVE);
    await clickKey(page, 'track-bone:0', 125);
    await page.waitForSelector('[data-testid="curve-plot-caption"]');
    for (const locale of ['en', 'ja'] as const) {
      await setLocale(page, locale);
      for (const ch of ['x', 'r']) {
        await page.click(`[data-testid="curve-channel-${ch}"]`);
        await animationFrames(page, 2);
        const what = await textLines(page, '[data-testid="curve-plot-caption"] .what');
        expect.soft(what.cut, `${locale} ${ch}: "${what.text}" cut`).toBe(false);
        const inside = await page.evaluate(() => {
          const w = document.querySelector('[data-testid="curve-plot-caption"] .what')!.getBoundingClientRect();
          const side = document.querySelector('[data-testid="curve-plot-caption"]')!.getBoundingClientRect();
          return w.right <= side.right + 0.5;
        });
        expect.soft(inside, `${locale} ${ch}: "${what.text}" runs past the column`).toBe(true);
      }
      const clear = await page.evaluate(() => {
        const cap = document.querySelector('[data-testid="curve-target"]')!.getBoundingClientRect();
        const cv = document.querySelector('[data-testid="curve-canvas"]') as HTMLCanvasElement;
        const top = cv.getBoundingClientRect().top + Number(cv.dataset.oy) - Number(cv.dataset.size);
        return { bottom: cap.bottom, top };
      });
      expect.soft(clear.bottom, `${locale}: the key caption over the square`).toBeLessThanOrEqual(clear.top);
      const tops = await page.$$eval('[data-testid^="paste-ch-"]', (els) => [...new Set(els.map((e) => Math.round(e.getBoundingClientRect().top)))]);
      expect.soft(tops.length, `${locale}: Paste on's boxes split over lines`).toBe(1);
      await s.app.screenshot(`ui-text-curve-${locale}`);
    }
    await setLocale(page, 'en');
  });

  it('the Morphs tab: a long name wraps (eye_…_L and eye_…_R read apart), cut only at its end; the whole name in its tooltip', async () => {
    const { page } = s.app;
    await openFresh(page, WAVE);
    await loadGene(page);
    await page.click('[data-testid="side-tab-morphs"]');
    await page.waitForSelector('[data-testid="morph-row"]');
    const rows = await shownMorphNames(page);
    expect(rows.filter((r) => r.lines > 1).length, 'no name wraps: the test sees nothing').toBeGreaterThan(0);
    for (const r of rows) expect.soft(r.title, r.name).toBe(r.name);
    // A name cut at all is cut at its end: what shows is its start.
    for (const r of rows.filter((x) => x.cut)) expect.soft(r.name.startsWith(r.shown.slice(0, -1)), r.name).toBe(true);
    const byShown = new Map<string, string[]>();
    for (const r of rows) byShown.set(r.shown, [...(byShown.get(r.shown) ?? []), r.name]);
    const same = [...byShown.entries()].filter(([, names]) => new Set(names).size > 1);
    expect(same, 'names that read the same').toEqual([]);
    await s.app.screenshot('ui-text-morphs');
  });

  it('the preview header at 1280×720 with a model and a camera: nothing clipped, the name readable, every control named (en, ja)', async () => {
    const { page } = s.app;
    await page.setViewportSize({ width: 1280, height: 720 });
    if (!(await page.textContent('[data-testid="preview-model-name"]'))?.includes('ジェネ')) await loadGene(page);
    // A new motion (no keys yet: it may become a camera's) shows Register view too: the longest row.
    await page.click('[data-testid="cmd-new-motion"]');
    await page.waitForSelector('[data-testid="preview-register-view"]');
    await page.click('[data-testid="preview-open-camera"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', CAMERA_FILE);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForSelector('[data-testid="preview-clear-camera"]');
    for (const locale of ['en', 'ja'] as const) {
      await setLocale(page, locale);
      const r = await page.evaluate(() => {
        const bar = document.querySelector('[data-testid="preview-pane"] header.bar') as HTMLElement;
        const hb = bar.getBoundingClientRect();
        const out: string[] = [], unnamed: string[] = [];
        for (const e of bar.querySelectorAll('button, label, input')) {
          const el = e as HTMLElement;
          const b = el.getBoundingClientRect();
          if (!b.width) continue;
          if (b.right > hb.right + 0.5 || b.left < hb.left - 0.5 || b.right > window.innerWidth) out.push(el.dataset.testid ?? el.outerHTML.slice(0, 50));
          if (el.tagName === 'BUTTON' || el.tagName === 'INPUT') {
            const text = el.tagName === 'BUTTON' ? el.textContent!.trim() : '';
            const glyph = !/\p{L}{2}/u.test(text);
            const label = el.getAttribute('aria-label') ?? '';
            const title = el.title || (el.closest('label') as HTMLElement | null)?.title || '';
            if (glyph && (!label && !/\p{L}{2}/u.test(title))) unnamed.push(el.dataset.testid ?? el.outerHTML.slice(0, 50));
            if (glyph && !title) unnamed.push(`${el.dataset.testid}: no tooltip`);
          }
        }
        const name = bar.querySelector('[data-testid="preview-model-name"]') as HTMLElement;
        return { out, unnamed, overflow: bar.scrollWidth - bar.clientWidth, nameEms: name.clientWidth / parseFloat(getComputedStyle(name).fontSize), nameCut: name.scrollWidth > name.clientWidth + 0.5, name: name.textContent };
      });
      expect.soft(r.out, `${locale}: controls past the header's edge`).toEqual([]);
      expect.soft(r.overflow, `${locale}: the header overflows`).toBeLessThanOrEqual(0);
      expect.soft(r.nameCut, `${locale}: "${r.name}" cut (${r.nameEms.toFixed(1)} em)`).toBe(false);
      expect.soft(r.unnamed, `${locale}: glyph controls without a name or tooltip`).toEqual([]);
      await s.app.screenshot(`ui-text-preview-header-1280-${locale}`);
    }
    await setLocale(page, 'en');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('the BVH import dialog: Foot IK\'s choice whole; in Japanese no part named only in English', async () => {
    const { page } = s.app;
    await openThroughDialog(page, ['cmd-open'], WALK);
    await page.waitForSelector('[data-testid="mocap-dialog"][data-ready="true"]', { timeout: 120_000 });
    for (const locale of ['en', 'ja'] as const) {
      await setLocale(page, locale);
      // The chosen option's text against the select's room (less its arrow), in the select's own font.
      const fit = await page.evaluate(() => {
        const sel = document.querySelector('[data-testid="mocap-foot-ik"]') as HTMLSelectElement;
        const cs = getComputedStyle(sel);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const text = sel.options[sel.selectedIndex].text;
        const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
        return { text, width: ctx.measureText(text).width, room };
      });
      expect.soft(fit.width, `${locale}: "${fit.text}" cut in Foot IK`).toBeLessThanOrEqual(fit.room);
      if (locale === 'ja') {
        const english = await page.evaluate(() => {
          const out: string[] = [];
          for (const o of document.querySelectorAll('[data-testid="mocap-dialog"] tbody select option')) {
            const text = (o as HTMLOptionElement).text;
            // Each part's label leads with Japanese (the map file's name may follow in brackets).
            if (/^[A-Za-z]/.test(text)) out.push(text);
          }
          const lacks = document.querySelector('[data-testid="mocap-report-lacks"]')?.textContent ?? '';
          if (/upperChest|Toes/.test(lacks)) out.push(lacks);
          return [...new Set(out)];
        });
        expect(english, 'parts named only in English').toEqual([]);
      }
      await s.app.screenshot(`ui-text-bvh-${locale}`);
    }
    await setLocale(page, 'en');
    await page.click('[data-testid="mocap-close"]');
  });

  it('the key inspector: every row label on one line (en, ja)', async () => {
    const { page } = s.app;
    await openFresh(page, WAVE);
    await clickKey(page, 'track-bone:0', 125);
    await page.waitForSelector('[data-testid="inspector-quat-w"]');
    for (const locale of ['en', 'ja'] as const) {
      await setLocale(page, locale);
      const labels = await page.$$eval('[data-testid="key-inspector"] .row > span', (spans) => spans.map((e) => e.textContent!.trim()));
      expect(labels.length).toBeGreaterThan(3);
      const broken = await page.evaluate(() => {
        const out: string[] = [];
        for (const el of document.querySelectorAll('[data-testid="key-inspector"] .row > span')) {
          const r = document.createRange();
          r.selectNodeContents(el);
          const tops = new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top + b.height / 2)));
          if (tops.size > 1) out.push(el.textContent!.trim());
        }
        return out;
      });
      expect(broken, `${locale}: labels broken over lines`).toEqual([]);
      await s.app.screenshot(`ui-text-inspector-${locale}`);
    }
    await setLocale(page, 'en');
  });
});
