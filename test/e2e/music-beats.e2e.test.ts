/**
 * Beat markers in Chromium through the browser mode, with a WAV this test writes: a low click every
 * 15 frames (120 BPM) from frame 10. Turning Beats on runs web-audio-beat-detector on the decoded song;
 * the beats it gives land on the click frames (±1 frame), are drawn as lines at those columns of the
 * waveform, follow the offset, and a key dragged to a few pixels from a beat lands on the beat.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, openFileViaDialog, openMusicViaDialog } from './harness';
import { pcm16Wav } from '../helpers/wav';
import { keyPoint, boneFrames } from './editor-page';
import { buildFixture, SJIS } from '../helpers/vmd-fixtures';

const SR = 44_100;
const FIRST = 10;
const EVERY = 15; // frames: 0.5 s, 120 BPM
const SECONDS = 20;
const CLICKS = Array.from({ length: Math.floor((SECONDS * 30 - FIRST) / EVERY) }, (_, k) => FIRST + k * EVERY);

/** 16-bit PCM mono WAV: silence, and at each click frame a 100 Hz burst decaying over 40 ms. */
function clickWav(): Uint8Array {
  const n = SR * SECONDS;
  const pcm = new Int16Array(n);
  for (const f of CLICKS) {
    const s0 = (f / 30) * SR;
    for (let i = 0; i < SR * 0.04; i++) pcm[s0 + i] = Math.round(30_000 * Math.sin((2 * Math.PI * 100 * i) / SR) * Math.exp(-i / (SR * 0.01)));
  }
  return pcm16Wav(pcm, 1, SR);
}

const beatColumns = (page: Page) =>
  page.evaluate(() => {
    const cv = document.querySelector('[data-testid="waveform-canvas"]') as HTMLCanvasElement;
    const { data, width, height } = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height);
    const cols: number[] = [];
    for (let x = 0; x < width; x++) {
      let n = 0;
      for (let y = 0; y < height; y++) {
        const i = (y * width + x) * 4;
        if (data[i] === 0xe8 && data[i + 1] === 0xc2 && data[i + 2] === 0x5a) n++;
      }
      if (n > height * 0.8) cols.push(x);
    }
    const tl = document.querySelector('[data-testid="timeline"] canvas') as HTMLCanvasElement;
    return { cols, width, frameStart: Number(tl.dataset.frameStart), pxPerFrame: Number(tl.dataset.pxPerFrame), dpr: window.devicePixelRatio || 1 };
  });

describe('music: beat markers', () => {
  const s = appForSuite({ viewport: { width: 1440, height: 900 } });

  it('finds the beats on the click frames, draws them at their columns, follows the offset; a key drag snaps to a beat', async () => {
    const { page } = s.app;
    const motion = path.join(s.tmp.dir, 'beats.vmd');
    writeFileSync(motion, buildFixture({ bones: [{ name: SJIS.センター, frame: 0 }, { name: SJIS.センター, frame: 90, pos: [0, 1, 0] }] }));
    const wav = path.join(s.tmp.dir, 'clicks120.wav');
    writeFileSync(wav, clickWav());
    await openFileViaDialog(page, motion);
    await openMusicViaDialog(page, wav);
    expect(await page.evaluate(() => window.__vmdMusic!.beats().frames.length)).toBe(0);

    await page.click('[data-testid="music-beats"]');
    await page.waitForFunction(() => ['ready', 'none'].includes(window.__vmdMusic!.beats().state), undefined, { timeout: 20_000 });
    const b = await page.evaluate(() => window.__vmdMusic!.beats());
    console.log(`beat detector: ${b.state}, ${b.bpm} BPM, first beat ${b.firstBeat} s, ${b.frames.length} beats`);
    expect(b.state).toBe('ready');
    expect(b.bpm).toBe(120);
    expect(await page.textContent('[data-testid="notifications"]')).toContain('Beats: 120 BPM');
    // Every click has a beat within one frame, and every beat (the steady grid runs to the song's end, past
    // the last click) is within one frame of the clicks' 15-frame lattice.
    for (const c of CLICKS) expect(Math.min(...b.frames.map((f) => Math.abs(f - c))), `click at ${c}`).toBeLessThanOrEqual(1);
    for (const f of b.frames) expect(Math.abs(f - (FIRST + Math.round((f - FIRST) / EVERY) * EVERY)), `beat at ${f}`).toBeLessThanOrEqual(1);
    expect(b.frames.length).toBe(Math.ceil((SECONDS * 30 - b.frames[0]) / EVERY));

    // Lines at exactly the beats' columns of the timeline's view.
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid="waveform"]')!.getAttribute('data-beat-lines')) === n, b.frames.length);
    let v = await beatColumns(page);
    const colOf = (f: number) => Math.floor((f - v.frameStart) * v.pxPerFrame * v.dpr + 1e-6);
    expect(v.cols.length).toBeGreaterThanOrEqual(2);
    expect(v.cols).toEqual(b.frames.map(colOf).filter((x) => x >= 0 && x < v.width));
    await s.app.screenshot('music-beats');

    // The music row lies directly under the ruler (26 px), the first track row directly under it; the
    // timeline draws the same beats as faint lines across its key rows (below the rows here: plain ground).
    const place = await page.evaluate(() => {
      const r = (sel: string) => document.querySelector(sel)!.getBoundingClientRect();
      const wave = r('[data-testid="waveform"]');
      return { canvas: r('[data-testid="timeline-canvas"]').top, waveTop: wave.top, waveBottom: wave.bottom, row: r('[data-testid="group-ik"]').top };
    });
    expect(place.waveTop - place.canvas).toBe(26);
    // The waveform's bottom border, then the first row.
    expect(Math.abs(place.row - (place.waveBottom + 1))).toBeLessThanOrEqual(1);
    const warm = await page.evaluate((cols) => {
      const tl = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement;
      const { data } = tl.getContext('2d')!.getImageData(0, tl.height - 4, tl.width, 1);
      // A beat line's pixel is yellowish (red well above blue); the ground beside it is not.
      const isBeat = (x: number) => data[x * 4] - data[x * 4 + 2] > 15;
      return cols.map((x) => [isBeat(x), isBeat(x + 3)]);
    }, v.cols);
    expect(warm).toEqual(v.cols.map(() => [true, false]));

    // Offset 4: the song runs 4 frames ahead, so every beat is 4 frames earlier.
    // Each offset is waited for (the field commits on its change event) before what follows reads the beats:
    // CI once dragged the key below while the beats still stood 4 frames early, so it did not snap.
    const firstBeatIs = (f: number) => page.waitForFunction((x) => Math.abs(window.__vmdMusic!.beats().frames[0] - x) < 1e-6, f);
    await page.fill('[data-testid="music-offset"]', '4');
    await page.press('[data-testid="music-offset"]', 'Enter');
    await firstBeatIs(b.frames[0] - 4);
    const moved = await page.evaluate(() => window.__vmdMusic!.beats().frames);
    expect(moved.length).toBe(b.frames.length);
    moved.forEach((f, i) => expect(f).toBeCloseTo(b.frames[i] - 4, 9));
    await page.fill('[data-testid="music-offset"]', '0');
    await page.press('[data-testid="music-offset"]', 'Enter');
    await firstBeatIs(b.frames[0]);

    // Key drag: zoomed so a frame is under 8 px (5 px is then more than half a frame: without snapping the
    // key would land beside the beat), the key at 90 dragged to 5 px right of the beat near frame 70.
    for (let i = 0; i < 12; i++) {
      const ppf = await page.evaluate(() => Number((document.querySelector('[data-testid="timeline-canvas"]') as HTMLElement).dataset.pxPerFrame));
      if (ppf < 8) break;
      await page.click('[data-testid="zoom-out"]');
    }
    const beat = b.frames.reduce((best, f) => (Math.abs(f - 70) < Math.abs(best - 70) ? f : best));
    const target = Math.round(beat);
    const from = await keyPoint(page, 'track-bone:0', 90);
    const at = await keyPoint(page, 'track-bone:0', beat);
    const ppf = await page.evaluate(() => Number((document.querySelector('[data-testid="timeline-canvas"]') as HTMLElement).dataset.pxPerFrame));
    expect(Math.round(beat + 5 / ppf)).not.toBe(target); // the drag alone would not reach the beat's frame
    // The song's load and the two typed offsets above are undo steps of their own (load music, music offset): the
    // key drag is the next one.
    const depth = await page.evaluate(() => window.__vmdEditor!.history().undo);
    expect(depth).toBe(3);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(at.x + 5 - 0.5, at.y, { steps: 6 });
    await page.mouse.up();
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, depth);
    expect(await boneFrames(page)).toEqual([0, target]);

    // Beats off: the same drag lands where the pointer is.
    await page.keyboard.press('Control+z');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n, depth);
    await page.click('[data-testid="music-beats"]');
    expect(await page.evaluate(() => window.__vmdMusic!.beats().frames.length)).toBe(0);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(at.x + 5 - 0.5, at.y, { steps: 6 });
    await page.mouse.up();
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, depth);
    const plain = await boneFrames(page);
    expect(plain[1]).not.toBe(target);
    expect(plain[1]).toBe(90 + Math.round((at.x + 4.5 - from.x) / ppf));
  });
});
