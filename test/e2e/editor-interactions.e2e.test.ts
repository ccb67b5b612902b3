/**
 * The motion editor's interactions end to end in Chromium through the browser mode, with the real mouse
 * and keyboard (Playwright): timeline selection (click, Shift range, Ctrl toggle, box), moving keys by
 * dragging (one undo step; a key landed on replaced, as MMD, said while dragging and after), Delete, Ctrl+C / Ctrl+V at the
 * cursor, insert at the cursor with the interpolated pose, ←/→ Home End Space; the 3D preview following
 * a curve-handle drag before release; camera curves (six channels) through to the saved file; handle
 * nudges, numeric fields, curve paste on chosen channels, apply to all channels; the release cost of a
 * curve edit on a 1.6 MB dance.
 *
 * Expected bytes are built here from the original file (splices, frame fields) or read with the codec,
 * never taken from the editor. The document's current bytes come from the read-only test hook
 * `window.__vmdEditor.bytes()` (renderer/src/e2e/editor-hook.ts: writeVmd of the open document, what
 * Save writes); Save As through the in-app dialog is checked against it once per file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  buildTracks, getBoneCurves, getCameraCurves, readVmd, samplePose, BONE, CAMERA, type Curve, type MotionTracks, type VmdDocument,
} from '../../shared/vmd';
import { appForSuite, corpusPath, saveAsViaDialog } from './harness';
import { animationFrames, clickKey, curveFields, curvePoint, keyPoint, openFresh, seekFrameField as seek } from './editor-page';

const WALK = corpusPath('mc-mmd-rust/default_anim/walk.vmd');
const CAMERA_FILE = corpusPath('threejs/vmds/wavefile_camera.vmd');
const WAVEFILE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
/** Header (30) + model name (20) + bone count (4). */
const BONES_AT = 54;

function load(file: string): { bytes: Uint8Array; doc: VmdDocument; tracks: MotionTracks } {
  const bytes = new Uint8Array(readFileSync(file));
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return { bytes, doc: r.value, tracks: buildTracks(r.value) };
}

/** Track index of a bone by name. */
function boneTrack(t: MotionTracks, name: string): number {
  const i = t.bones.index.get(name);
  if (i === undefined) throw new Error(`no bone ${name}`);
  return i;
}

/** Record index of the key of bone `name` at `frame`. */
function rec(t: MotionTracks, name: string, frame: number): number {
  const b = t.bones, i = boneTrack(t, name);
  for (let k = b.start[i]; k < b.start[i + 1]; k++) if (b.frames[k] === frame) return b.record[k];
  throw new Error(`no key of ${name} at ${frame}`);
}

async function docBytes(page: Page): Promise<Uint8Array> {
  const b64 = await page.evaluate(() => window.__vmdEditor!.bytes());
  if (!b64) throw new Error('no document open');
  return new Uint8Array(Buffer.from(b64, 'base64'));
}

async function selection(page: Page): Promise<number[]> {
  const s = await page.evaluate(() => window.__vmdEditor!.selection());
  return s.refs.map((r) => r.record).sort((a, b) => a - b);
}

const frameNow = (page: Page) => page.evaluate(() => window.__vmdEditor!.frame());
const historyNow = (page: Page) => page.evaluate(() => window.__vmdEditor!.history());

/** A mouse drag in `steps` moves, one animation frame after each (like a person's drag). */
async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }, steps = 8, release = true) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(from.x + ((to.x - from.x) * i) / steps, from.y + ((to.y - from.y) * i) / steps);
    await animationFrames(page, 1);
  }
  if (release) await page.mouse.up();
}

/** Seeks with the toolbar's frame field, then blurs it (so keys go to the editor again). */
/** Indices where two equal-length byte arrays differ. */
function diffAt(a: Uint8Array, b: Uint8Array): number[] {
  expect(a.length).toBe(b.length);
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) out.push(i);
  return out;
}

function u32(b: Uint8Array, at: number): number {
  return new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at, true);
}

/** Bytes of bone record r of a file with bones first. */
function boneRecordBytes(file: Uint8Array, r: number): Uint8Array {
  return file.slice(BONES_AT + r * BONE.SIZE, BONES_AT + (r + 1) * BONE.SIZE);
}

/** A copy of a bone record with another frame. */
function withFrame(record: Uint8Array, frame: number): Uint8Array {
  const c = record.slice();
  new DataView(c.buffer).setUint32(BONE.FRAME, frame, true);
  return c;
}

/** The file with bone records removed (indices ascending) and the count fixed. */
function withoutBoneRecords(file: Uint8Array, removed: number[]): Uint8Array {
  const n = u32(file, 50);
  const parts: Uint8Array[] = [file.subarray(0, BONES_AT)];
  for (let r = 0; r < n; r++) if (!removed.includes(r)) parts.push(file.subarray(BONES_AT + r * BONE.SIZE, BONES_AT + (r + 1) * BONE.SIZE));
  parts.push(file.subarray(BONES_AT + n * BONE.SIZE));
  const out = concat(parts);
  new DataView(out.buffer).setUint32(50, n - removed.length, true);
  return out;
}

/** The file with bone records appended after the last bone record and the count fixed. */
function withBoneRecords(file: Uint8Array, added: Uint8Array[]): Uint8Array {
  const n = u32(file, 50);
  const out = concat([file.subarray(0, BONES_AT + n * BONE.SIZE), ...added, file.subarray(BONES_AT + n * BONE.SIZE)]);
  new DataView(out.buffer).setUint32(50, n + added.length, true);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Angle between two unit quaternions, degrees. */
function angleDeg(a: readonly number[], b: readonly number[]): number {
  const d = Math.min(1, Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / (Math.hypot(...a) * Math.hypot(...b)));
  return (2 * Math.acos(d) * 180) / Math.PI;
}

/** Curves of bone record r in file bytes. */
function boneCurvesOf(file: Uint8Array, r: number): Curve[] {
  return getBoneCurves(file, BONES_AT + r * BONE.SIZE + BONE.INTERPOLATION);
}

/** Every differing byte lies inside the interpolation block of one of the bone records. */
function expectOnlyBoneCurvesChanged(a: Uint8Array, b: Uint8Array, records: number[]) {
  for (const i of diffAt(a, b)) {
    const r = Math.floor((i - BONES_AT) / BONE.SIZE), off = (i - BONES_AT) % BONE.SIZE;
    expect(records, `byte ${i}`).toContain(r);
    expect(off >= BONE.INTERPOLATION && off < BONE.INTERPOLATION + 64, `byte ${i} (record ${r} +${off})`).toBe(true);
    // Interpolation bytes 2–3 change only where the file (MMD's own) repeats x1 of Z and rotation there:
    // they stay that copy of the new curve (x1 at bytes 17, 18), never the physics-off pair.
    if (off === BONE.INTERPOLATION + 2 || off === BONE.INTERPOLATION + 3) {
      const ip = BONES_AT + r * BONE.SIZE + BONE.INTERPOLATION;
      expect([b[ip + 2], b[ip + 3]], `byte ${i}: the original pair copies its curve`).toEqual([b[ip + 17], b[ip + 18]]);
      expect(a[i], `byte ${i} follows its curve`).toBe(a[i + 15]);
      expect([a[ip + 2], a[ip + 3]], `byte ${i}`).not.toEqual([99, 15]);
    }
  }
}

/**
 * Save As through the in-app dialog, then wait for the write itself: the harness returns when the
 * dialog closes, which can be before the save request has finished (the status bar shows the new
 * path only once it has).
 */
async function saveAs(page: Page, target: string) {
  await saveAsViaDialog(page, target);
  await page.waitForFunction((p) => document.querySelector('[data-testid="status-bar"] .path')?.getAttribute('title') === p, target);
}

async function undo(page: Page) {
  await page.keyboard.press('Control+z');
}
async function redo(page: Page) {
  await page.keyboard.press('Control+y');
}

describe('motion editor interactions in the browser mode', () => {
  const suite = appForSuite({ viewport: { width: 1600, height: 960 } });
  const walk = load(WALK);

  it('selects keys (click, Shift range, Ctrl toggle, box), moves, deletes, copies/pastes, inserts, with exact undo/redo', async () => {
    const { page } = suite.app;
    const t = walk.tracks, orig = walk.bytes;
    await openFresh(page, WALK);
    await suite.app.screenshot('editor-walk-opened');
    // The empty curve editor (no key selected) says what to do.
    expect(await page.textContent('[data-testid="curve-editor"]')).toContain('Select a bone or camera key');
    const center = `track-bone:${boneTrack(t, 'センター')}`;
    const lArm = `track-bone:${boneTrack(t, '左腕')}`, rArm = `track-bone:${boneTrack(t, '右腕')}`;

    // Hovering a key names it (the canvas's tooltip) and shows a pointer; empty space names nothing.
    const k27 = await keyPoint(page, center, 27);
    await page.mouse.move(k27.x, k27.y);
    expect(await page.getAttribute('[data-testid="timeline-canvas"]', 'title')).toBe('センター · Frame 27');
    const gap = await keyPoint(page, center, 23);
    await page.mouse.move(gap.x, gap.y);
    expect(await page.getAttribute('[data-testid="timeline-canvas"]', 'title')).toBeNull();
    // Click a key: it alone is selected and the cursor jumps to it.
    await clickKey(page, center, 7);
    expect(await selection(page)).toEqual([rec(t, 'センター', 7)]);
    expect((await frameNow(page)).frame).toBe(7);
    // Shift-click: the range from the anchor.
    await clickKey(page, center, 27, ['Shift']);
    expect(await selection(page)).toEqual([7, 10, 19, 27].map((f) => rec(t, 'センター', f)));
    // Ctrl-click: toggles one key.
    await clickKey(page, center, 19, ['Control']);
    expect(await selection(page)).toEqual([7, 10, 27].map((f) => rec(t, 'センター', f)));
    expect(await page.textContent('[data-testid="selection-count"]')).toContain('3');
    await suite.app.screenshot('editor-select-range-toggle');

    // Box select: from empty space on 左腕 at frame 25 to 右腕 at frame 55 (the two rows are adjacent).
    const a = await keyPoint(page, lArm, 24), b = await keyPoint(page, rArm, 56);
    await drag(page, { x: a.x, y: a.y - 6 }, { x: b.x, y: b.y + 6 }, 6, false);
    await suite.app.screenshot('editor-box-select-dragging');
    await page.mouse.up();
    const boxed = [rec(t, '左腕', 30), rec(t, '左腕', 50), rec(t, '右腕', 30), rec(t, '右腕', 50)].sort((x, y) => x - y);
    expect(await selection(page)).toEqual(boxed);

    // Drag the selected keys 5 frames later: one undo step, only their frame fields change.
    const depth0 = (await historyNow(page)).undo;
    const k30 = await keyPoint(page, lArm, 30), k35 = await keyPoint(page, lArm, 35);
    await drag(page, k30, k35, 5, false);
    // While dragging, the frame the grabbed key lands on and the offset are shown beside it; gone on release.
    expect((await page.textContent('[data-testid="timeline-drag-readout"]'))?.trim()).toBe('Frame 35 (+5)');
    await suite.app.screenshot('editor-drag-readout');
    await page.mouse.up();
    await page.waitForSelector('[data-testid="timeline-drag-readout"]', { state: 'detached' });
    expect((await historyNow(page)).undo).toBe(depth0 + 1);
    const moved = await docBytes(page);
    const expectMoved = orig.slice();
    for (const r of boxed) expectMoved.set(withFrame(boneRecordBytes(orig, r), u32(orig, BONES_AT + r * BONE.SIZE + BONE.FRAME) + 5), BONES_AT + r * BONE.SIZE);
    expect(diffAt(moved, expectMoved)).toEqual([]);
    expect(diffAt(moved, orig).length).toBeGreaterThan(0);
    await suite.app.screenshot('editor-moved-keys');
    await undo(page);
    expect(diffAt(await docBytes(page), orig)).toEqual([]);
    await redo(page);
    expect(diffAt(await docBytes(page), expectMoved)).toEqual([]);
    await undo(page);

    // A move onto an occupied frame replaces the key there, as MMD: the readout says so while dragging, a
    // notice after; one undo step holds both (the moved key's frame, the replaced key's record back).
    await clickKey(page, lArm, 30);
    const k50 = await keyPoint(page, lArm, 50);
    const before = (await historyNow(page)).undo;
    await drag(page, await keyPoint(page, lArm, 30), k50, 6, false);
    expect((await page.textContent('[data-testid="timeline-drag-readout"]'))?.trim()).toBe('Frame 50 (+20) · replaces 1 key');
    await page.mouse.up();
    await page.waitForFunction(() => document.querySelector('[data-testid="notifications"]')?.textContent?.includes('replaced 1 key'));
    expect((await historyNow(page)).undo).toBe(before + 1);
    const r30 = rec(t, '左腕', 30), r50 = rec(t, '左腕', 50);
    const replaced = orig.slice();
    replaced.set(withFrame(boneRecordBytes(orig, r30), 50), BONES_AT + r30 * BONE.SIZE);
    expect(Array.from(await docBytes(page))).toEqual(Array.from(withoutBoneRecords(replaced, [r50])));
    // The moved key stays selected (its record index after the one removed).
    expect(await selection(page)).toEqual([r30 - (r50 < r30 ? 1 : 0)]);
    await suite.app.screenshot('editor-move-replaced');
    await undo(page);
    expect(diffAt(await docBytes(page), orig)).toEqual([]);

    // Delete removes exactly that record.
    await clickKey(page, lArm, 30);
    await page.keyboard.press('Delete');
    const deleted = withoutBoneRecords(orig, [rec(t, '左腕', 30)]);
    expect(Array.from(await docBytes(page))).toEqual(Array.from(deleted));
    expect(await selection(page)).toEqual([]);
    await undo(page);
    expect(diffAt(await docBytes(page), orig)).toEqual([]);
    await redo(page);
    expect(Array.from(await docBytes(page))).toEqual(Array.from(deleted));
    await undo(page);

    // Ctrl+C two keys of 左腕 (10 and 30), Ctrl+V at frame 52: copies land at 52 and 72 (both free).
    await clickKey(page, lArm, 10);
    await clickKey(page, lArm, 30, ['Shift']);
    expect(await selection(page)).toEqual([rec(t, '左腕', 10), rec(t, '左腕', 30)]);
    await page.keyboard.press('Control+c');
    await seek(page, 52);
    await page.keyboard.press('Control+v');
    const pasted = withBoneRecords(orig, [withFrame(boneRecordBytes(orig, rec(t, '左腕', 10)), 52), withFrame(boneRecordBytes(orig, rec(t, '左腕', 30)), 72)]);
    expect(Array.from(await docBytes(page))).toEqual(Array.from(pasted));
    const n = u32(orig, 50);
    expect(await selection(page)).toEqual([n, n + 1]); // the pasted keys are selected
    await suite.app.screenshot('editor-pasted-keys');
    await undo(page);
    expect(diffAt(await docBytes(page), orig)).toEqual([]);
    await redo(page);
    expect(Array.from(await docBytes(page))).toEqual(Array.from(pasted));
    await undo(page);

    // Insert at frame 20 on 左腕 (the active track): the pose the motion has there, per the codec.
    await clickKey(page, lArm, 10);
    await seek(page, 20);
    await page.keyboard.press('Enter');
    const inserted = await docBytes(page);
    expect(u32(inserted, 50)).toBe(n + 1);
    const added = inserted.subarray(BONES_AT + n * BONE.SIZE, BONES_AT + (n + 1) * BONE.SIZE);
    expect(Array.from(inserted.subarray(0, 50))).toEqual(Array.from(orig.subarray(0, 50)));
    expect(Array.from(inserted.subarray(BONES_AT, BONES_AT + n * BONE.SIZE))).toEqual(Array.from(orig.subarray(BONES_AT, BONES_AT + n * BONE.SIZE)));
    expect(Array.from(inserted.subarray(BONES_AT + (n + 1) * BONE.SIZE))).toEqual(Array.from(orig.subarray(BONES_AT + n * BONE.SIZE)));
    const addedDoc = readVmd(inserted);
    if (!addedDoc.ok) throw new Error(addedDoc.error.message);
    const v = new DataView(added.buffer, added.byteOffset, added.byteLength);
    expect(Array.from(added.subarray(0, 15))).toEqual(Array.from(boneRecordBytes(orig, rec(t, '左腕', 10)).subarray(0, 15)));
    expect(v.getUint32(BONE.FRAME, true)).toBe(20);
    const expected = samplePose(t, 20).bones['左腕'];
    for (let c = 0; c < 3; c++) expect(v.getFloat32(BONE.POSITION + 4 * c, true)).toBeCloseTo(expected.position[c], 5);
    for (let c = 0; c < 4; c++) expect(v.getFloat32(BONE.ROTATION + 4 * c, true)).toBeCloseTo(expected.rotation[c], 5);
    // The segment it splits keeps its curve: the new key carries the next key's interpolation bytes.
    expect(Array.from(added.subarray(BONE.INTERPOLATION))).toEqual(Array.from(boneRecordBytes(orig, rec(t, '左腕', 30)).subarray(BONE.INTERPOLATION)));
    // …and sampling the edited motion at 20 gives the same pose as before (the key holds exactly it).
    const after = samplePose(buildTracks(addedDoc.value), 20).bones['左腕'];
    expect(angleDeg(after.rotation, expected.rotation)).toBeLessThan(1e-3);
    expect(await selection(page)).toEqual([n]);
    await suite.app.screenshot('editor-inserted-key');
    await undo(page);
    expect(diffAt(await docBytes(page), orig)).toEqual([]);
    await redo(page);
    expect(Array.from(await docBytes(page))).toEqual(Array.from(inserted));
    await undo(page);

    // Keyboard transport: ←/→ step, Shift ×10, Home/End, Space play/pause.
    const empty = await keyPoint(page, center, 40); // no key there: clears the selection, seeks 40
    await page.mouse.click(empty.x, empty.y);
    expect(await selection(page)).toEqual([]);
    expect((await frameNow(page)).frame).toBe(40);
    await page.keyboard.press('ArrowRight');
    expect((await frameNow(page)).frame).toBe(41);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect((await frameNow(page)).frame).toBe(39);
    await page.keyboard.press('Shift+ArrowRight');
    expect((await frameNow(page)).frame).toBe(49);
    await page.keyboard.press('End');
    expect((await frameNow(page)).frame).toBe(80);
    await page.keyboard.press('Home');
    expect((await frameNow(page)).frame).toBe(0);
    await page.keyboard.press(' ');
    expect((await frameNow(page)).playing).toBe(true);
    await page.waitForFunction(() => window.__vmdEditor!.frame().frame > 3);
    await page.keyboard.press(' ');
    const stopped = await frameNow(page);
    expect(stopped.playing).toBe(false);
    await animationFrames(page, 1);
    await animationFrames(page, 1);
    expect((await frameNow(page)).frame).toBe(stopped.frame);

    // Ctrl+A selects every key of the motion (counts from the file, all blocks), keeping the active key.
    await clickKey(page, center, 27);
    await page.keyboard.press('Control+a');
    const all = walk.doc.bone.count + walk.doc.morph.count + walk.doc.camera.count + walk.doc.light.count + walk.doc.ik.count;
    expect(all).toBeGreaterThan(100);
    expect(await selection(page)).toHaveLength(all);
    expect((await page.evaluate(() => window.__vmdEditor!.selection())).active).toEqual({ kind: 'bone', record: rec(t, 'センター', 27) });
    expect(await page.textContent('[data-testid="selection-count"]')).toContain(String(all));
    // Double-click on a track's name selects its keys only: 左腕's records, read from the file.
    await page.dblclick(`[data-testid="${lArm}"]`);
    const lArmKeys = walk.tracks.bones.start[boneTrack(t, '左腕') + 1] - walk.tracks.bones.start[boneTrack(t, '左腕')];
    expect(lArmKeys).toBeGreaterThan(1);
    expect(await selection(page)).toEqual([...walk.tracks.bones.record.slice(walk.tracks.bones.start[boneTrack(t, '左腕')], walk.tracks.bones.start[boneTrack(t, '左腕') + 1])].sort((a, b) => a - b));
    // Double-click on the ruler selects the column: every key at that frame, here the bone records whose
    // frame field (read from the file's bytes) is 10.
    const column: number[] = [];
    for (let r = 0; r < walk.doc.bone.count; r++) if (new DataView(orig.buffer, orig.byteOffset).getUint32(BONES_AT + r * BONE.SIZE + 15, true) === 10) column.push(r);
    expect(column.length).toBeGreaterThan(3);
    const at10 = await keyPoint(page, center, 10);
    const canvasBox = (await page.locator('[data-testid="timeline-canvas"]').boundingBox())!;
    await page.mouse.dblclick(at10.x, canvasBox.y + 12);
    expect(await selection(page)).toEqual(column);
    expect((await frameNow(page)).frame).toBe(10);
    // Nothing above changed the document; everything was undone.
    expect(diffAt(await docBytes(page), orig)).toEqual([]);
    expect(suite.app.errors).toEqual([]);
  });

  it('+10 typed in the Key panel over a range select of 100–200 (all tracks) moves the keys onto the keys there, replacing them; undo brings all back', async () => {
    const { page } = suite.app;
    const dance = load(WAVEFILE), orig = dance.bytes;
    await openFresh(page, WAVEFILE);
    // Worked out here from the tracks the codec reads: the keys in 100..200 of every bone and morph track,
    // and the keys that stay where one of them lands 10 frames later (on its own track).
    const moving: Record<'bone' | 'morph', Set<number>> = { bone: new Set(), morph: new Set() };
    const landed: Record<'bone' | 'morph', Set<number>> = { bone: new Set(), morph: new Set() };
    for (const kind of ['bone', 'morph'] as const) {
      const t = kind === 'bone' ? dance.tracks.bones : dance.tracks.morphs;
      for (let tr = 0; tr + 1 < t.start.length; tr++) {
        const at = new Map<number, number>();
        for (let k = t.start[tr]; k < t.start[tr + 1]; k++) at.set(t.frames[k], t.record[k]);
        for (let k = t.start[tr]; k < t.start[tr + 1]; k++) {
          const f = t.frames[k];
          if (f < 100 || f > 200) continue;
          moving[kind].add(t.record[k]);
          const there = at.get(f + 10);
          if (there !== undefined && (f + 10 > 200)) landed[kind].add(there);
        }
      }
    }
    const selected = moving.bone.size + moving.morph.size, replaced = landed.bone.size + landed.morph.size;
    expect(replaced).toBeGreaterThan(1);
    await page.click('[data-testid="range-toggle"]');
    await page.waitForSelector('[data-testid="range-bar"]');
    await page.fill('[data-testid="range-from"]', '100');
    await page.fill('[data-testid="range-to"]', '200');
    await page.selectOption('[data-testid="range-tracks"]', 'all');
    await page.click('[data-testid="range-select"]');
    await page.waitForFunction((n) => document.querySelector('[data-testid="selection-count"]')?.textContent?.includes(String(n)), selected);
    const depth0 = (await historyNow(page)).undo;
    await page.fill('[data-testid="inspector-frame"]', '+10');
    await page.press('[data-testid="inspector-frame"]', 'Enter');
    await page.waitForFunction((n) => document.querySelector('[data-testid="notifications"]')?.textContent?.includes(`replaced ${n} keys`), replaced);
    expect((await historyNow(page)).undo).toBe(depth0 + 1);
    // The file by hand: each moving record's frame + 10, the records landed on left out, counts fixed.
    const v = new DataView(orig.buffer, orig.byteOffset, orig.length);
    const nBones = v.getUint32(50, true), morphsAt = BONES_AT + nBones * BONE.SIZE + 4, nMorphs = v.getUint32(morphsAt - 4, true);
    const block = (kind: 'bone' | 'morph', from: number, n: number, size: number) => {
      const parts: Uint8Array[] = [];
      for (let r = 0; r < n; r++) {
        if (landed[kind].has(r)) continue;
        const c = orig.slice(from + r * size, from + (r + 1) * size);
        if (moving[kind].has(r)) new DataView(c.buffer).setUint32(15, v.getUint32(from + r * size + 15, true) + 10, true);
        parts.push(c);
      }
      return concat(parts);
    };
    const count = (n: number) => new Uint8Array(Uint32Array.of(n).buffer);
    const want = concat([
      orig.subarray(0, BONES_AT - 4), count(nBones - landed.bone.size), block('bone', BONES_AT, nBones, BONE.SIZE),
      count(nMorphs - landed.morph.size), block('morph', morphsAt, nMorphs, 23), orig.subarray(morphsAt + nMorphs * 23),
    ]);
    expect(diffAt(await docBytes(page), want)).toEqual([]);
    await suite.app.screenshot('editor-typed-move-replaced');
    // Undo from the toolbar (the Frame field still has the focus: there Ctrl+Z is the field's own).
    await page.click('[data-testid="cmd-undo"]');
    await page.waitForFunction((d) => window.__vmdEditor!.history().undo === d, depth0);
    expect(diffAt(await docBytes(page), orig)).toEqual([]);
  });

  it('⟲ in the curve pane loops the frames the curve shapes; × plays the whole motion again', async () => {
    const { page } = suite.app;
    await openFresh(page, WALK);
    const t = walk.tracks;
    const center = `track-bone:${boneTrack(t, 'センター')}`;
    // センター's keys include 19 and 27 with none between (file order read by the codec above).
    const b = t.bones, i = boneTrack(t, 'センター');
    const frames = [...b.frames.slice(b.start[i], b.start[i + 1])];
    expect(frames[frames.indexOf(27) - 1]).toBe(19);
    await clickKey(page, center, 27);
    await page.click('[data-testid="curve-loop-segment"]');
    expect(await page.textContent('[data-testid="preview-range"]')).toContain('19–27');
    // Watch the current frame for 1.2 s (over four passes of the 8-frame segment).
    const seen = await page.evaluate(async () => {
      const out: number[] = [];
      const t0 = performance.now();
      while (performance.now() - t0 < 1200) {
        out.push(window.__vmdEditor!.frame().frame);
        await new Promise((r) => requestAnimationFrame(r));
      }
      return out;
    });
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(19);
    expect(Math.max(...seen)).toBeLessThanOrEqual(27);
    expect(seen.some((f, k) => k > 0 && f < seen[k - 1]), 'wrapped back to 19').toBe(true);
    expect((await frameNow(page)).playing).toBe(true);
    await suite.app.screenshot('editor-loop-segment');
    // × ends the range: playback goes on over the whole motion (beyond 27 within a second).
    await page.click('[data-testid="preview-range-clear"]');
    await page.waitForSelector('[data-testid="preview-range"]', { state: 'detached' });
    await page.waitForFunction(() => { const f = window.__vmdEditor!.frame().frame; return f > 27.5 || f < 18.5; }, undefined, { timeout: 5000 });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press(' ');
    expect((await frameNow(page)).playing).toBe(false);
    expect(suite.app.errors).toEqual([]);
  });

  it('the 3D preview follows a curve-handle drag before the mouse is released', async () => {
    const { page } = suite.app;
    const t = walk.tracks;
    await openFresh(page, WALK);
    const lArm = `track-bone:${boneTrack(t, '左腕')}`;
    const r30 = rec(t, '左腕', 30);
    await clickKey(page, lArm, 30);
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowLeft');
    expect((await frameNow(page)).frame).toBe(20);
    await page.click('[data-testid="curve-channel-r"]');
    const stored = boneCurvesOf(walk.bytes, r30)[3];
    expect(await curveFields(page)).toEqual([...stored]);
    const target: Curve = [120, 4, stored[2], stored[3]];

    // What the codec says the drag should do to 左腕 at frame 20 (local rotation; the world rotation of
    // the same bone turns by the same angle, its parents do not move).
    const sampled = (curve: Curve) => {
      const edited = walk.bytes.slice();
      const r = readVmd(edited);
      if (!r.ok) throw new Error(r.error.message);
      const tr = buildTracks(r.value);
      const k = tr.bones.record.indexOf(r30);
      tr.bones.curves.set(curve, 16 * k + 12);
      return samplePose(tr, 20).bones['左腕'].rotation;
    };
    const turn = angleDeg(sampled(stored), sampled(target));
    expect(turn).toBeGreaterThan(1); // the drag really moves the arm at frame 20

    await page.waitForFunction(() => !!window.__vmdPreview?.boneWorldQuaternion('左腕'));
    const q0 = (await page.evaluate(() => window.__vmdPreview!.boneWorldQuaternion('左腕')))!;
    const h1 = await curvePoint(page, stored[0], stored[1]), to = await curvePoint(page, target[0], target[1]);
    await drag(page, h1, to, 10, false);
    // Still holding the mouse: the document is untouched, the preview already shows the draft curve.
    const during = await page.evaluate(() => ({ q: window.__vmdPreview!.boneWorldQuaternion('左腕')!, depth: window.__vmdEditor!.history().undo }));
    expect(during.depth).toBe(0);
    expect(angleDeg(q0, during.q)).toBeCloseTo(turn, 1);
    await suite.app.screenshot('editor-curve-drag-preview-live');
    await page.mouse.up();
    await animationFrames(page, 1);
    expect(await curveFields(page)).toEqual([...target]);
    const committed = (await page.evaluate(() => window.__vmdPreview!.boneWorldQuaternion('左腕')))!;
    expect(angleDeg(committed, during.q)).toBeLessThan(0.01);
    expect(boneCurvesOf(await docBytes(page), r30)[3]).toEqual(target);
    await undo(page);
    await animationFrames(page, 1);
    const undone = (await page.evaluate(() => window.__vmdPreview!.boneWorldQuaternion('左腕')))!;
    expect(angleDeg(undone, q0)).toBeLessThan(0.01);
    expect(diffAt(await docBytes(page), walk.bytes)).toEqual([]);
    expect(suite.app.errors).toEqual([]);
  });

  it('edits a camera curve (six channels) and saves exactly that channel of that key', async () => {
    const { page } = suite.app;
    const cam = load(CAMERA_FILE);
    const ct = cam.tracks.camera;
    // A key in the middle with its previous key well before it (not a cut).
    let k = Math.floor(ct.frames.length / 2);
    while (ct.frames[k] - ct.frames[k - 1] < 10) k++;
    const record = ct.record[k], frame = ct.frames[k];
    await openFresh(page, CAMERA_FILE);
    await seek(page, frame);
    // Zoom in about the key with Ctrl+wheel until keys are far apart.
    let p = await keyPoint(page, 'track-camera', frame);
    await page.mouse.move(p.x, p.y);
    for (let i = 0; i < 18; i++) {
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -120);
      await page.keyboard.up('Control');
      await animationFrames(page, 1);
    }
    p = await keyPoint(page, 'track-camera', frame);
    await page.mouse.click(p.x, p.y);
    expect(await selection(page)).toEqual([record]);
    for (const ch of ['x', 'y', 'z', 'r', 'd', 'v']) expect(await page.isVisible(`[data-testid="curve-channel-${ch}"]`)).toBe(true);

    // Channel 4: distance. Drag handle 2 to (30, 100).
    const at = 62 + record * CAMERA.SIZE + CAMERA.INTERPOLATION; // header 30 + name 20 + 3 counts (bone, morph, camera) 12
    expect(u32(cam.bytes, 58)).toBe(cam.doc.camera.count);
    const before = getCameraCurves(cam.bytes, at);
    await page.click('[data-testid="curve-channel-d"]');
    expect(await curveFields(page)).toEqual([...before[4]]);
    const target: Curve = [before[4][0], before[4][1], 30, 100];
    expect(target).not.toEqual(before[4]);
    await drag(page, await curvePoint(page, before[4][2], before[4][3]), await curvePoint(page, 30, 100), 8);
    expect(await curveFields(page)).toEqual([...target]);
    await suite.app.screenshot('editor-camera-curve-distance');

    const out = path.join(suite.tmp.dir, 'camera-edited.vmd');
    await saveAs(page, out);
    await suite.app.screenshot('editor-camera-saved');
    const saved = new Uint8Array(readFileSync(out));
    const changed = diffAt(saved, cam.bytes);
    expect(changed.length).toBeGreaterThan(0);
    // Only that key's distance bytes, stored as x1, x2, y1, y2.
    for (const i of changed) expect(i >= at + 16 && i < at + 20, `byte ${i}`).toBe(true);
    expect(Array.from(saved.subarray(at + 16, at + 20))).toEqual([target[0], target[2], target[1], target[3]]);
    expect(Array.from(await docBytes(page))).toEqual(Array.from(saved));
    expect(suite.app.errors).toEqual([]);
  });

  it('nudges a handle with arrow keys, types x1..y2, pastes a curve on chosen channels, applies to all channels', async () => {
    const { page } = suite.app;
    const t = walk.tracks, orig = walk.bytes;
    await openFresh(page, WALK);
    const lArm = `track-bone:${boneTrack(t, '左腕')}`, rArm = `track-bone:${boneTrack(t, '右腕')}`;
    const lElbow = `track-bone:${boneTrack(t, '左ひじ')}`, rElbow = `track-bone:${boneTrack(t, '右ひじ')}`;
    const src = rec(t, '左腕', 30);
    const c0 = boneCurvesOf(orig, src);

    // Select the key, channel X, pick handle 1 (a click without moving: no edit), then nudge it.
    await clickKey(page, lArm, 30);
    await page.click('[data-testid="curve-channel-x"]');
    const h = await curvePoint(page, c0[0][0], c0[0][1]);
    await page.mouse.click(h.x, h.y);
    expect((await historyNow(page)).undo).toBe(0);
    const x1 = Math.min(127, c0[0][0] + 1), y1 = Math.min(127, c0[0][1] + 10);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowUp');
    expect(await curveFields(page)).toEqual([x1, y1, c0[0][2], c0[0][3]]);
    let now = await docBytes(page);
    expect(boneCurvesOf(now, src)).toEqual([[x1, y1, c0[0][2], c0[0][3]], c0[1], c0[2], c0[3]]);
    expectOnlyBoneCurvesChanged(now, orig, [src]);
    expect((await historyNow(page)).undo).toBe(1); // a run of nudges on one handle is one step, as a drag is
    // The frame did not move: arrows went to the handle.
    expect((await frameNow(page)).frame).toBe(30);

    // Numeric field: x2 = 90.
    await page.fill('[data-testid="curve-x2"]', '90');
    await page.press('[data-testid="curve-x2"]', 'Enter');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 2);
    const edited: Curve = [x1, y1, 90, c0[0][3]];
    now = await docBytes(page);
    expect(boneCurvesOf(now, src)).toEqual([edited, c0[1], c0[2], c0[3]]);
    await suite.app.screenshot('editor-curve-nudged-typed');

    // Copy this key's curve (X is shown); paste onto four elbow keys (box select) on channels X and rotation only:
    // as in MMD, the curve shown when copied goes onto each ticked channel.
    await page.click('[data-testid="curve-copy"]');
    const a = await keyPoint(page, lElbow, 24), b = await keyPoint(page, rElbow, 56);
    await drag(page, { x: a.x, y: a.y - 6 }, { x: b.x, y: b.y + 6 }, 5);
    const targets = [rec(t, '左ひじ', 30), rec(t, '左ひじ', 50), rec(t, '右ひじ', 30), rec(t, '右ひじ', 50)].sort((x, y) => x - y);
    expect(await selection(page)).toEqual(targets);
    // The copy ticked X alone (the channel it came from); rotation ticked by hand.
    expect(await Promise.all(['x', 'y', 'z', 'r'].map((ch) => page.isChecked(`[data-testid="paste-ch-${ch}"]`)))).toEqual([true, false, false, false]);
    await page.check('[data-testid="paste-ch-r"]');
    await page.click('[data-testid="curve-paste"]');
    const pastedBytes = await docBytes(page);
    for (const r of targets) {
      const was = boneCurvesOf(orig, r);
      expect(boneCurvesOf(pastedBytes, r)).toEqual([edited, was[1], was[2], edited]);
    }
    expectOnlyBoneCurvesChanged(pastedBytes, orig, [src, ...targets]);
    await suite.app.screenshot('editor-curve-pasted');

    // Apply to all channels: 右腕 at 50, its Y curve set by the ease-in preset [53, 0, 127, 127] (walk.vmd's
    // keys have four equal curves), then copied onto X, Z and rotation in one click.
    const r50 = rec(t, '右腕', 50);
    const easeIn: Curve = [53, 0, 127, 127];
    expect(boneCurvesOf(orig, r50)[1]).not.toEqual(easeIn);
    await clickKey(page, rArm, 50);
    await page.click('[data-testid="curve-channel-y"]');
    await page.click('[data-testid="preset-ease-in"]');
    const wasR50 = boneCurvesOf(orig, r50);
    expect(boneCurvesOf(await docBytes(page), r50)).toEqual([wasR50[0], easeIn, wasR50[2], wasR50[3]]);
    await page.click('[data-testid="curve-apply-all"]');
    const all = await docBytes(page);
    expect(boneCurvesOf(all, r50)).toEqual([easeIn, easeIn, easeIn, easeIn]);
    expectOnlyBoneCurvesChanged(all, orig, [src, ...targets, r50]);
    expect(diffAt(all, pastedBytes).every((i) => Math.floor((i - BONES_AT) / BONE.SIZE) === r50)).toBe(true);
    await suite.app.screenshot('editor-curve-apply-all');

    // Saved file = the document; five undos bring back the original bytes exactly, five redos the edits.
    const out = path.join(suite.tmp.dir, 'walk-curves.vmd');
    await saveAs(page, out);
    expect(Array.from(new Uint8Array(readFileSync(out)))).toEqual(Array.from(all));
    expect((await historyNow(page)).undo).toBe(5); // the nudges, field, paste, preset, apply to all
    for (let i = 0; i < 5; i++) await undo(page);
    expect(diffAt(await docBytes(page), orig)).toEqual([]);
    for (let i = 0; i < 5; i++) await redo(page);
    expect(Array.from(await docBytes(page))).toEqual(Array.from(all));
    expect(suite.app.errors).toEqual([]);
  });

  it('commits a curve drag on the 1.6 MB dance without rebuilding the tracks (release → redrawn)', async () => {
    const { page } = suite.app;
    const wf = load(WAVEFILE);
    const b = wf.tracks.bones;
    const track = boneTrack(wf.tracks, '左腕');
    const k = b.start[track] + 5;
    const record = b.record[k], frame = b.frames[k];
    await openFresh(page, WAVEFILE);
    // Select the key through the store-facing UI path the first e2e file already covers (timeline click).
    await seek(page, frame);
    const trackId = `track-bone:${track}`;
    await page.evaluate((id) => document.querySelector(`[data-testid="${id}"]`)?.scrollIntoView(), trackId);
    // The row's middle inside the timeline's key area (a rendered row may still be cut off at the bottom).
    const rowInView = () => page.evaluate((id) => {
      const row = document.querySelector(`[data-testid="${id}"]`), cv = document.querySelector('[data-testid="timeline-canvas"]');
      if (!row || !cv) return false;
      const r = row.getBoundingClientRect(), c = cv.getBoundingClientRect();
      const y = r.top + r.height / 2;
      return y > c.top + 26 && y < c.bottom - 6;
    }, trackId);
    if (!(await rowInView())) {
      // Row not rendered (virtualised) or cut off: scroll the track list to it with the wheel.
      await page.hover('[data-testid="track-list"]');
      for (let i = 0; i < 40 && !(await rowInView()); i++) await page.mouse.wheel(0, 120);
    }
    for (let i = 0; i < 12; i++) {
      const p = await keyPoint(page, trackId, frame);
      await page.mouse.move(p.x, p.y);
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -120);
      await page.keyboard.up('Control');
      await animationFrames(page, 1);
    }
    await clickKey(page, trackId, frame);
    expect(await selection(page)).toEqual([record]);
    await page.click('[data-testid="curve-channel-r"]');
    const c = getBoneCurves(wf.bytes, BONES_AT + record * BONE.SIZE + BONE.INTERPOLATION)[3];
    const times: number[] = [], commits: number[] = [];
    let vx = 100;
    for (let i = 0; i < 3; i++, vx -= 20) {
      const from = await curvePoint(page, ...(i === 0 ? [c[0], c[1]] as [number, number] : [vx + 20, 30] as [number, number]));
      await drag(page, from, await curvePoint(page, vx, 30), 4, false);
      const t0 = await page.evaluate(() => performance.now());
      await page.mouse.up();
      const t1 = await page.evaluate(() => new Promise<number>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now())))));
      times.push(t1 - t0);
      commits.push(await page.evaluate(() => window.__vmdEditor!.lastCommitMs()));
    }
    console.log(`[perf] wavefile_v2 curve release → committed and redrawn (3 drags): ${times.map((x) => x.toFixed(0)).join(', ')} ms; document install: ${commits.map((x) => x.toFixed(1)).join(', ')} ms`);
    const saved = await docBytes(page);
    expectOnlyBoneCurvesChanged(saved, wf.bytes, [record]);
    expect(boneCurvesOf(saved, record)[3]).toEqual([60, 30, c[2], c[3]]);
    // The install times are printed above (issue 30: reported, not asserted); each drag made one commit.
    expect(commits.every((x) => Number.isFinite(x) && x >= 0)).toBe(true);
    expect(suite.app.errors).toEqual([]);
  });
});
