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
 * The self-shadow too: the probes cast onto a wall behind the arm under a slanted light, and each probe's
 * shadow must fall where the light carries its place under the model's own skinning (worked out here from
 * the CPU's place and the light), not where the other skinning's would (three.js's own depth pass skinned
 * SDEF as BDEF2); and a textured square beside the arm casts through its texture's alpha (a hole in it lets
 * the light through, in a model with SDEF too, where each material's shadow needs its own depth material).
 * Pictures: test-artifacts/sdef-shadow-{sdef,bdef2}.png.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appForSuite, loadPreviewCamera, openFileViaDialog, screenshot, showModelThroughDialog } from './harness';
import { buildFixture } from '../helpers/vmd-fixtures';
import { armName, HOLE, PROBES, sdefArmPmx, STENCIL, stencilPng, WALL_Z } from '../helpers/pmx-sdef-arm';
import { seekPreview } from './editor-page';

type Px = [number, number];
const isRed = (c: number[]) => c[0] > 90 && c[0] > c[1] + 50 && c[0] > c[2] + 50;

describe('SDEF skinning in the preview', () => {
  const suite = appForSuite({ viewport: { width: 1600, height: 1000 } });

  async function showModel(page: Page, sdef: boolean, folder = sdef ? 'sdef' : 'bdef2') {
    await showModelThroughDialog(page, path.join(suite.tmp.dir, folder, 'model.pmx'), armName(sdef));
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

  it("the self-shadow: each probe's shadow on the wall is where its own skinning puts it, SDEF's not BDEF2's", async () => {
    const { page } = suite.app;
    const dir = suite.tmp.dir;
    for (const [name, sdef] of [['sdef-wall', true], ['bdef2-wall', false]] as const) {
      mkdirSync(path.join(dir, name), { recursive: true });
      writeFileSync(path.join(dir, name, 'model.pmx'), sdefArmPmx(sdef, { wall: true }));
      writeFileSync(path.join(dir, name, 'stencil.png'), stencilPng());
    }
    // The elbow bent 90° about z; a camera 20 units in front of the joint, a light slanted to the left
    // (travelling along (−0.4, 0, 1), MMD) and a mode-1 self-shadow key of MMD's default range.
    const bend = path.join(dir, 'shadow-bend.vmd');
    writeFileSync(bend, buildFixture({ bones: [{ name: [0x82, 0xd0, 0x82, 0xb6], frame: 0, rot: [0, 0, Math.SQRT1_2, Math.SQRT1_2] }] }));
    const light = [-0.4, 0, 1];
    const camera = path.join(dir, 'shadow-camera.vmd');
    writeFileSync(camera, buildFixture({
      cameras: [{ frame: 0, distance: -20, target: [5, 10, 0], rotation: [0, 0, 0], fov: 30 }],
      lights: [{ frame: 0, color: [0.6, 0.6, 0.6], direction: light }],
      shadows: [{ frame: 0, mode: 1, distance: 0.01125 }],
    }));
    await openFileViaDialog(page, bend);
    await loadPreviewCamera(page, camera);
    await page.waitForFunction(() => !(document.querySelector('[data-testid="preview-look-through"]') as HTMLInputElement)?.disabled);
    await page.check('[data-testid="preview-look-through"]');

    // Each probe's centroid in the world as the CPU skins it (three.js's coordinates), carried along the
    // light onto the wall's plane (z = −WALL_Z there), and on screen; the probes' own places on screen.
    const d = [light[0], light[1], -light[2]];
    /** Where a point (three.js's coordinates) casts its shadow on the wall, on screen. */
    const onWall = (p: number[]) => {
      const t = (-WALL_Z - p[2]) / d[2];
      return page.evaluate((q) => window.__vmdPreview!.worldScreenPosition(q)!, [p[0] + t * d[0], p[1] + t * d[1], -WALL_Z] as [number, number, number]);
    };
    const places: Record<string, { shadow: Px[]; probe: Px[] }> = {};
    for (const name of ['sdef', 'bdef2']) {
      await showModel(page, name === 'sdef', `${name}-wall`);
      expect(await page.isVisible('[data-testid="preview-missing-textures"]')).toBe(false);
      places[name] = await page.evaluate(([n, d, wallZ]) => {
        const shadow: [number, number][] = [], probe: [number, number][] = [];
        for (let k = 0; k < n; k++) {
          const c = [0, 0, 0];
          for (let j = 0; j < 3; j++) window.__vmdPreview!.vertexWorldPosition(3 * k + j)!.forEach((v, i) => (c[i] += v / 3));
          const t = (-wallZ - c[2]) / d[2];
          shadow.push(window.__vmdPreview!.worldScreenPosition([c[0] + t * d[0], c[1] + t * d[1], -wallZ])!);
          probe.push(window.__vmdPreview!.worldScreenPosition(c as [number, number, number])!);
        }
        return { shadow, probe };
      }, [PROBES.length, d, WALL_Z] as const);
    }
    const lum = (c: number[]) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
    const checked: string[] = [];
    for (const [name, other] of [['sdef', 'bdef2'], ['bdef2', 'sdef']] as const) {
      await showModel(page, name === 'sdef', `${name}-wall`);
      await seekPreview(page, 0);
      await screenshot(page, `sdef-shadow-${name}`);
      const own = places[name], theirs = places[other];
      // The lit wall, well away from the arm, the stencil and their shadows: at (3, 5), below the joint.
      const lit = lum(await pixel(page, (await page.evaluate((z) => window.__vmdPreview!.worldScreenPosition([3, 5, -z]), WALL_Z))!));
      const far = (q: Px, from: Px[]) => from.every((p) => Math.hypot(p[0] - q[0], p[1] - q[1]) > 10);
      // Its own shadows, where no probe stands in front of them: darker than the lit wall.
      for (const q of own.shadow.filter((q) => far(q, own.probe))) {
        const l = lum(await pixel(page, q));
        checked.push(`${name} own ${l.toFixed(0)}/${lit.toFixed(0)}`);
        expect(l, `${name}: its own probe's shadow at ${q.map((v) => v.toFixed(1))} (lit wall ${lit.toFixed(0)})`).toBeLessThan(0.85 * lit);
      }
      // The other skinning's shadow places, clear of this model's shadows and probes: lit.
      for (const q of theirs.shadow.filter((q) => far(q, own.shadow) && far(q, own.probe))) {
        const l = lum(await pixel(page, q));
        checked.push(`${name} at ${other}'s ${l.toFixed(0)}/${lit.toFixed(0)}`);
        expect(l, `${name}: ${other}'s shadow place ${q.map((v) => v.toFixed(1))} (lit wall ${lit.toFixed(0)})`).toBeGreaterThan(0.95 * lit);
      }
      // The stencil: light through its hole, shadow above and below it (texture points (u, v) → the square).
      const at = (u: number, v: number) => [STENCIL.x[0] + u * (STENCIL.x[1] - STENCIL.x[0]), STENCIL.y[1] - v * (STENCIL.y[1] - STENCIL.y[0]), -STENCIL.z];
      const u = (HOLE.u[0] + HOLE.u[1]) / 2, v = (HOLE.v[0] + HOLE.v[1]) / 2;
      const hole = lum(await pixel(page, await onWall(at(u, v))));
      const solid = [lum(await pixel(page, await onWall(at(u, HOLE.v[0] / 2)))), lum(await pixel(page, await onWall(at(u, (1 + HOLE.v[1]) / 2))))];
      checked.push(`${name} stencil hole ${hole.toFixed(0)}, solid ${solid.map((l) => l.toFixed(0)).join(' ')}`);
      // With SDEF each material's shadow has a depth material of its own, made once: two more renders
      // (each pixel read draws the picture) leave them as they were. One handed to the wrong group would be
      // rebuilt for that group's texture on every render.
      const versions = await page.evaluate(() => window.__vmdPreview!.shadowDepthVersions());
      expect(versions.length).toBe(name === 'sdef' ? 3 : 0);
      await pixel(page, own.probe[0]);
      await pixel(page, own.probe[0]);
      expect(await page.evaluate(() => window.__vmdPreview!.shadowDepthVersions())).toEqual(versions);
      expect(hole, `${name}: through the stencil's hole (lit wall ${lit.toFixed(0)})`).toBeGreaterThan(0.95 * lit);
      for (const l of solid) expect(l, `${name}: behind the stencil's texture (lit wall ${lit.toFixed(0)})`).toBeLessThan(0.85 * lit);
    }
    console.log(`self-shadow at a 90° bend (luminance / lit wall): ${checked.join('; ')}`);
    // Both ways, at least one shadow place apart from the other skinning's was looked at.
    expect(checked.filter((c) => c.includes(' at ')).length).toBeGreaterThanOrEqual(2);
  });
});
