/**
 * "Fit this motion to the model…" (issue 28) in Chromium through the browser mode: a scene whose actor is on
 * Gene_light.pmx dances wavefile_v2.vmd, a dance made for a Miku (its header names 初音ミク). The offer shows
 * beside the bones the model lacks; the panel takes the low-poly Miku as the source through the file dialog
 * and fits in the worker; the preview shows the source ghosted (its materials blended at under half opacity)
 * to Gene's left (its pixels counted in the region its joints span, apart from Gene's, against the bare
 * background of those rows); a --map file settles two bones the
 * names leave out; Enter applies; Whole Motion → Fit to model… stays there after it (the header now names
 * Gene, so nothing is suggested); Save asks for a new file, dance_<Gene's name>.vmd beside the dance, and
 * writes there exactly what the CLI `retarget` writes for the same inputs and options (run here as the
 * independent path), the dance's own file untouched; the saved motion plays on Gene with no bone the model
 * lacks; undo gives back the file's exact bytes and redo the retarget's (saved to the new file, unasked).
 * Screenshots: test-artifacts/retarget-side-by-side.png (panel, ghost and actor), retarget-whole-motion-fit.png
 * (Whole Motion with Fit to model… after the Apply), retarget-applied.png.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { encodePng } from '../helpers/png';
import { appForSuite, ARTIFACTS, corpusPath, fileDialogReady, openSceneViaDialog, openThroughDialog, ROOT, writeSceneFolder } from './harness';
import { animationFrames, seekPreview } from './editor-page';
import { readModel } from '../../shared/pmx/model-reader';
import { corpusPresent } from '../helpers/corpus';
import { copyWritable } from '../helpers/corpus';

const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
const GENE = corpusPath('gene/Gene_light.pmx');
const DANCE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
/** Two motion bones neither name matching nor aliases give Gene, settled by the map. */
const MAP = 'old,new\nﾈｸﾀｲ４,前クローク1_1\n左髪７,後髪A1_1\n';
const GHOST_BONES = ['頭', 'センター', '左足首', '右足首', '左手首', '右手首', '左ひじ', '右ひじ'];

const modelName = (file: string) => {
  const m = readModel(new Uint8Array(readFileSync(file)));
  if (!m.ok) throw new Error(`${file} does not read`);
  return m.value.name;
};
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

type Frame = { width: number; height: number; rgba: string };
const frameImage = (page: Page): Promise<Frame> => page.evaluate(() => window.__vmdPreview!.frameImage());

async function waitReady(page: Page) {
  await page.waitForSelector('[data-testid="retarget-panel"][data-state="ready"]', { timeout: 180_000 });
}

async function saveAndWait(page: Page) {
  await page.click('[data-testid="cmd-save"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="scene-tab"]')?.getAttribute('data-dirty') === 'false', undefined, { timeout: 30_000 });
}

describe.skipIf(!corpusPresent)('fit a motion to the model (browser mode)', () => {
  const s = appForSuite();

  it('ghosts the source beside the actor, applies as one step, saves what the CLI writes, undoes to the exact bytes', async () => {
    const page = s.app.page;
    const dir = s.tmp.dir;
    const scene = writeSceneFolder(dir, [[DANCE, 'dance.vmd']], { actors: [{ name: 'Gene', model: GENE, motion: 'dance.vmd' }], activeActor: 0 });
    const mapFile = path.join(dir, 'map.csv');
    writeFileSync(mapFile, MAP);
    const motionFile = path.join(dir, 'dance.vmd');
    const original = new Uint8Array(readFileSync(motionFile));

    // The independent path: the `vmd-studio` program (built by the suite's start) on the same motion,
    // models and map, with its default options.
    const cliOut = path.join(dir, 'cli.vmd');
    const cli = spawnSync(process.execPath, [path.join(ROOT, 'electron/cli/vmd-studio.mjs'), 'retarget', DANCE, '--from', MIKU, '--to', GENE, '-o', cliOut, '--map', mapFile], { cwd: dir, encoding: 'utf8' });
    expect(cli.status, cli.stderr).toBe(0);
    const expected = new Uint8Array(readFileSync(cliOut));

    await openSceneViaDialog(page, scene);
    const gene = modelName(GENE);
    await page.waitForFunction((n) => window.__vmdPreview?.info().model === n, gene, { timeout: 90_000 });
    // The dance names a Miku: Gene lacks many of its bones, and the offer sits beside that list.
    await page.waitForSelector('[data-testid="retarget-open"]', { timeout: 30_000 });
    const missingBefore = await page.evaluate(() => window.__vmdPreview!.info().missingBones);
    expect(missingBefore).toBeGreaterThan(10);
    await seekPreview(page, 200);

    await page.click('[data-testid="retarget-open"]');
    await page.waitForSelector('[data-testid="retarget-panel"][data-state="choose"]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid="retarget-intro"]')).toContain('初音ミク');

    await openThroughDialog(page, ['retarget-browse'], MIKU);
    const t0 = Date.now();
    await waitReady(page);
    console.log(`[perf] retarget of wavefile_v2 (2809 frames) low-poly Miku → Gene in the worker, model read to report: ${Date.now() - t0} ms`);
    expect(await page.getAttribute('[data-testid="retarget-panel"]', 'data-via')).toBe('worker');
    const unmatched = () => page.$$eval('[data-testid="retarget-unmatched-bone"]', (els) => els.map((e) => e.getAttribute('data-bone')));
    expect(await unmatched()).toEqual(expect.arrayContaining(['ﾈｸﾀｲ４', '左髪７']));
    // The report names what was scaled (Gene's legs are longer) and re-fitted.
    expect(await page.textContent('[data-testid="retarget-legs"]')).toMatch(/× 1\.8\d/);

    // The map file settles the two bones: fitted again without them left out.
    await page.setInputFiles('[data-testid="retarget-map-file"]', mapFile);
    await page.waitForSelector('[data-testid="retarget-map-name"]');
    await page.waitForFunction(() => {
      const bones = [...document.querySelectorAll('[data-testid="retarget-unmatched-bone"]')].map((e) => e.getAttribute('data-bone'));
      return document.querySelector('[data-testid="retarget-panel"]')?.getAttribute('data-state') === 'ready' && bones.length > 0 && !bones.includes('ﾈｸﾀｲ４');
    }, undefined, { timeout: 180_000 });
    expect(await page.$$eval('[data-testid="retarget-row"]', (r) => r.length)).toBe(2);
    expect(await unmatched()).not.toContain('左髪７');

    // The ghost is drawn: one more companion, the source model, with its pixels where its joints are.
    const keys: string[] = await page.evaluate(() => window.__vmdPreview!.companions());
    const ghost = keys.find((k) => k.startsWith('-1:ghost:'));
    expect(ghost, keys.join(', ')).toBeDefined();
    // Ghosted: every material of the source blended at less than full opacity; it stands to the actor's left.
    const look = await page.evaluate((k) => window.__vmdPreview!.companionLook(k), ghost!);
    expect(look!.visible).toBe(true);
    expect(look!.opacity.length).toBeGreaterThan(0);
    for (const o of look!.opacity) expect(o).toBeLessThanOrEqual(0.5);
    expect(look!.transparent.every((x) => x)).toBe(true);
    expect(look!.position[0]).toBeLessThan(-10);
    // While the panel is open Gene plays the result: it keys only bones Gene has.
    expect(await page.evaluate(() => window.__vmdPreview!.info().missingBones)).toBe(0);
    await animationFrames(page, 3);
    const after = await frameImage(page);
    const region = await page.evaluate(
      ({ key, names }) => {
        const c = document.querySelector('[data-testid="preview-canvas"]')!.getBoundingClientRect();
        const pts = names.map((n) => window.__vmdPreview!.companionBoneScreenPosition(key, n)).filter((p): p is [number, number] => !!p);
        return { pts: pts.map(([x, y]) => [x - c.left, y - c.top]), width: c.width, height: c.height };
      },
      { key: ghost!, names: GHOST_BONES },
    );
    expect(region.pts.length).toBe(GHOST_BONES.length);
    const xs = region.pts.map((p) => p[0]), ys = region.pts.map((p) => p[1]);
    const sx = after.width / region.width, sy = after.height / region.height;
    const x0 = Math.max(0, Math.floor(Math.min(...xs) * sx)), x1 = Math.min(after.width - 1, Math.ceil(Math.max(...xs) * sx));
    const y0 = Math.max(0, Math.floor(Math.min(...ys) * sy)), y1 = Math.min(after.height - 1, Math.ceil(Math.max(...ys) * sy));
    // The region lies apart from the actor (left of every joint of Gene's drawn), so what changes in it is the ghost.
    const geneXs = await page.evaluate(
      ({ names }) => {
        const c = document.querySelector('[data-testid="preview-canvas"]')!.getBoundingClientRect();
        return names.map((n) => window.__vmdPreview!.boneScreenPosition(n)).filter((p): p is [number, number] => !!p).map((p) => p[0] - c.left);
      },
      { names: ['頭', 'センター', '左足首', '右足首', '左手首', '右手首', '左ひじ', '右ひじ', '左つま先', '右つま先'] },
    );
    expect(geneXs.length).toBeGreaterThan(6);
    expect(x1, `ghost region ends at ${x1} px, Gene's leftmost joint at ${Math.min(...geneXs) * sx} px`).toBeLessThan(Math.min(...geneXs) * sx - 10);
    // Ghost pixels: in the rows of the region where the picture's left edge shows the bare background
    // (above the floor's grid), every pixel that is not that background is something drawn there.
    const b = Buffer.from(after.rgba, 'base64');
    const bg = [b[0], b[1], b[2]];
    const off = (o: number, c: number[]) => Math.abs(b[o] - c[0]) + Math.abs(b[o + 1] - c[1]) + Math.abs(b[o + 2] - c[2]);
    let changed = 0, total = 0;
    for (let y = y0; y <= y1; y++) {
      if (off(4 * y * after.width + 4, bg) > 6) continue; // the grid (or anything) reaches the left edge here
      for (let x = x0; x <= x1; x++) {
        total++;
        if (off(4 * (y * after.width + x), bg) > 30) changed++;
      }
    }
    console.log(`[retarget] ghost region ${x1 - x0 + 1}×${y1 - y0 + 1} px: ${changed} of ${total} differ from the background`);
    expect(total).toBeGreaterThan(1000);
    expect(changed / total).toBeGreaterThan(0.1);
    // And the ghost stands apart from Gene: its head is left of Gene's on screen.
    const geneHead = await page.evaluate(() => window.__vmdPreview!.boneScreenPosition('頭'));
    const ghostHead = await page.evaluate((k) => window.__vmdPreview!.companionBoneScreenPosition(k, '頭'), ghost!);
    expect(ghostHead![0]).toBeLessThan(geneHead![0] - 20);
    // The drawn frame itself (the page's picture of it follows on software GL).
    writeFileSync(path.join(ARTIFACTS, 'retarget-preview-frame.png'), encodePng({ width: after.width, height: after.height, data: new Uint8Array(b) }));
    await animationFrames(page, 3);
    await s.app.screenshot('retarget-side-by-side');

    // Enter applies: one undo step; the panel and the ghost go; the motion now names Gene.
    // (Enter on a focused button is that button's; the last click left the focus on one.)
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="retarget-panel"]', { state: 'detached', timeout: 30_000 });
    await page.waitForFunction(() => !window.__vmdPreview!.companions().some((k) => k.startsWith('-1:ghost:')));
    expect(await page.isVisible('[data-testid="retarget-open"]')).toBe(false);
    expect(await page.isVisible('[data-testid="preview-missing-bones"]')).toBe(false);
    // Where that list was, what folding did: the map's chains folded into the bones it named.
    await page.waitForSelector('[data-testid="preview-fitted"]');
    expect(Number(await page.getAttribute('[data-testid="preview-fitted"]', 'data-folded'))).toBeGreaterThan(0);
    expect(await page.textContent('[data-testid="preview-fitted"] summary')).toContain(modelName(MIKU));

    // Nothing is suggested now (the header names Gene), but Whole Motion → Fit to model… is still there.
    await page.click('[data-testid="whole-motion"]');
    await page.waitForSelector('[data-testid="batch-dialog"]');
    expect(await page.isVisible('[data-testid="batch-retarget"]')).toBe(false);
    expect(await page.isEnabled('[data-testid="whole-fit-model"]')).toBe(true);
    await s.app.screenshot('retarget-whole-motion-fit');
    await page.click('[data-testid="whole-fit-model"]');
    await page.waitForSelector('[data-testid="batch-dialog"]', { state: 'detached' });
    await page.waitForSelector('[data-testid="retarget-panel"][data-state="choose"]');
    expect(await page.textContent('[data-testid="retarget-intro"]')).toContain(gene);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="retarget-panel"]', { state: 'detached' });

    // Save asks for a new file beside the dance, named after Gene (file-name-safe, no spaces: "ジェネ / Gene" →
    // ジェネ_Gene), and writes what the CLI wrote there.
    expect(gene).toBe('ジェネ / Gene');
    const fittedName = 'dance_ジェネ_Gene.vmd';
    const fittedFile = path.join(dir, fittedName);
    await page.click('[data-testid="cmd-save"]');
    await fileDialogReady(page);
    expect(await page.inputValue('[data-testid="file-dialog-name"]')).toBe(fittedName);
    expect(path.resolve(await page.inputValue('[data-testid="file-dialog-path"]'))).toBe(path.resolve(dir));
    await page.click('[data-testid="file-dialog-accept"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    await page.waitForFunction(() => document.querySelector('[data-testid="scene-tab"]')?.getAttribute('data-dirty') === 'false', undefined, { timeout: 30_000 });
    const saved = new Uint8Array(readFileSync(fittedFile));
    expect(saved.length).toBe(expected.length);
    expect(same(saved, expected)).toBe(true);
    expect(same(new Uint8Array(readFileSync(motionFile)), original)).toBe(true);
    // It plays on Gene with no bone left unmatched: none the model lacks, at any frame shown.
    for (const f of [0, 600, 1500]) {
      await seekPreview(page, f);
      expect(await page.evaluate(() => window.__vmdPreview!.info().missingBones)).toBe(0);
    }
    await s.app.screenshot('retarget-applied');

    // Undo gives back the dance as it was (header included), redo the retarget: exact bytes each time.
    // Later Saves go to the new file without asking.
    copyWritable(fittedFile, path.join(dir, 'first-save.vmd'));
    await page.click('[data-testid="cmd-undo"]');
    await page.waitForSelector('[data-testid="retarget-open"]', { timeout: 30_000 });
    expect(await page.isVisible('[data-testid="preview-fitted"]')).toBe(false);
    await saveAndWait(page);
    expect(same(new Uint8Array(readFileSync(fittedFile)), original)).toBe(true);
    await page.click('[data-testid="cmd-redo"]');
    await page.waitForFunction(() => !document.querySelector('[data-testid="retarget-open"]'));
    await page.waitForSelector('[data-testid="preview-fitted"]');
    await saveAndWait(page);
    expect(same(new Uint8Array(readFileSync(fittedFile)), expected)).toBe(true);
    expect(same(new Uint8Array(readFileSync(motionFile)), original)).toBe(true);
    expect(s.app.errors).toEqual([]);
  }, 900_000);

  it('from Whole Motion too; Escape cancels: the motion and the view stay as they were', async () => {
    const page = s.app.page;
    await page.click('[data-testid="cmd-undo"]');
    await page.waitForSelector('[data-testid="retarget-open"]', { timeout: 30_000 });
    const cam0 = await page.evaluate(() => window.__vmdPreview!.cameraState()!.position);
    const depth0 = await page.evaluate(() => document.querySelector('[data-testid="cmd-undo"]')?.hasAttribute('disabled'));
    await page.click('[data-testid="whole-motion"]');
    await page.click('[data-testid="batch-retarget"]');
    await page.waitForSelector('[data-testid="batch-dialog"]', { state: 'detached' });
    await page.waitForSelector('[data-testid="retarget-panel"]');
    // The recent list now holds the Miku chosen before.
    await page.waitForSelector('[data-testid="retarget-recent"]');
    expect(await page.$$eval('[data-testid="retarget-recent"]', (els) => els.map((e) => e.getAttribute('title')))).toContain(MIKU);
    await page.click('[data-testid="retarget-recent"]');
    await page.waitForSelector('[data-testid="retarget-panel"][data-state="running"], [data-testid="retarget-panel"][data-state="ready"]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="retarget-panel"]', { state: 'detached' });
    await page.waitForFunction(() => !window.__vmdPreview!.companions().some((k) => k.startsWith('-1:ghost:')));
    expect(await page.evaluate(() => window.__vmdPreview!.cameraState()!.position)).toEqual(cam0);
    expect(await page.evaluate(() => document.querySelector('[data-testid="cmd-undo"]')?.hasAttribute('disabled'))).toBe(depth0);
    expect(await page.isVisible('[data-testid="retarget-open"]')).toBe(true);
    expect(s.app.errors).toEqual([]);
  }, 300_000);

  it('speaks Japanese: the offer and the panel', async () => {
    const page = s.app.page;
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.waitForSelector('[data-testid="retarget-open"]');
    expect((await page.textContent('[data-testid="retarget-open"]'))!.trim()).toBe('このモーションをモデルに合わせる…');
    await page.click('[data-testid="retarget-open"]');
    await page.waitForSelector('[data-testid="retarget-panel"]');
    expect((await page.textContent('[data-testid="retarget-panel"] header'))!.trim()).toBe('モーションをモデルに合わせる');
    await page.click('[data-testid="retarget-recent"]');
    await waitReady(page);
    expect(await page.textContent('[data-testid="retarget-legs"]')).toContain('足の長さ');
    // A row made from the report (its Map button) and typed in settles that bone: fitted again without it.
    await page.click('[data-testid="retarget-unmatched"] summary');
    await page.click('[data-testid="retarget-unmatched-bone"][data-bone="ﾈｸﾀｲ４"] [data-testid="retarget-map-it"]');
    expect(await page.inputValue('[data-testid="retarget-row-from"]')).toBe('ﾈｸﾀｲ４');
    await page.fill('[data-testid="retarget-row-to"]', '前クローク1_1');
    await page.waitForFunction(() => {
      const bones = [...document.querySelectorAll('[data-testid="retarget-unmatched-bone"]')].map((e) => e.getAttribute('data-bone'));
      return document.querySelector('[data-testid="retarget-panel"]')?.getAttribute('data-state') === 'ready' && bones.length > 0 && !bones.includes('ﾈｸﾀｲ４');
    }, undefined, { timeout: 180_000 });
    await s.app.screenshot('retarget-ja');
    await page.click('[data-testid="retarget-cancel"]');
    await page.waitForSelector('[data-testid="retarget-panel"]', { state: 'detached' });
    await page.selectOption('[data-testid="locale"]', 'en');
    expect(s.app.errors).toEqual([]);
  }, 300_000);

  it('without the source model: the standard skeleton stands in, ghosted as the figure; Apply gives what the CLI writes without --from', async () => {
    const page = s.app.page;
    const dir = s.tmp.dir;
    const cliOut = path.join(dir, 'cli-standard.vmd');
    const cli = spawnSync(process.execPath, [path.join(ROOT, 'electron/cli/vmd-studio.mjs'), 'retarget', DANCE, '--to', GENE, '-o', cliOut], { cwd: dir, encoding: 'utf8' });
    expect(cli.status, cli.stderr).toBe(0);
    const expected = new Uint8Array(readFileSync(cliOut));
    const docBytes = async () => new Uint8Array(Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64'));
    // The actor dances the file as it is (the earlier tests undid their retargets).
    expect(same(await docBytes(), new Uint8Array(readFileSync(DANCE)))).toBe(true);
    await page.click('[data-testid="retarget-open"]');
    await page.waitForSelector('[data-testid="retarget-panel"][data-state="choose"]');
    await page.click('[data-testid="retarget-standard"]');
    await waitReady(page);
    expect(await page.textContent('[data-testid="retarget-source"]')).toBe('Standard MMD skeleton (the built-in figure)');
    // Figure legs against Gene's: the same ratio the CLI reports.
    const ratio = /leg ratio ([\d.]+)/.exec(cli.stdout)![1];
    expect(await page.textContent('[data-testid="retarget-legs"]')).toContain(ratio.slice(0, 4));
    // The ghost is the figure, see-through, to the actor's left.
    const keys: string[] = await page.evaluate(() => window.__vmdPreview!.companions());
    const ghost = keys.find((k) => k.startsWith('-1:ghost:'));
    expect(ghost, keys.join(', ')).toBe('-1:ghost:standard-skeleton:');
    const look = await page.evaluate((k) => window.__vmdPreview!.companionLook(k), ghost!);
    expect(look!.visible).toBe(true);
    for (const o of look!.opacity) expect(o).toBeLessThanOrEqual(0.5);
    expect(look!.transparent.every((x) => x)).toBe(true);
    expect(look!.position[0]).toBeLessThan(-10);
    await s.app.screenshot('retarget-standard-skeleton');
    await page.click('[data-testid="retarget-apply"]');
    await page.waitForSelector('[data-testid="retarget-panel"]', { state: 'detached' });
    expect(same(await docBytes(), expected)).toBe(true);
    await page.click('[data-testid="cmd-undo"]');
    await page.waitForFunction(() => !!document.querySelector('[data-testid="retarget-open"]'));
    expect(same(await docBytes(), new Uint8Array(readFileSync(DANCE)))).toBe(true);
    expect(s.app.errors).toEqual([]);
  }, 300_000);
});
