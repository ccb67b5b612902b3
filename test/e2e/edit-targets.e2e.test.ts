/**
 * Edits reach the keys the user meant (issue 30 §1), end to end in Chromium, checked in the saved bytes of a
 * copy of wavefile_camera.vmd (its cut 682/683: records 14 and 15, 682 closing the shot that starts at 595).
 *  - A click on the key at 683 selects that key alone (a press there may still take both for a time drag),
 *    the curve pane says whose curve it edits and which segment it shapes, and a handle drag writes 683's
 *    curve bytes only: 682's curve (the easing of 595→682) stays.
 *  - After that curve drag, a double-click on the camera track's name selects its keys and Ctrl+C copies
 *    those keys (the keyboard context follows the last thing acted on): Ctrl+V pastes the 70 keys at the cursor.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite, corpusPath, saveAsViaDialog } from './harness';
import { animationFrames, curvePoint, keyPoint, openFresh, seekFrameField } from './editor-page';
import { CAMERA } from '../../shared/vmd';
import { getCameraCurves } from '../../shared/vmd/interpolation';
import { copyWritable } from '../helpers/corpus';

const SRC = corpusPath('threejs/vmds/wavefile_camera.vmd');
/** Camera records start after the header (30), model name (20) and the empty bone and morph counts. */
const CAM_AT = 30 + 20 + 4 + 4 + 4;
const rec = (b: Uint8Array, i: number) => b.subarray(CAM_AT + i * CAMERA.SIZE, CAM_AT + (i + 1) * CAMERA.SIZE);
const frameOf = (b: Uint8Array, i: number) => new DataView(b.buffer, b.byteOffset + CAM_AT + i * CAMERA.SIZE).getUint32(0, true);
const countOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset + CAM_AT - 4).getUint32(0, true);
const curvesOf = (b: Uint8Array, i: number) => getCameraCurves(rec(b, i), CAMERA.INTERPOLATION);

async function selection(page: Page) {
  return page.evaluate(() => window.__vmdEditor!.selection());
}

describe('edits reach the keys meant (issue 30 §1)', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 900 } });

  it('a click on 683 of the cut 682/683 selects that key; a curve drag writes 683 only; then a track selection takes Ctrl+C', async () => {
    const { page } = s.app;
    const file = path.join(s.tmp.dir, 'camera.vmd');
    copyWritable(SRC, file);
    const original = new Uint8Array(readFileSync(file));
    expect([frameOf(original, 14), frameOf(original, 15)]).toEqual([682, 683]);
    await openFresh(page, file);
    await seekFrameField(page, 683);
    await animationFrames(page);
    // At the default zoom the cut's two keys are one mark (data-camera-cuts counts them drawn as such).
    const ppf = Number(await page.getAttribute('[data-testid="timeline-canvas"]', 'data-px-per-frame'));
    console.log(`timeline: ${ppf.toFixed(2)} px per frame`);
    const kp = await keyPoint(page, 'track-camera', 683);
    await page.mouse.click(kp.x, kp.y);
    await animationFrames(page);
    const sel = await selection(page);
    expect(sel.refs).toEqual([{ kind: 'camera', record: 15 }]);
    expect(sel.active).toEqual({ kind: 'camera', record: 15 });
    // The curve pane says whose curve it edits and the segment it shapes.
    expect(await page.getAttribute('[data-testid="curve-target"]', 'data-frame')).toBe('683');
    expect(await page.getAttribute('[data-testid="curve-target"]', 'data-targets')).toBe('1');
    expect(await page.textContent('[data-testid="curve-target"]')).toMatch(/683.*682 → 683/);

    // Drag the X channel's first handle to (100, 30).
    await page.click('[data-testid="curve-channel-x"]');
    const before = curvesOf(original, 15)[0];
    const from = await curvePoint(page, before[0], before[1]);
    const to = await curvePoint(page, 100, 30);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 6 });
    await page.mouse.up();
    await animationFrames(page);
    await s.app.screenshot('edit-targets-cut-curve');

    // A double-click on the camera track's name selects all its keys; Ctrl+C copies them (not the curve);
    // Ctrl+V past the last key pastes them there.
    await page.dblclick('[data-testid="track-camera"]');
    await animationFrames(page);
    expect((await selection(page)).refs.length).toBe(70);
    await page.keyboard.press('Control+c');
    // A frame to paste at where no pasted key lands on an existing one (the cursor stays within the motion).
    const frames = Array.from({ length: 70 }, (_, i) => frameOf(original, i));
    const at = [...Array(2816).keys()].map((f) => f + 1).find((f) => !frames.some((x) => frames.includes(x + f)))!;
    await seekFrameField(page, at);
    await page.keyboard.press('Control+v');
    await animationFrames(page);

    const saved = path.join(s.tmp.dir, 'camera-saved.vmd');
    await saveAsViaDialog(page, saved);
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('camera-saved.vmd'));
    const out = new Uint8Array(readFileSync(saved));
    // The curve edit: record 15's X curve is the dragged one; record 14 (682) is byte for byte the original.
    expect(curvesOf(out, 15)[0]).toEqual([100, 30, before[2], before[3]]);
    expect(Buffer.compare(Buffer.from(rec(out, 14)), Buffer.from(rec(original, 14))), '682 untouched').toBe(0);
    for (let i = 0; i < 70; i++) {
      if (i === 15) continue;
      expect(Buffer.compare(Buffer.from(rec(out, i)), Buffer.from(rec(original, i))), `record ${i}`).toBe(0);
    }
    // The keys pasted at the cursor: 70 more, each original frame moved by the cursor's (the first is 0).
    expect(countOf(out)).toBe(140);
    const pasted: number[] = [];
    for (let i = 70; i < 140; i++) pasted.push(frameOf(out, i));
    expect(pasted.sort((a, b) => a - b)).toEqual(frames.map((f) => f + at).sort((a, b) => a - b));
    expect(s.app.errors).toEqual([]);
  });
});
