/**
 * Playback speed of a scene (issue 13): the two corpus models, each with its own motion, and the camera
 * document looked through, played for 40 frames in Chromium through the browser mode. Reports our
 * JavaScript per played frame (pose of both actors + scene + render call; the GPU part, SwiftShader here,
 * is not in it) and the frame interval, medians and p95, with the machine's load, against issue 13's 4 ms
 * median; the figure is reported, not asserted (issue 30). Asserted: both actors posed and shown, frames
 * played, no page errors.
 */
import { loadavg } from 'node:os';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, openSceneViaDialog, writeDuetScene } from './harness';

const BUDGET_JS_MS = 4;

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
    /** One measurement: play until 40 frames were shown (or 20 s), then read the breakdown. */
    const measure = async () => {
      await page.evaluate(() => window.__vmdPreview!.resetPerf());
      await page.click('[data-testid="preview-play"]');
      await page.waitForFunction(() => window.__vmdPreview!.breakdown().js.n >= 40, undefined, { timeout: 20_000 }).catch(() => undefined);
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
    expect(s.app.errors).toEqual([]);
  }, 120_000);
});
