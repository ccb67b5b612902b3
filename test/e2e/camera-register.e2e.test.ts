/**
 * Authoring a camera as MMD does, end to end in Chromium through the browser mode: open a copy of
 * wavefile_camera.vmd, orbit the preview's free view (drag, right-drag, wheel on the canvas), register the
 * view as the camera key at a frame without a key and at a frame with one, look through the camera: the
 * three.js camera stands where the orbit view stood and looks the same way; save, re-read the file's bytes
 * with the codec: sampleCamera at those frames gives that camera (position and direction), the replaced
 * key kept its 24 interpolation bytes, every other record is byte-identical.
 * Looking through, the picture is the output frame letterboxed to the scene's aspect (16:9, then 4:3 from
 * the setting), not the pane's shape: the canvas' box, the camera's aspect and the screenshot's pixels (black
 * bars around the drawn frame) say so. Screenshots: test-artifacts/camera-register-*.png.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, ARTIFACTS, corpusPath, dismissNotices, openFileViaDialog } from './harness';
import { animationFrames as frames, seekPreview as seek } from './editor-page';
import { buildTracks, readVmd, sampleCamera, CAMERA, type VmdDocument } from '../../shared/vmd';
import { decodePng } from '../helpers/png';
import { copyWritable } from '../helpers/corpus';

const CAMERA_VMD = corpusPath('threejs/vmds/wavefile_camera.vmd');
/** Frames of wavefile_camera.vmd: 100 has no key (between 0 and 167), 167 has one. */
const NEW_FRAME = 100;
const KEY_FRAME = 167;
/** A frame without a key, registered with the K key and undone. */
const K_FRAME = 130;

/** v turned by the unit quaternion q = (x, y, z, w). */
function rotate(q: number[], v: number[]): number[] {
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

async function camera(page: Page) {
  const c = await page.evaluate(() => window.__vmdPreview!.cameraState());
  if (!c) throw new Error('no preview');
  return c;
}

/** Drags on the preview canvas with a mouse button, from its centre by (dx, dy). */
async function drag(page: Page, dx: number, dy: number, button: 'left' | 'right' = 'left') {
  const r = (await page.locator('[data-testid="preview-canvas"]').boundingBox())!;
  const x = r.x + r.width / 2, y = r.y + r.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down({ button });
  await page.mouse.move(x + dx, y + dy, { steps: 8 });
  await page.mouse.up({ button });
  await frames(page);
}

function load(bytes: Uint8Array): VmdDocument {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Start of camera record i in a file with no bone or morph keys (header 30, model 20, three counts). */
const recordAt = (bytes: Uint8Array, i: number) => bytes.subarray(30 + 20 + 4 + 4 + 4 + i * CAMERA.SIZE, 30 + 20 + 4 + 4 + 4 + (i + 1) * CAMERA.SIZE);

describe('register the orbit view as a camera key', () => {
  const suite = appForSuite({ viewport: { width: 1440, height: 900 } });

  it('orbit, register, look through: the camera shows that view, and the saved file says so', async () => {
    const { page } = suite.app;
    const file = path.join(suite.tmp.dir, 'camera.vmd');
    copyWritable(CAMERA_VMD, file);
    const original = new Uint8Array(readFileSync(file));
    const origTracks = buildTracks(load(original));
    await openFileViaDialog(page, file);
    await page.waitForSelector('[data-testid="preview-register-view"]:not([disabled])');

    const views: Record<number, { position: number[]; forward: number[]; up: number[]; fov: number }> = {};
    for (const [frame, moves] of [
      [NEW_FRAME, () => drag(page, 140, 60).then(() => drag(page, 60, -30, 'right'))],
      [KEY_FRAME, () => drag(page, -220, 90).then(() => page.mouse.wheel(0, -300)).then(() => frames(page, 3))],
    ] as const) {
      await seek(page, frame);
      const before = await camera(page);
      await moves();
      const orbit = await camera(page);
      expect(orbit.lookThrough).toBe(false);
      // The view did move (the drags reached the orbit controls).
      expect(Math.hypot(...orbit.position.map((v, i) => v - before.position[i])), `view moved at ${frame}`).toBeGreaterThan(1);
      views[frame] = { position: orbit.position, forward: rotate(orbit.quaternion, [0, 0, -1]), up: rotate(orbit.quaternion, [0, 1, 0]), fov: orbit.fov };
      const undo = (await page.evaluate(() => window.__vmdEditor!.history())).undo;
      await page.click('[data-testid="preview-register-view"]');
      // One undo step per registration.
      await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, undo);
      await suite.app.screenshot(`camera-register-orbit-${frame}`);
    }

    // The K key registers too (the keyboard reference lists it): one more undo step, a key at that frame.
    await seek(page, K_FRAME);
    await drag(page, 40, 0);
    const undoBefore = (await page.evaluate(() => window.__vmdEditor!.history())).undo;
    await page.locator('[data-testid="preview-scrub"]').blur();
    await page.keyboard.press('k');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, undoBefore);
    // Undo takes it away again (one step), so the file below holds the two registrations above.
    await page.keyboard.press('Control+z');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n, undoBefore);

    // Look through the camera: at each frame the three.js camera is where the orbit view was, looking the same way.
    await page.check('[data-testid="preview-look-through"]');
    for (const frame of [NEW_FRAME, KEY_FRAME]) {
      await seek(page, frame);
      const through = await camera(page);
      expect(through.lookThrough).toBe(true);
      const v = views[frame];
      for (let c = 0; c < 3; c++) expect(Math.abs(through.position[c] - v.position[c]), `position ${c} at ${frame}`).toBeLessThan(1e-3);
      expect(dot(rotate(through.quaternion, [0, 0, -1]), v.forward), `direction at ${frame}`).toBeGreaterThan(1 - 1e-9);
      expect(dot(rotate(through.quaternion, [0, 1, 0]), v.up), `up at ${frame}`).toBeGreaterThan(1 - 1e-9);
      expect(through.fov).toBe(Math.round(v.fov));
    }

    // Save over the copy and read its bytes back with the codec.
    await page.click('[data-testid="cmd-save"]');
    await page.waitForFunction(() => !document.title.includes('*'));
    const saved = new Uint8Array(readFileSync(file));
    const doc = load(saved);
    const tracks = buildTracks(doc);
    expect(doc.camera.count).toBe(origTracks.camera.frames.length + 1);
    for (const frame of [NEW_FRAME, KEY_FRAME]) {
      await seek(page, frame);
      const through = await camera(page);
      const pose = sampleCamera(tracks.camera, frame)!;
      const mmdPos = [through.position[0], through.position[1], -through.position[2]];
      for (let c = 0; c < 3; c++) expect(Math.abs(pose.position[c] - mmdPos[c]), `file position ${c} at ${frame}`).toBeLessThan(1e-4);
      // The file's camera looks from its position at its target; the three.js camera looks the same way.
      const to = [pose.target[0] - pose.position[0], pose.target[1] - pose.position[1], -(pose.target[2] - pose.position[2])];
      const n = Math.hypot(...to);
      expect(dot(rotate(through.quaternion, [0, 0, -1]), to.map((x) => x / n)), `file direction at ${frame}`).toBeGreaterThan(1 - 1e-9);
      expect(pose.distance, 'distance negative as MMD writes it').toBeLessThan(0);
      expect(Number.isInteger(pose.fov)).toBe(true);
    }
    // Bytes: the replaced key kept its interpolation and its place; every other old record is unchanged; the new one is last.
    const replaced = origTracks.camera.record[origTracks.camera.frames.indexOf(KEY_FRAME)];
    for (let i = 0; i < origTracks.camera.frames.length; i++) {
      const a = recordAt(original, i), b = recordAt(saved, i);
      if (i === replaced) {
        const ip = (r: Uint8Array) => [...r.subarray(CAMERA.INTERPOLATION, CAMERA.INTERPOLATION + CAMERA.INTERPOLATION_LENGTH)];
        expect(ip(b)).toEqual(ip(a));
        expect([...b]).not.toEqual([...a]);
      } else expect([...b], `record ${i}`).toEqual([...a]);
    }
    const added = recordAt(saved, origTracks.camera.frames.length);
    expect(new DataView(added.buffer, added.byteOffset).getUint32(CAMERA.FRAME, true)).toBe(NEW_FRAME);
    expect([...tracks.camera.frames]).not.toContain(K_FRAME);
    expect(app().errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });

  const app = () => suite.app;

  it('looking through shows the output frame letterboxed to the scene aspect (16:9, then 4:3), with black bars', async () => {
    const { page } = suite.app;
    await page.check('[data-testid="preview-look-through"]');
    for (const [text, aspect] of [['16:9', 16 / 9], ['4:3', 4 / 3]] as const) {
      await page.selectOption('[data-testid="preview-aspect"]', text);
      await page.waitForFunction((a) => Math.abs(window.__vmdPreview!.cameraState()!.aspect - a) < 1e-12, aspect);
      await frames(page, 3);
      const pane = (await page.locator('[data-testid="preview-viewport"]').boundingBox())!;
      const box = (await page.locator('[data-testid="preview-canvas"]').boundingBox())!;
      // The canvas is the largest frame of that aspect inside the pane, centred (whole pixels).
      const W = Math.floor(pane.width), H = Math.floor(pane.height);
      const wide = W / H > aspect;
      const expW = wide ? Math.round(H * aspect) : W, expH = wide ? H : Math.round(W / aspect);
      expect(Math.abs(box.width - expW), `${text} width`).toBeLessThanOrEqual(1);
      expect(Math.abs(box.height - expH), `${text} height`).toBeLessThanOrEqual(1);
      expect(Math.abs(box.x + box.width / 2 - (pane.x + pane.width / 2))).toBeLessThanOrEqual(1);
      expect(Math.abs(box.y + box.height / 2 - (pane.y + pane.height / 2))).toBeLessThanOrEqual(1);
      // The pane is not that shape, so there are bars (else this test would show nothing).
      expect(Math.abs(W / H - aspect)).toBeGreaterThan(0.05);
      const cam = await camera(page);
      expect(cam.aspect).toBe(aspect);
      // Pixels: along the pane's middle row and a column right of the middle (clear of the overlay text in
      // the left corners), the drawn run (never black: the scene has a grey-blue background) spans the
      // frame's aspect, and the bars beside it are black.
      // The notices stand in the picture's bottom right corner (over the bar below the frame): dismissed first, as
      // someone looking at the frame's shape would, so the column measured is the picture's.
      await dismissNotices(page);
      await frames(page);
      const png = await page.screenshot({ clip: pane });
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(path.join(ARTIFACTS, `camera-register-pane-${text.replace(':', 'x')}.png`), png);
      const shot = decodePng(new Uint8Array(png));
      const black = (x: number, y: number) => {
        const o = (y * shot.width + x) * 4;
        return shot.data[o] < 8 && shot.data[o + 1] < 8 && shot.data[o + 2] < 8;
      };
      const run = (n: number, at: (i: number) => boolean) => {
        let first = -1, last = -1;
        for (let i = 0; i < n; i++) if (!at(i)) (first < 0 && (first = i), (last = i));
        return { first, last, length: last - first + 1 };
      };
      /** The run of drawn (not black) pixels that holds `mid`. */
      const around = (n: number, mid: number, at: (i: number) => boolean) => {
        let first = mid, last = mid;
        while (first > 0 && !at(first - 1)) first--;
        while (last < n - 1 && !at(last + 1)) last++;
        return { first, last, length: last - first + 1 };
      };
      // 0.7 of the width: clear of the view buttons (⟲ Front ▾ ⤡) in the top right corner as well.
      const midY = Math.floor(shot.height / 2), midX = Math.floor(shot.width * 0.7);
      const across = run(shot.width, (x) => black(x, midY));
      // Down the column, the drawn run through the middle only: the overlay's lines at the bottom (the mouse hint
      // wraps across the pane) lie on the bar, not in the picture.
      const down = around(shot.height, midY, (y) => black(midX, y));
      expect(Math.abs(across.length / down.length - aspect), `${text} drawn aspect ${across.length}×${down.length}`).toBeLessThan(0.01);
      if (wide) expect(black(0, midY) && black(shot.width - 1, midY), 'bars left and right').toBe(true);
      else expect(black(midX, 0) && black(midX, shot.height - 1), 'bars above and below').toBe(true);
      await suite.app.screenshot(`camera-register-letterbox-${text.replace(':', 'x')}`);
    }
    // Back to the free view: the canvas fills the pane again.
    await page.uncheck('[data-testid="preview-look-through"]');
    await frames(page, 2);
    const pane = (await page.locator('[data-testid="preview-viewport"]').boundingBox())!;
    const box = (await page.locator('[data-testid="preview-canvas"]').boundingBox())!;
    expect([Math.round(box.width), Math.round(box.height)]).toEqual([Math.round(pane.width), Math.round(pane.height)]);
    await page.selectOption('[data-testid="preview-aspect"]', '16:9');
  });
  it("K over an actor's dance authors the scene's camera: a camera document is made and takes the key, the dance is untouched; K again from the actor adds to it", async () => {
    const { page } = suite.app;
    // Free view (the tests above left it looking through), then a lone dance: a one-actor scene, no camera.
    if (await page.isChecked('[data-testid="preview-look-through"]')) await page.uncheck('[data-testid="preview-look-through"]');
    const dance = path.join(suite.tmp.dir, 'dance.vmd');
    copyWritable(corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), dance);
    const danceBytes = readFileSync(dance);
    await openFileViaDialog(page, dance);
    expect(await page.locator('[data-testid="scene-tab"][data-kind="camera"]').count()).toBe(0);
    const tab = (kind: 'actor' | 'camera') => page.locator(`[data-testid="scene-tab"][data-kind="${kind}"]`);
    const cameraKeys = () => page.getAttribute('[data-testid="count-camera"]', 'data-count');

    const views: Record<number, { position: number[]; forward: number[] }> = {};
    for (const [frame, dx] of [[40, 150], [90, -120]] as const) {
      if ((await tab('actor').getAttribute('data-active')) !== 'true') {
        await tab('actor').locator('button[role="tab"]').click();
        await page.waitForFunction(() => document.querySelector('[data-testid="scene-tab"][data-kind="actor"]')?.getAttribute('data-active') === 'true');
      }
      await seek(page, frame);
      await drag(page, dx, 40);
      const orbit = await camera(page);
      expect(orbit.lookThrough).toBe(false);
      views[frame] = { position: orbit.position, forward: rotate(orbit.quaternion, [0, 0, -1]) };
      await page.locator('[data-testid="preview-scrub"]').blur();
      await page.keyboard.press('k');
      // The camera document (made by the first K) is shown, holding one more key; the dance is not touched.
      await page.waitForFunction(() => document.querySelector('[data-testid="scene-tab"][data-kind="camera"]')?.getAttribute('data-active') === 'true');
      await page.waitForFunction((n) => document.querySelector('[data-testid="count-camera"]')?.getAttribute('data-count') === String(n), frame === 40 ? 1 : 2);
      expect(await tab('camera').getAttribute('data-dirty')).toBe('true');
      expect(await tab('actor').getAttribute('data-dirty')).toBe('false');
      // The summary calls it a camera, though one or two keys are under inspect's "more than 10" thresholds.
      expect(await page.getAttribute('[data-testid="summary-kind"]', 'data-kind')).toBe('camera');
      // Not saved yet: the panel says so instead of an empty name.
      expect(await page.textContent('[data-testid="summary-name"]')).toContain('no motion file');
    }
    await suite.app.screenshot('camera-register-from-actor');

    // Looking through, each registered frame shows the view that was orbited over the dance.
    await page.check('[data-testid="preview-look-through"]');
    for (const frame of [40, 90]) {
      await seek(page, frame);
      const through = await camera(page);
      for (let c = 0; c < 3; c++) expect(Math.abs(through.position[c] - views[frame].position[c]), `position ${c} at ${frame}`).toBeLessThan(1e-3);
      expect(dot(rotate(through.quaternion, [0, 0, -1]), views[frame].forward), `direction at ${frame}`).toBeGreaterThan(1 - 1e-9);
    }
    await page.uncheck('[data-testid="preview-look-through"]');
    // One undo step takes the second key away, in the camera document; the dance's file never changed.
    await page.locator('[data-testid="preview-scrub"]').blur();
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => document.querySelector('[data-testid="count-camera"]')?.getAttribute('data-count') === '1');
    expect(await cameraKeys()).toBe('1');
    // The next undo takes the first key and the camera the first K made for it, as one step (one K, one
    // Ctrl+Z): no empty camera document is left behind looking saved.
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"][data-kind="camera"]').length === 0);
    // Redo brings both back.
    await page.keyboard.press('Control+y');
    await page.waitForFunction(() => document.querySelector('[data-testid="count-camera"]')?.getAttribute('data-count') === '1');
    expect(await tab('camera').count()).toBe(1);
    expect(Buffer.compare(readFileSync(dance), danceBytes)).toBe(0);
    expect(app().errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });

  it('the notice of a K undone goes with it (docsfix 6): 02_laugh with no camera, K, Ctrl+Z: no "Camera key registered" beside "No unsaved changes"', async () => {
    const { page } = suite.app;
    if (await page.isChecked('[data-testid="preview-look-through"]')) await page.uncheck('[data-testid="preview-look-through"]');
    const laugh = path.join(suite.tmp.dir, '02_laugh.vmd');
    copyWritable(corpusPath('gene/motion/02_laugh.vmd'), laugh);
    await openFileViaDialog(page, laugh);
    expect(await page.locator('[data-testid="scene-tab"][data-kind="camera"]').count()).toBe(0);
    await dismissNotices(page);
    await seek(page, 0);
    await page.locator('[data-testid="preview-scrub"]').blur();
    const notices = () => page.locator('[data-testid="notice-message"]').allTextContents();
    await page.keyboard.press('k');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="notice-message"]')].some((m) => m.textContent?.includes('Camera key registered at frame 0')));
    // The pointer over the notices holds their fade (stores/notify.ts hold): what goes now goes because of the undo.
    // Over the notice's ×: a text-only notice lets the pointer through to the picture (its text holds nothing), and
    // only its buttons take the pointer.
    await page.locator('.notice', { has: page.locator('[data-testid="notice-message"]', { hasText: 'Camera key registered at frame 0' }) }).locator('button.close').hover();
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"][data-kind="camera"]').length === 0);
    await page.waitForFunction(() => document.querySelector('[data-testid="status-state"]')?.textContent === 'No unsaved changes');
    await page.waitForFunction(() => ![...document.querySelectorAll('[data-testid="notice-message"]')].some((m) => m.textContent?.includes('Camera key registered')));
    expect((await notices()).filter((m) => m.includes('Camera key registered'))).toEqual([]);
    await suite.app.screenshot('camera-register-k-undone');
    await page.mouse.move(0, 0);
    expect(app().errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });
});
