/**
 * Camera follows a bone (MMD's モデル/ボーン追従), in Chromium through the browser mode: a duet scene (actor 1 the
 * built-in figure dancing 02_laugh.vmd, actor 2 — shown — Gene_light.pmx dancing wavefile_v2.vmd) with
 * wavefile_camera.vmd as its camera document, looked through. In the Stage tab's Camera follows section the shown
 * actor and its センター are picked: at every frame checked, the camera seen through has moved by exactly where the
 * preview's own rig puts センター (its world position, three.js coordinates), turned the same way; then 頭; "None"
 * puts the camera back where its keys say; choosing and clearing are one undo step each. Bake follow into the
 * camera keys… asks, saves a camera VMD, and that file — read back with the shared reader and sampled with no
 * follow — gives the followed camera the preview showed (position and turn within 1e-3, FOV within 0.5°).
 * Screenshot: test-artifacts/camera-follow.png.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, dismissNotices, fileDialogReady, notice, openSceneViaDialog, writeDuetScene } from './harness';
import { seekPreview } from './editor-page';
import { buildTracks, readVmd } from '../../shared/vmd';
import { sampleCamera } from '../../shared/vmd/sample';

const GENE = corpusPath('gene/Gene_light.pmx');
/** Frames where wavefile_v2.vmd's センター stands in different places (checked below: it moves between them). */
const FRAMES = [0, 415, 815, 1318];

type Cam = { position: number[]; quaternion: number[]; fov: number; lookThrough: boolean };

async function camera(page: Page): Promise<Cam> {
  const c = await page.evaluate(() => window.__vmdPreview!.cameraState());
  if (!c) throw new Error('no preview');
  return c;
}

/** The camera seen through and the shown actor's bone at each of FRAMES. */
async function sampleFrames(page: Page, bone: string): Promise<{ cam: Cam; bone: number[] }[]> {
  const out: { cam: Cam; bone: number[] }[] = [];
  for (const f of FRAMES) {
    await seekPreview(page, f);
    out.push({ cam: await camera(page), bone: (await page.evaluate((b) => window.__vmdPreview!.boneWorldPosition(b), bone))! });
  }
  return out;
}

const near = (a: readonly number[], b: readonly number[], tol: number) => a.every((v, i) => Math.abs(v - b[i]) <= tol);
const history = (page: Page) => page.evaluate(() => window.__vmdEditor!.history().undo);
/** The camera has moved off `from` (the follow is applied once the followed model has been read). */
const movedFrom = (page: Page, from: number[]) =>
  page.waitForFunction((p) => {
    const c = window.__vmdPreview!.cameraState()!.position;
    return c.some((v, i) => Math.abs(v - p[i]) > 1e-6);
  }, from, { timeout: 30_000 });

describe('camera follows a bone (browser mode)', () => {
  const s = appForSuite({ viewport: { width: 1440, height: 900 } });

  it('picking a bone moves the camera by the bone; None puts it back; the bake plays the same with no follow', async () => {
    const { page } = s.app;
    const scenePath = writeDuetScene(s.tmp.dir, [{ model: null }, { model: GENE }], 'follow.vmdscene');
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => window.__vmdPreview?.companions().length === 1, undefined, { timeout: 60_000 });
    await page.waitForSelector('[data-testid="preview-look-through"]:not([disabled])');
    await page.check('[data-testid="preview-look-through"]');

    // No follow: the camera as its keys say.
    const plain = await sampleFrames(page, 'センター');
    expect(plain.every((p) => p.cam.lookThrough)).toBe(true);
    // The dance moves センター between the frames checked (else the test would show nothing).
    expect(near(plain[1].bone, plain[2].bone, 0.5)).toBe(false);

    await page.click('[data-testid="side-tab-stage"]');
    await page.waitForSelector('[data-testid="camera-follow"]');
    expect(await page.isDisabled('[data-testid="follow-bone"]')).toBe(true);
    expect(await page.inputValue('[data-testid="follow-actor"]')).toBe('');
    // The shown actor is actor 2: the third option (after None).
    const undo0 = await history(page);
    const at = await camera(page);
    await page.selectOption('[data-testid="follow-actor"]', { index: 2 });
    await page.waitForFunction(() => (document.querySelector('[data-testid="follow-bone"]') as HTMLSelectElement).value === 'センター');
    await movedFrom(page, at.position);
    expect(await history(page)).toBe(undo0 + 1);
    expect(await page.getAttribute('[data-testid="cmd-undo"]', 'title')).toMatch(/^Undo: camera follow/);

    // Followed: the camera is where its keys put it, moved by where センター stands; the same turn and FOV.
    const followed = await sampleFrames(page, 'センター');
    followed.forEach((p, i) => {
      const moved = p.cam.position.map((v, c) => v - plain[i].cam.position[c]);
      expect(near(moved, p.bone, 1e-3), `frame ${FRAMES[i]}: moved ${moved} by the bone ${p.bone}`).toBe(true);
      expect(near(p.cam.quaternion, plain[i].cam.quaternion, 1e-6)).toBe(true);
      expect(p.cam.fov).toBeCloseTo(plain[i].cam.fov, 6);
    });
    await s.app.screenshot('camera-follow');

    // 頭 instead: the camera moves by the head (above センター).
    await page.selectOption('[data-testid="follow-bone"]', '頭');
    await seekPreview(page, FRAMES[2]);
    await page.waitForFunction((p) => Math.abs(window.__vmdPreview!.cameraState()!.position[1] - p) > 1, followed[2].cam.position[1]);
    const head = (await sampleFrames(page, '頭'))[2];
    const movedHead = head.cam.position.map((v, c) => v - plain[2].cam.position[c]);
    expect(near(movedHead, head.bone, 1e-3), `moved ${movedHead} by the head ${head.bone}`).toBe(true);
    expect(await history(page)).toBe(undo0 + 2);

    // None: back to the keys' camera; one more step.
    const before = await camera(page);
    await page.selectOption('[data-testid="follow-actor"]', '');
    await movedFrom(page, before.position);
    expect(await history(page)).toBe(undo0 + 3);
    expect(await page.isDisabled('[data-testid="follow-bone"]')).toBe(true);
    const cleared = await sampleFrames(page, 'センター');
    cleared.forEach((p, i) => expect(near(p.cam.position, plain[i].cam.position, 1e-6), `frame ${FRAMES[i]}`).toBe(true));

    // Ctrl+Z takes the clearing back: 頭 is followed again.
    await page.locator('body').press('Control+z');
    await page.waitForFunction(() => (document.querySelector('[data-testid="follow-bone"]') as HTMLSelectElement).value === '頭');
    // Back to センター for the bake.
    await page.selectOption('[data-testid="follow-bone"]', 'センター');
    await page.waitForFunction(() => (document.querySelector('[data-testid="follow-bone"]') as HTMLSelectElement).value === 'センター');
    await seekPreview(page, FRAMES[2]);
    await page.waitForFunction((p) => Math.abs(window.__vmdPreview!.cameraState()!.position[1] - p) < 1e-3, followed[2].cam.position[1]);

    // Bake: asks (saying the rule), then where to save; the file plays the followed camera with no follow.
    await dismissNotices(page);
    await page.click('[data-testid="follow-bake"]');
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    expect(await page.textContent('[data-testid="confirm-message"]')).toMatch(/where it moves, a key at every frame/);
    await page.click('[data-testid="confirm-save"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', s.tmp.dir);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForSelector('[data-testid="file-dialog"][data-loading="false"][data-loaded="true"]');
    expect(await page.inputValue('[data-testid="file-dialog-name"]')).toBe('camera_follow.vmd');
    await page.click('[data-testid="file-dialog-accept"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    await notice(page, 'Wrote camera_follow.vmd:');
    // The bake is no edit: no undo step (undo, clear, then センター again: 3 steps).
    expect(await history(page)).toBe(undo0 + 3);

    const baked = readVmd(new Uint8Array(readFileSync(path.join(s.tmp.dir, 'camera_follow.vmd'))));
    if (!baked.ok) throw new Error('the baked file does not read');
    const track = buildTracks(baked.value).camera;
    expect(track.frames.length).toBeGreaterThan(0);
    followed.forEach((p, i) => {
      const pose = sampleCamera(track, FRAMES[i])!;
      // three.js has MMD's Z negated.
      const three = [pose.position[0], pose.position[1], -pose.position[2]];
      expect(near(three, p.cam.position, 1e-3), `frame ${FRAMES[i]}: baked ${three}, followed ${p.cam.position}`).toBe(true);
      expect(Math.abs(pose.fov - p.cam.fov)).toBeLessThanOrEqual(0.5);
    });
    expect(s.app.errors).toEqual([]);
  });
});
