/**
 * Four actors at once (issue 13), in Chromium through the browser mode: the two corpus models and two
 * actors on the built-in figure, each with its own corpus motion. Every actor is drawn (a figure of its
 * own for each figure actor, posed by its motion: the figure drawn beside the shown one stands exactly
 * as that actor's figure does when its tab is shown, and the two figures stand differently); each tab
 * shows its actor's tracks (bone and morph track counts counted here from each file's bytes); hiding
 * one actor takes out only it; clicking a joint of a figure actor makes that actor active.
 * Screenshots: test-artifacts/scene-four-actors.png (all four; they stand at the origin as in MMD, so the
 * walking figure is in front) and scene-four-actors-one-hidden.png (the walking figure hidden).
 * Then tabs clicked faster than a model loads (Gene's read held back 1.5 s by a route): the preview ends
 * on the last actor asked for, and no actor's model is changed by the late answer.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, openSceneViaDialog, writeSceneFolder } from './harness';
import { animationFrames as frames, seekPreview as seek } from './editor-page';
import { readModel } from '../../shared/pmx/model-reader';

const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
const GENE = corpusPath('gene/Gene_light.pmx');
const ACTORS = [
  { name: 'Gene', model: GENE, from: corpusPath('gene/motion/02_laugh.vmd'), motion: 'laugh.vmd' },
  { name: 'Miku', model: MIKU, from: corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), motion: 'dance.vmd' },
  { name: 'FigA', model: null, from: corpusPath('gene/motion/33_angry.vmd'), motion: 'angry.vmd' },
  { name: 'FigB', model: null, from: corpusPath('mc-mmd-rust/default_anim/walk.vmd'), motion: 'walk.vmd' },
];
const FRAME = 30;
const BONES = ['頭', '左手首', '右足首'];

/**
 * Distinct bone and morph track names in a VMD's bytes, read straight from the layout (header 30, model
 * name 20, bone count, 111-byte bone records with a 15-byte name, morph count, 23-byte morph records).
 */
function trackCounts(file: string): { bones: number; morphs: number } {
  const b = readFileSync(file);
  const name = (at: number) => {
    const raw = b.subarray(at, at + 15);
    const z = raw.indexOf(0);
    return raw.subarray(0, z < 0 ? 15 : z).toString('hex');
  };
  const nb = b.readUInt32LE(50);
  const bones = new Set<string>();
  for (let i = 0; i < nb; i++) bones.add(name(54 + i * 111));
  const mo = 54 + nb * 111;
  const nm = b.readUInt32LE(mo);
  const morphs = new Set<string>();
  for (let i = 0; i < nm; i++) morphs.add(name(mo + 4 + i * 23));
  return { bones: bones.size, morphs: morphs.size };
}

function modelName(file: string): string {
  const m = readModel(new Uint8Array(readFileSync(file)));
  if (!m.ok) throw new Error(`${file} does not read`);
  return m.value.name;
}

async function clickTab(page: Page, i: number) {
  await page.locator('[data-testid="scene-tab"] button[role="tab"]').nth(i).click();
  await page.waitForFunction((i) => document.querySelectorAll('[data-testid="scene-tab"]')[i]?.getAttribute('data-active') === 'true', i);
}

/** The shown model's name as the preview reports it (null: the built-in figure). */
async function waitShown(page: Page, model: string | null) {
  const name = model ? modelName(model) : null;
  await page.waitForFunction((n) => window.__vmdPreview?.info().model === n, name, { timeout: 60_000 });
}

async function companions(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__vmdPreview!.companions());
}

async function waitCompanions(page: Page, n: number) {
  await page.waitForFunction((n) => window.__vmdPreview!.companions().length === n, n, { timeout: 60_000 });
}

describe('a scene of four actors (browser mode)', () => {
  const s = appForSuite();

  it('two models and two figures are all drawn, each posed by its own motion; tabs show each one\'s tracks; hiding takes out only that actor; a figure\'s joint picks its actor', async () => {
    const { page } = s.app;
    const dir = s.tmp.dir;
    const scenePath = writeSceneFolder(
      dir,
      ACTORS.map((a): [string, string] => [a.from, a.motion]),
      { actors: ACTORS.map((a) => ({ name: a.name, model: a.model, motion: a.motion })), activeActor: 1 },
      'four.vmdscene',
    );
    // Every model file read through main while the scene opens and its actors are drawn.
    const modelReads: string[] = [];
    const count = (r: import('playwright-core').Request) => {
      if (r.url().endsWith('/api/call/readModelFile')) modelReads.push(path.basename(JSON.parse(r.postData() ?? '{}').args?.[0] ?? '?'));
    };
    page.on('request', count);
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="scene-tab"]')].filter((e) => (e as HTMLElement).dataset.kind === 'actor').length === 4);
    await waitShown(page, MIKU);

    // Miku shown; the other three drawn beside her: Gene's model and a figure for each figure actor.
    await waitCompanions(page, 3);
    page.off('request', count);
    // Each model was read once: the preview drew both from the scene's reads (before, each was read twice).
    expect(modelReads.sort()).toEqual(['Gene_light.pmx', 'miku.pmd']);
    const keys = await companions(page);
    expect(keys.some((k) => k.endsWith('Gene_light.pmx'))).toBe(true);
    const figs = keys.filter((k) => k.endsWith(':figure'));
    expect(figs.length).toBe(2);
    await seek(page, FRAME);
    const pose = (key: string) => page.evaluate(([k, names]) => (names as string[]).map((n) => window.__vmdPreview!.companionBoneWorldPosition(k as string, n)), [key, BONES] as const);
    // Scene order: FigA's id comes before FigB's.
    figs.sort((a, b) => Number(a.split(':')[0]) - Number(b.split(':')[0]));
    const figA = await pose(figs[0]);
    const figB = await pose(figs[1]);
    for (const p of [...figA, ...figB]) expect(p).not.toBeNull();
    // The two figures stand differently (angry vs walk): some joint is more than 0.1 apart.
    const apart = Math.max(...figA.flatMap((p, i) => p!.map((v, k) => Math.abs(v - figB[i]![k]))));
    expect(apart).toBeGreaterThan(0.1);
    await s.app.screenshot('scene-four-actors');

    // Each tab shows its actor's tracks; a figure actor's tab shows the figure, posed as its companion was.
    for (const i of [0, 1, 2, 3]) {
      await clickTab(page, i);
      await page.waitForFunction((m) => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes(m), ACTORS[i].motion);
      await waitShown(page, ACTORS[i].model);
      const want = trackCounts(path.join(dir, ACTORS[i].motion));
      expect([Number((await page.textContent('[data-testid="summary-bones"]'))!.replace(/\D/g, '')), Number((await page.textContent('[data-testid="summary-morphs"]'))!.replace(/\D/g, ''))]).toEqual([want.bones, want.morphs]);
      // The other three are drawn beside it (the one made shown leaves the list, the one before joins it).
      const others = ACTORS.filter((_, j) => j !== i);
      const want3 = { models: others.filter((a) => a.model).map((a) => a.model!), figures: others.filter((a) => !a.model).length };
      const ok = await page
        .waitForFunction(
          (w) => {
            const now = window.__vmdPreview!.companions();
            return now.length === 3 && now.filter((k) => k.endsWith(':figure')).length === w.figures && w.models.every((m) => now.some((k) => k.endsWith(m)));
          },
          want3,
          { timeout: 60_000 },
        )
        .then(
          () => true,
          () => false,
        );
      expect(ok, `tab ${i}: ${JSON.stringify(await companions(page))}`).toBe(true);
      if (ACTORS[i].model === null) {
        await seek(page, FRAME);
        const shown = await page.evaluate((names) => names.map((n) => window.__vmdPreview!.boneWorldPosition(n)), BONES);
        const was = i === 2 ? figA : figB;
        shown.forEach((p, j) => p!.forEach((v, k) => expect(v).toBeCloseTo(was[j]![k], 5)));
      }
    }

    // Back on Miku; hiding FigB takes out only its figure.
    await clickTab(page, 1);
    await waitShown(page, MIKU);
    await waitCompanions(page, 3);
    await page.locator('[data-testid="scene-hide"]').nth(3).click();
    await waitCompanions(page, 2);
    const left = await companions(page);
    expect(left).not.toContain(figs[1]);
    expect(left).toContain(figs[0]);
    expect(await page.evaluate(() => window.__vmdPreview!.shown())).toBe(true);
    await seek(page, FRAME);
    await s.app.screenshot('scene-four-actors-one-hidden');

    // Clicking FigA's head joint makes FigA the active actor: its tab, its motion, the figure shown.
    const head = await page.evaluate((k) => window.__vmdPreview!.companionBoneScreenPosition(k, '頭'), figs[0]);
    expect(head).not.toBeNull();
    await page.mouse.click(head![0], head![1]);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]')[2]?.getAttribute('data-active') === 'true');
    await waitShown(page, null);
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('angry.vmd'));
    expect(s.app.errors).toEqual([]);
  }, 240_000);

  it('switching actors faster than their models load ends on the last one asked for, and changes no actor\'s model', async () => {
    const { page } = s.app;
    const tabs = page.locator('[data-testid="scene-tab"] button[role="tab"]');
    // Gene's model answers 1.5 s late, so it arrives after Miku's (or the figure) was asked for after it.
    const isGene = (body: string | null) => !!body && body.includes('Gene_light.pmx');
    await page.route('**/api/call/readModelFile', async (route) => {
      if (isGene(route.request().postData())) await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    try {
      for (const [last, model] of [[1, MIKU], [2, null]] as const) {
        const geneRead = page.waitForResponse((r) => r.url().endsWith('/api/call/readModelFile') && isGene(r.request().postData()));
        await tabs.nth(0).click();
        await tabs.nth(last).click();
        await geneRead;
        await waitShown(page, model);
        // The late model does not replace it: watch for 1.5 s after its answer came.
        const name = model ? modelName(model) : null;
        const replaced = await page
          .waitForFunction((n) => window.__vmdPreview!.info().model !== n, name, { timeout: 1500 })
          .then(() => true, () => false);
        expect(replaced, `actor ${last + 1}: Gene's late model replaced ${name ?? 'the figure'}`).toBe(false);
        expect(await page.locator('[data-testid="scene-tab"]').nth(last).getAttribute('data-active')).toBe('true');
      }
    } finally {
      await page.unroute('**/api/call/readModelFile');
    }
    // Every actor still has its own model: each tab shows it.
    for (const i of [0, 1, 2]) {
      await clickTab(page, i);
      await waitShown(page, ACTORS[i].model);
    }
    expect(s.app.errors).toEqual([]);
  }, 120_000);
});
