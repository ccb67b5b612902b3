// Opening and dropping each kind of file says the right thing (the browser mode: a drop gives names and
// bytes, no path). A capture dropped after a dropped model converts onto that model (its bytes, kept in
// memory), not "Gene_light.pmx: no such file"; an empty .vmd dropped is "the file is empty (0 bytes)" as
// Open… says it; a dropped .wav becomes the music and a dropped scene says why it cannot open; Open… lists
// models and songs, and a song opened through it becomes the music. Files are the corpus's or written here.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, dropFiles, openFileViaDialog, openThroughDialog, textOf, fileForDrop, notice, notices, dismissNotices } from './harness';
import { corpusPresent } from '../helpers/corpus';
import { pcm16Wav } from '../helpers/wav';

const LONG = 180_000;
const GENE = corpusPath('gene/Gene_light.pmx');
const WALK = corpusPath('bvh11/resources/131_01.bvh');
const STAND = corpusPath('gene/motion/stand.vmd');
const file = fileForDrop;
/** One second of a 440 Hz tone, 16-bit mono at 8 kHz. */
const tone = () => pcm16Wav(Int16Array.from({ length: 8000 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000))), 1, 8000);




describe.skipIf(!corpusPresent)('dropping and opening each kind of file', () => {
  const s = appForSuite();

  it('an empty .vmd dropped says "the file is empty (0 bytes)", as Open… of the same file says it', async () => {
    const page = s.app.page;
    await dropFiles(page, [{ name: 'empty.vmd', bytes: new Uint8Array(0) }]);
    expect(await notice(page, 'empty.vmd:')).toBe('empty.vmd: the file is empty (0 bytes)');
    await dismissNotices(page);
    const empty = path.join(s.tmp.dir, 'empty.vmd');
    writeFileSync(empty, new Uint8Array(0));
    await page.click('[data-testid="cmd-open"]');
    await openThroughDialog(page, [], empty);
    expect(await notice(page, 'empty.vmd:')).toBe('empty.vmd: the file is empty (0 bytes)');
    await dismissNotices(page);
  }, LONG);

  it('a capture dropped after a dropped model converts onto that model, from its bytes; Import adds it', async () => {
    const page = s.app.page;
    await dropFiles(page, [file(GENE)]);
    await page.waitForFunction(() => window.__vmdPreview?.info().model != null, null, { timeout: 60_000 });
    await dropFiles(page, [file(WALK)]);
    await page.waitForSelector('[data-testid="mocap-dialog"]');
    expect(await textOf(page, 'mocap-model')).toBe('Gene_light.pmx');
    // Converted (ready), or an error said: it must be the former.
    await page.waitForSelector('[data-testid="mocap-dialog"][data-ready="true"], [data-testid="mocap-error"]', { timeout: LONG });
    // Read at once, not with page.textContent: that waits for the element (30 s when there is none, the
    // passing case) and the catch turned its timeout into null. The wait above already settled which it is.
    const error = await page.evaluate(() => document.querySelector('[data-testid="mocap-error"]')?.textContent ?? null);
    await s.app.screenshot('drop-model-then-bvh');
    expect(error).toBeNull();
    expect(await textOf(page, 'mocap-report-frames')).toContain('994');
    await page.click('[data-testid="mocap-import"]');
    await page.waitForSelector('[data-testid="mocap-dialog"]', { state: 'detached' });
    await notice(page, '131_01');
    expect((await notices(page)).filter((m) => m.includes('E_IO') || m.includes('no such file'))).toEqual([]);
    await dismissNotices(page);
  }, LONG);

  it('a dropped .wav becomes the music (with a motion dropped beside it: after it opens); a dropped scene says its files cannot be found without its folder; anything else names what a drop takes', async () => {
    const page = s.app.page;
    // A song and a motion dropped together (the song first): the motion opens, then the song is its music.
    await dropFiles(page, [{ name: 'tone.wav', bytes: tone() }, file(STAND)]);
    await page.waitForSelector('[data-testid="confirm-dialog"], [data-testid="summary-name"]:has-text("stand.vmd")');
    if (await page.isVisible('[data-testid="confirm-dialog"]')) await page.click('[data-testid="confirm-discard"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('stand.vmd'));
    await page.waitForSelector('[data-testid="waveform"][data-loaded="true"]', { timeout: 30_000 });
    expect(await notice(page, 'tone.wav')).toBe('Music: tone.wav (1.0 s)');
    await page.click('[data-testid="music-remove"]');
    await page.waitForSelector('[data-testid="waveform"][data-loaded="false"]');

    const scene = JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: null, motion: 'stand.vmd' }] });
    await dropFiles(page, [{ name: 'my.vmdscene', bytes: new TextEncoder().encode(scene) }]);
    expect(await notice(page, 'my.vmdscene:')).toContain('relative to its own folder, and a dropped file comes without its folder');
    // The motion that was open stays.
    expect(await textOf(page, 'summary-name')).toContain('stand.vmd');

    await dropFiles(page, [{ name: 'notes.txt', bytes: new TextEncoder().encode('hello') }]);
    const refusal = await notice(page, 'notes.txt:');
    for (const part of ['motions and poses (.vmd, .vpd)', 'models (.pmx, .pmd)', 'scenes (.vmdscene)', 'captures (.bvh, .vrma)', 'songs (.wav,']) expect(refusal).toContain(part);
    await dismissNotices(page);
  }, LONG);

  // New-user pass (nubegin 2): a song, a texture and notes renamed .vmd were all "not a VMD file … (at byte 0)".
  it('a song, a texture, a model and notes dropped as .vmd each say what they are and what to do, in English and Japanese', async () => {
    const page = s.app.page;
    await dismissNotices(page);
    const mp3 = new Uint8Array([...new TextEncoder().encode('ID3'), 4, 0, 0, 0, 0, 0, 0]);
    const cases: [string, Uint8Array, string, string][] = [
      ['song_as_motion.vmd', mp3, 'a song (MP3), not a motion: rename it song_as_motion.mp3, then load it with ♪ Music…', '曲（MP3）で、モーションではありません。名前を song_as_motion.mp3 に変えて、♪ 音楽… で読み込んでください'],
      // The corpus's texture (no TGA 2.0 footer: told by its header).
      ['pic.vmd', new Uint8Array(readFileSync(corpusPath('mmd-viewer-js/model/low_miku/ro_hatune01.tga'))), 'an image (TGA), not a motion: VMD Studio uses images only as a model’s textures, from the model’s folder', '画像（TGA）で、モーションではありません。VMD Studio は画像をモデルのテクスチャとして（モデルのフォルダから）だけ使います'],
      ['miku.vmd', new Uint8Array(readFileSync(corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'))), 'a model (PMD), not a motion: rename it miku.pmd, then open it with Model…', 'モデル（PMD）で、モーションではありません。名前を miku.pmd に変えて、モデル… で開いてください'],
      ['notes.vmd', new TextEncoder().encode('my dance: arms higher at 0:12\n'), 'plain text, not a motion: a motion is a .vmd file saved by MMD, starting with "Vocaloid Motion Data"', 'テキストファイルで、モーションではありません。モーションは MMD が保存する .vmd ファイルで、"Vocaloid Motion Data" で始まります'],
    ];
    const before = await textOf(page, 'summary-name');
    for (const [name, bytes, en] of cases) {
      await dropFiles(page, [{ name, bytes }]);
      expect(await notice(page, `${name}:`)).toBe(`${name}: ${en}`);
    }
    expect(await textOf(page, 'summary-name')).toBe(before);
    const errors = page.locator('[data-testid="notifications"] [data-kind="error"]');
    expect(await errors.locator('[data-testid="notice-code"]').allTextContents()).toContain('E_VMD_MAGIC');
    expect((await notices(page)).join('\n')).not.toContain('byte');
    await s.app.screenshot('drop-open-not-motions');
    await page.selectOption('[data-testid="locale"]', 'ja');
    for (const [name, , , ja] of cases.slice(-3)) expect(await notice(page, `${name}:`)).toBe(`${name}: ${ja}`);
    await s.app.screenshot('drop-open-not-motions-ja');
    await page.selectOption('[data-testid="locale"]', 'en');
    await dismissNotices(page);
    expect(s.app.errors).toEqual([]);
  }, LONG);

  it('Open… is titled and filtered for models and songs too, and a .wav opened through it becomes the music', async () => {
    const page = s.app.page;
    const wav = path.join(s.tmp.dir, 'tone.wav');
    writeFileSync(wav, tone());
    expect(await page.getAttribute('[data-testid="waveform"]', 'data-loaded')).toBe('false');
    await page.click('[data-testid="cmd-open"]');
    await page.waitForSelector('[data-testid="file-dialog"][data-loaded="true"]');
    const title = (await page.textContent('[data-testid="file-dialog"] header')) ?? '';
    const filter = (await page.locator('[data-testid="file-dialog"] .filter').first().textContent()) ?? '';
    await s.app.screenshot('open-dialog-kinds');
    expect(title).toBe('Open a motion, pose, model, scene, capture or song');
    for (const ext of ['.vmd', '.vpd', '.pmx', '.pmd', '.vmdscene', '.bvh', '.vrma', '.wav']) expect(filter).toContain(ext);
    await openThroughDialog(page, [], wav);
    await page.waitForSelector('[data-testid="waveform"][data-loaded="true"]', { timeout: 30_000 });
    expect(await notice(page, 'tone.wav')).toBe('Music: tone.wav (1.0 s)');
    // A motion opens through it as before.
    await openFileViaDialog(page, STAND);
    expect(s.app.errors).toEqual([]);
  }, LONG);
});
