/**
 * A scene holds at most MAX_SCENE_ACTORS actors (issue 24 §3: the scene file's bound), in Chromium through
 * the browser mode: a scene of 64 actors (63 of them motionless) opens as 64 actor tabs; adding one more
 * motion through the scene's "+" is refused with a notice naming the file, and the scene keeps its 64.
 * Screenshot: test-artifacts/scene-actor-bound.png.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, corpusPath, fileDialogReady, openSceneViaDialog } from './harness';
import { MAX_SCENE_ACTORS } from '../../shared/scene/scene-file';
import { copyWritable } from '../helpers/corpus';

const STAND = corpusPath('gene/motion/stand.vmd');

describe('the scene’s actor bound (browser mode)', () => {
  const s = appForSuite();

  it(`a ${MAX_SCENE_ACTORS + 1}th actor is refused by name; the scene keeps ${MAX_SCENE_ACTORS}`, async () => {
    const { page } = s.app;
    const dir = s.tmp.dir;
    copyWritable(STAND, path.join(dir, 'stand.vmd'));
    copyWritable(STAND, path.join(dir, 'one-more.vmd'));
    const actors = [{ model: null, motion: 'stand.vmd' }, ...Array.from({ length: MAX_SCENE_ACTORS - 1 }, () => ({ model: null, motion: null }))];
    const file = path.join(dir, 'full.vmdscene');
    writeFileSync(file, JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors, camera: null, activeActor: 0 }));
    await openSceneViaDialog(page, file);
    const actorTabs = () => page.$$eval('[data-testid="scene-tab"]', (els) => els.filter((e) => (e as HTMLElement).dataset.kind === 'actor').length);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="scene-tab"][data-kind="actor"]').length === n, MAX_SCENE_ACTORS, { timeout: 60_000 });
    await page.click('[data-testid="scene-add"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', path.join(dir, 'one-more.vmd'));
    await page.click('[data-testid="file-dialog-go"]');
    const line = `one-more.vmd was not added: a scene holds at most ${MAX_SCENE_ACTORS} actors`;
    await page.waitForFunction((l) => [...document.querySelectorAll('[data-testid="notice-message"]')].some((e) => e.textContent?.trim() === l), line);
    expect(await actorTabs()).toBe(MAX_SCENE_ACTORS);
    await s.app.screenshot('scene-actor-bound');
    expect(s.app.errors).toEqual([]);
  }, 180_000);
});
