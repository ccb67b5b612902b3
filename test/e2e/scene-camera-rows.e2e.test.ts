/**
 * The camera document always in the timeline (issue 13), in Chromium through the browser mode: a scene of
 * one actor (wavefile_v2.vmd on the built-in figure) and a camera document (wavefile_camera.vmd). With the
 * actor active the track list shows, after the actor's groups, the group Camera with the camera document's
 * camera, light and self-shadow rows; pressing a camera key there makes the camera document active and drags the key
 * 3 frames in the same gesture; the actor's rows stay above the camera's and the figure keeps its pose;
 * clicking an actor row switches back; undo from there returns to the camera document and restores its
 * bytes; redo and Save All write only that key's frame field into the camera file, the actor's file byte-
 * identical. Screenshots: test-artifacts/scene-camera-rows-actor.png (the actor active, the camera group under
 * its rows), scene-camera-rows.png (the camera document active, the actor's rows above its group).
 * A lone dance (no camera document): the group holds a row that adds one; it folds; the new empty camera
 * document is active with its camera, light and self-shadow rows, and a key inserted there shows in the group.
 * ↑/↓ move the active row over every row drawn: from the actor's last row down to the camera document's camera,
 * light and self-shadow rows (that document made active) and back up.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, openFileViaDialog, openSceneViaDialog, writeSceneFolder } from './harness';
import { animationFrames, keyPoint, seekPreview, listedRows as listed } from './editor-page';
import { buildTracks, readVmd, CAMERA } from '../../shared/vmd';

const DANCE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const CAMERA_VMD = corpusPath('threejs/vmds/wavefile_camera.vmd');
/** Header 30, model name 20, bone and morph counts (both 0 in a camera VMD), the camera count. */
const CAMERA_RECORDS_AT = 30 + 20 + 4 + 4 + 4;
const MOVE = 3;

async function tabs(page: Page) {
  return page.$$eval('[data-testid="scene-tab"]', (els) => els.map((e) => [(e as HTMLElement).dataset.kind, (e as HTMLElement).dataset.active === 'true']));
}

async function waitActiveTab(page: Page, i: number) {
  await page.waitForFunction((i) => document.querySelectorAll('[data-testid="scene-tab"]')[i]?.getAttribute('data-active') === 'true', i);
}

/** The timeline canvas's pixel at client point (x, y), as [r, g, b]. */
async function timelinePixel(page: Page, x: number, y: number): Promise<number[]> {
  return page.evaluate(({ x, y }) => {
    const cv = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement;
    const r = cv.getBoundingClientRect();
    const k = cv.width / r.width;
    return [...cv.getContext('2d')!.getImageData(Math.floor((x - r.left) * k), Math.floor((y - r.top) * k), 1, 1).data].slice(0, 3);
  }, { x, y });
}

const base64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

/** A scene of the dance (actor Fig, no model) and the camera motion, written to `dir` and opened: the actor's tab active. */
async function openDanceWithCamera(page: Page, dir: string): Promise<string> {
  const scenePath = writeSceneFolder(dir, [[DANCE, 'dance.vmd'], [CAMERA_VMD, 'camera.vmd']], { actors: [{ name: 'Fig', model: null, motion: 'dance.vmd' }], activeActor: 0, camera: 'camera.vmd' });
  await openSceneViaDialog(page, scenePath);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 2);
  await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('dance.vmd'));
  expect(await tabs(page)).toEqual([['actor', true], ['camera', false]]);
  return scenePath;
}

describe('the camera document in the actor’s timeline (browser mode)', () => {
  const s = appForSuite({ viewport: { width: 1500, height: 950 } });

  it('shows the camera group under the actor’s; a camera key pressed there is dragged, undone from the actor, saved alone', async () => {
    const { page } = s.app;
    const dir = s.tmp.dir;
    await openDanceWithCamera(page, dir);

    // A camera key with no other key within 20 frames either side (a drag of 3 collides with nothing).
    const orig = new Uint8Array(readFileSync(CAMERA_VMD));
    const cam = readVmd(orig);
    if (!cam.ok) throw new Error('wavefile_camera.vmd does not read');
    const ct = buildTracks(cam.value).camera;
    let k = 1;
    while (!(ct.frames[k] - ct.frames[k - 1] > 20 && ct.frames[k + 1] - ct.frames[k] > 20)) k++;
    const frame = ct.frames[k], record = ct.record[k];

    // The actor's rows, then the camera group: scrolled to the end of the list.
    await page.locator('[data-testid="track-list"]').hover();
    await page.mouse.wheel(0, 100_000);
    await page.waitForSelector('[data-testid="track-camera"]');
    const rows = await listed(page);
    const camAt = rows.findIndex(([id]) => id === 'group-camera');
    expect(rows.slice(camAt)).toEqual([
      ['group-camera', 'other'],
      ['track-camera', 'other'],
      ['track-light', 'other'],
      ['track-shadow', 'other'],
    ]);
    expect(camAt).toBeGreaterThan(0);
    expect(rows.slice(0, camAt).every(([id, doc]) => doc === 'own' && id !== 'track-camera')).toBe(true);
    expect(rows.slice(0, camAt).some(([id]) => id.startsWith('track-morph:') || id.startsWith('track-bone:'))).toBe(true);
    expect(await page.textContent('[data-testid="group-camera"] .keys')).toBe(String(cam.value.camera.count));
    expect((await page.textContent('[data-testid="group-camera"] .name'))?.trim()).toBe('Camera');

    // The key in view, zoomed in so its neighbours are far apart on screen; the figure's head there.
    await seekPreview(page, frame);
    for (let i = 0; i < 30 && Number(await page.getAttribute('[data-testid="timeline-canvas"]', 'data-px-per-frame')) < 6; i++) {
      const p = await keyPoint(page, 'track-camera', frame);
      await page.mouse.move(p.x, p.y);
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -120);
      await page.keyboard.up('Control');
      await animationFrames(page, 1);
    }
    // The camera row's key is drawn from the camera document (the key colour #b9c4d6), and 3 frames later,
    // where the camera document has no key, the row is dark.
    await animationFrames(page);
    const at = await keyPoint(page, 'track-camera', frame);
    const px = Number(await page.getAttribute('[data-testid="timeline-canvas"]', 'data-px-per-frame'));
    // (2 px right of the key's centre: the playhead's line is on it.)
    expect(Math.min(...(await timelinePixel(page, at.x + 2, at.y)))).toBeGreaterThan(150);
    expect(Math.max(...(await timelinePixel(page, at.x + MOVE * px, at.y)))).toBeLessThan(80);
    await s.app.screenshot('scene-camera-rows-actor');
    const head0 = await page.evaluate(() => window.__vmdPreview!.boneWorldPosition('頭'));
    expect(head0).not.toBeNull();
    const actorDrawn = await page.getAttribute('[data-testid="timeline-canvas"]', 'data-drawn-doc');

    // Press on the camera key, drag 3 frames, release: one gesture.
    const p = await keyPoint(page, 'track-camera', frame);
    const ppf = Number(await page.getAttribute('[data-testid="timeline-canvas"]', 'data-px-per-frame'));
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    await waitActiveTab(page, 1);
    await page.mouse.move(p.x + (MOVE * ppf) / 2, p.y);
    await page.mouse.move(p.x + MOVE * ppf, p.y);
    await page.mouse.up();
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    expect(await tabs(page)).toEqual([['actor', false], ['camera', true]]);
    expect(await page.evaluate(() => window.__vmdEditor!.selection().refs)).toEqual([{ kind: 'camera', record }]);
    const moved = readVmd(base64((await page.evaluate(() => window.__vmdEditor!.bytes()))!));
    if (!moved.ok) throw new Error('the edited camera does not read');
    expect(moved.value.camera.view.getUint32(record * CAMERA.SIZE + CAMERA.FRAME, true)).toBe(frame + MOVE);

    // The camera document active: the actor's rows still above the camera group (now the active one's),
    // the figure still posed by the actor's motion at the same frame.
    await page.waitForFunction((d) => document.querySelector('[data-testid="timeline-canvas"]')?.getAttribute('data-drawn-doc') !== d, actorDrawn);
    const after = await listed(page);
    expect(after.map(([id]) => id)).toEqual(rows.map(([id]) => id));
    expect(after.slice(camAt).map(([, doc]) => doc)).toEqual(['own', 'own', 'own', 'own']);
    expect(after.slice(0, camAt).every(([, doc]) => doc === 'other')).toBe(true);
    await animationFrames(page);
    const head1 = await page.evaluate(() => window.__vmdPreview!.boneWorldPosition('頭'));
    head1!.forEach((v, i) => expect(v).toBeCloseTo(head0![i], 5));
    expect(await page.evaluate(() => window.__vmdPreview!.shown())).toBe(true);
    await s.app.screenshot('scene-camera-rows');

    // Back to the actor by clicking one of its rows, then undo: the step is the camera document's.
    const actorRow = after.slice(0, camAt).reverse().find(([id]) => id.startsWith('track-'))![0];
    await page.click(`[data-testid="${actorRow}"]`);
    await waitActiveTab(page, 0);
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('dance.vmd'));
    await page.keyboard.press('Control+z');
    await waitActiveTab(page, 1);
    await page.waitForFunction(() => window.__vmdEditor!.history().redo === 1);
    expect(Buffer.compare(Buffer.from(base64((await page.evaluate(() => window.__vmdEditor!.bytes()))!)), Buffer.from(orig))).toBe(0);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]')[1]?.getAttribute('data-dirty') === 'false');

    // Redo, Save All: the camera file differs from the original in that key's frame field only.
    await page.keyboard.press('Control+y');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    await page.click('[data-testid="cmd-scene"]');
    await page.click('[data-testid="cmd-save-all"]');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="scene-tab"]')].every((e) => e.getAttribute('data-dirty') === 'false'));
    const saved = new Uint8Array(readFileSync(path.join(dir, 'camera.vmd')));
    const want = orig.slice();
    new DataView(want.buffer).setUint32(CAMERA_RECORDS_AT + record * CAMERA.SIZE + CAMERA.FRAME, frame + MOVE, true);
    expect(saved.length).toBe(orig.length);
    const changed: number[] = [];
    saved.forEach((b, i) => b !== orig[i] && changed.push(i));
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every((i) => i >= CAMERA_RECORDS_AT + record * CAMERA.SIZE + CAMERA.FRAME && i < CAMERA_RECORDS_AT + record * CAMERA.SIZE + CAMERA.FRAME + 4)).toBe(true);
    expect(Buffer.compare(Buffer.from(saved), Buffer.from(want))).toBe(0);
    expect(Buffer.compare(readFileSync(path.join(dir, 'dance.vmd')), readFileSync(DANCE))).toBe(0);
    expect(s.app.errors).toEqual([]);
  });

  it('a lone dance: the Camera group offers a new camera document, folds, and the new one takes an inserted key', async () => {
    const { page } = s.app;
    await openFileViaDialog(page, DANCE);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 1);
    await page.locator('[data-testid="track-list"]').hover();
    await page.mouse.wheel(0, 100_000);
    await page.waitForSelector('[data-testid="track-camera-add"]');
    expect((await listed(page)).slice(-2)).toEqual([
      ['group-camera', 'none'],
      ['track-camera-add', 'none'],
    ]);
    expect((await page.textContent('[data-testid="track-camera-add"]'))?.trim()).toBe('+ New camera');
    // The tabs offer the same beside + Actor.
    expect((await page.textContent('[data-testid="scene-add-camera"]'))?.trim()).toBe('+ New camera');
    // Folds and unfolds like any group.
    await page.click('[data-testid="group-camera"]');
    await page.waitForSelector('[data-testid="track-camera-add"]', { state: 'detached' });
    await page.click('[data-testid="group-camera"]');
    await page.waitForSelector('[data-testid="track-camera-add"]');

    await page.click('[data-testid="track-camera-add"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 2);
    expect(await tabs(page)).toEqual([['actor', false], ['camera', true]]);
    await page.waitForSelector('[data-testid="scene-add-camera"]', { state: 'detached' });
    await page.waitForSelector('[data-testid="track-camera"]');
    // The group's rows run below the list's edge (a switch with some of its rows in view keeps the scroll): to the end.
    await page.locator('[data-testid="track-list"]').hover();
    await page.mouse.wheel(0, 100_000);
    await page.waitForSelector('[data-testid="track-shadow"]');
    const rows = await listed(page);
    expect(rows.slice(-4)).toEqual([
      ['group-camera', 'own'],
      ['track-camera', 'own'],
      ['track-light', 'own'],
      ['track-shadow', 'own'],
    ]);
    expect(rows.slice(0, -4).every(([, doc]) => doc === 'other')).toBe(true);
    expect(await page.getAttribute('[data-testid="track-camera"]', 'class')).toContain('active');

    // Insert at frame 30 on the active camera row: the new document's first key, counted in the group.
    await page.fill('[data-testid="frame-input"]', '30');
    await page.press('[data-testid="frame-input"]', 'Enter');
    await page.waitForFunction(() => window.__vmdEditor!.frame().frame === 30);
    await page.click('[data-testid="insert-key"]');
    // Two steps: the new camera's adding (Undo takes it out again), then its key.
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 2);
    const doc = readVmd(base64((await page.evaluate(() => window.__vmdEditor!.bytes()))!));
    if (!doc.ok) throw new Error('the new camera document does not read');
    expect([doc.value.bone.count, doc.value.morph.count, doc.value.camera.count]).toEqual([0, 0, 1]);
    expect(doc.value.camera.view.getUint32(CAMERA.FRAME, true)).toBe(30);
    await page.waitForFunction(() => document.querySelector('[data-testid="group-camera"] .keys')?.textContent === '1');
    expect(await page.textContent('[data-testid="track-camera"] .keys')).toBe('1');
    expect(s.app.errors).toEqual([]);
  });
});

describe('↑/↓ over the actor’s and the camera document’s rows (browser mode)', () => {
  const s = appForSuite({ viewport: { width: 1500, height: 950 } });

  it('↑/↓ go on from the actor’s last row to the camera document’s camera, light and self-shadow rows and back, as drawn', async () => {
    const { page } = s.app;
    const dir = s.tmp.dir;
    await openDanceWithCamera(page, dir);
    await page.locator('[data-testid="track-list"]').hover();
    await page.mouse.wheel(0, 100_000);
    await page.waitForSelector('[data-testid="track-shadow"]');
    // The rows as drawn, top to bottom: the actor's, then the camera group's.
    const rows = await listed(page);
    const camAt = rows.findIndex(([id]) => id === 'group-camera');
    const lastActor = rows.slice(0, camAt).reverse().find(([id]) => id.startsWith('track-'))![0];
    const below = rows.slice(rows.findIndex(([id]) => id === lastActor) + 1).map(([id]) => id).filter((id) => id.startsWith('track-'));
    expect(below).toEqual(['track-camera', 'track-light', 'track-shadow']);
    const activeRow = () => page.evaluate(() => document.querySelector('[data-testid="track-list"] .row.active')?.getAttribute('data-testid') ?? null);
    const waitActiveRow = (id: string) => page.waitForFunction((id) => document.querySelector('[data-testid="track-list"] .row.active')?.getAttribute('data-testid') === id, id);
    await page.click(`[data-testid="${lastActor}"]`);
    await waitActiveRow(lastActor);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

    // ↓ from the actor's last row: the camera row, its document made active; then light, self-shadow.
    for (const want of below) {
      await page.keyboard.press('ArrowDown');
      await waitActiveRow(want);
      await waitActiveTab(page, 1);
    }
    // The last row: ↓ stays.
    await page.keyboard.press('ArrowDown');
    await animationFrames(page, 2);
    expect(await activeRow()).toBe('track-shadow');
    // ↑ back through the camera group's rows and on to the actor's last row, the actor active again.
    for (const want of ['track-light', 'track-camera']) {
      await page.keyboard.press('ArrowUp');
      await waitActiveRow(want);
    }
    await page.keyboard.press('ArrowUp');
    await waitActiveTab(page, 0);
    await waitActiveRow(lastActor);
    expect(await tabs(page)).toEqual([['actor', true], ['camera', false]]);
    // Nothing was edited on the way.
    expect(await page.evaluate(() => [...document.querySelectorAll('[data-testid="scene-tab"]')].map((e) => e.getAttribute('data-dirty')))).toEqual(['false', 'false']);
    expect(s.app.errors).toEqual([]);
  });
});
