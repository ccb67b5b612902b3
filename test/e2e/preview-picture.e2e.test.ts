/**
 * MMD's picture in the preview (issue 27), in Chromium (WebGL through SwiftShader), read back from the
 * drawing buffer. The models are balls built here byte by byte (test/helpers/pmx-balls.ts), so every
 * expected value follows from the geometry and the light, not from the code under test:
 * - toon bands: a white ball (ambient 0.4 + diffuse 1 × light 0.6 = 1) with a toon picture of four bands
 *   written here, under a light from the right (travelling along −x): N·L is the pixel's x on the ball's
 *   disc, the ramp is read at v = ½ − ½·N·L, so the bands fall at x = 0.5, 0 and −0.5 of the radius and
 *   each band shows its own grey;
 * - edges: a ball with an orange edge: the ring around it is orange, and its width on screen stays
 *   within 1 px when the camera moves twice as far;
 * - self-shadow: a small ball above a big one under a steep light: with a mode-1 key the big ball's
 *   pixels whose ray to the light hits the small ball (computed here) are darker than with mode off,
 *   and the small ball's own lit top is unchanged;
 * - textures: a ball whose texture is eight stripes round it, red and blue in turn (written here): each pixel
 *   shows the stripe its point on the ball has (u = the angle round the ball from +x);
 * - a sub-texture sphere (mode 3): a picture red on its left half and blue on its right, looked up by the
 *   ball's UV1 (0.25, 0.5): the whole ball is red, where a lookup by the normal would make its right half
 *   blue; a UV1 morph of (0.5, 0) makes it all blue;
 * - the material flags: a small ball that does not cast (PMX 0x04 off) darkens nothing, a big ball that does
 *   not receive (0x08 off) is not darkened; the ground shadow is drawn under a ball with 0x02 and not without;
 * - self-shadow mode 2: its map covers the drawing camera's view from the near plane out to twice the key's
 *   half side, so with a short range the balls 50 units away get no shadow where mode 1 (a square about the
 *   camera's target) still draws it, and with a long range they get it;
 * - a corpus model at a dance frame: the preview's picture (test-artifacts/picture-gene.png), and the same
 *   frame rendered as a one-picture PNG sequence at 960×540 (picture-gene-900.png, read by ffprobe; the
 *   README's picture, docs/gene-frame-900.png, is a copy of it).
 * Pictures: test-artifacts/picture-*.png.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { ARTIFACTS, corpusPath, fileDialogReady, openApp, openFileViaDialog, openSceneViaDialog, tempDir, writeSceneFolder, type AppHandle } from './harness';
import { decodePng, encodePng, type Rgba } from '../helpers/png';
import { ballsPmx, type Ball, type TintMorph, type Uv1Morph } from '../helpers/pmx-balls';
import { buildFixture } from '../helpers/vmd-fixtures';
import { readModel } from '../../shared/pmx';
import { buildModelMesh } from '../../renderer/src/preview/model-mesh';
import { seekPreview } from './editor-page';
import { GROUND_SHADOW_RGB } from '../../renderer/src/preview/ground-shadow';

const CENTRE_Y = 12;
/** The toon picture's four bands, top (lit) to bottom, sRGB grey. */
const BANDS = [255, 200, 130, 60];

function toonPng(): Uint8Array {
  const h = 128, w = 4;
  const data = new Uint8Array(4 * w * h);
  for (let y = 0; y < h; y++) {
    const g = BANDS[Math.min(3, Math.floor((4 * y) / h))];
    for (let x = 0; x < w; x++) data.set([g, g, g, 255], 4 * (y * w + x));
  }
  return encodePng({ width: w, height: h, data });
}

const TOON_BALL: Ball = { centre: [0, CENTRE_Y, 0], radius: 5, diffuse: [1, 1, 1, 1], ambient: [0.4, 0.4, 0.4], flags: 0, toon: { texture: 0 } };
const EDGE_RGB: [number, number, number] = [1, 0.5, 0];
const EDGE_BALL: Ball = { ...TOON_BALL, flags: 0x10, edgeColor: [...EDGE_RGB, 1], edgeSize: 6, toon: null, ambient: [0.2, 0.3, 0.4], diffuse: [0.2, 0.3, 0.4, 1] };
/** The caster (small, above) and the receiver (big, below), both casting and receiving, our toon01. */
const CASTER: Ball = { centre: [0, CENTRE_Y + 8, 0], radius: 3, diffuse: [0.8, 0.8, 0.8, 1], ambient: [0.4, 0.4, 0.4], flags: 0x0c, toon: { shared: 0 } };
const RECEIVER: Ball = { ...CASTER, centre: [0, CENTRE_Y - 1, 0], radius: 5 };
/** The texture test's stripes round the ball (u from 0 to 1), sRGB. */
const STRIPES = 8;
const STRIPE_RGB = [[230, 40, 40], [40, 60, 230]];
function stripesPng(): Uint8Array {
  const w = 8 * STRIPES, h = 8;
  const data = new Uint8Array(4 * w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set([...STRIPE_RGB[Math.floor(x / 8) % 2], 255], 4 * (y * w + x));
  return encodePng({ width: w, height: h, data });
}
const TEXTURED_BALL: Ball = { centre: [0, CENTRE_Y, 0], radius: 5, diffuse: [1, 1, 1, 1], ambient: [0.4, 0.4, 0.4], flags: 0, texture: 0, toon: null };
/** The sub-texture test's sphere picture: the stripes' red on its left half, their blue on its right. */
function halvesPng(): Uint8Array {
  const w = 16, h = 8;
  const data = new Uint8Array(4 * w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set([...STRIPE_RGB[x < w / 2 ? 0 : 1], 255], 4 * (y * w + x));
  return encodePng({ width: w, height: h, data });
}
/** A white ball whose sphere is a sub-texture (mode 3) read at UV1 (0.25, 0.5): the left half's red. */
const SUB_TEXTURE_BALL: Ball = { ...TEXTURED_BALL, texture: undefined, sphere: { texture: 0, mode: 3 }, uv1: [0.25, 0.5] };
/** The shadow test's light, as the VMD stores it (the direction it travels, MMD coordinates). */
const SHADOW_LIGHT = [0.25, -1, 0.1];
/**
 * Self-shadow distances as stored (MMD's default 0.01125 is a square of half side 25 about the target): half
 * sides of 10 (mode 2 then reaches 20 units from the camera, short of the balls 47–55 away) and of 50 (mode 2
 * reaches 100).
 */
const SHORT_RANGE = (10 * 0.01125) / 25;
const LONG_RANGE = (50 * 0.01125) / 25;

function cameraVmd(distance: number, light: number[], shadow?: { mode: number; distance: number }): Uint8Array {
  return buildFixture({
    cameras: [{ frame: 0, distance: -distance, target: [0, CENTRE_Y, 0], rotation: [0, 0, 0], fov: 30 }],
    lights: [{ frame: 0, color: [0.6, 0.6, 0.6], direction: light }],
    shadows: shadow ? [{ frame: 0, ...shadow }] : [],
  });
}

const decode = (f: { width: number; height: number; rgba: string }): Rgba => ({ width: f.width, height: f.height, data: new Uint8Array(Buffer.from(f.rgba, 'base64')) });
const px = (f: Rgba, x: number, y: number) => {
  const o = 4 * (Math.round(y) * f.width + Math.round(x));
  return [f.data[o], f.data[o + 1], f.data[o + 2]];
};

/**
 * The ball around the picture's centre: from the centre pixel, left and right along its row and up along
 * its column to the first pixel of the background colour (the top-left corner's, within 12); the floor's
 * grid lies below the ball, so the column is measured upward only.
 */
function objectBox(f: Rgba) {
  const bg = px(f, 2, 2);
  const isBg = (x: number, y: number) => Math.max(...px(f, x, y).map((v, i) => Math.abs(v - bg[i]))) <= 12;
  const y = Math.round(f.height / 2), x = Math.round(f.width / 2);
  let x0 = x, x1 = x, y0 = y;
  while (x0 > 0 && !isBg(x0 - 1, y)) x0--;
  while (x1 < f.width - 1 && !isBg(x1 + 1, y)) x1++;
  while (y0 > 0 && !isBg(Math.round((x0 + x1) / 2), y0 - 1)) y0--;
  const cx = (x0 + x1) / 2, rx = (x1 - x0 + 1) / 2;
  return { cx, cy: y0 + rx - 0.5, rx, ry: rx, top: y0 };
}

function save(name: string, f: Rgba) {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(path.join(ARTIFACTS, `${name}.png`), encodePng(f));
}

describe('MMD picture in the preview: toon, edge, self-shadow', () => {
  let app: AppHandle;
  const tmp = tempDir('vmd-e2e-picture-');
  const folder = (name: string, balls: Ball[], textures: string[] = [], tints: TintMorph[] = [], uv1Morphs: Uv1Morph[] = []) => {
    const dir = path.join(tmp.dir, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'model.pmx'), ballsPmx(balls, textures, tints, uv1Morphs));
    const pictures: Record<string, () => Uint8Array> = { 'stripes.png': stripesPng, 'halves.png': halvesPng };
    for (const t of textures) writeFileSync(path.join(dir, t), (pictures[t] ?? toonPng)());
    return path.join(dir, 'model.pmx');
  };

  beforeAll(async () => {
    folder('toon', [TOON_BALL], ['toon.png']);
    folder('textured', [TEXTURED_BALL], ['stripes.png']);
    // The textured ball with a material morph that takes the red out of its texture (tint multiply (0, 1, 1, 1)).
    folder('tinted', [TEXTURED_BALL], ['stripes.png'], [{ name: 'tint', ball: 0, textureTint: [0, 1, 1, 1] }]);
    writeFileSync(path.join(tmp.dir, 'tint.vmd'), buildFixture({ morphs: [{ name: 'tint', frame: 0, weight: 1 }] }));
    folder('subtexture', [SUB_TEXTURE_BALL], ['halves.png'], [], [{ name: 'shift', ball: 0, offset: [0.5, 0] }]);
    writeFileSync(path.join(tmp.dir, 'shift.vmd'), buildFixture({ morphs: [{ name: 'shift', frame: 0, weight: 1 }] }));
    folder('edge', [EDGE_BALL]);
    folder('shadow', [CASTER, RECEIVER]);
    folder('shadow-nocast', [{ ...CASTER, flags: 0x08 }, RECEIVER]);
    folder('shadow-noreceive', [CASTER, { ...RECEIVER, flags: 0x04 }]);
    folder('ground', [{ ...CASTER, flags: 0x0e }, { ...RECEIVER, flags: 0x0e }]);
    writeFileSync(path.join(tmp.dir, 'front.vmd'), cameraVmd(40, [0, 0, 1]));
    writeFileSync(path.join(tmp.dir, 'shadow-mode1-short.vmd'), cameraVmd(55, SHADOW_LIGHT, { mode: 1, distance: SHORT_RANGE }));
    writeFileSync(path.join(tmp.dir, 'shadow-mode2-short.vmd'), cameraVmd(55, SHADOW_LIGHT, { mode: 2, distance: SHORT_RANGE }));
    writeFileSync(path.join(tmp.dir, 'shadow-mode2-long.vmd'), cameraVmd(55, SHADOW_LIGHT, { mode: 2, distance: LONG_RANGE }));
    writeFileSync(path.join(tmp.dir, 'side.vmd'), cameraVmd(40, [-1, 0, 0]));
    writeFileSync(path.join(tmp.dir, 'near.vmd'), cameraVmd(40, [-1, 0, 0]));
    writeFileSync(path.join(tmp.dir, 'far.vmd'), cameraVmd(80, [-1, 0, 0]));
    writeFileSync(path.join(tmp.dir, 'shadow-off.vmd'), cameraVmd(55, SHADOW_LIGHT, { mode: 0, distance: 0.01125 }));
    writeFileSync(path.join(tmp.dir, 'shadow-on.vmd'), cameraVmd(55, SHADOW_LIGHT, { mode: 1, distance: 0.01125 }));
    app = await openApp({ viewport: { width: 1600, height: 1000 } });
    await app.page.waitForFunction(() => !!window.__vmdPreview);
  });
  afterAll(async () => {
    await app?.close();
    tmp.remove();
  });

  async function pick(page: Page, opener: string, file: string) {
    await page.click(`[data-testid="${opener}"]`);
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', file);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
  }

  async function showModel(page: Page, name: string) {
    if (await page.isVisible('[data-testid="preview-use-figure"]')) {
      await page.click('[data-testid="preview-use-figure"]');
      await page.waitForSelector('[data-testid="preview-use-figure"]', { state: 'detached' });
    }
    await pick(page, 'preview-open-model', path.join(tmp.dir, name, 'model.pmx'));
    await page.waitForSelector('[data-testid="preview-use-figure"]', { timeout: 60_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid="preview-pane"]')?.textContent?.includes('Loading model'), null, { timeout: 60_000 });
    expect(await page.isVisible('[data-testid="preview-missing-textures"]'), `${name}: textures missing`).toBe(false);
  }

  async function useCamera(page: Page, file: string) {
    if (await page.isVisible('[data-testid="preview-clear-camera"]')) {
      await page.click('[data-testid="preview-clear-camera"]');
      await page.waitForSelector('[data-testid="preview-clear-camera"]', { state: 'detached' });
    }
    await pick(page, 'preview-open-camera', path.join(tmp.dir, file));
    await page.waitForSelector('[data-testid="preview-clear-camera"]');
    await page.waitForFunction(() => !(document.querySelector('[data-testid="preview-look-through"]') as HTMLInputElement)?.disabled);
    if (!(await page.isChecked('[data-testid="preview-look-through"]'))) await page.check('[data-testid="preview-look-through"]');
  }

  const frame = async (page: Page) => decode(await page.evaluate(() => window.__vmdPreview!.frameImage()));

  it('the balls are built outward: each face of the built mesh faces along its stored normal', () => {
    const r = readModel(ballsPmx([TOON_BALL]));
    if (!r.ok) throw new Error(r.error.message);
    const mesh = buildModelMesh(r.value).mesh;
    const pos = mesh.geometry.getAttribute('position'), nrm = mesh.geometry.getAttribute('normal'), index = mesh.geometry.index!;
    let outward = 0, total = 0;
    const a = new THREE.Vector3(), b = new THREE.Vector3(), c = new THREE.Vector3(), n = new THREE.Vector3();
    for (let f = 0; f < index.count; f += 3) {
      a.fromBufferAttribute(pos, index.getX(f)); b.fromBufferAttribute(pos, index.getX(f + 1)); c.fromBufferAttribute(pos, index.getX(f + 2));
      const face = b.clone().sub(a).cross(c.clone().sub(a));
      if (face.lengthSq() < 1e-12) continue;
      n.fromBufferAttribute(nrm, index.getX(f));
      total++;
      if (face.dot(n) > 0) outward++;
    }
    expect(outward).toBe(total);
  });

  it('toon bands fall where the ramp puts them for the light angle', async () => {
    const { page } = app;
    await showModel(page, 'toon');
    await useCamera(page, 'side.vmd');
    const f = await frame(page);
    save('picture-toon', f);
    const box = objectBox(f);
    console.log(`[picture] toon ball: centre ${box.cx}, ${box.cy}, radius ${box.rx} × ${box.ry} px of ${f.width}×${f.height}`);
    expect(box.rx).toBeGreaterThan(50);
    // Round and in the middle: its top lies a radius above the centre row.
    expect(Math.abs(box.cy - f.height / 2)).toBeLessThanOrEqual(2);
    // Each pixel's ray from the camera (40 units in front of the ball's centre, 30° fov, level) meets the
    // ball at normal n; light from the right travelling along −x: N·L = n.x; the ramp is read at v = ½ − ½·N·L.
    const focal = f.height / 2 / Math.tan((15 * Math.PI) / 180);
    const normalAt = (x: number, y: number): number[] | null => {
      const d = new THREE.Vector3((x + 0.5 - f.width / 2) / focal, (f.height / 2 - y - 0.5) / focal, 1).normalize();
      const oc = new THREE.Vector3(0, 0, -40); // camera − centre (MMD: the camera at −z)
      const bq = oc.dot(d), disc = bq * bq - (oc.lengthSq() - 25);
      if (disc <= 0) return null;
      const hit = oc.addScaledVector(d, -bq - Math.sqrt(disc));
      return [hit.x / 5, hit.y / 5, hit.z / 5];
    };
    const bandOf = (ndotl: number) => Math.min(3, Math.floor(4 * (0.5 - 0.5 * ndotl)));
    let checked = 0, worst = 0, worstAt = '';
    for (let y = 0; y < f.height; y += 2)
      for (let x = 0; x < f.width; x += 2) {
        const n = normalAt(x, y);
        if (!n || n[2] > -0.3) continue; // well inside the disc (facing the camera)
        const v = 0.5 - 0.5 * n[0];
        // Away from a band edge (the picture's rows blend over a texel, a pixel spans about 0.015 of N·L).
        if (Math.min(...[0.25, 0.5, 0.75].map((e) => Math.abs(v - e))) < 0.015) continue;
        const got = px(f, x, y), want = BANDS[bandOf(n[0])];
        for (const c of got) if (Math.abs(c - want) > worst) (worst = Math.abs(c - want)), (worstAt = `${x},${y} n.x ${n[0].toFixed(3)}: ${got} for ${want}`);
        checked++;
      }
    console.log(`[picture] toon: ${checked} samples, worst ${worst} off their band (${worstAt})`);
    expect(checked).toBeGreaterThan(1000);
    expect(worst).toBeLessThanOrEqual(6);
    // Along the centre row from the right: the grey crosses midway between two bands where n.x is 0.5, 0, −0.5.
    const row = Math.floor(f.height / 2);
    for (const [k, at] of [[0, 0.5], [1, 0], [2, -0.5]] as const) {
      const mid = (BANDS[k] + BANDS[k + 1]) / 2;
      let cross = NaN;
      for (let x = Math.round(box.cx + box.rx); x > box.cx - box.rx; x--) {
        const n = normalAt(x, row);
        if (n && px(f, x, row)[0] < mid) {
          cross = n[0];
          break;
        }
      }
      console.log(`[picture] toon: band ${k}→${k + 1} at n.x ${cross.toFixed(3)} (ramp: ${at})`);
      expect(Math.abs(cross - at), `band ${k}→${k + 1} at ${cross}`).toBeLessThanOrEqual(0.03);
    }
  });

  it('a texture\'s pixels are on the ball: each point shows the stripe its u falls in', async () => {
    const { page } = app;
    await showModel(page, 'textured');
    await useCamera(page, 'front.vmd');
    const f = await frame(page);
    save('picture-textured', f);
    // As in the toon test: the camera 40 units in front (MMD −z), 30° fov; the ball's u is the angle round it from +x.
    const focal = f.height / 2 / Math.tan((15 * Math.PI) / 180);
    let checked = 0, wrong = 0, firstWrong = '';
    const seen = [0, 0];
    for (let y = 0; y < f.height; y += 3)
      for (let x = 0; x < f.width; x += 3) {
        const d = new THREE.Vector3((x + 0.5 - f.width / 2) / focal, (f.height / 2 - y - 0.5) / focal, 1).normalize();
        const oc = new THREE.Vector3(0, 0, -40);
        const bq = oc.dot(d), disc = bq * bq - (oc.lengthSq() - 25);
        if (disc <= 0) continue;
        const n = oc.addScaledVector(d, -bq - Math.sqrt(disc)).multiplyScalar(1 / 5);
        if (n.z > -0.3 || Math.abs(n.y) > 0.9) continue;
        const u = ((Math.atan2(n.z, n.x) + 2 * Math.PI) % (2 * Math.PI)) / (2 * Math.PI);
        const along = u * STRIPES;
        if (Math.abs(along - Math.round(along)) < 0.08) continue; // not at a stripe's border (the texels blend there)
        const stripe = Math.floor(along) % 2;
        const [r, , b] = px(f, x, y);
        const ok = stripe === 0 ? r > b + 80 : b > r + 80;
        checked++;
        seen[stripe]++;
        if (!ok && !wrong++) firstWrong = `${x},${y} u ${u.toFixed(3)}: ${px(f, x, y)} for stripe ${stripe}`;
      }
    console.log(`[picture] texture: ${checked} samples (${seen[0]} red, ${seen[1]} blue), ${wrong} off their stripe ${firstWrong}`);
    expect(seen[0]).toBeGreaterThan(300);
    expect(seen[1]).toBeGreaterThan(300);
    expect(wrong).toBe(0);
  });

  it("a material morph's texture tint: multiply (0, 1, 1, 1) takes the red out of the texture, blue stays", async () => {
    const { page } = app;
    await showModel(page, 'tinted');
    await useCamera(page, 'front.vmd');
    // The ball's middle row, left to right: the stripes' pixels, sorted by what they show without the morph.
    const row = async () => {
      const f = await frame(page);
      const y = Math.round(f.height / 2);
      return { f, pixels: Array.from({ length: f.width }, (_, x) => px(f, x, y)) };
    };
    const before = await row();
    const red = before.pixels.flatMap((c, x) => (c[0] > c[2] + 80 ? [x] : [])), blue = before.pixels.flatMap((c, x) => (c[2] > c[0] + 80 ? [x] : []));
    expect(red.length).toBeGreaterThan(40);
    expect(blue.length).toBeGreaterThan(40);
    await openFileViaDialog(page, path.join(tmp.dir, 'tint.vmd'));
    await seekPreview(page, 0);
    const after = await row();
    save('picture-tinted', after.f);
    // Red stripes: the texture's red (230) times 0: what is left is the ambient-lit base's and the texture's
    // green and blue (40), dark; blue stripes (red 40 × 0, blue 230 × 1) stay blue.
    const stillRed = red.filter((x) => after.pixels[x][0] > after.pixels[x][2] + 20);
    const stillBlue = blue.filter((x) => after.pixels[x][2] > after.pixels[x][0] + 80);
    console.log(`[picture] texture tint: ${red.length} red pixels, ${stillRed.length} still red; ${blue.length} blue, ${stillBlue.length} still blue`);
    expect(stillRed).toEqual([]);
    expect(stillBlue.length).toBe(blue.length);
  });

  it('a sub-texture sphere (mode 3) is read at UV1, not by the normal: all red at (0.25, 0.5); a UV1 morph of (0.5, 0) makes it all blue', async () => {
    const { page } = app;
    await showModel(page, 'subtexture');
    await useCamera(page, 'front.vmd');
    // The ball (radius 5, 40 units in front, 30° fov) about the picture's centre: points on its left and right
    // halves, where a lookup by the normal (u = nx/2 + ½) would read the picture's red and blue halves.
    const look = async () => {
      const f = await frame(page);
      const r = ((f.height / 2 / Math.tan((15 * Math.PI) / 180)) * 5) / 40;
      const points = [[-0.6, 0], [-0.3, -0.4], [0.3, -0.4], [0.6, 0], [0.4, 0.4], [-0.4, 0.4]].map(([dx, dy]) => px(f, f.width / 2 + dx * r, f.height / 2 + dy * r));
      return { f, points };
    };
    const before = await look();
    save('picture-subtexture', before.f);
    console.log(`[picture] sub-texture at UV1 (0.25, 0.5): ${before.points.map((c) => c.join(',')).join(' | ')}`);
    for (const [r, , b] of before.points) expect(r, 'red at UV1 (0.25, 0.5)').toBeGreaterThan(b + 80);
    await openFileViaDialog(page, path.join(tmp.dir, 'shift.vmd'));
    await seekPreview(page, 0);
    const after = await look();
    save('picture-subtexture-shifted', after.f);
    console.log(`[picture] sub-texture, UV1 moved to (0.75, 0.5): ${after.points.map((c) => c.join(',')).join(' | ')}`);
    for (const [r, , b] of after.points) expect(b, 'blue at UV1 (0.75, 0.5)').toBeGreaterThan(r + 80);
  });

  it('edges have the edge colour and keep their width within 1 px when the camera is twice as far', async () => {
    const { page } = app;
    await showModel(page, 'edge');
    // The outline switched on (software GL has it off by default, for speed).
    if (!(await page.isChecked('[data-testid="preview-outline"]'))) await page.check('[data-testid="preview-outline"]');
    await page.waitForFunction(() => window.__vmdPreview!.outline().on);
    const widths: number[] = [];
    for (const cam of ['near.vmd', 'far.vmd']) {
      await useCamera(page, cam);
      const f = await frame(page);
      save(`picture-edge-${cam.replace('.vmd', '')}`, f);
      const box = objectBox(f);
      // Along the equator from the left: the run of orange pixels before the ball's own colour.
      const isEdge = (c: number[]) => Math.abs(c[0] - 255) <= 10 && Math.abs(c[1] - 128) <= 10 && c[2] <= 10; // (1, 0.5, 0) shown as it is: MMD's colours are sRGB
      let run = 0, best = 0;
      for (let x = Math.floor(box.cx - box.rx) - 2; x < box.cx; x++) {
        if (isEdge(px(f, x, box.cy))) best = Math.max(best, ++run);
        else run = 0;
      }
      widths.push(best);
    }
    console.log(`[picture] edge widths near/far: ${widths.join(', ')} px`);
    expect(widths[0]).toBeGreaterThanOrEqual(2);
    expect(Math.abs(widths[0] - widths[1])).toBeLessThanOrEqual(1);
  });

  it("the shown actor's outline width (beside Outline) scales the ring: half at 0.5, twice at 2, none at 0", async () => {
    const { page } = app;
    await showModel(page, 'edge');
    // A motion makes the model an actor's (the width is the actor's, kept in its scene).
    await openFileViaDialog(page, path.join(tmp.dir, 'tint.vmd'));
    await page.waitForSelector('[data-testid="preview-edge-width"]');
    if (!(await page.isChecked('[data-testid="preview-outline"]'))) await page.check('[data-testid="preview-outline"]');
    await useCamera(page, 'near.vmd');
    const widthAt = async (factor: number) => {
      await page.fill('[data-testid="preview-edge-width"]', String(factor));
      await page.press('[data-testid="preview-edge-width"]', 'Tab');
      const f = await frame(page);
      save(`picture-edge-width-${factor}`, f);
      const box = objectBox(f);
      const isEdge = (c: number[]) => Math.abs(c[0] - 255) <= 10 && Math.abs(c[1] - 128) <= 10 && c[2] <= 10;
      let run = 0, best = 0;
      for (let x = Math.floor(box.cx - box.rx) - 2; x < box.cx; x++) {
        if (isEdge(px(f, x, box.cy))) best = Math.max(best, ++run);
        else run = 0;
      }
      return { best, height: f.height };
    };
    const one = await widthAt(1);
    const half = await widthAt(0.5);
    const twice = await widthAt(2);
    const none = await widthAt(0);
    await app.screenshot('preview-edge-width');
    // MMD's rule, worked out here: the push is edge size (6) × factor × 0.0009 of the depth, which the
    // perspective divides by the depth again, so on screen it is 6 × factor × 0.0009 × focal length in px.
    const focal = one.height / 2 / Math.tan((15 * Math.PI) / 180);
    const expected = (factor: number) => 6 * factor * 0.0009 * focal;
    console.log(`[picture] outline widths at 0.5/1/2/0: ${half.best}, ${one.best}, ${twice.best}, ${none.best} px (expected ${[0.5, 1, 2, 0].map((k) => expected(k).toFixed(1)).join(', ')})`);
    for (const [w, k] of [[half.best, 0.5], [one.best, 1], [twice.best, 2]]) expect(Math.abs(w - expected(k)), `width at ${k}`).toBeLessThanOrEqual(1.5);
    expect(Math.abs(twice.best - 2 * one.best)).toBeLessThanOrEqual(2);
    expect(Math.abs(2 * half.best - one.best)).toBeLessThanOrEqual(2);
    expect(none.best).toBe(0);
    // One undo step per width: Undo puts the one before back.
    await page.click('[data-testid="cmd-undo"]');
    await expect.poll(() => page.inputValue('[data-testid="preview-edge-width"]')).toBe('2');
  });

  /**
   * Points on the front of the receiver lit well by angle (N·L ≥ 0.4, so only an occluder can darken them),
   * on screen through the shadow cameras (fov 30, 55 units, level): `hidden`, those whose ray to the light
   * hits the caster (computed here), and `reached`, those whose ray misses it; both kept away from the
   * shadow's rim (the map's texels and filter blur it) and from behind the caster on screen.
   */
  function shadowSamples(w: number, h: number) {
    const focal = h / 2 / Math.tan((15 * Math.PI) / 180);
    const project = (p: number[]) => [w / 2 + (focal * p[0]) / (55 + p[2]), h / 2 - (focal * (p[1] - CENTRE_Y)) / (55 + p[2])];
    const toLight = new THREE.Vector3(...SHADOW_LIGHT).multiplyScalar(-1).normalize();
    const hidden: number[][] = [], reached: number[][] = [];
    for (let t = 0.05; t < 1; t += 0.05)
      for (let p = -0.9; p <= 0.9; p += 0.05) {
        // A point on the front half of the receiver: up from the centre by t, across by p.
        const ny = t, nx = p * Math.sqrt(1 - t * t), nz = -Math.sqrt(Math.max(0, 1 - nx * nx - ny * ny)); // MMD: the camera is at −z
        const q = new THREE.Vector3(RECEIVER.centre[0] + 5 * nx, RECEIVER.centre[1] + 5 * ny, 5 * nz);
        if (new THREE.Vector3(nx, ny, nz).dot(toLight) < 0.4) continue;
        // Does the ray from q toward the light hit the caster? Its closest approach to the caster's centre,
        // and whether that lies ahead (toward the light).
        const oc = q.clone().sub(new THREE.Vector3(...CASTER.centre));
        const b = oc.dot(toLight);
        const miss = Math.sqrt(Math.max(0, oc.lengthSq() - b * b));
        const hit = b < 0 && miss < CASTER.radius;
        if (Math.abs(miss - CASTER.radius) < 0.35) continue;
        const [sx, sy] = project([q.x, q.y, q.z]);
        const [cx, cy] = project([CASTER.centre[0], CASTER.centre[1], CASTER.centre[2] - CASTER.radius]);
        if (Math.hypot(sx - cx, sy - cy) < (focal * CASTER.radius) / 52 + 3) continue;
        (hit ? hidden : reached).push([sx, sy, t, p]);
      }
    return { hidden, reached, project };
  }

  /** How a picture with a self-shadow key compares with the one without: the hidden points' on/off ratios, the reached points' worst change. */
  function shadowCompare(label: string, off: Rgba, on: Rgba) {
    const { hidden, reached } = shadowSamples(off.width, off.height);
    const lum = (f: Rgba, p: number[]) => px(f, p[0], p[1]).reduce((a, b) => a + b, 0) / 3;
    const ratios = hidden.map((p) => lum(on, p) / Math.max(1, lum(off, p))).sort((a, b) => a - b);
    const same = Math.max(...reached.map((p) => Math.abs(lum(on, p) - lum(off, p))));
    console.log(`[picture] ${label}: ${hidden.length} hidden samples, on/off ratio ${ratios[0]?.toFixed(3)}–${ratios[ratios.length - 1]?.toFixed(3)}; ${reached.length} reached samples, worst change ${same}`);
    expect(hidden.length).toBeGreaterThan(20);
    expect(reached.length).toBeGreaterThan(20);
    return { lo: ratios[0], hi: ratios[ratios.length - 1], same };
  }

  /** The pictures of the current model through shadow-off.vmd and through `key`. */
  async function offAndOn(page: Page, name: string, key: string): Promise<[Rgba, Rgba]> {
    await useCamera(page, 'shadow-off.vmd');
    const off = await frame(page);
    await useCamera(page, key);
    const on = await frame(page);
    save(`picture-${name}`, on);
    return [off, on];
  }

  it('with a mode-1 self-shadow key, the part of the big ball the small one hides from the light is darker than with mode off', async () => {
    const { page } = app;
    await showModel(page, 'shadow');
    const [off, on] = await offAndOn(page, 'shadow-on', 'shadow-on.vmd');
    save('picture-shadow-off', off);
    const r = shadowCompare('self-shadow mode 1', off, on);
    expect(r.hi).toBeLessThan(0.92);
    expect(r.same).toBeLessThanOrEqual(4);
  });

  it('self-shadow mode 2 covers the camera\'s view out to twice the half side: short of the balls no shadow (mode 1 still has it), long enough the shadow', async () => {
    const { page } = app;
    await showModel(page, 'shadow');
    const [off, mode1] = await offAndOn(page, 'shadow-mode1-short', 'shadow-mode1-short.vmd');
    const m1 = shadowCompare('self-shadow mode 1, half side 10', off, mode1);
    expect(m1.hi).toBeLessThan(0.92);
    const mode2Short = (await offAndOn(page, 'shadow-mode2-short', 'shadow-mode2-short.vmd'))[1];
    const short = shadowCompare('self-shadow mode 2, reach 20', off, mode2Short);
    expect(short.lo).toBeGreaterThanOrEqual(0.97);
    expect(short.same).toBeLessThanOrEqual(4);
    const mode2Long = (await offAndOn(page, 'shadow-mode2-long', 'shadow-mode2-long.vmd'))[1];
    const long = shadowCompare('self-shadow mode 2, reach 100', off, mode2Long);
    expect(long.hi).toBeLessThan(0.92);
    expect(long.same).toBeLessThanOrEqual(4);
  });

  it('material flags: a ball that does not cast (0x04 off) or one that does not receive (0x08 off) leaves the big ball unshadowed', async () => {
    const { page } = app;
    await showModel(page, 'shadow-nocast');
    const [off1, on1] = await offAndOn(page, 'shadow-nocast', 'shadow-on.vmd');
    const nocast = shadowCompare('caster without 0x04', off1, on1);
    expect(nocast.lo).toBeGreaterThanOrEqual(0.97);
    await showModel(page, 'shadow-noreceive');
    const [off2, on2] = await offAndOn(page, 'shadow-noreceive', 'shadow-on.vmd');
    const noreceive = shadowCompare('receiver without 0x08', off2, on2);
    expect(noreceive.lo).toBeGreaterThanOrEqual(0.97);
  });

  it('material flags: the ground shadow is drawn under balls with 0x02 and not under balls without', async () => {
    const { page } = app;
    // The floor under the big ball along the light: its centre slid down to y = 0, and points 1.5 units about it.
    const d = SHADOW_LIGHT;
    const c = RECEIVER.centre;
    const floor = (dx: number, dz: number) => [c[0] - (d[0] * c[1]) / d[1] + dx, 0, c[2] - (d[2] * c[1]) / d[1] + dz];
    const spots = [floor(0, 0), floor(1.5, 0), floor(-1.5, 0), floor(0, 1.5), floor(0, -1.5)];
    const shadowRgb = GROUND_SHADOW_RGB.map((v) => Math.round(255 * v));
    const medianAt = (f: Rgba, p: number[]) => {
      const { project } = shadowSamples(f.width, f.height);
      const [x, y] = project(p);
      const got: number[][] = [];
      for (let dy = -3; dy <= 3; dy++) for (let dx = -3; dx <= 3; dx++) got.push(px(f, x + dx, y + dy));
      return [0, 1, 2].map((k) => got.map((g) => g[k]).sort((a, b) => a - b)[Math.floor(got.length / 2)]);
    };
    const far = (a: number[], b: number[]) => Math.max(...a.map((v, i) => Math.abs(v - b[i])));
    await showModel(page, 'ground');
    await useCamera(page, 'shadow-off.vmd');
    const on = await frame(page);
    save('picture-ground-on', on);
    await showModel(page, 'shadow');
    await useCamera(page, 'shadow-off.vmd');
    const off = await frame(page);
    save('picture-ground-off', off);
    const withFlag = spots.map((p) => medianAt(on, p)), without = spots.map((p) => medianAt(off, p));
    console.log(`[picture] ground shadow ${shadowRgb}: with 0x02 ${withFlag.map((c) => c.join('/')).join(' ')}; without ${without.map((c) => c.join('/')).join(' ')}`);
    for (const got of withFlag) expect(far(got, shadowRgb)).toBeLessThanOrEqual(8);
    for (const got of without) expect(far(got, shadowRgb)).toBeGreaterThan(10);

    // The Ground shadow switch (MMD's 表示 → 地面影表示; the numigrate pass found none): off, the same balls with 0x02
    // leave the floor under them as it is without the flag (lighter than the shadow); on again, the shadow is back.
    // Remembered in the settings. The spots are the floor under the big ball along the light, as above.
    await showModel(page, 'ground');
    await useCamera(page, 'shadow-off.vmd');
    expect(await page.isChecked('[data-testid="preview-ground-shadow"]')).toBe(true);
    await page.uncheck('[data-testid="preview-ground-shadow"]');
    const switchedOff = await frame(page);
    save('picture-ground-switched-off', switchedOff);
    await page.check('[data-testid="preview-ground-shadow"]');
    const switchedOn = await frame(page);
    const grey = (c: number[]) => c[0] + c[1] + c[2];
    const offSpots = spots.map((p) => medianAt(switchedOff, p)), onSpots = spots.map((p) => medianAt(switchedOn, p));
    console.log(`[picture] ground shadow switch: off ${offSpots.map((c) => c.join('/')).join(' ')}; on ${onSpots.map((c) => c.join('/')).join(' ')}`);
    for (let i = 0; i < spots.length; i++) {
      expect(far(offSpots[i], shadowRgb), `spot ${i} off`).toBeGreaterThan(10);
      expect(far(onSpots[i], shadowRgb), `spot ${i} on`).toBeLessThanOrEqual(8);
      expect(grey(onSpots[i]), `spot ${i}: darker with the switch on`).toBeLessThan(grey(offSpots[i]) - 20);
    }
    // Stored before the reload: the change goes as a keepalive request, and under load (the clean-clone run) the
    // reloaded page read the settings before the server had it. What is checked is that a stored switch survives.
    const stored = page.waitForResponse((r) => r.url().endsWith('/api/call/setSettings'));
    await page.uncheck('[data-testid="preview-ground-shadow"]');
    await stored;
    await page.reload();
    await page.waitForSelector('[data-ready="true"]');
    await page.waitForFunction(() => (document.querySelector('[data-testid="preview-ground-shadow"]') as HTMLInputElement | null)?.checked === false);
    await page.check('[data-testid="preview-ground-shadow"]');
  });

  it('a corpus model at a dance frame (the picture in the README)', async () => {
    const { page } = app;
    const dir = path.join(tmp.dir, 'scene');
    mkdirSync(dir);
    copyFileSync(corpusPath('threejs/vmds/wavefile_camera.vmd'), path.join(dir, 'camera.vmd'));
    const scenePath = writeSceneFolder(dir, [[corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), 'dance.vmd']], {
      actors: [{ name: 'Gene', model: corpusPath('gene/Gene_light.pmx'), motion: 'dance.vmd' }],
      activeActor: 0,
      camera: 'camera.vmd',
    });
    if (await page.isVisible('[data-testid="preview-clear-camera"]')) await page.click('[data-testid="preview-clear-camera"]');
    await openSceneViaDialog(page, scenePath);
    await page.waitForFunction(() => window.__vmdPreview?.info().model !== null && window.__vmdPreview?.info().model !== 'balls', null, { timeout: 60_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid="preview-pane"]')?.textContent?.includes('Loading model'), null, { timeout: 60_000 });
    // What the page shows as "Loading model…" goes: the textured model (software GL presents frames
    // asynchronously, and the first textured one is slow to draw: the page showed her white meanwhile).
    const shown = decodePng(new Uint8Array(await page.locator('[data-testid="preview-pane"] canvas').first().screenshot()));
    save('picture-gene-loaded', shown);
    const texturedShare = (f: Rgba, bg: number[]) => {
      let drawn = 0, yellow = 0;
      for (let y = 0; y < f.height; y += 2)
        for (let x = 0; x < f.width; x += 2) {
          const c = px(f, x, y);
          if (Math.max(...c.map((v, i) => Math.abs(v - bg[i]))) <= 40) continue;
          drawn++;
          if (c[0] > 150 && c[1] > 150 && c[2] < 110) yellow++;
        }
      return { drawn, yellow };
    };
    const onPage = texturedShare(shown, [0x2b, 0x2f, 0x36]);
    console.log(`[picture] Gene on the page when loaded: ${onPage.drawn} samples off the background, ${onPage.yellow} yellow`);
    // Her yellow trims (169 here; the page still showing the figure, as before this wait: 47, from the
    // camera path's key dots; her untextured white: 37).
    expect(onPage.yellow).toBeGreaterThan(90);
    await seekPreview(page, 900);
    const f = await frame(page);
    save('picture-gene', f);
    await app.screenshot('picture-gene-app');
    // The model is in the preview's picture: a good share of it differs from the background.
    const bg = px(f, 2, 2);
    let drawn = 0;
    for (let y = 0; y < f.height; y += 2) for (let x = 0; x < f.width; x += 2) if (Math.max(...px(f, x, y).map((v, i) => Math.abs(v - bg[i]))) > 40) drawn++;
    expect(drawn).toBeGreaterThan(500);
    // Textured: her trims are yellow in her textures (light/bottoms.png, top.png); her materials' own colours
    // are white, so untextured she is drawn white all over (issue 27's open point). Textured here: 129
    // yellow samples (system Chromium), 161 (the packaged one); with the textures left off (checked once by
    // hand): 37, the camera path's key dots.
    expect(await page.isVisible('[data-testid="preview-missing-textures"]'), 'Gene: textures missing').toBe(false);
    const { yellow } = texturedShare(f, bg);
    console.log(`[picture] Gene at 900: ${drawn} model samples, ${yellow} yellow`);
    expect(yellow).toBeGreaterThan(80);
    // The same frame rendered as a one-picture PNG sequence through the camera (Render → Video…), read back by ffprobe.
    await page.click('[data-testid="cmd-export-video"]');
    await page.waitForSelector('[data-testid="video-dialog"]');
    await page.selectOption('[data-testid="video-format"]', 'png');
    await page.selectOption('[data-testid="video-size"]', 'scene');
    await page.fill('[data-testid="video-height"]', '540');
    await page.fill('[data-testid="video-from"]', '900');
    await page.fill('[data-testid="video-to"]', '900');
    await page.fill('[data-testid="video-path"]', path.join(dir, 'shot.png'));
    await page.click('[data-testid="video-start"]');
    await page.waitForSelector('[data-testid="video-result"]', { timeout: 120_000 });
    expect(await page.getAttribute('[data-testid="video-result"]', 'data-kind')).toBe('done');
    await page.click('[data-testid="video-close"]');
    const shot = path.join(dir, 'shot_000000.png');
    const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'json', shot], { encoding: 'utf8' })) as { streams: { codec_name: string; width: number; height: number }[] };
    expect(probe.streams[0]).toEqual({ codec_name: 'png', width: 960, height: 540 });
    copyFileSync(shot, path.join(ARTIFACTS, 'picture-gene-900.png'));
  });
});
