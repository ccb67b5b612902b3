/**
 * SDEF on the GPU (renderer/src/preview/sdef.ts), in Chromium (WebGL through SwiftShader): an arm built
 * byte by byte (test/helpers/pmx-sdef-arm.ts), bent 90° at the elbow by a one-key motion, drawn once with
 * its probes as SDEF vertices and once as BDEF2 with the same bones and weights. Where each probe lands is
 * worked out on the CPU (three.js's applyBoneTransform, which follows SDEF for SDEF vertices: its
 * arithmetic is checked by hand in test/renderer/preview/sdef.test.ts), and the drawn picture must show the
 * probe's red there and not where the other skinning puts it. A shader that skinned SDEF as BDEF2 (as the
 * preview did before) draws the probes at the BDEF2 places and fails.
 * Bends of 160° about z and 130° about x and y too, whose turns the shader reads from the other three
 * branches of its matrix-to-quaternion. Pictures: test-artifacts/sdef-arm-{sdef,bdef2}-{90z,160z,130x,130y}.png.
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

  /**
   * Each probe on screen as the CPU skins it: its centroid (the mean of its three vertices) and its area in
   * px² (a probe turned edge-on to the camera covers no pixel to look at).
   */
  async function probesOnScreen(page: Page): Promise<{ at: Px; area: number }[]> {
    return page.evaluate((n) => {
      const out: { at: [number, number]; area: number }[] = [];
      for (let k = 0; k < n; k++) {
        const v = [0, 1, 2].map((j) => {
          const p = window.__vmdPreview!.vertexScreenPosition(3 * k + j);
          if (!p) throw new Error(`probe ${k} is off screen`);
          return p;
        });
        const area = Math.abs((v[1][0] - v[0][0]) * (v[2][1] - v[0][1]) - (v[2][0] - v[0][0]) * (v[1][1] - v[0][1])) / 2;
        out.push({ at: [(v[0][0] + v[1][0] + v[2][0]) / 3, (v[0][1] + v[1][1] + v[2][1]) / 3], area });
      }
      return out;
    }, PROBES.length);
  }
  const pixel = (page: Page, p: Px) => page.evaluate(([x, y]) => window.__vmdPreview!.pixelAt(x, y), p);

  /**
   * Bends the elbow by `degrees` about an axis (z unless given; one key) and draws both models: each probe must be red where its
   * own skinning (the CPU's) puts it, and not red where the other skinning puts it, wherever that place is
   * more than 10 px (twice a probe's size) from every probe of the model drawn. Returns how far apart the
   * two skinnings put each probe, and how many places were checked that way.
   */
  async function checkBend(degrees: number, axis: 'x' | 'y' | 'z' = 'z'): Promise<{ apart: number[]; excluded: number; looked: number }> {
    const { page } = suite.app;
    const dir = suite.tmp.dir;
    for (const [name, sdef] of [['sdef', true], ['bdef2', false]] as const) {
      mkdirSync(path.join(dir, name), { recursive: true });
      writeFileSync(path.join(dir, name, 'model.pmx'), sdefArmPmx(sdef));
    }
    const half = (degrees * Math.PI) / 360;
    const file = path.join(dir, `bend${degrees}${axis}.vmd`);
    const rot = [0, 0, 0, Math.cos(half)];
    rot['xyz'.indexOf(axis)] = Math.sin(half);
    writeFileSync(file, buildFixture({ bones: [{ name: [0x82, 0xd0, 0x82, 0xb6], frame: 0, rot }] })); // ひじ in Shift_JIS
    await openFileViaDialog(page, file);
    const at: Record<string, Px[]> = {};
    // Per model, the probes that cover enough of the screen to look at (4 px² or more): a probe turned
    // near edge-on, or shrunk by BDEF2's collapse at a sharp bend, does not.
    const seen: Record<string, boolean[]> = {};
    for (const name of ['sdef', 'bdef2']) {
      await showModel(page, name === 'sdef');
      const probes = await probesOnScreen(page);
      at[name] = probes.map((p) => p.at);
      seen[name] = probes.map((p) => p.area >= 4);
    }
    let excluded = 0;
    for (const [name, other] of [['sdef', 'bdef2'], ['bdef2', 'sdef']] as const) {
      await showModel(page, name === 'sdef');
      await screenshot(page, `sdef-arm-${name}-${degrees}${axis}`);
      // The GPU draws what the CPU skins: red at each of its own places.
      const own = await Promise.all(at[name].filter((_, k) => seen[name][k]).map((p) => pixel(page, p)));
      expect(own.map(isRed), `${degrees}° about ${axis}: ${name} model at its own places: ${JSON.stringify(own)}`).toEqual(own.map(() => true));
      const clear = at[other].filter((q) => at[name].every((p) => Math.hypot(p[0] - q[0], p[1] - q[1]) > 10));
      const there = await Promise.all(clear.map((p) => pixel(page, p)));
      expect(there.map(isRed), `${degrees}° about ${axis}: ${name} model at ${other}'s places: ${JSON.stringify(there)}`).toEqual(clear.map(() => false));
      excluded += clear.length;
    }
    const apart = PROBES.map((_, k) => Math.hypot(at.sdef[k][0] - at.bdef2[k][0], at.sdef[k][1] - at.bdef2[k][1]));
    console.log(`${degrees}° about ${axis}: SDEF vs BDEF2 on screen, per probe: ${apart.map((d) => d.toFixed(1)).join(', ')} px; SDEF probes looked at ${seen.sdef.filter((x) => x).length}, BDEF2 ${seen.bdef2.filter((x) => x).length}; ${excluded} places checked empty`);
    return { apart, excluded, looked: seen.sdef.filter((x) => x).length };
  }

  it('a 90° elbow: each SDEF probe is drawn where SDEF puts it, not where BDEF2 does, and the reverse', async () => {
    const { apart, excluded, looked } = await checkBend(90);
    expect(looked).toBe(PROBES.length);
    // Above the joint (the inside of this bend) the two skinnings put a probe far apart; below it (the
    // outside) they nearly agree.
    expect(apart.map((d) => d > 10), `apart: ${apart.map((d) => d.toFixed(1)).join(', ')} px`).toEqual([true, false, true, false]);
    expect(excluded).toBeGreaterThanOrEqual(4);
  });

  it('a 160° elbow (the shader takes the rotation from another branch of its matrix-to-quaternion) draws as the CPU skins it', async () => {
    const { apart, excluded, looked } = await checkBend(160);
    expect(looked).toBe(PROBES.length);
    expect(apart.filter((d) => d > 10).length).toBeGreaterThanOrEqual(2);
    expect(excluded).toBeGreaterThanOrEqual(2);
  });

  it('130° about x and about y (the two other branches): drawn as the CPU skins it', async () => {
    // The probes turn out of the screen's plane; those turned near edge-on (the ones weighted most to ひじ,
    // turned ~90°) cover too few pixels and are not looked at. The others must be where the CPU puts them.
    for (const axis of ['x', 'y'] as const) {
      const { apart, looked } = await checkBend(130, axis);
      expect(looked, axis).toBeGreaterThanOrEqual(2);
      expect(apart.some((d) => d > 10), `${axis}: ${apart.map((d) => d.toFixed(1)).join(', ')} px`).toBe(true);
    }
  });
});
