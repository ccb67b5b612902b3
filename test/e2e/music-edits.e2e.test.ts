/**
 * The music user's findings (nusync 2, 3, 4, 8, 9) in Chromium through the browser mode, with WAVs this test
 * writes: Beats finds the tempo of a plain 1 kHz click track (web-audio-beat-detector alone called it "no steady
 * beat") and BPM… types one; a waveform drag is an undo step of its own (Ctrl+Z puts the song back and leaves
 * the key moved before it), as is ×; another song starts at offset 0 and the notice says so; ×N… offers the
 * beat as its interval; a long Japanese notice is shown whole or says there is more.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, openFileViaDialog, openMusicViaDialog } from './harness';
import { pcm16Wav } from '../helpers/wav';
import { clickKey, keyPoint, boneFrames } from './editor-page';
import { buildFixture, SJIS } from '../helpers/vmd-fixtures';

const SR = 44_100;
const SECONDS = 20;

/** 16-bit PCM mono WAV: a 1 kHz click (30 ms, decaying) every 0.5 s from 0, louder every 2 s, over a quiet 440 Hz tone. */
function clickTrack(): Uint8Array {
  const pcm = new Int16Array(SR * SECONDS);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(1500 * Math.sin((2 * Math.PI * 440 * i) / SR));
  for (let k = 0; k < SECONDS * 2; k++) {
    const s0 = k * (SR / 2);
    for (let i = 0; i < SR * 0.03; i++) pcm[s0 + i] += Math.round((k % 4 ? 15_000 : 28_000) * Math.sin((2 * Math.PI * 1000 * i) / SR) * Math.exp(-i / (SR * 0.01)));
  }
  return pcm16Wav(pcm, 1, SR);
}

const offset = (page: Page) => page.evaluate(() => window.__vmdMusic!.state().offsetFrames);
const undoDepth = (page: Page) => page.evaluate(() => window.__vmdEditor!.history().undo);
/** The newest notice about the song loaded (waited for). */
async function songNotice(page: Page): Promise<string> {
  const n = page.locator('[data-testid="notice-message"]', { hasText: 'Music: ' }).last();
  await n.waitFor();
  const text = ((await n.textContent()) ?? '').trim();
  await store(page, 'notify', 'clear', []);
  return text;
}
const lastNotice = async (page: Page) => ((await page.locator('[data-testid="notice-message"]').last().textContent()) ?? '').trim();

/** A store of the running app (Pinia's, through the Vue app on #app). */
function store<T>(page: Page, id: string, call: string, args: unknown[]): Promise<T> {
  return page.evaluate(
    ([id, call, args]) => {
      const app = (document.querySelector('#app') as unknown as { __vue_app__: { config: { globalProperties: { $pinia: { _s: Map<string, Record<string, (...a: unknown[]) => unknown>> } } } } }).__vue_app__;
      return app.config.globalProperties.$pinia._s.get(id as string)![call as string](...(args as unknown[])) as T;
    },
    [id, call, args] as const,
  );
}

describe('music edits', () => {
  const s = appForSuite({ viewport: { width: 1440, height: 900 } });

  it('Beats finds 120 BPM in a 1 kHz click track (beats on 0, 15, 30 …); BPM… types another grid', async () => {
    const { page } = s.app;
    const motion = path.join(s.tmp.dir, 'beats.vmd');
    writeFileSync(motion, buildFixture({ bones: [{ name: SJIS.センター, frame: 0 }, { name: SJIS.センター, frame: 90, pos: [0, 1, 0] }] }));
    const wav = path.join(s.tmp.dir, 'clicks1k.wav');
    writeFileSync(wav, clickTrack());
    await openFileViaDialog(page, motion);
    await openMusicViaDialog(page, wav);

    await page.click('[data-testid="music-beats"]');
    await page.waitForFunction(() => ['ready', 'none'].includes(window.__vmdMusic!.beats().state), undefined, { timeout: 20_000 });
    const b = await page.evaluate(() => window.__vmdMusic!.beats());
    expect(b.state).toBe('ready');
    expect(Math.abs(b.bpm! - 120)).toBeLessThanOrEqual(0.5);
    expect(b.frames.length).toBe(SECONDS * 2);
    b.frames.forEach((f, k) => expect(Math.abs(f - 15 * k), `beat ${k} at ${f}`).toBeLessThan(1 / 3));
    expect(b.frames.slice(0, 4).map(Math.round)).toEqual([0, 15, 30, 45]);
    expect(await lastNotice(page)).toBe('Beats: 120 BPM, first beat at 0.000 s');
    await s.app.screenshot('music-edits-beats-1k');

    // BPM…: opens with the grid found; 100 BPM with a beat at frame 6 → beats at 6, 24, 42 … (0.6 s = 18 frames).
    await page.click('[data-testid="music-bpm"]');
    expect(await page.inputValue('[data-testid="bpm-tempo"]')).toBe('120');
    expect(await page.inputValue('[data-testid="bpm-frame"]')).toBe('0');
    await page.fill('[data-testid="bpm-tempo"]', '100');
    await page.fill('[data-testid="bpm-frame"]', '6');
    expect((await page.textContent('[data-testid="bpm-plan"]'))!.trim()).toBe('A beat every 18 frames; beats at 6, 24, 42, 60 …');
    await s.app.screenshot('music-edits-bpm-dialog');
    await page.click('[data-testid="bpm-apply"]');
    await page.waitForSelector('[data-testid="bpm-dialog"]', { state: 'detached' });
    const typed = await page.evaluate(() => window.__vmdMusic!.beats());
    expect(typed.bpm).toBe(100);
    expect(typed.frames.slice(0, 4).map((f) => Math.round(f * 1e6) / 1e6)).toEqual([6, 24, 42, 60]);
    // Back to the found grid for what follows (120 BPM from 0).
    await page.click('[data-testid="music-bpm"]');
    await page.fill('[data-testid="bpm-tempo"]', '120');
    await page.fill('[data-testid="bpm-frame"]', '0');
    await page.press('[data-testid="bpm-frame"]', 'Enter');
    await page.waitForSelector('[data-testid="bpm-dialog"]', { state: 'detached' });
  });

  it('×N… offers the beat as the interval: 1 beat = 15 frames at 120 BPM, 1 bar = 60', async () => {
    const { page } = s.app;
    await clickKey(page, 'track-bone:0', 0);
    await page.click('[data-testid="copy-keys"]');
    await page.click('[data-testid="paste-repeat"]');
    await page.waitForSelector('[data-testid="paste-repeat-dialog"]');
    expect((await page.textContent('[data-testid="paste-repeat-beat"]'))!.trim()).toBe('1 beat = 15 frames at 120 BPM');
    expect((await page.textContent('[data-testid="paste-repeat-bar"]'))!.trim()).toBe('1 bar = 60');
    expect((await page.textContent('[data-testid="paste-repeat-bars"]'))!.trim()).toBe('2 bars = 120');
    await page.fill('[data-testid="paste-repeat-every"]', '7');
    await page.click('[data-testid="paste-repeat-bar"]');
    expect(await page.inputValue('[data-testid="paste-repeat-every"]')).toBe('60');
    await page.click('[data-testid="paste-repeat-beat"]');
    expect(await page.inputValue('[data-testid="paste-repeat-every"]')).toBe('15');
    await s.app.screenshot('music-edits-paste-beats');
    await page.click('[data-testid="paste-repeat-cancel"]');
    await page.waitForSelector('[data-testid="paste-repeat-dialog"]', { state: 'detached' });
  });

  it('a waveform drag is one undo step named "music offset": Ctrl+Z puts the song back and leaves the key moved before it; × is undone too', async () => {
    const { page } = s.app;
    // A key edit first: the key at 90 dragged to about 120.
    const from = await keyPoint(page, 'track-bone:0', 90);
    const to = await keyPoint(page, 'track-bone:0', 120);
    const before = await undoDepth(page);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 6 });
    await page.mouse.up();
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, before);
    const moved = await boneFrames(page);
    expect(moved[1]).not.toBe(90);

    // The waveform dragged 100 px right: the offset goes down; one step, named.
    expect(await offset(page)).toBe(0);
    const box = (await page.locator('[data-testid="waveform"]').boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 300, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 400, y, { steps: 5 });
    await page.mouse.up();
    const dragged = await offset(page);
    expect(dragged).toBeLessThan(0);
    expect(await undoDepth(page)).toBe(before + 2);
    expect(await page.getAttribute('[data-testid="cmd-undo"]', 'title')).toMatch(/^Undo: music offset \(clicks1k\.wav\)/);
    await s.app.screenshot('music-edits-undo-title');

    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => window.__vmdMusic!.state().offsetFrames === 0);
    expect(await boneFrames(page)).toEqual(moved); // the key stays where it was moved
    await page.keyboard.press('Control+y');
    await page.waitForFunction((o) => window.__vmdMusic!.state().offsetFrames === o, dragged);

    // A typed offset is a step too.
    await page.fill('[data-testid="music-offset"]', '12');
    await page.press('[data-testid="music-offset"]', 'Enter');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 3, before);
    // The undo button (Ctrl+Z in the field still holding the focus is the field's own undo).
    await page.click('[data-testid="cmd-undo"]');
    await page.waitForFunction((o) => window.__vmdMusic!.state().offsetFrames === o, dragged);

    // ×: the song goes; Ctrl+Z brings the same song back, at its offset.
    await page.click('[data-testid="music-remove"]');
    await page.waitForSelector('[data-testid="waveform"][data-loaded="false"]');
    expect(await page.getAttribute('[data-testid="cmd-undo"]', 'title')).toMatch(/^Undo: remove music/);
    await page.keyboard.press('Control+z');
    await page.waitForSelector('[data-testid="waveform"][data-loaded="true"]');
    expect(await page.evaluate(() => window.__vmdMusic!.state().name)).toBe('clicks1k.wav');
    expect(await offset(page)).toBe(dragged);
    expect(await boneFrames(page)).toEqual(moved);
  });

  it('another song starts at offset 0 and the notice says the offset was reset; the same file again keeps it', async () => {
    const { page } = s.app;
    await page.fill('[data-testid="music-offset"]', '45');
    await page.press('[data-testid="music-offset"]', 'Enter');
    await page.waitForFunction(() => window.__vmdMusic!.state().offsetFrames === 45);
    const other = path.join(s.tmp.dir, 'other.wav');
    writeFileSync(other, clickTrack());
    // × then ♪ Music… with another song (× keeps the offset: its undo puts the song back as it was).
    await page.click('[data-testid="music-remove"]');
    await page.waitForSelector('[data-testid="waveform"][data-loaded="false"]');
    expect(await offset(page)).toBe(45);
    await openMusicViaDialog(page, other);
    await page.waitForFunction(() => window.__vmdMusic!.state().name === 'other.wav');
    expect(await offset(page)).toBe(0);
    // (Beats is on: its notice for the new song may come after this one.)
    expect(await songNotice(page)).toBe('Music: other.wav (20.0 s); offset reset to 0 (it was 45 for the previous song)');
    await s.app.screenshot('music-edits-offset-reset');

    await page.fill('[data-testid="music-offset"]', '-30');
    await page.press('[data-testid="music-offset"]', 'Enter');
    await page.click('[data-testid="music-remove"]');
    await page.waitForSelector('[data-testid="waveform"][data-loaded="false"]');
    await openMusicViaDialog(page, other);
    expect(await offset(page)).toBe(-30);
    expect(await songNotice(page)).toBe('Music: other.wav (20.0 s); offset -30 kept (the same file as before)');
  });

  it('a long Japanese notice is shown whole in its box or fades over a 続きを表示 toggle that shows it all', async () => {
    const { page } = s.app;
    await store(page, 'settings', 'setLocale', ['ja']);
    await store(page, 'notify', 'clear', []);
    // The notice of the report's "load onto actor", with a path long enough for five lines in the notices' column
    // (they stand in the preview's corner, 360 px wide here: the report's own path made four).
    const params = { name: '02_laugh.vmd', actor: 'Gene_light', file: '/home/someone/Documents/MMD/projects/session-2026-12-07/nusync/out/lipsync-takes/second-pass/lipsync.vmd' };
    await store(page, 'notify', 'warning', [{ key: 'scene.motionLoaded', params }]);
    const text = page.locator('[data-testid="notice-text"]').last();
    await text.waitFor();
    const m = await text.evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight, lines: Math.round(el.scrollHeight / parseFloat(getComputedStyle(el).lineHeight)) }));
    console.log(`notice: ${m.lines} lines, ${m.scroll} px of text in a ${m.client} px box`);
    await s.app.screenshot('music-edits-notice-ja');
    expect(m.lines).toBeGreaterThanOrEqual(5);
    // Whole in its box (up to five lines), or cut with the toggle in sight: never a line cut without a sign.
    const cut = m.scroll > m.client + 1;
    expect(await page.locator('[data-testid="notice-more"]').count()).toBe(cut ? 1 : 0);
    if (cut) expect(await page.isVisible('[data-testid="notice-more"]')).toBe(true);

    // Much longer: cut, with the toggle; the toggle shows it all.
    const long = { ...params, file: `${params.file} ${params.file} ${params.file} ${params.file} ${params.file} ${params.file}` };
    await store(page, 'notify', 'clear', []);
    await store(page, 'notify', 'warning', [{ key: 'scene.motionLoaded', params: long }]);
    // The earlier notice fades out first (its leave transition): then the one left is the long one.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="notice-text"]').length === 1);
    const more = page.locator('[data-testid="notice-more"]');
    await more.waitFor();
    expect((await more.textContent())!.trim()).toBe('▾ 続きを表示');
    await s.app.screenshot('music-edits-notice-more');
    await more.click();
    await page.waitForFunction(() => document.querySelector('[data-testid="notice-text"]')!.classList.contains('whole'));
    const all = await page.locator('[data-testid="notice-text"]').evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
    expect(all.scroll).toBeLessThanOrEqual(all.client + 1);
    expect((await more.textContent())!.trim()).toBe('▴ 折りたたむ');
    await s.app.screenshot('music-edits-notice-whole');
    await store(page, 'settings', 'setLocale', ['en']);
  });
});
