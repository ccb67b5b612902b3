/**
 * Autosave and recovery in the browser mode, as a person meets them: a camera motion opened, one key deleted, the
 * page left idle until autosave kept a copy (the interval shortened to 2 s through the setting, in settings.json as
 * the Autosave menu writes it), the page closed without saving (its session gone once its event stream is), a new
 * page on the same server asks "VMD Studio closed without saving 1 document", Recover opens it unsaved, Save As writes
 * it. The saved file is checked against bytes built here from the original file (its camera record at that frame
 * taken out, the count one less: what Save would have written) and with the command line's inspect --json.
 * Screenshots: test-artifacts/autosave-recover-ask.png, autosave-setting.png (the ? menu's Autosave line).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusPath, openApp, openFileViaDialog, ROOT, saveAsViaDialog, screenshot, tempDir, type AppHandle } from './harness';
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

/** The file with camera record `i` taken out and the count one less, built from its bytes. */
function without(bytes: Uint8Array, i: number): Uint8Array {
  const at = CAM_AT + 4 + i * CAM_SIZE;
  const out = new Uint8Array(bytes.length - CAM_SIZE);
  out.set(bytes.subarray(0, at));
  out.set(bytes.subarray(at + CAM_SIZE), at);
  new DataView(out.buffer).setUint32(CAM_AT, new DataView(bytes.buffer, bytes.byteOffset).getUint32(CAM_AT, true) - 1, true);
  return out;
}

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
