// A VMD cut short (a download that stopped) is refused by the reader; opening one asks whether to open the keys it
// still holds, as an unsaved copy with no file (stores/salvage.ts, shared/vmd/vmd-salvage.ts). Here: wavefile_v2.vmd
// cut inside its bone block, opened through the app's Open dialog in a real browser against the real server. The
// question names the damage and the count; the copy opens as "wavefile_v2-recovered.vmd" with exactly the bone keys
// that lie whole before the cut (counted here from the bytes), Save asks for a name, and the damaged file is never
// written. Cancel leaves the refusal as before. Screenshot: test-artifacts/damaged-salvage-ask.png.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, dismissNotices, fileDialogReady, notice, openToQuestion } from './harness';
import { corpusPresent } from '../helpers/corpus';

const LONG = 240_000;

describe.skipIf(!corpusPresent)('a VMD cut short', () => {
  const s = appForSuite();

  it('asks to open the keys that lie whole; the copy has exactly those, no file, and the damaged file is untouched', async () => {
    const page = s.app.page;
    const whole = readFileSync(corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'));
    // Cut 40 bytes into the 1,000th bone record: 999 records lie whole (a 50-byte header, a 4-byte count, 111 each).
    const cut = 50 + 4 + 999 * 111 + 40;
    const promised = whole.readUInt32LE(50);
    expect(promised).toBeGreaterThan(1000);
    const damaged = path.join(s.tmp.dir, 'wavefile_v2.vmd');
    writeFileSync(damaged, whole.subarray(0, cut));
    const before = readFileSync(damaged);

    // Cancel: refused as before, with the reader's error.
    await openToQuestion(page, damaged);
    const question = (await page.textContent('[data-testid="confirm-dialog"]')) ?? '';
    expect(question).toContain(`wavefile_v2.vmd is cut short or damaged at byte ${50 + 4 + 999 * 111}, in its bone keys: 999 of the ${promised.toLocaleString('en-US')} keys it gives there lie whole`);
    expect(question).toContain('999 keys in all can be opened as an unsaved copy, wavefile_v2-recovered.vmd');
    expect(await page.textContent('[data-testid="confirm-salvage"]')).toContain('Open the 999 keys that could be read');
    await s.app.screenshot('damaged-salvage-ask');
    await page.click('[data-testid="confirm-cancel"]');
    await notice(page, 'The file is damaged: the bone block says it holds', 60_000);
    expect(await page.$('[data-testid="summary-bones"]')).toBeNull();
    await dismissNotices(page);

    // Open the keys that could be read.
    await openToQuestion(page, damaged);
    await page.click('[data-testid="confirm-salvage"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('wavefile_v2-recovered.vmd'), null, { timeout: 60_000 });
    expect(await page.getAttribute('[data-testid="count-bone"]', 'data-count')).toBe('999');
    expect(await page.getAttribute('[data-testid="count-morph"]', 'data-count')).toBe('0');
    // No file: Save asks for a name.
    await page.keyboard.press('Control+s');
    await fileDialogReady(page);
    expect(await page.inputValue('[data-testid="file-dialog-name"]')).toContain('wavefile_v2-recovered');
    await page.click('[data-testid="file-dialog-cancel"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    expect(readFileSync(damaged).equals(before)).toBe(true);
    expect(s.app.errors).toEqual([]);
  }, LONG);
});
