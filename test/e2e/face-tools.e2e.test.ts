/**
 * A face maker's tools (new-user pass nupose 2, 5, 6, 7), end to end in Chromium on Gene_light.pmx with stand.vmd,
 * in the Japanese UI at 1600×900 and the English UI at 1920×1080:
 *  - the 表情 tab hides the joint dots (back on another tab); its search lists matching morphs of every group;
 *  - a morph key set there, copied, and Paste ×N… from frame 90: the dialog's line says the pastes, keys and frames
 *    before Paste, and Paste is one undo step writing those keys;
 *  - Copy face at a frame between keys, pasted at another frame: every morph keyed there at its weight in between;
 *  - Export VPD at Frame… asks what goes in with its counts; "morphs only" writes a face preset (0 bones), read back
 *    with the reader the CLI uses;
 *  - the wheel over the head zooms toward it: the head stays near the pointer and grows.
 * Screenshots: test-artifacts/face-tools-<locale>-*.png.
 */
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, fileDialogReady, showModelThroughDialog } from './harness';
import { animationFrames, openFresh, seekFrameField } from './editor-page';
import { buildTracks, readVmd, readVpd } from '../../shared/vmd';
import { readModel } from '../../shared/pmx/model-reader';

const GENE = corpusPath('gene/Gene_light.pmx');
const STAND = corpusPath('gene/motion/stand.vmd');

const docBytes = (page: Page) => page.evaluate(() => window.__vmdEditor!.bytes());

function docOf(b64: string | null) {
  const r = readVmd(new Uint8Array(Buffer.from(b64!, 'base64')));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

for (const run of [
  { locale: 'ja-JP', viewport: { width: 1600, height: 900 }, plan: '5 回貼り付け、キー 5 個、フレーム 90–210' },
  { locale: 'en-US', viewport: { width: 1920, height: 1080 }, plan: '5 pastes, 5 keys, frames 90–210' },
]) {
  describe(`face tools (${run.locale}, ${run.viewport.width}×${run.viewport.height})`, () => {
    const s = appForSuite({ viewport: run.viewport, locale: run.locale });
    const shot = (name: string) => s.app.screenshot(`face-tools-${run.locale}-${name}`);
    const m = readModel(new Uint8Array(readFileSync(GENE)));
    if (!m.ok) throw new Error(m.error.message);
    // An eye morph (panel 2) whose name fits a VMD field.
    const eye = m.value.morphs.find((x) => x.panel === 2 && Buffer.byteLength(x.name, 'utf8') <= 12)!;

    it('the 表情 tab hides the dots and searches every group; Paste ×N… and Export VPD (morphs only)', async () => {
      const { page } = s.app;
      const file = path.join(s.tmp.dir, 'stand.vmd');
      copyFileSync(STAND, file);
      await openFresh(page, file);
      await showModelThroughDialog(page, GENE, 'ジェネ / Gene');
      await seekFrameField(page, 60);
      expect(await page.isChecked('[data-testid="preview-bones"]')).toBe(true);
      await page.click('[data-testid="side-tab-morphs"]');
      await page.waitForFunction(() => !(document.querySelector('[data-testid="preview-bones"]') as HTMLInputElement).checked);

      // Search: the eye morph's first two characters; every row shown holds them.
      const q = [...eye.name].slice(0, 2).join('');
      await page.fill('[data-testid="morph-search"]', q);
      const rows = await page.$$eval('[data-testid="morph-row"]', (els) => els.map((e) => (e as HTMLElement).dataset.morph!));
      expect(rows).toContain(eye.name);
      const byName = new Map(m.value.morphs.map((x) => [x.name, x]));
      for (const r of rows) expect(`${r} ${byName.get(r)?.nameEn ?? ''}`.normalize('NFKC').toLowerCase()).toContain(q.normalize('NFKC').toLowerCase());
      await shot('morph-search');

      // A key of the eye morph at 60, weight 1 (Enter in the number): it is selected; copy it.
      const row = page.locator(`[data-testid="morph-row"][data-morph="${eye.name}"]`);
      await row.locator('[data-testid="morph-weight"]').fill('1');
      await row.locator('[data-testid="morph-weight"]').press('Enter');
      await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
      await page.press('[data-testid="morph-search"]', 'Escape');
      expect(await page.inputValue('[data-testid="morph-search"]')).toBe('');
      await page.click('[data-testid="copy-keys"]');
      await seekFrameField(page, 90);
      const before = docOf(await docBytes(page)).morph.count;

      // Paste ×N…: 5 pastes every 30 frames from 90.
      await page.click('[data-testid="paste-repeat"]');
      await page.fill('[data-testid="paste-repeat-times"]', '5');
      await page.fill('[data-testid="paste-repeat-every"]', '30');
      expect((await page.textContent('[data-testid="paste-repeat-plan"]'))!.trim()).toBe(run.plan);
      await shot('paste-repeat');
      await page.click('[data-testid="paste-repeat-go"]');
      await page.waitForFunction(() => window.__vmdEditor!.history().undo === 2);
      const after = docOf(await docBytes(page));
      expect(after.morph.count).toBe(before + 5);
      const t = buildTracks(after).morphs;
      const tr = t.index.get(eye.name)!;
      // stand.vmd keys every morph at 0; the key set at 60 and the five pasted follow it.
      expect([...t.frames.subarray(t.start[tr], t.start[tr + 1])].filter((f) => f > 0)).toEqual([60, 90, 120, 150, 180, 210]);

      // Export VPD: the pasted keys selected (1 morph); choose morphs only.
      await page.click('[data-testid="cmd-export"]');
      await page.click('[data-testid="cmd-export-vpd"]');
      await page.waitForSelector('[data-testid="vpd-parts-dialog"]');
      const counts = await page.$$eval('[data-testid="vpd-part"]', (els) => Object.fromEntries(els.map((e) => [(e as HTMLElement).dataset.part, e.querySelector('[data-testid="vpd-part-count"]')!.textContent!.trim()])));
      const morphTracks = t.names.length;
      const boneTracks = buildTracks(after).bones.names.length;
      expect(counts.selected).toBe(run.locale === 'ja-JP' ? 'ボーン 0 個、表情 1 個' : '0 bones, 1 morph');
      expect(counts.morphs).toBe(run.locale === 'ja-JP' ? `ボーン 0 個、表情 ${morphTracks} 個` : `0 bones, ${morphTracks} morphs`);
      expect(counts.all).toBe(run.locale === 'ja-JP' ? `ボーン ${boneTracks} 個、表情 ${morphTracks} 個` : `${boneTracks} bones, ${morphTracks} morphs`);
      await shot('export-vpd');
      await page.check('[data-part="morphs"] input');
      await page.click('[data-testid="vpd-parts-next"]');
      await fileDialogReady(page);
      const out = path.join(s.tmp.dir, 'face.vpd');
      await page.fill('[data-testid="file-dialog-path"]', out);
      await page.click('[data-testid="file-dialog-go"]');
      await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
      await expect.poll(() => existsSync(out), { timeout: 10_000 }).toBe(true);
      const pose = readVpd(new Uint8Array(readFileSync(out)));
      expect(pose.ok).toBe(true);
      if (!pose.ok) return;
      expect(pose.value.bones).toEqual([]);
      expect(pose.value.morphs.length).toBe(morphTracks);
      // At frame 90 the eye morph is keyed 1.
      expect(pose.value.morphs.find((x) => x.name === eye.name)?.weight).toBe(1);

      // Copy face (numorph 7) at 30, where the eye morph lies halfway between stand.vmd's key at 0 and the 1 set at 60:
      // Paste at 300 keys every morph track there, the eye morph at the weight in between, as one undo step.
      const eye0 = t.weight[t.start[tr]];
      expect(t.frames[t.start[tr]]).toBe(0);
      await seekFrameField(page, 30);
      await page.click('[data-testid="morph-copy-face"]');
      await seekFrameField(page, 300);
      await page.click('[data-testid="paste-keys"]');
      await page.waitForFunction(() => window.__vmdEditor!.history().undo === 3);
      const face = buildTracks(docOf(await docBytes(page))).morphs;
      const at300 = face.names.filter((_, i) => face.frames.subarray(face.start[i], face.start[i + 1]).includes(300));
      expect(at300.length).toBe(morphTracks);
      const ft = face.index.get(eye.name)!;
      expect(face.frames[face.start[ft + 1] - 1]).toBe(300);
      expect(face.weight[face.start[ft + 1] - 1]).toBeCloseTo(eye0 + (1 - eye0) / 2, 6);

      // Back on another tab the dots come back.
      await page.click('[data-testid="side-tab-bones"]');
      await page.waitForFunction(() => (document.querySelector('[data-testid="preview-bones"]') as HTMLInputElement).checked);
      expect(s.app.errors).toEqual([]);
    });

    it('the wheel over the head zooms toward it', async () => {
      const { page } = s.app;
      await page.click('[data-testid="side-tab-morphs"]');
      await animationFrames(page, 2);
      const head0 = (await page.evaluate(() => window.__vmdPreview!.boneScreenPosition('頭')))!;
      const neck0 = (await page.evaluate(() => window.__vmdPreview!.boneScreenPosition('首')))!;
      expect(head0).not.toBeNull();
      await page.mouse.move(head0[0], head0[1]);
      for (let i = 0; i < 12; i++) {
        await page.mouse.wheel(0, -200);
        await animationFrames(page, 1);
      }
      await animationFrames(page, 2);
      const head = (await page.evaluate(() => window.__vmdPreview!.boneScreenPosition('頭')))!;
      const neck = (await page.evaluate(() => window.__vmdPreview!.boneScreenPosition('首')))!;
      expect(head, 'the head is still in view').not.toBeNull();
      // The head stays near the pointer, and the head–neck distance on screen grew (closer).
      expect(Math.hypot(head[0] - head0[0], head[1] - head0[1])).toBeLessThan(25);
      expect(Math.hypot(head[0] - neck[0], head[1] - neck[1])).toBeGreaterThan(2 * Math.hypot(head0[0] - neck0[0], head0[1] - neck0[1]));
      await shot('face-zoom');
      await page.click('[data-testid="side-tab-file"]');
    });
  });
}
