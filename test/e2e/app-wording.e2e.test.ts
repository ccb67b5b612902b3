/**
 * What the app says where the command line's wording or a count was missing, end to end in Chromium (browser
 * mode), in English and Japanese, with a screenshot of each (test-artifacts/app-wording-*.png, 1600×900):
 * - F1: the 3D preview group, which lists keys (T, C, P, K…) besides the mouse, is not titled "(mouse)".
 * - Batch with "Include sub-folders" off: how many files of sub-folders were left out (the engine's count).
 * - Export → BVH of a motion with a key at frame 2,000,000: the refusal says to trim the motion in the app,
 *   not the command line's "give --from and --to".
 * - The capture import dialog: the import's own warning (the model's name longer than the VMD header's 20
 *   bytes) under the reader's notes, as import-bvh prints it.
 * The tests run in order on the app the first one opens (run the file, not one test of it).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, dismissNotices, fileDialogReady, notice, openFileViaDialog, openThroughDialog, saveThroughDialog, textOf } from './harness';
import { BONE, readVmd, writeVmd } from '../../shared/vmd';
import { copyWritable } from '../helpers/corpus';

const LONG = 300_000;
const LAUGH = corpusPath('gene/motion/02_laugh.vmd');
const WALK = corpusPath('bvh11/resources/131_01.bvh');

/** The UI's language; each test then waits for the text it reads in it. */
const setLocale = (page: Page, locale: 'en' | 'ja') => page.selectOption('[data-testid="locale"]', locale);


/** A screenshot once the page's transitions (a notice sliding in) have ended. */
async function settledShot(page: Page, shot: () => Promise<string>): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity));
  await shot();
}

/**
 * Gene_light.pmx with its model name replaced by `name` (the PMX header: "PMX ", version, the globals' count
 * and the globals, the first of them the text encoding, 0 UTF-16LE or 1 UTF-8; then the name's byte length
 * and bytes).
 */
function geneRenamed(name: string): Uint8Array {
  const src = new Uint8Array(readFileSync(corpusPath('gene/Gene_light.pmx')));
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const globals = src[8];
  const utf8 = src[9] === 1;
  const at = 9 + globals;
  const oldLength = view.getInt32(at, true);
  const encoded = utf8 ? new TextEncoder().encode(name) : new Uint8Array(Buffer.from(name, 'utf16le'));
  const out = new Uint8Array(src.length - oldLength + encoded.length);
  out.set(src.subarray(0, at), 0);
  new DataView(out.buffer).setInt32(at, encoded.length, true);
  out.set(encoded, at + 4);
  out.set(src.subarray(at + 4 + oldLength), at + 4 + encoded.length);
  return out;
}

describe('the app says it in its own terms', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 900 } });

  it('F1: the 3D preview group says it holds keys too; the timeline group, all mouse, stays "(mouse)"', async () => {
    const { page } = s.app;
    const title = (g: string) => page.textContent(`[data-testid="shortcuts-dialog"] [data-group="${g}"] h3`);
    await page.keyboard.press('F1');
    await page.waitForSelector('[data-testid="shortcuts-dialog"]');
    expect(await title('shortcuts.group.preview')).toBe('3D preview (mouse and keys)');
    expect(await title('shortcuts.group.timeline')).toBe('Timeline (mouse)');
    // The group lists keys: T among them.
    expect(await page.locator('[data-testid="shortcuts-dialog"] [data-row="shortcuts.togglePoseMode"] kbd').allTextContents()).toEqual(['T']);
    await page.locator('[data-testid="shortcuts-dialog"] [data-group="shortcuts.group.preview"]').scrollIntoViewIfNeeded();
    await s.app.screenshot('app-wording-shortcuts');
    await page.click('[data-testid="shortcuts-close"]');
    await page.waitForSelector('[data-testid="shortcuts-dialog"]', { state: 'detached' });
    await setLocale(page, 'ja');
    await page.click('[data-testid="cmd-shortcuts"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="shortcuts-dialog"] header')?.textContent === 'キーボードとマウス');
    expect(await title('shortcuts.group.preview')).toBe('3D プレビュー（マウスとキー）');
    await page.locator('[data-testid="shortcuts-dialog"] [data-group="shortcuts.group.preview"]').scrollIntoViewIfNeeded();
    await s.app.screenshot('app-wording-shortcuts-ja');
    await page.click('[data-testid="shortcuts-close"]');
    await page.waitForSelector('[data-testid="shortcuts-dialog"]', { state: 'detached' });
    await setLocale(page, 'en');
    expect(s.app.errors).toEqual([]);
  }, LONG);

  it('Batch with "Include sub-folders" off says how many files of sub-folders it left out', async () => {
    const { page } = s.app;
    const input = path.join(s.tmp.dir, 'batch-in'), output = path.join(s.tmp.dir, 'batch-out');
    mkdirSync(path.join(input, 'sub', 'deeper'), { recursive: true });
    copyWritable(LAUGH, path.join(input, 'top.vmd'));
    copyWritable(LAUGH, path.join(input, 'sub', 'a.vmd'));
    copyWritable(LAUGH, path.join(input, 'sub', 'deeper', 'b.vmd'));
    await page.click('[data-testid="cmd-batch"]');
    await page.selectOption('[data-testid="batch-op"]', 'mirror');
    await page.fill('[data-testid="batch-input"]', input);
    await page.fill('[data-testid="batch-output"]', output);
    await page.uncheck('[data-testid="batch-recursive"]');
    await page.click('[data-testid="batch-start"]');
    await page.waitForSelector('[data-testid="batch-summary"]', { timeout: LONG });
    expect(await textOf(page, 'batch-summary')).toBe('Done: 1 ok, 0 failed, 0 skipped');
    expect(await textOf(page, 'batch-in-subfolders')).toBe('2 files in sub-folders were not included: turn on “Include sub-folders” to take them');
    await s.app.screenshot('app-wording-batch-subfolders');
    await setLocale(page, 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="batch-in-subfolders"]')?.textContent?.includes('サブフォルダ'));
    expect(await textOf(page, 'batch-in-subfolders')).toBe('サブフォルダ内のファイル 2 件は含まれていません。含めるには「サブフォルダも含める」をオンにしてください');
    await s.app.screenshot('app-wording-batch-subfolders-ja');
    await setLocale(page, 'en');
    // With sub-folders included, all three are taken and nothing is said.
    await page.check('[data-testid="batch-recursive"]');
    await page.fill('[data-testid="batch-output"]', `${output}-all`);
    await page.click('[data-testid="batch-start"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="batch-summary"]')?.textContent?.includes('3 ok'), null, { timeout: LONG });
    expect(await page.locator('[data-testid="batch-in-subfolders"]').count()).toBe(0);
    await page.click('[data-testid="batch-close"]');
    expect(s.app.errors).toEqual([]);
  }, LONG);

  it('Export → BVH of a motion with a key far past the rest: the refusal says to trim the motion, not --from/--to', async () => {
    const { page } = s.app;
    // 02_laugh with its last bone key moved to frame 2,000,000 (past the 1,000,000 frames a track is sampled over).
    const src = readVmd(new Uint8Array(readFileSync(LAUGH)));
    if (!src.ok) throw new Error(src.error.message);
    const bytes = src.value.bone.bytes.slice();
    new DataView(bytes.buffer).setUint32((src.value.bone.count - 1) * BONE.SIZE + BONE.FRAME, 2_000_000, true);
    const far = path.join(s.tmp.dir, 'far.vmd');
    writeFileSync(far, writeVmd({ ...src.value, bone: { ...src.value.bone, bytes, view: new DataView(bytes.buffer) } }));
    await openFileViaDialog(page, far);
    await dismissNotices(page);
    await saveThroughDialog(page, ['cmd-export', 'cmd-export-bvh'], s.tmp.dir, 'far-out');
    const line = await notice(page, 'trim the motion first', 60_000);
    expect(line).toContain('The keys run from frame 0 to 2,000,000, more frames than this works through frame by frame (a key far past the rest?): trim the motion first (Edit → Whole Motion…, Trim frame range)');
    const all = await page.textContent('[data-testid="notifications"]');
    expect(all).not.toContain('--from');
    expect(all).toContain('E_SPAN');
    await settledShot(page, () => s.app.screenshot('app-wording-span'));
    await setLocale(page, 'ja');
    await notice(page, '先にモーションを切り詰めてください');
    expect(await page.textContent('[data-testid="notifications"]')).not.toContain('--from');
    await settledShot(page, () => s.app.screenshot('app-wording-span-ja'));
    await setLocale(page, 'en');
    await dismissNotices(page);
    expect(s.app.errors).toEqual([]);
  }, LONG);

  it('the capture import dialog shows the import\'s own warning: the model\'s name cut to the VMD header', async () => {
    const { page } = s.app;
    // 24 bytes in Shift_JIS (ASCII): the header's 20 keep "GeneLightRenamedForA".
    const model = path.join(s.tmp.dir, 'gene-renamed.pmx');
    writeFileSync(model, geneRenamed('GeneLightRenamedForATest'));
    await openThroughDialog(page, ['cmd-open'], WALK);
    await page.waitForSelector('[data-testid="mocap-dialog"]');
    await page.click('[data-testid="mocap-choose-model"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', model);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="mocap-model"]')?.textContent === 'gene-renamed.pmx', null, { timeout: LONG });
    // The conversion onto it has come (the one onto the figure shown before it has no note).
    await page.waitForSelector('[data-testid="mocap-dialog"][data-ready="true"] [data-testid="mocap-report-note"]', { timeout: LONG });
    const notes = () => page.locator('[data-testid="mocap-report-note"]').allTextContents();
    expect(await notes()).toEqual(['The model’s name “GeneLightRenamedForATest” is 24 bytes in Shift_JIS, more than the 20 a VMD’s header holds: written as “GeneLightRenamedForA”']);
    await s.app.screenshot('app-wording-mocap-note');
    await setLocale(page, 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="mocap-report-note"]')?.textContent?.startsWith('モデル名'));
    expect(await notes()).toEqual(['モデル名「GeneLightRenamedForATest」は Shift_JIS で 24 バイトあり、VMD のヘッダーに入る 20 バイトを超えるため「GeneLightRenamedForA」として書き込みます']);
    await s.app.screenshot('app-wording-mocap-note-ja');
    await setLocale(page, 'en');
    expect(s.app.errors).toEqual([]);
  }, LONG);
});
