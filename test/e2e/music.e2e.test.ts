/**
 * The music row in Chromium through the browser mode, with a WAV this test writes: silence with clicks at
 * known frames. The waveform's tall columns are exactly the columns of those frames in the timeline's own
 * view; an offset moves them by it; a song Web Audio cannot decode is named in the error; and playback is
 * driven by the AudioContext's clock: the frame shown stays within one frame of the clock.
 *
 * Headless Chromium here may have no audio output device. Nothing here checks that a sound was heard:
 * the sync is measured against the AudioContext's clock (`currentTime`), which runs whether or not any
 * speaker is attached, and the test reports the context's state.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, openFileViaDialog, openMusicViaDialog, openSceneViaDialog, openThroughDialog, saveThroughDialog } from './harness';
import { pcm16Wav } from '../helpers/wav';

const MOTION = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const SR = 44_100;
const CLICK_FRAMES = [30, 45, 99, 150];

/** 16-bit PCM mono WAV: `seconds` of silence, a 40-sample click starting exactly at each frame's sample. */
function clickWav(seconds: number, frames: number[]): Uint8Array {
  const n = SR * seconds;
  const pcm = new Int16Array(n);
  for (const f of frames) {
    const s = (f / 30) * SR; // whole: 1470 samples per frame at 44.1 kHz
    for (let i = 0; i < 40; i++) pcm[s + i] = Math.round(30_000 * (1 - i / 40));
  }
  return pcm16Wav(pcm, 1, SR);
}

// The dialogs list, and say they list, that kind of file.
const openMusic = (page: Page, file: string, loaded = true) => openMusicViaDialog(page, file, { filter: 'Audio files (WAV, MP3, OGG, FLAC, M4A/AAC)', loaded });
const openScene = (page: Page, file: string) => openSceneViaDialog(page, file, { filter: 'Scene files (.vmdscene)' });

/** The waveform canvas's tall columns (wave colour over more than a third of the height), in device px. */
async function tallColumns(page: Page): Promise<{ cols: number[]; frameStart: number; pxPerFrame: number; dpr: number; width: number }> {
  // The waveform draws at the display frame after a change: wait until its last draw showed the song at
  // the timeline's current view and the current offset (then the pixels and the view below are read in
  // one task, so they agree).
  await page.waitForFunction(() => {
    const w = document.querySelector('[data-testid="waveform"]') as HTMLElement;
    const tl = document.querySelector('[data-testid="timeline"] canvas') as HTMLElement;
    return w.dataset.showsSong === 'true' && w.dataset.drawnView === `${tl.dataset.frameStart} ${tl.dataset.pxPerFrame} ${w.dataset.offset}`;
  });
  return page.evaluate(() => {
    const cv = document.querySelector('[data-testid="waveform-canvas"]') as HTMLCanvasElement;
    const tl = document.querySelector('[data-testid="timeline"] canvas') as HTMLCanvasElement;
    const ctx = cv.getContext('2d')!;
    const { data, width, height } = ctx.getImageData(0, 0, cv.width, cv.height);
    const cols: number[] = [];
    for (let x = 0; x < width; x++) {
      let n = 0;
      for (let y = 0; y < height; y++) {
        const i = (y * width + x) * 4;
        if (data[i] === 0x5f && data[i + 1] === 0xa8 && data[i + 2] === 0xd3) n++;
      }
      if (n > height / 3) cols.push(x);
    }
    return { cols, frameStart: Number(tl.dataset.frameStart), pxPerFrame: Number(tl.dataset.pxPerFrame), dpr: window.devicePixelRatio || 1, width };
  });
}

/** Device-pixel column of frame f in the timeline's view (the same mapping the timeline draws keys with). */
const columnOf = (f: number, v: { frameStart: number; pxPerFrame: number; dpr: number }) => Math.floor((f - v.frameStart) * v.pxPerFrame * v.dpr + 1e-6);

async function redrawn(page: Page, before: number) {
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="waveform"]')!.getAttribute('data-draws')) > n, before);
}
const draws = (page: Page) => page.getAttribute('[data-testid="waveform"]', 'data-draws').then(Number);

interface ClockSample {
  ctxTime: number;
  clockFrame: number;
  shownFrame: number;
  askedAt: number;
  frameAtAsked: number;
}

/** Samples the music hook at every display frame for `ms`. */
function sampleFor(page: Page, ms: number): Promise<ClockSample[]> {
  return page.evaluate(
    (ms) =>
      new Promise<ClockSample[]>((resolve) => {
        const out: ClockSample[] = [];
        const t0 = performance.now();
        const tick = () => {
          const x = window.__vmdMusic!.sample();
          if (x.playing && x.ctxTime !== null && x.clockFrame !== null && x.askedAt !== null && x.frameAtAsked !== null && Number.isFinite(x.askedAt)) {
            out.push({ ctxTime: x.ctxTime, clockFrame: x.clockFrame, shownFrame: x.shownFrame, askedAt: x.askedAt, frameAtAsked: x.frameAtAsked });
          }
          if (performance.now() - t0 < ms) requestAnimationFrame(tick);
          else resolve(out);
        };
        requestAnimationFrame(tick);
      }),
    ms,
  );
}

describe('music: waveform and audio clock', () => {
  const s = appForSuite({ viewport: { width: 1440, height: 900 } });

  it('draws the clicks at exactly their frame columns, and an offset moves them by it', async () => {
    const { page } = s.app;
    const wav = path.join(s.tmp.dir, 'clicks.wav');
    writeFileSync(wav, clickWav(8, CLICK_FRAMES));
    await openFileViaDialog(page, MOTION);
    await openMusic(page, wav);
    await page.waitForSelector('[data-testid="waveform"][data-loaded="true"]', { timeout: 15_000 });
    const st = await page.evaluate(() => window.__vmdMusic!.state());
    expect(st).toMatchObject({ name: 'clicks.wav', sampleRate: expect.any(Number), channels: 1 });
    expect(st.duration).toBeCloseTo(8, 2);
    // Web Audio resamples to the context's rate; the pyramid is built at that rate and the mapping holds.

    let v = await tallColumns(page);
    let want = CLICK_FRAMES.map((f) => columnOf(f, v)).filter((c) => c >= 0 && c < v.width);
    expect(want.length, 'clicks in view').toBeGreaterThanOrEqual(3);
    expect(v.cols).toEqual(want);
    await s.app.screenshot('music-waveform');

    // Offset 10: the song runs 10 frames ahead, so every click is 10 frames earlier.
    let n = await draws(page);
    await page.fill('[data-testid="music-offset"]', '10');
    await page.press('[data-testid="music-offset"]', 'Enter');
    await redrawn(page, n);
    v = await tallColumns(page);
    want = CLICK_FRAMES.map((f) => columnOf(f - 10, v)).filter((c) => c >= 0 && c < v.width);
    expect(v.cols).toEqual(want);

    // Dragging the waveform 5 frames to the right moves the song 5 frames later (offset 10 → 5).
    const box = (await page.locator('[data-testid="waveform"]').boundingBox())!;
    n = await draws(page);
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 200, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 200 + 5 * v.pxPerFrame, y, { steps: 4 });
    await page.mouse.up();
    await redrawn(page, n);
    expect(await page.evaluate(() => window.__vmdMusic!.state().offsetFrames)).toBe(5);
    v = await tallColumns(page);
    expect(v.cols).toEqual(CLICK_FRAMES.map((f) => columnOf(f - 5, v)).filter((c) => c >= 0 && c < v.width));

    // Zoomed in (the timeline's zoom button), the columns follow the new scale.
    n = await draws(page);
    await page.fill('[data-testid="music-offset"]', '0');
    await page.press('[data-testid="music-offset"]', 'Enter');
    await page.mouse.move(box.x + 100, y);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -300);
    await page.keyboard.up('Control');
    await redrawn(page, n);
    v = await tallColumns(page);
    want = CLICK_FRAMES.map((f) => columnOf(f, v)).filter((c) => c >= 0 && c < v.width);
    expect(want.length).toBeGreaterThanOrEqual(1);
    expect(v.cols).toEqual(want);
  });

  it('playback follows the AudioContext clock: each shown frame is the clock at its display tick; pause, seek and play again start the clock at the frame sought', async () => {
    const { page } = s.app;
    await page.click('[data-testid="play"]');
    await page.waitForFunction(() => window.__vmdMusic!.state().driving, undefined, { timeout: 10_000 }).catch(() => undefined);
    const st = await page.evaluate(() => window.__vmdMusic!.state());
    // Report what this Chromium has: the context's clock runs with or without an output device.
    console.log(`AudioContext state while playing: ${st.contextState}; audio clock driving: ${st.driving}`);
    expect(st.driving, `the audio clock did not take over (context ${st.contextState})`).toBe(true);

    const first = await sampleFor(page, 5000);
    // Pause, seek (a click on the ruler), play again: the clock starts from the frame clicked.
    await page.click('[data-testid="play"]');
    expect(await page.evaluate(() => window.__vmdMusic!.state().driving)).toBe(false);
    const tl = page.locator('[data-testid="timeline"] canvas');
    const tb = (await tl.boundingBox())!;
    const view = await tl.evaluate((c) => ({ fs: Number((c as HTMLElement).dataset.frameStart), ppf: Number((c as HTMLElement).dataset.pxPerFrame) }));
    const clicked = Math.round(view.fs + 40 / view.ppf);
    await page.mouse.click(tb.x + 40, tb.y + 10);
    expect(await page.evaluate(() => window.__vmdMusic!.sample().shownFrame)).toBe(clicked);
    // The context's clock just before Play: the new anchor cannot be earlier.
    const beforePlay = await page.evaluate(() => window.__vmdMusic!.sample().ctxTime);
    await page.click('[data-testid="play"]');
    await page.waitForTimeout(200);
    const second = await sampleFor(page, 2000);
    await page.click('[data-testid="play"]');
    for (const [what, samples] of [['playing', first], ['after a seek', second]] as const) {
      expect(samples.length, what).toBeGreaterThan(20);
      // The frame on screen is exactly the audio clock at the display tick that showed it…
      for (const x of samples) expect(Math.abs(x.shownFrame - x.frameAtAsked), `${what}: shown ${x.shownFrame} vs clock ${x.frameAtAsked}`).toBeLessThan(1e-6);
      // …and the clock is 30 frames per second of context time (no loop wrap: the motion is long).
      const a = samples[0], b = samples[samples.length - 1];
      expect((b.clockFrame - a.clockFrame) / (b.ctxTime - a.ctxTime), what).toBeCloseTo(30, 6);
      // How far behind the sound the screen is: the age of the last display tick, in frames.
      const lag = samples.map((x) => x.clockFrame - x.shownFrame).sort((p, q) => p - q);
      const pick = (q: number) => lag[Math.min(lag.length - 1, Math.floor(lag.length * q))];
      console.log(
        `${what}: ${(b.ctxTime - a.ctxTime).toFixed(2)} s of context time, ${samples.length} samples; shown frame behind the clock by median ${pick(0.5).toFixed(3)}, p95 ${pick(0.95).toFixed(3)}, max ${lag[lag.length - 1].toFixed(3)} frames (display ticks here: software GL on shared CPUs)`,
      );
      expect(lag[0], what).toBeGreaterThanOrEqual(-1e-6); // never ahead of the sound
      // How far behind (the median was within a frame in issue 13) is the load's: printed, not asserted.
    }
    // The clock started from the frame clicked, at a context time between Play and the first sample: the
    // anchor time implied by the first sample (frame − clicked = 30 × (time − anchor)) lies in between.
    // Exact, whatever the load (issue 30: a bound in frames of wall time failed on a loaded machine).
    expect(second[0].clockFrame).toBeGreaterThan(clicked);
    expect(beforePlay).not.toBeNull();
    const anchor = second[0].ctxTime - (second[0].clockFrame - clicked) / 30;
    expect(anchor).toBeGreaterThanOrEqual(beforePlay! - 1e-6);
    expect(anchor).toBeLessThanOrEqual(second[0].ctxTime + 1e-6);
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => window.__vmdMusic!.state().driving)).toBe(false);
  });

  it('saves the window as a scene (paths relative to it) and reopens it: motion, music, offset, mute, frame', async () => {
    const { page } = s.app;
    const target = path.join(s.tmp.dir, 'dance.vmdscene');
    await page.fill('[data-testid="music-offset"]', '12');
    await page.press('[data-testid="music-offset"]', 'Enter');
    await page.click('[data-testid="music-mute"]');
    await saveThroughDialog(page, ['cmd-scene', 'cmd-save-scene'], s.tmp.dir, 'dance');
    await page.waitForFunction((f) => document.querySelector('[data-testid="notifications"]')?.textContent?.includes(f), 'dance.vmdscene');
    const json = JSON.parse(readFileSync(target, 'utf8'));
    const frame = await page.evaluate(() => window.__vmdMusic!.sample().shownFrame);
    expect(json).toEqual({
      format: 'vmd-studio-scene',
      version: 1,
      actors: [{ model: null, motion: path.relative(s.tmp.dir, MOTION).split(path.sep).join('/'), hidden: false }],
      activeActor: 0,
      camera: null,
      audio: { path: 'clicks.wav', offsetFrames: 12, volume: 1, muted: true },
      aspect: { width: 16, height: 9 },
      view: { frame: Math.round(frame) },
    });

    // Another motion and no music, then the scene again: all of it comes back. Removing the song is a change
    // to the saved scene, so opening the motion asks first.
    await page.click('[data-testid="music-remove"]');
    await openThroughDialog(page, ['cmd-open'], corpusPath('gene/motion/stand.vmd'));
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    expect(await page.textContent('[data-testid="confirm-message"]')).toContain('dance.vmdscene');
    await page.click('[data-testid="confirm-discard"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('stand.vmd'));
    await openScene(page, target);
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('wavefile_v2.vmd'));
    await page.waitForSelector('[data-testid="waveform"][data-loaded="true"]');
    const st = await page.evaluate(() => window.__vmdMusic!.state());
    expect(st).toMatchObject({ name: 'clicks.wav', offsetFrames: 12 });
    expect(await page.getAttribute('[data-testid="music-mute"]', 'aria-pressed')).toBe('true');
    expect(await page.evaluate(() => window.__vmdMusic!.sample().shownFrame)).toBe(Math.round(frame));
    await s.app.screenshot('music-scene-reopened');
  });

  it('a scene naming a missing motion says which, and opens the rest (the music)', async () => {
    const { page } = s.app;
    await page.click('[data-testid="music-remove"]');
    // Removing the song changed the open scene (dance.vmdscene): opening another asks first.
    const target = path.join(s.tmp.dir, 'missing.vmdscene');
    writeFileSync(
      target,
      JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: null, motion: 'moves/gone.vmd' }], audio: { path: 'clicks.wav', offsetFrames: -3 }, aspect: { width: 4, height: 3 } }),
    );
    await openScene(page, target);
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    expect(await page.textContent('[data-testid="confirm-message"]')).toContain('dance.vmdscene');
    await page.click('[data-testid="confirm-discard"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="notifications"]')?.textContent?.includes('gone.vmd'));
    const text = await page.textContent('[data-testid="notifications"]');
    expect(text).toContain('Not found: gone.vmd (actor 1 motion)');
    await page.waitForSelector('[data-testid="waveform"][data-loaded="true"]');
    expect(await page.evaluate(() => window.__vmdMusic!.state().offsetFrames)).toBe(-3);
    // The scene's 4:3 became the output aspect: saved again, the scene says 4:3.
    const again = path.join(s.tmp.dir, 'again.vmdscene');
    await saveThroughDialog(page, ['cmd-scene', 'cmd-save-scene'], s.tmp.dir, 'again.vmdscene');
    await page.waitForFunction(() => document.querySelector('[data-testid="notifications"]')?.textContent?.includes('Saved again.vmdscene'));
    const json = JSON.parse(readFileSync(again, 'utf8'));
    expect(json.aspect).toEqual({ width: 4, height: 3 });
    expect(json.audio).toEqual({ path: 'clicks.wav', offsetFrames: -3, volume: 1, muted: false });
  });

  it('a song Web Audio cannot decode is named by its format', async () => {
    const { page } = s.app;
    await page.click('[data-testid="music-remove"]');
    const aiff = path.join(s.tmp.dir, 'song.wav');
    // A RIFF/WAVE file whose fmt chunk says WMA (0x0161): no browser decodes that.
    const bytes = clickWav(1, []);
    new DataView(bytes.buffer).setUint16(20, 0x0161, true);
    writeFileSync(aiff, bytes);
    await openMusic(page, aiff, false);
    await page.waitForFunction(() => document.querySelector('[data-testid="notifications"]')?.textContent?.includes('WAV (WMA)'), undefined, { timeout: 10_000 });
    const text = await page.textContent('[data-testid="notifications"]');
    expect(text).toContain('song.wav');
    expect(text).toContain('cannot decode');
    expect(await page.getAttribute('[data-testid="waveform"]', 'data-loaded')).toBe('false');
  });
});
