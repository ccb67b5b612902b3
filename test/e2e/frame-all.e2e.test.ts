/**
 * A group scene's actors placed apart (report nustage finding 10): four actors at X −15, −5, 5, 15 fell outside the
 * free view (the start view frames about one model), and the person had to zoom out with the wheel. Now the view
 * menu ▾ has Frame all actors (key A), which fits every shown actor; a scene opened with actors outside the view
 * starts framed on all; and the Stage panel marks the shown actor's row. Checked by where each actor's centre (its
 * posed mesh's box) projects: inside the preview's canvas or not.
 * Screenshot: test-artifacts/frame-all.png.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, openSceneViaDialog, writeSceneFolder } from './harness';
import { ballsPmx, type Ball } from '../helpers/pmx-balls';
import { buildVmd, writeVmd } from '../../shared/vmd';
import { seekPreview } from './editor-page';

const XS = [-15, -5, 5, 15];

/** Each actor's centre on the screen, and whether it lies inside the preview's canvas; by actor key. */
async function centres(page: Page): Promise<{ key: string; x: number; inside: boolean }[]> {
  return page.evaluate(() => {
    const p = window.__vmdPreview!;
    const canvas = document.querySelector('[data-testid="preview-pane"] canvas')!.getBoundingClientRect();
    return ['shown', ...p.companions()].map((key) => {
      const b = p.actorWorldBox(key)!;
      const c: [number, number, number] = [0, 1, 2].map((i) => (b.min[i] + b.max[i]) / 2) as [number, number, number];
      const s = p.worldScreenPosition(c);
      const inside = !!s && s[0] >= canvas.left && s[0] <= canvas.right && s[1] >= canvas.top && s[1] <= canvas.bottom;
      return { key, x: c[0], inside };
    });
  });
}

/**
 * Every corner of each actor's posed box (the mesh the preview draws, where it stands) and whether it projects
 * inside the preview's canvas; by actor key.
 */
async function cornersOutside(page: Page): Promise<{ key: string; corner: number[] }[]> {
  return page.evaluate(() => {
    const p = window.__vmdPreview!;
    const canvas = document.querySelector('[data-testid="preview-pane"] canvas')!.getBoundingClientRect();
    const out: { key: string; corner: number[] }[] = [];
    for (const key of ['shown', ...p.companions()]) {
      const b = p.actorWorldBox(key)!;
      for (let i = 0; i < 8; i++) {
        const c: [number, number, number] = [i & 1 ? b.max[0] : b.min[0], i & 2 ? b.max[1] : b.min[1], i & 4 ? b.max[2] : b.min[2]];
        const s = p.worldScreenPosition(c);
        if (!(s && s[0] >= canvas.left && s[0] <= canvas.right && s[1] >= canvas.top && s[1] <= canvas.bottom)) out.push({ key, corner: c });
      }
    }
    return out;
  });
}

/** A column of ten balls of radius 3, one on another: a model 6 units wide and 60 tall (three times a usual one). */
function tallPmx(): Uint8Array {
  const balls: Ball[] = Array.from({ length: 10 }, (_, i) => ({ centre: [0, 3 + 6 * i, 0], radius: 3, diffuse: [0.8, 0.5, 0.3, 1], ambient: [0.4, 0.25, 0.15], flags: 0, toon: null }));
  return ballsPmx(balls);
}

const shownRows = (page: Page) => page.$$eval('[data-testid="stage-actor"]', (els) => els.map((e) => (e as HTMLElement).dataset.shown === 'true'));

describe('Frame all actors (browser mode)', () => {
  const s = appForSuite({ viewport: { width: 1366, height: 768 } });

  it('four actors at X −15…15: the opened scene starts framed on all; after the start view, Frame all (▾ and A) takes them in again', async () => {
    const { page } = s.app;
    const dir = path.join(s.tmp.dir, 'four');
    mkdirSync(dir, { recursive: true });
    const motion = corpusPath('gene/motion/stand.vmd');
    const scenePath = writeSceneFolder(
      dir,
      XS.map((_, i) => [motion, `m${i + 1}.vmd`] as [string, string]),
      { actors: XS.map((x, i) => ({ name: `A${i + 1}`, model: null, motion: `m${i + 1}.vmd`, hidden: false, stage: { position: [x, 0, 0], turn: 0 } })), activeActor: 0, camera: null },
      'four.vmdscene',
    );
    await page.waitForFunction(() => !!window.__vmdPreview?.cameraState());
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 4);
    await page.waitForFunction(() => window.__vmdPreview!.companions().length === 3 && window.__vmdPreview!.companions().every((k) => !!window.__vmdPreview!.actorWorldBox(k)), undefined, { timeout: 60_000 });

    // The four stand where the scene puts them (their centres' X, to the unit).
    expect((await centres(page)).map((c) => Math.round(c.x)).sort((a, b) => a - b)).toEqual(XS);
    // Opened: every actor in the picture.
    expect((await centres(page)).filter((c) => !c.inside)).toEqual([]);

    // The start view (0) frames about one model: some of them are outside it.
    await page.locator('body').press('0');
    await page.waitForFunction(() => window.__vmdPreview!.cameraState()!.position[2] === 52);
    expect((await centres(page)).some((c) => !c.inside)).toBe(true);

    // ▾ → Frame all actors.
    await page.click('[data-testid="preview-view-more"]');
    await page.click('[data-testid="preview-view-frame-all"]');
    expect(await page.isVisible('[data-testid="preview-view-menu"]')).toBe(false);
    expect((await centres(page)).filter((c) => !c.inside)).toEqual([]);
    await s.app.screenshot('frame-all');

    // The start view again, then A.
    await page.locator('body').press('0');
    await page.waitForFunction(() => window.__vmdPreview!.cameraState()!.position[2] === 52);
    expect((await centres(page)).some((c) => !c.inside)).toBe(true);
    await page.locator('body').press('a');
    expect((await centres(page)).filter((c) => !c.inside)).toEqual([]);

    // F1 lists the key.
    await page.keyboard.press('F1');
    expect(await page.textContent('[data-testid="shortcuts-dialog"]')).toContain('Frame all actors: the view takes in every shown actor of the scene where it stands');
    await page.keyboard.press('Escape');
  });

  it('the Stage panel marks the shown actor’s row, and follows the tabs', async () => {
    const { page } = s.app;
    // The scene of the test before: A1 shown.
    await page.click('[data-testid="side-tab-stage"]');
    await page.waitForSelector('[data-testid="stage-panel"]');
    expect(await shownRows(page)).toEqual([true, false, false, false]);
    expect(await page.textContent('[data-testid="stage-actor"][data-shown="true"] [data-testid="stage-shown"]')).toBe('shown');
    await page.locator('[data-testid="scene-tab"] button[role="tab"]').nth(2).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="stage-actor"]')[2]?.getAttribute('data-shown') === 'true');
    expect(await shownRows(page)).toEqual([false, false, true, false]);
    await s.app.screenshot('frame-all-stage');
  });
});

describe('Frame all actors fits each model’s own height', () => {
  const s = appForSuite({ viewport: { width: 1366, height: 768 } });

  it('Gene (about 20 units) beside a model 60 units tall: Frame all takes in both whole, feet to head', async () => {
    const { page } = s.app;
    const dir = path.join(s.tmp.dir, 'tall');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'tall.pmx'), tallPmx());
    const motion = corpusPath('gene/motion/stand.vmd');
    const scenePath = writeSceneFolder(
      dir,
      [
        [motion, 'g.vmd'],
        [motion, 't.vmd'],
      ],
      {
        actors: [
          { name: 'Gene', model: corpusPath('gene/Gene_light.pmx'), motion: 'g.vmd', hidden: false, stage: { position: [-8, 0, 0], turn: 0 } },
          { name: 'Tall', model: 'tall.pmx', motion: 't.vmd', hidden: false, stage: { position: [8, 0, 0], turn: 0 } },
        ],
        activeActor: 0,
        camera: null,
      },
      'tall.vmdscene',
    );
    await page.waitForFunction(() => !!window.__vmdPreview?.cameraState());
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 2);
    await page.waitForFunction(() => window.__vmdPreview!.companions().length === 1 && window.__vmdPreview!.companions().every((k) => !!window.__vmdPreview!.actorWorldBox(k)), undefined, { timeout: 60_000 });
    await page.waitForFunction(() => (window.__vmdPreview!.actorWorldBox('shown')?.max[1] ?? 0) > 15, undefined, { timeout: 60_000 });
    const heights = await page.evaluate(() => ['shown', ...window.__vmdPreview!.companions()].map((k) => {
      const b = window.__vmdPreview!.actorWorldBox(k)!;
      return b.max[1] - b.min[1];
    }));
    // Gene about 20 units tall, the column 60: the two heights the view must fit.
    expect(heights[0]).toBeGreaterThan(15);
    expect(heights[0]).toBeLessThan(25);
    expect(heights[1]).toBeCloseTo(60, 0);

    // The start view, then A (Frame all actors): every corner of both boxes in the picture.
    await page.locator('body').press('0');
    await page.waitForFunction(() => window.__vmdPreview!.cameraState()!.position[2] === 52);
    expect((await cornersOutside(page)).length).toBeGreaterThan(0);
    await page.locator('body').press('a');
    expect(await cornersOutside(page)).toEqual([]);
    // Centred on the two as they are drawn: the view turns about the middle of their posed boxes across (X), and looks
    // from the front (the camera's X the same). Before, the widths came from the unposed meshes, and Gene's reaches far
    // to her left unposed: the view centred at X −8, the column pushed to the picture's right edge.
    const { boxes, cam } = await page.evaluate(() => ({
      boxes: ['shown', ...window.__vmdPreview!.companions()].map((k) => window.__vmdPreview!.actorWorldBox(k)!),
      cam: window.__vmdPreview!.cameraState()!,
    }));
    const middle = (Math.min(...boxes.map((b) => b.min[0])) + Math.max(...boxes.map((b) => b.max[0]))) / 2;
    // Gene at X −8 (posed, about −10.6…−5.4: five units wide), the column at 8 (5…11): the middle near 0.
    expect(middle).toBeGreaterThan(-1.5);
    expect(middle).toBeLessThan(1.5);
    // Within half a unit (4 cm; the two span about 24).
    expect(Math.abs(cam.target[0] - middle)).toBeLessThan(0.5);
    expect(Math.abs(cam.position[0] - middle)).toBeLessThan(0.5);
    await s.app.screenshot('frame-all-tall');
  });
});

/**
 * A walk on the figure: センター and both leg IK goals from X 0 at frame 0 to X 30 at frame 60 (straight, linear), so
 * the whole body slides 30 units as it stands (with the goals left behind, the legs would stretch back to them).
 */
function walkVmd(): Uint8Array {
  const rotation = [0, 0, 0, 1];
  const bones = ['センター', '左足ＩＫ', '右足ＩＫ'].flatMap((name) => [
    { name, frame: 0, position: [0, 0, 0], rotation },
    { name, frame: 60, position: [30, 0, 0], rotation },
  ]);
  return writeVmd(buildVmd({ bones }));
}

describe('Frame all actors counts a walking actor’s path once', () => {
  const s = appForSuite({ viewport: { width: 1366, height: 768 } });

  it('a figure walking 30 units beside one standing, framed at the walk’s end: both in view, the view no wider than 1.3× their reach', async () => {
    const { page } = s.app;
    const dir = path.join(s.tmp.dir, 'walk');
    mkdirSync(dir, { recursive: true });
    const walk = path.join(s.tmp.dir, 'walk-src.vmd');
    writeFileSync(walk, walkVmd());
    const scenePath = writeSceneFolder(
      dir,
      [
        [walk, 'walk.vmd'],
        [corpusPath('gene/motion/stand.vmd'), 'stand.vmd'],
      ],
      {
        actors: [
          { name: 'Walker', model: null, motion: 'walk.vmd', hidden: false, stage: { position: [0, 0, 0], turn: 0 } },
          { name: 'Stander', model: null, motion: 'stand.vmd', hidden: false, stage: { position: [-10, 0, 0], turn: 0 } },
        ],
        activeActor: 0,
        camera: null,
      },
      'walk.vmdscene',
    );
    await page.waitForFunction(() => !!window.__vmdPreview?.cameraState());
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 2);
    await page.waitForFunction(() => window.__vmdPreview!.companions().length === 1 && window.__vmdPreview!.companions().every((k) => !!window.__vmdPreview!.actorWorldBox(k)), undefined, { timeout: 60_000 });

    // Where the two reach over the whole walk: the union of their posed boxes (as the page draws them) at every
    // fifth frame, the walker's moving 30 units to the right.
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    const walkerX: number[] = [];
    for (let f = 0; f <= 60; f += 5) {
      await seekPreview(page, f);
      const boxes = await page.evaluate(() => ['shown', ...window.__vmdPreview!.companions()].map((k) => window.__vmdPreview!.actorWorldBox(k)!));
      walkerX.push((boxes[0].min[0] + boxes[0].max[0]) / 2);
      for (const b of boxes) for (let i = 0; i < 3; i++) (lo[i] = Math.min(lo[i], b.min[i])), (hi[i] = Math.max(hi[i], b.max[i]));
    }
    // The walker did walk: its middle 30 units further right at frame 60 than at 0.
    expect(walkerX[walkerX.length - 1] - walkerX[0]).toBeCloseTo(30, 1);
    const reach = hi[0] - lo[0];

    // At the walk's end (the walker's posed box at X 30 already), the start view, then A.
    await seekPreview(page, 60);
    await page.locator('body').press('0');
    await page.waitForFunction(() => window.__vmdPreview!.cameraState()!.position[2] === 52);
    await page.locator('body').press('a');
    // Both whole in the picture now.
    expect(await cornersOutside(page)).toEqual([]);
    // The width the picture spans across at the target's distance (looking from the front: along X): 2·d·tan(fov/2)·aspect.
    const cam = await page.evaluate(() => window.__vmdPreview!.cameraState()!);
    const d = Math.hypot(...[0, 1, 2].map((i) => cam.position[i] - cam.target[i]));
    const framed = 2 * d * Math.tan((cam.fov * Math.PI) / 360) * cam.aspect;
    // Every part of the path in it (the walk's start too), and no more than 1.3× as wide. Before, the path was
    // added to a box that stood at its end already: the view reached 30 units past the walk's end (about 1.9×).
    expect(framed).toBeGreaterThanOrEqual(reach);
    expect(framed, `framed ${framed.toFixed(1)} across for a reach of ${reach.toFixed(1)} (X ${lo[0].toFixed(1)} … ${hi[0].toFixed(1)})`).toBeLessThanOrEqual(1.3 * reach);
    // The view turns about the middle of the reach.
    expect(Math.abs(cam.target[0] - (lo[0] + hi[0]) / 2)).toBeLessThan(1);
    await s.app.screenshot('frame-all-walk');
  });
});
