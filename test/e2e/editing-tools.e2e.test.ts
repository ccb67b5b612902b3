/**
 * Issue 14's editing tools end to end in Chromium through the browser mode: mirror paste (反転貼り付け),
 * paste on the other side only and mirror the pose in place; the key inspector over many keys (mixed
 * fields, a relative entry, a typed value); notices that keep out of the editor; Save As with a full
 * path typed in the name box.
 *
 * Every expected file is built here from the original file's bytes (the mirror rule written out by
 * hand: 左 8D B6 → 右 89 45, the sign bits of position X and rotation Y, Z flipped), and every result is
 * read back from the file Save As wrote, never from the editor's state. Screenshots of the mixed
 * inspector and of the notices corner, in English and Japanese, go to test-artifacts/.
 */
import { readFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildTracks, readVmd, BONE, type MotionTracks } from '../../shared/vmd';
import { appForSuite, corpusPath, fileDialogReady } from './harness';
import { animationFrames, clickKey, keyPoint, openFresh, seekFrameField as seek } from './editor-page';

const WALK = corpusPath('mc-mmd-rust/default_anim/walk.vmd');
/** Header (30) + model name (20) + bone count (4). */
const BONES_AT = 54;

const orig = new Uint8Array(readFileSync(WALK));
const tracks: MotionTracks = (() => {
  const r = readVmd(orig);
  if (!r.ok) throw new Error(r.error.message);
  return buildTracks(r.value);
})();

function track(name: string): number {
  const i = tracks.bones.index.get(name);
  if (i === undefined) throw new Error(`no bone ${name}`);
  return i;
}
const row = (name: string) => `track-bone:${track(name)}`;

/** Record index of the key of bone `name` at `frame`, from the file. */
function rec(name: string, frame: number): number {
  const b = tracks.bones, i = track(name);
  for (let k = b.start[i]; k < b.start[i + 1]; k++) if (b.frames[k] === frame) return b.record[k];
  throw new Error(`no key of ${name} at ${frame}`);
}

const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at, true);
const f32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset, b.byteLength).getFloat32(at, true);
const recordAt = (file: Uint8Array, r: number) => file.slice(BONES_AT + r * BONE.SIZE, BONES_AT + (r + 1) * BONE.SIZE);

/** The sign bits of position X and rotation Y, Z flipped, but an exact zero's (its own mirror: its bytes stay). */
function flipSigns(r: Uint8Array): void {
  for (const at of [BONE.POSITION, BONE.ROTATION + 4, BONE.ROTATION + 8]) if (f32(r, at) !== 0) r[at + 3] ^= 0x80;
}

/** The mirror rule by hand on a 左… bone record: name 左 → 右, frame set, three sign bits flipped (not a zero's). */
function mirroredByHand(src: Uint8Array, frame: number): Uint8Array {
  const r = src.slice();
  expect([r[0], r[1]], 'a 左 name').toEqual([0x8d, 0xb6]);
  r[0] = 0x89;
  r[1] = 0x45;
  new DataView(r.buffer).setUint32(BONE.FRAME, frame, true);
  flipSigns(r);
  return r;
}
/** The same by hand on a 右… record (右 → 左). */
function mirroredRightByHand(src: Uint8Array, frame: number): Uint8Array {
  const r = src.slice();
  expect([r[0], r[1]], 'a 右 name').toEqual([0x89, 0x45]);
  r[0] = 0x8d;
  r[1] = 0xb6;
  new DataView(r.buffer).setUint32(BONE.FRAME, frame, true);
  flipSigns(r);
  return r;
}

/** The file with bone records appended after the last bone record and the count fixed. */
function withBoneRecords(file: Uint8Array, added: Uint8Array[]): Uint8Array {
  const n = u32(file, 50);
  const end = BONES_AT + n * BONE.SIZE;
  const out = new Uint8Array(file.length + added.length * BONE.SIZE);
  out.set(file.subarray(0, end));
  added.forEach((a, i) => out.set(a, end + i * BONE.SIZE));
  out.set(file.subarray(end), end + added.length * BONE.SIZE);
  new DataView(out.buffer).setUint32(50, n + added.length, true);
  return out;
}

/** The file with bone record r replaced. */
function withRecord(file: Uint8Array, r: number, bytes: Uint8Array): Uint8Array {
  const out = file.slice();
  out.set(bytes, BONES_AT + r * BONE.SIZE);
  return out;
}

function diffAt(a: Uint8Array, b: Uint8Array): number[] {
  expect(a.length).toBe(b.length);
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) out.push(i);
  return out;
}


const undoDepth = (page: Page) => page.evaluate(() => window.__vmdEditor!.history().undo);

/**
 * Save As by typing the full target path in the name box (the dialog starts in the motion's folder),
 * then waits until the status bar shows the new path (the write has finished). Returns the file's bytes.
 */
async function saveAsFullPath(page: Page, target: string, startsIn?: string): Promise<Uint8Array> {
  await page.click('[data-testid="cmd-save-as"]');
  await fileDialogReady(page);
  if (startsIn) expect(await page.inputValue('[data-testid="file-dialog-path"]')).toBe(startsIn);
  await page.fill('[data-testid="file-dialog-name"]', target);
  await page.click('[data-testid="file-dialog-accept"]');
  if (await page.isVisible('[data-testid="file-dialog-confirm"]')) await page.click('[data-testid="file-dialog-accept"]');
  await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
  await page.waitForFunction((p) => document.querySelector('[data-testid="status-bar"] .path')?.getAttribute('title') === p, target);
  return new Uint8Array(readFileSync(target));
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}
const boxOf = (page: Page, sel: string) =>
  page.$$eval(sel, (els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    }),
  );
const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('editing tools in the browser mode', () => {
  const suite = appForSuite({ viewport: { width: 1600, height: 900 } });

  it('mirror paste of a copied 左腕 key writes a 右腕 key with the mirror rule; other side only; mirror the pose; Save As with a full path', async () => {
    const { page } = suite.app;
    await openFresh(page, WALK);
    const src = rec('左腕', 10);

    // Copy 左腕 at 10, Ctrl+Shift+V at frame 40 (右腕 has no key there): one 右腕 record appended.
    await clickKey(page, row('左腕'), 10);
    await page.keyboard.press('Control+c');
    await seek(page, 40);
    await page.keyboard.press('Control+Shift+V');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    await suite.app.screenshot('mirror-paste-done');
    const dir = path.join(suite.tmp.dir, 'out', 'deeper');
    mkdirSync(dir, { recursive: true });
    // The dialog opens in the motion's own folder; the full path typed in the name box saves elsewhere.
    let saved = await saveAsFullPath(page, path.join(dir, 'mirror-paste.vmd'), path.dirname(WALK));
    const appended = mirroredByHand(recordAt(orig, src), 40);
    expect(diffAt(saved, withBoneRecords(orig, [appended]))).toEqual([]);
    // Read independently: the new record's name is 右腕, position X negated, rotation (x, −y, −z, w).
    const n = u32(orig, 50);
    const at = BONES_AT + n * BONE.SIZE;
    expect(new TextDecoder('shift_jis').decode(saved.subarray(at, at + 4))).toBe('右腕');
    expect(u32(saved, at + BONE.FRAME)).toBe(40);
    const so = BONES_AT + src * BONE.SIZE;
    for (const c of [1, 2]) expect(f32(saved, at + BONE.ROTATION + 4 * c)).toBe(-f32(orig, so + BONE.ROTATION + 4 * c));
    expect(f32(saved, at + BONE.ROTATION)).toBe(f32(orig, so + BONE.ROTATION));
    expect(f32(saved, at + BONE.ROTATION + 12)).toBe(f32(orig, so + BONE.ROTATION + 12));
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);

    // "Paste on the other side only" from the Mirror menu at frame 30: 右腕's key there is replaced in place.
    await seek(page, 30);
    await page.click('[data-testid="mirror-menu"]');
    await suite.app.screenshot('mirror-menu-open');
    await page.click('[data-testid="mirror-other-side"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    saved = await saveAsFullPath(page, path.join(dir, 'other-side.vmd'));
    const right30 = rec('右腕', 30);
    expect(diffAt(saved, withRecord(orig, right30, mirroredByHand(recordAt(orig, src), 30)))).toEqual([]);
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);

    // Mirror the pose at frame 50 with 左腕's key selected: 左腕 and 右腕 swap, each mirrored, in place.
    await clickKey(page, row('左腕'), 50);
    await seek(page, 50);
    await page.keyboard.press('Control+Shift+M');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    saved = await saveAsFullPath(page, path.join(dir, 'mirror-pose.vmd'));
    const l50 = rec('左腕', 50), r50 = rec('右腕', 50);
    let expected = withRecord(orig, r50, mirroredByHand(recordAt(orig, l50), 50));
    expected = withRecord(expected, l50, mirroredRightByHand(recordAt(orig, r50), 50));
    expect(diffAt(saved, expected)).toEqual([]);
    await page.keyboard.press('Control+z');
    expect(suite.app.errors).toEqual([]);
  });

  it('on wavefile_v2.vmd too: the copied 左腕 key at frame 0, mirror-pasted at frame 1, is the 右腕 record the rule gives', async () => {
    const { page } = suite.app;
    const file = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
    const bytes = new Uint8Array(readFileSync(file));
    const r = readVmd(bytes);
    if (!r.ok) throw new Error(r.error.message);
    const t = buildTracks(r.value);
    const b = t.bones, left = b.index.get('左腕')!, right = b.index.get('右腕')!;
    const leftAt0 = b.record[b.start[left]];
    expect(b.frames[b.start[left]]).toBe(0);
    for (let k = b.start[right]; k < b.start[right + 1]; k++) expect(b.frames[k], 'no 右腕 key at 1').not.toBe(1);
    await openFresh(page, file);
    // Scroll the track list (wheel over it) until 左腕's row is shown.
    const list = (await boxOf(page, '[data-testid="track-list"]'))[0];
    await page.mouse.move((list.left + list.right) / 2, (list.top + list.bottom) / 2);
    const rowShown = () =>
      page.evaluate((id) => {
        const row = document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect();
        const cv = document.querySelector('[data-testid="timeline-canvas"]')!.getBoundingClientRect();
        return !!row && row.top >= cv.top + 20 && row.bottom <= cv.bottom - 4;
      }, `track-bone:${left}`);
    for (let i = 0; i < 40 && !(await rowShown()); i++) {
      await page.mouse.wheel(0, 60);
      await animationFrames(page, 1);
    }
    expect(await rowShown()).toBe(true);
    const p = await keyPoint(page, `track-bone:${left}`, 0);
    await page.mouse.click(p.x, p.y);
    await page.waitForFunction((rec) => window.__vmdEditor!.selection().refs.some((x) => x.record === rec), leftAt0);
    await page.keyboard.press('Control+c');
    await seek(page, 1);
    await page.keyboard.press('Control+Shift+V');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    const saved = await saveAsFullPath(page, path.join(suite.tmp.dir, 'wavefile-mirror-paste.vmd'));
    expect(diffAt(saved, withBoneRecords(bytes, [mirroredByHand(recordAt(bytes, leftAt0), 1)]))).toEqual([]);
  });

  it('a mixed inspector edit changes exactly the selected keys’ fields and nothing else in the file', async () => {
    const { page } = suite.app;
    await openFresh(page, WALK);
    // センター at 7, 10 and 19: Y is −0.9, −0.8 and 0 (mixed); X and Z are 0 on all three.
    const picked = [7, 10, 19].map((f) => rec('センター', f));
    await clickKey(page, row('センター'), 7);
    await clickKey(page, row('センター'), 19, ['Shift']);
    expect((await page.evaluate(() => window.__vmdEditor!.selection())).refs.map((r) => r.record).sort((a, b) => a - b)).toEqual(picked);
    const y = '[data-testid="inspector-pos-y"]', x = '[data-testid="inspector-pos-x"]';
    expect(await page.getAttribute(y, 'placeholder')).toBe('—');
    expect(await page.getAttribute(y, 'data-mixed')).toBe('true');
    expect(await page.inputValue(y)).toBe('');
    expect(await page.getAttribute(x, 'data-mixed')).toBe('false');
    expect(await page.inputValue(x)).toBe('0');
    expect(await page.getAttribute('[data-testid="inspector-frame"]', 'placeholder')).toBe('—');
    await suite.app.screenshot('inspector-mixed-en');
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="inspector-multi"]')?.textContent?.includes('個のキーを選択中'));
    await suite.app.screenshot('inspector-mixed-ja');
    await page.selectOption('[data-testid="locale"]', 'en');

    // +5 on Y: each key's own Y plus 5 (one undo step), then 1.5 typed in X: all three X = 1.5.
    await page.fill(y, '+5');
    await page.press(y, 'Tab');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    expect(await page.inputValue(y)).toBe('');
    await page.fill(x, '1.5');
    await page.press(x, 'Tab');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 2);
    expect(await undoDepth(page)).toBe(2);
    const saved = await saveAsFullPath(page, path.join(suite.tmp.dir, 'inspector-mixed.vmd'));
    const expected = orig.slice();
    const dv = new DataView(expected.buffer);
    for (const r of picked) {
      const o = BONES_AT + r * BONE.SIZE + BONE.POSITION;
      dv.setFloat32(o + 4, Math.fround(dv.getFloat32(o + 4, true) + 5), true);
      dv.setFloat32(o, 1.5, true);
    }
    expect(diffAt(saved, expected)).toEqual([]);
    // Every byte that changed is inside an X or Y position field of one of the three keys.
    for (const i of diffAt(saved, orig)) {
      const r = Math.floor((i - BONES_AT) / BONE.SIZE), off = (i - BONES_AT) % BONE.SIZE;
      expect(picked, `byte ${i}`).toContain(r);
      expect(off >= BONE.POSITION && off < BONE.POSITION + 8, `byte ${i} (+${off})`).toBe(true);
    }
    expect([0, 1, 2].map((i) => f32(saved, BONES_AT + picked[i] * BONE.SIZE + BONE.POSITION + 4))).toEqual([-0.9, -0.8, 0].map((v) => Math.fround(Math.fround(v) + 5)));
    expect(suite.app.errors).toEqual([]);
  });

  it('notices stand in the preview’s corner (never over the curve pane, the timeline or the Key panel), follow the language, and can all be dismissed', async () => {
    const { page } = suite.app;
    await openFresh(page, WALK);
    // The "Opened" success notice fades on its own.
    await page.waitForSelector('[data-testid="notifications"] [data-kind="success"]', { state: 'detached', timeout: 10_000 });
    // Two errors: files that do not exist.
    for (const name of ['missing-one.vmd', 'missing-two.vmd']) {
      await page.click('[data-testid="cmd-open"]');
      await fileDialogReady(page);
      await page.fill('[data-testid="file-dialog-path"]', path.join(suite.tmp.dir, name));
      await page.click('[data-testid="file-dialog-go"]');
      await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    }
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="notifications"] [data-kind="error"]').length === 2);
    const errs = page.locator('[data-testid="notifications"] [data-kind="error"]');
    expect(await errs.last().textContent()).toContain('missing-two.vmd: no such file or folder');
    for (const size of [{ width: 1600, height: 900 }, { width: 1366, height: 768 }, { width: 1920, height: 1080 }]) {
      await page.setViewportSize(size);
      await animationFrames(page, 1);
      await animationFrames(page, 1);
      const notices = await boxOf(page, '[data-testid="notifications"] .notice');
      expect(notices).toHaveLength(2);
      for (const avoid of ['[data-testid="curve-editor"]', '[data-testid="timeline-canvas"]', '[data-testid="track-list"]', '[data-testid="key-inspector"]']) {
        const [pane] = await boxOf(page, avoid);
        for (const n of notices) expect(overlaps(n, pane), `${size.width}×${size.height}: a notice over ${avoid}: ${JSON.stringify({ n, pane })}`).toBe(false);
      }
      for (const n of notices) expect(n.right - n.left, 'a readable width').toBeGreaterThan(140);
    }
    await page.setViewportSize({ width: 1600, height: 900 });
    await animationFrames(page, 1);
    await suite.app.screenshot('notices-corner-en');
    // The same notices in Japanese after the switch.
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="notifications"]')?.textContent?.includes('ファイルが見つかりません'));
    expect(await errs.last().textContent()).toContain('missing-two.vmd: ファイルが見つかりません');
    expect(await page.textContent('[data-testid="notify-dismiss-all"]')).toBe('すべて閉じる');
    await suite.app.screenshot('notices-corner-ja');
    // Errors stay (no timeout) until "Dismiss all".
    await page.waitForTimeout(4500);
    expect(await errs.count()).toBe(2);
    await page.click('[data-testid="notify-dismiss-all"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="notifications"] .notice').length === 0);
    await page.selectOption('[data-testid="locale"]', 'en');
  });

  it('the save dialog says in words why a folder cannot be listed, in both languages; a file path selects the file', async () => {
    const { page } = suite.app;
    await openFresh(page, WALK);
    const through = path.join(WALK, 'inside'), none = path.join(suite.tmp.dir, 'no-such-folder');
    const typePath = async (p: string) => {
      await page.fill('[data-testid="file-dialog-path"]', p);
      await page.click('[data-testid="file-dialog-go"]');
    };
    const errorSays = async (text: string) => {
      await page.waitForFunction((t) => document.querySelector('[data-testid="file-dialog-error"]')?.textContent === t, text);
    };
    for (const locale of ['en', 'ja'] as const) {
      await page.selectOption('[data-testid="locale"]', locale);
      await page.click('[data-testid="cmd-save-as"]');
      await fileDialogReady(page);
      await typePath(through);
      await errorSays(locale === 'en' ? `${through} is not a folder (a part of the path is a file)` : `${through} はフォルダではありません（パスの途中がファイルです）`);
      expect(await page.textContent('[data-testid="file-dialog-error"]')).not.toMatch(/ENOTDIR/);
      // A folder that is not there yet is one to make on Save (the green note alone, not a red error).
      await typePath(none);
      await page.waitForFunction(
        (t) => document.querySelector('[data-testid="file-dialog-new-folder"]')?.textContent === t,
        locale === 'en' ? `New folder: ${none} (made when you save)` : `新しいフォルダ: ${none}（保存するときに作ります）`,
      );
      expect(await page.isVisible('[data-testid="file-dialog-error"]')).toBe(false);
      if (locale === 'ja') await suite.app.screenshot('file-dialog-error-ja');
      // An existing file's path: its folder listed, the file selected and named, and Replace asked.
      await typePath(WALK);
      await page.waitForSelector('[data-testid="file-dialog-confirm"]');
      expect(await page.inputValue('[data-testid="file-dialog-path"]')).toBe(path.dirname(WALK));
      expect(await page.inputValue('[data-testid="file-dialog-name"]')).toBe('walk.vmd');
      expect(await page.isVisible('[data-testid="file-dialog-error"]')).toBe(false);
      await page.click('[data-testid="file-dialog-cancel"]');
      await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    }
    await page.selectOption('[data-testid="locale"]', 'en');
    expect(suite.app.errors).toEqual([]);
  });
});
