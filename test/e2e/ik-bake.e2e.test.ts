// Whole Motion → Bake IK to FK… on the low-poly Miku (opened in the preview) dancing wavefile_v2.vmd: every IK bone
// of the model listed and ticked, Legs only, frames 100–200, Bake in the worker, the figures before Apply (English
// and Japanese, screenshots of both), Apply as one undo step whose bytes are what `vmd-studio ik-bake` (its own
// process) writes for the same choices; read back, 左足ＩＫ is off over 100–200 (the CLI's `sample --json`) and 左ひざ
// has rotation keys there; the preview puts the left ankle where it was with the IK on (within 0.05 units); Ctrl+Z
// gives the original bytes back; Ctrl+Shift+K opens the dialog again, and F1 lists that key. Before Apply, the plot
// draws a baked link (左足ＩＫ's first, 左ひざ) before and after with one sample per column and a mark per kept key (the
// applied 左ひざ keys inside the range, counted from the bytes), another link when picked from the list, and the curve
// pane overlays the result; Apply, and Close of a second bake, take the overlay away.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, openFileViaDialog, ROOT, showModelThroughDialog, textOf } from './harness';
import { seekPreview } from './editor-page';
import { BONE, decodeName, readVmd } from '../../shared/vmd';

const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
const DANCE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const LEGS = ['左足ＩＫ', '右足ＩＫ', '左つま先ＩＫ', '右つま先ＩＫ'];

function cli(args: string[]): string {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'electron/cli/vmd-studio.mjs'), ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`vmd-studio ${args[0]} failed: ${r.stderr}`);
  return r.stdout;
}

describe('Bake IK to FK in the editor', () => {
  const suite = appForSuite();

  it('Legs only over 100–200: the CLI’s bytes, IK off and knee keys, the ankle where the IK put it; one undo step back to the original bytes', async () => {
    const { page } = suite.app;
    const original = readFileSync(DANCE);
    const docBytes = async () => Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64');
    await openFileViaDialog(page, DANCE);
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);
    await showModelThroughDialog(page, MIKU, 'ローポリ初音さん');

    // The left ankle at frame 150 with the IK on, as the preview poses it.
    await seekPreview(page, 150);
    const before = (await page.evaluate(() => window.__vmdPreview!.boneWorldPosition('左足首')))!;
    expect(before).not.toBeNull();

    await page.click('[data-testid="whole-motion"]');
    await page.click('[data-testid="whole-bake-ik"]');
    await page.waitForSelector('[data-testid="ik-bake-dialog"]');
    expect(await textOf(page, 'ik-bake-model')).toBe('miku.pmd');
    const boxes = () => page.$$eval('[data-testid="ik-bake-bones"] input', (els) => els.map((e) => `${(e as HTMLInputElement).dataset.bone}${(e as HTMLInputElement).checked ? ' ✓' : ''}`));
    // Every IK bone of the model (as `vmd-studio ik-bake --bones nope` lists them), all on in the dance: all ticked.
    expect(await boxes()).toEqual(['ﾈｸﾀｲＩＫ ✓', '左髪ＩＫ ✓', '右髪ＩＫ ✓', '左足ＩＫ ✓', '右足ＩＫ ✓', '左つま先ＩＫ ✓', '右つま先ＩＫ ✓']);
    await page.click('[data-testid="ik-bake-legs"]');
    expect(await boxes()).toEqual(['ﾈｸﾀｲＩＫ', '左髪ＩＫ', '右髪ＩＫ', '左足ＩＫ ✓', '右足ＩＫ ✓', '左つま先ＩＫ ✓', '右つま先ＩＫ ✓']);
    await page.fill('[data-testid="ik-bake-from"]', '100');
    await page.fill('[data-testid="ik-bake-to"]', '200');
    await page.click('[data-testid="ik-bake-start"]');
    await page.waitForSelector('[data-testid="ik-bake-summary"]', { timeout: 180_000 });
    expect(await textOf(page, 'ik-bake-ik')).toBe(`IK off over frames 100–200: ${LEGS.join(', ')}`);
    const keys = await textOf(page, 'ik-bake-keys');
    const km = /^Keys: ([\d,]+) at one per frame → ([\d,]+) kept \(([\d.]+)%\), ([\d,]+) replaced$/.exec(keys);
    expect(km, keys).not.toBeNull();
    const err = await textOf(page, 'ik-bake-err');
    const em = /^Largest error, played with the IK off against the IK on: ([\d.e-]+) units, ([\d.e-]+)°/.exec(err);
    expect(em, err).not.toBeNull();
    expect(Number(em![2])).toBeLessThanOrEqual(0.1);
    // The plot: 左足ＩＫ's first link (the PMD lists 左ひざ, then 左足), one sample per CSS px of the canvas, a mark per kept key.
    const plot = () => page.$eval('[data-testid="ik-bake-plot"]', (el) => ({ drawn: (el as HTMLCanvasElement).dataset.drawn, points: Number((el as HTMLCanvasElement).dataset.points), keys: Number((el as HTMLCanvasElement).dataset.keys), width: Math.floor(el.getBoundingClientRect().width) }));
    await page.waitForFunction(() => !!document.querySelector<HTMLCanvasElement>('[data-testid="ik-bake-plot"]')?.dataset.drawn);
    const kneePlot = await plot();
    expect(kneePlot.drawn).toBe('左ひざ');
    expect(kneePlot.points).toBe(kneePlot.width);
    expect(kneePlot.points).toBeGreaterThan(100);
    expect(await textOf(page, 'ik-bake-plot-caption')).toBe('左ひざ · Rotation: the IK’s pose frame by frame (grey) and the baked keys played (orange; ■ a key kept)');
    expect(await textOf(page, 'ik-bake-plot-from')).toBe('frame 100');
    expect(await textOf(page, 'ik-bake-plot-to')).toBe('frame 200');
    // The list: the keyed links, as the figures name them.
    const keyed = (await textOf(page, 'ik-bake-keyed')).replace(/^[^:]*: /, '').split(', ');
    expect(await page.$$eval('[data-testid="ik-bake-plot-bone"] option', (els) => els.map((e) => e.textContent))).toEqual(keyed);
    // The curve pane behind overlays the result (the fit-preview store's).
    const fitSeries = () => page.evaluate(() => document.querySelector('[data-testid="curve-canvas"]')?.getAttribute('data-fit-series'));
    expect(await fitSeries()).toBe('2');
    await suite.app.screenshot('ik-bake-done');
    // Another link from the list.
    await page.selectOption('[data-testid="ik-bake-plot-bone"]', '右足');
    await page.waitForFunction(() => document.querySelector<HTMLCanvasElement>('[data-testid="ik-bake-plot"]')?.dataset.drawn === '右足');
    expect(await textOf(page, 'ik-bake-plot-caption')).toMatch(/^右足 · Rotation: /);
    await page.selectOption('[data-testid="ik-bake-plot-bone"]', '左ひざ');
    await page.waitForFunction(() => document.querySelector<HTMLCanvasElement>('[data-testid="ik-bake-plot"]')?.dataset.drawn === '左ひざ');
    await page.selectOption('[data-testid="locale"]', 'ja');
    expect(await textOf(page, 'ik-bake-ik')).toBe(`100–200 フレームで IK を OFF: ${LEGS.join(', ')}`);
    expect(await textOf(page, 'ik-bake-plot-caption')).toBe('左ひざ・回転：IK の姿勢（毎フレーム、灰色）と焼き込んだキーの再生（橙色、■ は残したキー）');
    expect(await textOf(page, 'ik-bake-plot-from')).toBe('100 フレーム');
    expect(await page.textContent('[data-testid="ik-bake-dialog"]')).toContain('IKをFKに焼き込み: wavefile_v2.vmd');
    await suite.app.screenshot('ik-bake-done-ja');
    await page.selectOption('[data-testid="locale"]', 'en');
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(0);

    // Apply: one undo step; the document is the CLI's IK bake of the same files and choices, byte for byte.
    await page.click('[data-testid="ik-bake-apply"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    await page.waitForSelector('[data-testid="ik-bake-dialog"]', { state: 'detached' });
    // The overlay went with Apply.
    await page.waitForFunction(() => document.querySelector('[data-testid="curve-canvas"]')?.getAttribute('data-fit-series') === '0');
    const baked = await docBytes();
    const cliOut = path.join(suite.tmp.dir, 'cli-ik.vmd');
    cli(['ik-bake', MIKU, DANCE, '-o', cliOut, '--from', '100', '--to', '200', '--bones', LEGS.join(','), '--quiet']);
    expect(baked.equals(readFileSync(cliOut))).toBe(true);
    expect(baked.equals(original)).toBe(false);

    // Read back: IK off at 100, 150 and 200 (the CLI's sample), on again at 201; 左ひざ keyed (rotation) inside the range.
    const saved = path.join(suite.tmp.dir, 'app-ik.vmd');
    writeFileSync(saved, baked);
    const ikOffAt = (f: number) => (JSON.parse(cli(['sample', saved, '--frame', String(f), '--json'])) as { ikOff?: string[] }).ikOff ?? [];
    for (const f of [100, 150, 200]) expect(ikOffAt(f), `frame ${f}`).toEqual(expect.arrayContaining(['左足ＩＫ']));
    expect(ikOffAt(201)).not.toContain('左足ＩＫ');
    const doc = readVmd(baked);
    if (!doc.ok) throw new Error(doc.error.message);
    const knee: number[][] = [];
    for (let i = 0; i < doc.value.bone.count; i++) {
      const o = i * BONE.SIZE;
      const f = doc.value.bone.view.getUint32(o + BONE.FRAME, true);
      if (f < 100 || f > 200 || decodeName(doc.value.bone.bytes, o, BONE.NAME_LENGTH) !== '左ひざ') continue;
      knee.push([0, 1, 2, 3].map((c) => doc.value.bone.view.getFloat32(o + BONE.ROTATION + 4 * c, true)));
    }
    expect(knee.length).toBeGreaterThan(1);
    // The plot marked each of them (the kept keys of 左ひざ inside the range).
    expect(kneePlot.keys).toBe(knee.length);
    // A bent knee: some key turns it away from its rest.
    expect(knee.some((q) => Math.abs(q[3]) < 0.999)).toBe(true);

    // The preview, played with the IK off, puts the ankle where the IK put it (seek away and back: posed afresh).
    await seekPreview(page, 149);
    await seekPreview(page, 150);
    const after = (await page.evaluate(() => window.__vmdPreview!.boneWorldPosition('左足首')))!;
    const dist = Math.hypot(after[0] - before[0], after[1] - before[1], after[2] - before[2]);
    expect(dist, `ankle moved ${dist}`).toBeLessThanOrEqual(0.05);

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);
    expect((await docBytes()).equals(original)).toBe(true);

    // Ctrl+Shift+K opens it again (the same choices); a second bake overlays the curve pane again, and Close takes
    // the overlay away with the result. Esc closes it. F1 lists the key beside the command's place.
    await page.keyboard.press('Control+Shift+K');
    await page.waitForSelector('[data-testid="ik-bake-dialog"]');
    await page.click('[data-testid="ik-bake-start"]');
    await page.waitForSelector('[data-testid="ik-bake-summary"]', { timeout: 180_000 });
    expect(await fitSeries()).toBe('2');
    await page.click('[data-testid="ik-bake-close"]');
    await page.waitForSelector('[data-testid="ik-bake-dialog"]', { state: 'detached' });
    await page.waitForFunction(() => document.querySelector('[data-testid="curve-canvas"]')?.getAttribute('data-fit-series') === '0');
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(0);
    await page.keyboard.press('Control+Shift+K');
    await page.waitForSelector('[data-testid="ik-bake-dialog"]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="ik-bake-dialog"]', { state: 'detached' });
    await page.keyboard.press('F1');
    await page.waitForSelector('[data-testid="shortcuts-dialog"]');
    const row = await page.$eval('[data-row="shortcuts.bakeIk"]', (el) => [...el.querySelectorAll('kbd')].map((k) => k.textContent).join('+') + ' ' + el.querySelector('.what')!.textContent);
    expect(row).toBe('Ctrl+Shift+K Whole Motion → Bake IK to FK…');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="shortcuts-dialog"]', { state: 'detached' });
    expect(suite.app.errors).toEqual([]);
  });
});
