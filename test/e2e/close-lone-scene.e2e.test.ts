// A lone motion closed with a song and its offset beside it (what only a scene file keeps): Close Scene asks in
// the pairing's own words, "Keep the song song.wav and its offset (15 frames) with lone.vmd as a scene?", with
// Save as Scene… / Don't Save / Cancel (before: "Save the changes to Untitled scene (actors and their models,
// camera, music, stages)"). Save as Scene… asks the scene file's name and writes the song and offset beside the
// motion. Screenshot: test-artifacts/close-lone-scene-ask.png.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, fileDialogReady, openMusicViaDialog } from './harness';
import { openFresh } from './editor-page';
import { pcm16Wav } from '../helpers/wav';
import { copyWritable, corpusPresent } from '../helpers/corpus';

describe.skipIf(!corpusPresent)('closing a lone motion with a song beside it', () => {
  const s = appForSuite();

  it('asks to keep the song and its offset as a scene; Cancel keeps them; Save as Scene… writes them', async () => {
    const { page } = s.app;
    const file = path.join(s.tmp.dir, 'lone.vmd');
    copyWritable(corpusPath('gene/motion/02_laugh.vmd'), file);
    const song = path.join(s.tmp.dir, 'song.wav');
    writeFileSync(song, pcm16Wav(new Int16Array(44_100 * 2), 1));
    await openFresh(page, file);
    await openMusicViaDialog(page, song);
    await page.fill('[data-testid="music-offset"]', '15');
    await page.press('[data-testid="music-offset"]', 'Enter');
    await page.waitForFunction(() => document.title === 'Untitled scene * — lone.vmd — VMD Studio');

    await page.click('[data-testid="cmd-scene"]');
    await page.click('[data-testid="cmd-close-scene"]');
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    expect(await page.textContent('[data-testid="confirm-message"]')).toBe(
      'Keep the song song.wav and its offset (15 frames) with lone.vmd as a scene? Only a scene file (.vmdscene) keeps them together; Don’t Save loses them.',
    );
    expect((await page.textContent('[data-testid="confirm-save"]'))?.trim()).toBe('Save as Scene…');
    await s.app.screenshot('close-lone-scene-ask');
    await page.click('[data-testid="confirm-cancel"]');
    await page.waitForSelector('[data-testid="confirm-dialog"]', { state: 'detached' });
    expect(await page.getAttribute('[data-testid="waveform"]', 'data-loaded')).toBe('true');

    await page.click('[data-testid="cmd-scene"]');
    await page.click('[data-testid="cmd-close-scene"]');
    await page.waitForSelector('[data-testid="confirm-save"]');
    await page.click('[data-testid="confirm-save"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', path.join(s.tmp.dir, 'paired.vmdscene'));
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 0);
    const json = JSON.parse(readFileSync(path.join(s.tmp.dir, 'paired.vmdscene'), 'utf8'));
    expect(json.actors).toEqual([expect.objectContaining({ motion: 'lone.vmd' })]);
    expect(json.audio).toEqual(expect.objectContaining({ path: 'song.wav', offsetFrames: 15 }));
    expect(s.app.errors).toEqual([]);
  });

  it('the song removed (×) after its offset was set: the offset stays for the next song, Close Scene names it, and Save as Scene… writes it with no song', async () => {
    const { page } = s.app;
    const file = path.join(s.tmp.dir, 'lone2.vmd');
    copyWritable(corpusPath('gene/motion/02_laugh.vmd'), file);
    const song = path.join(s.tmp.dir, 'song2.wav');
    writeFileSync(song, pcm16Wav(new Int16Array(44_100 * 2), 1));
    await openFresh(page, file);
    await openMusicViaDialog(page, song);
    await page.fill('[data-testid="music-offset"]', '20');
    await page.press('[data-testid="music-offset"]', 'Enter');
    await page.click('[data-testid="music-remove"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="waveform"]')?.getAttribute('data-loaded') === 'false');
    // Before, the window was a lone motion again and the offset went at close without a word.
    await page.waitForFunction(() => document.title === 'Untitled scene * — lone2.vmd — VMD Studio');
    await page.click('[data-testid="cmd-scene"]');
    await page.click('[data-testid="cmd-close-scene"]');
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    expect(await page.textContent('[data-testid="confirm-message"]')).toBe(
      'Keep the music offset (20 frames, kept for the next song: none is loaded) with lone2.vmd as a scene? Only a scene file (.vmdscene) keeps them together; Don’t Save loses them.',
    );
    await s.app.screenshot('close-lone-scene-offset');
    await page.click('[data-testid="confirm-save"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', path.join(s.tmp.dir, 'offset.vmdscene'));
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 0);
    const json = JSON.parse(readFileSync(path.join(s.tmp.dir, 'offset.vmdscene'), 'utf8'));
    expect(json.actors).toEqual([expect.objectContaining({ motion: 'lone2.vmd' })]);
    expect(json.audio).toEqual({ path: null, offsetFrames: 20, volume: 1, muted: false });
    expect(s.app.errors).toEqual([]);
  });
});
