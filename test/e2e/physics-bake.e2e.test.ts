// Whole Motion → Bake physics… on the low-poly Miku (opened in the preview) dancing wavefile_v2.vmd: the dialog
// names the model, Cancel stops a running bake (nothing changes), Enter bakes frames 0–90 in the bake worker and
// the figures wait before Apply (bones, raw → kept keys, the largest error, IK off, names too long), in English
// and Japanese; Apply is one undo step whose document is byte for byte what `vmd-studio physics-bake` writes for
// the same files, run here as its own process (played with physics off it shows the simulation: bake.test.ts);
// undo gives the original bytes back. Then the Batch dialog's physics-bake op (shown through the op table) runs
// a folder of one motion onto the model and writes what the CLI writes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, clickWhileThere, corpusPath, openFileViaDialog, ROOT, showModelThroughDialog, textOf } from './harness';
import { copyWritable } from '../helpers/corpus';

const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
const DANCE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const WALK = corpusPath('mc-mmd-rust/default_anim/walk.vmd');

/** `vmd-studio physics-bake` (the CLI, its own process) on the same files: the expected bytes. */
function cliBake(dir: string, motion: string, args: string[]): Buffer {
  const out = path.join(dir, `cli-${path.basename(motion)}`);
  const r = spawnSync(process.execPath, [path.join(ROOT, 'electron/cli/vmd-studio.mjs'), 'physics-bake', MIKU, motion, '-o', out, '--overwrite', '--quiet', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`vmd-studio physics-bake failed: ${r.stderr}`);
  return readFileSync(out);
}

describe('Bake physics in the editor', () => {
  const suite = appForSuite();

  it('bakes the active actor’s model and motion in the worker, shows the figures, applies as one undo step equal to the CLI’s bake, undoes to the original bytes', async () => {
    const { page } = suite.app;
    const original = readFileSync(DANCE);
    const docBytes = async () => Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64');
    await openFileViaDialog(page, DANCE);
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);
    // The model in the preview: the active actor's.
    await showModelThroughDialog(page, MIKU, 'ローポリ初音さん');

    // Whole Motion → Bake physics…
    await page.click('[data-testid="whole-motion"]');
    await page.click('[data-testid="whole-bake-physics"]');
    await page.waitForSelector('[data-testid="bake-dialog"]');
    expect(await page.isVisible('[data-testid="batch-dialog"]')).toBe(false);
    expect(await textOf(page, 'bake-model')).toBe('miku.pmd');
    expect(await page.isVisible('[data-testid="bake-no-model"]')).toBe(false);

    // Cancel: the whole dance (2,810 frames) is started and stopped while it runs; nothing changes.
    const startBake = async () => {
      await page.click('[data-testid="bake-start"]');
      await page.waitForSelector('[data-testid="bake-progress"]');
      await page.waitForFunction(() => Number(document.querySelector('[data-testid="bake-progress"]')?.getAttribute('data-done') ?? 0) > 0, undefined, { timeout: 120_000 });
    };
    await startBake();
    await suite.app.screenshot('bake-running');
    // Cancel must find the bake running: if it finished during the screenshot (a loaded machine), again.
    if (!(await page.$('[data-testid="bake-progress"]'))) await startBake();
    expect(await clickWhileThere(page, '[data-testid="bake-progress"]', '[data-testid="bake-cancel"]')).toBe(true);
    await page.waitForSelector('[data-testid="bake-progress"]', { state: 'detached' });
    expect(await page.$('[data-testid="bake-summary"]')).toBeNull();
    expect(await page.isDisabled('[data-testid="bake-apply"]')).toBe(true);
    expect(await page.textContent('[data-testid="notifications"]')).toContain('Bake cancelled');
    // The dialog says so too (it went back to idle saying nothing).
    expect(await textOf(page, 'bake-cancelled')).toBe('Bake cancelled: the motion is as it was');
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(0);

    // A bad range is refused inline; then frames 0–90, baked with Enter from the field.
    await page.fill('[data-testid="bake-from"]', '50');
    await page.fill('[data-testid="bake-to"]', '40');
    expect(await textOf(page, 'bake-error-to')).toBe('To must not be before From');
    expect(await page.isDisabled('[data-testid="bake-start"]')).toBe(true);
    await page.fill('[data-testid="bake-from"]', '');
    await page.fill('[data-testid="bake-to"]', '90');
    await page.focus('[data-testid="bake-to"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="bake-summary"]', { timeout: 180_000 });
    expect(await textOf(page, 'bake-bones')).toBe('Bones baked: 25');
    const keys = await textOf(page, 'bake-keys');
    const km = /^Keys: 2,275 at one per frame → ([\d,]+) kept \(([\d.]+)%\), ([\d,]+) replaced$/.exec(keys);
    expect(km, keys).not.toBeNull();
    const err = await textOf(page, 'bake-error');
    const em = /^Largest error, played with physics off against the simulation: ([\d.e-]+) units, ([\d.e-]+)°/.exec(err);
    expect(em, err).not.toBeNull();
    expect(Number(em![1])).toBeLessThanOrEqual(0.01);
    expect(Number(em![2])).toBeLessThanOrEqual(0.1);
    expect(await textOf(page, 'bake-ik')).toBe('IK off over frames 0–90: ﾈｸﾀｲＩＫ, 左髪ＩＫ, 右髪ＩＫ');
    expect(await textOf(page, 'bake-too-long')).toBe('Names too long for a VMD (not baked): none');
    // The plot draws a baked bone's rotation, before and after.
    await page.waitForFunction(() => !!document.querySelector<HTMLCanvasElement>('[data-testid="bake-plot"]')?.dataset.drawn);
    expect(await page.textContent('[data-testid="bake-plot-caption"]')).toMatch(/^\S+ \(the baked bone that moves most\) · Rotation: the original \(grey\) and the result \(orange\)$/);
    // The curve pane behind overlays the motion before and after (the fit-preview store's result).
    expect(await page.evaluate(() => document.querySelector('[data-testid="curve-canvas"]')?.getAttribute('data-fit-series'))).toBe('2');
    await suite.app.screenshot('bake-done');
    await page.selectOption('[data-testid="locale"]', 'ja');
    expect(await textOf(page, 'bake-bones')).toBe('焼き込んだボーン: 25');
    expect(await textOf(page, 'bake-ik')).toContain('IK を OFF');
    await suite.app.screenshot('bake-done-ja');
    await page.selectOption('[data-testid="locale"]', 'en');
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(0);

    // Apply: one undo step; the document is the Node bake of the same files, byte for byte.
    await page.click('[data-testid="bake-apply"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    await page.waitForSelector('[data-testid="bake-dialog"]', { state: 'detached' });
    expect(await page.textContent('[data-testid="notifications"]')).toContain(`Physics baked into wavefile_v2.vmd: ${km![1]} keys for 25 bones`);
    const expected = cliBake(suite.tmp.dir, DANCE, ['--to', '90']);
    const baked = await docBytes();
    expect(baked.length).toBe(expected.length);
    expect(baked.equals(expected)).toBe(true);
    expect(baked.equals(original)).toBe(false);
    // The overlay went with Apply.
    await page.waitForFunction(() => document.querySelector('[data-testid="curve-canvas"]')?.getAttribute('data-fit-series') === '0');
    // With physics on, the preview's physics line says the baked bones play their keys (物理OFF); after Undo it
    // says nothing of it (before, it read the same either way and the Physics switch seemed to do nothing).
    const physicsLine = () => document.querySelector('[data-testid="preview-physics-state"]')?.textContent ?? '';
    await page.check('[data-testid="preview-physics"]');
    await page.locator('[data-testid="preview-scrub"]').fill('45');
    await page.waitForFunction((f) => (document.querySelector('[data-testid="preview-physics-state"]')?.textContent ?? '') === f, 'Physics: on (44 rigid bodies, 27 joints) · 25 bones follow their keys', { timeout: 60_000 }).catch(async () => {
      throw new Error(`physics line: ${await page.evaluate(physicsLine)}`);
    });
    expect(await page.getAttribute('[data-testid="preview-physics-state"]', 'title')).toContain('25 bones follow their keys (physics off in the motion)');
    await suite.app.screenshot('bake-applied-physics-line');

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);
    expect((await docBytes()).equals(original)).toBe(true);
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-physics-state"]')?.textContent === 'Physics: on (44 rigid bodies, 27 joints)');
    await page.uncheck('[data-testid="preview-physics"]');
    // Ctrl+Shift+B opens it again; Esc closes it.
    await page.keyboard.press('Control+Shift+B');
    await page.waitForSelector('[data-testid="bake-dialog"]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="bake-dialog"]', { state: 'detached' });
    expect(suite.app.errors).toEqual([]);
  });

  it('Enter bakes, then the second Enter applies: the result gives the focus to Apply (the disabled form had dropped it to <body>)', async () => {
    const { page } = suite.app;
    // The first test left the dance open (undone to its bytes) and the model in the preview.
    const undoBefore = await page.evaluate(() => window.__vmdEditor!.history().undo);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+Shift+B');
    await page.waitForSelector('[data-testid="bake-dialog"]');
    // A range from 10: simulated from frame 0 (the warm-up field empty), and the figures say so.
    await page.fill('[data-testid="bake-from"]', '10');
    await page.fill('[data-testid="bake-to"]', '20');
    await page.focus('[data-testid="bake-from"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="bake-summary"]', { timeout: 180_000 });
    expect(await textOf(page, 'bake-simulated')).toBe('Simulated from frame 0, as the motion plays from the start; keys written over 10–20. After 20 the bones are simulated live again');
    await suite.app.screenshot('bake-warmup-done');
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('[data-testid="bake-apply"]')?.disabled);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName)).toBe('bake-apply');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="bake-dialog"]', { state: 'detached' });
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(undoBefore + 1);
    expect(await page.textContent('[data-testid="notifications"]')).toContain('Physics baked into wavefile_v2.vmd');
    await page.keyboard.press('Control+z');
    await page.waitForFunction((n) => window.__vmdEditor!.history().undo === n, undoBefore);
    expect(suite.app.errors).toEqual([]);
  });

  it('the Batch dialog lists physics-bake from the op table and runs it on a folder: the CLI’s bytes', async () => {
    const { page } = suite.app;
    const input = path.join(suite.tmp.dir, 'bake-in');
    const output = path.join(suite.tmp.dir, 'bake-out');
    mkdirSync(input);
    copyWritable(WALK, path.join(input, 'walk.vmd'));
    await page.click('[data-testid="cmd-batch"]');
    await page.click('[data-testid="batch-target-folder"]');
    const ops = await page.$$eval('[data-testid="batch-op"] option', (o) => o.map((x) => (x as HTMLOptionElement).value));
    expect(ops).toContain('physics-bake');
    await page.selectOption('[data-testid="batch-op"]', 'physics-bake');
    await page.fill('[data-testid="batch-input"]', input);
    await page.fill('[data-testid="batch-output"]', output);
    expect(await page.isDisabled('[data-testid="batch-start"]')).toBe(true); // the model is required
    await page.fill('[data-testid="batch-opt-model"]', MIKU);
    await suite.app.screenshot('bake-batch-form');
    await page.click('[data-testid="batch-start"]');
    await page.waitForSelector('[data-testid="batch-summary"]', { timeout: 180_000 });
    expect(await textOf(page, 'batch-summary')).toBe('Done: 1 ok, 0 failed, 0 skipped');
    const written = readFileSync(path.join(output, 'walk.vmd'));
    expect(written.equals(cliBake(suite.tmp.dir, WALK, []))).toBe(true);
    await suite.app.screenshot('bake-batch-done');
    await page.click('[data-testid="batch-close"]');
    expect(suite.app.errors).toEqual([]);
  });
});
