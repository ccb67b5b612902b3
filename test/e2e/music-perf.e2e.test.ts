/**
 * Music speed in Chromium through the browser mode (issue 13): a 4-minute stereo 44.1 kHz song (a 42 MB
 * 16-bit WAV this test writes) is read, decoded and its waveform shown; then the timeline is scrolled and
 * zoomed over it and the waveform's own draw time per frame is measured (each draw covers only the visible
 * columns). The times (issue 13's targets: shown in 2 s, draws under 8 ms, the shown frame within a frame of
 * the sound) are printed, not asserted (issue 30: a loaded machine must not decide a change); what is
 * asserted is exact: the song's length and rate, a redraw for every scroll and zoom step, and during
 * playback every shown frame is the audio clock's frame at the display tick that showed it, never ahead of
 * the sound, with no drift of the clock.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, fileDialogReady, openFileViaDialog } from './harness';
import { pcm16Wav } from '../helpers/wav';

const SR = 44_100;

/** 16-bit PCM stereo: a tone whose loudness and pitch wander, so every column has something to draw. */
function songWav(seconds: number): Uint8Array {
  const n = SR * seconds;
  const pcm = new Int16Array(n * 2);
  for (let i = 0; i < n; i++) {
    const t = i / SR;
    const env = 0.2 + 0.7 * Math.abs(Math.sin(t * 1.7)) * (0.5 + 0.5 * Math.sin(t * 0.13));
    const v = env * Math.sin(2 * Math.PI * (220 + 30 * Math.sin(t * 0.5)) * t);
    pcm[2 * i] = Math.round(32000 * v);
    pcm[2 * i + 1] = Math.round(32000 * v * 0.8);
  }
  return pcm16Wav(pcm, 2, SR);
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)], p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))], max: s[s.length - 1] };
};

describe('music speed', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 900 } });

  it('a 4-minute stereo song is shown in under 2 s; waveform draws stay small while scrolling and zooming', async () => {
    const { page } = s.app;
    const wav = path.join(s.tmp.dir, 'song4min.wav');
    writeFileSync(wav, songWav(240));
    await openFileViaDialog(page, corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'));
    /** Opens the song and waits until its waveform is drawn: the wall time from the click. */
    const showSong = async () => {
      await page.click('[data-testid="music-open"]');
      await fileDialogReady(page);
      await page.fill('[data-testid="file-dialog-path"]', wav);
      const draws0 = Number(await page.getAttribute('[data-testid="waveform"]', 'data-draws'));
      const t0 = Date.now();
      await page.click('[data-testid="file-dialog-go"]');
      await page.waitForSelector('[data-testid="waveform"][data-loaded="true"]', { timeout: 30_000 });
      await page.waitForFunction((n) => Number(document.querySelector('[data-testid="waveform"]')!.getAttribute('data-draws')) > n, draws0);
      const ms = Date.now() - t0;
      const tm = await page.evaluate(() => window.__vmdMusic!.timings());
      console.log(`4-min stereo 44.1 kHz WAV (42 MB): shown after ${ms} ms (read through main ${tm.readMs.toFixed(0)} ms, decode ${tm.decodeMs.toFixed(0)} ms, pyramid ${tm.pyramidMs.toFixed(0)} ms)`);
      return ms;
    };
    // Reported against issue 13's 2 s target, not asserted (issue 30).
    const shownMs = await showSong();
    console.log(`[perf] 4-min song shown in ${shownMs} ms (target 2000 ms, not asserted)`);
    const st = await page.evaluate(() => window.__vmdMusic!.state());
    expect(st.duration).toBeCloseTo(240, 1);
    expect(st.sampleRate).toBe(SR);

    const box = (await page.locator('[data-testid="waveform"]').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const drawTimes = async (steps: number, act: (i: number) => Promise<void>) => {
      const out: number[] = [];
      const trace: string[] = [];
      for (let i = 0; i < steps; i++) {
        const n = Number(await page.getAttribute('[data-testid="waveform"]', 'data-draws'));
        const fs0 = await page.getAttribute('[data-testid="timeline"] canvas', 'data-frame-start');
        trace.push(String(fs0));
        await act(i);
        try {
          await page.waitForFunction((k) => Number(document.querySelector('[data-testid="waveform"]')!.getAttribute('data-draws')) > k, n, { timeout: 5000 });
        } catch (e) {
          const fs1 = await page.getAttribute('[data-testid="timeline"] canvas', 'data-frame-start');
          const ppf = await page.getAttribute('[data-testid="timeline"] canvas', 'data-px-per-frame');
          throw new Error(`step ${i}: no redraw (frameStart ${fs0} → ${fs1}, px per frame ${ppf}; before: ${trace.join(' ')})`, { cause: e });
        }
        out.push(Number(await page.getAttribute('[data-testid="waveform"]', 'data-draw-ms')));
      }
      return out;
    };
    const scroll = stats(await drawTimes(60, (i) => page.mouse.wheel(i < 30 ? 60 : -60, 0)));
    await page.keyboard.down('Control');
    const zoomOut = stats(await drawTimes(12, () => page.mouse.wheel(0, 200)));
    const zoomIn = stats(await drawTimes(12, () => page.mouse.wheel(0, -200)));
    await page.keyboard.up('Control');
    const width = await page.evaluate(() => (document.querySelector('[data-testid="waveform-canvas"]') as HTMLCanvasElement).width);
    const f = (x: { median: number; p95: number; max: number }) => `median ${x.median.toFixed(2)} ms, p95 ${x.p95.toFixed(2)} ms, max ${x.max.toFixed(2)} ms`;
    console.log(`waveform draw (${width} device-px columns): scrolling ${f(scroll)}; zooming out ${f(zoomOut)}; zooming in ${f(zoomIn)}`);
    await s.app.screenshot('music-perf-4min');
    // Every step gave a draw (drawTimes waits for each); the times are in the line above (target 8 ms).
    for (const x of [scroll, zoomOut, zoomIn]) expect(Number.isFinite(x.median)).toBe(true);
  });

  // 8 s: the properties asserted are exact at every tick, so a longer run adds minutes, not checks.
  it('8 s of playback with the song: every shown frame is the audio clock at its tick, and the clock does not drift', async () => {
    const { page } = s.app;
    await page.click('[data-testid="play"]');
    await page.waitForFunction(() => window.__vmdMusic!.state().driving, undefined, { timeout: 10_000 });
    const samples = await page.evaluate(
      () =>
        new Promise<{ t: number; clock: number; shown: number; atTick: number }[]>((resolve) => {
          const out: { t: number; clock: number; shown: number; atTick: number }[] = [];
          const t0 = performance.now();
          const tick = () => {
            const x = window.__vmdMusic!.sample();
            if (x.playing && x.ctxTime !== null && x.clockFrame !== null && x.frameAtAsked !== null && Number.isFinite(x.askedAt)) {
              out.push({ t: x.ctxTime, clock: x.clockFrame, shown: x.shownFrame, atTick: x.frameAtAsked });
            }
            if (performance.now() - t0 < 8_000) requestAnimationFrame(tick);
            else resolve(out);
          };
          requestAnimationFrame(tick);
        }),
    );
    await page.click('[data-testid="play"]');
    const a = samples[0], b = samples[samples.length - 1];
    const lag = stats(samples.map((x) => x.clock - x.shown));
    const wrong = samples.filter((x) => Math.abs(x.shown - x.atTick) > 1e-6).length;
    const drift = b.clock - a.clock - 30 * (b.t - a.t);
    console.log(
      `[perf] 8 s playback with a 4-min song: ${samples.length} display samples over ${(b.t - a.t).toFixed(2)} s of AudioContext time; ` +
        `shown frame behind the clock by median ${lag.median.toFixed(3)}, p95 ${lag.p95.toFixed(3)}, max ${lag.max.toFixed(3)} frames; ` +
        `shown ≠ clock at its tick: ${wrong}; clock drift over the run ${drift.toExponential(2)} frames`,
    );
    expect(samples.length).toBeGreaterThan(20);
    // The AudioContext's clock ran through the run (its seconds are the audio's, whatever the load).
    expect(b.t - a.t).toBeGreaterThan(4);
    expect(wrong).toBe(0);
    expect(Math.abs(drift)).toBeLessThan(1e-6);
    // Never ahead of the sound. How far behind (the age of the last display tick) is load and is printed
    // above: issue 13's figure was "within a frame" at the median and p95.
    expect(lag.min).toBeGreaterThanOrEqual(-1e-6);
  }, 120_000);
});
