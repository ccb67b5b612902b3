/**
 * Render → Video…'s dialog as an MMD video maker uses it (a new user's pass found each of these), in Chromium
 * through the browser mode, writing real files into a temp folder:
 * - the File field starts filled with the scene's name and the format's extension in the scene's folder
 *   (it started empty, Render greyed with no word why);
 * - a bare name (`shot`) is written beside the scene, the field showing the full path and the format's
 *   extension (a relative name went into the server's working folder; one without an extension was refused);
 * - range messages: From after To, and an empty From, say why Render is greyed;
 * - the sizes follow the preview's Frame (the scene file's 4:3): 720p writes 960 × 720 (it wrote 1280 × 720);
 * - the exported picture has no grid and MMD's white background by default (the editor's grid, fog and dark
 *   grey were baked into every video); "Show the grid" and a background colour change the exported frames
 *   only: the preview keeps its own; read back from the PNG sequence's file with the tests' PNG reader;
 * - a file already there is asked about before rendering ("taken.mp4 already exists. Replace it?": the render
 *   failed saying to tick a box), Replace writing over it;
 * - a render bigger than the disk's free space is said before it starts;
 * - a missing folder is named as a folder.
 * The tests run in order on the scene the first one opens (run the file, not one test of it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, appForSuite, corpusPath, openSceneViaDialog, textOf, writeSceneFolder } from './harness';
import { decodePng, type Rgba } from '../helpers/png';
import { copyWritable } from '../helpers/corpus';

const pixel = (img: Rgba, x: number, y: number) => [...img.data.subarray(4 * (y * img.width + x), 4 * (y * img.width + x) + 3)];

/** Pixels of the lower left quarter (the ground in front of the figure, which stands in the middle) unlike `bg`. */
function unlikeBackground(img: Rgba, bg: number[]): number {
  let n = 0;
  for (let y = Math.floor(img.height / 2); y < img.height; y++)
    for (let x = 0; x < Math.floor(img.width / 4); x++) {
      const p = pixel(img, x, y);
      if (Math.abs(p[0] - bg[0]) + Math.abs(p[1] - bg[1]) + Math.abs(p[2] - bg[2]) > 30) n++;
    }
  return n;
}

async function openDialog(page: Page): Promise<void> {
  await page.click('[data-testid="cmd-export-video"]');
  await page.waitForSelector('[data-testid="video-dialog"]');
}

/** Renders the dialog's choices and waits for the result line; returns its kind and text. */
async function render(page: Page): Promise<{ kind: string | null; text: string }> {
  await page.click('[data-testid="video-start"]');
  await page.waitForSelector('[data-testid="video-result"]', { timeout: 120_000 });
  return { kind: await page.getAttribute('[data-testid="video-result"]', 'data-kind'), text: await textOf(page, 'video-result') };
}

describe('Render → Video…: the dialog a video maker expects', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 900 } });
  let dir = '';

  it('the File field starts as the scene’s name with .mp4 in its folder; a bare name goes beside the scene with the format’s extension', async () => {
    const { page } = s.app;
    dir = path.join(s.tmp.dir, 'dance');
    mkdirSync(dir);
    const scenePath = writeSceneFolder(dir, [[corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), 'dance.vmd']], { actors: [{ name: 'Figure', model: null, motion: 'dance.vmd' }], activeActor: 0, aspect: { width: 4, height: 3 } }, 'duet.vmdscene');
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => document.title.includes('duet.vmdscene') && !!window.__vmdPreview?.info(), null, { timeout: 30_000 });
    await openDialog(page);
    expect(await page.inputValue('[data-testid="video-path"]')).toBe(path.join(dir, 'duet.mp4'));
    expect(await page.isDisabled('[data-testid="video-start"]')).toBe(false);
    expect(await page.$('[data-testid="video-blocked"]')).toBeNull();
    await s.app.screenshot('video-dialog-default');
    // PNG: the field follows the format; a bare name is made whole where the field is left.
    await page.selectOption('[data-testid="video-format"]', 'png');
    expect(await page.inputValue('[data-testid="video-path"]')).toBe(path.join(dir, 'duet.png'));
    await page.fill('[data-testid="video-path"]', 'shot');
    await page.press('[data-testid="video-path"]', 'Tab');
    expect(await page.inputValue('[data-testid="video-path"]')).toBe(path.join(dir, 'shot.png'));
    // An empty field says why Render is greyed.
    await page.fill('[data-testid="video-path"]', '');
    await page.waitForSelector('[data-testid="video-blocked"]');
    expect(await textOf(page, 'video-blocked')).toBe('Choose a file to write');
    expect(await page.isDisabled('[data-testid="video-start"]')).toBe(true);
  }, 120_000);

  it('range: From after To and an empty From say why Render is greyed; at 60 fps both counts are named', async () => {
    const { page } = s.app;
    await page.fill('[data-testid="video-path"]', 'shot');
    await page.fill('[data-testid="video-from"]', '100');
    await page.fill('[data-testid="video-to"]', '50');
    await page.waitForSelector('[data-testid="video-range-error"]');
    expect(await textOf(page, 'video-range-error')).toBe('The range starts after it ends (frame 100 to 50): nothing to render');
    expect(await textOf(page, 'video-blocked')).toBe('The range starts after it ends (frame 100 to 50): nothing to render');
    expect(await page.$('[data-testid="video-frames"]')).toBeNull();
    expect(await page.isDisabled('[data-testid="video-start"]')).toBe(true);
    await s.app.screenshot('video-dialog-range-reversed');
    await page.fill('[data-testid="video-from"]', '');
    await page.waitForFunction(() => document.querySelector('[data-testid="video-range-error"]')?.textContent?.includes('first frame'));
    expect(await page.isDisabled('[data-testid="video-start"]')).toBe(true);
    await page.fill('[data-testid="video-from"]', '0');
    await page.fill('[data-testid="video-to"]', '89');
    await page.selectOption('[data-testid="video-fps"]', '60');
    await page.waitForFunction(() => document.querySelector('[data-testid="video-frames"]')?.textContent === '90 MMD frames → 180 video frames, 3.00 s');
    expect(await page.$('[data-testid="video-range-error"]')).toBeNull();
    // The range in seconds too: frames 0–89 are the motion's first 3 s; 300–360 run from 10.00 s to 12.03 s (61 / 30).
    expect(await textOf(page, 'video-range-time')).toBe('0.00 s to 3.00 s of the motion');
    await page.fill('[data-testid="video-from"]', '300');
    await page.fill('[data-testid="video-to"]', '360');
    await page.waitForFunction(() => document.querySelector('[data-testid="video-range-time"]')?.textContent === '10.00 s to 12.03 s of the motion');
    await page.fill('[data-testid="video-from"]', '0');
    await page.fill('[data-testid="video-to"]', '89');
    // The Video… button's tooltip names no Render menu: the browser mode has none.
    const videoTitle = (await page.getAttribute('[data-testid="cmd-export-video"]', 'title'))!;
    expect(videoTitle).not.toContain('Render →');
    expect(videoTitle).toMatch(/^Make a video of the scene/);
    await page.selectOption('[data-testid="video-fps"]', '30');
  }, 60_000);

  it('a 4:3 Frame at 720p writes 960 × 720; no grid and a white background by default; the grid and a red background when chosen; the preview keeps its own', async () => {
    const { page } = s.app;
    // The scene's Frame is 4:3 (its file says so).
    await page.selectOption('[data-testid="video-size"]', '720p');
    await page.waitForFunction(() => document.querySelector('[data-testid="video-dims"]')?.textContent === '960 × 720');
    expect(await textOf(page, 'video-aspect')).toBe('Aspect 4:3, as the preview’s Aspect');
    await page.selectOption('[data-testid="video-format"]', 'png');
    await page.fill('[data-testid="video-from"]', '0');
    await page.fill('[data-testid="video-to"]', '0');
    expect(await page.isChecked('[data-testid="video-grid"]')).toBe(false);
    expect(await page.inputValue('[data-testid="video-background"]')).toBe('#ffffff');
    await page.fill('[data-testid="video-path"]', 'plain');
    const plain = await render(page);
    expect(plain.kind, plain.text).toBe('done');
    const a = decodePng(new Uint8Array(readFileSync(path.join(dir, 'plain_000000.png'))));
    expect([a.width, a.height]).toEqual([960, 720]);
    expect(pixel(a, 2, 2)).toEqual([255, 255, 255]);
    expect(pixel(a, a.width - 3, a.height - 3)).toEqual([255, 255, 255]);
    const plainGround = unlikeBackground(a, [255, 255, 255]);
    mkdirSync(ARTIFACTS, { recursive: true });
    copyWritable(path.join(dir, 'plain_000000.png'), path.join(ARTIFACTS, 'video-dialog-frame-plain.png'));

    await page.check('[data-testid="video-grid"]');
    await page.fill('[data-testid="video-background"]', '#ff0000');
    await page.fill('[data-testid="video-path"]', 'grid');
    const grid = await render(page);
    expect(grid.kind, grid.text).toBe('done');
    await s.app.screenshot('video-dialog-done');
    // After the render, the browser mode offers Copy path (a page cannot open the file manager or a player, and
    // says so); Open video and Show in folder are the desktop app's. The path copied is the one written.
    expect(await page.$('[data-testid="video-open-file"]')).toBeNull();
    expect(await page.$('[data-testid="video-show-folder"]')).toBeNull();
    expect(await page.getAttribute('[data-testid="video-copy-path"]', 'title')).toContain('the browser mode cannot open the file manager or a player');
    await page.evaluate(() => {
      const w = window as unknown as { __copied: string[] };
      w.__copied = [];
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (x: string) => void w.__copied.push(x) } });
    });
    await page.click('[data-testid="video-copy-path"]');
    await page.waitForSelector('[data-testid="video-copy-note"]');
    expect(await textOf(page, 'video-copy-note')).toBe('Path copied: paste it into your file manager (the browser mode cannot open it itself)');
    const written = /^Written: (.*) \(1 frame,/.exec(grid.text)?.[1];
    expect(written, grid.text).toBeTruthy();
    expect(await page.evaluate(() => (window as unknown as { __copied: string[] }).__copied)).toEqual([written]);
    const b = decodePng(new Uint8Array(readFileSync(path.join(dir, 'grid_000000.png'))));
    copyWritable(path.join(dir, 'grid_000000.png'), path.join(ARTIFACTS, 'video-dialog-frame-grid.png'));
    expect(pixel(b, 2, 2)).toEqual([255, 0, 0]);
    const gridGround = unlikeBackground(b, [255, 0, 0]);
    console.log(`[video-dialog] ground pixels unlike the background: ${plainGround} without the grid, ${gridGround} with it`);
    expect(plainGround).toBe(0);
    expect(gridGround).toBeGreaterThan(500);
    // The preview draws its own dark grey still.
    const shown = await page.evaluate(() => window.__vmdPreview!.frameImage());
    const mine: Rgba = { width: shown.width, height: shown.height, data: new Uint8Array(Buffer.from(shown.rgba, 'base64')) };
    const corner = pixel(mine, 1, 1);
    expect(corner.every((c, i) => Math.abs(c - [0x2b, 0x2f, 0x36][i]) <= 3), `preview corner ${corner}`).toBe(true);
    // Both remembered for the next dialog.
    await page.click('[data-testid="video-close"]');
    await openDialog(page);
    expect(await page.isChecked('[data-testid="video-grid"]')).toBe(true);
    expect(await page.inputValue('[data-testid="video-background"]')).toBe('#ff0000');
  }, 300_000);

  it('a file already there is asked about before anything renders: Choose another name goes back to the field, Replace writes over it', async () => {
    const { page } = s.app;
    const taken = path.join(dir, 'taken.mp4');
    writeFileSync(taken, 'not a video yet');
    await page.selectOption('[data-testid="video-format"]', 'mp4');
    await page.selectOption('[data-testid="video-size"]', 'scene');
    await page.fill('[data-testid="video-height"]', '120');
    await page.fill('[data-testid="video-from"]', '0');
    await page.fill('[data-testid="video-to"]', '2');
    await page.fill('[data-testid="video-path"]', taken);
    await page.click('[data-testid="video-start"]');
    await page.waitForSelector('[data-testid="video-replace"]');
    // Asked, not failed: nothing rendered, the file untouched, Render waits for the answer.
    expect(await textOf(page, 'video-replace')).toBe('taken.mp4 already exists. Replace it?ReplaceChoose another name');
    expect(await page.$('[data-testid="video-result"]')).toBeNull();
    expect(await page.$('[data-testid="video-progress"]')).toBeNull();
    expect(await page.isDisabled('[data-testid="video-start"]')).toBe(true);
    expect(readFileSync(taken, 'utf8')).toBe('not a video yet');
    await s.app.screenshot('video-dialog-replace-ask');
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="video-replace"]')?.textContent?.includes('置き換えますか'));
    expect(await textOf(page, 'video-replace')).toBe('taken.mp4 はすでにあります。置き換えますか？置き換える別の名前にする');
    await page.selectOption('[data-testid="locale"]', 'en');
    // Choose another name: the question goes, the name is selected in the field to type over.
    await page.click('[data-testid="video-replace-no"]');
    expect(await page.$('[data-testid="video-replace"]')).toBeNull();
    expect(await page.evaluate(() => { const el = document.activeElement as HTMLInputElement; return el.dataset.testid + ':' + el.value.slice(el.selectionStart!, el.selectionEnd!); })).toBe('video-path:taken');
    expect(readFileSync(taken, 'utf8')).toBe('not a video yet');
    // Asked again; Replace renders over it (an MP4 now: "ftyp" at byte 4).
    await page.click('[data-testid="video-start"]');
    await page.waitForSelector('[data-testid="video-replace"]');
    await page.click('[data-testid="video-replace-yes"]');
    await page.waitForSelector('[data-testid="video-result"]', { timeout: 120_000 });
    expect(await page.getAttribute('[data-testid="video-result"]', 'data-kind'), await textOf(page, 'video-result')).toBe('done');
    expect(readFileSync(taken).subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  }, 180_000);

  it('a render bigger than the free space of its disk is said before it starts (Render still allowed)', async () => {
    const { page } = s.app;
    // Ten hours at 4320 lines: hundreds of GB, more than this machine's temp disk has.
    await page.fill('[data-testid="video-height"]', '4320');
    await page.fill('[data-testid="video-from"]', '0');
    await page.fill('[data-testid="video-to"]', '1079999');
    await page.fill('[data-testid="video-path"]', path.join(dir, 'long.mp4'));
    await page.waitForSelector('[data-testid="video-space"]');
    const m = /^About ([\d,]+) MB needed, ([\d,]+) MB free on that disk$/.exec(await textOf(page, 'video-space'));
    expect(m).not.toBeNull();
    const [w, h] = (await textOf(page, 'video-dims')).split(' × ').map(Number);
    expect([w, h]).toEqual([5760, 4320]);
    // mediabunny's H.264 target at that size (3 Mb/s at 1080p × pixel ratio^0.95 × 0.3·e^(2.5538·0.75)) for 36,000 s, 2 % for the boxes; no music.
    const bitrate = 3e6 * ((w * h) / (1920 * 1080)) ** 0.95 * 0.3 * Math.exp(2.5538 * 0.75);
    const needed = Number(m![1].replace(/,/g, ''));
    expect(Math.abs(needed - (bitrate * 36_000 * 1.02) / 8 / 1048576) / needed).toBeLessThan(0.001);
    // The free space as df reads it for that folder (others write meanwhile: within 1 GB).
    const free = Number(m![2].replace(/,/g, ''));
    const df = Number(execFileSync('df', ['-B1', '--output=avail', dir], { encoding: 'utf8' }).trim().split('\n').pop()) / 1048576;
    expect(Math.abs(free - df)).toBeLessThan(1024);
    expect(await page.isDisabled('[data-testid="video-start"]')).toBe(false);
    await s.app.screenshot('video-dialog-space');
    // A range that fits says nothing.
    await page.fill('[data-testid="video-to"]', '2');
    await page.waitForFunction(() => !document.querySelector('[data-testid="video-space"]'));
    // As the tests before left it.
    await page.selectOption('[data-testid="video-size"]', '720p');
    await page.fill('[data-testid="video-to"]', '0');
    await page.selectOption('[data-testid="video-format"]', 'png');
  }, 60_000);

  it('a PNG sequence named by a folder that is there goes into it, named after the scene (nulight 8)', async () => {
    const { page } = s.app;
    const shots = path.join(dir, 'shots');
    mkdirSync(shots);
    await page.fill('[data-testid="video-path"]', shots);
    await page.press('[data-testid="video-path"]', 'Tab');
    await page.waitForFunction((p) => (document.querySelector('[data-testid="video-path"]') as HTMLInputElement).value === p, path.join(shots, 'duet.png'));
    const r = await render(page);
    expect(r.kind, r.text).toBe('done');
    expect(readdirSync(shots)).toEqual(['duet_000000.png']);
    expect(existsSync(`${shots}_000000.png`)).toBe(false);
    expect(r.text).toContain(`Written: ${path.join(shots, 'duet_000000.png')} (1 frame,`);
  }, 60_000);

  it('a missing folder is named as a folder', async () => {
    const { page } = s.app;
    const nodir = path.join(dir, 'nodir');
    await page.fill('[data-testid="video-path"]', path.join(nodir, 'x'));
    const r = await render(page);
    expect(r.kind).toBe('failed');
    expect(r.text).toBe(`The export failed: The folder ${nodir} does not exist: choose another, or make it first`);
    expect(await page.inputValue('[data-testid="video-path"]')).toBe(path.join(nodir, 'x.png'));
    expect(existsSync(nodir)).toBe(false);
    await s.app.screenshot('video-dialog-no-folder');
    // In Japanese too.
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="video-result"]')?.textContent?.includes('がありません'));
    expect(await textOf(page, 'video-result')).toBe(`書き出しに失敗しました: フォルダ ${nodir} がありません: 別のフォルダを選ぶか、先に作成してください`);
    await s.app.screenshot('video-dialog-ja');
    await page.selectOption('[data-testid="locale"]', 'en');
    expect(s.app.errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  }, 120_000);

  // New-user pass nujp 8: a long folder left the field showing the folder's start, the file's name out of view.
  it('a long path: the File field shows its end, the file name, and again after typing in it and leaving', async () => {
    const { page } = s.app;
    const long = path.join(dir, 'ドキュメント', 'MMD', 'モーション', '長いフォルダの名前（第１話・完成版）');
    await page.fill('[data-testid="video-path"]', path.join(long, 'ミク ダンス 動画（テスト）'));
    await page.press('[data-testid="video-path"]', 'Tab');
    expect(await page.inputValue('[data-testid="video-path"]')).toBe(path.join(long, 'ミク ダンス 動画（テスト）.png'));
    const view = () => page.$eval('[data-testid="video-path"]', (el) => { const i = el as HTMLInputElement; return { left: i.scrollLeft, width: i.clientWidth, all: i.scrollWidth }; });
    await page.waitForFunction(() => { const i = document.querySelector<HTMLInputElement>('[data-testid="video-path"]')!; return i.scrollLeft > 0; });
    const v = await view();
    expect(v.all).toBeGreaterThan(v.width); // it does overflow
    expect(v.left + v.width).toBeGreaterThanOrEqual(v.all - 1); // scrolled to its end
    await s.app.screenshot('video-dialog-long-path');
  }, 60_000);
});
