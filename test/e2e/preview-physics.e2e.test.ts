/**
 * Physics in the preview (issue 26 §3), in Chromium through the browser mode, on a scene of two corpus models:
 * Gene_light.pmx dancing wavefile_v2.vmd (the shown actor) and the low-poly Miku (miku.pmd) with gene's
 * 02_laugh.vmd beside her. Checked:
 * - Bullet's wasm loads in the page; with physics on the hair's pixels differ from physics off at a frame of the
 *   dance, and off again gives back the same picture;
 * - a jump of the playhead and Reset (Shift+P) restart physics from the pose there: the physics bones then
 *   agree with shared/physics's Simulation run in Node on the same files (an engine the preview does not share
 *   a world with), and stepping frame by frame in between does not;
 * - "Show rigid bodies" draws the bodies in their modes' colours and the joints (pixels counted, picture saved);
 *   the pointer on a body's drawn centre (one no other body or joint cube can cover there) names that body in a
 *   tooltip, as the PMX file names it, and highlights it; off the model the tooltip goes;
 * - physics "Always" (MMD's 常に演算): after a jump and five frames stepped (the hair left swinging), the hair
 *   moves on while paused; in "While playing" it stays where the last step left it;
 * - physics Trace (MMD's トレース): the hair at a frame stepped to from 0 equals the hair of a new trace jumped there
 *   from 0 (a straight run), and jumped back to from 300 (from a checkpoint) it is the same each time; the line says
 *   "Physics: on · Trace"; a
 *   first jump far ahead runs in slices between animation frames (a progress line, the long tasks printed) and ends
 *   on the bones of a straight run there;
 * - a hidden actor's world is not stepped (the shown one's, and another actor's);
 * - the video export's frame source brings physics to a frame exactly as Node simulates it from the range's start;
 * - the head turned by hand with its ring (the pose handle): the hair bones follow it, hanging rather than turning
 *   with it as rigid parts, and physics runs on for a second after the hand stops.
 * Pictures: test-artifacts/physics-*.png (physics-trace-catch-up.png: the progress line under the frame counter).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appForSuite, ARTIFACTS, corpusPath, openSceneViaDialog, writeSceneFolder } from './harness';
import { animationFrames, seekPreview } from './editor-page';
import { encodePng, type Rgba } from '../helpers/png';
import { readModel } from '../../shared/pmx';
import { readVmd } from '../../shared/vmd';
import { Simulation } from '../../shared/physics';
import { testBullet } from '../helpers/bullet';
import { readCorpus } from '../helpers/corpus';
import * as THREE from 'three';

const GENE = 'gene/Gene_light.pmx';
const DANCE = 'mmd-viewer-js/vmd/wavefile_v2.vmd';

type Bones = { name: string; position: [number, number, number]; rotation?: [number, number, number, number] }[];

const decode = (f: { width: number; height: number; rgba: string }): Rgba => ({ width: f.width, height: f.height, data: new Uint8Array(Buffer.from(f.rgba, 'base64')) });
const frame = async (page: Page) => decode(await page.evaluate(() => window.__vmdPreview!.frameImage()));
function save(img: Rgba, name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, name);
  writeFileSync(file, encodePng(img));
  return file;
}

/** Pixels inside box (buffer px) whose colour differs by more than `tol` in any channel. */
function differing(a: Rgba, b: Rgba, box: { x0: number; y0: number; x1: number; y1: number }, tol = 24): number {
  let n = 0;
  for (let y = Math.max(0, box.y0); y < Math.min(a.height, box.y1); y++) {
    for (let x = Math.max(0, box.x0); x < Math.min(a.width, box.x1); x++) {
      const o = 4 * (y * a.width + x);
      if (Math.abs(a.data[o] - b.data[o]) > tol || Math.abs(a.data[o + 1] - b.data[o + 1]) > tol || Math.abs(a.data[o + 2] - b.data[o + 2]) > tol) n++;
    }
  }
  return n;
}

/**
 * Distances between two lists of the same bones (matched by name): the largest over the bones outside Gene's
 * cloak, and over all. Why the cloak apart: the preview poses through three.js bones (rest + key − rest), Node
 * directly, so their poses before physics differ by ~1e-8 units, and the cloak (クローク) chains end in weights
 * (錘: bodies that collide with nothing, on loose joints) that amplify that chaotically to tenths of a unit
 * within a few hundred steps; the rest of the hair and clothes stay within a thousandth.
 */
function gaps(a: Bones, b: Bones): { rest: number; worst: number; at: string } {
  const byName = new Map(b.map((x) => [x.name, x.position]));
  let rest = 0, worst = 0, at = '';
  for (const x of a) {
    const p = byName.get(x.name);
    if (!p) throw new Error(`bone ${x.name} missing`);
    const g = Math.hypot(x.position[0] - p[0], x.position[1] - p[1], x.position[2] - p[2]);
    if (!x.name.includes('クローク')) rest = Math.max(rest, g);
    if (g > worst) [worst, at] = [g, x.name];
  }
  return { rest, worst, at };
}
const show = (g: { rest: number; worst: number; at: string }) => `${g.rest.toExponential(2)} outside the cloak, worst ${g.worst.toExponential(2)} (${g.at})`;

/** shared/physics in Node: Gene_light dancing wavefile_v2, restarted at `from` and run `frames` frames on. */
async function nodeBones(from: number, frames = 0): Promise<Bones> {
  const m = readModel(readCorpus(GENE)), v = readVmd(readCorpus(DANCE));
  if (!m.ok || !v.ok) throw new Error('corpus');
  const sim = new Simulation(await testBullet(), m.value, v.value);
  sim.seek(from);
  for (let k = 0; k < frames; k++) sim.advance();
  const out = sim.physicsBones().map((i) => ({ name: m.value.bones[i].name, position: [sim.pose.worldPosition[3 * i], sim.pose.worldPosition[3 * i + 1], sim.pose.worldPosition[3 * i + 2]] as [number, number, number] }));
  sim.dispose();
  return out;
}

const shownBones = (page: Page): Promise<Bones> => page.evaluate(() => window.__vmdPreview!.physicsBones('shown'));
/** Trace mode: waits until no run is on its way to a frame (the catch-up in slices is done) and the picture is drawn. */
async function caughtUp(page: Page): Promise<void> {
  await page.waitForFunction(() => window.__vmdPreview!.physics().catchUp === null, undefined, { timeout: 120_000 });
  await animationFrames(page, 2);
}
const actor = async (page: Page, key: string) => (await page.evaluate(() => window.__vmdPreview!.physics().actors)).find((a) => a.key === key);

/** Turns physics on or off with the pane's switch and waits until the worlds are built (or gone). */
async function setPhysics(page: Page, on: boolean): Promise<void> {
  const box = page.locator('[data-testid="preview-physics"]');
  if ((await box.isChecked()) !== on) await box.click();
  await page.waitForFunction((want) => window.__vmdPreview!.physics().ready === want, on, { timeout: 30_000 });
  await animationFrames(page);
}

describe('physics in the preview (browser mode)', () => {
  const s = appForSuite();
  let companion = '';

  it('Bullet loads in the page; the hair moves with physics on; off gives back the motion\'s picture', async () => {
    const { page } = s.app;
    const scenePath = writeSceneFolder(
      s.tmp.dir,
      [[corpusPath(DANCE), 'dance.vmd'], [corpusPath('gene/motion/02_laugh.vmd'), 'laugh.vmd']],
      {
        actors: [
          { model: corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'), motion: 'laugh.vmd', stage: { position: [14, 0, 0], turn: 0 } },
          { model: corpusPath(GENE), motion: 'dance.vmd' },
        ],
        activeActor: 1,
      },
      'physics.vmdscene',
    );
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => window.__vmdPreview?.companions().length === 1 && window.__vmdPreview.info().model !== null, undefined, { timeout: 60_000 });
    companion = (await page.evaluate(() => window.__vmdPreview!.companions()))[0];
    expect(await page.textContent('[data-testid="preview-physics-state"]')).toBe('Physics: off — P turns it on');
    await seekPreview(page, 300);
    // Textures arrive after the models: wait until two pictures a moment apart are the same.
    let off = await frame(page);
    for (let i = 0; i < 30; i++) {
      await page.waitForTimeout(500);
      const again = await frame(page);
      const same = differing(off, again, { x0: 0, y0: 0, x1: off.width, y1: off.height }, 0) === 0;
      off = again;
      if (same) break;
    }
    await setPhysics(page, true);
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-physics-state"]')?.getAttribute('data-state') === 'on');
    const status = await page.textContent('[data-testid="preview-physics-state"]');
    const bones = await shownBones(page);
    expect(status).toMatch(/^Physics: on \(\d+ rigid bodies, \d+ joints\)$/);
    expect(bones.length).toBeGreaterThan(20);
    const on = await frame(page);
    // The hair's box on screen: every physics bone under the head, where the picture draws its joint.
    const box = await page.evaluate((names) => {
      const h = window.__vmdPreview!;
      const r = (document.querySelector('[data-testid="preview-canvas"]') as HTMLCanvasElement).getBoundingClientRect();
      const [bw] = h.bufferSize();
      const k = bw / r.width;
      const pts = names.map((n) => h.boneScreenPosition(n)).filter((p): p is [number, number] => !!p).map(([x, y]) => [(x - r.left) * k, (y - r.top) * k]);
      const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
      const pad = 12 * k;
      return { x0: Math.floor(Math.min(...xs) - pad), y0: Math.floor(Math.min(...ys) - pad), x1: Math.ceil(Math.max(...xs) + pad), y1: Math.ceil(Math.max(...ys) + pad) };
    }, bones.filter((b) => /髪|毛/.test(b.name)).map((b) => b.name));
    const hairDiff = differing(off, on, box);
    save(off, 'physics-off.png');
    save(on, 'physics-on.png');
    await setPhysics(page, false);
    const offAgain = await frame(page);
    const back = differing(off, offAgain, box, 0);
    console.log(`[physics] Gene_light × wavefile_v2 at frame 300: ${hairDiff} of ${(box.x1 - box.x0) * (box.y1 - box.y0)} pixels of the hair's box differ with physics on; off again, ${back} differ from the first picture`);
    // A share of the hair's box, not a pixel count: the scene opens framed on both actors (Miku stands 14 to the
    // side), so the box is as large as that view draws it (about 2,900 pixels; 9,000 in the start view).
    expect(hairDiff).toBeGreaterThan(0.02 * (box.x1 - box.x0) * (box.y1 - box.y0));
    expect(back).toBe(0);
    expect(await page.textContent('[data-testid="preview-physics-state"]')).toBe('Physics: off — P turns it on');
    await s.app.screenshot('physics-pane');
    expect(s.app.errors).toEqual([]);
  }, 240_000);

  it('a jump and Reset (Shift+P) restart physics from the pose there, as shared/physics does in Node', async () => {
    const { page } = s.app;
    await setPhysics(page, true);
    await seekPreview(page, 200);
    // Paused, one frame forward at a time is a step, not a restart.
    const restarts0 = (await actor(page, 'shown'))!.restarts;
    for (let f = 201; f <= 205; f++) await seekPreview(page, f);
    const stepped = await shownBones(page);
    expect((await actor(page, 'shown'))!.restarts).toBe(restarts0);
    const node = await nodeBones(205);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Shift+P');
    await page.waitForFunction((n) => window.__vmdPreview!.physics().actors.find((a) => a.key === 'shown')!.restarts === n + 1, restarts0);
    const reset = await shownBones(page);
    // What a restart costs (a new world and the settling frames), as a scrub jump pays it: reported, not asserted.
    console.log(`[perf] physics restart of Gene_light (new world + 60 settling frames): ${(await actor(page, 'shown'))!.lastMs.toFixed(1)} ms`);
    // A typed frame elsewhere and back: a jump, the same restart.
    await seekPreview(page, 90);
    await seekPreview(page, 205);
    const jumped = await shownBones(page);
    const gStepped = gaps(stepped, node), gReset = gaps(reset, node), gJump = gaps(jumped, node);
    console.log(`[physics] frame 205, ${node.length} physics bones against Node's Simulation restarted there (units): stepped on from 200 ${show(gStepped)}; after Reset ${show(gReset)}; after a jump ${show(gJump)}`);
    // Reset and a jump are the same restart, exactly; Node's too outside the cloak, and the cloak's weights (see
    // gaps()) within the issue's 0.5-unit agreement bound.
    expect(gaps(reset, jumped).worst).toBe(0);
    expect(gReset.rest).toBeLessThan(1e-3);
    expect(gReset.worst).toBeLessThan(0.5);
    expect(gStepped.rest).toBeGreaterThan(0.01);
  }, 240_000);

  it('Show rigid bodies draws the bodies in their modes\' colours and the joints', async () => {
    const { page } = s.app;
    await setPhysics(page, true);
    await seekPreview(page, 300);
    const count = (img: Rgba) => {
      const c = { green: 0, yellow: 0, red: 0, cyan: 0 };
      for (let o = 0; o < img.data.length; o += 4) {
        const r = img.data[o], g = img.data[o + 1], b = img.data[o + 2];
        if (g > 150 && r < 110 && b < 130) c.green++;
        else if (r > 200 && g > 170 && b < 90) c.yellow++;
        else if (r > 200 && g < 90 && b < 90) c.red++;
        else if (b > 200 && g > 170 && r < 110) c.cyan++;
      }
      return c;
    };
    const before = count(await frame(page));
    await page.click('[data-testid="preview-rigid-bodies"]');
    await page.waitForFunction(() => window.__vmdPreview!.physics().bodiesShown);
    await animationFrames(page);
    const img = await frame(page);
    save(img, 'physics-bodies.png');
    await page.waitForFunction(() => !window.__vmdPreview!.presentation().pending);
    await s.app.screenshot('physics-bodies-pane');
    const after = count(img);
    const shown = (await actor(page, 'shown'))!, other = (await actor(page, companion))!;
    console.log(`[physics] rigid bodies shown: ${shown.viewBodies} + ${other.viewBodies} bodies; pixels green ${before.green}→${after.green}, yellow ${before.yellow}→${after.yellow}, red ${before.red}→${after.red}, cyan ${before.cyan}→${after.cyan}`);
    expect(shown.viewBodies).toBe(shown.bodies);
    expect(other.viewBodies).toBe(other.bodies);
    // Gene's bodies are mode 0 (green: head, body, limbs) and mode 2 (yellow: hair, skirt); the joints cyan.
    expect(after.green - before.green).toBeGreaterThan(300);
    expect(after.yellow - before.yellow).toBeGreaterThan(300);
    expect(after.cyan - before.cyan).toBeGreaterThan(50);
    await page.click('[data-testid="preview-rigid-bodies"]');
    await page.waitForFunction(() => !window.__vmdPreview!.physics().bodiesShown);
  }, 240_000);

  it('pointing at a drawn rigid body names it in a tooltip (name, bone, mode, groups, shape) and highlights it', async () => {
    const { page } = s.app;
    await setPhysics(page, false);
    await seekPreview(page, 300);
    await page.click('[data-testid="preview-rigid-bodies"]');
    await page.waitForFunction(() => !!window.__vmdPreview!.rigidBodyView('shown'));
    await animationFrames(page);
    const gene = readModel(readCorpus(GENE)), miku = readModel(readCorpus('mmd-viewer-js/model/low_miku/miku.pmd'));
    if (!gene.ok || !miku.ok) throw new Error('corpus');
    const views = await page.evaluate((k) => ({ shown: window.__vmdPreview!.rigidBodyView('shown')!, other: window.__vmdPreview!.rigidBodyView(k) }), companion);
    const eye = new THREE.Vector3(...((await page.evaluate(() => window.__vmdPreview!.cameraState()))!.position as [number, number, number]));
    // Bounding spheres of everything drawn (both actors' bodies as the PMX gives their sizes, and the joints'
    // 0.3-unit cubes, drawn over every body): a body no other sphere meets before its centre on the pointer's ray
    // is the one under the pointer there.
    const radius = (b: { shape: number; size: readonly number[] }) => (b.shape === 0 ? b.size[0] : b.shape === 1 ? Math.hypot(b.size[0], b.size[1], b.size[2]) : b.size[0] + b.size[1] / 2);
    const spheres = [
      ...views.shown.bodies.map((c, i) => ({ c: new THREE.Vector3(...c), r: radius(gene.value.rigidBodies[i]), own: i, joint: false })),
      ...(views.other?.bodies ?? []).map((c, i) => ({ c: new THREE.Vector3(...c), r: radius(miku.value.rigidBodies[i]), own: -1, joint: false })),
      ...[...views.shown.joints, ...(views.other?.joints ?? [])].map((c) => ({ c: new THREE.Vector3(...c), r: (0.3 * Math.sqrt(3)) / 2, own: -1, joint: true })),
    ];
    const canvasBox = (await page.locator('[data-testid="preview-canvas"]').boundingBox())!;
    let chosen = -1, at: [number, number] | null = null;
    for (let i = 0; i < views.shown.bodies.length && chosen < 0; i++) {
      const ci = new THREE.Vector3(...views.shown.bodies[i]), dir = ci.clone().sub(eye).normalize(), ti = ci.distanceTo(eye);
      const covered = spheres.some((q) => {
        if (q.own === i) return false;
        const t = q.c.clone().sub(eye).dot(dir);
        const off = q.c.clone().sub(eye).sub(dir.clone().multiplyScalar(t)).length();
        return off < q.r && (q.joint || t - q.r < ti);
      });
      // A body big enough to point at, away from the pane's edges.
      if (covered || radius(gene.value.rigidBodies[i]) < 0.5) continue;
      const p = await page.evaluate((c) => window.__vmdPreview!.worldScreenPosition(c), views.shown.bodies[i]);
      if (p && p[0] > canvasBox.x + 40 && p[0] < canvasBox.x + canvasBox.width - 40 && p[1] > canvasBox.y + 60 && p[1] < canvasBox.y + canvasBox.height - 60) [chosen, at] = [i, p];
    }
    expect(chosen).toBeGreaterThanOrEqual(0);
    const body = gene.value.rigidBodies[chosen];
    await page.mouse.move(at![0], at![1]);
    const tip = page.locator('[data-testid="preview-body-tip"]');
    await tip.waitFor({ timeout: 30_000 });
    const lines = await tip.locator('div').allTextContents();
    const modeText = ['follows bone', 'physics', 'physics + bone position'][body.mode];
    const bone = gene.value.bones[body.bone];
    console.log(`[physics] pointer on body ${chosen} at (${at![0].toFixed(0)}, ${at![1].toFixed(0)}): tooltip ${JSON.stringify(lines)}`);
    expect(lines[0]).toBe(`Rigid body ${body.nameEn && body.nameEn !== body.name ? `${body.name} (${body.nameEn})` : body.name}`);
    expect(lines[1]).toBe(`Bone: ${bone.nameEn && bone.nameEn !== bone.name ? `${bone.name} (${bone.nameEn})` : bone.name}`);
    expect(lines[2]).toBe(`Mode: ${modeText}`);
    expect(lines[3]).toMatch(new RegExp(`^Group ${body.group + 1} · collides with `));
    expect(lines[4]).toMatch(/^(Sphere, radius|Box, half sizes|Capsule, radius) \d/);
    expect(await page.evaluate(() => window.__vmdPreview!.rigidBodyView('shown')!.highlighted)).toEqual({ kind: 'body', index: chosen });
    await animationFrames(page, 3);
    await page.waitForFunction(() => !window.__vmdPreview!.presentation().pending);
    await s.app.screenshot('physics-body-tip');
    // In Japanese.
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.mouse.move(at![0] + 1, at![1]);
    await page.waitForFunction((n) => document.querySelector('[data-testid="preview-body-tip"] div')?.textContent?.startsWith(`剛体 ${n}`), body.name);
    await s.app.screenshot('physics-body-tip-ja');
    await page.selectOption('[data-testid="locale"]', 'en');
    // Off the model (the pane's top-right corner): no tooltip, nothing highlighted.
    await page.mouse.move(canvasBox.x + canvasBox.width - 8, canvasBox.y + 8);
    await tip.waitFor({ state: 'detached', timeout: 30_000 });
    expect(await page.evaluate(() => window.__vmdPreview!.rigidBodyView('shown')!.highlighted)).toBeNull();
    await page.click('[data-testid="preview-rigid-bodies"]');
    await page.waitForFunction(() => !window.__vmdPreview!.physics().bodiesShown);
    expect(s.app.errors).toEqual([]);
  }, 240_000);

  it('physics Always (常に演算) simulates on while paused: the hair left swinging by a jump and five steps moves on; in While playing it stays', async () => {
    const { page } = s.app;
    await setPhysics(page, true);
    const mode = page.locator('[data-testid="preview-physics-mode"]');
    expect(await mode.inputValue()).toBe('play');
    const hairOf = (b: Bones) => b.filter((x) => /髪|毛/.test(x.name));
    const gap = (a: Bones, b: Bones) => Math.max(...a.map((x, k) => Math.hypot(x.position[0] - b[k].position[0], x.position[1] - b[k].position[1], x.position[2] - b[k].position[2])));
    /**
     * A jump to `from` (physics restarts there, settled), then five frames stepped forward one at a time (each a
     * step, as MMD's arrow key): the dance moves the body and the hair is left swinging, paused — the same frames
     * whatever the machine's speed.
     */
    const jumpAndStep = async (from: number) => {
      await seekPreview(page, from - 60);
      await seekPreview(page, from);
      for (let f = from + 1; f <= from + 5; f++) await seekPreview(page, f);
      await animationFrames(page, 3);
    };
    // Playing only: paused, nothing steps and the hair stays where the last step left it.
    await jumpAndStep(200);
    const steps0 = (await actor(page, 'shown'))!.steps, hair0 = hairOf(await shownBones(page));
    expect(hair0.length).toBeGreaterThan(5);
    await animationFrames(page, 20);
    const hair1 = hairOf(await shownBones(page));
    expect((await actor(page, 'shown'))!.steps).toBe(steps0);
    expect(gap(hair0, hair1)).toBe(0);
    // Always: the same frames, and the world steps on by itself while paused: the hair moves on.
    await mode.selectOption('always');
    await jumpAndStep(200);
    const idle0 = await page.evaluate(() => window.__vmdPreview!.idleSteps());
    const hair2 = hairOf(await shownBones(page));
    await page.waitForFunction((n) => window.__vmdPreview!.idleSteps() >= n + 10, idle0, { timeout: 120_000 });
    const hair3 = hairOf(await shownBones(page));
    console.log(`[physics] paused at ${await page.evaluate(() => window.__vmdPreview!.frame())}: Playing mode, the hair moved ${gap(hair0, hair1).toFixed(4)} units over 20 animation frames; Always, ${gap(hair2, hair3).toFixed(4)} units over 10+ paused steps`);
    expect(gap(hair2, hair3)).toBeGreaterThan(0.01);
    await animationFrames(page, 3);
    await page.waitForFunction(() => !window.__vmdPreview!.presentation().pending);
    await s.app.screenshot('physics-always');
    await mode.selectOption('play');
    expect(s.app.errors).toEqual([]);
  }, 240_000);

  it('physics Trace (トレース) follows the playhead as a bake: the hair at a frame is the same stepped there from 0 as jumped there from 0; jumped back from 300, the same each time', async () => {
    const { page } = s.app;
    await setPhysics(page, true);
    const mode = page.locator('[data-testid="preview-physics-mode"]');
    await mode.selectOption('trace');
    expect(await mode.locator('option[value="trace"]').textContent()).toMatch(/^(Trace|トレース)$/);
    // The physics line says the mode (nufollow finding 6).
    await page.waitForFunction(() => /^(Physics: on · Trace \(|物理演算: オン・トレース（)/.test(document.querySelector('[data-testid="preview-physics-state"]')?.textContent ?? ''), undefined, { timeout: 60_000 });
    const N = 45;
    try {
    // Straight: frame by frame from 0 (each a step of the trace's run; the restart at 0 is caught up in slices).
    for (let f = 0; f <= N; f++) {
      await seekPreview(page, f);
      await caughtUp(page);
    }
    await animationFrames(page, 2);
    const straight = await shownBones(page);
    // A jump far ahead and back: from the trace's checkpoint at 30, not a restart at N.
    await seekPreview(page, 300);
    await caughtUp(page);
    const at300 = await shownBones(page);
    await seekPreview(page, N);
    // A jump back into what the run went through is shown at once: no catch-up.
    expect((await page.evaluate(() => window.__vmdPreview!.physics())).catchUp).toBeNull();
    await animationFrames(page, 2);
    const jumped = await shownBones(page);
    expect(jumped.length).toBeGreaterThan(5);
    // Near the straight run, not its bits (Bullet's contact caches are not in a checkpoint), and the same each time.
    await seekPreview(page, 300);
    await caughtUp(page);
    await seekPreview(page, N);
    await caughtUp(page);
    await animationFrames(page, 2);
    expect(await shownBones(page)).toEqual(jumped);
    // A new trace (the mode switched off and on) jumped straight to N runs from 0: the straight run's bits.
    await mode.selectOption('play');
    await mode.selectOption('trace');
    await seekPreview(page, 0);
    await seekPreview(page, N);
    await caughtUp(page);
    await animationFrames(page, 2);
    expect(await shownBones(page)).toEqual(straight);
    // The hair did move between the two frames (physics runs).
    expect(Math.max(...at300.map((x, k) => Math.hypot(x.position[0] - straight[k].position[0], x.position[1] - straight[k].position[1], x.position[2] - straight[k].position[2])))).toBeGreaterThan(0.01);
    } finally {
      await mode.selectOption('play');
    }
    expect(s.app.errors).toEqual([]);
  }, 240_000);

  it('physics Trace: a first jump far ahead catches up in slices (the page keeps answering, a progress line) and ends on a straight run\'s bones', async () => {
    const { page } = s.app;
    await setPhysics(page, true);
    const mode = page.locator('[data-testid="preview-physics-mode"]');
    const far = Math.min(3000, Number(await page.locator('[data-testid="preview-scrub"]').getAttribute('max')));
    expect(far).toBeGreaterThan(1000);
    try {
      await seekPreview(page, 0);
      // A new trace (the mode chosen anew): its run has been nowhere yet.
      await mode.selectOption('trace');
      await caughtUp(page);
      // Long tasks (over 50 ms on the main thread) from here on, printed below: the rule is none over 100 ms.
      await page.evaluate(() => {
        const w = window as unknown as { __longTasks: number[] };
        w.__longTasks = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__longTasks.push(Math.round(e.duration));
        }).observe({ type: 'longtask', buffered: false });
      });
      await page.locator('[data-testid="preview-scrub"]').fill(String(far));
      await page.waitForFunction((f) => window.__vmdPreview?.frame() === f, far);
      // Under way: the line says where to and how far, and the page answers meanwhile (animation frames come).
      const line = page.locator('[data-testid="preview-physics-catch-up"]');
      await expect.poll(() => line.getAttribute('data-frame')).toBe(String(far));
      expect(await line.textContent()).toMatch(new RegExp(`(catching up to frame ${far} \\(\\d+ %\\)|${far} フレームまで演算中（\\d+ %）)`));
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.locator('[data-testid="preview-physics-catch-up"]').locator('xpath=..').screenshot({ path: path.join(ARTIFACTS, 'physics-trace-catch-up.png') });
      const during = await page.evaluate(() => window.__vmdPreview!.physics().catchUp);
      expect(during?.frame).toBe(far);
      expect(during!.done).toBeLessThan(1);
      await animationFrames(page, 5);
      const later = await page.evaluate(() => window.__vmdPreview!.physics().catchUp);
      expect(later?.frame).toBe(far);
      expect(later!.done).toBeGreaterThan(during!.done);
      await caughtUp(page);
      await expect.poll(() => line.count()).toBe(0);
      await animationFrames(page, 2);
      const sliced = await shownBones(page);
      const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
      console.log(`Trace catch-up 0 → ${far}: long tasks ${longTasks.length ? longTasks.join(', ') + ' ms' : 'none'}`);
      // The straight run: a new trace brought to the frame at once (the video export's way, not in slices).
      await mode.selectOption('play');
      await mode.selectOption('trace');
      const straight = await page.evaluate((f) => window.__vmdPreview!.physicsOffline('shown', f, 0), far);
      expect(sliced.length).toBeGreaterThan(5);
      expect(sliced).toEqual(straight);
    } finally {
      await mode.selectOption('play');
    }
    expect(s.app.errors).toEqual([]);
  }, 300_000);

  it('a hidden actor\'s world is not stepped', async () => {
    const { page } = s.app;
    await setPhysics(page, true);
    await seekPreview(page, 0);
    const play = async (frames: number) => {
      const f0 = await page.evaluate(() => window.__vmdPreview!.frame());
      await page.click('[data-testid="preview-play"]');
      await page.waitForFunction((f) => window.__vmdPreview!.frame() >= f, f0 + frames, { timeout: 60_000 });
      await page.click('[data-testid="preview-play"]');
      await animationFrames(page);
    };
    await play(15);
    const a0 = (await actor(page, 'shown'))!, c0 = (await actor(page, companion))!;
    expect(a0.steps).toBeGreaterThan(0);
    expect(c0.steps).toBeGreaterThan(0);
    // The other actor hidden by its tab's eye: it leaves the picture, and its world with it.
    await page.locator('[data-testid="scene-hide"]').nth(0).click();
    await page.waitForFunction(() => window.__vmdPreview!.companions().length === 0);
    expect(await actor(page, companion)).toBeUndefined();
    await page.locator('[data-testid="scene-hide"]').nth(0).click();
    await page.waitForFunction(() => window.__vmdPreview!.companions().length === 1);
    // The shown actor hidden: its world stands still while the other's steps.
    await page.locator('[data-testid="scene-hide"]').nth(1).click();
    await page.waitForFunction(() => !window.__vmdPreview!.shown());
    const a1 = (await actor(page, 'shown'))!, c1 = (await actor(page, companion))!;
    await play(15);
    const a2 = (await actor(page, 'shown'))!, c2 = (await actor(page, companion))!;
    console.log(`[physics] shown actor hidden: its steps ${a1.steps}→${a2.steps}; the other actor's ${c1.steps}→${c2.steps}`);
    expect(a2).toMatchObject({ hidden: true, simulating: false });
    expect(a2.steps).toBe(a1.steps);
    expect(c2.steps).toBeGreaterThan(c1.steps + 5);
    await page.locator('[data-testid="scene-hide"]').nth(1).click();
    await page.waitForFunction(() => window.__vmdPreview!.shown());
    // Shown again it restarts from its pose before it steps on.
    await seekPreview(page, 40);
    expect((await actor(page, 'shown'))!.restarts).toBeGreaterThan(a2.restarts);
  }, 240_000);

  it('the video export\'s frame source simulates from the range\'s start, as Node does', async () => {
    const { page } = s.app;
    await setPhysics(page, true);
    await seekPreview(page, 500);
    const first = await page.evaluate(() => window.__vmdPreview!.physicsOffline('shown', 150, 10));
    // The preview is elsewhere in between (played on at 500): the export's frames do not depend on it.
    await seekPreview(page, 501);
    const again = await page.evaluate(() => window.__vmdPreview!.physicsOffline('shown', 150, 10));
    const node = await nodeBones(150, 10);
    const g = gaps(first, node), rerun = gaps(first, again);
    console.log(`[physics] export frames 150–160 against Node's Simulation from 150 (units): ${show(g)}; a second export differs by ${rerun.worst.toExponential(2)}`);
    expect(rerun.worst).toBe(0);
    expect(g.rest).toBeLessThan(1e-3);
    expect(g.worst).toBeLessThan(0.5);
    // Back at the preview's frame.
    expect(await page.evaluate(() => window.__vmdPreview!.frame())).toBe(501);
    expect(s.app.errors).toEqual([]);
  }, 240_000);

  it('the head turned by hand with its ring: the hair follows, and swings on after the hand stops', async () => {
    const { page } = s.app;
    await setPhysics(page, true);
    await seekPreview(page, 400);
    await page.click('[data-testid="side-tab-bones"]');
    await page.click('[data-testid="bone-item"][data-bone="頭"]');
    await page.waitForFunction(() => window.__vmdPreview!.poseHandle('X').bone === '頭');
    const headBefore = (await page.evaluate(() => window.__vmdPreview!.boneWorldQuaternion('頭')))!;
    const before = await shownBones(page);
    // Press on a ring where the handle says it is hovered, drag a quarter of the way round it, hold still.
    let held = false;
    let stepsAtPress = 0;
    for (const axis of ['X', 'Z', 'Y'] as const) {
      const h = await page.evaluate((a) => window.__vmdPreview!.poseHandle(a), axis);
      for (let k = 0; k < h.points.length && !held; k++) {
        const [x, y] = h.points[k];
        await page.mouse.move(x, y);
        await animationFrames(page, 1);
        if ((await page.evaluate(() => window.__vmdPreview!.poseHandle('X').hovered)) !== axis) continue;
        const to = h.points[(k + Math.max(1, Math.floor(h.points.length / 4))) % h.points.length];
        stepsAtPress = (await actor(page, 'shown'))!.steps;
        await page.mouse.down();
        await page.mouse.move(to[0], to[1], { steps: 8 });
        held = true;
      }
      if (held) break;
    }
    expect(held).toBe(true);
    // The hand holds still: physics runs on by itself for 30 frames after the last move (a second at MMD's
    // 30 fps), then stops; each move stepped it once too. Counted from the press: on a slow page several of
    // the 30 frames may pass before a count read after the drag comes back.
    let headAfter: number[], after: Awaited<ReturnType<typeof shownBones>>;
    try {
      await page.waitForFunction((n) => window.__vmdPreview!.physics().actors.find((a) => a.key === 'shown')!.steps >= n + 30, stepsAtPress, { timeout: 60_000 });
      headAfter = (await page.evaluate(() => window.__vmdPreview!.boneWorldQuaternion('頭')))!;
      after = await shownBones(page);
    } finally {
      // Released whatever happened, so the next test's clicks are not made with the button held.
      await page.mouse.up();
    }
    // The head's turn in MMD coordinates (three.js → MMD: x and y of a quaternion change sign).
    const mmd = (q: number[]) => new THREE.Quaternion(-q[0], -q[1], q[2], q[3]);
    const turn = mmd(headAfter).multiply(mmd(headBefore).invert());
    const angle = (a: THREE.Quaternion, b: THREE.Quaternion) => (2 * Math.acos(Math.min(1, Math.abs(a.dot(b)))) * 180) / Math.PI;
    const turned = angle(turn, new THREE.Quaternion());
    let followed = 0, hanging = 0;
    for (const b of after.filter((x) => /髪|毛/.test(x.name))) {
      const q0 = before.find((x) => x.name === b.name)!.rotation!;
      const was = new THREE.Quaternion(...q0), now = new THREE.Quaternion(...b.rotation!);
      followed = Math.max(followed, angle(now, was));
      hanging = Math.max(hanging, angle(now, turn.clone().multiply(was)));
    }
    console.log(`[physics] head turned ${turned.toFixed(1)}° by its ring: hair bones turned up to ${followed.toFixed(1)}°, up to ${hanging.toFixed(1)}° off a rigid turn with the head`);
    expect(turned).toBeGreaterThan(10);
    expect(followed).toBeGreaterThan(0.5 * turned);
    expect(hanging).toBeGreaterThan(3);
    await s.app.screenshot('physics-head-ring');
  }, 180_000);

  it('the switches are remembered in the settings; P turns physics on and off', async () => {
    const { page } = s.app;
    await setPhysics(page, true);
    await page.click('[data-testid="preview-rigid-bodies"]');
    await page.waitForFunction(() => window.__vmdPreview!.physics().bodiesShown);
    await page.locator('[data-testid="preview-physics-mode"]').selectOption('always');
    // The settings are written when switched: a new page starts with both on, and physics Always.
    await page.waitForTimeout(500);
    await page.reload();
    await page.waitForSelector('[data-ready="true"]');
    await page.waitForFunction(() => !!window.__vmdPreview && window.__vmdPreview.physics().enabled && window.__vmdPreview.physics().bodiesShown, undefined, { timeout: 30_000 });
    expect(await page.locator('[data-testid="preview-physics"]').isChecked()).toBe(true);
    expect(await page.locator('[data-testid="preview-physics-mode"]').inputValue()).toBe('always');
    // The preview reopens the model it showed (Gene_light), simulated from the start.
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-physics-state"]')?.getAttribute('data-state') === 'on', undefined, { timeout: 60_000 });
    expect(await page.textContent('[data-testid="preview-physics-state"]')).toBe('Physics: on · Always (87 rigid bodies, 92 joints)');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('p');
    await page.waitForFunction(() => !window.__vmdPreview!.physics().enabled);
    expect(await page.locator('[data-testid="preview-physics"]').isChecked()).toBe(false);
    await page.click('[data-testid="preview-rigid-bodies"]');
    await page.waitForFunction(() => !window.__vmdPreview!.physics().bodiesShown);
    await page.keyboard.press('p');
    await page.waitForFunction(() => window.__vmdPreview!.physics().enabled);
    expect((await actor(page, 'shown'))!.viewBodies).toBe(0);
    // In Japanese.
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-physics-state"]')?.textContent === '物理演算: オン・常に演算（剛体 87、ジョイント 92）');
    expect(await page.textContent('[data-testid="preview-physics-reset"]')).toBe('リセット');
    // On software GL the page's canvas shows a frame once it is read back: wait for it before the screenshot.
    await animationFrames(page, 3);
    await page.waitForFunction(() => !window.__vmdPreview!.presentation().pending);
    await s.app.screenshot('physics-pane-ja');
    expect(s.app.errors).toEqual([]);
    await page.selectOption('[data-testid="locale"]', 'en');
  }, 120_000);

  it('a model whose rigid bodies cannot be read plays without physics, and the status line says so and why', async () => {
    const { page } = s.app;
    await setPhysics(page, true);
    // The low-poly Miku with body 1's mass (83-byte PMD records: name 20 | bone 2 | group, mask, shape 4 |
    // size, position, rotation 36 | mass) made NaN, which Bullet would turn into NaN bones.
    const bytes = readCorpus('mmd-viewer-js/model/low_miku/miku.pmd').slice();
    const m = readModel(bytes);
    if (!m.ok) throw new Error(m.error.message);
    new DataView(bytes.buffer, bytes.byteOffset).setFloat32(m.value.rigidBodies[1].offset + 62, NaN, true);
    writeFileSync(path.join(s.tmp.dir, 'nan-mass.pmd'), bytes);
    const copies: [string, string][] = [[corpusPath('gene/motion/02_laugh.vmd'), 'laugh.vmd'], ...['ro_hatune01.tga', 'ro_hatune02.tga'].map((t): [string, string] => [corpusPath(`mmd-viewer-js/model/low_miku/${t}`), t])];
    const scenePath = writeSceneFolder(s.tmp.dir, copies, { actors: [{ model: 'nan-mass.pmd', motion: 'laugh.vmd' }], activeActor: 0 }, 'nan-mass.vmdscene');
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-physics-state"]')?.getAttribute('data-state') === 'unreadable', undefined, { timeout: 60_000 });
    const status = page.locator('[data-testid="preview-physics-state"]');
    expect(await status.textContent()).toBe('Physics: unreadable');
    expect(await status.getAttribute('title')).toMatch(/^The model's rigid bodies and joints could not be read, so it plays without physics: rigid body 1 ".+": mass is NaN/);
    // The model's notes say it too, with the byte offset of the record.
    expect(await page.textContent('[data-testid="preview-physics-problem"] li')).toMatch(/^rigid body 1 ".+": mass is NaN, not a number Bullet can take \(at byte \d+\)$/);
    // In Japanese the tooltip and the list say it in Japanese too, with the body and the field (they ended in English).
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-physics-state"]')?.textContent === '物理演算: 読めません');
    expect(await status.getAttribute('title')).toMatch(/^このモデルの剛体とジョイントを読めないため、物理演算なしで再生します: 剛体 1「.+」: 質量が NaN で、Bullet で扱える数値ではありません（壊れたファイル）（\d+ バイト目）$/);
    expect(await page.textContent('[data-testid="preview-physics-problem"] li')).toMatch(/^剛体 1「.+」: 質量が NaN で、Bullet で扱える数値ではありません（壊れたファイル）（\d+ バイト目）$/);
    await page.selectOption('[data-testid="locale"]', 'en');
    // Physics stays switched on for the other models; this one has no world.
    expect(await page.evaluate(() => window.__vmdPreview!.physics().enabled)).toBe(true);
    expect((await actor(page, 'shown'))?.simulating ?? false).toBe(false);
    await page.waitForFunction(() => !window.__vmdPreview!.presentation().pending);
    await s.app.screenshot('physics-unreadable');
    expect(s.app.errors).toEqual([]);
  }, 120_000);
});
