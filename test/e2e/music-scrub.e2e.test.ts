/**
 * Scrub grains and loop audio in Chromium through the browser mode, with a WAV this test writes.
 *
 * What is checked is what the page asks Web Audio to play: every AudioBufferSourceNode.start(when, offset,
 * duration) call is recorded by a wrapper the test installs on the prototype, with the context's clock at
 * the call. Dragging the playhead on the ruler (or moving the preview's scrub bar) while paused must start
 * 70 ms grains at the cursor's place in the song, at most one every 50 ms, the last one at the frame the
 * drag ended on; playing a loop must schedule each pass's sound to start exactly at the wrap from the loop
 * start. Nothing here claims a sound was heard (headless Chromium may have no output device).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, openFileViaDialog, openMusicViaDialog } from './harness';
import { pcm16Wav } from '../helpers/wav';
import { buildFixture, SJIS } from '../helpers/vmd-fixtures';
import { clearStarts, spyStarts, starts } from './audio-starts';

const SR = 44_100;
/** The motion's last key: the whole motion (0..LAST) is the loop. */
const LAST = 45;

/** 16-bit PCM mono WAV, `seconds` long, a low tone (its content does not matter here). */
function toneWav(seconds: number): Uint8Array {
  const n = SR * seconds;
  const pcm = new Int16Array(n);
  for (let i = 0; i < n; i++) pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / SR));
  return pcm16Wav(pcm, 1, SR);
}

describe('music: scrub grains and loop audio', () => {
  const s = appForSuite({ viewport: { width: 1440, height: 900 } });

  it('dragging the playhead while paused starts 70 ms grains at the cursor, throttled, the last at the frame reached', async () => {
    const { page } = s.app;
    const motion = path.join(s.tmp.dir, 'short.vmd');
    writeFileSync(motion, buildFixture({ bones: [{ name: SJIS.センター, frame: 0 }, { name: SJIS.センター, frame: LAST, pos: [0, 1, 0] }] }));
    const wav = path.join(s.tmp.dir, 'tone.wav');
    // 1.3 s: at offset 6 the song ends at frame 33, before the motion's last key (45), so the whole time line
    // (which runs to the later of the two) is the motion's 0–45, the loop below. Frame 30 is still within it.
    writeFileSync(wav, toneWav(1.3));
    await openFileViaDialog(page, motion);
    await openMusicViaDialog(page, wav);
    await page.fill('[data-testid="music-offset"]', '6');
    // The row redraws its waveform (and re-renders) while the box holds what was typed: a zoom step now
    // must not put the old offset back into the box before Enter (it did, on a loaded CI machine).
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.locator('[data-testid="timeline"] canvas').dispatchEvent('wheel', { deltaY: 100, ctrlKey: true, clientX: 300, clientY: 10 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.press('[data-testid="music-offset"]', 'Enter');
    await expect.poll(() => page.evaluate(() => window.__vmdMusic!.state().offsetFrames)).toBe(6);
    await spyStarts(page);

    const tl = page.locator('[data-testid="timeline"] canvas');
    const tb = (await tl.boundingBox())!;
    const view = await tl.evaluate((c) => ({ fs: Number((c as HTMLElement).dataset.frameStart), ppf: Number((c as HTMLElement).dataset.pxPerFrame) }));
    const xOf = (f: number) => tb.x + (f - view.fs) * view.ppf + view.ppf / 2;
    await page.mouse.move(xOf(5), tb.y + 10);
    await page.mouse.down();
    for (let f = 6; f <= 30; f++) await page.mouse.move(xOf(f), tb.y + 10);
    await page.mouse.up();
    const end = await page.evaluate(() => window.__vmdMusic!.sample().shownFrame);
    expect(end).toBe(30);
    await page.waitForTimeout(150); // the last grain may be scheduled up to 50 ms ahead
    const calls = await starts(page);
    const grains = calls.filter((c) => c.duration !== null);
    expect(grains.length, JSON.stringify(calls)).toBeGreaterThanOrEqual(2);
    expect(calls.length).toBe(grains.length); // nothing but grains while paused
    for (const g of grains) {
      expect(g.duration).toBeCloseTo(0.07, 9);
      // Each grain is a frame the cursor was on: (frame + offset 6) / 30 s into the song, frame 5..30.
      const frame = g.offset * 30 - 6;
      expect(Math.abs(frame - Math.round(frame))).toBeLessThan(1e-6);
      expect(frame).toBeGreaterThanOrEqual(5);
      expect(frame).toBeLessThanOrEqual(30);
      // Never planned in the past. The context clock runs on the audio thread and can move on between the
      // store reading it and start() (a stall of the page on a loaded machine): allow 20 ms of that.
      expect(g.when).toBeGreaterThanOrEqual(g.now - 0.02);
    }
    // Throttled: distinct start times at least 50 ms apart (a replaced pending grain keeps its slot's time).
    const whens = [...new Set(grains.map((g) => g.when))].sort((a, b) => a - b);
    for (let i = 1; i < whens.length; i++) expect(whens[i] - whens[i - 1]).toBeGreaterThanOrEqual(0.05 - 1e-6);
    // The last grain asked for is the frame the drag ended on.
    expect(grains.at(-1)!.offset).toBeCloseTo((30 + 6) / 30, 9);
    console.log(`scrub: ${grains.length} grains asked for 25 pointer moves, ${whens.length} distinct start times`);

    // The preview's scrub bar too.
    await clearStarts(page);
    await page.locator('[data-testid="preview-scrub"]').fill('12');
    await page.waitForFunction(() => (window as unknown as { __starts: unknown[] }).__starts.length > 0, undefined, { timeout: 3000 });
    const bar = await starts(page);
    expect(bar.at(-1)!.duration).toBeCloseTo(0.07, 9);
    expect(bar.at(-1)!.offset).toBeCloseTo((12 + 6) / 30, 9);
  });

  it('playing the loop schedules each pass to start at the wrap from the loop start, on the context clock', async () => {
    const { page } = s.app;
    await page.locator('[data-testid="preview-scrub"]').fill('30');
    await page.waitForTimeout(120);
    const loop = page.locator('[data-testid="preview-loop"]');
    if (!(await loop.isChecked())) await loop.check();
    await clearStarts(page);
    await page.click('[data-testid="play"]');
    await page.waitForFunction(() => window.__vmdMusic!.state().driving, undefined, { timeout: 10_000 });
    // Two wraps: from 30 to 45 is 0.5 s, then a pass of 45 frames is 1.5 s.
    await page.waitForTimeout(2600);
    await page.click('[data-testid="play"]');
    const calls = (await starts(page)).filter((c) => c.duration === null);
    expect(calls.length, JSON.stringify(calls)).toBeGreaterThanOrEqual(3);
    const [first, ...passes] = calls;
    // Played from frame 30 with offset 6: (30 + 6) / 30 s into the song, starting at once. The source is
    // started at the context time it is scheduled, a moment after the clock began at frame 30 (the audio
    // thread moves currentTime on meanwhile: milliseconds on a loaded machine), from the song position of
    // the clock's frame then: at most 1.5 frames (50 ms) past 30.
    const firstFrame = first.offset * 30 - 6;
    expect(firstFrame).toBeGreaterThanOrEqual(30 - 1e-6);
    expect(firstFrame).toBeLessThanOrEqual(31.5);
    const wrap0 = first.when + (LAST - firstFrame) / 30;
    for (let i = 0; i < 2; i++) {
      // Each pass: scheduled before its wrap, starting exactly there, from the loop start (frame 0 + offset 6).
      expect(passes[i].when).toBeCloseTo(wrap0 + i * (LAST / 30), 6);
      expect(passes[i].offset).toBeCloseTo(6 / 30, 9);
      expect(passes[i].now).toBeLessThan(passes[i].when);
    }
    console.log(`loop: first ${first.when.toFixed(4)}, passes at ${passes.map((p) => p.when.toFixed(4)).join(', ')} (asked at ${passes.map((p) => p.now.toFixed(4)).join(', ')})`);
  });
});
