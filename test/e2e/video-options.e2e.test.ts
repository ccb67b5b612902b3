/**
 * Render → Video…'s own choices beside the editor's (a new user's pass found each), in Chromium through the
 * browser mode, read back by Debian's ffprobe/ffmpeg. The scene: Gene_light.pmx (87 rigid bodies) dancing
 * wavefile_v2.vmd through wavefile_camera.vmd, with a WAV of clicks written here at a music offset of 6 frames.
 * Small pictures (240 lines, 30 frames): what is checked does not depend on the size.
 * - The editor's Mute and Volume are for listening: a muted editor with Volume at 0.2 still writes an audio
 *   stream whose level matches the unmuted render (muted, it wrote no audio stream; at 0.2, 14 dB down).
 * - Physics in the video is the dialog's own box, ticked by default whatever the preview's switch (off here,
 *   as on a first load): the hair and scarf move, so frame 29 differs from the render with the box unticked.
 * - 24 fps: frames 0–29 (1 s of the 30 fps motion) are 24 video frames at 24/1, 1 s, with the song cut to it.
 * The tests run in order on the scene the first one opens (run the file, not one test of it).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, openSceneViaDialog, textOf, writeSceneFolder } from './harness';
import { pcm16Wav } from '../helpers/wav';

const RATE = 48_000;
const HEIGHT = 240;

function clicksWav(): Uint8Array {
  const s = new Int16Array(Math.round(2 * RATE));
  for (const t of [0.7, 1.7]) {
    const at = Math.round(t * RATE);
    for (let i = 0; i < 0.004 * RATE; i++) s[at + i] = Math.round(30000 * Math.sin((2 * Math.PI * 2000 * i) / RATE));
  }
  return pcm16Wav(s, 1, RATE);
}

function streams(file: string): { codec_type: string; codec_name: string; width: number; height: number }[] {
  return (JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height', '-of', 'json', file], { encoding: 'utf8' })) as { streams: never[] }).streams;
}

/** The peak of the audio track decoded by ffmpeg (mono 48 kHz float samples). */
function audioPeak(file: string): number {
  const data = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:a:0', '-ac', '1', '-ar', String(RATE), '-f', 'f32le', '-'], { maxBuffer: 64 * 1024 * 1024 });
  const s = new Float32Array(data.buffer, data.byteOffset, data.length / 4);
  return s.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
}

/** Frame n decoded by ffmpeg as RGB bytes. */
function frameRgb(file: string, n: number): Uint8Array {
  return new Uint8Array(execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-vf', `select=eq(n\\,${n})`, '-vframes', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { maxBuffer: 64 * 1024 * 1024 }));
}

/** Mean absolute difference per channel. */
function meanDiff(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

async function openDialog(page: Page): Promise<void> {
  await page.click('[data-testid="cmd-export-video"]');
  await page.waitForSelector('[data-testid="video-dialog"]');
}

/** Renders frames 0–29 at 240 lines to `file` with the dialog as it stands (`setup` ticks what it needs). */
async function render(page: Page, file: string, setup: () => Promise<void> = async () => undefined, fps = 30): Promise<void> {
  await openDialog(page);
  await page.selectOption('[data-testid="video-fps"]', String(fps));
  await page.selectOption('[data-testid="video-size"]', 'scene');
  await page.fill('[data-testid="video-height"]', String(HEIGHT));
  await page.fill('[data-testid="video-from"]', '0');
  await page.fill('[data-testid="video-to"]', '29');
  await page.selectOption('[data-testid="video-format"]', 'mp4');
  await setup();
  await page.fill('[data-testid="video-path"]', file);
  await page.click('[data-testid="video-start"]');
  await page.waitForSelector('[data-testid="video-result"]', { timeout: 400_000 });
  const text = await textOf(page, 'video-result');
  expect(await page.getAttribute('[data-testid="video-result"]', 'data-kind'), text).toBe('done');
  console.log(`[video-options] ${text}`);
  await page.click('[data-testid="video-close"]');
}

describe('Render → Video…: the video’s own sound and physics, not the editor’s switches', () => {
  const s = appForSuite({ viewport: { width: 1400, height: 900 } });
  const LONG = 600_000;
  let dir = '';
  let plain = '';

  it('a muted editor with Volume at 0.2 still writes the song at the level of an unmuted render', async () => {
    const { page } = s.app;
    dir = path.join(s.tmp.dir, 'scene');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'clicks.wav'), clicksWav());
    const scenePath = writeSceneFolder(dir, [[corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), 'dance.vmd'], [corpusPath('threejs/vmds/wavefile_camera.vmd'), 'camera.vmd']], {
      actors: [{ name: 'Gene', model: corpusPath('gene/Gene_light.pmx'), motion: 'dance.vmd' }],
      activeActor: 0,
      camera: 'camera.vmd',
      audio: { path: 'clicks.wav', offsetFrames: 6, volume: 1, muted: false },
    });
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => !!window.__vmdPreview?.info().model, null, { timeout: 120_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid="preview-pane"]')?.textContent?.includes('Loading model'), null, { timeout: 120_000 });
    await page.waitForSelector('[data-testid="waveform"][data-loaded="true"]', { timeout: 60_000 });

    plain = path.join(dir, 'plain.mp4');
    await render(page, plain);
    const loud = audioPeak(plain);
    expect(loud).toBeGreaterThan(0.3);

    await page.fill('[data-testid="music-volume"]', '0.2');
    await page.click('[data-testid="music-mute"]');
    expect(await page.getAttribute('[data-testid="music-mute"]', 'aria-pressed')).toBe('true');
    const muted = path.join(dir, 'muted.mp4');
    await render(page, muted, async () => {
      expect(await textOf(page, 'video-music-volume')).toBe('The song is written at full volume (the editor’s mute and volume are for listening)');
    });
    const a = streams(muted).find((x) => x.codec_type === 'audio');
    expect(a?.codec_name).toBe('aac');
    const mine = audioPeak(muted);
    console.log(`[video-options] peak: unmuted ${(20 * Math.log10(loud)).toFixed(1)} dB, muted editor at volume 0.2 ${(20 * Math.log10(mine)).toFixed(1)} dB`);
    expect(Math.abs(20 * Math.log10(mine / loud))).toBeLessThan(1);
    await page.click('[data-testid="music-mute"]');
    await page.fill('[data-testid="music-volume"]', '1');
  }, LONG);

  it('Physics is the video’s own box, ticked by default with the preview’s Physics off; unticked gives other frames', async () => {
    const { page } = s.app;
    expect(await page.isChecked('[data-testid="preview-physics"]')).toBe(false);
    // The first render (plain.mp4) left the box as it opened: ticked.
    await openDialog(page);
    expect(await textOf(page, 'video-physics-row')).toContain('Simulate hair and skirts');
    expect(await page.isChecked('[data-testid="video-physics"]')).toBe(true);
    await s.app.screenshot('video-options-dialog');
    await page.click('[data-testid="video-close"]');
    const off = path.join(dir, 'nophysics.mp4');
    await render(page, off, () => page.uncheck('[data-testid="video-physics"]'));
    const on = path.join(dir, 'physics-again.mp4');
    await render(page, on, () => page.check('[data-testid="video-physics"]'));
    // Frame 0: physics settled at the range's first frame; frame 29: a second of the dance later.
    const [a0, b0, c0] = [plain, off, on].map((f) => frameRgb(f, 29));
    const dOff = meanDiff(a0, b0), dSame = meanDiff(a0, c0);
    console.log(`[video-options] frame 29: physics on vs off ${dOff.toFixed(3)}, on vs on ${dSame.toFixed(3)} per channel`);
    // The hair and scarf are a small part of a 427 × 240 picture (0.12 per channel here); the same choice twice
    // gives the same frames (0).
    expect(dOff).toBeGreaterThan(0.03);
    expect(dSame).toBeLessThan(dOff / 4);
    // The preview's switch is as it was.
    expect(await page.isChecked('[data-testid="preview-physics"]')).toBe(false);
    expect(s.app.errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  }, LONG);

  it('24 fps: frames 0–29 make 24 frames at 24/1, 1 s, with an audio stream', async () => {
    const { page } = s.app;
    const f24 = path.join(dir, 'f24.mp4');
    await render(page, f24, async () => undefined, 24);
    const p = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-show_entries', 'stream=codec_type,nb_read_frames,avg_frame_rate,duration', '-of', 'json', f24], { encoding: 'utf8' })) as { streams: { codec_type: string; nb_read_frames?: string; avg_frame_rate?: string; duration?: string }[] };
    const v = p.streams.find((x) => x.codec_type === 'video')!;
    const a = p.streams.find((x) => x.codec_type === 'audio')!;
    console.log(`[video-options] 24 fps: ${JSON.stringify(p.streams)}`);
    expect(Number(v.nb_read_frames)).toBe(24);
    expect(v.avg_frame_rate).toBe('24/1');
    expect(Number(a.duration)).toBeCloseTo(1, 1);
  }, LONG);
});
