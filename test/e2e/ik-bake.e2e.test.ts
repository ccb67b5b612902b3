// Whole Motion → Bake IK to FK… on the low-poly Miku (opened in the preview) dancing wavefile_v2.vmd: every IK bone
// of the model listed and ticked, Legs only, frames 100–200, Bake in the worker, the figures before Apply (English
// and Japanese, screenshots of both), Apply as one undo step whose bytes are what `vmd-studio ik-bake` (its own
// process) writes for the same choices; read back, 左足ＩＫ is off over 100–200 (the CLI's `sample --json`) and 左ひざ
// has rotation keys there; the preview puts the left ankle where it was with the IK on (within 0.05 units); Ctrl+Z
// gives the original bytes back.
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
    await suite.app.screenshot('ik-bake-done');
    await page.selectOption('[data-testid="locale"]', 'ja');
    expect(await textOf(page, 'ik-bake-ik')).toBe(`100–200 フレームで IK を OFF: ${LEGS.join(', ')}`);
    expect(await page.textContent('[data-testid="ik-bake-dialog"]')).toContain('IKをFKに焼き込み: wavefile_v2.vmd');
    await suite.app.screenshot('ik-bake-done-ja');
    await page.selectOption('[data-testid="locale"]', 'en');
    expect(await page.evaluate(() => window.__vmdEditor!.history().undo)).toBe(0);

    // Apply: one undo step; the document is the CLI's IK bake of the same files and choices, byte for byte.
    await page.click('[data-testid="ik-bake-apply"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    await page.waitForSelector('[data-testid="ik-bake-dialog"]', { state: 'detached' });
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
    expect(suite.app.errors).toEqual([]);
  });
});
