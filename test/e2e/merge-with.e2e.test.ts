// Whole Motion → Merge with… (結合…) on the dance: Gene's laugh (a second motion, bones and a face) picked in
// the in-app file dialog, appended after the dance's last frame with the default gap of 1; Apply merges it as
// one undo step whose bytes are the shared merge engine's (what `vmd-studio merge` writes), the notice says the
// keys added, and Undo gives the dance's bytes back.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readVmd, writeVmd, type VmdDocument } from '../../shared/vmd';
import { merge } from '../../shared/motion-ops';
import { appForSuite, corpusPath, fileDialogReady, notice, openFileViaDialog, textOf } from './harness';

const DANCE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const LAUGH = corpusPath('gene/motion/02_laugh.vmd');

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
function docOf(p: string): VmdDocument {
  const r = readVmd(new Uint8Array(readFileSync(p)));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
const keys = (d: VmdDocument) => d.bone.count + d.morph.count + d.camera.count + d.light.count + d.shadow.count + d.ik.count;

describe('Whole Motion → Merge with…', () => {
  const suite = appForSuite();

  it('appends a picked motion as one undo step with the engine\'s bytes, says the keys added, and Undo gives the bytes back', async () => {
    const { page } = suite.app;
    const engine = merge([docOf(DANCE), docOf(LAUGH)], { gap: 1 });
    if (!engine.ok) throw new Error('merge refused');
    const expected = sha(writeVmd(engine.value.doc));
    const added = keys(engine.value.doc) - keys(docOf(DANCE));

    await openFileViaDialog(page, DANCE);
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);
    const original = await page.evaluate(() => window.__vmdEditor!.digest());
    expect(original).toBe(sha(new Uint8Array(readFileSync(DANCE))));

    await page.click('[data-testid="whole-motion"]');
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="whole-merge"]')?.textContent?.trim() === '結合…');
    await suite.app.screenshot('merge-with-whole-motion-ja');
    await page.selectOption('[data-testid="locale"]', 'en');
    await page.waitForFunction(() => document.querySelector('[data-testid="whole-merge"]')?.textContent?.trim() === 'Merge with…');
    await page.click('[data-testid="whole-merge"]');
    await page.waitForSelector('[data-testid="merge-dialog"]');
    expect(await page.isVisible('[data-testid="batch-dialog"]')).toBe(false);
    expect(await page.isDisabled('[data-testid="merge-apply"]')).toBe(true);
    expect(await page.inputValue('[data-testid="merge-gap"]')).toBe('1');
    expect(await page.isChecked('[data-testid="merge-append"]')).toBe(true);

    await page.click('[data-testid="merge-add"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', LAUGH);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    await page.waitForFunction(() => document.querySelector('[data-testid="merge-files"]')?.textContent?.includes('02_laugh.vmd'));
    await suite.app.screenshot('merge-with-dialog');
    expect(await page.isDisabled('[data-testid="merge-apply"]')).toBe(false);

    await page.click('[data-testid="merge-apply"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    await page.waitForSelector('[data-testid="merge-dialog"]', { state: 'detached' });
    expect(await page.evaluate(() => window.__vmdEditor!.digest())).toBe(expected);
    expect(await notice(page, 'Merged 02_laugh.vmd into wavefile_v2.vmd')).toContain('Ctrl+Z');
    expect(await textOf(page, 'notifications')).toContain(`keys added: ${added}`);
    await suite.app.screenshot('merge-with-applied');

    await page.click('[data-testid="cmd-undo"]');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 0);
    expect(await page.evaluate(() => window.__vmdEditor!.digest())).toBe(original);
    expect(suite.app.errors).toEqual([]);
  });
});
