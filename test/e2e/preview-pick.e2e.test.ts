/**
 * Picking a bone in the 3D preview, end to end in Chromium: open wavefile_v2.vmd through the UI, seek to
 * a frame where 左ひじ has a key (found here with the codec), click the elbow joint where the preview
 * says it is drawn → the inspector shows that key (name, frame, record), the pane names the bone and the
 * mark is drawn on the joint (read back from the canvas); a drag does not pick; the mark follows
 * scrubbing and playback, and the active track set from the track list; a bone the motion does not key
 * only shows its name; clicking empty sky and Escape clear the mark; the mark is drawn over the pose handle's rings. Screenshots: test-artifacts/preview-pick-*.png.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { corpusPath, fileDialogReady, openApp, openFileViaDialog, type AppHandle } from './harness';
import { animationFrames as frames, seekPreview as seek } from './editor-page';
import { buildTracks, readVmd } from '../../shared/vmd';
import { defaultFigureBones } from '../../shared/skeleton/standard-figure';
import { PICK_RADIUS_PX, isTipBone } from '../../renderer/src/preview/bone-pick';
import { DOT_FILL } from '../../renderer/src/preview/joint-dots';

const WAVE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
/** The mark's colour (preview-engine.ts MARK_COLOR, the timeline's selection colour #ffb23e). */
const MARK: [number, number, number] = [0xff, 0xb2, 0x3e];

/** Whether an RGBA sample is the mark's colour (within what blending and rounding can change). */
const isMark = (p: number[]) => Math.max(Math.abs(p[0] - MARK[0]), Math.abs(p[1] - MARK[1]), Math.abs(p[2] - MARK[2])) <= 12;

async function joint(page: Page, name: string): Promise<{ x: number; y: number }> {
  const p = await page.evaluate((n) => window.__vmdPreview!.boneScreenPosition(n), name);
  expect(p, `${name} on screen`).not.toBeNull();
  return { x: p![0], y: p![1] };
}

/**
 * The colour the page shows at a client position: a 1-pixel screenshot, so what the user sees however
 * the canvas gets its picture (on software GL, a 2D canvas the presenter copies frames onto, flipped by
 * CSS). Waits until no frame is on its way first.
 */
async function screenPixel(page: Page, x: number, y: number): Promise<number[]> {
  await page.waitForFunction(() => !window.__vmdPreview!.presentation().pending);
  await frames(page);
  const png = await page.screenshot({ clip: { x: Math.floor(x), y: Math.floor(y), width: 1, height: 1 } });
  return page.evaluate(async (b64) => {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const ctx = new OffscreenCanvas(1, 1).getContext('2d')!;
    ctx.drawImage(bmp, 0, 0);
    return Array.from(ctx.getImageData(0, 0, 1, 1).data);
  }, png.toString('base64'));
}

/** The element a click at (x, y) reaches: it must be the preview canvas, or the test would click something else. */
async function hitTestId(page: Page, x: number, y: number): Promise<string | null> {
  return page.evaluate(({ x, y }) => (document.elementFromPoint(x, y) as HTMLElement | null)?.dataset.testid ?? null, { x, y });
}

describe('picking a bone in the 3D preview', () => {
  let app: AppHandle;
  const tracks = (() => {
    const r = readVmd(new Uint8Array(readFileSync(WAVE)));
    if (!r.ok) throw new Error(r.error.message);
    return buildTracks(r.value);
  })();
  const b = tracks.bones;
  const elbowTrack = b.index.get('左ひじ')!;
  // A 左ひじ key some way into the dance (the arms are away from the body), from the file itself.
  const elbowKey = (() => {
    for (let k = b.start[elbowTrack]; k < b.start[elbowTrack + 1]; k++) if (b.frames[k] >= 600) return k;
    throw new Error('no 左ひじ key after frame 600');
  })();
  const keyFrame = b.frames[elbowKey];
  const keyRecord = b.record[elbowKey];

  beforeAll(async () => {
    app = await openApp({ viewport: { width: 1440, height: 900 } });
    await app.page.waitForFunction(() => !!window.__vmdPreview);
    await openFileViaDialog(app.page, WAVE);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('clicking the elbow joint selects 左ひじ and its key at the current frame, and marks the joint', async () => {
    const { page } = app;
    expect(elbowTrack).toBeGreaterThanOrEqual(0);
    await seek(page, keyFrame);
    // Nothing is marked yet; the pane offers the hint and no track is active (Insert key is disabled).
    expect(await page.evaluate(() => window.__vmdPreview!.marker())).toEqual({ bone: null, shown: false });
    expect(await page.isVisible('[data-testid="preview-picked-bone"]')).toBe(false);
    expect(await page.isDisabled('[data-testid="insert-key"]')).toBe(true);

    const p = await joint(page, '左ひじ');
    expect(await hitTestId(page, p.x, p.y)).toBe('preview-canvas');
    const before = await page.evaluate(({ x, y }) => window.__vmdPreview!.pixelAt(x, y), p);
    expect(isMark(before), `pixel before the pick ${before}`).toBe(false);

    await page.mouse.click(p.x, p.y);
    await page.waitForFunction((f) => (document.querySelector('[data-testid="inspector-frame"]') as HTMLInputElement | null)?.value === String(f), keyFrame);
    expect((await page.textContent('[data-testid="inspector-name"]'))?.trim()).toBe('左ひじ');
    const selection = await page.evaluate(() => window.__vmdEditor!.selection());
    expect(selection.refs).toEqual([{ kind: 'bone', record: keyRecord }]);
    expect(selection.active).toEqual({ kind: 'bone', record: keyRecord });
    expect(await page.isDisabled('[data-testid="insert-key"]')).toBe(false);
    expect((await page.textContent('[data-testid="preview-picked-bone"]'))?.trim()).toBe('Bone: 左ひじ');
    // The track list scrolled the row into view (it starts far below the fold) and shows it active.
    const row = page.locator(`[data-testid="track-bone:${elbowTrack}"]`);
    await row.waitFor();
    expect(await row.getAttribute('class')).toContain('active');
    const [rowBox, listBox] = [await row.boundingBox(), await page.locator('[data-testid="track-list"]').boundingBox()];
    expect(rowBox!.y).toBeGreaterThanOrEqual(listBox!.y);
    expect(rowBox!.y + rowBox!.height).toBeLessThanOrEqual(listBox!.y + listBox!.height);

    // The mark: drawn (the dot on the joint, the ring ~8.8 px out), as the picture shows.
    await frames(page);
    expect(await page.evaluate(() => window.__vmdPreview!.marker())).toEqual({ bone: '左ひじ', shown: true });
    const onJoint = await page.evaluate(({ x, y }) => window.__vmdPreview!.pixelAt(x, y), p);
    expect(isMark(onJoint), `pixel on the joint ${onJoint}`).toBe(true);
    const onRing = await page.evaluate(({ x, y }) => window.__vmdPreview!.pixelAt(x + 8.8, y), p);
    expect(isMark(onRing), `pixel on the ring ${onRing}`).toBe(true);
    // …and on the screen, the right way up: the page shows the mark where the joint is, not mirrored.
    const presentation = await page.evaluate(() => window.__vmdPreview!.presentation());
    const screenJoint = await screenPixel(page, p.x, p.y);
    expect(isMark(screenJoint), `screen pixel on the joint ${screenJoint} (${presentation.mode})`).toBe(true);
    const box = (await page.locator('[data-testid="preview-canvas"]').boundingBox())!;
    const mirrored = await screenPixel(page, p.x, box.y + box.height - (p.y - box.y));
    expect(isMark(mirrored), `screen pixel mirrored ${mirrored}`).toBe(false);
    await app.screenshot('preview-pick-elbow');
    expect(app.errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });

  it('a drag orbits the view without picking', async () => {
    const { page } = app;
    const cam0 = await page.evaluate(() => window.__vmdPreview!.cameraState()!.position);
    const p = await joint(page, '右ひじ');
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    await page.mouse.move(p.x + 30, p.y + 5, { steps: 5 });
    await page.mouse.up();
    await frames(page);
    const cam1 = await page.evaluate(() => window.__vmdPreview!.cameraState()!.position);
    expect(Math.hypot(cam1[0] - cam0[0], cam1[1] - cam0[1], cam1[2] - cam0[2])).toBeGreaterThan(0.1);
    expect((await page.evaluate(() => window.__vmdPreview!.marker())).bone).toBe('左ひじ');
    expect((await page.textContent('[data-testid="inspector-name"]'))?.trim()).toBe('左ひじ');
  });

  it('the mark follows the joint while scrubbing and playing', async () => {
    const { page } = app;
    const other = keyFrame + 45;
    await seek(page, other);
    const p = await joint(page, '左ひじ');
    expect(isMark(await page.evaluate(({ x, y }) => window.__vmdPreview!.pixelAt(x, y), p))).toBe(true);
    // No key of 左ひじ at this frame: the pick itself would now select nothing, but the mark stays.
    expect((await page.evaluate(() => window.__vmdPreview!.marker())).bone).toBe('左ひじ');

    await page.click('[data-testid="preview-play"]');
    await page.waitForTimeout(700);
    await page.click('[data-testid="preview-play"]');
    await frames(page);
    // Paused, the picture is presented asynchronously: read it once no frame is on its way (as screenPixel does).
    await page.waitForFunction(() => !window.__vmdPreview!.presentation().pending);
    const f = await page.evaluate(() => window.__vmdPreview!.frame());
    expect(f).toBeGreaterThan(other);
    // Right after playback stops (at a fractional frame), the mark is on the joint. (It was not in two full
    // runs: at the frame playback stopped on, the pose handle's X ring, seen edge on, crossed the joint and was
    // drawn over the mark's dot; the handle is now drawn under the mark: see the next test.)
    const q = await joint(page, '左ひじ');
    const afterPlay = await page.evaluate(({ x, y }) => window.__vmdPreview!.pixelAt(x, y), q);
    expect(isMark(afterPlay), `mark on the joint right after playing to ${f}: ${afterPlay}`).toBe(true);
    // …and once the playhead is put on a whole frame after the playback.
    const next = Math.floor(f) + 1;
    await seek(page, next);
    await frames(page);
    await page.waitForFunction(() => !window.__vmdPreview!.presentation().pending);
    const r = await joint(page, '左ひじ');
    expect(isMark(await page.evaluate(({ x, y }) => window.__vmdPreview!.pixelAt(x, y), r)), `mark on the joint at ${next}, after playing to ${f}`).toBe(true);
    await app.screenshot('preview-pick-after-play');
  });

  it('the mark is drawn over the pose handle: where a ring seen edge on crosses the joint, the joint shows the mark', async () => {
    const { page } = app;
    // Between frames 700 and 708 the elbow's X ring turns edge on to the view (as the drag above left it, at
    // 706): a red line through the joint, which was drawn over the mark's dot (found in a loaded run where
    // playback stopped at 703.996, in the default view, and the joint's pixel was the ring's red).
    expect(await page.evaluate(() => window.__vmdPreview!.poseHandle('X').bone)).toBe('左ひじ');
    const off: string[] = [];
    for (let f = 700; f <= 708; f++) {
      await seek(page, f);
      await frames(page);
      const p = await joint(page, '左ひじ');
      const px = await page.evaluate(({ x, y }) => window.__vmdPreview!.pixelAt(x, y), p);
      if (!isMark(px)) off.push(`${f}: ${px}`);
    }
    expect(off, 'frames whose joint pixel is not the mark').toEqual([]);
    await seek(page, 706);
    await frames(page);
    await page.waitForFunction(() => !window.__vmdPreview!.presentation().pending);
    await app.screenshot('preview-pick-over-handle');
  });

  it('the joints one can click are drawn as dots while paused, and not while playing', async () => {
    const { page } = app;
    await seek(page, keyFrame);
    await frames(page);
    const dots = await page.evaluate(() => window.__vmdPreview!.jointDots());
    expect(dots.shown).toBe(true);
    expect(dots.count).toBeGreaterThan(10);
    // On another keyed joint (not the marked one): the dot's fill, as drawn.
    const p = await joint(page, '右ひじ');
    const px = await page.evaluate(({ x, y }) => window.__vmdPreview!.pixelAt(x, y), p);
    const d = Math.max(...DOT_FILL.map((c, i) => Math.abs(px[i] - c)));
    expect(d, `pixel ${px} vs the dot's fill ${DOT_FILL}`).toBeLessThanOrEqual(12);
    await page.click('[data-testid="preview-play"]');
    await page.waitForTimeout(300);
    expect((await page.evaluate(() => window.__vmdPreview!.jointDots())).shown).toBe(false);
    await page.click('[data-testid="preview-play"]');
    await frames(page);
    await page.waitForFunction(() => window.__vmdPreview!.jointDots().shown);
    await app.screenshot('preview-pick-dots');
  });

  it('a bone the motion does not key only shows its name: no active track, no key selected', async () => {
    const { page } = app;
    await seek(page, keyFrame);
    // Figure bones (not tips) without a track in the file, whose joint no keyed joint crowds on screen
    // (a keyed joint within the pick radius would rightly win).
    const figure = defaultFigureBones();
    const keyed = figure.filter((bone) => b.index.has(bone.name)).map((bone) => bone.name);
    const keyedAt = (await page.evaluate((ns) => ns.map((n) => window.__vmdPreview!.boneScreenPosition(n)), keyed)).filter((p): p is [number, number] => p !== null);
    let target: { name: string; x: number; y: number } | null = null;
    for (const bone of figure) {
      if (b.index.has(bone.name) || isTipBone(bone)) continue;
      const p = await page.evaluate((n) => window.__vmdPreview!.boneScreenPosition(n), bone.name);
      if (!p || (await hitTestId(page, p[0], p[1])) !== 'preview-canvas') continue;
      if (keyedAt.every((q) => Math.hypot(q[0] - p[0], q[1] - p[1]) > PICK_RADIUS_PX + 1)) {
        target = { name: bone.name, x: p[0], y: p[1] };
        break;
      }
    }
    expect(target, 'an unkeyed figure bone clear of keyed joints').not.toBeNull();
    await page.mouse.click(target!.x, target!.y);
    await page.waitForFunction((n) => window.__vmdPreview!.marker().bone === n, target!.name);
    // The line says how to key it (Enter registers its pose: MMD's 登録 of a bone with no keys); nothing is keyed
    // or selected by the click itself, and the Key panel shows the bone at rest with Register on.
    expect((await page.textContent('[data-testid="preview-picked-bone"]'))?.replace(/\s+/g, ' ').trim()).toBe(`Bone: ${target!.name} (no keys yet: Enter registers its pose here)`);
    expect(await page.evaluate(() => window.__vmdEditor!.selection())).toEqual({ refs: [], active: null });
    expect(await page.textContent('[data-testid="key-inspector"]')).toContain('No keys yet — the bone at rest');
    expect(await page.isDisabled('[data-testid="insert-key"]')).toBe(false);
    await frames(page);
    expect(isMark(await page.evaluate(({ x, y }) => window.__vmdPreview!.pixelAt(x, y), target!))).toBe(true);
    await app.screenshot('preview-pick-unkeyed');

    // Back on the elbow: its key at this frame is selected again.
    const p = await joint(page, '左ひじ');
    await page.mouse.click(p.x, p.y);
    await page.waitForFunction(() => window.__vmdPreview!.marker().bone === '左ひじ');
    expect((await page.evaluate(() => window.__vmdEditor!.selection())).active).toEqual({ kind: 'bone', record: keyRecord });
  });

  it('clicking empty sky clears the mark (the key selection stays)', async () => {
    const { page } = app;
    await seek(page, keyFrame);
    const box = (await page.locator('[data-testid="preview-canvas"]').boundingBox())!;
    const sky = { x: box.x + box.width - 20, y: box.y + 40 };
    expect(await hitTestId(page, sky.x, sky.y)).toBe('preview-canvas');
    const p = await joint(page, '左ひじ');
    await page.mouse.click(sky.x, sky.y);
    await page.waitForSelector('[data-testid="preview-picked-bone"]', { state: 'detached' });
    await frames(page);
    expect(await page.evaluate(() => window.__vmdPreview!.marker())).toEqual({ bone: null, shown: false });
    expect(isMark(await page.evaluate(({ x, y }) => window.__vmdPreview!.pixelAt(x, y), p))).toBe(false);
    expect((await page.evaluate(() => window.__vmdEditor!.selection())).active).toEqual({ kind: 'bone', record: keyRecord });
    await app.screenshot('preview-pick-cleared');
  });

  it('a bone row clicked in the track list is marked; Escape clears the mark', async () => {
    const { page } = app;
    // The first bone row the list shows whose bone the default figure has.
    const rows = await page.$$eval('[data-testid^="track-bone:"]', (els) => els.map((e) => ({ id: e.getAttribute('data-testid')!, name: e.querySelector('.name')?.textContent?.trim() ?? '' })));
    let chosen: { id: string; name: string } | null = null;
    for (const r of rows) {
      if (await page.evaluate((n) => window.__vmdPreview!.boneScreenPosition(n) !== null, r.name)) {
        chosen = r;
        break;
      }
    }
    expect(chosen, `a visible bone row the figure has among ${rows.map((r) => r.name).join(', ')}`).not.toBeNull();
    await page.click(`[data-testid="${chosen!.id}"]`);
    await page.waitForFunction((n) => window.__vmdPreview!.marker().bone === n, chosen!.name);
    await frames(page);
    const p = await joint(page, chosen!.name);
    expect(isMark(await page.evaluate(({ x, y }) => window.__vmdPreview!.pixelAt(x, y), p)), `mark on ${chosen!.name}`).toBe(true);
    expect((await page.textContent('[data-testid="preview-picked-bone"]'))?.trim()).toBe(`Bone: ${chosen!.name}`);
    await app.screenshot('preview-pick-track-row');

    // Escape with a dialog open closes the dialog and leaves the mark alone.
    await page.click('[data-testid="cmd-open"]');
    await fileDialogReady(page);
    expect((await page.evaluate(() => window.__vmdPreview!.marker())).bone).toBe(chosen!.name);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    expect((await page.evaluate(() => window.__vmdPreview!.marker())).bone).toBe(chosen!.name);

    await page.keyboard.press('Escape');
    await page.waitForFunction(() => window.__vmdPreview!.marker().bone === null);
    await frames(page);
    expect((await page.evaluate(() => window.__vmdPreview!.marker())).shown).toBe(false);
    expect(isMark(await page.evaluate(({ x, y }) => window.__vmdPreview!.pixelAt(x, y), p))).toBe(false);
    expect(app.errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });

  it('Bones (or C, as in MMD) hides the joint dots, a click still picks a joint, and the switch is remembered after a reload', async () => {
    const { page } = app;
    await seek(page, keyFrame);
    await frames(page);
    const bones = page.locator('[data-testid="preview-bones"]');
    expect(await bones.isChecked()).toBe(true);
    expect((await page.evaluate(() => window.__vmdPreview!.jointDots())).shown).toBe(true);
    const dotAt = async (name: string) => {
      const p = await joint(page, name);
      const px = await page.evaluate(({ x, y }) => window.__vmdPreview!.pixelAt(x, y), p);
      return Math.max(...DOT_FILL.map((c, i) => Math.abs(px[i] - c))) <= 12;
    };
    expect(await dotAt('右ひじ')).toBe(true);
    await bones.click();
    await page.waitForFunction(() => !window.__vmdPreview!.jointDots().shown);
    await frames(page);
    await page.waitForFunction(() => !window.__vmdPreview!.presentation().pending);
    expect(await dotAt('右ひじ'), 'no dot drawn on 右ひじ').toBe(false);
    // Picking does not need the dots: a click on the elbow still selects 左ひじ.
    const p = await joint(page, '左ひじ');
    await page.mouse.click(p.x, p.y);
    await page.waitForFunction(() => window.__vmdPreview!.marker().bone === '左ひじ');
    await app.screenshot('preview-pick-bones-off');
    // C shows them again and hides them again.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // Each switch is written to the settings; the file is read after each, since a file that reads "off"
    // before the first C's write lands (the click's write) would let the reload race the last two writes.
    const settingsFile = path.join(app.server.settingsDir, 'settings.json');
    const stored = () => (existsSync(settingsFile) ? JSON.parse(readFileSync(settingsFile, 'utf8')).ui?.previewBones : undefined);
    await page.keyboard.press('c');
    await page.waitForFunction(() => window.__vmdPreview!.jointDots().shown);
    expect(await bones.isChecked()).toBe(true);
    await expect.poll(stored, { timeout: 10_000 }).toBe(true);
    await page.keyboard.press('c');
    await page.waitForFunction(() => !window.__vmdPreview!.jointDots().shown);
    expect(await bones.isChecked()).toBe(false);
    // …then a new page starts with the dots off.
    await expect.poll(stored, { timeout: 10_000 }).toBe(false);
    await page.reload();
    await page.waitForSelector('[data-ready="true"]');
    await page.waitForFunction(() => !!window.__vmdPreview);
    await openFileViaDialog(page, WAVE);
    await seek(page, keyFrame);
    await frames(page);
    expect(await page.locator('[data-testid="preview-bones"]').isChecked()).toBe(false);
    expect((await page.evaluate(() => window.__vmdPreview!.jointDots())).shown).toBe(false);
    // …and C brings them back on this page (they were off by the setting, not for want of a model).
    await page.keyboard.press('c');
    await page.waitForFunction(() => window.__vmdPreview!.jointDots().shown);
    expect(app.errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });
});
