// Save As with a .vpd name, through the Save dialog (the new-user pass's finding 1): it wrote the pose at frame 0
// without a word, the title became pose.vpd and the status bar said "No unsaved changes", though the keys at the
// other frames were in no file. Now the app asks first, naming the frame (the current one, as Export VPD at
// Frame… takes it) and what stays out; the pose is written and the motion keeps its file and its unsaved edit.
// Screenshot: test-artifacts/save-as-pose-question.png.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, fileDialogReady, notice, openFileViaDialog, textOf } from './harness';
import { clickKey, seekFrameField } from './editor-page';
import { buildVmd, writeVmd } from '../../shared/vmd';

const LONG = 180_000;

describe('Save As a .vpd of a motion', () => {
  const s = appForSuite();

  it('asks, writes the pose at the current frame, and the motion stays walk.vmd, unsaved', async () => {
    const page = s.app.page;
    // センター at frames 0, 10 and 20 (x = 0, 4, 0).
    const key = (frame: number, x: number) => ({ name: 'センター', frame, position: [x, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number] });
    const walk = path.join(s.tmp.dir, 'walk.vmd');
    writeFileSync(walk, writeVmd(buildVmd({ model: '', bones: [key(0, 0), key(10, 4), key(20, 0)] })));
    await openFileViaDialog(page, walk);
    // An edit: the key at 20 deleted (two keys left, at 0 and 10).
    await clickKey(page, 'track-bone:0', 20);
    await page.keyboard.press('Delete');
    await page.waitForFunction(() => window.__vmdEditor!.history().undo === 1);
    await seekFrameField(page, 10);

    await page.click('[data-testid="cmd-save-as"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-name"]', 'pose.vpd');
    await page.click('[data-testid="file-dialog-accept"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    expect(await textOf(page, 'confirm-message')).toBe(
      'A pose (.vpd) holds one frame: pose.vpd gets the pose at frame 10, the current frame (as Export VPD at Frame… takes it); 1 key at another frame is not saved. The motion itself stays unsaved: save it as a .vmd to keep them.',
    );
    await s.app.screenshot('save-as-pose-question');
    await page.click('[data-testid="confirm-save"]');
    await notice(page, 'Saved the pose at frame 10 as pose.vpd');

    // The pose at frame 10: センター at x = 4.
    const text = readFileSync(path.join(s.tmp.dir, 'pose.vpd'), 'latin1');
    expect(text).toMatch(/^Vocaloid Pose Data file/);
    expect(text).toMatch(/\n\s*4\.000000,0\.000000,0\.000000;/);
    // Still the motion, still unsaved: its name, its file, the status bar.
    expect(await page.textContent('[data-testid="summary-name"]')).toContain('walk.vmd');
    expect(await page.getAttribute('[data-testid="status-bar"] .path', 'title')).toBe(walk);
    expect(await textOf(page, 'status-state')).not.toBe('No unsaved changes');
    expect(await page.evaluate(() => document.title)).not.toContain('pose.vpd');
    expect(s.app.errors).toEqual([]);
  }, LONG);
});
