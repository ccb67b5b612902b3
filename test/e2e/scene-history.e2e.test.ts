/**
 * Scene-level actions and undo as a desktop user expects them, in Chromium through the browser mode (the
 * scenefix findings): + Actor is an undo step of its own ("Undo: add camera (camera.vmd)": Ctrl+Z takes the
 * camera out, not the dance's edit before it, and redo puts it back); the title puts the * on the scene and
 * after the active document only when that one is unsaved; the dance's undone steps stay to redo through an
 * edit of the camera and × on its tab; Save All and Open over an untitled scene (a dance, a camera, music)
 * asks the scene file's name, says so and keeps the scene when that is cancelled, and opens the file once it
 * is saved. Screenshot: test-artifacts/scene-history-not-opened.png.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, fileDialogReady, openFileViaDialog, openMusicViaDialog, openThroughDialog, saveThroughDialog } from './harness';
import { keyPoint, animationFrames as frames } from './editor-page';
import { pcm16Wav } from '../helpers/wav';
import { buildTracks, readVmd } from '../../shared/vmd';
import { copyWritable } from '../helpers/corpus';

const DANCE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const CAMERA_VMD = corpusPath('threejs/vmds/wavefile_camera.vmd');
const LAUGH = corpusPath('gene/motion/02_laugh.vmd');
/** A key of wavefile_camera.vmd (scene-docs uses it too). */
const CAMERA_KEY = 167;

/** The dance's センター track and its second key's frame (a key to shape the curve of). */
const center = (() => {
  const r = readVmd(new Uint8Array(readFileSync(DANCE)));
  if (!r.ok) throw new Error('wavefile_v2.vmd does not read');
  const b = buildTracks(r.value).bones;
  const track = b.index.get('センター')!;
  return { row: `track-bone:${track}`, frame: b.frames[b.start[track] + 1] };
})();

async function tabs(page: Page) {
  return page.$$eval('[data-testid="scene-tab"]', (els) => els.map((e) => ({ kind: (e as HTMLElement).dataset.kind, dirty: (e as HTMLElement).dataset.dirty === 'true' })));
}

async function clickTab(page: Page, i: number) {
  await page.locator('[data-testid="scene-tab"] button[role="tab"]').nth(i).click();
  await page.waitForFunction((i) => document.querySelectorAll('[data-testid="scene-tab"]')[i]?.getAttribute('data-active') === 'true', i);
}

const tabCount = (page: Page, n: number) => page.waitForFunction((n) => document.querySelectorAll('[data-testid="scene-tab"]').length === n, n);
const history = (page: Page) => page.evaluate(() => window.__vmdEditor!.history());
const undoTitle = (page: Page) => page.getAttribute('[data-testid="cmd-undo"]', 'title');
const redoTitle = (page: Page) => page.getAttribute('[data-testid="cmd-redo"]', 'title');

/** Clicks the key at `frame` on row `row` and applies a curve preset to it: one undo step. */
async function presetOnKey(page: Page, row: string, frame: number, preset: string) {
  const before = (await history(page)).undo;
  await page.fill('[data-testid="frame-input"]', String(frame));
  await page.press('[data-testid="frame-input"]', 'Enter');
  await frames(page);
  const p = await keyPoint(page, row, frame);
  await page.mouse.click(p.x, p.y);
  await page.click(`[data-testid="preset-${preset}"]`);
  await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, before);
}

/** Ctrl+Z / Ctrl+Y with the focus on no field, waiting until the history moved. */
async function press(page: Page, keys: string) {
  const before = await history(page);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press(keys);
  await page.waitForFunction((u) => window.__vmdEditor!.history().undo !== u, before.undo);
}

describe('scene actions and undo (browser mode)', () => {
  const s = appForSuite();

  it('+ Actor is its own undo step; the title’s * is on the scene; × on the camera keeps the dance’s redo; Save All and Open asks the scene’s name', async () => {
    const { page } = s.app;
    const dir = s.tmp.dir;
    const dance = path.join(dir, 'mydance.vmd');
    copyWritable(DANCE, dance);
    copyWritable(CAMERA_VMD, path.join(dir, 'camera.vmd'));
    await openFileViaDialog(page, dance);
    await presetOnKey(page, center.row, center.frame, 'ease-in');
    expect(await page.title()).toBe('mydance.vmd * — VMD Studio');

    // + Actor with a camera VMD: the camera document, and the undo button names its adding.
    await page.click('[data-testid="scene-add"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', path.join(dir, 'camera.vmd'));
    await page.click('[data-testid="file-dialog-go"]');
    await tabCount(page, 2);
    expect(await undoTitle(page)).toBe('Undo: add camera (camera.vmd) (Ctrl+Z)');
    // Only the dance is unsaved: the * on the scene, none after the camera shown.
    expect(await page.title()).toBe('Untitled scene * — camera.vmd — VMD Studio');
    expect(await tabs(page)).toEqual([
      { kind: 'actor', dirty: true },
      { kind: 'camera', dirty: false },
    ]);
    // Ctrl+Z takes the camera out; the dance's edit stays. Redo puts it back.
    await press(page, 'Control+z');
    await tabCount(page, 1);
    expect(await tabs(page)).toEqual([{ kind: 'actor', dirty: true }]);
    expect(await undoTitle(page)).toBe('Undo: curve (mydance.vmd) (Ctrl+Z)');
    expect(await redoTitle(page)).toBe('Redo: add camera (camera.vmd) (Ctrl+Y)');
    await page.click('[data-testid="cmd-redo"]');
    await tabCount(page, 2);
    expect(await history(page)).toMatchObject({ undo: 2, redo: 0 });

    // Two more edits of the dance, undone; then an edit of the camera: the dance's two stay to redo.
    await clickTab(page, 0);
    expect(await page.title()).toBe('Untitled scene * — mydance.vmd * — VMD Studio');
    await presetOnKey(page, center.row, center.frame, 'ease-out');
    const edited = await page.evaluate(() => window.__vmdEditor!.digest());
    await presetOnKey(page, center.row, center.frame, 'ease-in-out');
    await press(page, 'Control+z');
    await press(page, 'Control+z');
    expect(await history(page)).toMatchObject({ undo: 2, redo: 2 });
    await clickTab(page, 1);
    await presetOnKey(page, 'track-camera', CAMERA_KEY, 'ease-in');
    expect(await page.title()).toBe('Untitled scene * — camera.vmd * — VMD Studio');
    expect(await history(page)).toMatchObject({ undo: 3, redo: 2 });
    // × on the camera tab, Don't Save: one more undo step ("remove camera", Ctrl+Z puts it back with its edit);
    // the dance's redo steps stay.
    await page.locator('[data-testid="scene-tab"] [data-testid="scene-remove"]').nth(1).click();
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    await page.click('[data-testid="confirm-discard"]');
    await tabCount(page, 1);
    expect(await history(page)).toMatchObject({ undo: 4, redo: 2 });
    expect(await undoTitle(page)).toBe('Undo: remove camera (camera.vmd) (Ctrl+Z)');
    expect(await redoTitle(page)).toBe('Redo: curve (mydance.vmd) (Ctrl+Y)');
    await page.click('[data-testid="cmd-redo"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().redo === 1);
    expect(await page.evaluate(() => window.__vmdEditor!.digest())).toBe(edited);

    // The finding's untitled scene: the dance (unsaved), the camera added again, music.
    await page.click('[data-testid="scene-add"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', path.join(dir, 'camera.vmd'));
    await page.click('[data-testid="file-dialog-go"]');
    await tabCount(page, 2);
    const song = path.join(dir, 'song.wav');
    writeFileSync(song, pcm16Wav(new Int16Array(44_100), 1));
    await openMusicViaDialog(page, song);
    // Open 02_laugh.vmd → Save All and Open → the scene's name is asked; Cancel: nothing opens, a notice says so.
    await openThroughDialog(page, ['cmd-open'], LAUGH);
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    await page.click('[data-testid="confirm-save"]');
    await fileDialogReady(page);
    // An untitled scene is proposed under its song's name (Save Scene: the folder holding its files).
    expect(await page.inputValue('[data-testid="file-dialog-name"]')).toBe('song.vmdscene');
    await page.click('[data-testid="file-dialog-cancel"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    // The notice in sight (its fade-in over) for the screenshot.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="notice-message"]')].some((e) => e.textContent?.includes('02_laugh.vmd was not opened') && getComputedStyle(e.closest('.notice')!).opacity === '1'),
    );
    await s.app.screenshot('scene-history-not-opened');
    expect(await page.textContent('[data-testid="notifications"]')).toContain('02_laugh.vmd was not opened: Untitled scene is not saved, and stays open as it is');
    expect((await tabs(page)).map((t) => t.kind)).toEqual(['actor', 'camera']);
    expect(await page.title()).toBe('Untitled scene * — camera.vmd — VMD Studio');
    await page.waitForSelector('[data-testid="waveform"][data-loaded="true"]');

    // Again, and the name given: the dance and the scene file are written, then 02_laugh.vmd opens.
    await openThroughDialog(page, ['cmd-open'], LAUGH);
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    await page.click('[data-testid="confirm-save"]');
    await saveThroughDialog(page, [], dir, 'mydance.vmdscene');
    await page.waitForFunction(() => document.title === '02_laugh.vmd — VMD Studio');
    await tabCount(page, 1);
    const scenePath = path.join(dir, 'mydance.vmdscene');
    expect(existsSync(scenePath)).toBe(true);
    const saved = JSON.parse(readFileSync(scenePath, 'utf8'));
    expect(saved.actors.map((a: { motion: string }) => a.motion)).toEqual(['mydance.vmd']);
    expect(saved.camera).toBe('camera.vmd');
    expect(saved.audio.path).toBe('song.wav');
    expect(Buffer.compare(readFileSync(dance), readFileSync(DANCE))).not.toBe(0);
    expect(s.app.errors).toEqual([]);
  }, 240_000);
});
