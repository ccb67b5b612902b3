/**
 * Open and save speed of the editor in Chromium through the browser mode: a corpus
 * dance (wavefile_v2.vmd, 1.6 MB) and a generated 36 MB / 324,000-key motion, each opened three times
 * through the UI's own open flow (toolbar Open → in-app dialog → path → Go), then the 36 MB one saved
 * through Save As and compared byte for byte.
 *
 * "Open to first interactive frame" is measured in the page's clock and defined as:
 *   start = the timeStamp of the click event on the dialog's Go button (captured before the app sees it);
 *   end   = the requestAnimationFrame callback in which the key inspector first shows a key that a real
 *           mouse click (Playwright → Chromium input) on the timeline selected, where that click was
 *           made as soon as (a) the summary shows the new file's name, (b) the track list shows the
 *           chosen bone's row and (c) the timeline canvas has drawn key diamonds on that row (pixels read back).
 * So the figure covers the request, the bytes over HTTP, readVmd, buildTracks, the summary, track-list
 * and timeline paints, the round trip of the click and the selection/inspector update. Between runs a
 * keyless VMD is opened, so a row or a diamond seen on screen can only belong to the document being timed (the
 * question asked when a file is opened over it, "open it on its own", is answered by the page as it shows).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blockFromRecords,
  buildBoneInterpolation,
  buildTracks,
  emptyVmd,
  encodeBoneRecord,
  nameField,
  readVmd,
  writeVmd,
} from '../../shared/vmd';
import { groupBones } from '../../shared/key-edits';
import { corpusPath, fileDialogReady, openApp, openFileViaDialog, tempDir, textOf, type AppHandle } from './harness';

/** The targets (1 s for a corpus dance, 5 s for 36 MB): printed beside the figures, not asserted (issue 30). */
const SMALL_TARGET_MS = 1000;
const BIG_TARGET_MS = 5000;
const RUNS = 3;

interface OpenRun {
  total: number;
  /** Go click → the openFile answer's first byte (dialog closing, request, file read in main). */
  firstByte: number;
  /** First byte → the whole answer received (the bytes over HTTP). */
  body: number;
  /** Response received → rows and diamonds on screen (decode, readVmd, buildTracks, summary, paints). */
  toDrawn: number;
  /** Diamonds on screen → the clicked key shown in the inspector (click round trip, selection, paint). */
  toSelected: number;
  frame: number;
}

/** The first displayed bone track (first track of the first frame group) and its key frames. */
function firstDisplayedTrack(bytes: Uint8Array) {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  const b = buildTracks(r.value).bones;
  const track = groupBones(b.names)[0].tracks[0];
  return { track, name: b.names[track], frames: new Set(b.frames.subarray(b.start[track], b.start[track + 1])) };
}

/**
 * Opens `file` through the in-app dialog and returns the timings defined at the top of this file.
 * Clicks the first key diamond drawn on the row of `track` and checks the inspector shows a key of it.
 */
async function timedOpen(page: Page, file: string, want: { track: number; name: string; frames: Set<number> }): Promise<OpenRun> {
  await page.click('[data-testid="cmd-open"]');
  await fileDialogReady(page);
  await page.fill('[data-testid="file-dialog-path"]', file);
  await page.evaluate(() => {
    const w = window as unknown as { __goAt: number | null };
    w.__goAt = null;
    performance.clearResourceTimings();
    document.addEventListener(
      'click',
      (e) => {
        if ((e.target as Element | null)?.closest?.('[data-testid="file-dialog-go"]')) w.__goAt = e.timeStamp;
      },
      { capture: true, once: true },
    );
  });
  // Opened over the keyless motion, the app asks whether the file goes into the scene (shell/pose-apply.ts):
  // answered "open it on its own" by the page itself the moment it shows, so the figure stays the app's.
  await page.evaluate(() => {
    const answer = new MutationObserver(() => {
      const b = document.querySelector<HTMLElement>('[data-testid="confirm-discard"]');
      if (!b) return;
      answer.disconnect();
      b.click();
    });
    answer.observe(document.body, { childList: true, subtree: true });
  });
  await page.click('[data-testid="file-dialog-go"]');
  // Polled in animation frames: the first frame where the document is on screen, rows and diamonds included.
  const drawn = await page.waitForFunction(
    ({ name, track }) => {
      if (!document.querySelector('[data-testid="summary-name"]')?.textContent?.includes(name)) return false;
      const row = document.querySelector(`[data-testid="track-bone:${track}"]`);
      const cv = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement | null;
      if (!row || !cv) return false;
      const rc = cv.getBoundingClientRect();
      const rr = row.getBoundingClientRect();
      const y = rr.top + rr.height / 2 - rc.top;
      if (y < 0 || y >= rc.height) return false;
      const scale = cv.width / rc.width;
      const line = cv.getContext('2d')!.getImageData(0, Math.floor(y * scale), cv.width, 1).data;
      // A normal key diamond is #b9c4d6; take the middle of the first run of it away from the frame-0
      // cursor (a key there is half hidden, and clicking it would not move the time).
      const fs = Number(cv.dataset.frameStart), ppf = Number(cv.dataset.pxPerFrame);
      const cursor = -fs * ppf;
      let start = -1;
      for (let x = 0; x < cv.width; x++) {
        const i = x * 4;
        const isKey = Math.abs(line[i] - 0xb9) < 6 && Math.abs(line[i + 1] - 0xc4) < 6 && Math.abs(line[i + 2] - 0xd6) < 6;
        if (isKey && start < 0) start = x;
        if (!isKey && start >= 0) {
          const cx = (start + x - 1) / 2 / scale;
          start = -1;
          if (Math.abs(cx - cursor) < 8) continue;
          return { at: performance.now(), x: rc.left + cx, y: rr.top + rr.height / 2, frameAt: fs + cx / ppf, tolerance: 6 / ppf + 1 };
        }
      }
      return false;
    },
    { name: path.basename(file), track: want.track },
    { polling: 'raf', timeout: 60_000 },
  );
  const d = (await drawn.jsonValue()) as { at: number; x: number; y: number; frameAt: number; tolerance: number };
  await page.mouse.click(d.x, d.y);
  const selected = await page.waitForFunction(
    ({ name, frameAt, tolerance }) => {
      const n = document.querySelector('[data-testid="inspector-name"]')?.textContent?.trim();
      const f = (document.querySelector('[data-testid="inspector-frame"]') as HTMLInputElement | null)?.value;
      return n === name && f && Math.abs(Number(f) - frameAt) <= tolerance ? { at: performance.now(), frame: Number(f) } : false;
    },
    { name: want.name, frameAt: d.frameAt, tolerance: d.tolerance },
    { polling: 'raf', timeout: 30_000 },
  );
  const s = (await selected.jsonValue()) as { at: number; frame: number };
  const t = await page.evaluate(() => {
    const e = performance.getEntriesByType('resource').filter((r) => r.name.includes('/api/call/openFile')).pop() as PerformanceResourceTiming | undefined;
    return { goAt: (window as unknown as { __goAt: number | null }).__goAt, responseStart: e?.responseStart ?? NaN, responseEnd: e?.responseEnd ?? NaN };
  });
  if (t.goAt === null) throw new Error('the Go click was not seen');
  // The click selected a real key of that bone, the one under the pointer.
  expect(want.frames.has(s.frame), `inspector frame ${s.frame} is a key of ${want.name}`).toBe(true);
  expect(s.frame).toBeGreaterThan(0);
  expect(Math.abs(s.frame - d.frameAt)).toBeLessThanOrEqual(d.tolerance);
  return {
    total: s.at - t.goAt,
    firstByte: t.responseStart - t.goAt,
    body: t.responseEnd - t.responseStart,
    toDrawn: d.at - t.responseEnd,
    toSelected: s.at - d.at,
    frame: s.frame,
  };
}

/** Opens the keyless motion between timed runs (on failure the harness says what the page showed). */
async function openBlank(app: AppHandle, blank: string): Promise<void> {
  await openFileViaDialog(app.page, blank);
  expect(app.errors).toEqual([]);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function report(label: string, runs: OpenRun[]): number {
  const m = median(runs.map((r) => r.total));
  const fmt = (r: OpenRun) =>
    `${r.total.toFixed(0)} ms (first byte ${r.firstByte.toFixed(0)}, body ${r.body.toFixed(0)}, decode+draw ${r.toDrawn.toFixed(0)}, click→selected ${r.toSelected.toFixed(0)})`;
  console.log(`[perf] open ${label} through the in-app dialog → first interactive frame: median ${m.toFixed(0)} ms; runs: ${runs.map(fmt).join('; ')}`);
  return m;
}

describe('open and save speed in the browser mode', () => {
  let app: AppHandle;
  let tmp: ReturnType<typeof tempDir>;
  let blank: string;
  let bigFile: string;
  let bigBytes: Uint8Array;

  beforeAll(async () => {
    tmp = tempDir('vmd-open-speed-');
    // A keyless motion opened between timed runs: nothing of it can be mistaken for the next document.
    blank = path.join(tmp.dir, 'blank.vmd');
    writeFileSync(blank, writeVmd(emptyVmd('blank')));
    // 100 bones × 3,240 keys = 324,000 keys, 35.96 MB; names encoded once (per record would dominate).
    const names = ['センター', '上半身', '下半身', '首', '頭', '左腕', '右腕', '左ひじ', '右ひじ', '左足', '右足', '左ひざ', '右ひざ'];
    for (let i = names.length; i < 100; i++) names.push(`ボーン${String(i).padStart(3, '0')}`);
    const nameBytes = names.map((n) => nameField(n, 15, 'bone'));
    const ip = buildBoneInterpolation([[20, 20, 107, 107], [20, 20, 107, 107], [64, 0, 64, 127], [90, 10, 30, 117]]);
    const perBone = 3240;
    const recs: Uint8Array[] = [];
    for (let b = 0; b < names.length; b++) {
      for (let i = 0; i < perBone; i++) {
        const a = (i * 0.1 + b) % (2 * Math.PI);
        recs.push(encodeBoneRecord({ name: nameBytes[b], frame: i * 3, position: [Math.sin(a), 0, 0], rotation: [0, Math.sin(a / 2), 0, Math.cos(a / 2)], interpolation: ip }));
      }
    }
    bigBytes = writeVmd({ ...emptyVmd('synthetic'), bone: blockFromRecords('bone', recs) });
    bigFile = path.join(tmp.dir, 'synthetic-36mb.vmd');
    writeFileSync(bigFile, bigBytes);
    app = await openApp({ viewport: { width: 1600, height: 960 } });
  });

  afterAll(async () => {
    await app?.close();
    tmp?.remove();
  });

  it(`opens wavefile_v2.vmd (1.6 MB) to the first interactive frame (median of ${RUNS} reported; target ${SMALL_TARGET_MS} ms)`, async () => {
    const src = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
    const want = firstDisplayedTrack(new Uint8Array(readFileSync(src)));
    const runs: OpenRun[] = [];
    for (let i = 0; i < RUNS; i++) {
      await openBlank(app, blank);
      runs.push(await timedOpen(app.page, src, want));
    }
    await app.screenshot('open-speed-wavefile');
    const small = report('wavefile_v2.vmd (1.6 MB)', runs);
    console.log(`[perf] wavefile_v2 open median ${small.toFixed(0)} ms (target ${SMALL_TARGET_MS} ms, not asserted)`);
    // Each run ended on a key of the chosen track that a real click selected (timedOpen asserts it).
    expect(runs).toHaveLength(RUNS);
    expect(app.errors).toEqual([]);
  });

  it(`opens the generated 36 MB / 324,000-key motion (median of ${RUNS} reported; target ${BIG_TARGET_MS} ms) and saves it through Save As unchanged`, async () => {
    expect(bigBytes.length).toBeGreaterThan(35_900_000);
    const want = firstDisplayedTrack(bigBytes);
    const runs: OpenRun[] = [];
    for (let i = 0; i < RUNS; i++) {
      await openBlank(app, blank);
      runs.push(await timedOpen(app.page, bigFile, want));
    }
    await app.screenshot('open-speed-synthetic-36mb');
    const big = report(`synthetic-36mb.vmd (${(bigBytes.length / 1e6).toFixed(1)} MB, 324,000 keys)`, runs);
    // The summary counts the keys the generator wrote.
    expect(await app.page.getAttribute('[data-testid="count-bone"]', 'data-count')).toBe('324000');

    // Save As: dialog to the folder, type a name, then time from Save to the store reporting the write.
    const { page } = app;
    const target = path.join(tmp.dir, 'saved-36mb.vmd');
    await page.click('[data-testid="cmd-save-as"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', tmp.dir);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForFunction((dir) => (document.querySelector('[data-testid="file-dialog-path"]') as HTMLInputElement)?.value === dir, tmp.dir);
    await page.fill('[data-testid="file-dialog-name"]', path.basename(target));
    const t0 = await page.evaluate(() => performance.now());
    await page.click('[data-testid="file-dialog-accept"]');
    const t1 = (await (
      await page.waitForFunction(
        (name) => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes(name) && performance.now(),
        path.basename(target),
        { polling: 'raf', timeout: 60_000 },
      )
    ).jsonValue()) as number;
    const saveReq = await page.evaluate(() => {
      const e = performance.getEntriesByType('resource').filter((r) => r.name.includes('/api/call/saveFile')).pop() as PerformanceResourceTiming | undefined;
      return e ? e.responseEnd - e.startTime : NaN;
    });
    expect(await textOf(page, 'status-state')).toBe('No unsaved changes');
    const saved = readFileSync(target);
    console.log(`[perf] Save As of the 36 MB motion: ${(t1 - t0).toFixed(0)} ms from the Save click to the saved document shown (saveFile request ${saveReq.toFixed(0)} ms)`);
    expect(saved.length).toBe(bigBytes.length);
    expect(Buffer.compare(saved, Buffer.from(bigBytes.buffer, bigBytes.byteOffset, bigBytes.byteLength))).toBe(0);

    console.log(`[perf] 36 MB open median ${big.toFixed(0)} ms (target ${BIG_TARGET_MS} ms, not asserted)`);
    expect(app.errors).toEqual([]);
  });
});
