// Several files dropped at once (the browser mode: names and bytes): a model, a body motion and a facial motion
// dropped together load the model, open the body motion on it and offer the facial motion in Whole Motion →
// Merge with… (prefilled, overlay); Apply merges it as one undo step with the merge engine's bytes (what
// `vmd-studio merge --overlay` writes). A second model dropped with them is named in a notice, not dropped silently.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readVmd, writeVmd, type VmdDocument } from '../../shared/vmd';
import { merge } from '../../shared/motion-ops';
import { appForSuite, corpusPath, dropFiles, fileForDrop, notice, textOf } from './harness';
import { corpusPresent } from '../helpers/corpus';

const LONG = 180_000;
const GENE = corpusPath('gene/Gene_light.pmx');
const STAND = corpusPath('gene/motion/stand.vmd');
const BLINK = corpusPath('vmd_sizing/archive/モーフ置換サンプル/C) あにまさ式ミク_まばたき.vmd');
const BLINK_NAME = 'C) あにまさ式ミク_まばたき.vmd';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
function docOf(p: string): VmdDocument {
  const r = readVmd(new Uint8Array(readFileSync(p)));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe.skipIf(!corpusPresent)('dropping several files at once', () => {
  const s = appForSuite();

  it('model + body motion + facial motion: the model loads, the body motion opens, the facial motion is offered for overlaying (Merge with…) and Apply merges it; a second model is named in a notice', async () => {
    const page = s.app.page;
    const engine = merge([docOf(STAND), docOf(BLINK)], { gap: 1, overlay: true });
    if (!engine.ok) throw new Error('merge refused');
    const gene = fileForDrop(GENE);
    await dropFiles(page, [fileForDrop(STAND), gene, fileForDrop(BLINK), { name: 'second.pmx', bytes: gene.bytes }]);
    await page.waitForFunction(() => window.__vmdPreview?.info().model != null, null, { timeout: 60_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('stand.vmd'));
    await page.waitForSelector('[data-testid="merge-dialog"]');
    expect(await textOf(page, 'merge-files')).toContain(BLINK_NAME);
    expect(await page.isChecked('[data-testid="merge-overlay"]')).toBe(true);
    expect(await notice(page, 'not opened')).toBe('1 dropped file was not opened');
    expect(await textOf(page, 'notifications')).toContain('second.pmx: one model loads per drop (Gene_light.pmx did)');
    await s.app.screenshot('drop-several-merge-offer');
    await page.click('[data-testid="merge-apply"]');
    await page.waitForSelector('[data-testid="merge-dialog"]', { state: 'detached' });
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    expect(await page.evaluate(() => window.__vmdEditor!.digest())).toBe(sha(writeVmd(engine.value.doc)));
    expect(s.app.errors).toEqual([]);
  }, LONG);
});
