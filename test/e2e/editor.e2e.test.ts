/**
 * The motion editor end to end in Chromium through the browser mode: open a corpus dance, select a
 * bone key on the timeline, drag the rotation curve's first handle with the mouse to a known grid
 * point, check the numbers shown, undo and redo, Save As, and check with the codec that exactly that
 * key's 64 interpolation bytes changed (four consistent rows, bytes 2–3 in step with the curve) and nothing else.
 * Also measures open-to-interactive time and frame times (requestAnimationFrame timestamps collected
 * in the page) during a handle drag and during timeline scroll/zoom on a generated 36 MB motion.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTracks, getBoneCurves, hasCopies, nameField, readVmd, writeVmd, blockFromRecords, emptyVmd, encodeBoneRecord, buildBoneInterpolation, type Curve } from '../../shared/vmd';
import { angleBetween, groupBones } from '../../shared/key-edits';
import { appForSuite, corpusPath, fileDialogReady, saveAsViaDialog } from './harness';
import { curveFields, curvePoint, keyPoint } from './editor-page';

/** Opens a file via toolbar → in-app dialog; returns ms from clicking Go to the first drawn frame with tracks. */
async function openTimed(page: Page, file: string, firstTrack: string): Promise<number> {
  await page.click('[data-testid="cmd-open"]');
  await fileDialogReady(page);
  await page.fill('[data-testid="file-dialog-path"]', file);
  const t0 = Date.now();
  await page.click('[data-testid="file-dialog-go"]');
  await page.waitForFunction(
    ({ name, track }) => {
      // Opened over an open motion, the app asks whether it goes into the scene: "open it on its own".
      document.querySelector<HTMLElement>('[data-testid="confirm-discard"]')?.click();
      return document.querySelector('[data-testid="summary-name"]')?.textContent?.includes(name) && !!document.querySelector(`[data-testid="${track}"]`);
    },
    { name: path.basename(file), track: firstTrack },
    { timeout: 30_000, polling: 'raf' },
  );
  // Two animation frames: the timeline canvas has drawn the document.
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
  return Date.now() - t0;
}

/**
 * Opens bytes the way a dropped file opens (App's drop handler → document store), timing inside the
 * page from the drop event to the second animation frame with the document's tracks shown. This
 * leaves out the browser-mode transport (bytes as base64 in JSON), which the dialog path includes.
 */
async function openByDrop(page: Page, name: string, bytes: Uint8Array, firstTrack: string): Promise<number> {
  const b64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return page.evaluate(
    async ({ name, b64, firstTrack }) => {
      const s = atob(b64);
      const u = new Uint8Array(s.length);
      for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
      const dt = new DataTransfer();
      dt.items.add(new File([u], name));
      const t0 = performance.now();
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      for (;;) {
        await new Promise<void>((r) => requestAnimationFrame(() => r()));
        // Dropped over an open motion, the app asks whether it goes into the scene: "open it on its own".
        document.querySelector<HTMLElement>('[data-testid="confirm-discard"]')?.click();
        const shown = document.querySelector('[data-testid="summary-name"]')?.textContent?.includes(name);
        if (shown && document.querySelector(`[data-testid="${firstTrack}"]`)) break;
        if (performance.now() - t0 > 60_000) throw new Error('drop did not open');
      }
      await new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
      return performance.now() - t0;
    },
    { name, b64, firstTrack },
  );
}

/** Starts collecting requestAnimationFrame timestamps in the page. */
async function startFrames(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __rec: boolean };
    w.__frames = [];
    w.__rec = true;
    const tick = (t: number) => {
      w.__frames.push(t);
      if (w.__rec) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Stops collecting; returns frame intervals (ms). */
async function stopFrames(page: Page): Promise<number[]> {
  const f = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __rec: boolean };
    w.__rec = false;
    return w.__frames;
  });
  const d: number[] = [];
  for (let i = 1; i < f.length; i++) d.push(f[i] - f[i - 1]);
  return d;
}

function frameStats(d: number[]) {
  const s = [...d].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  return {
    frames: d.length,
    median: +q(0.5).toFixed(1),
    p95: +q(0.95).toFixed(1),
    max: +(s[s.length - 1] ?? 0).toFixed(1),
    // An interval over 1.5 refresh periods means at least one 60 Hz frame was dropped.
    dropped: d.filter((x) => x > 25).length,
    /** Which intervals were long (index into the recording), to tell a start-up hitch from a steady cost. */
    droppedAt: d.flatMap((x, i) => (x > 25 ? [`#${i}:${x.toFixed(0)}ms`] : [])).join(' '),
  };
}

describe('motion editor in the browser mode', () => {
  const suite = appForSuite({ locale: 'ja-JP', viewport: { width: 1600, height: 960 } });

  beforeAll(() => {
    suite.app.page.on('response', (r) => {
      if (r.status() >= 400) console.log(`[http] ${r.status()} ${r.url()}`);
    });
  });

  it('drags a rotation curve handle on wavefile_v2, undoes, redoes and saves exactly that key', async () => {
    const src = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
    const original = new Uint8Array(readFileSync(src));
    const parsed = readVmd(original);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const doc = parsed.value;
    const tracks = buildTracks(doc);
    const b = tracks.bones;
    // The first bone of the 上半身 group, and a key of it a few frames after the previous one that
    // turns the bone by more than 5° (so the live plot shows a real angle).
    const track = groupBones(b.names).find((g) => g.id === 'upper')!.tracks[0];
    let k = b.start[track] + 3;
    while (b.frames[k] - b.frames[k - 1] < 4 || angleBetween(b.rotation, k - 1, k) < 5) k++;
    const record = b.record[k];
    const frame = b.frames[k];
    const before = getBoneCurves(doc.bone.bytes, record * 111 + 47);
    const trackId = `track-bone:${track}`;

    const { page } = suite.app;
    const openMs = await openTimed(page, src, trackId);
    const dropMs = await openByDrop(page, 'dropped-wavefile_v2.vmd', original, trackId);
    console.log(`[perf] wavefile_v2.vmd (${(original.length / 1e6).toFixed(1)} MB, ${doc.bone.count} bone keys): open to interactive ${dropMs.toFixed(0)} ms from the bytes in the page (drop), ${openMs} ms through the in-app dialog and the HTTP transport`);
    // Reported (target 1 s), not asserted: issue 30.

    // Seek there (the timeline scrolls to show it), then click the key.
    await page.fill('[data-testid="frame-input"]', String(frame));
    await page.press('[data-testid="frame-input"]', 'Enter');
    await page.click('[data-testid="timeline-canvas"]', { position: { x: 2, y: 2 } }); // ruler click: blur the field
    await page.fill('[data-testid="frame-input"]', String(frame));
    await page.press('[data-testid="frame-input"]', 'Enter');
    const kp = await keyPoint(page, trackId, frame);
    await page.mouse.click(kp.x, kp.y);
    await page.waitForFunction((f) => (document.querySelector('[data-testid="inspector-frame"]') as HTMLInputElement | null)?.value === String(f), frame);
    expect((await page.textContent('[data-testid="inspector-name"]'))?.trim()).toBe(b.names[track]);

    await page.click('[data-testid="curve-channel-r"]');
    expect(await curveFields(page)).toEqual([...before[3]]);

    // Drag handle 1 (x1, y1) to the grid point (100, 30), recording frame times in the page.
    const target: [number, number] = [100, 30];
    const h1 = await curvePoint(page, before[3][0], before[3][1]);
    const to = await curvePoint(page, target[0], target[1]);
    const boneName = b.names[track];
    const poseAtKey = await page.evaluate((n) => window.__vmdPreview!.boneWorldQuaternion(n), boneName);
    await page.evaluate(() => window.__vmdPreview!.resetPerf());
    await startFrames(page);
    await page.mouse.move(h1.x, h1.y);
    await page.mouse.down();
    const steps = 45;
    for (let i = 1; i <= steps; i++) {
      await page.mouse.move(h1.x + ((to.x - h1.x) * i) / steps, h1.y + ((to.y - h1.y) * i) / steps);
      await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
    }
    const dragStats = frameStats(await stopFrames(page));
    // The cursor sits on the key: its curve shapes only the frames before it, so the figure does not move
    // and the preview draws nothing during the drag (on software GL each draw costs CPU time the page
    // needs). Checked by count, not by time.
    const rendersAtKey = await page.evaluate(() => window.__vmdPreview!.breakdown().renders);
    expect(rendersAtKey).toBe(0);
    expect(await page.evaluate((n) => window.__vmdPreview!.boneWorldQuaternion(n), boneName)).toEqual(poseAtKey);
    // Release commits the edit (one undo step): the document store rebuilds tracks and summary.
    const releaseMs = await page.evaluate(() => performance.now());
    await page.mouse.up();
    const releaseEnd = await page.evaluate(() => new Promise<number>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now())))));
    console.log(`[perf] curve handle drag on wavefile_v2, cursor on the key (${steps} moves, preview renders ${rendersAtKey}), frames while dragging: ${JSON.stringify(dragStats)}; release → committed and redrawn: ${(releaseEnd - releaseMs).toFixed(0)} ms`);
    // The 60 Hz goal is reported, not asserted: without a GPU the page is composited and the preview
    // rasterised in software, on a shared 2-core machine, where a frame is sometimes late with the page's
    // main thread idle (see README, known limits). What is asserted is that frames came during the drag.
    expect(dragStats.frames).toBeGreaterThan(0);

    const dragged: Curve = [target[0], target[1], before[3][2], before[3][3]];
    expect(await curveFields(page)).toEqual([...dragged]);
    const plot = await page.textContent('[data-testid="curve-plot-end"]');
    expect(plot).toMatch(/→/);
    await suite.app.screenshot('editor-wavefile-ja');

    await page.click('[data-testid="cmd-undo"]');
    expect(await curveFields(page)).toEqual([...before[3]]);
    await page.click('[data-testid="cmd-redo"]');
    expect(await curveFields(page)).toEqual([...dragged]);

    const out = path.join(suite.tmp.dir, 'edited.vmd');
    await saveAsViaDialog(page, out);
    // The dialog closes before the save request returns: wait for the status bar to show the new path.
    await page.waitForFunction((p) => document.querySelector('[data-testid="status-bar"] .path')?.getAttribute('title') === p, out);
    const saved = new Uint8Array(readFileSync(out));
    expect(saved.length).toBe(original.length);
    const lo = 54 + record * 111 + 47;
    const changed: number[] = [];
    for (let i = 0; i < saved.length; i++) if (saved[i] !== original[i]) changed.push(i);
    expect(changed.length).toBeGreaterThan(0);
    for (const i of changed) expect(i >= lo && i < lo + 64).toBe(true);
    const ip = saved.subarray(lo, lo + 64);
    expect(hasCopies(ip)).toBe(true);
    // Four consistent rows: rows 1–3 are row 0 (with the true x1 of Z and rotation) shifted by 1, 2, 3.
    const row = Array.from(ip.subarray(0, 16));
    row[2] = ip[17];
    row[3] = ip[18];
    for (let r = 1; r <= 3; r++) for (let j = 0; j < 16 - r; j++) expect(ip[16 * r + j]).toBe(row[j + r]);
    // Bytes 2–3: MMD wrote this file, so they repeat x1 of Z and rotation (physics on); Z's stays, the
    // rotation's follows the dragged curve (players that read row 0 see it too).
    expect([original[lo + 2], original[lo + 3]]).toEqual([original[lo + 17], original[lo + 18]]);
    expect([ip[2], ip[3]]).toEqual([original[lo + 2], ip[18]]);
    const curves = getBoneCurves(ip);
    expect(curves.slice(0, 3)).toEqual(before.slice(0, 3));
    expect(curves[3]).toEqual(dragged);

    // Now with the cursor inside the segment the curve shapes (between the previous key and this one):
    // the figure must follow the handle on every move. Drag handle 2 to (20, 110) and compare the pose
    // shown at the end of the drag (live draft) with the pose after release (the committed document).
    const mid = b.frames[k - 1] + Math.floor((frame - b.frames[k - 1]) / 2);
    await page.fill('[data-testid="frame-input"]', String(mid));
    await page.press('[data-testid="frame-input"]', 'Enter');
    await page.click('[data-testid="curve-channel-r"]');
    const poseMidBefore = await page.evaluate((n) => window.__vmdPreview!.boneWorldQuaternion(n), boneName);
    const h2 = await curvePoint(page, dragged[2], dragged[3]);
    const to2 = await curvePoint(page, 20, 110);
    await page.evaluate(() => window.__vmdPreview!.resetPerf());
    const presentedBefore = await page.evaluate(() => window.__vmdPreview!.presentation().presented);
    await startFrames(page);
    await page.mouse.move(h2.x, h2.y);
    await page.mouse.down();
    for (let i = 1; i <= steps; i++) {
      await page.mouse.move(h2.x + ((to2.x - h2.x) * i) / steps, h2.y + ((to2.y - h2.y) * i) / steps);
      await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
    }
    const midStats = frameStats(await stopFrames(page));
    const midRenders = await page.evaluate(() => window.__vmdPreview!.breakdown().renders);
    // On software GL the pictures reach the page through async-present.ts, off the frame's critical path.
    const shown = await page.evaluate(() => ({ ...window.__vmdPreview!.presentation(), latency: window.__vmdPreview!.breakdown().present }));
    const poseLive = await page.evaluate((n) => window.__vmdPreview!.boneWorldQuaternion(n), boneName);
    await page.mouse.up();
    await page.waitForFunction(() => (document.querySelector('[data-testid="curve-y2"]') as HTMLInputElement).value === '110');
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    const poseCommitted = await page.evaluate((n) => window.__vmdPreview!.boneWorldQuaternion(n), boneName);
    const presentedInDrag = shown.presented - presentedBefore;
    const latency = shown.mode === 'async' ? `, presented ${presentedInDrag} (render → on the page: median ${shown.latency.median.toFixed(1)} ms, p95 ${shown.latency.p95.toFixed(1)} ms)` : '';
    console.log(`[perf] curve handle drag on wavefile_v2, cursor mid-segment at frame ${mid} (${steps} moves, preview renders ${midRenders}, presentation ${shown.mode}${latency}), frames while dragging: ${JSON.stringify(midStats)}`);
    // Every picture drawn reached the page (the last one may still have been on its way).
    if (shown.mode === 'async') expect(presentedInDrag).toBeGreaterThanOrEqual(midRenders - 1);
    expect(await curveFields(page)).toEqual([dragged[0], dragged[1], 20, 110]);
    // The preview re-rendered as the handle moved (a render per changed pose, coalesced per frame)…
    expect(midRenders).toBeGreaterThan(steps / 3);
    // …and what it showed at the end of the drag is the committed pose, which differs from the one before.
    const dot = (a: number[], c: number[]) => Math.abs(a[0] * c[0] + a[1] * c[1] + a[2] * c[2] + a[3] * c[3]);
    expect(dot(poseLive!, poseCommitted!)).toBeGreaterThan(1 - 1e-6);
    expect(dot(poseMidBefore!, poseCommitted!)).toBeLessThan(1 - 1e-6);
    expect(midStats.p95).toBeLessThan(100);
    await page.click('[data-testid="cmd-undo"]');
    expect(await curveFields(page)).toEqual([...dragged]);
    expect(suite.app.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });

  it('opens a generated 36 MB / 324,000-key motion and keeps the timeline fluid', async () => {
    // 100 bones × 3,240 keys, names encoded once (encoding per record would dominate the setup).
    const names = ['センター', '上半身', '下半身', '首', '頭', '左腕', '右腕', '左ひじ', '右ひじ', '左足', '右足', '左ひざ', '右ひざ'];
    for (let i = names.length; i < 100; i++) names.push(`ボーン${String(i).padStart(3, '0')}`);
    const nameBytes = names.map((n) => nameField(n, 15, 'bone'));
    const ip = buildBoneInterpolation([[20, 20, 107, 107], [20, 20, 107, 107], [64, 0, 64, 127], [90, 10, 30, 117]]);
    const perBone = 3240;
    const recs = new Array<Uint8Array>(names.length * perBone);
    let n = 0;
    for (let bIdx = 0; bIdx < names.length; bIdx++) {
      for (let i = 0; i < perBone; i++) {
        const a = (i * 0.1 + bIdx) % (2 * Math.PI);
        recs[n++] = encodeBoneRecord({ name: nameBytes[bIdx], frame: i * 3, position: [Math.sin(a), 0, 0], rotation: [0, Math.sin(a / 2), 0, Math.cos(a / 2)], interpolation: ip });
      }
    }
    const big = { ...emptyVmd('synthetic'), bone: blockFromRecords('bone', recs) };
    const bytes = writeVmd(big);
    expect(bytes.length).toBeGreaterThan(35_900_000);
    const file = path.join(suite.tmp.dir, 'synthetic-36mb.vmd');
    writeFileSync(file, bytes);

    const { page } = suite.app;
    const openMs = await openTimed(page, file, 'track-bone:0');
    const dropMs = await openByDrop(page, 'dropped-synthetic-36mb.vmd', bytes, 'track-bone:0');
    console.log(`[perf] synthetic (${(bytes.length / 1e6).toFixed(1)} MB, ${recs.length} keys): open to interactive ${dropMs.toFixed(0)} ms from the bytes in the page (drop), ${openMs} ms through the in-app dialog and the HTTP transport`);
    // The time is a reported figure (a loaded machine decides it); what is exact: the dropped file is the one shown.
    expect(await page.textContent('[data-testid="summary-name"]')).toContain('dropped-synthetic-36mb.vmd');

    const cv = (await page.$('[data-testid="timeline-canvas"]'))!;
    const box = (await cv.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // Zoom in, scroll rows, pan time, zoom out: each wheel event followed by one animation frame.
    await startFrames(page);
    const wheel = async (dx: number, dy: number, mods: string[] = []) => {
      for (const m of mods) await page.keyboard.down(m);
      await page.mouse.wheel(dx, dy);
      for (const m of mods) await page.keyboard.up(m);
      await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
    };
    for (let i = 0; i < 20; i++) await wheel(0, -120, ['Control']);
    for (let i = 0; i < 30; i++) await wheel(0, 60);
    for (let i = 0; i < 30; i++) await wheel(0, 200, ['Shift']);
    for (let i = 0; i < 30; i++) await wheel(0, 120, ['Control']);
    for (let i = 0; i < 20; i++) await wheel(0, -60);
    const scrollStats = frameStats(await stopFrames(page));
    console.log(`[perf] timeline scroll/zoom on the 36 MB motion (130 wheel steps): ${JSON.stringify(scrollStats)}`);
    await suite.app.screenshot('editor-synthetic-36mb');

    // Measure one draw of the fully zoomed-out timeline directly (the cost that bounds the frame rate).
    const drawMs = await page.evaluate(async () => {
      const t: number[] = [];
      for (let i = 0; i < 10; i++) {
        const t0 = performance.now();
        window.dispatchEvent(new Event('resize'));
        await new Promise<void>((r) => requestAnimationFrame(() => r()));
        t.push(performance.now() - t0);
      }
      return t;
    });
    console.log(`[perf] 10 animation frames at full zoom-out: ${drawMs.map((x) => x.toFixed(1)).join(', ')} ms`);
    expect(suite.app.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
