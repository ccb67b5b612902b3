/**
 * A motion made from nothing on Gene_light (new-user pass nuscratch), end to end in Chromium through the browser mode:
 *  - finding 1: New motion, 右腕 picked in the Bones tab (no keys yet), Enter registers its rest pose at the frame
 *    (one undo step, the key selected); Z typed 30 in the Key panel is in the saved file as the quaternion worked out
 *    here (MMD's YXZ order: qY·qX·qZ; about Z alone that is (0, 0, sin 15°, cos 15°)); three typed angles (10, 20, 35)
 *    give the quaternion the pass's own VMD reader read from its file (0.13388, 0.13917, 0.28058, 0.94020).
 *  - finding 2: 右腕 (no 移動可能 in Gene) has its Position fields off in the Key panel.
 *  - finding 3: with the model shown and no motion, the empty texts offer New motion and say how to key a pose; the
 *    timeline then lists the model's bones without keys (as MMD's frame window), and one clicked there is keyed by Enter.
 *  - finding 4: Save As of that never-saved motion starts in the model's folder (Model… sets the last folder used).
 *  - finding 6: the curve handle's key hint does not lie over the curve square or the plot under it.
 * And New on a PMD (new-user pass numigrate, finding 2): the low-poly Miku's bone groups (表示枠) were not read, so its
 * timeline had no bone rows after New and its Bones tab one flat list; now both list the groups' bones, 先 bones not.
 * (Finding 9: the preview's summary counts its morphs as the File panel does, without the base.)
 *  - fix job fixrows: a dance made for another model (wavefile_v2.vmd, header 初音ミク) shown on Gene lists Gene's
 *    display-frame bones it has no keys of too (it listed none: グルーブ had to be picked in the preview); one clicked
 *    there is keyed by Enter and is in the saved file (read back with the command line's inspect --json).
 * Screenshots: test-artifacts/scratch-*.png.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, fileDialogReady, openFileViaDialog, saveAsViaDialog, showModelThroughDialog } from './harness';
import { seekFrameField } from './editor-page';
import { ROOT } from '../helpers/build';
import { BONE, buildTracks, decodeName, readVmd } from '../../shared/vmd';
import { readModel } from '../../shared/pmx/model-reader';

const GENE = corpusPath('gene/Gene_light.pmx');
const WAVE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');

/** The bone keys of a VMD's bytes as a reader sees them: name bytes, frame, position, rotation (x, y, z, w). */
function boneKeys(bytes: Uint8Array) {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  const b = r.value.bone;
  return Array.from({ length: b.count }, (_, i) => ({
    name: Buffer.from(b.bytes.subarray(i * BONE.SIZE, i * BONE.SIZE + 15)).toString('hex').replace(/(00)+$/, ''),
    frame: b.view.getUint32(i * BONE.SIZE + BONE.FRAME, true),
    pos: [0, 1, 2].map((c) => b.view.getFloat32(i * BONE.SIZE + BONE.POSITION + 4 * c, true)),
    rot: [0, 1, 2, 3].map((c) => b.view.getFloat32(i * BONE.SIZE + BONE.ROTATION + 4 * c, true)),
  }));
}
/** 右腕 in Shift_JIS. */
const ARM_R = '89459872';

const undoDepth = (page: Page) => page.evaluate(() => window.__vmdEditor!.history().undo);
const docBytes = async (page: Page) => new Uint8Array(Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64'));

/** Types a value into a Key panel field and Enter; waits for the undo step it makes. */
async function typeInto(page: Page, id: string, text: string) {
  const before = await undoDepth(page);
  await page.fill(`[data-testid="${id}"]`, text);
  await page.press(`[data-testid="${id}"]`, 'Enter');
  await page.waitForFunction((u) => window.__vmdEditor!.history().undo === u + 1, before);
}

describe('a motion from nothing (nuscratch)', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 1000 } });

  it('New, 右腕 picked in the Bones tab, Enter: a key with its rest pose; Z typed 30 saved as (0, 0, sin 15°, cos 15°)', async () => {
    const { page } = s.app;
    await showModelThroughDialog(page, GENE, 'ジェネ / Gene');
    // Finding 3: with the model shown and no motion, the timeline's and the File panel's empty texts offer New motion
    // and say how to key a pose.
    expect(await page.textContent('[data-testid="editor-empty-model"]')).toBe('No motion open for ジェネ / Gene: start a new one, or open a motion (.vmd) to edit its keys and curves.');
    expect(await page.textContent('[data-testid="editor-empty-howto"]')).toMatch(/^To key a pose: pick a bone .*Enter registers the key/);
    expect(await page.textContent('[data-testid="summary-new-motion"]')).toBe('New motion (Ctrl+N)');
    await s.app.screenshot('scratch-empty');
    await page.click('[data-testid="empty-new-motion"]');
    await page.waitForFunction(() => window.__vmdEditor!.bytes() !== null);
    await page.click('[data-testid="side-tab-bones"]');
    await page.fill('[data-testid="bone-search"]', '右腕');
    await page.click('[data-testid="bone-item"][data-bone="右腕"]');
    await page.waitForSelector('[data-testid="preview-picked-untracked"]');
    // Register is on for it, and the Key panel shows its rest pose (no key yet).
    expect(await page.isDisabled('[data-testid="insert-key"]')).toBe(false);
    expect(await page.textContent('[data-testid="inspector-pose-note"]')).toMatch(/No keys yet/);
    expect(await page.inputValue('[data-testid="inspector-rot-z"]')).toBe('0');
    // Finding 2: 右腕 has no 移動可能 flag (0x0004) in Gene, so its Position is off (the Move handle refuses it too).
    const gene = readModel(new Uint8Array(readFileSync(GENE)));
    if (!gene.ok) throw new Error(gene.error.message);
    expect(gene.value.bones.find((b) => b.name === '右腕')!.flags & 0x0004).toBe(0);
    for (const c of 'xyz') expect(await page.isDisabled(`[data-testid="inspector-pos-${c}"]`)).toBe(true);
    expect(await page.isDisabled('[data-testid="inspector-rot-z"]')).toBe(false);
    await s.app.screenshot('scratch-picked');

    // Enter (the clicked list item keeps the focus; a mouse-focused button leaves Enter to the editor).
    const u0 = await undoDepth(page);
    await page.keyboard.press('Enter');
    await page.waitForFunction((u) => window.__vmdEditor!.history().undo === u + 1, u0);
    expect(boneKeys(await docBytes(page))).toEqual([{ name: ARM_R, frame: 0, pos: [0, 0, 0], rot: [0, 0, 0, 1] }]);
    expect((await page.evaluate(() => window.__vmdEditor!.selection())).refs).toEqual([{ kind: 'bone', record: 0 }]);

    await typeInto(page, 'inspector-rot-z', '30');
    // Next frame, Enter (the pose there: the one key's), then three angles typed in turn, each one undo step.
    await seekFrameField(page, 30);
    const u1 = await undoDepth(page);
    await page.keyboard.press('Enter');
    await page.waitForFunction((u) => window.__vmdEditor!.history().undo === u + 1, u1);
    expect((await page.evaluate(() => window.__vmdEditor!.selection())).refs).toEqual([{ kind: 'bone', record: 1 }]);
    await typeInto(page, 'inspector-rot-x', '10');
    await typeInto(page, 'inspector-rot-y', '20');
    await typeInto(page, 'inspector-rot-z', '35');
    await s.app.screenshot('scratch-typed');

    // Finding 4: Save As of the never-saved motion starts where Model… found the model (it started in the home folder).
    await page.click('[data-testid="cmd-save-as"]');
    await fileDialogReady(page);
    expect(await page.inputValue('[data-testid="file-dialog-path"]')).toBe(path.dirname(GENE));
    await page.click('[data-testid="file-dialog-cancel"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    const file = path.join(s.tmp.dir, 'idle.vmd');
    await saveAsViaDialog(page, file);
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('idle.vmd'));
    const keys = boneKeys(new Uint8Array(readFileSync(file)));
    expect(keys.map((k) => [k.name, k.frame, k.pos])).toEqual([[ARM_R, 0, [0, 0, 0]], [ARM_R, 30, [0, 0, 0]]]);
    [0, 0, Math.sin(Math.PI / 12), Math.cos(Math.PI / 12)].forEach((x, c) => expect(keys[0].rot[c]).toBeCloseTo(x, 6));
    [0.13388, 0.13917, 0.28058, 0.9402].forEach((x, c) => expect(keys[1].rot[c]).toBeCloseTo(x, 4));
    expect(s.app.errors).toEqual([]);
  });

  it('a curve handle\'s key hint hides nothing of the square or its plot (it sat over the plot)', async () => {
    const { page } = s.app;
    // The key at 30 is selected (the first test's last edit): its curve is shown; 1 with the square focused picks handle 1.
    expect((await page.evaluate(() => window.__vmdEditor!.selection())).active).toEqual({ kind: 'bone', record: 1 });
    await page.waitForSelector('[data-testid="curve-x1"]:not([disabled])');
    await page.focus('[data-testid="curve-canvas"]');
    await page.keyboard.press('1');
    const hint = (await page.waitForSelector('[data-testid="curve-handle-hint"]')).boundingBox();
    const canvas = page.locator('[data-testid="curve-canvas"]');
    const box = (await canvas.boundingBox())!, h = (await hint)!;
    // The square and the plot under it, from the canvas's own layout numbers (CSS px inside the canvas).
    const size = Number(await canvas.getAttribute('data-size')), oy = Number(await canvas.getAttribute('data-oy'));
    expect(size).toBeGreaterThan(50);
    const drawn = { x: box.x, y: box.y + oy - size, w: box.width, h: box.height - (oy - size) };
    const overlaps = (a: { x: number; y: number; w: number; h: number }, b: { x: number; y: number; width: number; height: number }) =>
      a.x < b.x + b.width && b.x < a.x + a.w && a.y < b.y + b.height && b.y < a.y + a.h;
    expect(h.height).toBeGreaterThan(8);
    expect(overlaps(drawn, h)).toBe(false);
    await s.app.screenshot('scratch-curve-hint');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="curve-handle-hint"]', { state: 'detached' });
  });

  it('the model’s bones are rows of the timeline (no keys yet): センター clicked there, Enter keys it', async () => {
    const { page } = s.app;
    // idle.vmd names Gene in its header: her display-frame bones without keys are listed, センター's group first.
    // (The list shows the rows in view: scrolled to the top, where センター's group is.)
    const list = (await page.locator('[data-testid="track-list"]').boundingBox())!;
    await page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
    await page.mouse.wheel(0, -20_000);
    const row = page.locator('[data-testid="track-bone-model:センター"]');
    await row.waitFor();
    expect(await row.textContent()).toMatch(/^センター.*0$/);
    await row.click();
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-picked-bone"]')?.textContent?.includes('センター'));
    await seekFrameField(page, 0);
    const u = await undoDepth(page);
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, u);
    const keys = boneKeys(await docBytes(page));
    // センター in Shift_JIS: 83 5a 83 93 83 5e 81 5b; its rest pose at frame 0.
    expect(keys.filter((k) => k.name === '835a8393835e815b')).toEqual([{ name: '835a8393835e815b', frame: 0, pos: [0, 0, 0], rot: [0, 0, 0, 1] }]);
    // Its row is a keyed track now.
    await page.waitForSelector('[data-testid="track-bone-model:センター"]', { state: 'detached' });
    await s.app.screenshot('scratch-model-rows');
  });
});

describe('a motion from nothing on a PMD (numigrate 2)', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 1000 } });
  const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');

  it("New on miku.pmd: the timeline lists its groups' bones (センター first) without keys, and not its 先 bones; the Bones tab its groups", async () => {
    const { page } = s.app;
    const miku = readModel(new Uint8Array(readFileSync(MIKU)));
    if (!miku.ok) throw new Error(miku.error.message);
    await showModelThroughDialog(page, MIKU, miku.value.name);
    await page.click('[data-testid="empty-new-motion"]');
    await page.waitForFunction(() => window.__vmdEditor!.bytes() !== null);
    // Finding 9: the preview's summary counted the PMD's base morph (14) where the File panel says 13. The file holds
    // 14 morphs, the first the base (panel 0) the others offset; 83 bones, 1,223 vertices (the Python reader's counts).
    expect((await page.textContent('[data-testid="preview-model-summary"]'))!.trim()).toBe('ローポリ初音さん: 83 bones, 13 morphs, 1,223 vertices');
    expect(await page.textContent('[data-testid="model-count-morphs"]')).toBe('13');
    // The rows are drawn as they scroll into view: collect the model's unkeyed bone rows from the top down.
    const list = (await page.locator('[data-testid="track-list"]').boundingBox())!;
    await page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
    await page.mouse.wheel(0, -20_000);
    await page.waitForSelector('[data-testid="track-bone-model:センター"]');
    const seen: string[] = [];
    let last = '';
    for (let step = 0; step < 60; step++) {
      const ids = await page.$$eval('[data-testid^="track-bone-model:"]', (els) => els.map((e) => e.getAttribute('data-testid')!.slice('track-bone-model:'.length)));
      if (ids.join('/') === last) break; // the list no longer scrolls: its end is in view
      last = ids.join('/');
      seen.push(...ids.filter((id) => !seen.includes(id)));
      await page.mouse.wheel(0, 200);
    }
    // The file's 7 groups hold 53 bones; センター (bone 0) is listed before them (a separate reader of the file).
    expect(seen.length).toBe(54);
    for (const b of ['センター', '全ての親', '上半身', '左手首', '右足ＩＫ', '左ｽｶｰﾄ前', '前髪１']) expect(seen, b).toContain(b);
    for (const b of ['センター先', '左つま先ＩＫ先', '頭先', 'ﾈｸﾀｲ４']) expect(seen, b).not.toContain(b);
    await s.app.screenshot('scratch-pmd-rows');
    await page.click('[data-testid="side-tab-bones"]');
    const headers = await page.$$eval('[data-testid="bone-list"] section.group > header', (els) => els.map((e) => e.textContent));
    expect(headers).toEqual(['Root', '全ての親', 'ＩＫ', '体(上)', '髪', '腕', '体(下)', '足', 'Other bones']);
    expect(s.app.errors).toEqual([]);
  });
});

describe('a dance made for another model lists the shown model’s bones (fixrows)', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 1000 } });

  it('wavefile_v2 (made for 初音ミク) on Gene: her unkeyed グルーブ is a row; clicked, Enter, saved: its key is in the file', async () => {
    const { page } = s.app;
    // The dance names another model in its header, and keys no グルーブ, which Gene has in her センター display frame
    // (all read from the files here).
    const wave = readVmd(new Uint8Array(readFileSync(WAVE)));
    if (!wave.ok) throw new Error(wave.error.message);
    expect(decodeName(wave.value.modelName).trim()).toBe('初音ミク');
    const tracks = buildTracks(wave.value);
    expect(tracks.bones.names).not.toContain('グルーブ');
    const gene = readModel(new Uint8Array(readFileSync(GENE)));
    if (!gene.ok) throw new Error(gene.error.message);
    const frame = gene.value.displayFrames?.find((f) => f.name === 'センター');
    expect(frame?.bones.map((i) => gene.value.bones[i].name)).toContain('グルーブ');

    await showModelThroughDialog(page, GENE, 'ジェネ / Gene');
    await openFileViaDialog(page, WAVE);
    const list = (await page.locator('[data-testid="track-list"]').boundingBox())!;
    await page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
    await page.mouse.wheel(0, -20_000);
    const row = page.locator('[data-testid="track-bone-model:グルーブ"]');
    await row.waitFor();
    expect(await row.textContent()).toMatch(/^グルーブ.*0$/);
    await s.app.screenshot('scratch-other-model-rows');
    await row.click();
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-picked-bone"]')?.textContent?.includes('グルーブ'));
    await seekFrameField(page, 12);
    const u = await undoDepth(page);
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, u);
    await page.waitForSelector('[data-testid="track-bone-model:グルーブ"]', { state: 'detached' });

    const file = path.join(s.tmp.dir, 'wave-groove.vmd');
    await saveAsViaDialog(page, file);
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('wave-groove.vmd'));
    // The command line reads the saved file: one bone key more than the dance had, グルーブ's among the bone tracks.
    const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli/cli.mjs'), 'inspect', file, '--json'], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status).toBe(0);
    const info = JSON.parse(r.stdout) as { model: string; counts: { bone: number; morph: number }; bones: string[] };
    expect(info.model).toBe('初音ミク');
    expect(info.counts.bone).toBe(wave.value.bone.count + 1);
    expect(info.counts.morph).toBe(wave.value.morph.count);
    expect(info.bones).toContain('グルーブ');
    // Its key: frame 12, Gene's rest pose.
    const groove = boneKeys(new Uint8Array(readFileSync(file))).filter((k) => k.name === '834f838b815b8375');
    expect(groove).toEqual([{ name: '834f838b815b8375', frame: 12, pos: [0, 0, 0], rot: [0, 0, 0, 1] }]);
    expect(s.app.errors).toEqual([]);
  });
});
