// A pose or a motion opened while a dance is open goes onto the actor, as MMD loads it onto the selected model
// (shell/pose-apply.ts): wavefile_v2.vmd on Gene_light.pmx, the playhead at 120, Open… 01.vpd asks "Apply the
// pose to Gene_light at frame 120" first (Enter takes it): every bone of the pose that Gene has is keyed at 120
// with the VPD's values (the VPD's text and the model's bone list are read here, the saved bytes decoded by the
// codec), the others are named in the notice, and one Undo gives back the exact bytes. Open… stand.vmd then
// offers "Load onto Gene_light (replaces its motion)" (one undo step: its bytes are stand.vmd's with the dance's
// model name in the header, then the dance's again) and "Add to the scene as a new actor" (a second tab). Screenshot: test-artifacts/pose-apply-ask.png.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, openFileViaDialog, openToQuestion, showModelThroughDialog } from './harness';
import { seekFrameField } from './editor-page';
import { corpusPresent } from '../helpers/corpus';
import { BONE, buildTracks, readVmd } from '../../shared/vmd';
import { readModel } from '../../shared/pmx/model-reader';

const LONG = 240_000;
const GENE = corpusPath('gene/Gene_light.pmx');
const DANCE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const POSE = corpusPath('threejs/vpds/01.vpd');
const STAND = corpusPath('gene/motion/stand.vmd');

/** 01.vpd's bones, parsed from its text here: name, position, quaternion. */
function vpdBones(): { name: string; pos: number[]; rot: number[] }[] {
  const text = new TextDecoder('shift_jis').decode(readFileSync(POSE)).replace(/\/\/[^\n]*/g, '');
  return [...text.matchAll(/Bone\d+\{([^\r\n]*)\s*([^;]*);\s*([^;]*);\s*\}/g)].map((m) => ({ name: m[1].trim(), pos: m[2].split(',').map(Number), rot: m[3].split(',').map(Number) }));
}

const bytes = async (page: Page) => Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64');
const undoDepth = (page: Page) => page.evaluate(() => window.__vmdEditor!.history().undo);
const tabCount = (page: Page) => page.$$eval('[data-testid="scene-tab"]', (e) => e.length);


/** The bone key of `name` at `frame` in VMD bytes (decoded by the codec): position, rotation, and how many keys there. */
function keyAt(vmd: Uint8Array, name: string, frame: number) {
  const r = readVmd(vmd);
  if (!r.ok) throw new Error(r.error.message);
  const t = buildTracks(r.value).bones;
  const track = t.index.get(name);
  if (track === undefined) return null;
  const hits: number[] = [];
  for (let k = t.start[track]; k < t.start[track + 1]; k++) if (t.frames[k] === frame) hits.push(t.record[k]);
  if (!hits.length) return null;
  const b = r.value.bone.bytes;
  const v = new DataView(b.buffer, b.byteOffset + hits[0] * BONE.SIZE, BONE.SIZE);
  return { count: hits.length, pos: [0, 1, 2].map((c) => v.getFloat32(BONE.POSITION + 4 * c, true)), rot: [0, 1, 2, 3].map((c) => v.getFloat32(BONE.ROTATION + 4 * c, true)) };
}

describe.skipIf(!corpusPresent)('a pose or motion opened over a dance goes onto the actor', () => {
  const s = appForSuite();

  it('Open… 01.vpd at frame 120: Apply (Enter) keys the pose’s bones there with its values; one Undo gives back the exact bytes', async () => {
    const page = s.app.page;
    await openFileViaDialog(page, DANCE);
    await showModelThroughDialog(page, GENE, 'ジェネ / Gene');
    await seekFrameField(page, 120);
    const before = await bytes(page);
    const depth = await undoDepth(page);

    await openToQuestion(page, POSE);
    expect(await page.textContent('[data-testid="confirm-apply"]')).toContain('Apply the pose to Gene_light at frame 120');
    expect(await page.textContent('[data-testid="confirm-discard"]')).toContain('Open it on its own (replaces the scene)');
    expect(await page.isVisible('[data-testid="confirm-cancel"]')).toBe(true);
    await s.app.screenshot('pose-apply-ask');
    // The first answer is the default: Enter takes it.
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="confirm-dialog"]', { state: 'detached' });
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, depth);
    expect(await page.getAttribute('[data-testid="cmd-undo"]', 'title')).toContain('apply pose 01.vpd at 120');
    // What it did, said at once (read before the checks below, which take a while on a loaded machine).
    const said = await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid="notifications"] .notice')].map((e) => e.textContent ?? '').find((t) => t.includes('Applied 01.vpd')) ?? false,
    );
    const notice = (await said.jsonValue()) as string;

    const model = readModel(new Uint8Array(readFileSync(GENE)));
    if (!model.ok) throw new Error(model.error.message);
    const geneBones = new Set(model.value.bones.map((b) => b.name));
    const pose = vpdBones();
    expect(pose.length).toBe(93);
    const keyed = pose.filter((b) => geneBones.has(b.name));
    const lacking = pose.filter((b) => !geneBones.has(b.name));
    expect(keyed.length).toBeGreaterThan(20);
    const after = await bytes(page);
    for (const b of keyed) {
      const k = keyAt(after, b.name, 120);
      expect(k, b.name).not.toBeNull();
      expect(k!.count, b.name).toBe(1);
      expect(k!.pos, b.name).toEqual(b.pos.map(Math.fround));
      const len = Math.hypot(...b.rot);
      k!.rot.forEach((x, c) => expect(Math.abs(x - b.rot[c] / len), `${b.name} [${c}]`).toBeLessThan(1e-6));
    }
    // Bones Gene lacks are not keyed there, and the notice names them.
    for (const b of lacking) expect(keyAt(after, b.name, 120)?.count ?? 0, b.name).toBe(keyAt(before, b.name, 120)?.count ?? 0);
    {
      const n = new Set(keyed.map((b) => b.name)).size;
      expect(notice).toContain(`${n} ${n === 1 ? 'bone' : 'bones'} and`);
    }
    for (const b of lacking) expect(notice).toContain(b.name);

    await page.click('[data-testid="cmd-undo"]');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n, depth);
    expect((await bytes(page)).equals(before)).toBe(true);
    expect(s.app.errors).toEqual([]);
  }, LONG);

  it('Open… stand.vmd: "Load onto Gene_light" replaces its motion as one undo step; "Add to the scene as a new actor" adds a tab', async () => {
    const page = s.app.page;
    const before = await bytes(page);
    const depth = await undoDepth(page);
    expect(await tabCount(page)).toBe(1);

    await openToQuestion(page, STAND);
    expect(await page.textContent('[data-testid="confirm-add"]')).toContain('Add to the scene as a new actor');
    expect(await page.textContent('[data-testid="confirm-load"]')).toContain('Load onto Gene_light (replaces its motion)');
    await page.click('[data-testid="confirm-load"]');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n + 1, depth);
    // The actor's motion is stand.vmd's, byte for byte (the codec writes a file back as it read it), but for
    // the header's model name (bytes 30–49): the actor's own, as MMD loads a motion onto a model; the notice
    // says the name stand.vmd gave.
    const loaded = await bytes(page), stand = readFileSync(STAND);
    expect(Buffer.concat([loaded.subarray(0, 30), loaded.subarray(50)]).equals(Buffer.concat([stand.subarray(0, 30), stand.subarray(50)]))).toBe(true);
    expect(loaded.subarray(30, 50).equals(before.subarray(30, 50))).toBe(true);
    expect(loaded.subarray(30, 50).equals(stand.subarray(30, 50))).toBe(false);
    const said = await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid="notifications"] .notice')].map((e) => e.textContent ?? '').find((t) => t.includes('Loaded stand.vmd onto Gene_light')) ?? false,
    );
    expect(await said.jsonValue()).toContain('Its header named the model ジェネ / Gene; it keeps 初音ミク, the actor’s');
    expect(await tabCount(page)).toBe(1);
    await page.click('[data-testid="cmd-undo"]');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n, depth);
    expect((await bytes(page)).equals(before)).toBe(true);

    await openToQuestion(page, STAND);
    await page.click('[data-testid="confirm-add"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 2);
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('stand.vmd'));
    expect((await bytes(page)).equals(readFileSync(STAND))).toBe(true);
    expect(await page.getAttribute('[data-testid="cmd-undo"]', 'title')).toContain('add actor');
    expect(s.app.errors).toEqual([]);
  }, LONG);
});
