/**
 * Sphere maps in the preview, in Chromium (WebGL through SwiftShader). The corpus's matcap_sample.pmx is one
 * ball of radius 5 whose only material has a multiply sphere map, `./ref.jpg`, which the corpus does not
 * carry: so the test writes the pictures itself, each in its own folder beside a copy of the model (one copy
 * with the sphere mode byte set to 2, add, and one set to 0, off), and looks at the ball from the front
 * through a camera VMD made here. The frames are read back whole from the drawing buffer and compared:
 * - a white multiply sphere leaves the picture as the sphere-off one;
 * - a sphere of four coloured quarters shows each colour on the quarter of the ball facing that way
 *   (the picture's top on the upward faces, its left on the left ones);
 * - an add sphere of sRGB grey 64 raises every lit pixel by 64 in sRGB, as MMD adds (not in linear light).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, fileDialogReady, openApp, tempDir, type AppHandle } from './harness';
import { encodePng, type Rgba } from '../helpers/png';
import { readModel } from '../../shared/pmx';
import { blockFromRecords, emptyVmd, encodeCameraRecord, withBlocks, writeVmd } from '../../shared/vmd';
import { copyWritable } from '../helpers/corpus';

const MODEL = corpusPath('babylon-mmd/res/model/matcap_sample.pmx');

/** A size × size picture from a colour function of (u, v) in [0, 1), v growing downward. */
function picture(size: number, colour: (u: number, v: number) => [number, number, number]): Uint8Array {
  const data = new Uint8Array(4 * size * size);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) data.set([...colour((x + 0.5) / size, (y + 0.5) / size), 255], 4 * (y * size + x));
  return encodePng({ width: size, height: size, data });
}

const QUARTERS: Record<'topLeft' | 'topRight' | 'bottomLeft' | 'bottomRight', [number, number, number]> = {
  topLeft: [255, 0, 0],
  topRight: [0, 255, 0],
  bottomLeft: [0, 0, 255],
  bottomRight: [255, 255, 255],
};
const quarterOf = (u: number, v: number) => (v < 0.5 ? (u < 0.5 ? 'topLeft' : 'topRight') : u < 0.5 ? 'bottomLeft' : 'bottomRight');
const ADD_GREY = 64;

/**
 * The PMX with its first material's sphere mode byte set to `mode` (and, given, its diffuse and ambient
 * colours), found by walking the material's fixed fields from its name: the ball's material, "Sphere", is
 * the file's only one and the first record of that name (materials come before bones). The test re-reads
 * the result to check that nothing else changed.
 */
function patchMaterial(bytes: Uint8Array, mode: number, colours?: { diffuse: number; ambient: number }): Uint8Array {
  const utf16 = bytes[9] === 0;
  const texIndexSize = bytes[9 + 3];
  const name = utf16 ? Buffer.from('Sphere', 'utf16le') : Buffer.from('Sphere', 'utf8');
  const needle = Buffer.concat([Buffer.from(Uint32Array.of(name.length).buffer), name]);
  const at = Buffer.from(bytes).indexOf(needle);
  if (at < 0) throw new Error('material name not found');
  const out = bytes.slice();
  const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let o = at + needle.length;
  o += 4 + v.getInt32(o, true); // English name
  if (colours) {
    for (let c = 0; c < 3; c++) v.setFloat32(o + 4 * c, colours.diffuse, true);
    for (let c = 0; c < 3; c++) v.setFloat32(o + 32 + 4 * c, colours.ambient, true);
  }
  o += 16 + 12 + 4 + 12 + 1 + 16 + 4; // diffuse, specular, specularity, ambient, flags, edge colour, edge size
  o += 2 * texIndexSize; // texture, sphere texture
  out[o] = mode;
  return out;
}

/** A dark grey ball, where adding 64 does not run into white. */
const DARK = { diffuse: 0.3, ambient: 0.1 };

function decodeFrame(f: { width: number; height: number; rgba: string }): Rgba {
  return { width: f.width, height: f.height, data: new Uint8Array(Buffer.from(f.rgba, 'base64')) };
}

describe('3D preview: sphere maps; a model opened through Open…', () => {
  let app: AppHandle;
  const tmp = tempDir('vmd-e2e-sphere-');
  const original = new Uint8Array(readFileSync(MODEL));
  const folders: Record<string, { mode: number; colours?: typeof DARK; picture: Uint8Array }> = {
    off: { mode: 0, picture: picture(64, () => [255, 0, 255]) },
    white: { mode: 1, picture: picture(64, () => [255, 255, 255]) },
    quarters: { mode: 1, picture: picture(64, (u, v) => QUARTERS[quarterOf(u, v)]) },
    darkOff: { mode: 0, colours: DARK, picture: picture(64, () => [255, 0, 255]) },
    darkAdd: { mode: 2, colours: DARK, picture: picture(64, () => [ADD_GREY, ADD_GREY, ADD_GREY]) },
  };
  const frames: Record<string, Rgba> = {};

  beforeAll(async () => {
    for (const [name, f] of Object.entries(folders)) {
      const dir = path.join(tmp.dir, name);
      mkdirSync(dir);
      if (f.mode === 1) copyWritable(MODEL, path.join(dir, 'model.pmx'));
      else writeFileSync(path.join(dir, 'model.pmx'), patchMaterial(original, f.mode, f.colours));
      writeFileSync(path.join(dir, 'ref.jpg'), f.picture); // a PNG under the model's name for it: browsers go by the bytes
    }
    // Straight at the ball from the front: target at its centre, 30 units away, level.
    const cam = withBlocks(emptyVmd(''), { camera: blockFromRecords('camera', [encodeCameraRecord({ frame: 0, distance: -30, target: [0, 0, 0], rotation: [0, 0, 0], fov: 30 })]) });
    writeFileSync(path.join(tmp.dir, 'front.vmd'), writeVmd(cam));
    app = await openApp({ viewport: { width: 1440, height: 900 } });
  });
  afterAll(async () => {
    await app?.close();
    tmp.remove();
  });

  /** Back to the built-in figure when a model is shown (so the next model's arrival can be waited for). */
  async function backToFigure(page: Page) {
    if (await page.isVisible('[data-testid="preview-use-figure"]')) {
      await page.click('[data-testid="preview-use-figure"]');
      await page.waitForSelector('[data-testid="preview-use-figure"]', { state: 'detached' });
    }
  }

  async function showModel(page: Page, folder: string): Promise<Rgba> {
    await backToFigure(page);
    await page.click('[data-testid="preview-open-model"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', path.join(tmp.dir, folder, 'model.pmx'));
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    await page.waitForSelector('[data-testid="preview-use-figure"]', { timeout: 60_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid="preview-pane"]')?.textContent?.includes('Loading model'), null, { timeout: 60_000 });
    expect(await page.isVisible('[data-testid="preview-missing-textures"]'), `${folder}: textures missing`).toBe(false);
    const before = await page.evaluate(() => window.__vmdPreview!.presentation().presented);
    const frame = decodeFrame(await page.evaluate(() => window.__vmdPreview!.frameImage()));
    // The page shows that picture once the presenter has copied it (software GL presents asynchronously).
    await page.waitForFunction((n) => { const p = window.__vmdPreview!.presentation(); return p.presented > n && !p.pending; }, before);
    await app.screenshot(`preview-sphere-${folder}`);
    return frame;
  }

  it('the patched copies differ from the corpus model only in the sphere mode', () => {
    const base = readModel(original);
    for (const [name, f] of Object.entries(folders)) {
      if (f.mode === 1) continue;
      const r = readModel(patchMaterial(original, f.mode, f.colours));
      if (!r.ok || !base.ok) throw new Error(`${name}: not readable`);
      const was = base.value.materials[0], now = r.value.materials[0];
      expect(was.sphereMode).toBe(1);
      expect(now.sphereMode).toBe(f.mode);
      if (f.colours) {
        expect([...now.diffuse.slice(0, 3), ...now.ambient]).toEqual([0, 1, 2, 3, 4, 5].map((i) => Math.fround(i < 3 ? f.colours!.diffuse : f.colours!.ambient)));
        expect(now.diffuse[3]).toBe(was.diffuse[3]);
      }
      expect({ ...now, sphereMode: 1, diffuse: was.diffuse, ambient: was.ambient }).toEqual(was);
    }
  });

  it('draws the ball through a front camera with each sphere picture', async () => {
    const { page } = app;
    await page.waitForFunction(() => !!window.__vmdPreview);
    await page.click('[data-testid="preview-open-camera"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', path.join(tmp.dir, 'front.vmd'));
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForSelector('[data-testid="preview-clear-camera"]');
    await page.waitForFunction(() => !(document.querySelector('[data-testid="preview-look-through"]') as HTMLInputElement)?.disabled);
    await page.check('[data-testid="preview-look-through"]');
    for (const name of Object.keys(folders)) frames[name] = await showModel(page, name);
    expect(app.errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });

  /** The ball: where two frames differ (by more than `by` in a channel), with its box. */
  function ball(a: Rgba, b: Rgba, by: number) {
    const { width, height } = a;
    let n = 0, x0 = width, x1 = 0, y0 = height, y1 = 0;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const o = 4 * (y * width + x);
        if (Math.max(...[0, 1, 2].map((c) => Math.abs(a.data[o + c] - b.data[o + c]))) <= by) continue;
        n++;
        x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
      }
    return { n, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, r: (x1 - x0) / 2, h: (y1 - y0) / 2 };
  }
  const rgb = (f: Rgba, x: number, y: number) => {
    const o = 4 * (Math.round(y) * f.width + Math.round(x));
    return [f.data[o], f.data[o + 1], f.data[o + 2]];
  };

  it('a white multiply sphere changes nothing', () => {
    const { off, white } = frames;
    expect([white.width, white.height]).toEqual([off.width, off.height]);
    let worst = 0;
    for (let i = 0; i < off.data.length; i++) worst = Math.max(worst, Math.abs(off.data[i] - white.data[i]));
    expect(worst).toBeLessThanOrEqual(2);
  });

  it('each quarter of the sphere picture shows on the quarter of the ball facing that way', () => {
    const { white, quarters } = frames;
    const b = ball(white, quarters, 30);
    console.log(`[sphere] ${white.width}×${white.height} px; the ball ${b.n} px, centre ${b.cx}, ${b.cy}, radius ${b.r} × ${b.h}`);
    expect(b.n).toBeGreaterThan(2000);
    // A ball seen from the front: round (the box is as tall as wide) in the middle of the picture.
    expect(Math.abs(b.h - b.r)).toBeLessThanOrEqual(3);
    expect(Math.abs(b.cx - white.width / 2)).toBeLessThanOrEqual(4);
    expect(Math.abs(b.cy - white.height / 2)).toBeLessThanOrEqual(4);
    const where = { topLeft: [-1, -1], topRight: [1, -1], bottomLeft: [-1, 1], bottomRight: [1, 1] } as const;
    for (const [q, [sx, sy]] of Object.entries(where) as [keyof typeof QUARTERS, readonly [number, number]][]) {
      for (const f of [0.25, 0.45]) {
        const x = b.cx + sx * f * b.r, y = b.cy + sy * f * b.r;
        const lit = rgb(white, x, y), got = rgb(quarters, x, y);
        QUARTERS[q].forEach((c, i) => {
          // Multiplied: a 0 channel goes black, a 255 one stays as lit.
          if (c === 0) expect(got[i], `${q} at ${f}: channel ${i} of ${got}`).toBeLessThanOrEqual(6);
          else expect(Math.abs(got[i] - lit[i]), `${q} at ${f}: channel ${i} of ${got} (lit ${lit})`).toBeLessThanOrEqual(3);
        });
      }
    }
  });

  it('an add sphere adds its sRGB value to the shown colour, as MMD does', () => {
    const { darkOff, darkAdd } = frames;
    const b = ball(darkOff, darkAdd, 8);
    expect(b.n).toBeGreaterThan(2000);
    let n = 0, worst = 0;
    const raised: number[] = [];
    for (let y = Math.ceil(b.cy - 0.7 * b.h); y <= b.cy + 0.7 * b.h; y += 2)
      for (let x = Math.ceil(b.cx - 0.7 * b.r); x <= b.cx + 0.7 * b.r; x += 2) {
        if (Math.hypot((x - b.cx) / b.r, (y - b.cy) / b.h) > 0.7) continue;
        if (Math.abs(y - b.cy) <= 2) continue; // the floor grid, seen edge-on, crosses the ball's equator
        const before = rgb(darkOff, x, y), after = rgb(darkAdd, x, y);
        for (let c = 0; c < 3; c++) {
          if (before[c] + ADD_GREY >= 250) continue;
          worst = Math.max(worst, Math.abs(after[c] - (before[c] + ADD_GREY)));
          raised.push(after[c] - before[c]);
          n++;
        }
      }
    raised.sort((p, q) => p - q);
    console.log(`[sphere] add: ${n} channel samples, raised by ${raised[0]}–${raised[raised.length - 1]} (median ${raised[raised.length >> 1]}), worst off ${ADD_GREY} by ${worst}`);
    expect(n).toBeGreaterThan(500);
    // Within rounding of +64 everywhere; in linear light a dark pixel would rise by half that or less.
    expect(worst).toBeLessThanOrEqual(3);
  });

  it('a model path typed into Open… (the motion dialog) is shown in the preview, as a dropped model is', async () => {
    const { page } = app;
    await page.waitForFunction(() => !!window.__vmdPreview);
    await backToFigure(page);
    await page.click('[data-testid="cmd-open"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', path.join(tmp.dir, 'quarters', 'model.pmx'));
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    await page.waitForSelector('[data-testid="preview-use-figure"]', { timeout: 20_000 });
    expect(await page.textContent('[data-testid="preview-model-name"]')).toBe('model.pmx');
    await page.waitForFunction(() => !document.querySelector('[data-testid="preview-pane"]')?.textContent?.includes('Loading model'), null, { timeout: 60_000 });
    // No document was opened from it, and no error was said.
    // (With a model shown and no motion, the File panel offers a new motion for it: fixscratch.)
    expect(await page.textContent('[data-testid="file-summary"]')).toContain('No motion open for model.pmx');
    expect(await page.locator('[data-testid="notifications"] [data-kind="error"], [data-testid="notifications"] [data-kind="warning"]').count()).toBe(0);
    expect(app.errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });
});
