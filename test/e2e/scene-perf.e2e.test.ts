/**
 * Playback speed of a scene (issue 13): the two corpus models, each with its own motion, and the camera
 * document looked through, played for 12 frames (VMD_PERF_FRAMES to ask for more, on a GPU machine) in Chromium through the browser mode. Reports our
 * JavaScript per played frame (pose of both actors + scene + render call; the GPU part, SwiftShader here,
 * is not in it) and the frame interval, medians and p95, with the machine's load, against issue 13's 4 ms
 * median; the figure is reported, not asserted (issue 30). Then the same with physics on (issue 26 §3: both
 * models have rigid bodies, each its own Bullet world, stepped on the page's main thread): the physics step's
 * JavaScript per frame (both worlds, Bullet's wasm included), median and p95, and the frame rate, beside the
 * figures with physics off. Asserted: both actors posed and shown, frames played, both worlds stepped while
 * playing with physics on, no page errors. Runs on its own (`npx vitest run --project e2e
 * test/e2e/scene-perf.e2e.test.ts`), so it can be run on a machine with a GPU.
 */
import { loadavg } from 'node:os';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, openSceneViaDialog, writeDuetScene } from './harness';

const BUDGET_JS_MS = 4;
/** Frames per measurement: 12 in the suite (about 5 s each on SwiftShader here); more where the figure is the point. */
const FRAMES = Number(process.env.VMD_PERF_FRAMES) || 12;

describe('scene playback speed (browser mode)', () => {
  const s = appForSuite();

  it('two actors and a camera: our JavaScript per frame', async () => {
    const { page } = s.app;
    const dir = s.tmp.dir;
    const scenePath = writeDuetScene(dir, [{ model: corpusPath('gene/Gene_light.pmx') }, { model: corpusPath('mmd-viewer-js/model/low_miku/miku.pmd') }], 'perf.vmdscene');
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => window.__vmdPreview?.companions().length === 1 && window.__vmdPreview.info().model !== null, undefined, { timeout: 60_000 });
    await page.check('[data-testid="preview-look-through"]');
    const f = (x: { median: number; p95: number }) => `median ${x.median.toFixed(2)} ms, p95 ${x.p95.toFixed(2)} ms`;
    /** One measurement: play until FRAMES frames were shown (or 20 s), then read the breakdown. */
    const measure = async () => {
      await page.evaluate(() => window.__vmdPreview!.resetPerf());
      await page.click('[data-testid="preview-play"]');
      await page.waitForFunction((n) => window.__vmdPreview!.breakdown().js.n >= n, FRAMES, { timeout: 20_000 }).catch(() => undefined);
      const b = await page.evaluate(() => ({ ...window.__vmdPreview!.breakdown(), gpu: window.__vmdPreview!.gpu() }));
      await page.click('[data-testid="preview-play"]');
      console.log(
        [
          `scene playback, two actors (Gene_light.pmx + laugh.vmd, miku.pmd + wavefile_v2.vmd) and the camera looked through, ${b.gpu} GL, load ${loadavg()[0].toFixed(2)}:`,
          `  our JS per frame ${f(b.js)} over ${b.js.n} frames (max ${b.js.max.toFixed(2)}): pose of the shown actor ${f(b.pose)}, render call ${f(b.render)}`,
          `  frame interval ${f(b.interval)} (≈${(1000 / b.interval.median).toFixed(0)} fps; includes the software rasteriser here)`,
        ].join('\n'),
      );
      return b;
    };
    const b = await measure();
    console.log(`[perf] scene JS per frame median ${b.js.median.toFixed(2)} ms (issue 13's target under ${BUDGET_JS_MS} ms, not asserted)`);
    expect(b.js.n).toBeGreaterThan(5);
    expect(await page.evaluate(() => window.__vmdPreview!.companions().length)).toBe(1);

    // Physics on: both models' worlds built (Bullet's wasm loaded in the page), then the same number of frames.
    await page.click('[data-testid="preview-physics"]');
    await page.waitForFunction(() => window.__vmdPreview!.physics().ready, undefined, { timeout: 30_000 });
    const before = await page.evaluate(() => window.__vmdPreview!.physics().actors.map((a) => ({ steps: a.steps, simulated: a.simulated })));
    const steps0 = before.map((a) => a.steps);
    const p = await measure();
    const ph = await page.evaluate(() => window.__vmdPreview!.physics());
    const stat = (v: number[]) => {
      const s = [...v].sort((x, y) => x - y);
      return { n: s.length, median: s[Math.floor(s.length / 2)] ?? 0, p95: s[Math.min(s.length - 1, Math.floor(0.95 * s.length))] ?? 0 };
    };
    const st = stat(ph.stepMs);
    const fps = (x: { interval: { median: number } }) => (1000 / x.interval.median).toFixed(1);
    console.log(`[perf] scene physics step JS per frame (two worlds: ${ph.actors.map((a) => `${a.bodies} bodies`).join(' + ')}, main thread): median ${st.median.toFixed(2)} ms, p95 ${st.p95.toFixed(2)} ms over ${st.n} frames`);
    // A slow display runs several frames of physics per drawn frame: the cost per 1/30 s of simulated time too.
    const simFrames = 30 * (ph.actors[0].simulated - before[0].simulated);
    const total = ph.stepMs.reduce((a, b) => a + b, 0);
    console.log(`[perf] scene physics per simulated frame (1/30 s, both worlds): ${(total / Math.max(simFrames, 1)).toFixed(2)} ms (${simFrames.toFixed(0)} frames of physics over ${st.n} drawn frames)`);
    console.log(`[perf] scene JS per frame physics off median ${b.js.median.toFixed(2)} ms p95 ${b.js.p95.toFixed(2)} ms; on median ${p.js.median.toFixed(2)} ms p95 ${p.js.p95.toFixed(2)} ms (render call off ${b.render.median.toFixed(2)} / on ${p.render.median.toFixed(2)} ms)`);
    console.log(`[perf] scene frame rate (${p.gpu} GL, rasteriser included) physics off ${fps(b)} fps, on ${fps(p)} fps; frame interval median off ${b.interval.median.toFixed(1)} ms, on ${p.interval.median.toFixed(1)} ms`);
    expect(st.n).toBeGreaterThan(5);
    // Both worlds stepped while playing.
    ph.actors.forEach((a, i) => expect(a.steps).toBeGreaterThan(steps0[i]));
    expect(ph.actors.length).toBe(2);
    expect(s.app.errors).toEqual([]);
  }, 240_000);
});
