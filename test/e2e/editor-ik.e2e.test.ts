/**
 * The display/IK (表示・IK) keys end to end in Chromium through the browser mode: open
 * gene/motion/stand.vmd through the in-app dialog, find its one IK key drawn on the 表示・IK row at
 * the top of the timeline, click it, untick one IK bone and Display in the key inspector, insert an IK
 * key at frame 60 on that row, undo and redo, Save As, and read the saved file with the codec: the
 * bone, morph, camera, light and self-shadow blocks are byte-identical to the original, and the IK
 * block holds exactly the two intended keys and flags.
 *
 * Expected bytes are computed here from the original file (offsets from its block counts, names
 * decoded with the platform's Shift_JIS decoder), never taken from the editor.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ikKey, readVmd, type VmdDocument } from '../../shared/vmd';
import { appForSuite, corpusPath, openFileViaDialog, saveAsViaDialog } from './harness';
import { animationFrames, keyPoint, seekFrameField as seek } from './editor-page';

const STAND = corpusPath('gene/motion/stand.vmd');

function parse(bytes: Uint8Array): VmdDocument {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function u32(b: Uint8Array, at: number): number {
  return new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at, true);
}

/** Offset of the IK block's first record, from the block counts in the file (fixed record sizes). */
function ikStart(bytes: Uint8Array): number {
  let at = 50;
  for (const size of [111, 23, 61, 28, 9]) at += 4 + u32(bytes, at) * size;
  return at + 4;
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0;
}

async function docBytes(page: Page): Promise<Uint8Array> {
  const b64 = await page.evaluate(() => window.__vmdEditor!.bytes());
  if (!b64) throw new Error('no document open');
  return new Uint8Array(Buffer.from(b64, 'base64'));
}

const historyNow = (page: Page) => page.evaluate(() => window.__vmdEditor!.history());

/** RGB of the timeline canvas at a client point. */
async function pixel(page: Page, p: { x: number; y: number }): Promise<number[]> {
  return page.evaluate(({ x, y }) => {
    const cv = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement;
    const r = cv.getBoundingClientRect();
    const scale = cv.width / r.width;
    const d = cv.getContext('2d')!.getImageData(Math.round((x - r.left) * scale), Math.round((y - r.top) * scale), 1, 1).data;
    return [d[0], d[1], d[2]];
  }, p);
}

/**
 * True when a key diamond's fill (normal #b9c4d6, selected #ffb23e) is drawn within 4 px left or right
 * of the point, on the row's middle line (the diamond is 10 px wide; the cursor line may cover its centre).
 */
async function keyDrawn(page: Page, p: { x: number; y: number }, selected: boolean): Promise<boolean> {
  const want = selected ? [0xff, 0xb2, 0x3e] : [0xb9, 0xc4, 0xd6];
  for (let dx = -4; dx <= 4; dx++) {
    const rgb = await pixel(page, { x: p.x + dx, y: p.y });
    if (rgb.every((c, i) => Math.abs(c - want[i]) < 8)) return true;
  }
  return false;
}

/** Seeks with the toolbar's frame field, then blurs it (so keys go to the editor again). */
async function waitDepth(page: Page, depth: number) {
  await page.waitForFunction((d) => window.__vmdEditor!.history().undo === d, depth);
}

describe('display/IK keys in the browser mode', () => {
  const suite = appForSuite({ viewport: { width: 1600, height: 960 } });

  it('shows, selects, edits, inserts, undoes/redoes and saves IK keys; only the IK block changes', async () => {
    const { page } = suite.app;
    const original = new Uint8Array(readFileSync(STAND));
    const at = ikStart(original);
    expect(u32(original, at - 4)).toBe(1); // one IK key…
    const n = u32(original, at + 5);
    expect(at + 9 + 21 * n).toBe(original.length); // …the last record of the file
    expect(u32(original, at)).toBe(0); // at frame 0
    const sjis = new TextDecoder('shift_jis');
    const names = Array.from({ length: n }, (_, j) => sjis.decode(original.subarray(at + 9 + 21 * j, at + 29 + 21 * j)).replace(/\0.*$/s, ''));
    const enabledAt = (j: number) => at + 9 + 21 * j + 20;
    expect(names.map((_, j) => original[enabledAt(j)])).toEqual(names.map(() => 1));
    expect(original[at + 4]).toBe(1);

    await openFileViaDialog(page, STAND);
    await page.waitForSelector('[data-testid="track-ik"]');
    await animationFrames(page);

    // The row is at the top (its own group, above every bone row) and counts one key.
    const rowTops = await page.evaluate(() => {
      const top = (id: string) => document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect().top;
      const bones = [...document.querySelectorAll('[data-testid^="track-bone:"]')].map((e) => e.getBoundingClientRect().top);
      return { group: top('group-ik'), track: top('track-ik'), firstBone: Math.min(...bones) };
    });
    expect(rowTops.group).toBeLessThan(rowTops.track);
    expect(rowTops.track).toBeLessThan(rowTops.firstBone);
    expect(await page.textContent('[data-testid="track-ik"]')).toMatch(/Display · IK\s*1/);
    // Its key is drawn at frame 0, and nothing at 60 yet.
    const k0 = await keyPoint(page, 'track-ik', 0);
    expect(await keyDrawn(page, k0, false)).toBe(true);
    expect(await keyDrawn(page, await keyPoint(page, 'track-ik', 60), false)).toBe(false);

    // Click it: selected and active; the inspector shows Display and one checkbox per IK bone.
    await page.mouse.click(k0.x, k0.y);
    const s = await page.evaluate(() => window.__vmdEditor!.selection());
    expect(s.refs).toEqual([{ kind: 'ik', record: 0 }]);
    expect(s.active).toEqual({ kind: 'ik', record: 0 });
    await animationFrames(page);
    expect(await keyDrawn(page, k0, true)).toBe(true);
    expect((await page.textContent('[data-testid="inspector-name"]'))?.trim()).toBe('Display · IK');
    expect(await page.isChecked('[data-testid="inspector-display"]')).toBe(true);
    const shown = await page.$$eval('[data-testid^="inspector-ik-"]', (els) => els.map((e) => [e.getAttribute('data-name'), (e as HTMLInputElement).checked]));
    expect(shown).toEqual(names.map((nm) => [nm, true]));
    expect(await page.textContent('[data-testid="curve-editor"]')).toContain('Display · IK keys switch on their frame; they have no curve.');

    // Untick one IK bone (the third, 左つま先ＩＫ in this file), then Display: one step each.
    const j = 2;
    await page.uncheck(`[data-testid="inspector-ik-${j}"]`);
    await waitDepth(page, 1);
    await page.uncheck('[data-testid="inspector-display"]');
    await waitDepth(page, 2);
    const edited = original.slice();
    edited[enabledAt(j)] = 0;
    edited[at + 4] = 0;
    expect(same(await docBytes(page), edited)).toBe(true);

    // Insert on the IK row (active since its key was clicked) at frame 60: the state in force there.
    await seek(page, 60);
    await page.click('[data-testid="insert-key"]');
    await waitDepth(page, 3);
    const rec = edited.slice(at);
    new DataView(rec.buffer).setUint32(0, 60, true);
    const expected = new Uint8Array(edited.length + rec.length);
    expected.set(edited);
    expected.set(rec, edited.length);
    new DataView(expected.buffer).setUint32(at - 4, 2, true);
    expect(same(await docBytes(page), expected)).toBe(true);
    expect((await page.evaluate(() => window.__vmdEditor!.selection())).refs).toEqual([{ kind: 'ik', record: 1 }]);
    await animationFrames(page);
    const k60 = await keyPoint(page, 'track-ik', 60);
    expect(await keyDrawn(page, k60, true)).toBe(true);
    expect(await page.textContent('[data-testid="track-ik"]')).toMatch(/Display · IK\s*2/);
    // The inspector shows the new key: frame 60, the carried-over flags.
    expect(await page.inputValue('[data-testid="inspector-frame"]')).toBe('60');
    expect(await page.isChecked('[data-testid="inspector-display"]')).toBe(false);
    expect(await page.isChecked(`[data-testid="inspector-ik-${j}"]`)).toBe(false);
    expect(await page.isChecked('[data-testid="inspector-ik-0"]')).toBe(true);
    await suite.app.screenshot('editor-ik-inserted');

    // Undo all three steps: the original bytes; redo them: the edited ones again.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (let i = 0; i < 3; i++) await page.keyboard.press('Control+z');
    await waitDepth(page, 0);
    expect(same(await docBytes(page), original)).toBe(true);
    await animationFrames(page);
    expect(await keyDrawn(page, k60, false)).toBe(false); // the inserted key is gone
    expect(await keyDrawn(page, k60, true)).toBe(false);
    for (let i = 0; i < 3; i++) await page.keyboard.press('Control+y');
    await waitDepth(page, 3);
    expect(same(await docBytes(page), expected)).toBe(true);

    // Show the first key in the inspector for the screenshot: the row, both diamonds, the flags.
    await page.mouse.click(k0.x, k0.y);
    await animationFrames(page);
    expect(await page.inputValue('[data-testid="inspector-frame"]')).toBe('0');
    await suite.app.screenshot('editor-ik-key-inspector');

    // Save As, then read the file with the codec.
    const out = path.join(suite.tmp.dir, 'stand-ik.vmd');
    await saveAsViaDialog(page, out);
    await page.waitForFunction((p) => document.querySelector('[data-testid="status-bar"] .path')?.getAttribute('title') === p, out);
    const saved = new Uint8Array(readFileSync(out));
    expect(same(saved, expected)).toBe(true);
    const a = parse(original), b = parse(saved);
    for (const kind of ['bone', 'morph', 'camera', 'light', 'shadow'] as const) {
      expect(b[kind].count, kind).toBe(a[kind].count);
      expect(same(b[kind].bytes, a[kind].bytes), kind).toBe(true);
    }
    expect(same(b.header, a.header) && same(b.modelName, a.modelName)).toBe(true);
    expect(b.ik.count).toBe(2);
    const want = (frame: number) => ({ frame, visible: 0, iks: names.map((name, i) => ({ name, enabled: i === j ? 0 : 1 })) });
    expect(ikKey(b.ik, 0)).toEqual(want(0));
    expect(ikKey(b.ik, 1)).toEqual(want(60));
    expect(suite.app.errors).toEqual([]);
  });
});
