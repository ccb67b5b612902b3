/**
 * Autosave and recovery in the browser mode, as a person meets them: a camera motion opened, one key deleted, the
 * page left idle until autosave kept a copy (the interval shortened to 2 s through the setting, in settings.json as
 * the Autosave menu writes it), the page closed without saving (its session gone once its event stream is), a new
 * page on the same server asks "VMD Studio closed without saving 1 document", Recover opens it unsaved, Save As writes
 * it. The saved file is checked against bytes built here from the original file (its camera record at that frame
 * taken out, the count one less: what Save would have written) and with the command line's inspect --json.
 * Screenshots: test-artifacts/autosave-recover-ask.png, autosave-setting.png (the ? menu's Autosave line).
 *
 * The scene case: a scene built in a temp folder from corpus motions (two actors on the figure, a camera, an offset
 * kept with no song), one key of an actor's motion deleted and the other actor moved, the page gone unsaved; the next
 * page's question names the scene, Recover opens it with its actors, stage, offset and the edit, Save As writes the
 * motion with that one key out (built here from the file's bytes) and Save Scene As names the saved motion.
 * Screenshot: test-artifacts/autosave-recover-scene-ask.png.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusPath, openApp, openFileViaDialog, openSceneViaDialog, ROOT, saveAsViaDialog, saveThroughDialog, screenshot, tempDir, writeSceneFolder, type AppHandle } from './harness';
import { clickKey } from './editor-page';
import { corpusPresent } from '../helpers/corpus';

const LONG = 240_000;
const CAMERA = 'threejs/vmds/wavefile_camera.vmd';
/** Camera records: 61 bytes each, frame first (FORMAT.md); the block follows header (30), model name (20), two empty counts. */
const CAM_AT = 50 + 4 + 4;
const CAM_SIZE = 61;

function cameraFrames(bytes: Uint8Array): number[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = v.getUint32(CAM_AT, true);
  return Array.from({ length: n }, (_, i) => v.getUint32(CAM_AT + 4 + i * CAM_SIZE, true));
}

/**
 * The file with record `i` of the block whose count sits at `countAt` (records of `size` bytes) taken out
 * and that count one less, built from its bytes.
 */
function withoutRecord(bytes: Uint8Array, countAt: number, size: number, i: number): Uint8Array {
  const at = countAt + 4 + i * size;
  const out = new Uint8Array(bytes.length - size);
  out.set(bytes.subarray(0, at));
  out.set(bytes.subarray(at + size), at);
  new DataView(out.buffer).setUint32(countAt, new DataView(bytes.buffer, bytes.byteOffset).getUint32(countAt, true) - 1, true);
  return out;
}
/** The camera file with camera record `i` taken out. */
const without = (bytes: Uint8Array, i: number) => withoutRecord(bytes, CAM_AT, CAM_SIZE, i);

describe.skipIf(!corpusPresent)('autosave keeps an unsaved edit that a closed page leaves, and the next page recovers it', () => {
  const tmp = tempDir('vmd-autosave-');
  let app: AppHandle | null = null;
  afterAll(async () => {
    await app?.close();
    tmp.remove();
  });

  it('keeps a copy after the edit, offers it once the page is gone, Recover + Save As writes the edit and nothing else', async () => {
    const settingsDir = path.join(tmp.dir, 'settings');
    mkdirSync(settingsDir);
    writeFileSync(path.join(settingsDir, 'settings.json'), JSON.stringify({ ui: { autosaveSeconds: 2 } }));
    const file = path.join(tmp.dir, 'wavefile_camera.vmd');
    copyFileSync(corpusPath(CAMERA), file);
    const original = new Uint8Array(readFileSync(file));
    const frames = cameraFrames(original);
    // A key with no other within 5 frames: the click takes that one alone.
    const i = frames.findIndex((f, k) => frames.every((g, j) => j === k || Math.abs(g - f) > 5));
    expect(i).toBeGreaterThanOrEqual(0);

    app = await openApp({ settingsDir });
    const a = app.page;
    expect(await a.textContent('[data-testid="autosave-interval"]').catch(() => null)).toBeNull(); // in the ? menu, closed
    await openFileViaDialog(a, file);
    await clickKey(a, 'track-camera', frames[i]);
    await a.keyboard.press('Delete');
    await a.waitForFunction((n) => document.querySelector('[data-testid="count-camera"]')?.getAttribute('data-count') === String(n), frames.length - 1, { timeout: LONG });

    // The copy: written once the page was idle, in <settings>/recovery/<session>/.
    const recovery = path.join(settingsDir, 'recovery');
    const sessions = () => (existsSync(recovery) ? readdirSync(recovery) : []);
    const copyMeta = () => {
      for (const s of sessions()) for (const n of readdirSync(path.join(recovery, s))) if (n !== 'session.json' && n.endsWith('.json')) return { s, meta: JSON.parse(readFileSync(path.join(recovery, s, n), 'utf8')) };
      return null;
    };
    await expect.poll(copyMeta, { timeout: LONG, interval: 250 }).not.toBeNull();
    const kept = copyMeta()!;
    expect(kept.meta).toMatchObject({ name: 'wavefile_camera.vmd', path: file, kind: 'camera', format: 'vmd', keys: frames.length - 1 });
    expect(new Uint8Array(readFileSync(path.join(recovery, kept.s, kept.meta.file)))).toEqual(without(original, i));

    // The tab is closed without saving: its session ends once the server sees its event stream gone.
    await a.close();
    await expect.poll(() => JSON.parse(readFileSync(path.join(recovery, kept.s, 'session.json'), 'utf8')).ended, { timeout: LONG, interval: 250 }).toBeTypeOf('number');

    // A new page on the same server asks.
    const b = await app.browser.contexts()[0].newPage();
    await b.goto(app.url);
    await b.waitForSelector('[data-testid="confirm-dialog"]', { timeout: LONG });
    const question = (await b.textContent('[data-testid="confirm-dialog"]')) ?? '';
    expect(question).toContain('VMD Studio closed without saving 1 document');
    expect(question).toContain(`wavefile_camera.vmd — ${file}`);
    expect(question).toContain(`${frames.length - 1} keys`);
    await screenshot(b, 'autosave-recover-ask');
    await b.click('[data-testid="confirm-recover"]');
    await b.waitForFunction((n) => document.querySelector('[data-testid="count-camera"]')?.getAttribute('data-count') === String(n), frames.length - 1, { timeout: LONG });
    // The gone session's copy went; this page keeps its own of the recovered document.
    await expect.poll(() => existsSync(path.join(recovery, kept.s)), { timeout: LONG, interval: 250 }).toBe(false);

    // Save As: the file has the edit and is otherwise byte for byte the original.
    const out = path.join(tmp.dir, 'recovered.vmd');
    await saveAsViaDialog(b, out);
    await expect.poll(() => existsSync(out), { timeout: LONG }).toBe(true);
    expect(new Uint8Array(readFileSync(out))).toEqual(without(original, i));
    const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli/cli.mjs'), 'inspect', out, '--json'], { encoding: 'utf8', timeout: LONG });
    expect(r.status, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(JSON.stringify(info)).toContain(`"camera":${frames.length - 1}`);
    // The setting as the ? menu shows it: the interval settings.json holds (2 s, a hand-set value, listed as such).
    await b.click('[data-testid="cmd-help"]');
    expect(await b.inputValue('[data-testid="autosave-interval"]')).toBe('2');
    // Its label says where it comes from; the menu's own choices read in seconds or minutes.
    const labels = await b.$$eval('[data-testid="autosave-interval"] option', (os) => os.map((o) => o.textContent!.trim()));
    expect(labels).toEqual(['Off', 'Every 2 s (settings.json)', 'Every 30 s', 'Every 1 min', 'Every 2 min', 'Every 5 min', 'Every 10 min']);
    expect(await b.textContent('[data-testid="help-menu"]')).toContain('Autosave');
    await screenshot(b, 'autosave-setting');
    await b.keyboard.press('Escape');
    // Saved: its copy is removed (the session folder holds only its mark).
    await expect.poll(() => sessions().flatMap((s) => readdirSync(path.join(recovery, s)).filter((n) => n !== 'session.json' && !n.startsWith('.'))), { timeout: LONG, interval: 250 }).toEqual([]);
  });
});

/** Bone records: 111 bytes each, frame at +15 (FORMAT.md); the block's count at 50, its records from 54. */
const BONE_AT = 50;
const BONE_SIZE = 111;
const boneCount = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(BONE_AT, true);
/** The motion with bone record `i` taken out (a motion's bone count sits at BONE_AT). */
const withoutBone = (bytes: Uint8Array, i: number) => withoutRecord(bytes, BONE_AT, BONE_SIZE, i);

describe.skipIf(!corpusPresent)('autosave keeps a scene\'s own layout, and Recover opens the scene as it was', () => {
  const tmp = tempDir('vmd-autosave-scene-');
  let app: AppHandle | null = null;
  afterAll(async () => {
    await app?.close();
    tmp.remove();
  });

  it('a scene opened, one actor\'s motion edited and another actor moved, the page gone unsaved: Recover brings back the actors, the stage, the offset and the edit; Save As writes the edit and nothing else', async () => {
    const settingsDir = path.join(tmp.dir, 'settings');
    mkdirSync(settingsDir);
    writeFileSync(path.join(settingsDir, 'settings.json'), JSON.stringify({ ui: { autosaveSeconds: 2 } }));
    const dir = path.join(tmp.dir, 'proj');
    mkdirSync(dir);
    const scenePath = writeSceneFolder(
      dir,
      [
        [corpusPath('gene/motion/02_laugh.vmd'), 'laugh.vmd'],
        [corpusPath('gene/motion/stand.vmd'), 'stand.vmd'],
        [corpusPath(CAMERA), 'camera.vmd'],
      ],
      {
        actors: [
          { name: 'Laugh', model: null, motion: 'laugh.vmd', hidden: false },
          { name: 'Stand', model: null, motion: 'stand.vmd', hidden: false },
        ],
        activeActor: 0,
        camera: 'camera.vmd',
        audio: { path: null, offsetFrames: 15, volume: 1, muted: false },
      },
      'stage.vmdscene',
    );
    const laugh = new Uint8Array(readFileSync(path.join(dir, 'laugh.vmd')));
    const sceneText = readFileSync(scenePath, 'utf8');

    app = await openApp({ settingsDir });
    const a = app.page;
    await openSceneViaDialog(a, scenePath);
    await a.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 3);
    // Laugh's first bone track, its key at frame 0, deleted: which record that is, the hook's selection says.
    await clickKey(a, 'track-bone:0', 0);
    const picked = await a.evaluate(() => window.__vmdEditor!.selection().refs);
    expect(picked).toHaveLength(1);
    expect(picked[0].kind).toBe('bone');
    const rec = picked[0].record;
    expect(new DataView(laugh.buffer, laugh.byteOffset).getUint32(BONE_AT + 4 + rec * BONE_SIZE + 15, true)).toBe(0);
    await a.keyboard.press('Delete');
    await a.waitForFunction((n) => document.querySelector('[data-testid="count-bone"]')?.getAttribute('data-count') === String(n), boneCount(laugh) - 1, { timeout: LONG });
    // Stand moved to X 10 on the Stage tab.
    await a.click('[data-testid="side-tab-stage"]');
    const x = a.locator('[data-testid="stage-actor"]').nth(1).locator('[data-testid="stage-x"]');
    await x.fill('10');
    await x.press('Enter');

    // The layout's copy: Save Scene's text with Laugh named by its copy, written once the page was idle.
    const recovery = path.join(settingsDir, 'recovery');
    const sceneCopy = () => {
      for (const s of existsSync(recovery) ? readdirSync(recovery) : []) {
        const f = path.join(recovery, s, 'scene.json');
        if (!existsSync(f)) continue;
        const meta = JSON.parse(readFileSync(f, 'utf8'));
        const layout = JSON.parse(readFileSync(path.join(recovery, s, meta.file), 'utf8'));
        if (layout.actors?.[1]?.stage?.position?.[0] === 10) return { s, meta, layout };
      }
      return null;
    };
    await expect.poll(sceneCopy, { timeout: LONG, interval: 250 }).not.toBeNull();
    const kept = sceneCopy()!;
    expect(kept.meta).toMatchObject({ name: 'stage.vmdscene', path: scenePath, kind: 'scene', format: 'vmdscene', keys: 2 });
    expect(kept.layout.actors[0]).toMatchObject({ name: 'Laugh', model: null, motion: null });
    expect(typeof kept.layout.actors[0].recoveryCopy).toBe('string');
    expect(kept.layout.actors[1]).toMatchObject({ name: 'Stand', motion: 'stand.vmd', stage: { position: [10, 0, 0], turn: 0 } });
    expect(kept.layout).toMatchObject({ camera: 'camera.vmd', audio: { path: null, offsetFrames: 15 } });
    const docMeta = JSON.parse(readFileSync(path.join(recovery, kept.s, `${kept.layout.actors[0].recoveryCopy}.json`), 'utf8'));
    expect(docMeta).toMatchObject({ name: 'laugh.vmd', path: path.join(dir, 'laugh.vmd'), kind: 'motion' });

    // The page goes without saving (its session ends once the server sees its event stream gone); a new page asks.
    await a.close();
    await expect.poll(() => JSON.parse(readFileSync(path.join(recovery, kept.s, 'session.json'), 'utf8')).ended, { timeout: LONG, interval: 250 }).toBeTypeOf('number');
    const b = await app.browser.contexts()[0].newPage();
    await b.goto(app.url);
    await b.waitForSelector('[data-testid="confirm-dialog"]', { timeout: LONG });
    const question = (await b.textContent('[data-testid="confirm-dialog"]')) ?? '';
    expect(question).toContain('VMD Studio closed without saving a scene and 1 document');
    expect(question).toContain(`Scene stage.vmdscene — ${scenePath}`);
    expect(question).toContain('2 actors with their models, motions, camera, music and offset');
    expect(question).toContain(`laugh.vmd (Laugh) — ${path.join(dir, 'laugh.vmd')}`);
    await screenshot(b, 'autosave-recover-scene-ask');
    await b.click('[data-testid="confirm-recover"]');
    await b.waitForFunction(() => document.querySelectorAll('[data-testid="scene-tab"]').length === 3, undefined, { timeout: LONG });
    await b.waitForFunction((n) => document.querySelector('[data-testid="count-bone"]')?.getAttribute('data-count') === String(n), boneCount(laugh) - 1, { timeout: LONG });
    const tabs = await b.$$eval('[data-testid="scene-tab"]', (els) => els.map((e) => e.textContent ?? ''));
    expect(tabs.join(' | ')).toContain('Laugh');
    expect(tabs.join(' | ')).toContain('Stand');
    // The offset (kept with no song: no music row shows it) is checked in the scene Save Scene As writes below.
    await expect.poll(() => existsSync(path.join(recovery, kept.s)), { timeout: LONG, interval: 250 }).toBe(false);
    // Nothing on disk was written by the recovery.
    expect(new Uint8Array(readFileSync(path.join(dir, 'laugh.vmd')))).toEqual(laugh);
    expect(readFileSync(scenePath, 'utf8')).toBe(sceneText);

    // Save As of the recovered motion: the original less that one key, byte for byte.
    const out = path.join(tmp.dir, 'laugh-recovered.vmd');
    await saveAsViaDialog(b, out);
    await expect.poll(() => existsSync(out), { timeout: LONG }).toBe(true);
    expect(new Uint8Array(readFileSync(out))).toEqual(withoutBone(laugh, rec));
    // Save Scene As: the actors, the stage, the camera and the offset, Laugh naming the motion as saved.
    await saveThroughDialog(b, ['cmd-scene', 'cmd-save-scene'], tmp.dir, 'again.vmdscene');
    const again = path.join(tmp.dir, 'again.vmdscene');
    await expect.poll(() => existsSync(again), { timeout: LONG }).toBe(true);
    const saved = readFileSync(again, 'utf8');
    expect(saved).not.toContain('ecoveryCopy');
    const scene = JSON.parse(saved);
    expect(scene.actors).toEqual([
      { name: 'Laugh', model: null, motion: 'laugh-recovered.vmd', hidden: false },
      { name: 'Stand', model: null, motion: 'proj/stand.vmd', hidden: false, stage: { position: [10, 0, 0], turn: 0 } },
    ]);
    expect(scene.camera).toBe('proj/camera.vmd');
    expect(scene.audio).toMatchObject({ path: null, offsetFrames: 15 });
  });
});
