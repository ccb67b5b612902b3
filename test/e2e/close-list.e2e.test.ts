/**
 * Closing a scene with several unsaved parts (browser mode, Chromium; report nustage finding 8): two actors edited
 * and the song's offset changed, then Scene → Close Scene. It asked three questions in turn (one per document, then
 * the scene file, which did not say what had changed in it); now one question lists the three — each actor with its
 * file, the scene file with "music offset" — and Save All writes the three files, Don't Save none.
 * Screenshot: test-artifacts/close-list.png.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pcm16Wav } from '../helpers/wav';
import { appForSuite, corpusPath, openSceneViaDialog, writeSceneFolder } from './harness';

const dirty = (page: Page) => page.$$eval('[data-testid="scene-tab"]', (els) => els.map((e) => (e as HTMLElement).dataset.dirty === 'true'));

async function clickTab(page: Page, i: number) {
  await page.locator('[data-testid="scene-tab"] button[role="tab"]').nth(i).click();
  await page.waitForFunction((i) => document.querySelectorAll('[data-testid="scene-tab"]')[i]?.getAttribute('data-active') === 'true', i);
}

/** A scene of Gene (laugh.vmd) and Miku (dance.vmd) with a song at offset 0, in its own folder; returns the files. */
function writeScene(dir: string) {
  mkdirSync(dir, { recursive: true });
  const scenePath = writeSceneFolder(
    dir,
    [
      [corpusPath('gene/motion/02_laugh.vmd'), 'laugh.vmd'],
      [corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), 'dance.vmd'],
    ],
    {
      actors: [
        { name: 'Gene', model: null, motion: 'laugh.vmd' },
        { name: 'Miku', model: null, motion: 'dance.vmd' },
      ],
      activeActor: 0,
      camera: null,
      audio: { path: 'song.wav', offsetFrames: 0, volume: 1, muted: false },
    },
    'stage.vmdscene',
  );
  writeFileSync(path.join(dir, 'song.wav'), pcm16Wav(new Int16Array(44_100), 1));
  const files = [path.join(dir, 'laugh.vmd'), path.join(dir, 'dance.vmd'), scenePath];
  return { scenePath, files, bytes: () => files.map((f) => readFileSync(f)), stamps: () => files.map((f) => statSync(f).mtimeMs) };
}

/** Opens the scene, deletes every key of each actor (Ctrl+A, Delete) and sets the song's offset to 15. */
async function editThree(page: Page, scenePath: string) {
  await openSceneViaDialog(page, scenePath);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 2 && document.querySelector('[data-testid="music-name"]')?.textContent?.includes('song.wav'));
  for (const i of [0, 1]) {
    await clickTab(page, i);
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    await page.waitForFunction((i) => document.querySelectorAll('[data-testid="scene-tab"]')[i]?.getAttribute('data-dirty') === 'true', i);
  }
  await page.fill('[data-testid="music-offset"]', '15');
  await page.press('[data-testid="music-offset"]', 'Enter');
  await page.waitForFunction(() => document.title.startsWith('stage.vmdscene *'));
  expect(await dirty(page)).toEqual([true, true]);
}

async function closeScene(page: Page): Promise<string[]> {
  await page.click('[data-testid="cmd-scene"]');
  await page.click('[data-testid="cmd-close-scene"]');
  await page.waitForSelector('[data-testid="confirm-dialog"]');
  return page.$$eval('[data-testid="confirm-item"]', (els) => els.map((e) => e.textContent?.trim() ?? ''));
}

describe('Close Scene with several unsaved parts (browser mode)', () => {
  const s = appForSuite();

  it('one question lists the two actors and the scene file’s offset; Don’t Save writes none of the three files', async () => {
    const { page } = s.app;
    const dir = path.join(s.tmp.dir, 'discard');
    const { scenePath, bytes, stamps } = writeScene(dir);
    const before = bytes();
    const beforeStamps = stamps();
    await editThree(page, scenePath);
    expect(await closeScene(page)).toEqual(['Actor Gene: laugh.vmd', 'Actor Miku: dance.vmd', 'Scene file stage.vmdscene: music offset']);
    expect(await page.textContent('[data-testid="confirm-message"]')).toBe('Save the changes to these before closing? Don’t Save closes without writing any of them.');
    await s.app.screenshot('close-list');
    await page.click('[data-testid="confirm-discard"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 0);
    // No second question came.
    expect(await page.$('[data-testid="confirm-dialog"]')).toBeNull();
    // Byte for byte (Buffer.equals: vitest's toEqual walks a Buffer one element at a time, and over the 1.7 MB of the
    // three files that took about 50 s of this test; suitee2e2).
    expect(bytes().map((b, i) => b.equals(before[i])), 'each file as it was').toEqual([true, true, true]);
    expect(stamps()).toEqual(beforeStamps);
  });

  it('Save All writes the three files: each motion without its keys, the scene with offset 15', async () => {
    const { page } = s.app;
    const dir = path.join(s.tmp.dir, 'save');
    const { scenePath, files, bytes } = writeScene(dir);
    const before = bytes();
    await editThree(page, scenePath);
    expect(await closeScene(page)).toHaveLength(3);
    await page.click('[data-testid="confirm-save"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 0);
    expect(await page.$('[data-testid="confirm-dialog"]')).toBeNull();
    const after = bytes();
    expect(after[0]).not.toEqual(before[0]);
    expect(after[1]).not.toEqual(before[1]);
    // A VMD's bone count sits at byte 50 (header 30 + model name 20): every key was deleted.
    expect(after[0].readUInt32LE(50)).toBe(0);
    expect(after[1].readUInt32LE(50)).toBe(0);
    expect(JSON.parse(readFileSync(files[2], 'utf8')).audio.offsetFrames).toBe(15);
  });
});

