/**
 * SDEF on the GPU (renderer/src/preview/sdef.ts), in Chromium (WebGL through SwiftShader): an arm built
 * byte by byte (test/helpers/pmx-sdef-arm.ts), bent 90° at the elbow by a one-key motion, drawn once with
 * its probes as SDEF vertices and once as BDEF2 with the same bones and weights. Where each probe lands is
 * worked out on the CPU (three.js's applyBoneTransform, which follows SDEF for SDEF vertices: its
 * arithmetic is checked by hand in test/renderer/preview/sdef.test.ts), and the drawn picture must show the
 * probe's red there and not where the other skinning puts it. A shader that skinned SDEF as BDEF2 (as the
 * preview did before) draws the probes at the BDEF2 places and fails.
 * Pictures: test-artifacts/sdef-arm-{sdef,bdef2}.png.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appForSuite, fileDialogReady, openFileViaDialog, screenshot } from './harness';
import { buildFixture } from '../helpers/vmd-fixtures';
import { armName, PROBES, sdefArmPmx } from '../helpers/pmx-sdef-arm';

type Px = [number, number];
const isRed = (c: number[]) => c[0] > 90 && c[0] > c[1] + 50 && c[0] > c[2] + 50;

describe('SDEF skinning in the preview', () => {
  const suite = appForSuite({ viewport: { width: 1600, height: 1000 } });

  async function showModel(page: Page, sdef: boolean) {
    const file = path.join(suite.tmp.dir, sdef ? 'sdef' : 'bdef2', 'model.pmx');
    if (await page.isVisible('[data-testid="preview-use-figure"]')) {
      await page.click('[data-testid="preview-use-figure"]');
      await page.waitForSelector('[data-testid="preview-use-figure"]', { state: 'detached' });
    }
    await page.click('[data-testid="preview-open-model"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', file);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    await page.waitForSelector('[data-testid="preview-use-figure"]', { timeout: 60_000 });
    await page.waitForFunction((name) => window.__vmdPreview?.info().model === name, armName(sdef), { timeout: 60_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid="preview-pane"]')?.textContent?.includes('Loading model'), null, { timeout: 60_000 });
    expect(await page.evaluate(() => window.__vmdPreview!.info().missingBones)).toBe(0);
  }

  /** Each probe's centroid on screen as the CPU skins it (the mean of its three vertices). */
  async function probesOnScreen(page: Page): Promise<Px[]> {
    return page.evaluate((n) => {
      const out: [number, number][] = [];
      for (let k = 0; k < n; k++) {
        let x = 0, y = 0;
        for (let j = 0; j < 3; j++) {
          const p = window.__vmdPreview!.vertexScreenPosition(3 * k + j);
          if (!p) throw new Error(`probe ${k} is off screen`);
          x += p[0] / 3;
          y += p[1] / 3;
        }
        out.push([x, y]);
      }
      return out;
    }, PROBES.length);
  }
  const pixel = (page: Page, p: Px) => page.evaluate(([x, y]) => window.__vmdPreview!.pixelAt(x, y), p);

  it('a bent elbow: each SDEF probe is drawn where SDEF puts it, not where BDEF2 does, and the reverse', async () => {
    const { page } = suite.app;
    const dir = suite.tmp.dir;
    for (const [name, sdef] of [['sdef', true], ['bdef2', false]] as const) {
      mkdirSync(path.join(dir, name), { recursive: true });
      writeFileSync(path.join(dir, name, 'model.pmx'), sdefArmPmx(sdef));
    }
    const s = Math.SQRT1_2;
    writeFileSync(path.join(dir, 'bend.vmd'), buildFixture({ bones: [{ name: [0x82, 0xd0, 0x82, 0xb6], frame: 0, rot: [0, 0, s, s] }] })); // ひじ in Shift_JIS
    await openFileViaDialog(page, path.join(dir, 'bend.vmd'));

    const at: Record<string, Px[]> = {};
    const drawn: Record<string, number[][][]> = {};
    for (const name of ['sdef', 'bdef2']) {
      await showModel(page, name === 'sdef');
      at[name] = await probesOnScreen(page);
      await screenshot(page, `sdef-arm-${name}`);
      drawn[name] = [];
      for (const other of ['sdef', 'bdef2']) if (at[other]) drawn[name].push(await Promise.all(at[other].map((p) => pixel(page, p))));
    }
    // Above the joint (the inside of this bend) the two skinnings put a probe far apart on screen; below it
    // (the outside) they nearly agree. Those more than 10 px apart (twice a probe's size there) must be told
    // apart, and there must be such probes.
    const apart = PROBES.map((_, k) => Math.hypot(at.sdef[k][0] - at.bdef2[k][0], at.sdef[k][1] - at.bdef2[k][1]));
    const far = apart.map((d) => d > 10);
    expect(far, `apart: ${apart.map((d) => d.toFixed(1)).join(', ')} px`).toEqual([true, false, true, false]);
    // Every probe is red where its own skinning puts it: the GPU draws what the CPU skins.
    expect(drawn.sdef[0].map(isRed), `SDEF model at SDEF places: ${JSON.stringify(drawn.sdef[0])}`).toEqual(PROBES.map(() => true));
    expect(drawn.bdef2[1].map(isRed), `BDEF2 model at BDEF2 places: ${JSON.stringify(drawn.bdef2[1])}`).toEqual(PROBES.map(() => true));
    // And the far ones are not red where the other skinning would put them.
    expect(drawn.bdef2[0].map(isRed).filter((_, k) => far[k]), `BDEF2 model at SDEF places: ${JSON.stringify(drawn.bdef2[0])}`).toEqual([false, false]);
    await showModel(page, true);
    const back = await Promise.all(at.bdef2.map((p) => pixel(page, p)));
    expect(back.map(isRed).filter((_, k) => far[k]), `SDEF model at BDEF2 places: ${JSON.stringify(back)}`).toEqual([false, false]);
    console.log(`SDEF vs BDEF2 on screen, per probe: ${apart.map((d) => d.toFixed(1)).join(', ')} px`);
  });
});
