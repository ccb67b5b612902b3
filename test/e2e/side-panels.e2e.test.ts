/**
 * The panels MMD users reach for first (issue 30 §3), end to end in Chromium through the browser mode:
 *  - the morph panel (表情操作) on Gene_light.pmx: a morph of the eyes group that wavefile_v2 lacks, set with
 *    its slider at frame 30, is the new key in the saved bytes (weight = the slider's value as float32),
 *    every other record unchanged; one undo step takes it back to the original bytes;
 *  - the bone list: the model's display frames (PMX 表示枠) as its groups, a search, and a pick that does what
 *    a joint click does (the bone marked, its key at the current frame selected);
 *  - staging: each actor's position and turn, saved in the scene file, reopened, and applied in the preview
 *    (the posed bones stand where the stage puts them); each value one undo step (Ctrl+Z, Ctrl+Y) before Save Scene;
 *    a lone motion placed on the stage, or with music beside it, is an untitled scene (its title and the status
 *    bar say the scene is unsaved, another file asks before it replaces it, Save All asks the scene file's name);
 *    without the music it is a lone motion again.
 * Screenshots: test-artifacts/side-panels-*.png.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, fileDialogReady, openMusicViaDialog, openSceneViaDialog, saveAsViaDialog, saveThroughDialog, showModelThroughDialog, textOf, writeDuetScene } from './harness';
import { pcm16Wav } from '../helpers/wav';
import { animationFrames, openFresh, seekFrameField } from './editor-page';
import { buildTracks, MORPH, readVmd } from '../../shared/vmd';
import { readModel } from '../../shared/pmx/model-reader';
import { matchKey } from '../../shared/pmx/model-inspect';
import { copyWritable } from '../helpers/corpus';

const GENE = corpusPath('gene/Gene_light.pmx');
const LAUGH = corpusPath('gene/motion/02_laugh.vmd');
/** Miku's dance: its morphs are Miku's, so most of Gene's eye morphs are ones it lacks. */
const WAVE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');

function motion(bytes: Uint8Array) {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

async function docBytes(page: Page): Promise<Buffer> {
  return Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64');
}

/** Gene_light in the preview (its own name, ジェネ / Gene). */
const loadGene = (page: Page) => showModelThroughDialog(page, GENE, 'ジェネ / Gene');

/**
 * Open… of another file over an unsaved untitled scene: the question names the scene; `whileAsked` runs while
 * it shows (a screenshot); Cancel closes it.
 */
async function openCancelledOverUntitled(page: Page, whileAsked?: () => Promise<unknown>) {
  await page.click('[data-testid="cmd-open"]');
  await fileDialogReady(page);
  await page.fill('[data-testid="file-dialog-path"]', LAUGH);
  await page.click('[data-testid="file-dialog-go"]');
  await page.waitForSelector('[data-testid="confirm-dialog"]');
  expect(await page.textContent('[data-testid="confirm-message"]')).toContain('Untitled scene');
  await whileAsked?.();
  await page.click('[data-testid="confirm-cancel"]');
  await page.waitForSelector('[data-testid="confirm-dialog"]', { state: 'detached' });
}

describe('morph panel, bone list, staging (issue 30 §3)', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 900 } });
  const m = readModel(new Uint8Array(readFileSync(GENE)));
  if (!m.ok) throw new Error(m.error.message);
  const model = m.value;

  it('a morph the motion lacks, set with its slider at frame 30: the key in the saved bytes; one undo step', async () => {
    const { page } = s.app;
    const file = path.join(s.tmp.dir, 'dance.vmd');
    copyWritable(WAVE, file);
    const original = new Uint8Array(readFileSync(file));
    const orig = motion(original);
    // Names as a motion holds them (cut at 15 bytes): an eyes-panel morph (panel 2) the dance has no key of.
    const had = new Set(buildTracks(orig).morphs.names.map(matchKey));
    const target = model.morphs.find((x) => x.panel === 2 && !had.has(matchKey(x.name)));
    expect(target, 'an eye morph the motion lacks').toBeTruthy();
    const name = target!.name;
    await openFresh(page, file);
    await loadGene(page);
    await seekFrameField(page, 30);
    await page.click('[data-testid="side-tab-morphs"]');
    await page.click('[data-testid="morph-group-eyes"]');
    const row = page.locator(`[data-testid="morph-row"][data-morph="${name}"]`);
    await row.scrollIntoViewIfNeeded();
    const undo0 = (await page.evaluate(() => window.__vmdEditor!.history())).undo;
    const slider = row.locator('[data-testid="morph-slider"]');
    const box = (await slider.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
    await page.waitForFunction((u) => window.__vmdEditor!.history().undo === u + 1, undo0);
    const value = Number(await slider.inputValue());
    expect(value).toBeGreaterThan(0.4);
    expect(value).toBeLessThanOrEqual(1);
    expect(await row.getAttribute('class')).toContain('keyed');
    await s.app.screenshot('side-panels-morphs');

    // Undo: the original bytes; redo: the key again.
    await page.keyboard.press('Control+z');
    await page.waitForFunction((u) => window.__vmdEditor!.history().undo === u, undo0);
    expect((await docBytes(page)).equals(Buffer.from(original))).toBe(true);
    await page.keyboard.press('Control+y');
    await page.waitForFunction((u) => window.__vmdEditor!.history().undo === u + 1, undo0);

    const saved = path.join(s.tmp.dir, 'dance-keyed.vmd');
    await saveAsViaDialog(page, saved);
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('dance-keyed.vmd'));
    const out = motion(new Uint8Array(readFileSync(saved)));
    expect(out.morph.count).toBe(orig.morph.count + 1);
    // Every record before it unchanged; the new one names the morph, at frame 30, with the slider's weight.
    expect(Buffer.from(out.morph.bytes.subarray(0, orig.morph.count * MORPH.SIZE)).equals(Buffer.from(orig.morph.bytes.subarray(0, orig.morph.count * MORPH.SIZE)))).toBe(true);
    expect(Buffer.from(out.bone.bytes).equals(Buffer.from(orig.bone.bytes))).toBe(true);
    const t = buildTracks(out).morphs;
    const tr = t.index.get(matchKey(name))!;
    expect(tr).toBeGreaterThanOrEqual(0);
    expect([...t.frames.subarray(t.start[tr], t.start[tr + 1])]).toEqual([30]);
    expect(t.weight[t.start[tr]]).toBe(Math.fround(value));
    expect(s.app.errors).toEqual([]);
  });

  it('the bone list: the model\'s display frames, a search, and a pick as a joint click', async () => {
    const { page } = s.app;
    await page.click('[data-testid="side-tab-bones"]');
    // The groups are the model's display frames that hold bones, in file order.
    const frames = (model.displayFrames ?? []).filter((f) => f.bones.some((i) => i >= 0 && i < model.bones.length)).map((f) => f.name);
    expect(frames.length).toBeGreaterThan(3);
    const shown = await page.$$eval('[data-testid="bone-list"] section.group', (els) => els.map((e) => (e as HTMLElement).dataset.group ?? ''));
    expect(shown.slice(0, frames.length)).toEqual(frames);
    await page.fill('[data-testid="bone-search"]', 'ひじ');
    const found = await page.$$eval('[data-testid="bone-item"]', (els) => els.map((e) => (e as HTMLElement).dataset.bone));
    expect(found.length).toBeGreaterThan(1);
    expect(found.every((b) => b!.includes('ひじ'))).toBe(true);
    // 左ひじ has keys in the dance: picking it makes its row active and selects its key at the frame if any.
    await seekFrameField(page, 0);
    await page.click('[data-testid="bone-item"][data-bone="左ひじ"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-picked-bone"]')?.textContent?.includes('左ひじ'));
    const doc = motion(await docBytes(page));
    const b = buildTracks(doc).bones;
    const tr = b.index.get('左ひじ');
    const sel = await page.evaluate(() => window.__vmdEditor!.selection());
    if (tr !== undefined && b.frames[b.start[tr]] === 0) {
      expect(sel.refs).toEqual([{ kind: 'bone', record: b.record[b.start[tr]] }]);
    }
    expect(await page.getAttribute('[data-testid="bone-item"][data-bone="左ひじ"]', 'class')).toContain('on');
    await s.app.screenshot('side-panels-bones');
  });

  it('staging: positions and a turn saved in the scene file, reopened, and where the preview stands the actors', async () => {
    const { page } = s.app;
    const scenePath = writeDuetScene(s.tmp.dir, [{ model: null }, { model: null }], 'stage.vmdscene');
    await openSceneViaDialog(page, scenePath);
    const cd = await page.$('[data-testid="confirm-discard"]').catch(() => null);
    if (cd) await cd.click();
    await page.waitForFunction(() => window.__vmdPreview?.companions().length === 1, undefined, { timeout: 60_000 });
    const key = (await page.evaluate(() => window.__vmdPreview!.companions()))[0];
    await seekFrameField(page, 0);
    const shown0 = (await page.evaluate(() => window.__vmdPreview!.boneWorldPosition('センター')))!;
    const other0 = (await page.evaluate((k) => window.__vmdPreview!.companionBoneWorldPosition(k, 'センター'), key))!;
    await page.click('[data-testid="side-tab-stage"]');
    const actor = (i: number) => page.locator(`[data-testid="stage-actor"][data-actor="${i}"]`);
    // Actor 1 (the companion) 10 to the right and 5 back; actor 2 (shown) 10 to the left, turned 180°.
    await actor(0).locator('[data-testid="stage-x"]').fill('10');
    await actor(0).locator('[data-testid="stage-x"]').press('Enter');
    await actor(0).locator('[data-testid="stage-z"]').fill('5');
    await actor(0).locator('[data-testid="stage-z"]').press('Enter');
    await actor(1).locator('[data-testid="stage-x"]').fill('-10');
    await actor(1).locator('[data-testid="stage-x"]').press('Enter');
    await actor(1).locator('[data-testid="stage-turn"]').fill('180');
    await actor(1).locator('[data-testid="stage-turn"]').press('Enter');
    await animationFrames(page);
    const other1 = (await page.evaluate((k) => window.__vmdPreview!.companionBoneWorldPosition(k, 'センター'), key))!;
    const shown1 = (await page.evaluate(() => window.__vmdPreview!.boneWorldPosition('センター')))!;
    // three.js has MMD's Z negated: 5 back in MMD is −5 in the view's Z.
    expect(other1[0] - other0[0]).toBeCloseTo(10, 4);
    expect(other1[1] - other0[1]).toBeCloseTo(0, 4);
    expect(other1[2] - other0[2]).toBeCloseTo(-5, 4);
    // Turned 180° about the vertical axis, then 10 to the left: x → −x − 10, z → −z.
    expect(shown1[0]).toBeCloseTo(-shown0[0] - 10, 3);
    expect(shown1[1]).toBeCloseTo(shown0[1], 3);
    expect(shown1[2]).toBeCloseTo(-shown0[2], 3);
    await s.app.screenshot('side-panels-stage');

    // Each committed value was one undo step (Enter gave the keys back to the app): Ctrl+Z takes back only the
    // turn (the field, the stored stage and the preview), Ctrl+Y puts it back; the scene is unsaved throughout.
    expect(await page.evaluate(() => window.__vmdEditor!.history())).toMatchObject({ undo: 4, redo: 0 });
    expect(await page.getAttribute('[data-testid="cmd-undo"]', 'title')).toMatch(/^Undo: staging \(.+\) \(Ctrl\+Z\)$/);
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => (document.querySelector('[data-testid="stage-actor"][data-actor="1"] [data-testid="stage-turn"]') as HTMLInputElement | null)?.value === '0');
    expect(await page.evaluate(() => window.__vmdEditor!.history())).toMatchObject({ undo: 3, redo: 1 });
    expect(await actor(1).locator('[data-testid="stage-x"]').inputValue()).toBe('-10');
    await animationFrames(page);
    const shownUndone = (await page.evaluate(() => window.__vmdPreview!.boneWorldPosition('センター')))!;
    // Not turned, still 10 to the left.
    expect(shownUndone[0]).toBeCloseTo(shown0[0] - 10, 3);
    expect(shownUndone[2]).toBeCloseTo(shown0[2], 3);
    expect(await page.title()).toContain('*');
    await page.keyboard.press('Control+y');
    await page.waitForFunction(() => (document.querySelector('[data-testid="stage-actor"][data-actor="1"] [data-testid="stage-turn"]') as HTMLInputElement | null)?.value === '180');
    expect(await page.evaluate(() => window.__vmdEditor!.history())).toMatchObject({ undo: 4, redo: 0 });
    await animationFrames(page);
    const shownRedone = (await page.evaluate(() => window.__vmdPreview!.boneWorldPosition('センター')))!;
    for (let i = 0; i < 3; i++) expect(shownRedone[i]).toBeCloseTo(shown1[i], 3);
    await s.app.screenshot('side-panels-stage-redone');

    await saveThroughDialog(page, ['cmd-scene', 'cmd-save-scene'], s.tmp.dir, 'stage-saved');
    const saved = path.join(s.tmp.dir, 'stage-saved.vmdscene');
    await page.waitForFunction(() => document.querySelector('[data-testid="notifications"]')?.textContent?.includes('stage-saved.vmdscene'));
    const json = JSON.parse(readFileSync(saved, 'utf8'));
    expect(json.actors[0].stage).toEqual({ position: [10, 0, 5], turn: 0 });
    expect(json.actors[1].stage).toEqual({ position: [-10, 0, 0], turn: 180 });

    // Reopened (over the same saved scene, nothing to ask): the fields and the preview as saved.
    await openFresh(page, LAUGH);
    await openSceneViaDialog(page, saved);
    await page.waitForFunction(() => window.__vmdPreview?.companions().length === 1, undefined, { timeout: 60_000 });
    await page.click('[data-testid="side-tab-stage"]');
    await page.waitForSelector('[data-testid="stage-actor"][data-actor="1"]');
    expect(await actor(1).locator('[data-testid="stage-turn"]').inputValue()).toBe('180');
    expect(await actor(0).locator('[data-testid="stage-z"]').inputValue()).toBe('5');
    await seekFrameField(page, 0);
    const key2 = (await page.evaluate(() => window.__vmdPreview!.companions()))[0];
    const other2 = (await page.evaluate((k) => window.__vmdPreview!.companionBoneWorldPosition(k, 'センター'), key2))!;
    const shown2 = (await page.evaluate(() => window.__vmdPreview!.boneWorldPosition('センター')))!;
    for (let i = 0; i < 3; i++) {
      expect(other2[i]).toBeCloseTo(other1[i], 3);
      expect(shown2[i]).toBeCloseTo(shown1[i], 3);
    }
    expect(s.app.errors).toEqual([]);
  });

  it('the tab strip keeps "+ Actor" whole with three long tabs; each tab keeps its own track-list scroll', async () => {
    const { page } = s.app;
    const scenePath = writeDuetScene(s.tmp.dir, [{ name: 'Gene, the first dancer of the evening', model: null }, { name: 'Miku, the second dancer of the evening', model: null }], 'long.vmdscene');
    await openSceneViaDialog(page, scenePath);
    // The scene before may ask about unsaved changes first.
    await page.waitForFunction(() => !!document.querySelector('[data-testid="confirm-dialog"]') || !!document.querySelector('[data-testid="scene-tabs"]')?.textContent?.includes('Gene, the first'), undefined, { timeout: 60_000 });
    if (await page.isVisible('[data-testid="confirm-dialog"]')) await page.click('[data-testid="confirm-discard"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="scene-tabs"]')?.textContent?.includes('Gene, the first'), undefined, { timeout: 60_000 });
    expect(await page.locator('[data-testid="scene-tabs"] .tab').count()).toBe(3);
    await page.setViewportSize({ width: 1280, height: 720 });
    await animationFrames(page);
    const strip = await page.evaluate(() => {
      const el = document.querySelector('[data-testid="scene-tabs"]') as HTMLElement;
      const add = (document.querySelector('[data-testid="scene-add"]') as HTMLElement).getBoundingClientRect();
      const r = el.getBoundingClientRect();
      return { overflow: el.scrollWidth - el.clientWidth, addRight: add.right, addWidth: add.width, right: r.right };
    });
    await s.app.screenshot('side-panels-tabs-1280');
    await page.setViewportSize({ width: 1600, height: 900 });
    expect(strip.overflow, 'the strip needs no scrolling').toBeLessThanOrEqual(0);
    expect(strip.addWidth).toBeGreaterThan(20);
    expect(strip.addRight).toBeLessThanOrEqual(strip.right + 0.5);

    // The camera's rows scrolled to the bottom; an actor's tab opens at its own rows' top, and the camera's
    // tab comes back where it was.
    const tabs = page.locator('[data-testid="scene-tabs"] .tab button.pick');
    const scrollY = async () => Number(await page.getAttribute('[data-testid="timeline-canvas"]', 'data-scroll-y'));
    await tabs.nth(2).click();
    const list = (await page.locator('[data-testid="track-list"]').boundingBox())!;
    await page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
    for (let i = 0; i < 20; i++) await page.mouse.wheel(0, 400);
    await animationFrames(page);
    const camScroll = await scrollY();
    expect(camScroll).toBeGreaterThan(0);
    await tabs.nth(0).click();
    await animationFrames(page);
    expect(await scrollY(), 'the first actor opens at its first row').toBe(0);
    await tabs.nth(2).click();
    await animationFrames(page);
    expect(await scrollY(), 'the camera comes back where it was').toBe(camScroll);
  });

  it('a lone motion placed on the stage is an untitled scene: * in the title, opening another file asks, Save All asks the scene\'s name', async () => {
    const { page } = s.app;
    const file = path.join(s.tmp.dir, 'lone.vmd');
    copyWritable(LAUGH, file);
    await openFresh(page, file);
    expect(await page.title()).toBe('lone.vmd — VMD Studio');
    await page.click('[data-testid="side-tab-stage"]');
    const x = page.locator('[data-testid="stage-actor"][data-actor="0"] [data-testid="stage-x"]');
    await x.fill('12');
    await x.press('Enter');
    await page.waitForFunction(() => document.title === 'Untitled scene * — lone.vmd — VMD Studio');
    // The status bar agrees with the title: the motion file is saved, the scene is not.
    expect(await textOf(page, 'status-state')).toBe('Unsaved changes in Untitled scene');

    // Opening another file asks first (the stage is kept only in a scene file); Cancel keeps everything.
    await openCancelledOverUntitled(page, () => s.app.screenshot('side-panels-lone-stage-ask'));
    expect(await x.inputValue()).toBe('12');
    expect(await page.title()).toBe('Untitled scene * — lone.vmd — VMD Studio');

    // Save All: the motion is unchanged; the scene file is asked a name for and holds the stage.
    await saveThroughDialog(page, ['cmd-scene', 'cmd-save-all'], s.tmp.dir, 'lone-staged');
    const saved = path.join(s.tmp.dir, 'lone-staged.vmdscene');
    await page.waitForFunction(() => document.title === 'lone-staged.vmdscene — lone.vmd — VMD Studio');
    const json = JSON.parse(readFileSync(saved, 'utf8'));
    expect(json.actors).toEqual([expect.objectContaining({ motion: 'lone.vmd', stage: { position: [12, 0, 0], turn: 0 } })]);
    expect(s.app.errors).toEqual([]);
  });

  it('a lone motion with music beside it is an untitled scene: the title and the status bar say so, opening another file asks; removing the music makes it a lone motion again', async () => {
    const { page } = s.app;
    const file = path.join(s.tmp.dir, 'lone-song.vmd');
    copyWritable(LAUGH, file);
    const song = path.join(s.tmp.dir, 'song.wav');
    writeFileSync(song, pcm16Wav(new Int16Array(44_100 * 2), 1));
    await openFresh(page, file);
    expect(await page.title()).toBe('lone-song.vmd — VMD Studio');
    expect(await textOf(page, 'status-state')).toBe('No unsaved changes');

    await openMusicViaDialog(page, song);
    await page.waitForFunction(() => document.title === 'Untitled scene * — lone-song.vmd — VMD Studio');
    // The motion is saved: the bar says what is not (the song), not as if the dance's save had failed.
    expect(await textOf(page, 'status-state')).toBe('Song and offset not saved: Save Scene As… keeps model, dance and song together');
    expect(await page.getAttribute('[data-testid="status-state"]', 'title')).toContain('lone-song.vmd is saved.');
    expect((await page.locator('[data-testid="status-state"]').getAttribute('class')) ?? '').toContain('dirty');
    await s.app.screenshot('side-panels-lone-music-status');

    // Opening another file asks first (the music and its offset are kept only in a scene file); Cancel keeps them.
    await openCancelledOverUntitled(page);
    expect(await page.title()).toBe('Untitled scene * — lone-song.vmd — VMD Studio');
    expect(await page.getAttribute('[data-testid="waveform"]', 'data-loaded')).toBe('true');

    // The music removed: nothing only a scene file keeps is left, so it is a lone motion again.
    await page.click('[data-testid="music-remove"]');
    await page.waitForFunction(() => document.title === 'lone-song.vmd — VMD Studio');
    expect(await textOf(page, 'status-state')).toBe('No unsaved changes');
    expect((await page.locator('[data-testid="status-state"]').getAttribute('class')) ?? '').not.toContain('dirty');
    expect(s.app.errors).toEqual([]);
  });
});
