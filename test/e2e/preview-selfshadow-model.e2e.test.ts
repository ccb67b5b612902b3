/**
 * MMD's self-shadow on a real model (the corpus's Gene_light.pmx), in the preview's picture. MMD's self-shadow
 * pass (MME's full.fx, the reference of MMD's own drawing) blends each pixel of a material that receives it
 * (PMX 0x08) from its colour toward a shadow colour, the colour × the toon's colour, by comp = min(saturate(3·N·L),
 * lit by the shadow map); a material that does not receive is drawn by MMD's plain pass, its toon read by N·L.
 * Expected values come from the file (read by mmd-parser, not our reader) and from rays cast here:
 * - Gene's materials have no toon (MMD's toon0, white) and no specular, so in MMD her self-shadow shows nothing:
 *   the picture with a mode-1 key is the picture without one;
 * - the same model with every material given a shared toon (toon03, written into a copy of the file): points of
 *   receiving materials lit well by angle (N·L ≥ 0.5) whose rays toward the light meet a casting material (rays
 *   cast here through the file's triangles) are darker with mode 1; those whose rays meet nothing are unchanged;
 *   her face (0x16: casts, does not receive) is unchanged; and a mode-0 key gives the first picture back.
 * Pictures: test-artifacts/selfshadow-gene-*.png.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appForSuite, ARTIFACTS, corpusPath, loadPreviewCamera, showModelThroughDialog } from './harness';
import { corpusPresent } from '../helpers/corpus';
import { encodePng, type Rgba } from '../helpers/png';
import { buildFixture } from '../helpers/vmd-fixtures';

const GENE_DIR = corpusPath('gene');
const GENE_NAME = 'ジェネ / Gene';
interface ParsedPmx {
  vertices: { position: number[]; normal: number[] }[];
  faces: { indices: number[] }[];
  materials: { name: string; diffuse: number[]; specular: number[]; flag: number; toonFlag: number; toonIndex: number; faceCount: number }[];
}
const MMDParser = createRequire(import.meta.url)('mmd-parser') as { Parser: new () => { parsePmx(b: ArrayBuffer, ltr: boolean): ParsedPmx } };
const parse = (b: Uint8Array) => new MMDParser.Parser().parsePmx(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer, false);

/**
 * The camera (MMD coordinates): level, 35 units in front of (0, 12, 0), fov 30; a light from her left and above
 * (the direction it travels), so that her arms, sleeves and scarf hide parts of her in front.
 */
const TARGET = [0, 12, 0];
const DISTANCE = 35;
const LIGHT = [-1, -0.6, 0];
const cameraVmd = (mode: number) =>
  buildFixture({
    cameras: [{ frame: 0, distance: -DISTANCE, target: TARGET, rotation: [0, 0, 0], fov: 30 }],
    lights: [{ frame: 0, color: [0.6, 0.6, 0.6], direction: LIGHT }],
    shadows: [{ frame: 0, mode, distance: 0.01125 }],
  });

/**
 * A copy of a PMX 2.0 file (UTF-16 names, texture index size 1, as Gene's) whose materials all use the shared
 * toon `index`: each material record is walked from the material count (found as the count before the first
 * material's name) and its toon bytes (shared flag 0, texture −1) set to (1, index), the same length.
 */
function withSharedToon(bytes: Uint8Array, firstMaterialName: string, index: number): Uint8Array {
  const out = new Uint8Array(bytes);
  const dv = new DataView(out.buffer);
  const name = Buffer.from(firstMaterialName, 'utf16le');
  const needle = Buffer.concat([Buffer.from(new Uint32Array([name.length]).buffer), name]);
  let o = Buffer.from(out).indexOf(needle) - 4;
  const count = dv.getInt32(o, true);
  o += 4;
  for (let i = 0; i < count; i++) {
    for (let t = 0; t < 2; t++) o += 4 + dv.getInt32(o, true); // name, English name
    o += 16 + 12 + 4 + 12 + 1 + 16 + 4 + 1 + 1 + 1; // diffuse … edge size, texture, sphere, sphere mode
    out[o] = 1;
    out[o + 1] = index;
    o += 2;
    o += 4 + dv.getInt32(o, true); // memo
    o += 4; // index count
  }
  return out;
}

/**
 * Triangles of a parsed model as flat corner arrays (MMD coordinates), with each triangle's material, and a
 * tree of boxes over them (each box halved at the median of its longest side, down to 8 triangles) so that a ray
 * tests only the triangles whose boxes it passes through: a pass over all 47,106 of Gene's triangles for each
 * ray took about 18 CPU s of the shared-toon test (suitee2e2).
 */
function triangles(m: ParsedPmx) {
  const n = m.faces.length;
  const corners = new Float32Array(9 * n), material = new Uint16Array(n);
  let f = 0;
  m.materials.forEach((mat, mi) => {
    for (let k = 0; k < mat.faceCount; k++, f++) {
      material[f] = mi;
      m.faces[f].indices.forEach((v, c) => corners.set(m.vertices[v].position, 9 * f + 3 * c));
    }
  });
  return { corners, material, count: n, tree: boxTree(corners, n) };
}

/** A node of the tree: its box (grown a little, so that no rounding keeps a hit out) and two children, or a leaf's range of `order`. */
interface BoxNode {
  lo: number[];
  hi: number[];
  kids: [BoxNode, BoxNode] | null;
  from: number;
  to: number;
}

function boxTree(c: Float32Array, n: number): { root: BoxNode; order: Uint32Array } {
  const order = Uint32Array.from({ length: n }, (_, i) => i);
  const mid = (f: number, a: number) => c[9 * f + a] + c[9 * f + 3 + a] + c[9 * f + 6 + a];
  const build = (from: number, to: number): BoxNode => {
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let i = from; i < to; i++) {
      for (let k = 0; k < 9; k++) {
        const v = c[9 * order[i] + k], a = k % 3;
        if (v < lo[a]) lo[a] = v;
        if (v > hi[a]) hi[a] = v;
      }
    }
    for (let a = 0; a < 3; a++) {
      const pad = 1e-4 * (hi[a] - lo[a]) + 1e-4;
      lo[a] -= pad;
      hi[a] += pad;
    }
    if (to - from <= 8) return { lo, hi, kids: null, from, to };
    const sides = [0, 1, 2].map((a) => hi[a] - lo[a]);
    const axis = sides.indexOf(Math.max(...sides));
    order.set(Array.from(order.subarray(from, to)).sort((x, y) => mid(x, axis) - mid(y, axis)), from);
    const half = (from + to) >> 1;
    return { lo, hi, kids: [build(from, half), build(half, to)], from, to };
  };
  return { root: build(0, n), order };
}

/** The part of the ray (origin o, direction d) inside a node's box, [enter, leave], or null where it misses the box. */
function throughBox(b: BoxNode, o: number[], d: number[]): [number, number] | null {
  let enter = -Infinity, leave = Infinity;
  for (let a = 0; a < 3; a++) {
    if (d[a] === 0) {
      if (o[a] < b.lo[a] || o[a] > b.hi[a]) return null;
      continue;
    }
    const t1 = (b.lo[a] - o[a]) / d[a], t2 = (b.hi[a] - o[a]) / d[a];
    enter = Math.max(enter, Math.min(t1, t2));
    leave = Math.min(leave, Math.max(t1, t2));
  }
  return enter <= leave ? [enter, leave] : null;
}

/**
 * The nearest distance along the ray (origin o, unit direction d) at which it meets one of the triangles `use` allows (Infinity: none), and that triangle (Möller–Trumbore, both faces).
 * Of hits at the same distance, the one first in the file, as a pass over every triangle in order finds.
 */
function firstHit(t: ReturnType<typeof triangles>, use: (mi: number) => boolean, o: number[], d: number[], from: number): { dist: number; face: number } {
  let best = Infinity, face = -1;
  const c = t.corners, order = t.tree.order;
  const stack: BoxNode[] = [t.tree.root];
  while (stack.length) {
    const node = stack.pop()!;
    const span = throughBox(node, o, d);
    if (!span || span[1] < from - 1e-3 || span[0] > best + 1e-3) continue;
    if (node.kids) {
      stack.push(node.kids[0], node.kids[1]);
      continue;
    }
    for (let j = node.from; j < node.to; j++) {
      const f = order[j];
      if (!use(t.material[f])) continue;
      const i = 9 * f;
      const e1x = c[i + 3] - c[i], e1y = c[i + 4] - c[i + 1], e1z = c[i + 5] - c[i + 2];
      const e2x = c[i + 6] - c[i], e2y = c[i + 7] - c[i + 1], e2z = c[i + 8] - c[i + 2];
      const px = d[1] * e2z - d[2] * e2y, py = d[2] * e2x - d[0] * e2z, pz = d[0] * e2y - d[1] * e2x;
      const det = e1x * px + e1y * py + e1z * pz;
      if (Math.abs(det) < 1e-12) continue;
      const inv = 1 / det;
      const sx = o[0] - c[i], sy = o[1] - c[i + 1], sz = o[2] - c[i + 2];
      const u = (sx * px + sy * py + sz * pz) * inv;
      if (u < 0 || u > 1) continue;
      const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
      const v = (d[0] * qx + d[1] * qy + d[2] * qz) * inv;
      if (v < 0 || u + v > 1) continue;
      const dist = (e2x * qx + e2y * qy + e2z * qz) * inv;
      if (dist > from && (dist < best || (dist === best && f < face))) {
        best = dist;
        face = f;
      }
    }
  }
  return { dist: best, face };
}

/** A triangle's unit normal (the side facing `toward`). */
function faceNormal(t: ReturnType<typeof triangles>, f: number, toward: number[]): number[] {
  const c = t.corners, i = 9 * f;
  const n = norm(cross([c[i + 3] - c[i], c[i + 4] - c[i + 1], c[i + 5] - c[i + 2]], [c[i + 6] - c[i], c[i + 7] - c[i + 1], c[i + 8] - c[i + 2]]));
  return dot(n, toward) < 0 ? n.map((x) => -x) : n;
}

const norm = (v: number[]) => {
  const l = Math.hypot(v[0], v[1], v[2]);
  return v.map((x) => x / l);
};
const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

interface Sample {
  x: number;
  y: number;
  kind: 'hidden' | 'reached' | 'face';
}

/**
 * Pixels of the picture sorted by what the self-shadow must do there, found from vertices of the file: the ray
 * from the camera through the vertex's pixel and through the pixels 2 px left, right, up and down of it must all
 * first meet the vertex's material (else the pixel is a rim or another part). `hidden`: a receiving material, each
 * of the five points faces the light (N·L ≥ 0.4 by its triangle: 3·N·L ≥ 1, so only a shadow can darken it) and its ray toward the light meets a casting
 * material, none nearer than 0.5 units (contact, or a thin part over itself, is left out); `reached`: the same,
 * but no ray meets anything; `face`: the five points on the face material, which does not receive.
 */
function samples(m: ParsedPmx, w: number, h: number): Sample[] {
  const tri = triangles(m);
  const drawn = (mi: number) => m.materials[mi].diffuse[3] > 0;
  const casts = (mi: number) => drawn(mi) && (m.materials[mi].flag & 0x04) !== 0;
  const toLight = norm(LIGHT.map((x) => -x));
  const cam = [TARGET[0], TARGET[1], TARGET[2] - DISTANCE];
  const focal = h / 2 / Math.tan((15 * Math.PI) / 180);
  const faceMaterial = m.materials.findIndex((x) => x.name === '顔');
  const materialOf = new Int32Array(m.vertices.length).fill(-1);
  let f = 0;
  m.materials.forEach((mat, mi) => {
    for (let k = 0; k < mat.faceCount; k++, f++) for (const v of m.faces[f].indices) if (materialOf[v] < 0) materialOf[v] = mi;
  });
  const seen = new Set<string>();
  const out: Sample[] = [];
  for (let vi = 0; vi < m.vertices.length; vi++) {
    const mi = materialOf[vi];
    if (mi < 0 || !drawn(mi)) continue;
    const receives = (m.materials[mi].flag & 0x08) !== 0;
    if (mi !== faceMaterial && !receives) continue;
    const { position: p, normal } = m.vertices[vi];
    const n = norm(normal);
    if (mi !== faceMaterial && dot(n, toLight) < 0.4) continue;
    if (dot(n, norm([cam[0] - p[0], cam[1] - p[1], cam[2] - p[2]])) <= 0.3) continue;
    const x = Math.round(w / 2 + (focal * (p[0] - cam[0])) / (p[2] - cam[2]));
    const y = Math.round(h / 2 - (focal * (p[1] - cam[1])) / (p[2] - cam[2]));
    if (x < 3 || y < 3 || x > w - 4 || y > h - 4 || seen.has(`${x},${y}`)) continue;
    seen.add(`${x},${y}`);
    let ok = true, hits = 0, near = false;
    for (const [dx, dy] of [[0, 0], [2, 0], [-2, 0], [0, 2], [0, -2]]) {
      // The ray through the pixel's centre (the picture's y runs down).
      const d = norm([(x + dx + 0.5 - w / 2) / focal, (h / 2 - y - dy - 0.5) / focal, 1]);
      const hit = firstHit(tri, drawn, cam, d, 0);
      if (hit.face < 0 || tri.material[hit.face] !== mi) {
        ok = false;
        break;
      }
      if (mi === faceMaterial) continue;
      const q = cam.map((c, k) => c + hit.dist * d[k]);
      const fn = faceNormal(tri, hit.face, d.map((v) => -v));
      if (dot(fn, toLight) < 0.4) {
        ok = false;
        break;
      }
      const toward = firstHit(tri, casts, q.map((c, k) => c + 0.03 * fn[k]), toLight, 0.01);
      if (toward.face >= 0) hits++;
      if (toward.dist < 0.5) near = true;
    }
    if (!ok) continue;
    if (mi === faceMaterial) out.push({ x, y, kind: 'face' });
    else if (hits === 5 && !near) out.push({ x, y, kind: 'hidden' });
    else if (hits === 0) out.push({ x, y, kind: 'reached' });
  }
  return out;
}

const decode = (f: { width: number; height: number; rgba: string }): Rgba => ({ width: f.width, height: f.height, data: new Uint8Array(Buffer.from(f.rgba, 'base64')) });
const lum = (f: Rgba, x: number, y: number) => {
  const o = 4 * (Math.round(y) * f.width + Math.round(x));
  return (f.data[o] + f.data[o + 1] + f.data[o + 2]) / 3;
};
const differing = (a: Rgba, b: Rgba) => {
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) n++;
  return n;
};

describe.skipIf(!corpusPresent)('MMD self-shadow on a real model (Gene_light)', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 1000 } });

  async function pictureThrough(page: Page, mode: number, name: string): Promise<Rgba> {
    if (await page.isVisible('[data-testid="preview-clear-camera"]')) {
      await page.click('[data-testid="preview-clear-camera"]');
      await page.waitForSelector('[data-testid="preview-clear-camera"]', { state: 'detached' });
    }
    const file = path.join(s.tmp.dir, `mode${mode}.vmd`);
    writeFileSync(file, cameraVmd(mode));
    await loadPreviewCamera(page, file);
    await page.waitForFunction(() => !(document.querySelector('[data-testid="preview-look-through"]') as HTMLInputElement)?.disabled);
    if (!(await page.isChecked('[data-testid="preview-look-through"]'))) await page.check('[data-testid="preview-look-through"]');
    await page.waitForFunction((on) => window.__vmdPreview!.selfShadow().casting === on, mode !== 0);
    const f = decode(await page.evaluate(() => window.__vmdPreview!.frameImage()));
    writeFileSync(path.join(ARTIFACTS, `selfshadow-gene-${name}.png`), encodePng(f));
    return f;
  }

  it('without toons (MMD\'s white toon0) and specular, as Gene is, a mode-1 key leaves her picture as it is', async () => {
    const gene = parse(new Uint8Array(readFileSync(path.join(GENE_DIR, 'Gene_light.pmx'))));
    for (const m of gene.materials) {
      expect(m.toonIndex, `${m.name}: no toon`).toBe(-1);
      expect(m.specular, `${m.name}: no specular`).toEqual([0, 0, 0]);
    }
    const { page } = s.app;
    await showModelThroughDialog(page, path.join(GENE_DIR, 'Gene_light.pmx'), GENE_NAME);
    const off = await pictureThrough(page, 0, 'as-is-off');
    const on = await pictureThrough(page, 1, 'as-is-on');
    expect(differing(off, on)).toBe(0);
  });

  it('with a shared toon: mode 1 darkens what a casting material hides from the light, not the rest, nor the face (no 0x08); mode 0 gives the picture back', async () => {
    const original = new Uint8Array(readFileSync(path.join(GENE_DIR, 'Gene_light.pmx')));
    const toon = withSharedToon(original, '髪', 2);
    const dir = path.join(s.tmp.dir, 'toon');
    cpSync(path.join(GENE_DIR, 'light'), path.join(dir, 'light'), { recursive: true });
    writeFileSync(path.join(dir, 'Gene_toon.pmx'), toon);
    // The copy, read by mmd-parser: every material on shared toon03, the rest as the original.
    const before = parse(original), after = parse(toon);
    expect(after.materials.map((m) => [m.toonFlag, m.toonIndex])).toEqual(before.materials.map(() => [1, 2]));
    expect(after.materials.map((m) => ({ ...m, toonFlag: 0, toonIndex: -1 }))).toEqual(before.materials);
    expect(after.vertices.length).toBe(before.vertices.length);

    const { page } = s.app;
    await showModelThroughDialog(page, path.join(dir, 'Gene_toon.pmx'), GENE_NAME);
    const off = await pictureThrough(page, 0, 'toon-off');
    const on = await pictureThrough(page, 1, 'toon-on');
    const again = await pictureThrough(page, 0, 'toon-off-again');
    expect(differing(off, again), 'mode 0 after mode 1: the first picture').toBe(0);

    const all = samples(after, off.width, off.height);
    const of = (kind: Sample['kind']) => all.filter((p) => p.kind === kind);
    const ratios = of('hidden').map((p) => lum(on, p.x, p.y) / Math.max(1, lum(off, p.x, p.y))).sort((x, y) => x - y);
    const change = (kind: Sample['kind']) => of(kind).map((p) => Math.abs(lum(on, p.x, p.y) - lum(off, p.x, p.y))).sort((x, y) => x - y);
    const reached = change('reached'), face = change('face');
    const at = (v: number[], q: number) => v[Math.min(v.length - 1, Math.floor(q * v.length))];
    console.log(
      `[selfshadow] Gene with toon03, ${off.width}×${off.height}: ${ratios.length} hidden points, on/off ratio ${ratios[0]?.toFixed(3)}–${ratios[ratios.length - 1]?.toFixed(3)} (median ${at(ratios, 0.5)?.toFixed(3)}); ` +
        `${reached.length} reached points, worst change ${reached[reached.length - 1]}; ${face.length} face points, worst change ${face[face.length - 1]}`,
    );
    expect(ratios.length).toBeGreaterThan(15);
    expect(reached.length).toBeGreaterThan(30);
    expect(face.length).toBeGreaterThan(30);
    // Hidden: darker (toon03's shade); reached and the face: unchanged.
    expect(ratios[ratios.length - 1]).toBeLessThan(0.85);
    expect(reached[reached.length - 1]).toBeLessThanOrEqual(4);
    expect(face[face.length - 1]).toBeLessThanOrEqual(3);
  });
});
