/**
 * The 3D preview end to end in Chromium (browser mode, WebGL through SwiftShader): open wavefile_v2.vmd,
 * play on the default figure and on Gene_light.pmx (opened through the preview's Model… button and the
 * in-app dialog), seek, and compare bones' world rotations read from the scene (window.__vmdPreview) with
 * the codec's sampled pose composed here along each bone's parent chain; look through wavefile_camera.vmd
 * and compare the camera with sampleCamera. Measures frame and pose times; saves screenshots.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { corpusPath, fileDialogReady, openApp, openFileViaDialog, tempDir, type AppHandle } from './harness';
import { seekPreview as seek } from './editor-page';
import { buildFixture } from '../helpers/vmd-fixtures';
import { mikuWithBadBones } from '../helpers/damaged-models';
import { buildTracks, readVmd, samplePose, sampleCamera, type Pose } from '../../shared/vmd';
import { readModel, type ModelBone } from '../../shared/pmx';
import { defaultFigureBones } from '../../shared/skeleton/standard-figure';
import { buildRig } from '../../renderer/src/preview/rig';

type Q = [number, number, number, number];

function mul(a: Q, b: Q): Q {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

/**
 * Expected three.js world rotation of a bone: the product, root first, of each ancestor's sampled local
 * rotation converted (−x, −y, z, w). Only valid when no bone on the chain is moved by IK or append.
 */
function expectedWorld(bones: ModelBone[], name: string, pose: Pose): Q | null {
  const byName = new Map(bones.map((b, i) => [b.name, i]));
  const linked = new Set<number>();
  for (const b of bones) b.ik?.links.forEach((l) => linked.add(l.bone));
  let i = byName.get(name);
  if (i === undefined) return null;
  const chain: number[] = [];
  while (i >= 0) {
    if (bones[i].appendParent >= 0 || linked.has(i)) return null;
    chain.unshift(i);
    i = bones[i].parent;
  }
  let q: Q = [0, 0, 0, 1];
  for (const k of chain) {
    const p = pose.bones[bones[k].name];
    if (p) q = mul(q, [-p.rotation[0], -p.rotation[1], p.rotation[2], p.rotation[3]]);
  }
  return q;
}

function stats(v: number[]) {
  const s = [...v].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, median: at(0.5), p95: at(0.95), max: s[s.length - 1] };
}

async function playFor(page: Page, ms: number) {
  await page.evaluate(() => window.__vmdPreview!.resetPerf());
  await page.click('[data-testid="preview-play"]');
  await page.waitForTimeout(ms);
  await page.click('[data-testid="preview-play"]');
  return page.evaluate(() => window.__vmdPreview!.perf());
}

const WAVE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const GENE = corpusPath('gene/Gene_light.pmx');
const CAMERA = corpusPath('threejs/vmds/wavefile_camera.vmd');

/** The camera at a frame as the reference reader computes it (MMD coordinates). */
function referenceCamera(file: string, frame: number): { target: number[]; rotation: number[]; distance: number; fov: number; position: number[] } {
  const out = execFileSync('python3', [fileURLToPath(new URL('../../../shared/tools/vmdref.py', import.meta.url)), 'sample', file, String(frame)], { encoding: 'utf8' });
  return JSON.parse(out).camera;
}

/** v turned by the unit quaternion q = (x, y, z, w). */
function rotateByQuat(q: number[], v: number[]): number[] {
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

function load<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('3D preview', () => {
  let app: AppHandle;
  const report: string[] = [];
  const waveTracks = buildTracks(load(readVmd(new Uint8Array(readFileSync(WAVE)))));

  beforeAll(async () => {
    app = await openApp({ viewport: { width: 1440, height: 900 } });
  });
  afterAll(async () => {
    console.log(report.join('\n'));
    await app?.close();
  });

  it('starts WebGL and shows the default figure', async () => {
    const { page } = app;
    await page.waitForFunction(() => !!window.__vmdPreview);
    const webgl = await page.evaluate(() => {
      const c = document.querySelector('[data-testid="preview-canvas"]') as HTMLCanvasElement;
      return { w: c.width, h: c.height, renderer: (() => {
        const probe = document.createElement('canvas').getContext('webgl2');
        const ext = probe?.getExtension('WEBGL_debug_renderer_info');
        return probe ? String(probe.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : probe.RENDERER)) : 'none';
      })() };
    });
    report.push(`WebGL renderer: ${webgl.renderer}; canvas ${webgl.w}×${webgl.h}; preview sees ${await page.evaluate(() => window.__vmdPreview!.gpu())} GL`);
    expect(webgl.renderer).not.toBe('none');
    expect(await page.textContent('[data-testid="preview-model-name"]')).toContain('Default figure');
    expect(await page.textContent('[data-testid="preview-pane"]')).toContain('Physics: none');
  });

  it('plays wavefile_v2.vmd on the default figure; the scene matches the codec\'s pose', async () => {
    const { page } = app;
    await openFileViaDialog(page, WAVE);
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-frame"]')?.textContent?.includes('/ 2809'));
    // The figure lacks the model's hair, skirt and tip bones: listed, not an error.
    const missing = await page.textContent('[data-testid="preview-missing-bones"] summary');
    expect(missing).toMatch(/lacks \(\d+\)/);
    const perf = await playFor(page, 5000);
    const f = stats(perf.frameMs), p = stats(perf.poseMs);
    report.push(`default figure: frame time median ${f.median.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms over ${f.n} frames (≈${(1000 / f.median).toFixed(0)} fps); pose eval median ${p.median.toFixed(3)} ms, p95 ${p.p95.toFixed(3)} ms`);
    expect(f.n).toBeGreaterThan(5);
    const mean = await page.evaluate(() => window.__vmdPreview!.timePose(2000));
    report.push(`default figure: pose evaluation alone (paused), mean ${mean.toFixed(3)} ms over 2000 frames`);
    expect(mean).toBeGreaterThan(0); // a figure reported, not a budget: the machine's load decides it
    const bones = defaultFigureBones();
    for (const frame of [360, 1230, 2100]) {
      await seek(page, frame);
      await app.screenshot(`preview-figure-wavefile-${frame}`);
      const pose = samplePose(waveTracks, frame);
      for (const name of ['上半身', '首', '頭', '左腕', '右ひじ', '左手首', '下半身']) {
        const exp = expectedWorld(bones, name, pose);
        expect(exp, name).not.toBeNull();
        const got = await page.evaluate((n) => window.__vmdPreview!.boneWorldQuaternion(n), name);
        expect(got, name).not.toBeNull();
        const dot = Math.abs(got!.reduce((s, x, i) => s + x * exp![i], 0));
        expect(dot, `${name} at ${frame}`).toBeGreaterThan(1 - 1e-5);
      }
      // IK: the ankle sits on the leg IK bone (the motion's IK goal) when reachable.
      const ankle = await page.evaluate(() => window.__vmdPreview!.boneWorldPosition('左足首'));
      const goal = await page.evaluate(() => window.__vmdPreview!.boneWorldPosition('左足ＩＫ'));
      const d = Math.hypot(ankle![0] - goal![0], ankle![1] - goal![1], ankle![2] - goal![2]);
      report.push(`  frame ${frame}: |左足首 − 左足ＩＫ| = ${d.toFixed(3)}`);
    }
    // The figure moves between those frames: the head is somewhere else.
    await seek(page, 360);
    const h1 = await page.evaluate(() => window.__vmdPreview!.boneWorldPosition('頭'));
    await seek(page, 1230);
    const h2 = await page.evaluate(() => window.__vmdPreview!.boneWorldPosition('頭'));
    expect(Math.hypot(h1![0] - h2![0], h1![1] - h2![1], h1![2] - h2![2])).toBeGreaterThan(0.3);
  });

  it('opens Gene_light.pmx through the Model… button, with its textures, and poses it like the codec', async () => {
    const { page } = app;
    await page.click('[data-testid="preview-open-model"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', GENE);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes('ジェネ'), null, { timeout: 60_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid="preview-pane"]')?.textContent?.includes('Loading model'), null, { timeout: 60_000 });
    expect(await page.isVisible('[data-testid="preview-missing-textures"]')).toBe(false);
    expect(await page.textContent('[data-testid="preview-model-summary"]')).toContain('224 bones');
    const model = load(readModel(new Uint8Array(readFileSync(GENE))));
    const perf = await playFor(page, 5000);
    const f = stats(perf.frameMs), p = stats(perf.poseMs);
    report.push(`Gene_light.pmx: frame time median ${f.median.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms over ${f.n} frames (≈${(1000 / f.median).toFixed(0)} fps); pose eval median ${p.median.toFixed(3)} ms, p95 ${p.p95.toFixed(3)} ms`);
    const mean = await page.evaluate(() => window.__vmdPreview!.timePose(2000));
    report.push(`Gene_light.pmx: pose evaluation alone (paused), mean ${mean.toFixed(3)} ms over 2000 frames`);
    expect(mean).toBeGreaterThan(0); // a figure reported, not a budget: the machine's load decides it
    let compared = 0;
    for (const frame of [360, 1230, 2100]) {
      await seek(page, frame);
      await app.screenshot(`preview-gene-wavefile-${frame}`);
      const pose = samplePose(waveTracks, frame);
      for (const name of ['上半身', '上半身2', '首', '頭', '左肩', '左腕', '右腕', '下半身']) {
        const exp = expectedWorld(model.bones, name, pose);
        if (!exp) continue;
        const got = await page.evaluate((n) => window.__vmdPreview!.boneWorldQuaternion(n), name);
        const dot = Math.abs(got!.reduce((s, x, i) => s + x * exp[i], 0));
        expect(dot, `${name} at ${frame}`).toBeGreaterThan(1 - 1e-5);
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(15);
    // Rest-pose sanity of the rig builder itself against the model (same conversion as the scene).
    expect(buildRig(model.bones).bones).toHaveLength(224);

    // MMD's outline: off by default on software GL (this browser); on, exactly the materials with the edge
    // flag (0x10), a width and a visible edge colour draw one — counted from the file.
    const software = (await page.evaluate(() => window.__vmdPreview!.gpu())) === 'software';
    expect(await page.isChecked('[data-testid="preview-outline"]')).toBe(!software);
    const edged = model.materials.filter((m) => m.flags & 0x10 && m.edgeSize > 0 && m.edgeColor[3] > 0 && m.diffuse[3] > 0).length;
    expect(edged).toBeGreaterThan(0);
    await page.setChecked('[data-testid="preview-outline"]', true);
    await seek(page, 1230);
    expect(await page.evaluate(() => window.__vmdPreview!.outline())).toEqual({ on: true, materials: edged });
    await app.screenshot('preview-gene-wavefile-1230-outline');
    await page.setChecked('[data-testid="preview-outline"]', false);
    expect(await page.evaluate(() => window.__vmdPreview!.outline().on)).toBe(false);
    expect(app.errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });

  it('looks through wavefile_camera.vmd (beside the motion): camera at the reference reader\'s position, looking at the target', async () => {
    const { page } = app;
    const camTracks = buildTracks(load(readVmd(new Uint8Array(readFileSync(CAMERA)))));
    // Shown beside the open motion (wavefile_v2 on Gene), through the preview's Camera… button.
    await page.click('[data-testid="preview-open-camera"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', CAMERA);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    await page.waitForSelector('[data-testid="preview-clear-camera"]').catch(async (e) => {
      await app.screenshot('preview-camera-open-failed');
      throw new Error(`${e}\npage errors: ${app.errors.join('; ')}`);
    });
    expect(await page.textContent('[data-testid="preview-pane"]')).toMatch(/Camera: 70 keys, 29 cuts/);
    // Shown, not edited: the notice says so and how to edit it.
    await page.waitForFunction(() => document.querySelector('[data-testid="notifications"]')?.textContent?.includes('wavefile_camera.vmd is shown as the camera, view only: “Edit this camera” makes it the scene’s camera'));
    await page.waitForFunction(() => !(document.querySelector('[data-testid="preview-look-through"]') as HTMLInputElement)?.disabled);
    await page.check('[data-testid="preview-look-through"]');
    for (const frame of [200, 900, 1500]) {
      await seek(page, frame);
      const cam = await page.evaluate(() => window.__vmdPreview!.cameraState());
      const pose = sampleCamera(camTracks.camera, frame)!;
      // The independent reference reader (../shared/tools/vmdref.py: yaw outermost) says where MMD puts the camera.
      const ref = referenceCamera(CAMERA, frame);
      expect(cam!.lookThrough).toBe(true);
      const exp = [ref.position[0], ref.position[1], -ref.position[2]];
      for (let c = 0; c < 3; c++) expect(cam!.position[c], `position ${c} at ${frame}`).toBeCloseTo(exp[c], 3);
      expect(cam!.fov).toBe(ref.fov);
      expect(cam!.fov).toBe(pose.fov);
      const target = [ref.target[0], ref.target[1], -ref.target[2]];
      expect(Math.hypot(...cam!.position.map((x, i) => x - target[i]))).toBeCloseTo(Math.abs(ref.distance), 3);
      // Looking at the target: the three.js camera's forward (−Z turned by its quaternion) points at it.
      const fwd = rotateByQuat(cam!.quaternion, [0, 0, -1]);
      const to = target.map((x, i) => x - cam!.position[i]);
      const n = Math.hypot(...to);
      expect(fwd[0] * to[0] / n + fwd[1] * to[1] / n + fwd[2] * to[2] / n, `looks at the target at ${frame}`).toBeGreaterThan(1 - 1e-6);
      await app.screenshot(`preview-camera-through-${frame}`);
    }
    await page.uncheck('[data-testid="preview-look-through"]');
    await seek(page, 900);
    await app.screenshot('preview-camera-path-900');
  });

  it('shows the PMD model with its TGA textures and back to the default figure', async () => {
    const { page } = app;
    await page.click('[data-testid="preview-clear-camera"]');
    await page.click('[data-testid="preview-open-model"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'));
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes('ローポリ初音さん'), null, { timeout: 60_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid="preview-pane"]')?.textContent?.includes('Loading model'));
    expect(await page.isVisible('[data-testid="preview-missing-textures"]')).toBe(false);
    // wavefile_v2 was made for this model: only bones it lacks are listed (e.g. the 腕捩 bones).
    await seek(page, 1230);
    await app.screenshot('preview-pmd-wavefile-1230');
    const pose = samplePose(waveTracks, 1230);
    const model = load(readModel(new Uint8Array(readFileSync(corpusPath('mmd-viewer-js/model/low_miku/miku.pmd')))));
    const exp = expectedWorld(model.bones, '頭', pose)!;
    const got = await page.evaluate(() => window.__vmdPreview!.boneWorldQuaternion('頭'));
    expect(Math.abs(got!.reduce((s, x, i) => s + x * exp[i], 0))).toBeGreaterThan(1 - 1e-5);
    await page.click('[data-testid="preview-use-figure"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes('Default figure'));
    expect(app.errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });

  it('a model the reader had to repair says what it repaired, in the UI language', async () => {
    const { page } = app;
    const tmp = tempDir();
    try {
      const file = path.join(tmp.dir, 'bad-bones.pmd');
      writeFileSync(file, mikuWithBadBones());
      for (const t of ['ro_hatune01.tga', 'ro_hatune02.tga']) writeFileSync(path.join(tmp.dir, t), readFileSync(corpusPath(`mmd-viewer-js/model/low_miku/${t}`)));
      await page.click('[data-testid="preview-open-model"]');
      await fileDialogReady(page);
      await page.fill('[data-testid="file-dialog-path"]', file);
      await page.click('[data-testid="file-dialog-go"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes('ローポリ初音さん'), null, { timeout: 60_000 });
      const notes = page.locator('[data-testid="preview-model-notes"]');
      await notes.waitFor();
      await page.waitForFunction(() => !document.querySelector('[data-testid="preview-pane"]')?.textContent?.includes('Loading model'), null, { timeout: 60_000 });
      expect(await notes.locator('summary').textContent()).toBe('Repaired or left out when reading the model (2)');
      await notes.locator('summary').click();
      expect(await notes.locator('li').allTextContents()).toEqual([
        'Bone 5 "ﾈｸﾀｲ１" has parent 28,672, which is not a bone of the model; treated as a root',
        'Bone 2 "上半身" is in a loop of parents; made a root',
      ]);
      expect(await notes.locator('li').evaluateAll((li) => li.map((x) => x.getAttribute('data-code')))).toEqual(['W_MODEL_BONE_PARENT', 'W_MODEL_BONE_CYCLE']);
      await page.selectOption('[data-testid="locale"]', 'ja');
      await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-notes"] summary')?.textContent === 'モデルの読み込みで修復・省略したもの (2)');
      expect(await notes.locator('li').first().textContent()).toBe('ボーン 5「ﾈｸﾀｲ１」の親 28,672 はモデルにないボーンのため、ルートとして扱います');
      await app.screenshot('preview-model-notes-ja');
      await page.selectOption('[data-testid="locale"]', 'en');
      // The model as it reads without damage has none.
      await page.click('[data-testid="preview-open-model"]');
      await fileDialogReady(page);
      await page.fill('[data-testid="file-dialog-path"]', corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'));
      await page.click('[data-testid="file-dialog-go"]');
      await page.waitForFunction(() => !document.querySelector('[data-testid="preview-model-notes"]'), null, { timeout: 60_000 });
      await page.click('[data-testid="preview-use-figure"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes('Default figure'));
      expect(app.errors.filter((e) => !/favicon/.test(e))).toEqual([]);
    } finally {
      tmp.remove();
    }
  });

  it('hides the figure where the motion\'s IK/visibility block says display off, as MMD does', async () => {
    const { page } = app;
    const tmp = tempDir();
    try {
      const file = path.join(tmp.dir, 'hide-10-20.vmd');
      // Shift_JIS bytes, written by hand: センター and 左足ＩＫ.
      const center = [0x83, 0x5a, 0x83, 0x93, 0x83, 0x5e, 0x81, 0x5b];
      const leftLegIk = [0x8d, 0xb6, 0x91, 0xab, 0x82, 0x68, 0x82, 0x6a];
      writeFileSync(file, buildFixture({
        bones: [{ name: center, frame: 0 }, { name: center, frame: 30, pos: [0, 2, 0] }],
        ik: [
          { frame: 0, visible: 1, iks: [{ name: leftLegIk, enabled: 1 }] },
          { frame: 10, visible: 0, iks: [{ name: leftLegIk, enabled: 1 }] },
          { frame: 20, visible: 1, iks: [{ name: leftLegIk, enabled: 1 }] },
        ],
      }));
      await openFileViaDialog(page, file);
      const at = async (f: number) => {
        await seek(page, f);
        return { shown: await page.evaluate(() => window.__vmdPreview!.shown()), note: await page.isVisible('[data-testid="preview-hidden"]') };
      };
      expect(await at(5)).toEqual({ shown: true, note: false });
      expect(await at(10)).toEqual({ shown: false, note: true });
      expect(await at(15)).toEqual({ shown: false, note: true });
      await app.screenshot('preview-hidden-by-motion-15');
      expect(await page.isVisible('[data-testid="preview-missing-bones"]')).toBe(false);
      expect(await at(20)).toEqual({ shown: true, note: false });
      expect(await at(25)).toEqual({ shown: true, note: false });
    } finally {
      tmp.remove();
    }
  });

  it('a .pmd dropped on the window shows in the preview (the browser gives no folder: textures listed as missing, and why)', async () => {
    const { page } = app;
    const file = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
    const model = load(readModel(new Uint8Array(readFileSync(file))));
    const b64 = readFileSync(file).toString('base64');
    await page.evaluate((b64) => {
      const s = atob(b64);
      const u = new Uint8Array(s.length);
      for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
      const dt = new DataTransfer();
      dt.items.add(new File([u], 'miku.pmd'));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, b64);
    await page.waitForFunction((n) => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes(n), model.name, { timeout: 60_000 });
    await page.waitForSelector('[data-testid="preview-missing-textures"]');
    const missing = await page.textContent('[data-testid="preview-missing-textures"]');
    for (const tex of model.textures) expect(missing).toContain(tex);
    expect(missing).toContain('Model…');
    expect((await page.evaluate(() => window.__vmdPreview!.info())).bones).toBe(model.bones.length);
    await page.click('[data-testid="preview-use-figure"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes('Default figure'));
  });
});
