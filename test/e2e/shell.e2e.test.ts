/**
 * The shell end to end in Chromium against `npm run serve`'s program: open a corpus VMD through the
 * toolbar and the in-app dialog, see its name and key counts, Save As to a new path and compare bytes.
 * Expected counts come from a minimal independent reading of the file's count fields, not the codec.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHORTCUT_GROUPS } from '../../renderer/src/shell/shortcuts';
import { mirror } from '../../shared/motion-ops';
import { readVmd, writeVmd } from '../../shared/vmd';
import { appForSuite, corpusPath, dropUnsavedIfAsked, fileDialogReady, openApp, openFileViaDialog, ROOT, saveAsViaDialog, textOf } from './harness';
import { copyWritable } from '../helpers/corpus';

/** Block counts and last frame read straight from the bytes (VMD 0002 layout, fixed record sizes). */
function independentCounts(bytes: Buffer) {
  let off = 30 + 20;
  const counts: Record<string, number | null> = {};
  let last = 0;
  const sizes: [string, number, number][] = [
    ['bone', 111, 15],
    ['morph', 23, 15],
    ['camera', 61, 0],
    ['light', 28, 0],
    ['shadow', 9, 0],
  ];
  for (const [kind, size, frameAt] of sizes) {
    if (off + 4 > bytes.length) {
      counts[kind] = null;
      continue;
    }
    const n = bytes.readUInt32LE(off);
    off += 4;
    for (let i = 0; i < n; i++) last = Math.max(last, bytes.readUInt32LE(off + i * size + frameAt));
    off += n * size;
    counts[kind] = n;
  }
  counts.ik = off + 4 <= bytes.length ? bytes.readUInt32LE(off) : null;
  return { counts, last };
}

describe('shell in the browser mode', () => {
  const suite = appForSuite();

  it('opens a corpus VMD via the in-app dialog, shows its name and counts, and Save As writes identical bytes', async () => {
    const src = corpusPath('gene/motion/stand.vmd');
    const original = readFileSync(src);
    const expected = independentCounts(original);
    expect(expected.counts.bone).toBeGreaterThan(100); // sanity of the independent reader on this file

    const { page } = suite.app;
    const opening = page.waitForResponse((r) => r.url().includes('/api/call/openFile'));
    await openFileViaDialog(page, src);
    // The bytes crossed HTTP raw in a binary frame: the body ends with the file itself, with only a
    // small head before it (base64 in JSON would be a third larger and not end with the bytes).
    const answer = await opening;
    expect(answer.headers()['content-type']).toBe('application/vnd.vmd-studio.frame');
    const framed = await answer.body();
    expect(framed.length - original.length).toBeLessThan(200 + src.length * 3);
    expect(Buffer.compare(framed.subarray(framed.length - original.length), original)).toBe(0);

    expect(await textOf(page, 'summary-name')).toContain('stand.vmd');
    expect(await page.getAttribute('[data-testid="summary-kind"]', 'data-kind')).toBe('motion');
    for (const kind of ['bone', 'morph', 'camera', 'light', 'shadow', 'ik']) {
      const shown = await page.getAttribute(`[data-testid="count-${kind}"]`, 'data-count');
      expect(shown, kind).toBe(String(expected.counts[kind]));
    }
    // The visible text, not only attributes: 470 keys formatted for the 'en' locale.
    expect(await textOf(page, 'count-bone')).toBe(expected.counts.bone!.toLocaleString('en'));
    expect(await page.getAttribute('[data-testid="summary-length"]', 'data-frames')).toBe(String(expected.last));
    expect(await textOf(page, 'summary-length')).toContain(`${expected.last} frames`);
    await suite.app.screenshot('shell-opened-stand');

    const target = path.join(suite.tmp.dir, 'saved copy.vmd');
    const saving = page.waitForRequest((r) => r.url().includes('/api/call/saveFile'));
    await saveAsViaDialog(page, target);
    const sent = await saving;
    expect(sent.headers()['content-type']).toBe('application/vnd.vmd-studio.frame');
    // The client sends the frame as a Blob (Playwright cannot show its body); the bytes on disk are checked below.
    expect((await sent.response())?.status()).toBe(200);
    // The store switches to the new path only after main reported the write.
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('saved copy.vmd'));
    expect(await textOf(page, 'status-state')).toBe('No unsaved changes');
    const saved = readFileSync(target);
    expect(saved.length).toBe(original.length);
    expect(Buffer.compare(saved, original)).toBe(0);
    expect(suite.app.errors).toEqual([]);
  });

  it('Save over a file another program changed asks first; Overwrite keeps their version as the .bak; a .bak per opening', async () => {
    const { page } = suite.app;
    const file = path.join(suite.tmp.dir, 'walk.vmd');
    copyWritable(corpusPath('mc-mmd-rust/default_anim/walk.vmd'), file);
    const before = readFileSync(file);
    await openFileViaDialog(page, file);
    // Another program rewrites the file while it is open: its model name (bytes 30..49) becomes EXTERNAL2.
    const theirs = Buffer.from(before);
    theirs.fill(0, 30, 50);
    theirs.write('EXTERNAL2', 30, 'latin1');
    writeFileSync(file, theirs);
    // Save writes an edited document only (issue 24: an unedited one is not rewritten): every key deleted,
    // then undone below, so the later save writes the bytes it opened with.
    const docBytes = async () => Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64');
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    await page.waitForFunction(() => document.title.includes('*'));
    await page.click('[data-testid="cmd-save"]');
    // Asked, not overwritten: the file is still theirs until the answer.
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    expect(await textOf(page, 'confirm-message')).toBe(
      'walk.vmd was changed by another program since it was opened or last saved. Overwrite it with this version (the other version is kept as a .bak file beside it), save this version under another name, or cancel?',
    );
    expect(Buffer.compare(readFileSync(file), theirs)).toBe(0);
    expect(existsSync(file + '.bak')).toBe(false);
    await suite.app.screenshot('shell-save-changed-on-disk');
    await page.click('[data-testid="confirm-overwrite"]');
    await page.waitForSelector('[data-kind="success"] >> text=/the version another program wrote is kept as walk\\.vmd\\.bak/');
    expect(Buffer.compare(readFileSync(file), await docBytes())).toBe(0);
    expect(Buffer.compare(readFileSync(file + '.bak'), theirs)).toBe(0);
    // A second save of this opening: not asked (the version just written went back with it), no new .bak.
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => document.title.includes('*'));
    await page.click('[data-testid="cmd-save"]');
    await page.waitForFunction(() => !document.title.includes('*'));
    expect(await page.isVisible('[data-testid="confirm-dialog"]')).toBe(false);
    expect(Buffer.compare(readFileSync(file), before)).toBe(0);
    expect(Buffer.compare(readFileSync(file + '.bak'), theirs)).toBe(0);
    // Opened again (same server, same page): its first save keeps the file as it was at this opening.
    await openFileViaDialog(page, file);
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    await page.waitForFunction(() => document.title.includes('*'));
    await page.click('[data-testid="cmd-save"]');
    await page.waitForSelector('[data-kind="success"] >> text=/previous version kept as walk\\.vmd\\.bak/');
    expect(Buffer.compare(readFileSync(file + '.bak'), before)).toBe(0);
  });

  it('Save over a read-only file (chmod 444) does not replace it and offers Save As…', async () => {
    const { page } = suite.app;
    const file = path.join(suite.tmp.dir, 'sneak.vmd');
    copyWritable(corpusPath('mc-mmd-rust/default_anim/walk.vmd'), file);
    chmodSync(file, 0o444);
    const before = readFileSync(file);
    await openFileViaDialog(page, file);
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    await page.waitForFunction(() => document.title.includes('*'));
    await page.click('[data-testid="cmd-save"]');
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    expect(await textOf(page, 'confirm-message')).toBe('sneak.vmd is read-only, so it is not replaced. Use Save As… to save elsewhere.');
    expect(await page.isVisible('[data-testid="confirm-saveAs"]')).toBe(true);
    await page.click('[data-testid="confirm-cancel"]');
    await page.waitForSelector('[data-testid="confirm-dialog"]', { state: 'detached' });
    expect(Buffer.compare(readFileSync(file), before)).toBe(0);
    expect(existsSync(file + '.bak')).toBe(false);
    expect(await page.evaluate(() => document.title.includes('*'))).toBe(true);
  });

  it('shows a camera file as camera with its cut count, and lists opened files under Open Recent', async () => {
    const { page } = suite.app;
    await openFileViaDialog(page, corpusPath('threejs/vmds/wavefile_camera.vmd'));
    expect(await page.getAttribute('[data-testid="summary-kind"]', 'data-kind')).toBe('camera');
    expect(await page.getAttribute('[data-testid="count-camera"]', 'data-count')).toBe('70');
    // This file ends after the light block: the self-shadow and IK blocks are absent.
    expect(await textOf(page, 'count-shadow')).toBe('absent');
    // Cuts counted from the file here: camera keys (frame u32 at the start of each 61-byte record) one frame
    // after the previous one. The summary says that many, and the timeline (fitted to the whole motion) marks each.
    const cam = readFileSync(corpusPath('threejs/vmds/wavefile_camera.vmd'));
    const boneN = cam.readUInt32LE(50), morphAt = 54 + boneN * 111, morphN = cam.readUInt32LE(morphAt), camAt = morphAt + 4 + morphN * 23;
    const frames = Array.from({ length: cam.readUInt32LE(camAt) }, (_, i) => cam.readUInt32LE(camAt + 4 + i * 61)).sort((x, y) => x - y);
    const cuts = frames.filter((f, i) => i > 0 && f - frames[i - 1] === 1).length;
    expect(cuts).toBeGreaterThan(0);
    expect(Number(await textOf(page, 'summary-camera-cuts'))).toBe(cuts);
    // A motion opens zoomed to readable key spacing; fit it whole so every cut is on screen.
    await page.click('[data-testid="zoom-fit"]');
    await page.waitForFunction((n) => document.querySelector('[data-testid="timeline-canvas"]')?.getAttribute('data-camera-cuts') === String(n), cuts);
    await page.click('[data-testid="cmd-recent"]');
    const recent = await page.textContent('[data-testid="recent-menu"]');
    expect(recent).toContain('wavefile_camera.vmd');
    expect(recent).toContain('saved copy.vmd');
    await suite.app.screenshot('shell-camera-recent');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="recent-menu"]', { state: 'detached' });
  });

  it('turns a file that is not a VMD into a visible error and keeps the open document', async () => {
    const { page } = suite.app;
    const bad = path.join(suite.tmp.dir, 'broken.vmd');
    // Binary bytes of no kind (text would be said as text: drop-open's not-motions test).
    writeFileSync(bad, Buffer.from([0x12, 0x00, 0x34, 0x56, 0x78, 0x9a, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05]));
    const before = await textOf(page, 'summary-name');
    await page.click('[data-testid="cmd-open"]');
    await page.fill('[data-testid="file-dialog-path"]', bad);
    await page.click('[data-testid="file-dialog-go"]');
    const err = page.locator('[data-testid="notifications"] [data-kind="error"]').last();
    await err.waitFor();
    expect(await err.locator('[data-testid="notice-message"]').textContent()).toBe('broken.vmd: not a VMD file: it does not start with "Vocaloid Motion Data"');
    expect(await err.textContent()).toContain('E_VMD_MAGIC');
    expect(await textOf(page, 'summary-name')).toBe(before);
    await suite.app.screenshot('shell-error');
    expect(existsSync(bad)).toBe(true);
  });

  it('a path typed over the selected path field while the folder still loads replaces it, not appended to it', async () => {
    // The open dialog fills its path field with the folder once the listing arrives. A user (or
    // Playwright's fill) who already selected the field's text to type over it must keep that selection.
    const { page } = suite.app;
    const file = corpusPath('mc-mmd-rust/default_anim/swim.vmd');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await page.route('**/api/call/listDirectory', async (route) => {
      await gate;
      await route.continue();
    });
    try {
      await page.click('[data-testid="cmd-open"]');
      await page.waitForSelector('[data-testid="file-dialog"][data-loaded="false"]');
      await page.focus('[data-testid="file-dialog-path"]');
      await page.keyboard.press('Control+A');
      release();
      await page.waitForSelector('[data-testid="file-dialog"][data-loaded="true"]');
      const folder = await page.inputValue('[data-testid="file-dialog-path"]');
      expect(folder).not.toBe('');
      await page.keyboard.insertText(file);
      expect(await page.inputValue('[data-testid="file-dialog-path"]')).toBe(file);
    } finally {
      await page.unroute('**/api/call/listDirectory');
    }
    await page.click('[data-testid="file-dialog-go"]');
    // Opened over the open motion: it is asked whether it goes into the scene (pose-apply.e2e); on its own here.
    await dropUnsavedIfAsked(page, 'swim.vmd');
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('swim.vmd'));
    expect(suite.app.errors).toEqual([]);
  });

  it('exports the pose at the current frame as VPD through the in-app save dialog', async () => {
    const { page } = suite.app;
    await openFileViaDialog(page, corpusPath('gene/motion/stand.vmd'));
    await page.click('[data-testid="cmd-export"]');
    await page.click('[data-testid="cmd-export-vpd"]');
    // First what goes in: nothing is selected, so the whole pose is the choice offered (face-tools.e2e: the others).
    await page.waitForSelector('[data-testid="vpd-parts-dialog"]');
    expect(await page.isChecked('[data-part="all"] input')).toBe(true);
    await page.click('[data-testid="vpd-parts-next"]');
    await fileDialogReady(page);
    // The proposed name carries the frame.
    expect(await page.inputValue('[data-testid="file-dialog-name"]')).toBe('stand_0.vpd');
    await page.fill('[data-testid="file-dialog-path"]', suite.tmp.dir);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForFunction((dir) => (document.querySelector('[data-testid="file-dialog-path"]') as HTMLInputElement).value === dir, suite.tmp.dir);
    await suite.app.screenshot('shell-export-dialog');
    await page.click('[data-testid="file-dialog-accept"]');
    await page.waitForSelector('[data-kind="success"] >> text=/Exported stand_0\\.vpd/');
    const text = new TextDecoder('shift_jis').decode(readFileSync(path.join(suite.tmp.dir, 'stand_0.vpd')));
    expect(text.startsWith('Vocaloid Pose Data file')).toBe(true);
    const bones = text.match(/^Bone\d+\{/gm) ?? [];
    expect(bones.length).toBe(Number(await textOf(page, 'summary-bones')));
  });

  it('opens a VPD dropped on the window from its bytes (no path in a browser)', async () => {
    const { page } = suite.app;
    const src = corpusPath('threejs/vpds/01.vpd');
    const bytes = [...readFileSync(src)];
    await page.evaluate((data) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], '01.vpd'));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, bytes);
    // Dropped over the open motion it is asked whether the pose goes onto the actor (pose-apply.e2e); on its own here.
    await dropUnsavedIfAsked(page, '01.vpd');
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('01.vpd'));
    const sections = (readFileSync(src, 'latin1').match(/^Bone\d+\{/gm) ?? []).length;
    expect(await page.getAttribute('[data-testid="count-bone"]', 'data-count')).toBe(String(sections));
    expect(await page.textContent('[data-testid="file-summary"]')).toContain('Pose file (VPD)');
    // A pose cannot hold display/IK keys: the track list has no such row, only the bones.
    await page.waitForSelector('[data-testid^="track-bone:"]');
    expect(await page.locator('[data-testid="track-ik"]').count()).toBe(0);
  });

  it('runs a batch job from the Batch dialog form: trim 10..40 over two corpus copies and a broken file', async () => {
    const { page } = suite.app;
    const input = path.join(suite.tmp.dir, 'batch-in');
    const output = path.join(suite.tmp.dir, 'batch-out');
    mkdirSync(input);
    copyWritable(corpusPath('mc-mmd-rust/default_anim/walk.vmd'), path.join(input, 'walk.vmd'));
    copyWritable(corpusPath('mc-mmd-rust/default_anim/swim.vmd'), path.join(input, 'swim.vmd'));
    // A real file cut short inside its bone block: the reader must refuse it, the others must still run.
    writeFileSync(path.join(input, 'broken.vmd'), readFileSync(corpusPath('mc-mmd-rust/default_anim/walk.vmd')).subarray(0, 1000));
    // A pose among them: trim works on motions, so it is not processed, and the summary says so.
    copyWritable(corpusPath('threejs/vpds/01.vpd'), path.join(input, 'pose.vpd'));
    const before = new Map(['walk.vmd', 'swim.vmd', 'broken.vmd'].map((n) => [n, readFileSync(path.join(input, n))]));
    const lastIn = new Map(['walk.vmd', 'swim.vmd'].map((n) => [n, independentCounts(before.get(n)!).last]));
    for (const [n, last] of lastIn) expect(last, n).toBeGreaterThan(10); // both outlast the cut at 10

    await page.click('[data-testid="cmd-batch"]');
    await page.selectOption('[data-testid="batch-op"]', 'trim');
    await page.fill('[data-testid="batch-input"]', input);
    await page.fill('[data-testid="batch-output"]', output);
    // Start waits for the required From frame; a bad range shows inline and keeps Start off.
    expect(await page.isDisabled('[data-testid="batch-start"]')).toBe(true);
    await page.fill('[data-testid="batch-opt-from"]', '50');
    await page.fill('[data-testid="batch-opt-to"]', '40');
    expect(await textOf(page, 'batch-error-to')).toBe('Must not be before From frame');
    expect(await page.isDisabled('[data-testid="batch-start"]')).toBe(true);
    await page.fill('[data-testid="batch-opt-from"]', '10');
    expect(await page.locator('[data-testid="batch-error-to"]').count()).toBe(0);
    expect(await page.isChecked('[data-testid="batch-opt-no-hold"]')).toBe(true); // "hold the pose" is the default
    await suite.app.screenshot('shell-batch-form');
    await page.click('[data-testid="batch-start"]');
    await page.waitForSelector('[data-testid="batch-summary"]', { timeout: 60_000 });
    expect(await textOf(page, 'batch-summary')).toBe('Done: 2 ok, 1 failed, 0 skipped');
    expect(await textOf(page, 'batch-not-taken')).toBe('1 .vpd pose file in the folder was not processed: this operation works on VMD motions (“Convert VMD ⇄ VPD” turns poses into motions)');
    expect(existsSync(path.join(output, 'pose.vpd'))).toBe(false);
    await suite.app.screenshot('shell-batch-done');

    const failures = page.locator('[data-testid="batch-result"][data-status="failed"]');
    expect(await failures.count()).toBe(1);
    expect(await failures.first().locator('[data-testid="batch-result-file"]').textContent()).toBe('broken.vmd');
    const code = await failures.first().getAttribute('data-code');
    expect(code).toMatch(/^E_VMD_(TRUNCATED|COUNT)$/);
    // The code is the row's tooltip; the line says what is wrong.
    expect(await failures.first().getAttribute('title')).toContain(`${code}: `);
    expect((await failures.first().locator('[data-testid="batch-result-error"]').textContent())?.length).toBeGreaterThan(5);

    for (const n of ['walk.vmd', 'swim.vmd']) {
      const out = readFileSync(path.join(output, n));
      const counts = independentCounts(out);
      // Frames 10..40 (or 10..the end, if shorter) moved to start at 0.
      expect(counts.last, n).toBeLessThanOrEqual(Math.min(lastIn.get(n)!, 40) - 10);
      expect(counts.counts.bone, n).toBeGreaterThan(0);
    }
    expect(existsSync(path.join(output, 'broken.vmd'))).toBe(false);
    for (const [n, bytes] of before) expect(readFileSync(path.join(input, n)).equals(bytes), `${n} unchanged`).toBe(true);
    await suite.app.screenshot('shell-batch');
    // A dry run over the same folder, outputs allowed to be replaced: it says what it would write, and writes nothing.
    const written = new Map(['walk.vmd', 'swim.vmd'].map((n) => [n, readFileSync(path.join(output, n))]));
    await page.fill('[data-testid="batch-opt-from"]', '20');
    await page.check('[data-testid="batch-overwrite"]');
    await page.check('[data-testid="batch-dry-run"]');
    await page.click('[data-testid="batch-start"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="batch-summary"]')?.textContent?.includes('Dry run'), undefined, { timeout: 60_000 });
    expect(await textOf(page, 'batch-summary')).toBe('Dry run, nothing written: 2 would be written, 1 failed, 0 would be skipped (output exists)');
    for (const [n, bytes] of written) expect(readFileSync(path.join(output, n)).equals(bytes), `${n} not rewritten`).toBe(true);
    await page.uncheck('[data-testid="batch-dry-run"]');
    await page.uncheck('[data-testid="batch-overwrite"]');
    await page.click('[data-testid="batch-close"]');
    expect(suite.app.errors).toEqual([]);
  });

  it('Escape closes the Batch dialog; an Escape in its folder picker closes only the picker', async () => {
    const { page } = suite.app;
    await page.keyboard.press('Control+b');
    await page.waitForSelector('[data-testid="batch-dialog"]');
    await page.click('[data-testid="batch-browse-input"]');
    // The dialog takes the keyboard once its folder is listed (an Escape before that was lost on a loaded machine).
    await page.waitForSelector('[data-testid="file-dialog"][data-loading="false"][data-loaded="true"]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    expect(await page.isVisible('[data-testid="batch-dialog"]')).toBe(true);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="batch-dialog"]', { state: 'detached' });
  });

  it('applies an operation to the open motion instead of a folder: mirror, then speed ×2, each one undo step, exact bytes', async () => {
    const { page } = suite.app;
    const src = corpusPath('mc-mmd-rust/default_anim/walk.vmd');
    const original = readFileSync(src);
    const docBytes = async () => Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64');
    const undoDepth = async () => (await page.evaluate(() => window.__vmdEditor!.history())).undo;
    const folderTarget = async () => {
      await page.click('[data-testid="cmd-batch"]');
      await page.check('[data-testid="batch-target-folder"]');
      await page.click('[data-testid="batch-close"]');
    };
    await openFileViaDialog(page, src);
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);

    await page.click('[data-testid="cmd-batch"]');
    await page.check('[data-testid="batch-target-document"]');
    // No folders for the open motion, and only the operations that edit a motion in place.
    expect(await page.isVisible('[data-testid="batch-input"]')).toBe(false);
    expect(await page.locator('[data-testid="batch-op"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['mirror', 'trim', 'speed', 'shift', 'preset', 'reduce', 'bake']);
    await page.selectOption('[data-testid="batch-op"]', 'mirror');
    await suite.app.screenshot('batch-open-motion');
    await page.click('[data-testid="batch-apply"]');
    await page.waitForSelector('[data-testid="batch-dialog"]', { state: 'detached' });
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    // The notice says what happened to the keys: walk.vmd's 120 bone keys (counted above the codec) all kept.
    const notice = await page.textContent('[data-testid="notifications"]');
    expect(notice).toContain('Mirror left/right: applied to walk.vmd');
    expect(notice).toContain(`keys: ${independentCounts(original).counts.bone!.toLocaleString('en-US')} kept, 0 added, 0 dropped`);

    // The same bytes as the shared mirror edit writes for the file (the edit itself is tested against
    // the corpus in test/shared), and left/right really swapped: the 左 and 右 key counts trade places.
    const parsed = readVmd(new Uint8Array(original));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const expected = mirror(parsed.value, { light: true });
    if (!expected.ok) throw new Error(expected.error.message);
    const mirrored = await docBytes();
    expect(mirrored.equals(Buffer.from(writeVmd(expected.value.doc)))).toBe(true);
    // Read independently: every bone key as "name@frame"; mirroring swaps 左 and 右 in names, frames stay.
    const keys = (b: Buffer) => {
      const sjis = new TextDecoder('shift_jis');
      const n = b.readUInt32LE(50);
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const at = 54 + i * 111, raw = b.subarray(at, at + 15), end = raw.indexOf(0);
        out.push(`${sjis.decode(raw.subarray(0, end < 0 ? 15 : end))}@${b.readUInt32LE(at + 15)}`);
      }
      return out.sort();
    };
    const swapped = keys(original).map((k) => k.replace(/[左右]/g, (c) => (c === '左' ? '右' : '左'))).sort();
    expect(swapped).not.toEqual(keys(original));
    expect(keys(mirrored)).toEqual(swapped);

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    expect((await docBytes()).equals(original)).toBe(true);
    await page.keyboard.press('Control+y');
    expect((await docBytes()).equals(mirrored)).toBe(true);

    // Speed ×2 on top, from the editor's Whole Motion… button, which opens the dialog aimed at the open
    // motion (folder target chosen first, to see it switch); the last key moves to half its frame.
    await folderTarget();
    await page.click('[data-testid="whole-motion"]');
    expect(await page.isChecked('[data-testid="batch-target-document"]')).toBe(true);
    expect(await page.textContent('[data-testid="batch-dialog"] header')).toBe('Edit the whole motion: walk.vmd');
    await page.selectOption('[data-testid="batch-op"]', 'speed');
    await page.fill('[data-testid="batch-opt-factor"]', '2');
    await page.click('[data-testid="batch-apply"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 2);
    const lastBefore = independentCounts(mirrored).last;
    expect(lastBefore).toBeGreaterThan(10);
    expect(independentCounts(await docBytes()).last).toBe(Math.round(lastBefore / 2));
    expect(await undoDepth()).toBe(2);
    await page.keyboard.press('Control+z');
    expect((await docBytes()).equals(mirrored)).toBe(true);
    await page.keyboard.press('Control+z');
    expect((await docBytes()).equals(original)).toBe(true);

    await folderTarget(); // as the next test expects
    expect(suite.app.errors).toEqual([]);
  });

  it('F1 and the ⌨ button list every key and mouse gesture, in English and Japanese; the editor behind takes no keys meanwhile', async () => {
    const { page } = suite.app;
    await openFileViaDialog(page, corpusPath('mc-mmd-rust/default_anim/walk.vmd'));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const before = await page.evaluate(() => window.__vmdEditor!.frame());
    await page.keyboard.press('F1');
    await page.waitForSelector('[data-testid="shortcuts-dialog"]');
    const rowCount = SHORTCUT_GROUPS.reduce((n, g) => n + g.rows.length, 0);
    expect(await page.locator('[data-testid="shortcuts-dialog"] [data-row]').count()).toBe(rowCount);
    const row = (label: string) => page.locator(`[data-testid="shortcuts-dialog"] [data-row="${label}"]`);
    expect(await row('shortcuts.save').locator('kbd').allTextContents()).toEqual(['Ctrl', 'S']);
    expect(await row('shortcuts.save').locator('.what').textContent()).toBe('Save');
    expect(await row('shortcuts.redo').locator('kbd').allTextContents()).toEqual(['Ctrl', 'Y', 'Ctrl', 'Shift', 'Z']);
    expect(await row('shortcuts.zoomTime').locator('kbd').allTextContents()).toEqual(['Ctrl', 'Wheel']);
    // The dialog is modal: → and Space do not step or play the motion behind it.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Space');
    expect(await page.evaluate(() => window.__vmdEditor!.frame())).toEqual(before);
    await suite.app.screenshot('shell-shortcuts');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="shortcuts-dialog"]', { state: 'detached' });
    // Closed, → steps again.
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => window.__vmdEditor!.frame())).toEqual({ frame: before.frame + 1, playing: false });

    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.click('[data-testid="cmd-shortcuts"]');
    await page.waitForSelector('[data-testid="shortcuts-dialog"]');
    expect(await page.textContent('[data-testid="shortcuts-dialog"] header')).toBe('キーボードとマウス');
    expect(await row('shortcuts.save').locator('.what').textContent()).toBe('上書き保存');
    expect(await row('shortcuts.pickJoint').locator('kbd').allTextContents()).toEqual(['関節をクリック']);
    await suite.app.screenshot('shell-shortcuts-ja');
    await page.click('[data-testid="shortcuts-close"]');
    await page.waitForSelector('[data-testid="shortcuts-dialog"]', { state: 'detached' });
    await page.selectOption('[data-testid="locale"]', 'en');
    // About (? → About) shares the dialog frame: it names the version and the mode; Escape closes it too.
    await page.click('[data-testid="cmd-help"]');
    await page.click('[data-testid="cmd-about"]');
    await page.waitForSelector('[data-testid="about-dialog"]');
    const about = await page.textContent('[data-testid="about-dialog"]');
    expect(about).toContain(`Version ${JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version}`);
    expect(about).toContain('Browser mode');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="about-dialog"]', { state: 'detached' });
    expect(suite.app.errors).toEqual([]);
  });

  it('switches the UI to Japanese and remembers it in the settings folder', async () => {
    const { page } = suite.app;
    await openFileViaDialog(page, corpusPath('gene/motion/stand.vmd'));
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="cmd-open"]')?.textContent === '開く…');
    expect(await textOf(page, 'summary-kind')).toBe('モーション');
    expect(await textOf(page, 'summary-length')).toContain('120 フレーム');
    await suite.app.screenshot('shell-japanese');
    // The settings are written after the switch, not before it shows: wait for the file to say so.
    const savedLocale = () => {
      try {
        return JSON.parse(readFileSync(path.join(suite.app.server.settingsDir, 'settings.json'), 'utf8')).locale;
      } catch {
        return undefined;
      }
    };
    await expect.poll(savedLocale, { timeout: 10_000 }).toBe('ja');
    await page.selectOption('[data-testid="locale"]', 'en');
  });
});

describe('files named on the command line (double-click in the browser mode)', () => {
  it('reach the window as a pushed fileOpened event and open', async () => {
    const src = corpusPath('vmd_sizing/archive/モーフ置換サンプル/C) あにまさ式ミク_まばたき.vmd');
    const app = await openApp({ serveArgs: [src] });
    try {
      await app.page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('まばたき'), undefined, { timeout: 30_000 });
      expect(await app.page.getAttribute('[data-testid="summary-kind"]', 'data-kind')).toBe('morph');
      expect(await app.page.getAttribute('[data-testid="count-morph"]', 'data-count')).toBe(String(readFileSync(src).readUInt32LE(54)));
      expect(app.errors).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
