/**
 * The time line with a song, as a lip-sync user works it (the new-user pass nusync, 2027-01), in Chromium
 * through the browser mode with a WAV this test writes (20 s of silence: 600 frames at 30 fps) and a motion
 * whose last key is at frame 90:
 * - the playhead goes past the motion's last key: to the song's end (End, fit, play) and, typed, to any
 *   frame (as MMD's frame box); a key can be put there; a song opened before any motion plays;
 * - the frame field shows the frame gone to after clamping, also when that is where the playhead already was;
 * - a play range (Shift+drag on the ruler, or L / ⟲ Loop selection over the selected keys): a band on the ruler,
 *   played in a loop with the song from the range's start each pass; cleared by the button, L or Esc; listed under F1;
 *   with nothing selected the button says how to select a part and that the whole motion loops already;
 * - the playhead's time, m:ss.xx, beside the frame field.
 *
 * Expected frames are worked out here from the song's length (seconds × 30) and the offsets typed.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, notice, openFileViaDialog, openMusicViaDialog, openThroughDialog, screenshot } from './harness';
import { seekFrameField, boneFrames } from './editor-page';
import { pcm16Wav } from '../helpers/wav';
import { buildFixture, SJIS } from '../helpers/vmd-fixtures';
import { clearStarts, spyStarts, starts } from './audio-starts';

const SR = 44_100;
const SECONDS = 20;
/** The song's end frame at offset 0: 20 s × 30. */
const SONG_END = SECONDS * 30;
/** The motion's last key. */
const MOTION_END = 90;

const frameNow = (page: Page) => page.evaluate(() => window.__vmdEditor!.frame().frame);
const playRangeOf = (page: Page) => page.getAttribute('[data-testid="play-range"]', 'data-range');
const status = (page: Page) => page.textContent('[data-testid="status-bar"]');
/** The timeline's view: first frame shown, pixels per frame, width (CSS px). */
const viewOf = (page: Page) =>
  page.evaluate(() => {
    const cv = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement;
    return { frameStart: Number(cv.dataset.frameStart), pxPerFrame: Number(cv.dataset.pxPerFrame), width: cv.getBoundingClientRect().width };
  });

/** Clicks the ruler at frame f (in the timeline's current view). */
async function clickRuler(page: Page, f: number) {
  const v = await viewOf(page);
  const box = (await page.locator('[data-testid="timeline-canvas"]').boundingBox())!;
  await page.mouse.click(box.x + (f - v.frameStart) * v.pxPerFrame, box.y + 6);
}

describe('music: the time line runs the whole song', () => {
  const s = appForSuite({ viewport: { width: 1440, height: 900 } });

  it('a song opened first plays; the playhead, End, fit, the ruler and play reach the song’s end, a typed frame goes anywhere, and a key goes there', async () => {
    const { page } = s.app;
    const wav = path.join(s.tmp.dir, 'song20.wav');
    writeFileSync(wav, pcm16Wav(new Int16Array(SR * SECONDS), 1, SR));
    const motion = path.join(s.tmp.dir, 'short.vmd');
    writeFileSync(motion, buildFixture({ bones: [{ name: SJIS.センター, frame: 0 }, { name: SJIS.センター, frame: MOTION_END, pos: [0, 1, 0] }] }));

    // The song before any motion (File → Open): Play is there for it, and plays it.
    await openThroughDialog(page, ['cmd-open'], wav);
    await page.waitForFunction(() => window.__vmdMusic!.state().name === 'song20.wav');
    expect(await page.isDisabled('[data-testid="play"]')).toBe(false);
    await page.click('[data-testid="play"]');
    await page.waitForFunction(() => window.__vmdEditor!.frame().frame > 3, undefined, { timeout: 15_000 });
    await page.click('[data-testid="play"]');
    await page.waitForFunction(() => !window.__vmdEditor!.frame().playing);

    // A new motion with the song (as the user made a lip-sync motion): keyed along the whole song, its
    // first view shows the song, and a typed frame past the end goes there.
    await page.click('[data-testid="cmd-new-motion"]');
    await page.waitForFunction(() => window.__vmdEditor!.bytes() !== null);
    await page.waitForFunction(
      (end) => {
        const cv = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement;
        return Number(cv.dataset.frameStart) + cv.getBoundingClientRect().width / Number(cv.dataset.pxPerFrame) >= end;
      },
      SONG_END,
    );
    await seekFrameField(page, 900);
    expect(await status(page)).toContain(`Frame 900 / ${SONG_END}`);

    // A motion with keys to frame 90 (a lone motion replaces the scene and its music: the song is chosen again).
    await openFileViaDialog(page, motion);
    await openMusicViaDialog(page, wav);
    expect(await status(page)).toContain(`Frame 0 / ${SONG_END}`);

    // Typed past the last key: the playhead goes there, and Insert keys there; typed past the song, it goes there too.
    await seekFrameField(page, 450);
    expect(await status(page)).toContain(`Frame 450 / ${SONG_END}`);
    await page.click('[data-testid="track-bone:0"]');
    await page.keyboard.press('Enter');
    // The song's load is the first undo step (load music), the key the second.
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 2);
    expect(await boneFrames(page)).toEqual([0, MOTION_END, 450]);
    await seekFrameField(page, 1200);
    expect(await frameNow(page)).toBe(1200);

    // End: the song's end; → steps on past it.
    await page.keyboard.press('End');
    expect(await frameNow(page)).toBe(SONG_END);
    await page.keyboard.press('ArrowRight');
    expect(await frameNow(page)).toBe(SONG_END + 1);

    // F fits the motion and the song: frames 0–600 all in view.
    await page.keyboard.press('f');
    await page.waitForFunction(
      (end) => {
        const cv = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement;
        const w = cv.getBoundingClientRect().width;
        return Number(cv.dataset.frameStart) <= 0 && Number(cv.dataset.frameStart) + w / Number(cv.dataset.pxPerFrame) >= end;
      },
      SONG_END,
    );
    // The ruler, clicked at frame 500 (past the last key, within the song).
    await clickRuler(page, 500);
    await page.waitForFunction(() => window.__vmdEditor!.frame().frame >= 498 && window.__vmdEditor!.frame().frame <= 502);
    await screenshot(page, 'music-timeline-past-last-key');

    // Play, Loop off, from near the end: it stops at the song's end, not at the motion's last key.
    if (await page.isChecked('[data-testid="preview-loop"]')) await page.click('[data-testid="preview-loop"]');
    await seekFrameField(page, SONG_END - 20);
    await page.click('[data-testid="play"]');
    await page.waitForFunction(() => !window.__vmdEditor!.frame().playing, undefined, { timeout: 20_000 });
    expect(await frameNow(page)).toBe(SONG_END);

  });

  it('the frame field shows the frame gone to, also when the clamped frame is where the playhead already was', async () => {
    const { page } = s.app;
    const field = '[data-testid="frame-input"]';
    const type = async (v: string) => {
      await page.fill(field, v);
      await page.press(field, 'Enter');
    };
    await seekFrameField(page, 0);
    await type('-5');
    expect(await frameNow(page)).toBe(0);
    expect(await page.inputValue(field)).toBe('0');
    await type('5000000');
    await page.waitForFunction(() => window.__vmdEditor!.frame().frame === 999_999);
    expect(await page.inputValue(field)).toBe('999999');
    await type('2000000'); // clamped to 999,999 again: the field shows it, not 2000000
    expect(await frameNow(page)).toBe(999_999);
    expect(await page.inputValue(field)).toBe('999999');
  });

  it('a play range: Shift+drag on the ruler sets it (a band there), Space loops it with the song from its start; L over selected keys; cleared; in F1', async () => {
    const { page } = s.app;
    await page.keyboard.press('Home');
    await page.keyboard.press('f');
    await spyStarts(page);
    // Shift+drag on the ruler from frame 300 to 360.
    const v = await viewOf(page);
    const box = (await page.locator('[data-testid="timeline-canvas"]').boundingBox())!;
    const xOf = (f: number) => box.x + (f - v.frameStart) * v.pxPerFrame;
    await page.keyboard.down('Shift');
    await page.mouse.move(xOf(300), box.y + 6);
    await page.mouse.down();
    await page.mouse.move(xOf(330), box.y + 6, { steps: 3 });
    await page.mouse.move(xOf(360), box.y + 6, { steps: 3 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    await page.waitForFunction(() => document.querySelector('[data-testid="play-range"]')?.getAttribute('data-range'));
    // The pointer lands on whole pixels: at under a pixel per frame the ends are within a frame or two.
    const [from, to] = (await playRangeOf(page))!.split('-').map(Number);
    expect(Math.abs(from - 300)).toBeLessThanOrEqual(2);
    expect(Math.abs(to - 360)).toBeLessThanOrEqual(2);
    expect(await frameNow(page)).toBe(from); // the playhead at its start
    expect(await page.textContent('[data-testid="play-range"]')).toContain(`Loop ${from}–${to}`);
    expect(await page.textContent('[data-testid="preview-range"]')).toContain(`${from}–${to}`);
    // The band on the ruler: inside the range the ruler is lighter than outside it.
    const band = await page.evaluate(([xa, xb]) => {
      const cv = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement;
      const dpr = window.devicePixelRatio || 1;
      const px = (x: number) => Array.from(cv.getContext('2d')!.getImageData(Math.round(x * dpr), 2, 1, 1).data.slice(0, 3));
      return { inside: px((xa + xb) / 2), outside: px(xb + 40) };
    }, [xOf(from) - box.x, xOf(to) - box.x]);
    expect(band.inside).not.toEqual(band.outside);
    await screenshot(page, 'music-timeline-play-range');

    // Space plays it in a loop: each pass of the song starts from the range's start (from / 30 s into the song).
    await clearStarts(page);
    await page.keyboard.press('Space');
    await page.waitForFunction(() => window.__vmdMusic!.state().driving, undefined, { timeout: 10_000 });
    // The pass after the first is scheduled ahead, to start at the wrap.
    // (A pass has no duration; a scrub grain has one.)
    await page.waitForFunction(() => (window as unknown as { __starts: { duration: number | null }[] }).__starts.filter((c) => c.duration === null).length >= 2, undefined, { timeout: 10_000 });
    const passes = (await starts(page)).filter((c) => c.duration === null);
    for (const p of passes) expect(p.offset).toBeCloseTo(from / 30, 2);
    expect(passes[1].when - passes[0].when).toBeCloseTo((to - from) / 30, 1);
    for (let i = 0; i < 5; i++) {
      const f = await frameNow(page);
      expect(f).toBeGreaterThanOrEqual(from);
      expect(f).toBeLessThanOrEqual(to);
      await page.waitForTimeout(50);
    }
    await page.keyboard.press('Space');
    await page.waitForFunction(() => !window.__vmdEditor!.frame().playing);

    // The button clears it: the whole time line again.
    await page.click('[data-testid="play-range"]');
    expect(await playRangeOf(page)).toBe('');
    expect(await page.isVisible('[data-testid="preview-range"]')).toBe(false);
    // The click left the focus on that button, where Space would press it again (as in any dialog): back to the page.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

    // L over the selected keys (0, 90, 450): their frames loop, playing at once; L again ends it.
    await page.keyboard.press('Control+a');
    await page.keyboard.press('l');
    expect(await playRangeOf(page)).toBe('0-450');
    await page.waitForFunction(() => window.__vmdEditor!.frame().playing);
    await page.keyboard.press('l');
    expect(await playRangeOf(page)).toBe('');
    // Esc ends it too (no curve handle is selected, which Esc would drop first).
    await page.keyboard.press('l');
    expect(await playRangeOf(page)).toBe('0-450');
    await page.keyboard.press('Escape');
    expect(await playRangeOf(page)).toBe('');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => !window.__vmdEditor!.frame().playing);

    // Nothing selected (a click on empty space under the rows, at frame 250 where no key is): the button says it
    // loops a selection, and clicked it says how to make one and that the whole motion already loops; the preview's
    // Loop says what it loops.
    const v2 = await viewOf(page);
    const box2 = (await page.locator('[data-testid="timeline-canvas"]').boundingBox())!;
    // 16 px up: the band of the border under the time line (8 px, over the edge: drag it to trade height with the
    // Curve/Key area) takes presses on the canvas's last pixels.
    await page.mouse.click(box2.x + (250 - v2.frameStart) * v2.pxPerFrame, box2.y + box2.height - 16);
    await page.waitForFunction(() => window.__vmdEditor!.selectedCount() === 0);
    expect((await page.textContent('[data-testid="play-range"]'))!.trim()).toBe('⟲ Loop selection');
    await page.click('[data-testid="play-range"]');
    expect(await notice(page, 'Loop selection plays a part of the motion over and over')).toContain('The whole motion already loops while the preview’s Loop is on');
    expect(await playRangeOf(page)).toBe('');
    expect(await page.getAttribute('[data-testid="preview-loop-label"]', 'title')).toBe(
      'Play the whole motion over and over (off: playing stops at its last frame). Loop selection above the time line loops a part',
    );

    // F1 lists both ways.
    await page.keyboard.press('F1');
    const help = await page.textContent('[data-testid="shortcuts-dialog"]');
    expect(help).toContain('Loop the selected keys’ frames with the music (play range); again: clear it');
    expect(help).toContain('Set the play range (frames looped with the music)');
    await page.keyboard.press('Escape');
  });

  it('the song’s offset: a visible label, seconds beside frames over the waveform with the drag hint; a click on the waveform moves the playhead, a drag still shifts the song', async () => {
    const { page } = s.app;
    const words = () => page.textContent('[data-testid="music-offset-words"]');
    const label = page.locator('[data-testid="music-offset-label"]');
    expect(await label.textContent()).toBe('Offset');
    expect(await label.isVisible()).toBe(true);
    expect(await label.getAttribute('for')).toBe(await page.getAttribute('[data-testid="music-offset"]', 'id'));
    expect(await page.textContent('[data-testid="music-wave-hint"]')).toBe('↔ drag to shift the song, click to go there');
    expect(await page.isVisible('[data-testid="music-wave-hint"]')).toBe(true);
    // 30 frames = 1.00 s ahead; −45 frames = the song 1.50 s later, at frame 45; 0.
    const typeOffset = async (v: string) => {
      await page.fill('[data-testid="music-offset"]', v);
      await page.press('[data-testid="music-offset"]', 'Enter');
    };
    await typeOffset('30');
    expect(await words()).toBe('Song +1.00 s (30 f): frame 0 plays it from 1.00 s');
    await typeOffset('-45');
    expect(await words()).toBe('Song −1.50 s (−45 f): it starts at frame 45');
    await typeOffset('0');
    expect(await words()).toBe('Song +0.00 s: it starts at frame 0');

    // A click on the waveform (under the hint's line) at frame 200: the playhead goes there, the song stays, no undo step.
    await seekFrameField(page, 0);
    const v = await viewOf(page);
    const box = (await page.locator('[data-testid="waveform"]').boundingBox())!;
    const undo0 = await page.evaluate(() => window.__vmdEditor!.history().undo);
    await page.mouse.click(box.x + (200 - v.frameStart) * v.pxPerFrame, box.y + box.height - 6);
    await page.waitForFunction(() => window.__vmdEditor!.frame().frame !== 0);
    expect(Math.abs((await frameNow(page)) - 200)).toBeLessThanOrEqual(1);
    expect(await page.evaluate(() => window.__vmdMusic!.state().offsetFrames)).toBe(0);
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(undo0);
    // A drag of 20 frames to the right still shifts the song 20 frames later.
    const y = box.y + box.height - 6;
    await page.mouse.move(box.x + 100, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 100 + 20 * v.pxPerFrame, y, { steps: 5 });
    await page.mouse.up();
    expect(await page.evaluate(() => window.__vmdMusic!.state().offsetFrames)).toBe(-20);
    expect(await words()).toBe('Song −0.67 s (−20 f): it starts at frame 20');
    await screenshot(page, 'music-offset-words');
    await typeOffset('0');
  });

  it('the playhead’s time beside the frame field: m:ss.xx', async () => {
    const { page } = s.app;
    await seekFrameField(page, 45);
    expect(await page.textContent('[data-testid="frame-clock"]')).toBe('0:01.50');
    await seekFrameField(page, 1260);
    expect(await page.textContent('[data-testid="frame-clock"]')).toBe('0:42.00');
    await page.keyboard.press('End');
    expect(await page.textContent('[data-testid="frame-clock"]')).toBe('0:20.00'); // the song's end: 20 s
  });
});
