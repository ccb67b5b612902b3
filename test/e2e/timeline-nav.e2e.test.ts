/**
 * The timeline at the speed of an MMD user, end to end in Chromium on wavefile_v2.vmd and a generated
 * 36 MB motion: the view follows the playhead through 5 s of playback (every sampled frame inside the
 * visible range, paging and smooth), zooming keeps the playhead (buttons, keys) or the point under the
 * pointer (wheel) at its screen x, previous/next key lands on the frames the file's bytes hold (active
 * track, selected tracks, any track), and range select over 上半身 from 100 to 400 selects exactly the
 * records the bytes hold there, which Delete then removes and nothing else.
 *
 * Expected frames and records are read from the bytes here (FORMAT.md offsets), not from the app's codec.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { blockFromRecords, buildBoneInterpolation, emptyVmd, encodeBoneRecord, nameField, writeVmd } from '../../shared/vmd';
import { appForSuite, corpusPath, openFileViaDialog } from './harness';
import { animationFrames, keyPoint, listedRows, seekFrameField as seek } from './editor-page';

const WAVEFILE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
/** 上半身 in Shift_JIS. */
const UPPER = Uint8Array.from([0x8f, 0xe3, 0x94, 0xbc, 0x90, 0x67]);
/** センター in Shift_JIS. */
const CENTER = Uint8Array.from([0x83, 0x5a, 0x83, 0x93, 0x83, 0x5e, 0x81, 0x5b]);

interface RawKey { name: string; frame: number; record: number; kind: 'bone' | 'morph' | 'camera' }

/**
 * Bone, morph and camera keys straight from the bytes: header 30 + model 20, bone count u32 then 111-byte
 * records (name 15, frame u32 at 15), morph count then 23-byte records (name 15, frame at 15), camera
 * count then 61-byte records (frame at 0). Names as hex of their bytes up to the first NUL.
 */
function rawKeys(bytes: Uint8Array): RawKey[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hex = (at: number) => {
    let s = '';
    for (let i = 0; i < 15 && bytes[at + i] !== 0; i++) s += bytes[at + i].toString(16).padStart(2, '0');
    return s;
  };
  const out: RawKey[] = [];
  let p = 50;
  const nb = v.getUint32(p, true);
  p += 4;
  for (let i = 0; i < nb; i++, p += 111) out.push({ kind: 'bone', name: hex(p), frame: v.getUint32(p + 15, true), record: i });
  if (p + 4 > bytes.length) return out;
  const nm = v.getUint32(p, true);
  p += 4;
  for (let i = 0; i < nm; i++, p += 23) out.push({ kind: 'morph', name: hex(p), frame: v.getUint32(p + 15, true), record: i });
  if (p + 4 > bytes.length) return out;
  const nc = v.getUint32(p, true);
  p += 4;
  for (let i = 0; i < nc; i++, p += 61) out.push({ kind: 'camera', name: '', frame: v.getUint32(p, true), record: i });
  return out;
}
const hexOf = (u: Uint8Array) => [...u].map((b) => b.toString(16).padStart(2, '0')).join('');
const framesOf = (keys: RawKey[]) => [...new Set(keys.map((k) => k.frame))].sort((a, b) => a - b);

/** The timeline's published view and the current frame, read in one go. */
async function viewNow(page: Page) {
  return page.evaluate(() => {
    const cv = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement;
    const r = cv.getBoundingClientRect();
    const fs = Number(cv.dataset.frameStart), ppf = Number(cv.dataset.pxPerFrame);
    const f = window.__vmdEditor!.frame();
    return { left: r.left, width: r.width, fs, ppf, frame: f.frame, playing: f.playing, x: r.left + (f.frame - fs) * ppf };
  });
}

const frameNow = async (page: Page) => (await page.evaluate(() => window.__vmdEditor!.frame())).frame;

async function selectionRecords(page: Page, kind = 'bone'): Promise<number[]> {
  const s = await page.evaluate(() => window.__vmdEditor!.selection());
  return s.refs.filter((r) => r.kind === kind).map((r) => r.record).sort((a, b) => a - b);
}

/** Plays for `ms`, sampling the view every animation frame; every sample's playhead must be inside it. */
async function playAndSample(page: Page, ms: number) {
  await page.click('[data-testid="play"]');
  const samples = await page.evaluate((ms) => new Promise<{ frame: number; fs: number; span: number }[]>((resolve) => {
    const cv = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement;
    const out: { frame: number; fs: number; span: number }[] = [];
    const t0 = performance.now();
    const step = () => {
      // After this frame's tick and Vue's flush: sample in a task queued from the animation frame.
      setTimeout(() => {
        const w = cv.getBoundingClientRect().width;
        out.push({ frame: window.__vmdEditor!.frame().frame, fs: Number(cv.dataset.frameStart), span: w / Number(cv.dataset.pxPerFrame) });
        if (performance.now() - t0 < ms) requestAnimationFrame(step);
        else resolve(out);
      }, 0);
    };
    requestAnimationFrame(step);
  }), ms);
  await page.click('[data-testid="play"]');
  return samples;
}

function expectFollowed(samples: { frame: number; fs: number; span: number }[]) {
  expect(samples.length).toBeGreaterThan(10);
  const outside = samples.filter((s) => s.frame < s.fs || s.frame > s.fs + s.span);
  expect(outside, 'samples with the playhead outside the visible frames').toEqual([]);
  // The playback went past the first view, so the view had to move (the check above is not vacuous).
  const first = samples[0], last = samples[samples.length - 1];
  expect(last.frame - first.frame).toBeGreaterThan(first.span);
  expect(new Set(samples.map((s) => s.fs)).size).toBeGreaterThan(1);
}

/** Makes the track of row `trackId` the active one (a click on its name). */
async function activate(page: Page, trackId: string) {
  await page.click(`[data-testid="${trackId}"]`);
}

async function trackIdOf(page: Page, name: string): Promise<string> {
  const id = await page.evaluate((name) => {
    const row = [...document.querySelectorAll('[data-testid^="track-bone:"]')].find((r) => r.querySelector('.name')?.textContent?.trim() === name);
    return row?.getAttribute('data-testid') ?? null;
  }, name);
  if (!id) throw new Error(`no row ${name} shown`);
  return id;
}

describe('timeline navigation on wavefile_v2.vmd', () => {
  const suite = appForSuite({ viewport: { width: 1600, height: 900 } });
  const bytes = new Uint8Array(readFileSync(WAVEFILE));
  const keys = rawKeys(bytes);
  const upper = keys.filter((k) => k.kind === 'bone' && k.name === hexOf(UPPER));
  const center = keys.filter((k) => k.kind === 'bone' && k.name === hexOf(CENTER));

  it('opens with keys a readable distance apart', async () => {
    const { page } = suite.app;
    await openFileViaDialog(page, WAVEFILE);
    await animationFrames(page);
    const v = await viewNow(page);
    // Neighbouring 上半身 keys: the median gap in frames, times the zoom, is at least 10 px on screen.
    const f = framesOf(upper);
    const gaps = f.slice(1).map((x, i) => x - f[i]).sort((a, b) => a - b);
    expect(gaps[Math.floor(gaps.length / 2)] * v.ppf).toBeGreaterThanOrEqual(10);
    await suite.app.screenshot('timeline-nav-open-wavefile');
  });

  it('follows the playhead through 5 s of playback (page turns)', async () => {
    const { page } = suite.app;
    await page.keyboard.press('Home');
    expect(await page.getAttribute('[data-testid="follow-mode"]', 'data-mode')).toBe('page');
    // Zoomed in (about the playhead at 0) until 5 s of playback spans more than one view.
    for (let i = 0; i < 4; i++) await page.keyboard.press('+');
    const samples = await playAndSample(page, 5000);
    expectFollowed(samples);
    await suite.app.screenshot('timeline-nav-after-play');
  });

  it('follows a jump typed in the frame field and a scrub of the preview', async () => {
    const { page } = suite.app;
    await seek(page, 2500);
    let v = await viewNow(page);
    expect(v.frame).toBe(2500);
    expect(v.x).toBeGreaterThanOrEqual(v.left);
    expect(v.x).toBeLessThanOrEqual(v.left + v.width);
    // The preview's scrub bar dragged back to the start: the view pages along.
    await page.fill('[data-testid="preview-scrub"]', '10');
    await page.waitForFunction(() => window.__vmdEditor!.frame().frame === 10);
    await animationFrames(page);
    v = await viewNow(page);
    expect(v.frame).toBe(10);
    expect(v.x).toBeGreaterThanOrEqual(v.left);
    expect(v.x).toBeLessThanOrEqual(v.left + v.width);
  });

  it('a frame typed while playing survives the played frames redrawing the toolbar: Enter pauses there', async () => {
    const { page } = suite.app;
    await page.keyboard.press('Home');
    await page.click('[data-testid="play"]');
    await page.waitForFunction(() => window.__vmdEditor!.frame().frame > 3);
    // Click into the box and select its text; played frames re-render the toolbar before the digits are
    // typed (the selection must survive them, or the digits are appended to the frame shown), and after.
    await page.click('[data-testid="frame-input"]');
    await page.keyboard.press('Control+A');
    const selected = await page.evaluate(() => window.__vmdEditor!.frame().frame);
    await page.waitForFunction((f) => window.__vmdEditor!.frame().frame > f + 3, selected);
    await page.keyboard.type('1234');
    const before = await page.evaluate(() => window.__vmdEditor!.frame().frame);
    await page.waitForFunction((f) => window.__vmdEditor!.frame().frame > f + 5, before);
    expect(await page.inputValue('[data-testid="frame-input"]')).toBe('1234');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.__vmdEditor!.frame().frame === 1234);
    expect(await page.inputValue('[data-testid="frame-input"]')).toBe('1234');
    await page.waitForTimeout(150);
    expect(await page.evaluate(() => window.__vmdEditor!.frame().frame)).toBe(1234); // paused there
  });

  it('Ctrl+G, a frame and Enter give the keys back to the editor: Ctrl+V pastes there, → steps on; Esc leaves the field', async () => {
    const { page } = suite.app;
    const cf = framesOf(center);
    const centerId = await trackIdOf(page, 'センター');
    await seek(page, cf[1]);
    for (let i = 0; i < 6; i++) await page.keyboard.press('+');
    const kp = await keyPoint(page, centerId, cf[1]);
    await page.mouse.click(kp.x, kp.y);
    expect(await selectionRecords(page)).toEqual([center.find((k) => k.frame === cf[1])!.record]);
    await page.keyboard.press('Control+c');
    const target = framesOf(center).find((f, i, a) => i > 2 && a[i + 1] - f > 4)! + 2;
    await page.keyboard.press('Control+g');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('frame-input');
    await page.keyboard.type(String(target));
    await page.keyboard.press('Enter');
    await page.waitForFunction((f) => window.__vmdEditor!.frame().frame === f, target);
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? null)).not.toBe('frame-input');
    const undo0 = (await page.evaluate(() => window.__vmdEditor!.history())).undo;
    await page.keyboard.press('Control+v');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, undo0);
    const pasted = rawKeys(new Uint8Array(Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64')));
    expect(pasted.filter((k) => k.kind === 'bone' && k.name === hexOf(CENTER) && k.frame === target)).toHaveLength(1);
    await page.keyboard.press('ArrowRight');
    expect(await frameNow(page)).toBe(target + 1);
    await page.keyboard.press('Control+z');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n, undo0);
    // Esc: back out of the field without going anywhere.
    await page.keyboard.press('Control+g');
    await page.keyboard.type('99');
    await page.keyboard.press('Escape');
    expect(await frameNow(page)).toBe(target + 1);
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? null)).not.toBe('frame-input');
    expect(await page.inputValue('[data-testid="frame-input"]')).toBe(String(target + 1));
  });

  it('zooming in 10 steps keeps the playhead at the same screen x (buttons, then + keys); the wheel keeps the pointer frame', async () => {
    const { page } = suite.app;
    await page.click('[data-testid="zoom-fit"]');
    await seek(page, 1962);
    const x0 = (await viewNow(page)).x;
    const ppf0 = (await viewNow(page)).ppf;
    for (let i = 0; i < 10; i++) {
      await page.click('[data-testid="zoom-in"]');
      await animationFrames(page);
      const v = await viewNow(page);
      expect(Math.abs(v.x - x0), `step ${i + 1}`).toBeLessThanOrEqual(2);
    }
    expect((await viewNow(page)).ppf).toBeGreaterThan(ppf0 * 10);
    await page.click('[data-testid="zoom-fit"]');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const y0 = (await viewNow(page)).x;
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('+');
      await animationFrames(page);
      expect(Math.abs((await viewNow(page)).x - y0), `+ ${i + 1}`).toBeLessThanOrEqual(2);
    }
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('-');
      await animationFrames(page);
      expect(Math.abs((await viewNow(page)).x - y0), `− ${i + 1}`).toBeLessThanOrEqual(2);
    }
    // Ctrl+wheel about a point 300 px into the timeline: the frame under it stays there.
    const v = await viewNow(page);
    const px = v.left + 300, rect = await page.locator('[data-testid="timeline-canvas"]').boundingBox();
    const under = v.fs + 300 / v.ppf;
    await page.mouse.move(px, rect!.y + rect!.height / 2);
    for (let i = 0; i < 5; i++) {
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -120);
      await page.keyboard.up('Control');
      await animationFrames(page);
      const w = await viewNow(page);
      expect(Math.abs((under - w.fs) * w.ppf - 300), `wheel ${i + 1}`).toBeLessThanOrEqual(2);
    }
    await suite.app.screenshot('timeline-nav-zoomed');
  });

  it('next / previous key lands on the frames the bytes hold: active track, selected tracks, any track', async () => {
    const { page } = suite.app;
    const upperId = await trackIdOf(page, '上半身');
    const centerId = await trackIdOf(page, 'センター');
    await activate(page, upperId);
    await page.keyboard.press('Home');
    const uf = framesOf(upper).filter((f) => f > 0);
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press(']');
      expect(await frameNow(page), `] ${i + 1}`).toBe(uf[i]);
    }
    for (let i = 6; i >= 0; i--) {
      await page.keyboard.press('[');
      expect(await frameNow(page), `[ to ${uf[i]}`).toBe(uf[i]);
    }
    // The toolbar buttons, scope "active track": the same frames.
    await page.click('[data-testid="next-key"]');
    expect(await frameNow(page)).toBe(uf[1]);
    await page.click('[data-testid="prev-key"]');
    expect(await frameNow(page)).toBe(uf[0]);

    // Selected tracks: a センター key selected, 上半身 active again: the union of both tracks' frames.
    const cf = framesOf(center);
    await page.click('[data-testid="zoom-fit"]');
    await seek(page, cf[1]);
    for (let i = 0; i < 6; i++) await page.keyboard.press('+');
    const kp = await keyPoint(page, centerId, cf[1]);
    await page.mouse.click(kp.x, kp.y);
    expect(await selectionRecords(page)).toEqual([center.find((k) => k.frame === cf[1])!.record]);
    await activate(page, upperId);
    const both = framesOf([...upper, ...center]);
    let at = both.indexOf(cf[1]);
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Control+ArrowRight');
      expect(await frameNow(page), `Ctrl+→ ${i + 1}`).toBe(both[++at]);
    }
    await page.keyboard.press('Control+ArrowLeft');
    expect(await frameNow(page)).toBe(both[--at]);

    // Any track (bones and morphs): Ctrl+Shift+→ from frame 1000, and the button with scope "all".
    const all = framesOf(keys);
    await seek(page, 1000);
    let j = all.findIndex((f) => f > 1000);
    for (let i = 0; i < 5; i++, j++) {
      await page.keyboard.press('Control+Shift+ArrowRight');
      expect(await frameNow(page), `Ctrl+Shift+→ ${i + 1}`).toBe(all[j]);
    }
    await page.selectOption('[data-testid="key-scope"]', 'all');
    await page.click('[data-testid="prev-key"]');
    expect(await frameNow(page)).toBe(all[j - 2]);
    // The view followed every jump.
    const v = await viewNow(page);
    expect(v.x).toBeGreaterThanOrEqual(v.left);
    expect(v.x).toBeLessThanOrEqual(v.left + v.width);
  });

  it('range select over 上半身 from 100 to 400 selects exactly the keys the bytes hold there; Delete removes exactly those', async () => {
    const { page } = suite.app;
    const upperId = await trackIdOf(page, '上半身');
    await activate(page, upperId);
    await page.keyboard.press('r');
    await page.waitForSelector('[data-testid="range-bar"]');
    await page.fill('[data-testid="range-from"]', '100');
    await page.fill('[data-testid="range-to"]', '400');
    await page.selectOption('[data-testid="range-tracks"]', 'active');
    await page.click('[data-testid="range-select"]');
    const want = upper.filter((k) => k.frame >= 100 && k.frame <= 400).map((k) => k.record).sort((a, b) => a - b);
    expect(want.length).toBeGreaterThan(3);
    expect(await selectionRecords(page)).toEqual(want);
    expect((await page.textContent('[data-testid="selection-count"]'))?.trim()).toContain(String(want.length));
    await suite.app.screenshot('timeline-nav-range-upper');

    // All tracks over the same frames: every bone and morph key the bytes hold in 100..400.
    await page.selectOption('[data-testid="range-tracks"]', 'all');
    await page.click('[data-testid="range-select"]');
    expect(await selectionRecords(page, 'bone')).toEqual(keys.filter((k) => k.kind === 'bone' && k.frame >= 100 && k.frame <= 400).map((k) => k.record));
    expect(await selectionRecords(page, 'morph')).toEqual(keys.filter((k) => k.kind === 'morph' && k.frame >= 100 && k.frame <= 400).map((k) => k.record));

    // A range far from the view (2400–2600): the timeline scrolls to show the selection.
    await page.fill('[data-testid="range-from"]', '2400');
    await page.fill('[data-testid="range-to"]', '2600');
    const before = await viewNow(page);
    const firstFar = Math.min(...keys.filter((k) => k.frame >= 2400 && k.frame <= 2600).map((k) => k.frame));
    expect(firstFar).toBeGreaterThan(before.fs + before.width / before.ppf); // off screen to the right
    await page.click('[data-testid="range-select"]');
    const far = await viewNow(page);
    const x = far.left + (firstFar - far.fs) * far.ppf;
    expect(x).toBeGreaterThanOrEqual(far.left);
    expect(x).toBeLessThanOrEqual(far.left + far.width);
    // The whole selection fits at this zoom, so all of it is in view (its last key too, not only the first).
    const lastFar = Math.max(...keys.filter((k) => k.frame >= 2400 && k.frame <= 2600).map((k) => k.frame));
    expect(lastFar - firstFar).toBeLessThan(0.9 * (far.width / far.ppf));
    const xl = far.left + (lastFar - far.fs) * far.ppf;
    expect(xl).toBeLessThanOrEqual(far.left + far.width);
    expect(xl).toBeGreaterThanOrEqual(far.left);
    // A range that starts just inside the right edge and runs on past it (the first key in view, the rest
    // not): the view moves to show all of it.
    await seek(page, 1000); // a view in the middle of the dance, the same whatever range select did
    const mid = await viewNow(page);
    const spanFrames = mid.width / mid.ppf;
    const edgeFrom = Math.floor(mid.fs + spanFrames - 8), edgeTo = Math.floor(edgeFrom + 0.6 * spanFrames);
    const inEdge = keys.filter((k) => k.frame >= edgeFrom && k.frame <= edgeTo).map((k) => k.frame);
    const [ef, el] = [Math.min(...inEdge), Math.max(...inEdge)];
    expect(el - ef).toBeGreaterThan(0.3 * spanFrames);
    await page.fill('[data-testid="range-from"]', String(edgeFrom));
    await page.fill('[data-testid="range-to"]', String(edgeTo));
    await page.click('[data-testid="range-select"]');
    const edge = await viewNow(page);
    for (const f of [ef, el]) {
      const xf = edge.left + (f - edge.fs) * edge.ppf;
      expect(xf, `frame ${f}`).toBeGreaterThanOrEqual(edge.left);
      expect(xf, `frame ${f}`).toBeLessThanOrEqual(edge.left + edge.width);
    }
    await page.fill('[data-testid="range-from"]', '100');
    await page.fill('[data-testid="range-to"]', '400');

    // Back to 上半身 only, then Delete: the document loses exactly those records, the rest in order.
    await page.selectOption('[data-testid="range-tracks"]', 'active');
    await page.click('[data-testid="range-select"]');
    await page.click('[data-testid="delete-keys"]');
    const after = new Uint8Array(Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64'));
    const left = rawKeys(after).filter((k) => k.kind === 'bone');
    const gone = new Set(want);
    const kept = keys.filter((k) => k.kind === 'bone' && !gone.has(k.record));
    expect(left.length).toBe(kept.length);
    expect(left.map((k) => `${k.name}@${k.frame}`)).toEqual(kept.map((k) => `${k.name}@${k.frame}`));
    await page.keyboard.press('Control+z');
    await page.waitForFunction((n) => {
      const b = window.__vmdEditor!.bytes();
      return !!b && atob(b).length === n;
    }, bytes.length);
    expect(suite.app.errors).toEqual([]);
  });

  it('↑/↓ make the track row below / above active (scrolled into view, its bone marked in the preview), as in MMD', async () => {
    const { page } = suite.app;
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const activeRow = () => page.evaluate(() => document.querySelector('[data-testid="track-list"] .row.active')?.getAttribute('data-testid') ?? null);
    const scrollY = async () => Number(await page.getAttribute('[data-testid="timeline-canvas"]', 'data-scroll-y'));
    const start = await trackIdOf(page, '上半身');
    await activate(page, start);
    expect(await activeRow()).toBe(start);
    // The track rows listed below 上半身 (groups are no rows to stop on), top to bottom as shown now.
    const below = async (from: string) => {
      const ids = (await listedRows(page)).map(([id]) => id).filter((id) => id.startsWith('track-') && id !== 'track-camera-add');
      return ids[ids.indexOf(from) + 1];
    };
    const listBox = (await page.locator('[data-testid="track-list"]').boundingBox())!;
    const scroll0 = await scrollY();
    const visited = [start];
    const names = ['上半身'];
    let marked = 0;
    // Far enough down that the list has to scroll (more rows than it shows at once).
    const shownAtOnce = Math.ceil(listBox.height / 22);
    for (let i = 0; i < shownAtOnce + 4; i++) {
      const from = visited[visited.length - 1];
      const want = await below(from);
      expect(want, `a row below ${from}`).toBeTruthy();
      await page.keyboard.press('ArrowDown');
      await page.waitForFunction((id) => document.querySelector('[data-testid="track-list"] .row.active')?.getAttribute('data-testid') === id, want);
      visited.push(want);
      // Scrolled into view: the row lies inside the list.
      const box = (await page.locator(`[data-testid="${want}"]`).boundingBox())!;
      expect(box.y, want).toBeGreaterThanOrEqual(listBox.y);
      expect(box.y + box.height, want).toBeLessThanOrEqual(listBox.y + listBox.height + 0.5);
      // The preview marks the row's bone, as a click on the row does (when the built-in figure has it).
      const name = (await page.textContent(`[data-testid="${want}"] .name`))!.trim();
      names.push(name);
      if (want.startsWith('track-bone:') && (await page.evaluate((n) => window.__vmdPreview!.boneScreenPosition(n) !== null, name))) {
        await page.waitForFunction((n) => window.__vmdPreview!.marker().bone === n, name);
        marked++;
      }
    }
    expect(await scrollY()).toBeGreaterThan(scroll0);
    expect(marked).toBeGreaterThan(3);
    const name = names[1];
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction((id) => document.querySelector('[data-testid="track-list"] .row.active')?.getAttribute('data-testid') === id, visited[visited.length - 2]);
    for (let i = visited.length - 3; i >= 1; i--) await page.keyboard.press('ArrowUp');
    await page.waitForFunction((id) => document.querySelector('[data-testid="track-list"] .row.active')?.getAttribute('data-testid') === id, visited[1]);
    if (await page.evaluate((n) => window.__vmdPreview!.boneScreenPosition(n) !== null, name)) await page.waitForFunction((n) => window.__vmdPreview!.marker().bone === n, name);
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction((id) => document.querySelector('[data-testid="track-list"] .row.active')?.getAttribute('data-testid') === id, start);
    const box = (await page.locator(`[data-testid="${start}"]`).boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(listBox.y);
    await suite.app.screenshot('timeline-nav-arrow-rows');
  });

  it('PageDown / PageUp move the playhead and the view a page of frames forward / back (the playhead keeps its place on screen)', async () => {
    const { page } = suite.app;
    await seek(page, 100);
    // Zoomed in far enough that a page from frame 100 stays inside the motion.
    while ((await viewNow(page)).width / (await viewNow(page)).ppf > 600) {
      await page.keyboard.press('+');
      await animationFrames(page);
    }
    const v0 = await viewNow(page);
    const span = v0.width / v0.ppf;
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => window.__vmdEditor!.frame().frame !== 100);
    await animationFrames(page);
    const v1 = await viewNow(page);
    const moved = v1.frame - 100;
    // One page: the frames the view shows (whole frames), and the view by as many.
    expect(moved).toBeGreaterThanOrEqual(Math.floor(span) - 1);
    expect(moved).toBeLessThanOrEqual(Math.ceil(span));
    expect(v1.fs - v0.fs).toBeCloseTo(moved, 6);
    expect(Math.abs(v1.x - v0.x)).toBeLessThanOrEqual(1);
    await page.keyboard.press('PageUp');
    await page.waitForFunction(() => window.__vmdEditor!.frame().frame === 100);
    await animationFrames(page);
    const v2 = await viewNow(page);
    expect(v2.fs).toBeCloseTo(v0.fs, 6);
    // At the start the playhead stops at 0 and the view shows it.
    await page.keyboard.press('PageUp');
    await page.waitForFunction(() => window.__vmdEditor!.frame().frame === 0);
    const v3 = await viewNow(page);
    expect(v3.x).toBeGreaterThanOrEqual(v3.left);
    expect(v3.x).toBeLessThanOrEqual(v3.left + v3.width);
    expect(suite.app.errors).toEqual([]);
  });
});

describe('timeline navigation on a generated 36 MB motion', () => {
  const suite = appForSuite({ viewport: { width: 1600, height: 900 } });
  let file = '';
  let keys: RawKey[] = [];

  it('follows 5 s of playback scrolling smoothly, jumps to the next key and range-selects 上半身 100–400 from the bytes', async () => {
    // 100 bones × 3,240 keys (every third frame), 36 MB: the motion the open-speed test uses.
    const names = ['センター', '上半身', '下半身', '首', '頭', '左腕', '右腕', '左ひじ', '右ひじ', '左足', '右足', '左ひざ', '右ひざ'];
    for (let i = names.length; i < 100; i++) names.push(`ボーン${String(i).padStart(3, '0')}`);
    const nameBytes = names.map((n) => nameField(n, 15, 'bone'));
    const ip = buildBoneInterpolation([[20, 20, 107, 107], [20, 20, 107, 107], [64, 0, 64, 127], [90, 10, 30, 117]]);
    const recs: Uint8Array[] = [];
    for (let b = 0; b < names.length; b++) {
      for (let i = 0; i < 3240; i++) {
        const a = (i * 0.1 + b) % (2 * Math.PI);
        recs.push(encodeBoneRecord({ name: nameBytes[b], frame: i * 3, position: [Math.sin(a), 0, 0], rotation: [0, Math.sin(a / 2), 0, Math.cos(a / 2)], interpolation: ip }));
      }
    }
    const bytes = writeVmd({ ...emptyVmd('synthetic'), bone: blockFromRecords('bone', recs) });
    expect(bytes.length).toBeGreaterThan(35_900_000);
    file = path.join(suite.tmp.dir, 'synthetic-36mb.vmd');
    writeFileSync(file, bytes);
    keys = rawKeys(bytes);

    const { page } = suite.app;
    await openFileViaDialog(page, file);
    await animationFrames(page);
    await page.click('[data-testid="follow-mode"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="follow-mode"]')?.getAttribute('data-mode') === 'smooth');
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('+');
    const samples = await playAndSample(page, 5000);
    expectFollowed(samples);
    // Smooth: once past the middle the playhead stays there (within a frame's worth of drift per sample).
    const late = samples.filter((s) => s.frame > samples[0].span);
    expect(late.length).toBeGreaterThan(5);
    for (const s of late) expect(Math.abs(s.frame - (s.fs + s.span / 2))).toBeLessThan(s.span * 0.1);
    await suite.app.screenshot('timeline-nav-36mb-smooth');

    const upper = keys.filter((k) => k.name === hexOf(UPPER));
    const upperId = await trackIdOf(page, '上半身');
    await activate(page, upperId);
    await seek(page, 100);
    await page.keyboard.press(']');
    expect(await frameNow(page)).toBe(framesOf(upper).find((f) => f > 100));
    await page.keyboard.press('[');
    expect(await frameNow(page)).toBe(framesOf(upper).filter((f) => f < 102).pop());

    await page.click('[data-testid="range-toggle"]');
    await page.fill('[data-testid="range-from"]', '100');
    await page.fill('[data-testid="range-to"]', '400');
    await page.selectOption('[data-testid="range-tracks"]', 'active');
    await page.click('[data-testid="range-select"]');
    const want = upper.filter((k) => k.frame >= 100 && k.frame <= 400).map((k) => k.record);
    expect(want).toHaveLength(100);
    expect(await selectionRecords(page)).toEqual(want);
    // Fit the selection: the first and last selected key are inside the view.
    await page.keyboard.press('Shift+F');
    await animationFrames(page);
    const v = await viewNow(page);
    expect(v.fs).toBeLessThanOrEqual(102);
    expect(v.fs + v.width / v.ppf).toBeGreaterThanOrEqual(399);
    expect(v.width / v.ppf).toBeLessThan(400);
    await suite.app.screenshot('timeline-nav-36mb-range');
    expect(suite.app.errors).toEqual([]);
  });
});

describe('camera cuts in the timeline', () => {
  const suite = appForSuite({ viewport: { width: 1600, height: 900 } });
  const CAMERA_FILE = corpusPath('threejs/vmds/wavefile_camera.vmd');

  it('zoomed out, a click on a cut selects the key clicked alone; a press takes both keys and a drag moves the cut whole', async () => {
    const { page } = suite.app;
    const file = path.join(suite.tmp.dir, 'camera.vmd');
    writeFileSync(file, readFileSync(CAMERA_FILE));
    await openFileViaDialog(page, file);
    await page.click('[data-testid="zoom-fit"]');
    await animationFrames(page);
    const cams = rawKeys(new Uint8Array(readFileSync(CAMERA_FILE))).filter((k) => k.kind === 'camera');
    const frames = framesOf(cams);
    const cut = frames.find((f, i) => i > 0 && f - frames[i - 1] === 1)!;
    const first = cut - 1;
    const ppf = await page.evaluate(() => Number((document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement).dataset.pxPerFrame));
    expect(ppf).toBeLessThan(6);
    const kp = await keyPoint(page, 'track-camera', first);
    await page.mouse.click(kp.x, kp.y);
    const recs = cams.filter((k) => k.frame === first || k.frame === cut).map((k) => k.record).sort((a, b) => a - b);
    // Issue 30: a click selects one key (a curve edit then reaches only the key whose segment it shapes).
    const clicked = await selectionRecords(page, 'camera');
    expect(clicked).toHaveLength(1);
    expect(recs).toContain(clicked[0]);
    // Pressed again and dragged 20 frames on: both keys move, still one frame apart.
    const undo0 = (await page.evaluate(() => window.__vmdEditor!.history())).undo;
    await page.mouse.move(kp.x, kp.y);
    await page.mouse.down();
    await page.mouse.move(kp.x + 20 * ppf, kp.y, { steps: 6 });
    await page.mouse.up();
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, undo0);
    const moved = rawKeys(new Uint8Array(Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64'))).filter((k) => k.kind === 'camera');
    const byRecord = new Map(moved.map((k) => [k.record, k.frame]));
    const d = byRecord.get(recs[0])! - first;
    expect(d).toBeGreaterThan(10);
    expect(byRecord.get(recs[1])! - cut).toBe(d);
  });
});
