/**
 * Playback speed of the 3D preview in Chromium (WebGL through SwiftShader, a software rasteriser, on a
 * shared 2-core machine): 2 s (VMD_PERF_MS) of wavefile_v2.vmd on the default figure and on Gene_light.pmx, measured
 * as frame intervals (median and 95th percentile), with our JavaScript per frame split into pose,
 * scene and the three.js render call, and — in a separate measurement pass that waits for the GPU after
 * each render — rasterisation on its own. Every figure is printed with the load average next to it and
 * compared with the 60 fps budget in the report; none decides the test (issue 30: 4.30 ms against
 * < 4.167 failed a good change on a loaded machine). Asserted is what is exact: one render per played
 * frame (no redundant render), the presentation mode, the buffer size paused, the resolution note.
 */
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { corpusPath, fileDialogReady, openApp, openFileViaDialog, screenshot, type AppHandle } from './harness';
import type { FrameBreakdown, Stat } from '../../renderer/src/preview/frame-profiler';

const WAVE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const GENE = corpusPath('gene/Gene_light.pmx');
/**
 * How long each pass plays: 2 s (1.2 s in the pass that waits for the GPU after each render) in the suite, where
 * it runs alone after the other e2e files and every second is the suite's; VMD_PERF_MS for longer passes on a
 * machine with a GPU, where the figure is the point.
 */
const PLAY_MS = Number(process.env.VMD_PERF_MS) || 2000;
const SYNC_MS = Math.round(0.6 * PLAY_MS);
/** The 60 fps frame budget. */
const BUDGET_MS = 1000 / 60;

const fmt = (s: Stat) => `median ${s.median.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms`;
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

/**
 * Opens the app again with the measurement switches as URL options (`?syncGpu=1`: wait for the GPU
 * after each render; `?adaptive=off`: full resolution throughout), then the motion, and waits for the
 * preview model the settings remember (none: the default figure).
 */
async function reload(app: AppHandle, opts: { syncGpu?: boolean; adaptive?: boolean }, model: RegExp | null): Promise<void> {
  const { page } = app;
  const url = new URL(app.url);
  if (opts.syncGpu) url.searchParams.set('syncGpu', '1');
  if (!opts.adaptive) url.searchParams.set('adaptive', 'off');
  await page.goto(url.href);
  await page.waitForSelector('[data-ready="true"]', { timeout: 30_000 });
  await openFileViaDialog(page, WAVE);
  if (model) await modelShown(page, model);
}

/** Waits until the preview shows a model whose name matches and has finished loading it. */
async function modelShown(page: Page, name: RegExp): Promise<void> {
  await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid="preview-model-name"]')?.textContent ?? ''), name.source, { timeout: 60_000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid="preview-pane"]')?.textContent?.includes('Loading model'), null, { timeout: 60_000 });
}

async function play(app: AppHandle, ms: number, opts: { syncGpu?: boolean; adaptive?: boolean; shot?: string }, model: RegExp | null): Promise<FrameBreakdown & { buffer: [number, number]; note: string | null; presentation: string }> {
  await reload(app, opts, model);
  const { page } = app;
  await page.evaluate(() => window.__vmdPreview!.resetPerf());
  await page.click('[data-testid="preview-play"]');
  await page.waitForTimeout(ms);
  // Read while still playing: the buffer size is the one playback ended at.
  const out = await page.evaluate(() => ({
    ...window.__vmdPreview!.breakdown(),
    presentation: window.__vmdPreview!.presentation().mode,
    buffer: window.__vmdPreview!.bufferSize(),
    note: document.querySelector('[data-testid="preview-scale"]')?.textContent ?? null,
  }));
  if (opts.shot) await screenshot(page, opts.shot);
  await page.click('[data-testid="preview-play"]');
  // On software GL playback shows each frame as it is drawn (blocking), anything else asynchronously.
  const paused = await page.evaluate(() => window.__vmdPreview!.presentation().mode);
  expect([out.presentation, paused]).toEqual(out.presentation === 'page' ? ['page', 'page'] : ['blocking', 'async']);
  return out;
}

describe('3D preview playback speed', () => {
  let app: AppHandle;
  const report: string[] = [];

  beforeAll(async () => {
    app = await openApp({ viewport: { width: 1440, height: 900 } });
  });
  afterAll(async () => {
    console.log(report.join('\n'));
    await app?.close();
  });

  async function measure(label: string, shot: string, model: RegExp | null) {
    const { page } = app;
    const full = await play(app, PLAY_MS, { adaptive: false }, model);
    report.push(`${label} [load ${load()}], full resolution ${full.buffer.join('×')}:`);
    report.push(`  frame interval ${fmt(full.interval)} over ${full.interval.n} frames (≈${(1000 / full.interval.median).toFixed(0)} fps)`);
    report.push(`  our JS per frame ${fmt(full.js)} (max ${full.js.max.toFixed(2)}; budget: median under ${(BUDGET_MS / 4).toFixed(3)}, p95 under ${BUDGET_MS.toFixed(3)}, not asserted) = pose ${fmt(full.pose)} + scene ${fmt(full.scene)} + render call ${fmt(full.render)}; Vue/UI after seek ${fmt(full.ui)}`);
    report.push(`  renders ${full.renders} for ${full.interval.n + 1} played frames; ${full.calls} draw calls, ${full.triangles} triangles per render`);
    const sync = await play(app, SYNC_MS, { syncGpu: true, adaptive: false }, model);
    report.push(`  measurement mode (wait for GPU after each render) [load ${load()}]: rasterisation ${fmt(sync.gpu)}; render call ${fmt(sync.render)}; interval ${fmt(sync.interval)}`);
    const adaptive = await play(app, PLAY_MS, { adaptive: true, shot }, model);
    report.push(`  adaptive resolution on [load ${load()}]: ended at scale ${adaptive.scale} (${adaptive.buffer.join('×')}); frame interval ${fmt(adaptive.interval)} (≈${(1000 / adaptive.interval.median).toFixed(0)} fps); our JS ${fmt(adaptive.js)}`);
    // A lowered resolution is said in the pane while playing; paused, full resolution again and no note.
    if (adaptive.scale < 1) expect(adaptive.note).toContain(`${Math.round(adaptive.scale * 100)}% resolution`);
    else expect(adaptive.note).toBeNull();
    expect(full.note).toBeNull();
    const pausedBuffer = await page.evaluate(() => window.__vmdPreview!.bufferSize());
    expect(pausedBuffer).toEqual(full.buffer);
    expect(await page.isVisible('[data-testid="preview-scale"]')).toBe(false);
    return { full, sync, adaptive };
  }

  it('default figure: one render per played frame; JavaScript per frame reported', async () => {
    const { full, sync } = await measure('default figure', 'preview-perf-figure-playing', null);
    expect(full.interval.n).toBeGreaterThan(5);
    // One render per played frame (no second, redundant render of the same pose).
    expect(full.renders).toBeLessThanOrEqual(full.interval.n + 2);
    expect(full.js.n).toBeGreaterThan(0);
    expect(sync.gpu.n).toBeGreaterThan(2);
  });

  it('Gene_light.pmx: one render per played frame; JavaScript per frame reported', async () => {
    const { page } = app;
    await page.click('[data-testid="preview-open-model"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', GENE);
    await page.click('[data-testid="file-dialog-go"]');
    await modelShown(page, /ジェネ/);
    // Each pass opens the app again (its switches are URL options); the settings reopen the model.
    const { full, adaptive } = await measure('Gene_light.pmx', 'preview-perf-gene-playing', /ジェネ/);
    expect(full.interval.n).toBeGreaterThan(2);
    expect(full.renders).toBeLessThanOrEqual(full.interval.n + 2);
    // Adaptive resolution only ever lowers the buffer (whether it did is the load's, and is reported).
    expect(adaptive.scale).toBeLessThanOrEqual(1);
    expect(adaptive.scale).toBeGreaterThan(0);
    expect(app.errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });
});
