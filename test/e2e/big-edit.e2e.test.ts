/**
 * Whole-motion edits at MikuMikuDance's ceiling (issue 31): a generated 600,000-key motion (100 bones ×
 * 6,000 keys, 66.6 MB) opened once through the in-app dialog, then, in each of three rounds, through the
 * app's own input (keyboard, real mouse drags on the timeline, buttons):
 *   Ctrl+A · drag every key 5 frames and release · undo · redo · undo · Delete all · its undo;
 * and once after the rounds: a curve preset on every key, and its undo. Then, three rounds each: Mirror the
 * whole motion (the Whole Motion dialog), its undo and redo; and a drag of a curve handle with every key
 * selected (ten moves: frame gaps and frames per second while dragging), its release, undo and redo.
 *
 * The last test reopens the page with `?editSliceMs=0&editSliceGapMs=40` (each step of a sliced edit its own
 * slice, 40 ms apart) so the progress box is surely seen: a drag of every key shows it, Escape cancels it
 * (nothing committed: same bytes, same undo depth), and the same drag let run commits once; then the same
 * for Mirror from the Whole Motion dialog.
 *
 * For each edit the page records, from the input to the edit's visible end (selection count, undo depth)
 * plus three animation frames: the longest gap between animation frames (the longest the window was
 * frozen) and the long tasks (PerformanceObserver 'longtask': count, longest, sum). Medians over the
 * rounds are printed as [perf] lines, with the page's JS heap after each round (CDP Runtime.getHeapUsage).
 * Nothing is asserted on time (a loaded machine must not block a change). What is asserted is exact: the
 * document's bytes after each edit and each undo (SHA-256 of what Save writes, in the page) equal bytes
 * built here by hand from the generated file: every frame field +5 for the drag, the bone block emptied
 * for Delete, the interpolation block of every record replaced for the preset, 左/右 swapped and the sign
 * bits flipped for Mirror, x1/y1 of channel X (and their shifted copies) for the handle drag, the original
 * after undo.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBoneInterpolation, emptyVmd, encodeBoneRecord, fixedBlock, nameField, readVmd, writeVmd, BONE } from '../../shared/vmd';
import { groupBones, setCurves, presetById } from '../../shared/key-edits';
import { buildTracks } from '../../shared/vmd';
import { openApp, openFileViaDialog, tempDir, type AppHandle } from './harness';
import { animationFrames, curveFields, curvePoint, keyPoint } from './editor-page';

const BONES = 100;
const PER_BONE = 6000;
const KEYS = BONES * PER_BONE;
const STEP = 3; // frames between a track's keys
const SHIFT = 5; // the drag: every key 5 frames later
const ROUNDS = 3;
/**
 * The autosave test's edits: two, so a copy is seen made after the first edit and made again after a second
 * (the later copy replacing the first). Issue 31's three rounds are the edits' timings above; the autosave copy's
 * [perf] line is a median of these two (the third round, a 66.6 MB drag, copy and upload, checked nothing the
 * second does not; the test alone took 82 s with it, 48 s without, at load 19).
 */
const AUTOSAVE_ROUNDS = 2;

interface Sample {
  /** Longest gap between two animation frames (ms). */
  maxGap: number;
  /** Long tasks: how many, the longest and their sum (ms). */
  tasks: number;
  longest: number;
  sum: number;
  /** Input to the edit's visible end (ms, page clock). */
  total: number;
  /** Animation frames drawn meanwhile (frames per second = frames / total). */
  frames: number;
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The generated motion: 100 bones × 6,000 keys at frames 0, 3, 6, …, all with one interpolation block. */
function generate(): { bytes: Uint8Array; ip: Uint8Array } {
  const names = ['センター', '上半身', '下半身', '首', '頭', '左腕', '右腕', '左ひじ', '右ひじ', '左足', '右足', '左ひざ', '右ひざ'];
  for (let i = names.length; i < BONES; i++) names.push(`ボーン${String(i).padStart(3, '0')}`);
  const ip = buildBoneInterpolation([[20, 20, 107, 107], [20, 20, 107, 107], [64, 0, 64, 127], [90, 10, 30, 117]]);
  const recs = new Uint8Array(KEYS * BONE.SIZE);
  const v = new DataView(recs.buffer);
  let o = 0;
  // Frame-major order, as dances are stored (every bone at frame 0, then at 3, …).
  for (let i = 0; i < PER_BONE; i++) {
    for (let b = 0; b < BONES; b++, o += BONE.SIZE) {
      if (i === 0) recs.set(encodeBoneRecord({ name: nameField(names[b], 15, 'bone'), frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1], interpolation: ip }), o);
      else recs.copyWithin(o, b * BONE.SIZE, (b + 1) * BONE.SIZE);
      const a = (i * 0.1 + b) % (2 * Math.PI);
      v.setUint32(o + BONE.FRAME, i * STEP, true);
      v.setFloat32(o + BONE.POSITION, Math.sin(a), true);
      v.setFloat32(o + BONE.ROTATION + 4, Math.sin(a / 2), true);
      v.setFloat32(o + BONE.ROTATION + 12, Math.cos(a / 2), true);
    }
  }
  return { bytes: writeVmd({ ...emptyVmd('synthetic'), bone: fixedBlock('bone', recs) }), ip };
}

/** Where the bone block's records start in a file written by writeVmd (header 30, model name 20, count 4). */
const BONE_RECORDS_AT = 54;

/** Shift_JIS lead bytes: a two-byte character starts with one (FORMAT.md). */
const sjisLead = (b: number) => (b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xfc);

/**
 * The generated file mirrored by hand (FORMAT.md, the mirror tests): in every bone record, 左 (8D B6) and
 * 右 (89 45) swapped in the name, walked character by character up to the NUL, and the sign bits of position
 * X and rotation Y and Z flipped where the value is not an exact zero. Written here from the raw records, not through the app's mirror code.
 */
function mirroredByHand(original: Uint8Array): Uint8Array {
  const out = original.slice();
  for (let i = 0, o = BONE_RECORDS_AT; i < KEYS; i++, o += BONE.SIZE) {
    for (let j = o; j < o + 15 && out[j] !== 0; ) {
      if (sjisLead(out[j]) && j + 1 < o + 15) {
        if (out[j] === 0x8d && out[j + 1] === 0xb6) (out[j] = 0x89), (out[j + 1] = 0x45);
        else if (out[j] === 0x89 && out[j + 1] === 0x45) (out[j] = 0x8d), (out[j + 1] = 0xb6);
        j += 2;
      } else j++;
    }
    // An exact zero (+0 or −0) is its own mirror and keeps its bytes.
    const v = new DataView(out.buffer, out.byteOffset);
    for (const at of [BONE.POSITION, BONE.ROTATION + 4, BONE.ROTATION + 8]) if (v.getFloat32(o + at, true) !== 0) out[o + at + 3] ^= 0x80;
  }
  return out;
}

/**
 * The generated file with channel `ch`'s (x1, y1) set in every record's interpolation block, by FORMAT.md's
 * layout: the 16-byte row is written four times, each copy shifted one byte left, so true-row byte k sits
 * at 16r + k − r of copy r (for r ≤ k); x1 of channel ch is byte ch, y1 byte ch + 4.
 */
function curvedByHand(original: Uint8Array, ch: number, x1: number, y1: number): Uint8Array {
  const out = original.slice();
  const put = (ip: number, k: number, v: number) => {
    for (let r = 0; r <= Math.min(3, k); r++) out[ip + 16 * r + k - r] = v;
  };
  for (let i = 0, ip = BONE_RECORDS_AT + BONE.INTERPOLATION; i < KEYS; i++, ip += BONE.SIZE) {
    // Channels X and Y only: x1 of Z and rotation have their true copy at 17/18 (bytes 2/3 are the physics pair).
    put(ip, ch, x1);
    put(ip, ch + 4, y1);
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Installs the frame-gap and long-task probe in the page. */
async function installProbe(page: Page) {
  await page.evaluate(() => {
    const p = { running: false, last: 0, maxGap: 0, frames: 0, tasks: [] as number[], t0: 0, obs: null as PerformanceObserver | null };
    p.obs = new PerformanceObserver((l) => {
      if (p.running) for (const e of l.getEntries()) p.tasks.push(e.duration);
    });
    p.obs.observe({ type: 'longtask' });
    const tick = () => {
      if (!p.running) return;
      const now = performance.now();
      p.maxGap = Math.max(p.maxGap, now - p.last);
      p.last = now;
      p.frames++;
      requestAnimationFrame(tick);
    };
    (window as unknown as { __probe: unknown }).__probe = {
      start() {
        p.running = true;
        p.maxGap = 0;
        p.frames = 0;
        p.tasks = [];
        p.last = p.t0 = performance.now();
        requestAnimationFrame(tick);
      },
      stop(end: number) {
        for (const e of p.obs!.takeRecords()) p.tasks.push(e.duration);
        p.running = false;
        return { maxGap: p.maxGap, tasks: p.tasks.length, longest: Math.max(0, ...p.tasks), sum: p.tasks.reduce((a, b) => a + b, 0), total: end - p.t0, frames: p.frames };
      },
    };
  });
}

type Probe = { start(): void; stop(end: number): Sample };

/** What ends an edit: the selection count or the undo depth reaching a value. */
type Done = { selected: number } | { undo: number };

/** Waits (polled each frame) until `done` holds; resolves to the page time it was seen. */
async function until(page: Page, done: Done): Promise<number> {
  const h = await page.waitForFunction(
    (d) => ('selected' in d ? window.__vmdEditor!.selectedCount() === d.selected : window.__vmdEditor!.history().undo === d.undo) && performance.now(),
    done,
    { polling: 'raf', timeout: 170_000 },
  );
  return (await h.jsonValue()) as number;
}

/** Runs `act`, waits for `done`, measures. */
async function measure(page: Page, act: () => Promise<void>, done: Done): Promise<Sample> {
  await page.evaluate(() => (window as unknown as { __probe: Probe }).__probe.start());
  await act();
  const end = await until(page, done);
  await animationFrames(page, 3);
  return page.evaluate((e) => (window as unknown as { __probe: Probe }).__probe.stop(e), end);
}

const digest = (page: Page) => page.evaluate(() => window.__vmdEditor!.digest());
const undoDepth = (page: Page) => page.evaluate(() => window.__vmdEditor!.history().undo);

async function heapMb(cdp: CDPSession): Promise<number> {
  const h = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number };
  return (h.usedSize + (h.backingStorageSize ?? 0)) / 1e6;
}

const fmt = (s: Sample) => `gap ${s.maxGap.toFixed(0)} ms, ${s.tasks} long tasks (longest ${s.longest.toFixed(0)}, sum ${s.sum.toFixed(0)}), total ${s.total.toFixed(0)} ms`;

const fps = (s: Sample) => (s.total > 0 ? (1000 * s.frames) / s.total : 0);

/**
 * After an edit that took the history from `depth` to `depth + 1`: Ctrl+Z (timed into `undos`) gives the
 * original bytes back, Ctrl+Y (timed into `redos`) the edited ones, and a last Ctrl+Z the original again, so
 * the next round starts where this one did.
 */
async function undoRedoUndo(page: Page, depth: number, sha: { origSha: string; editedSha: string }, undos: Sample[], redos: Sample[]): Promise<void> {
  undos.push(await measure(page, () => page.keyboard.press('Control+z'), { undo: depth }));
  expect(await digest(page)).toBe(sha.origSha);
  redos.push(await measure(page, () => page.keyboard.press('Control+y'), { undo: depth + 1 }));
  expect(await digest(page)).toBe(sha.editedSha);
  await page.keyboard.press('Control+z');
  await until(page, { undo: depth });
  expect(await digest(page)).toBe(sha.origSha);
}

/**
 * Where the tests click a key: the first whole STEP frame 40 px into the timeline's view (every track has a key
 * there), and the view's pixels per frame (a drag of SHIFT frames).
 */
async function keyInView(page: Page): Promise<{ frame: number; ppf: number }> {
  const view = await page.evaluate(() => {
    const cv = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement;
    return { fs: Number(cv.dataset.frameStart), ppf: Number(cv.dataset.pxPerFrame) };
  });
  return { frame: Math.ceil((view.fs + 40 / view.ppf) / STEP) * STEP, ppf: view.ppf };
}

function report(label: string, xs: Sample[]) {
  console.log(
    `[perf] 600k ${label}: median longest frame gap ${median(xs.map((s) => s.maxGap)).toFixed(0)} ms, longest long task ${median(xs.map((s) => s.longest)).toFixed(0)} ms, ` +
      `total ${median(xs.map((s) => s.total)).toFixed(0)} ms (${xs.length} run${xs.length > 1 ? 's' : ''}: ${xs.map(fmt).join('; ')})`,
  );
}

/** The [perf] rows of undoRedoUndo's timings: "undo of <edit>" and "redo of <edit>". */
function reportUndoRedo(edit: string, undos: Sample[], redos: Sample[]) {
  report(`undo of ${edit}`, undos);
  report(`redo of ${edit}`, redos);
}

describe('whole-motion edits at 600,000 keys (issue 31)', () => {
  let app: AppHandle;
  let tmp: ReturnType<typeof tempDir>;
  let file: string;
  let original: Uint8Array;
  let ip: Uint8Array;
  let track: number;
  let settingsDir: string;

  beforeAll(async () => {
    tmp = tempDir('vmd-big-edit-');
    // Autosave Off for the edits' timings (a copy made while one is measured would be counted in it); the last
    // test turns it on through the ? menu and times the copy itself.
    settingsDir = path.join(tmp.dir, 'settings');
    mkdirSync(settingsDir);
    writeFileSync(path.join(settingsDir, 'settings.json'), JSON.stringify({ ui: { autosaveSeconds: 0 } }));
    ({ bytes: original, ip } = generate());
    file = path.join(tmp.dir, 'synthetic-600k.vmd');
    writeFileSync(file, original);
    const r = readVmd(original);
    if (!r.ok) throw new Error(r.error.message);
    track = groupBones(buildTracks(r.value).bones.names)[0].tracks[0];
    app = await openApp({ viewport: { width: 1600, height: 960 }, settingsDir });
  }, 170_000);

  afterAll(async () => {
    await app?.close();
    tmp?.remove();
  });

  it('selects, drags, undoes, redoes and deletes every key, with the exact bytes after each', async () => {
    const { page } = app;
    await openFileViaDialog(page, file);
    await page.waitForFunction((n) => document.querySelector('[data-testid="count-bone"]')?.getAttribute('data-count') === String(n), KEYS, { timeout: 120_000 });
    await installProbe(page);
    const cdp = await page.context().newCDPSession(page);
    const opened = await heapMb(cdp);

    // The expected files, built here from the generated bytes (not by the app's edit code).
    const origSha = sha(original);
    const moved = original.slice();
    const mv = new DataView(moved.buffer);
    for (let i = 0, o = BONE_RECORDS_AT + BONE.FRAME; i < KEYS; i++, o += BONE.SIZE) mv.setUint32(o, mv.getUint32(o, true) + SHIFT, true);
    const movedSha = sha(moved);
    const end = BONE_RECORDS_AT + KEYS * BONE.SIZE;
    const deleted = new Uint8Array(original.length - KEYS * BONE.SIZE);
    deleted.set(original.subarray(0, BONE_RECORDS_AT - 4));
    deleted.set(original.subarray(end), BONE_RECORDS_AT); // count 0 (the zeros left at 50..53), then the other blocks
    const deletedSha = sha(deleted);
    expect(await digest(page)).toBe(origSha);

    const rows: Record<string, Sample[]> = { selectAll: [], drag: [], undoDrag: [], redoDrag: [], deleteAll: [], undoDelete: [] };
    const heaps: number[] = [];
    const selected: Done = { selected: KEYS };
    for (let round = 0; round < ROUNDS; round++) {
      // A click on one key of the first track selects it alone; then Ctrl+A.
      const { frame, ppf } = await keyInView(page);
      const p = await keyPoint(page, `track-bone:${track}`, frame);
      await page.mouse.click(p.x, p.y);
      await until(page, { selected: 1 });
      rows.selectAll.push(await measure(page, () => page.keyboard.press('Control+a'), selected));

      // Drag every key 5 frames: press that key, move in 10 steps, release.
      const depth = await undoDepth(page);
      rows.drag.push(
        await measure(
          page,
          async () => {
            await page.mouse.move(p.x, p.y);
            const v0 = await page.evaluate(() => window.__vmdEditor!.version());
            await page.mouse.down();
            for (let s = 1; s <= 10; s++) await page.mouse.move(p.x + (SHIFT * ppf * s) / 10, p.y);
            // The drag only drew the selection offset: the document was not touched before the release.
            expect(await page.evaluate(() => window.__vmdEditor!.version())).toBe(v0);
            await page.mouse.up();
          },
          { undo: depth + 1 },
        ),
      );
      expect(await digest(page)).toBe(movedSha);

      await undoRedoUndo(page, depth, { origSha, editedSha: movedSha }, rows.undoDrag, rows.redoDrag);

      // Delete every key (Ctrl+A first: the undo re-selected the moved keys, which is all of them anyway).
      await page.keyboard.press('Control+a');
      await until(page, selected);
      rows.deleteAll.push(await measure(page, () => page.keyboard.press('Delete'), { undo: depth + 1 }));
      expect(await digest(page)).toBe(deletedSha);
      rows.undoDelete.push(await measure(page, () => page.keyboard.press('Control+z'), { undo: depth }));
      expect(await digest(page)).toBe(origSha);
      heaps.push(await heapMb(cdp));
    }
    await app.screenshot('big-edit-600k');

    report('Ctrl+A (select all)', rows.selectAll);
    report('drag all keys 5 frames + release', rows.drag);
    reportUndoRedo('the drag', rows.undoDrag, rows.redoDrag);
    report('Delete all', rows.deleteAll);
    report('undo of Delete all', rows.undoDelete);
    console.log(`[perf] 600k page heap (JS + array buffers, CDP): ${opened.toFixed(0)} MB after opening; after each round ${heaps.map((h) => h.toFixed(0)).join(', ')} MB (file ${(original.length / 1e6).toFixed(1)} MB)`);
    expect(app.errors).toEqual([]);
  });

  it('applies a curve preset to every key and undoes it, with the exact bytes', async () => {
    const { page } = app;
    // The expected bytes: the preset on channel 0 (X) of one record, by the shared edit on a one-key
    // motion, written into every record of the generated file (they all share one interpolation block).
    const one = readVmd(writeVmd({ ...emptyVmd('one'), bone: fixedBlock('bone', original.slice(BONE_RECORDS_AT, BONE_RECORDS_AT + BONE.SIZE)) }));
    if (!one.ok) throw new Error(one.error.message);
    const preset = presetById('ease-in')!;
    const edited = setCurves(one.value, [{ kind: 'bone', record: 0 }], { 0: preset.curve });
    if (!edited.ok) throw new Error('preset refused');
    const newIp = edited.value.doc.bone.bytes.subarray(BONE.INTERPOLATION, BONE.INTERPOLATION + BONE.INTERPOLATION_LENGTH);
    expect(Buffer.compare(Buffer.from(newIp), Buffer.from(ip))).not.toBe(0);
    const curved = original.slice();
    for (let i = 0, o = BONE_RECORDS_AT + BONE.INTERPOLATION; i < KEYS; i++, o += BONE.SIZE) curved.set(newIp, o);

    await page.keyboard.press('Control+a');
    await until(page, { selected: KEYS });
    const depth = await undoDepth(page);
    const apply = await measure(page, () => page.click(`[data-testid="preset-${preset.id}"]`), { undo: depth + 1 });
    expect(await digest(page)).toBe(sha(curved));
    const undo = await measure(page, () => page.keyboard.press('Control+z'), { undo: depth });
    expect(await digest(page)).toBe(sha(original));
    report('a curve preset on all (1 run)', [apply]);
    report('undo of the curve preset (1 run)', [undo]);
    expect(app.errors).toEqual([]);
  });

  it('mirrors the whole motion (Whole Motion dialog), undoes and redoes it, with the exact bytes after each', async () => {
    const { page } = app;
    const origSha = sha(original);
    const mirroredSha = sha(mirroredByHand(original));
    expect(mirroredSha).not.toBe(origSha);
    expect(await digest(page)).toBe(origSha);
    const rows: Record<string, Sample[]> = { mirror: [], undo: [], redo: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const depth = await undoDepth(page);
      await page.click('[data-testid="whole-motion"]');
      expect(await page.isChecked('[data-testid="batch-target-document"]')).toBe(true);
      await page.selectOption('[data-testid="batch-op"]', 'mirror');
      rows.mirror.push(await measure(page, () => page.click('[data-testid="batch-apply"]'), { undo: depth + 1 }));
      expect(await digest(page)).toBe(mirroredSha);
      await page.waitForSelector('[data-testid="batch-apply"]', { state: 'detached' });
      await undoRedoUndo(page, depth, { origSha, editedSha: mirroredSha }, rows.undo, rows.redo);
    }
    report('Mirror the whole motion', rows.mirror);
    reportUndoRedo('Mirror', rows.undo, rows.redo);
    expect(app.errors).toEqual([]);
  });

  it('drags a curve handle with every key selected: only the curve is drawn while dragging, the release writes every key once', async () => {
    const { page } = app;
    const origSha = sha(original);
    const { frame } = await keyInView(page);
    const rows: Record<string, Sample[]> = { dragging: [], release: [], undo: [], redo: [] };
    let expectedSha = '';
    for (let round = 0; round < ROUNDS; round++) {
      const key = await keyPoint(page, `track-bone:${track}`, frame);
      await page.mouse.click(key.x, key.y);
      await until(page, { selected: 1 });
      await page.keyboard.press('Control+a');
      await until(page, { selected: KEYS });
      await page.click('[data-testid="curve-channel-x"]');
      // Handle 1 of channel X is at (20, 20) on every key; drag it to (60, 10) in ten moves (another
      // target each round, so each release writes new bytes).
      const to: [number, number] = [60 + 5 * round, 10 + round];
      const from = await curvePoint(page, 20, 20);
      const end = await curvePoint(page, to[0], to[1]);
      // Where the pointer ends, on the square's 0..127 grid (rounded, as the file stores it).
      const sq = await page.evaluate(() => {
        const cv = document.querySelector('[data-testid="curve-canvas"]') as HTMLCanvasElement;
        const r = cv.getBoundingClientRect();
        return { left: r.left, top: r.top, ox: Number(cv.dataset.ox), oy: Number(cv.dataset.oy), size: Number(cv.dataset.size) };
      });
      const grid = (v: number) => Math.max(0, Math.min(127, Math.round(v)));
      const x1 = grid(((end.x - sq.left - sq.ox) / sq.size) * 127), y1 = grid(((sq.top + sq.oy - end.y) / sq.size) * 127);
      expect([x1, y1]).toEqual(to);
      expectedSha = sha(curvedByHand(original, 0, x1, y1));
      const depth = await undoDepth(page);
      await page.mouse.move(from.x, from.y);
      const v0 = await page.evaluate(() => window.__vmdEditor!.version());
      await page.mouse.down();
      await page.evaluate(() => (window as unknown as { __probe: Probe }).__probe.start());
      for (let s = 1; s <= 10; s++) await page.mouse.move(from.x + ((end.x - from.x) * s) / 10, from.y + ((end.y - from.y) * s) / 10);
      await animationFrames(page, 3);
      rows.dragging.push(await page.evaluate(() => (window as unknown as { __probe: Probe }).__probe.stop(performance.now())));
      // While dragging, the document was not touched; the pane shows the dragged handle.
      expect(await page.evaluate(() => window.__vmdEditor!.version())).toBe(v0);
      expect((await curveFields(page)).slice(0, 2)).toEqual([x1, y1]);
      rows.release.push(await measure(page, () => page.mouse.up(), { undo: depth + 1 }));
      expect(await digest(page)).toBe(expectedSha);
      await undoRedoUndo(page, depth, { origSha, editedSha: expectedSha }, rows.undo, rows.redo);
    }
    await app.screenshot('big-edit-600k-curve-drag');
    report('curve-handle drag, every key selected (while dragging)', rows.dragging);
    console.log(`[perf] 600k curve-handle drag: median ${median(rows.dragging.map(fps)).toFixed(1)} fps while dragging (${rows.dragging.map((s) => fps(s).toFixed(1)).join(', ')})`);
    report('curve-handle drag release (commit)', rows.release);
    reportUndoRedo('the curve-handle drag', rows.undo, rows.redo);
    expect(app.errors).toEqual([]);
  });

  it('shows a whole-motion move in progress, cancels it with Escape (nothing committed), and commits it when let run', async () => {
    const { page } = app;
    await page.goto(`${app.url}&editSliceMs=0&editSliceGapMs=40`);
    await page.waitForSelector('[data-ready="true"]', { timeout: 30_000 });
    await openFileViaDialog(page, file);
    await page.waitForFunction((n) => document.querySelector('[data-testid="count-bone"]')?.getAttribute('data-count') === String(n), KEYS, { timeout: 120_000 });
    const origSha = sha(original);
    const { frame, ppf } = await keyInView(page);
    const p = await keyPoint(page, `track-bone:${track}`, frame);
    await page.mouse.click(p.x, p.y);
    await page.keyboard.press('Control+a');
    await until(page, { selected: KEYS });
    const depth = await undoDepth(page);
    const drag = async () => {
      await page.mouse.move(p.x, p.y);
      await page.mouse.down();
      for (let s = 1; s <= 5; s++) await page.mouse.move(p.x + (SHIFT * ppf * s) / 5, p.y);
      await page.mouse.up();
    };
    await drag();
    await page.waitForSelector('[data-testid="edit-progress"]', { timeout: 60_000 });
    await app.screenshot('big-edit-600k-progress');
    expect(await page.textContent('[data-testid="edit-progress-text"]')).toMatch(/^Move keys: \d+%$/i);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="edit-progress"]', { state: 'detached', timeout: 60_000 });
    await page.waitForTimeout(500);
    expect(await undoDepth(page)).toBe(depth);
    expect(await digest(page)).toBe(origSha);
    // Let run, the same drag commits once, complete.
    await drag();
    await until(page, { undo: depth + 1 });
    const moved = original.slice();
    const mv = new DataView(moved.buffer);
    for (let i = 0, o = BONE_RECORDS_AT + BONE.FRAME; i < KEYS; i++, o += BONE.SIZE) mv.setUint32(o, mv.getUint32(o, true) + SHIFT, true);
    expect(await digest(page)).toBe(sha(moved));

    // Mirror the whole motion: its progress shows, Escape cancels it (nothing committed, the dialog stays
    // open), and Apply again, let run, commits one step.
    const before = await undoDepth(page);
    await page.click('[data-testid="whole-motion"]');
    await page.selectOption('[data-testid="batch-op"]', 'mirror');
    await page.click('[data-testid="batch-apply"]');
    await page.waitForSelector('[data-testid="edit-progress"]', { timeout: 60_000 });
    await app.screenshot('big-edit-600k-mirror-progress');
    expect(await page.textContent('[data-testid="edit-progress-text"]')).toMatch(/^Mirror left\/right: \d+%$/);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="edit-progress"]', { state: 'detached', timeout: 60_000 });
    await page.waitForTimeout(500);
    expect(await undoDepth(page)).toBe(before);
    expect(await digest(page)).toBe(sha(moved));
    await page.waitForSelector('[data-testid="batch-apply"]:not([disabled])');
    await page.click('[data-testid="batch-apply"]');
    await until(page, { undo: before + 1 });
    expect(await digest(page)).toBe(sha(mirroredByHand(moved)));
    expect(app.errors).toEqual([]);
  });

  it('autosave keeps a copy of the whole motion after each edit: the exact bytes, and the long tasks while it is made', async () => {
    const { page } = app;
    // A fresh page with the file (the test runs alone with -t too).
    await page.goto(app.url);
    await page.waitForSelector('[data-ready="true"]', { timeout: 30_000 });
    await openFileViaDialog(page, file);
    await page.waitForFunction((n) => document.querySelector('[data-testid="count-bone"]')?.getAttribute('data-count') === String(n), KEYS, { timeout: 120_000 });
    await installProbe(page);
    // Autosave on, as a person turns it on: ? → Autosave: Every 30 s (the first copy once the page is idle 3 s).
    await page.click('[data-testid="cmd-help"]');
    await page.selectOption('[data-testid="autosave-interval"]', '30');
    await page.keyboard.press('Escape');

    const recovery = path.join(settingsDir, 'recovery');
    /** The copy's description main wrote (recovery-service.ts: <session>/<doc>.json, with its bytes' SHA-256). */
    const copyMeta = (): { dir: string; meta: { sha256: string; file: string; keys: number } } | null => {
      for (const s of existsSync(recovery) ? readdirSync(recovery) : []) {
        for (const n of readdirSync(path.join(recovery, s))) if (n !== 'session.json' && n.endsWith('.json')) return { dir: path.join(recovery, s), meta: JSON.parse(readFileSync(path.join(recovery, s, n), 'utf8')) };
      }
      return null;
    };
    const rows: Sample[] = [];
    const { frame, ppf } = await keyInView(page);
    for (let round = 0; round < AUTOSAVE_ROUNDS; round++) {
      // Every key 5 frames later again (the keys are at frame + 5 × round now): the file built here by hand.
      const p = await keyPoint(page, `track-bone:${track}`, frame + SHIFT * round);
      await page.mouse.click(p.x, p.y);
      await until(page, { selected: 1 });
      await page.keyboard.press('Control+a');
      await until(page, { selected: KEYS });
      const depth = await undoDepth(page);
      await page.mouse.move(p.x, p.y);
      await page.mouse.down();
      for (let s = 1; s <= 10; s++) await page.mouse.move(p.x + (SHIFT * ppf * s) / 10, p.y);
      await page.mouse.up();
      await until(page, { undo: depth + 1 });
      const moved = original.slice();
      const mv = new DataView(moved.buffer);
      for (let i = 0, o = BONE_RECORDS_AT + BONE.FRAME; i < KEYS; i++, o += BONE.SIZE) mv.setUint32(o, mv.getUint32(o, true) + SHIFT * (round + 1), true);
      const want = sha(moved);
      expect(await digest(page)).toBe(want);
      await animationFrames(page, 3);
      // From the edit's end (the page idle) until main has the copy: the idle wait, the copy's bytes, the upload.
      await page.evaluate(() => (window as unknown as { __probe: Probe }).__probe.start());
      await expect.poll(() => copyMeta()?.meta.sha256, { timeout: 170_000, interval: 250 }).toBe(want);
      const end = await page.evaluate(() => performance.now());
      rows.push(await page.evaluate((e) => (window as unknown as { __probe: Probe }).__probe.stop(e), end));
      const kept = copyMeta()!;
      expect(kept.meta.keys).toBe(KEYS);
      expect(sha(new Uint8Array(readFileSync(path.join(kept.dir, kept.meta.file))))).toBe(want);
    }
    report('autosave copy of the whole motion (3 s idle, then the copy made and sent)', rows);
    expect(app.errors).toEqual([]);
  });
});
