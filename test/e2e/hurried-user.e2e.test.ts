/**
 * What the hurried new user did in the "wrong" order (new-user pass nuchaos), in Chromium through the browser mode:
 * - Ctrl+W while a video renders is refused with a notice naming the job, and leaving the page asks; the motion
 *   stays open and the video is the dance to its end (two late frames, decoded by ffmpeg, differ: with the motion closed they were the same
 *   rest pose, finding 2);
 * - Ctrl+Z while Whole Motion's Reduce fits is refused (notice; the Mirror under it stays), and the Reduce applies
 *   as one more undo step (before, the Mirror was undone and the Reduce thrown away without a word, finding 3);
 * - Mirror pose (Ctrl+Shift+M) while playing stops playback and keys the frame shown: every record it adds lies at
 *   the frame the field shows after, and the notice names it (before, playback went on and the key lay on a
 *   frame passed meanwhile, finding 8);
 * - a key dragged and released over the document tabs (left of frame 0) lands on frame 0, with no error notice
 *   (before: "Cannot move keys before frame 0", finding 9).
 * The tests run in order in one page (each opens its own file).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, dismissNotices, notice, notices, openSceneViaDialog, writeDuetScene } from './harness';
import { animationFrames, keyPoint, openFresh } from './editor-page';

const DANCE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
/** VMD 0002: header 30 + model name 20, then the bone count and 111-byte bone records (name 15, frame u32, …). */
const BONES_AT = 50;
const BONE_SIZE = 111;

/** The bone records of a VMD's bytes: each as hex (whole record), its name's bytes as hex, and its frame. */
function boneRecords(b: Buffer): { hex: string; name: string; frame: number; rest: string }[] {
  const n = b.readUInt32LE(BONES_AT);
  return Array.from({ length: n }, (_, i) => {
    const at = BONES_AT + 4 + i * BONE_SIZE;
    return { hex: b.toString('hex', at, at + BONE_SIZE), name: b.toString('hex', at, at + 15), frame: b.readUInt32LE(at + 15), rest: b.toString('hex', at + 19, at + BONE_SIZE) };
  });
}

/** The open document's bytes (the editor hook's writeVmd). */
async function docBytes(page: Page): Promise<Buffer> {
  return Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64');
}

/** Records in `after` that `before` lacks (as a multiset). */
function added(before: Buffer, after: Buffer) {
  const left = new Map<string, number>();
  for (const r of boneRecords(before)) left.set(r.hex, (left.get(r.hex) ?? 0) + 1);
  return boneRecords(after).filter((r) => {
    const k = left.get(r.hex) ?? 0;
    if (k > 0) left.set(r.hex, k - 1);
    return k === 0;
  });
}

/** Frame n of a video, decoded by ffmpeg as RGB at 320×180. */
function frameRgb(file: string, n: number): Uint8Array {
  const data = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-vf', `select=eq(n\\,${n}),scale=320:180`, '-vframes', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { maxBuffer: 16 * 1024 * 1024 });
  expect(data.length).toBe(320 * 180 * 3);
  return new Uint8Array(data);
}

/** Pixels of two pictures whose colours differ clearly (more than 48 over the three channels): the figure moved there. */
function changedPixels(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 3) if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) > 48) n++;
  return n;
}

/** The summary's document name now ('' when no document is open: the summary is not there). */
const shownName = (page: Page) => page.evaluate(() => document.querySelector('[data-testid="summary-name"]')?.textContent ?? '');

/** Presses Ctrl+`key` (a keydown as the keyboard sends it) in the same task of the page that looks for `running`; says whether that was there. */
function ctrlKeyWhileThere(page: Page, running: string, key: string): Promise<boolean> {
  return page.evaluate(
    ([r, k]) => {
      const there = !!document.querySelector(r);
      (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent('keydown', { key: k, code: `Key${k.toUpperCase()}`, ctrlKey: true, bubbles: true, cancelable: true }));
      return there;
    },
    [running, key] as const,
  );
}

describe('the hurried user: commands over a running job, an edit while playing, a drag off the timeline', () => {
  const s = appForSuite({ viewport: { width: 1440, height: 900 } });

  it('Mirror pose (Ctrl+Shift+M) while playing stops playback and keys the frame shown, the notice naming it', async () => {
    const { page } = s.app;
    await openFresh(page, DANCE);
    const before = await docBytes(page);
    await page.click('[data-testid="track-bone:0"]');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => window.__vmdEditor!.frame().playing && window.__vmdEditor!.frame().frame > 10, null, { timeout: 30_000 });
    await page.keyboard.press('Control+Shift+M');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1, null, { timeout: 10_000 });
    expect(await page.evaluate(() => window.__vmdEditor!.frame().playing)).toBe(false);
    const shown = Number(await page.inputValue('[data-testid="frame-input"]'));
    expect(await notice(page, `Playback stopped at frame ${shown}: the edit is made there`)).toBeTruthy();
    // The keys the mirror made lie on that frame, as the file would hold them.
    const made = added(before, await docBytes(page));
    expect(made.length).toBeGreaterThan(0);
    expect(made.map((r) => r.frame)).toEqual(made.map(() => shown));
    // Still stopped there a moment later (the edit's frame is the one shown).
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.__vmdEditor!.frame())).toEqual({ frame: shown, playing: false });
    expect(s.app.errors).toEqual([]);
  }, 120_000);

  it('Ctrl+Z during a Whole Motion Reduce is refused (notice, the history unchanged) and the Reduce applies', async () => {
    const { page } = s.app;
    await openFresh(page, DANCE);
    await dismissNotices(page);
    await page.click('[data-testid="whole-motion"]');
    await page.selectOption('[data-testid="batch-op"]', 'mirror');
    await page.click('[data-testid="batch-apply"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1, null, { timeout: 60_000 });
    const mirrored = await docBytes(page);
    if (!(await page.isVisible('[data-testid="batch-op"]'))) await page.click('[data-testid="whole-motion"]');
    await page.selectOption('[data-testid="batch-op"]', 'reduce');
    await page.click('[data-testid="batch-apply"]');
    await page.waitForSelector('[data-testid="fit-progress"]', { timeout: 60_000 });
    expect(await ctrlKeyWhileThere(page, '[data-testid="fit-progress"]', 'z'), 'the fit was still running when Ctrl+Z came').toBe(true);
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(1);
    expect((await docBytes(page)).equals(mirrored)).toBe(true);
    expect(await notice(page, 'is being applied: cancel it first, or wait until it ends')).toBeTruthy();
    // The Reduce ends and applies over the Mirror: two steps, and undoing one gives the mirrored motion back.
    await page.waitForSelector('[data-testid="fit-progress"]', { state: 'detached', timeout: 300_000 });
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 2, null, { timeout: 30_000 });
    const reduced = await docBytes(page);
    expect(boneRecords(reduced).length).toBeLessThan(boneRecords(mirrored).length);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    if (await page.isVisible('[data-testid="batch-op"]')) await page.keyboard.press('Escape');
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    expect((await docBytes(page)).equals(mirrored)).toBe(true);
    expect(s.app.errors).toEqual([]);
  }, 420_000);

  it('Ctrl+W during a video render is refused: the motion stays open and the video is the dance to its end', async () => {
    const { page } = s.app;
    await openFresh(page, DANCE);
    await dismissNotices(page);
    const out = path.join(s.tmp.dir, 'dance.mp4');
    await page.click('[data-testid="cmd-export-video"]');
    await page.waitForSelector('[data-testid="video-dialog"]');
    // A small picture: what is checked does not depend on the size, and the software rasteriser is slow.
    await page.selectOption('[data-testid="video-size"]', 'scene');
    await page.fill('[data-testid="video-height"]', '240');
    await page.selectOption('[data-testid="video-fps"]', '30');
    await page.fill('[data-testid="video-from"]', '0');
    await page.fill('[data-testid="video-to"]', '119');
    await page.fill('[data-testid="video-path"]', out);
    await page.click('[data-testid="video-start"]');
    await page.waitForFunction(() => Number(/^Frame (\d+)/.exec(document.querySelector('[data-testid="video-progress-text"]')?.textContent ?? '')?.[1] ?? -1) >= 3, null, { timeout: 120_000 });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(await ctrlKeyWhileThere(page, '[data-testid="video-progress"]', 'w'), 'the render was still running when Ctrl+W came').toBe(true);
    await animationFrames(page);
    expect(await shownName(page)).toContain('wavefile_v2.vmd');
    // Closing or reloading the tab now asks (the browser's leave-page prompt), though nothing is unsaved.
    const leave = await page.evaluate(() => {
      const e = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(e);
      return { running: !!document.querySelector('[data-testid="video-progress"]'), held: e.defaultPrevented, dirty: document.title.includes('*') };
    });
    expect(leave).toEqual({ running: true, held: true, dirty: false });
    expect(await notice(page, 'A video is rendering: cancel it first, or wait until it ends')).toBeTruthy();
    await page.waitForSelector('[data-testid="video-result"]', { timeout: 570_000 });
    expect(await page.getAttribute('[data-testid="video-result"]', 'data-kind')).toBe('done');
    expect(await shownName(page)).toContain('wavefile_v2.vmd');
    // Late frames (well after the Ctrl+W) still dance: with the motion gone they were one rest pose, the same picture.
    const late = [60, 119].map((n) => frameRgb(out, n));
    const moved = changedPixels(late[0], late[1]);
    console.log(`[hurried] video frames 60 vs 119: ${moved} of ${320 * 180} pixels changed`);
    // The figure stands some 60 pixels tall here: a move of its limbs changes hundreds; one pose twice, a few at most (the codec's noise).
    expect(moved).toBeGreaterThan(200);
    await page.click('[data-testid="video-close"]');
    expect(s.app.errors).toEqual([]);
  }, 600_000);

  it('a key dragged and released over the document tabs lands on frame 0, with no error notice', async () => {
    const { page } = s.app;
    if (await page.isVisible('[data-testid="video-close"]')) await page.click('[data-testid="video-close"]');
    const scene = writeDuetScene(s.tmp.dir, [{ model: null }, { model: null }]);
    await openSceneViaDialog(page, scene);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length >= 2, null, { timeout: 60_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('dance.vmd'), null, { timeout: 60_000 });
    await dismissNotices(page);
    const before = await docBytes(page);
    // The センター key at 143 (the one the user dragged), found in the file's own bytes.
    const original = boneRecords(readFileSync(path.join(s.tmp.dir, 'dance.vmd')));
    const k = await keyPoint(page, 'track-bone:0', 143);
    await page.mouse.click(k.x, k.y);
    const ref = await page.evaluate(() => window.__vmdEditor!.selection().refs);
    expect(ref).toHaveLength(1);
    const grabbed = boneRecords(before)[ref[0].record];
    expect(grabbed.frame).toBe(143);
    expect(original.some((r) => r.hex === grabbed.hex)).toBe(true);
    const undo0 = await page.evaluate(() => window.__vmdEditor!.history().undo);

    const tab = (await page.locator('[data-testid="scene-tab"]').nth(0).boundingBox())!;
    const drop = { x: tab.x + 20, y: tab.y + tab.height / 2 };
    // Precondition: the drop lies left of frame 0 (the timeline's frame there is negative).
    const atDrop = await page.evaluate((x) => {
      const cv = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement;
      return (x - cv.getBoundingClientRect().left) / Number(cv.dataset.pxPerFrame) + Number(cv.dataset.frameStart);
    }, drop.x);
    expect(atDrop).toBeLessThan(0);
    await page.mouse.move(k.x, k.y);
    await page.mouse.down();
    await page.mouse.move(k.x + 10, k.y);
    await page.mouse.move(k.x + 20, k.y);
    await page.mouse.move(drop.x, drop.y, { steps: 4 });
    await page.mouse.up();
    await page.waitForFunction((u) => window.__vmdEditor!.history().undo === u + 1, undo0, { timeout: 10_000 });
    const after = boneRecords(await docBytes(page)).filter((r) => r.name === grabbed.name);
    // The key is at 0 with its pose and curve; none is left at 143.
    expect(after.filter((r) => r.frame === 143)).toEqual([]);
    expect(after.filter((r) => r.frame === 0).map((r) => r.rest)).toEqual([grabbed.rest]);
    expect((await notices(page)).filter((n) => /Cannot|frame -/.test(n))).toEqual([]);
    expect(await page.$('[data-testid="notifications"] .notice.error')).toBeNull();
    expect(s.app.errors).toEqual([]);
  }, 180_000);
});
