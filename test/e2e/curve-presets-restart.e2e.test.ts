// The user's curve presets across a restart of the browser mode (the new-user pass's finding 3): kept in the
// origin's localStorage, they were gone the next day, since serve's port (the origin) is new each start. Now they
// are in settings.json (its ui bag) like the language or the pane widths: a second server over the same settings
// folder, on another port, in a new browser profile, shows the preset saved on the first.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openApp, openFileViaDialog } from './harness';
import { clickKey } from './editor-page';
import { tempDir } from '../helpers/build';
import { buildVmd, writeVmd } from '../../shared/vmd';

const LONG = 180_000;

describe('curve presets after a restart', () => {
  const dir = tempDir('vmd-e2e-presets-');
  afterAll(() => dir.remove());

  it('a preset saved before the server restarts is there after it (same --settings-dir, another port)', async () => {
    const settingsDir = path.join(dir.dir, 'settings');
    const walk = path.join(dir.dir, 'walk.vmd');
    const key = (frame: number, x: number) => ({ name: 'センター', frame, position: [x, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number] });
    writeFileSync(walk, writeVmd(buildVmd({ model: '', bones: [key(0, 0), key(10, 4)] })));
    const presetButtons = (page: import('playwright-core').Page) => page.$$eval('.presets .preset', (es) => es.map((e) => (e.textContent ?? '').trim()));

    const day1 = await openApp({ settingsDir });
    try {
      await openFileViaDialog(day1.page, walk);
      await clickKey(day1.page, 'track-bone:0', 10);
      await day1.page.fill('[data-testid="preset-name"]', '私のイーズ');
      await day1.page.click('[data-testid="preset-save"]');
      await day1.page.waitForFunction(() => [...document.querySelectorAll('.presets .preset')].some((e) => e.textContent?.includes('私のイーズ')));
      // Written to the settings file (after main's answer).
      await expect
        .poll(() => {
          try {
            return String(JSON.parse(readFileSync(path.join(settingsDir, 'settings.json'), 'utf8')).ui?.curvePresets ?? '');
          } catch {
            return '';
          }
        }, { timeout: 120_000 }) // generous: the write's speed decides nothing
        .toContain('私のイーズ');
      expect(day1.errors).toEqual([]);
    } finally {
      await day1.close();
    }

    const day2 = await openApp({ settingsDir });
    try {
      // A new server on port 0: another origin in all but a chance collision (the preset came from localStorage before).
      await openFileViaDialog(day2.page, walk);
      await clickKey(day2.page, 'track-bone:0', 10);
      expect((await presetButtons(day2.page)).filter((t) => t.includes('私のイーズ'))).toHaveLength(1);
      expect(day2.errors).toEqual([]);
    } finally {
      await day2.close();
    }
  }, LONG);
});
