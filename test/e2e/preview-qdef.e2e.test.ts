/**
 * QDEF on the GPU (renderer/src/preview/qdef.ts), in Chromium (WebGL through SwiftShader): a forearm built
 * byte by byte (test/helpers/pmx-qdef-twist.ts) whose probes ring the arm's axis at the joint, twisted by a
 * one-key motion and seen along the axis through a camera VMD, drawn once with its probes as QDEF vertices
 * and once as BDEF4 with the same bones and weights. Where each probe lands is worked out on the CPU (three.js's
 * applyBoneTransform, which follows QDEF for QDEF vertices: its arithmetic is checked by hand in
 * test/renderer/preview/qdef.test.ts), and the drawn picture must show the probe's red there and not where
 * the other skinning puts it. A shader that skinned QDEF as BDEF4 (as the preview did before) draws the
 * ring pulled in towards the axis and fails. Twists of +150° and −150°: the second's turn is read from its
 * matrix on the other hemisphere from the rest pose's, which the blend must flip.
 * Pictures: test-artifacts/qdef-twist-{qdef,bdef4}-{150,-150}.png.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appForSuite, loadPreviewCamera, openFileViaDialog, screenshot, showModelThroughDialog } from './harness';
import { buildFixture } from '../helpers/vmd-fixtures';
import { qdefTwistPmx, RING, TWIST_JOINT, twistName } from '../helpers/pmx-qdef-twist';

type Px = [number, number];
const isRed = (c: number[]) => c[0] > 90 && c[0] > c[1] + 50 && c[0] > c[2] + 50;

describe('QDEF skinning in the preview', () => {
  const suite = appForSuite({ viewport: { width: 1600, height: 1000 } });

  const showModel = (page: Page, qdef: boolean) => showModelThroughDialog(page, path.join(suite.tmp.dir, qdef ? 'qdef' : 'bdef4', 'model.pmx'), twistName(qdef));

  /** Each probe's centroid on screen as the CPU skins it. */
  async function probesOnScreen(page: Page): Promise<Px[]> {
    return page.evaluate((n) => {
      const out: [number, number][] = [];
      for (let k = 0; k < n; k++) {
        const c = [0, 0, 0];
        for (let j = 0; j < 3; j++) window.__vmdPreview!.vertexWorldPosition(3 * k + j)!.forEach((v, i) => (c[i] += v / 3));
        const p = window.__vmdPreview!.worldScreenPosition(c as [number, number, number]);
        if (!p) throw new Error(`probe ${k} is off screen`);
        out.push(p);
      }
      return out;
    }, RING.length);
  }
  const pixel = (page: Page, p: Px) => page.evaluate(([x, y]) => window.__vmdPreview!.pixelAt(x, y), p);

  it('a forearm twisted ±150°: each QDEF probe is drawn where QDEF puts it (the ring kept), not where BDEF4 does (pulled in), and the reverse', async () => {
    const { page } = suite.app;
    const dir = suite.tmp.dir;
    for (const [name, qdef] of [['qdef', true], ['bdef4', false]] as const) {
      mkdirSync(path.join(dir, name), { recursive: true });
      writeFileSync(path.join(dir, name, 'model.pmx'), qdefTwistPmx(qdef));
    }
    // Looking along the arm at the joint from 20 units (the camera turned 90° about y), level.
    const camera = path.join(dir, 'side.vmd');
    writeFileSync(camera, buildFixture({ cameras: [{ frame: 0, distance: -20, target: TWIST_JOINT, rotation: [0, Math.PI / 2, 0], fov: 30 }] }));
    await loadPreviewCamera(page, camera);
    await page.waitForFunction(() => !(document.querySelector('[data-testid="preview-look-through"]') as HTMLInputElement)?.disabled);
    await page.check('[data-testid="preview-look-through"]');
    const report: string[] = [];
    for (const degrees of [150, -150]) {
      const half = (degrees * Math.PI) / 360;
      const file = path.join(dir, `twist${degrees}.vmd`);
      writeFileSync(file, buildFixture({ bones: [{ name: [0x82, 0xd0, 0x82, 0xb6], frame: 0, rot: [Math.sin(half), 0, 0, Math.cos(half)] }] })); // ひじ in Shift_JIS
      await openFileViaDialog(page, file);
      const at: Record<string, Px[]> = {};
      for (const name of ['qdef', 'bdef4']) {
        await showModel(page, name === 'qdef');
        at[name] = await probesOnScreen(page);
      }
      // The ring's centre on screen: the axis, where the joint is.
      const centre = (await page.evaluate((j) => window.__vmdPreview!.worldScreenPosition([j[0], j[1], -j[2]]), TWIST_JOINT))!;
      const radius = (ps: Px[]) => ps.map((p) => Math.hypot(p[0] - centre[0], p[1] - centre[1]));
      // Seen along the axis, QDEF keeps the ring; BDEF4 pulls it in to cos 75° of it.
      const rq = radius(at.qdef), rb = radius(at.bdef4);
      rb.forEach((r, k) => expect(r / rq[k], `${degrees}°, probe ${k}`).toBeCloseTo(Math.cos((75 * Math.PI) / 180), 1));
      let checked = 0;
      for (const [name, other] of [['qdef', 'bdef4'], ['bdef4', 'qdef']] as const) {
        await showModel(page, name === 'qdef');
        await screenshot(page, `qdef-twist-${name}-${degrees}`);
        const own = await Promise.all(at[name].map((p) => pixel(page, p)));
        expect(own.map(isRed), `${degrees}°: ${name} model at its own places: ${JSON.stringify(own)}`).toEqual(own.map(() => true));
        const clear = at[other].filter((q) => at[name].every((p) => Math.hypot(p[0] - q[0], p[1] - q[1]) > 10));
        const there = await Promise.all(clear.map((p) => pixel(page, p)));
        expect(there.map(isRed), `${degrees}°: ${name} model at ${other}'s places: ${JSON.stringify(there)}`).toEqual(clear.map(() => false));
        checked += clear.length;
      }
      report.push(`${degrees}°: ring radius QDEF ${rq.map((r) => r.toFixed(1)).join(', ')} px, BDEF4 ${rb.map((r) => r.toFixed(1)).join(', ')} px; ${checked} places checked empty`);
      expect(checked).toBeGreaterThanOrEqual(2 * RING.length);
    }
    console.log(report.join('\n'));
    expect(suite.app.errors).toEqual([]);
  });
});
