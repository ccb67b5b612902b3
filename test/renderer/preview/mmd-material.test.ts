/**
 * MMD's material in the preview (renderer/src/preview/mmd-material.ts, mmd-toon.ts) against the bytes of
 * the corpus models, read here by a walker of our own (not the model reader): gene/Gene_light.pmx (PMX,
 * textures) and mmd-viewer-js/model/low_miku/miku.pmd (PMD). Each built three.js material holds exactly
 * the file's diffuse, alpha, ambient, specular and power, its side, and the toon the file names by the
 * format's rules; the outline holds the edge colour. The toon index rules are checked on every case.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { corpusPresent, readCorpus } from '../../helpers/corpus';
import { readModel } from '../../../shared/pmx';
import { buildModelMesh } from '../../../renderer/src/preview/model-mesh';
import { mmdParamsOf, specularOf, toonTextureOf } from '../../../renderer/src/preview/mmd-material';
import { RAMP_ROWS, SHARED_TOON_RAMPS, rampColour, rampTexture, toonRefOf } from '../../../renderer/src/preview/mmd-toon';
import { applyTextures } from '../../../renderer/src/preview/textures';
import { failure } from '../../../shared/vmd/errors';
import { tinyPmd } from '../../shared/pmx-fixtures';

interface RawMaterial {
  diffuse: number[];
  specular: number[];
  power: number;
  ambient: number[];
  flags: number;
  edgeColor: number[];
  edgeSize: number;
  /** PMX: shared flag and toon value; PMD: toon byte. */
  toonShared: boolean;
  toon: number;
}

/** Materials of a PMX file, walked from the header (every size from its globals). */
function pmxMaterials(b: Uint8Array): { materials: RawMaterial[]; textureCount: number } {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  expect(String.fromCharCode(...b.subarray(0, 4))).toBe('PMX ');
  const g = [...b.subarray(9, 9 + b[8])];
  const [, addUv, vSize, tSize, , bSize] = g;
  let o = 9 + b[8];
  const text = () => {
    const n = v.getInt32(o, true);
    o += 4 + n;
  };
  for (let i = 0; i < 4; i++) text();
  const vertices = v.getInt32(o, true);
  o += 4;
  for (let i = 0; i < vertices; i++) {
    o += 12 + 12 + 8 + 16 * addUv;
    const type = b[o++];
    o += [bSize, 2 * bSize + 4, 4 * bSize + 16, 2 * bSize + 4 + 36, 4 * bSize + 16][type];
    o += 4; // edge scale
  }
  o += 4 + v.getInt32(o, true) * vSize;
  const textureCount = v.getInt32(o, true);
  o += 4;
  for (let i = 0; i < textureCount; i++) text();
  const count = v.getInt32(o, true);
  o += 4;
  const idx = (size: number) => {
    const r = size === 1 ? v.getInt8(o) : size === 2 ? v.getInt16(o, true) : v.getInt32(o, true);
    o += size;
    return r;
  };
  const f = (n: number) => {
    const r = [...Array(n)].map((_, k) => v.getFloat32(o + 4 * k, true));
    o += 4 * n;
    return r;
  };
  const materials: RawMaterial[] = [];
  for (let i = 0; i < count; i++) {
    text();
    text();
    const diffuse = f(4), specular = f(3), power = f(1)[0], ambient = f(3);
    const flags = b[o++];
    const edgeColor = f(4), edgeSize = f(1)[0];
    idx(tSize);
    idx(tSize);
    o++; // sphere mode
    const toonShared = b[o++] === 1;
    const toon = toonShared ? b[o++] : idx(tSize);
    text();
    o += 4;
    materials.push({ diffuse, specular, power, ambient, flags, edgeColor, edgeSize, toonShared, toon });
  }
  return { materials, textureCount };
}

/** Materials of a PMD file: fixed 38-byte vertices, u16 faces, 70-byte materials. */
function pmdMaterials(b: Uint8Array): RawMaterial[] {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  expect(String.fromCharCode(...b.subarray(0, 3))).toBe('Pmd');
  let o = 283;
  o += 4 + 38 * v.getUint32(o, true);
  o += 4 + 2 * v.getUint32(o, true);
  const count = v.getUint32(o, true);
  o += 4;
  const out: RawMaterial[] = [];
  for (let i = 0; i < count; i++, o += 70) {
    const fl = (k: number) => v.getFloat32(o + 4 * k, true);
    out.push({
      diffuse: [fl(0), fl(1), fl(2), fl(3)],
      power: fl(4),
      specular: [fl(5), fl(6), fl(7)],
      ambient: [fl(8), fl(9), fl(10)],
      toonShared: true,
      toon: b[o + 44],
      flags: b[o + 45], // PMD: the edge flag byte
      edgeColor: [0, 0, 0, 1],
      edgeSize: 1,
    });
  }
  return out;
}

const rgb = (c: THREE.Color) => [c.r, c.g, c.b];
const f32 = (a: number[]) => a.map((x) => Math.fround(x));

describe('toon index rules', () => {
  it('PMX shared 0–9 is a shared ramp; a texture index is the model file; anything else none', () => {
    expect(toonRefOf({ toonShared: true, toon: 0 }, 5)).toEqual({ kind: 'shared', index: 0 });
    expect(toonRefOf({ toonShared: true, toon: 9 }, 5)).toEqual({ kind: 'shared', index: 9 });
    expect(toonRefOf({ toonShared: true, toon: 10 }, 5)).toEqual({ kind: 'none' });
    expect(toonRefOf({ toonShared: true, toon: -1 }, 5)).toEqual({ kind: 'none' });
    expect(toonRefOf({ toonShared: false, toon: 4 }, 5)).toEqual({ kind: 'file', texture: 4 });
    expect(toonRefOf({ toonShared: false, toon: 5 }, 5)).toEqual({ kind: 'none' });
    expect(toonRefOf({ toonShared: false, toon: -1 }, 5)).toEqual({ kind: 'none' });
  });

  it("a PMD whose toon table names a file of its own draws that file: the preview asks for it beside the model", async () => {
    const toons = Array.from({ length: 10 }, (_, k) => `toon${String(k + 1).padStart(2, '0')}.bmp`);
    toons[2] = 'miku_toon.bmp'; // the fixture's material has toon byte 2
    const r = readModel(tinyPmd({ toons }).build());
    if (!r.ok) throw new Error(r.error.message);
    const built = buildModelMesh(r.value);
    expect(built.params[0].toon).toEqual({ kind: 'file', texture: r.value.textures.indexOf('miku_toon.bmp') });
    const asked: string[] = [];
    const { problems } = await applyTextures(built, async (p) => (asked.push(p), failure({ code: 'E_IO_NOT_FOUND', message: 'not here' })));
    expect(asked.sort()).toEqual(['miku_toon.bmp', 'shine.sph', 'skin.bmp']);
    expect(problems.map((x) => x.path).sort()).toEqual(['miku_toon.bmp', 'shine.sph', 'skin.bmp']);
    built.dispose();
  });

  it('our ten shared ramps: white on the lit side, their shade on the far side, one column each', () => {
    expect(SHARED_TOON_RAMPS).toHaveLength(10);
    for (const spec of SHARED_TOON_RAMPS) {
      expect(rampColour(spec, 0)).toEqual([255, 255, 255]);
      expect(rampColour(spec, 1)).toEqual(spec.shade);
      const tex = rampTexture(spec);
      const data = tex.image.data as Uint8Array;
      expect([tex.image.width, tex.image.height]).toEqual([1, RAMP_ROWS]);
      expect([...data.subarray(0, 3)]).toEqual([255, 255, 255]);
      expect([...data.subarray(4 * (RAMP_ROWS - 1), 4 * RAMP_ROWS - 1)]).toEqual(spec.shade);
      expect([tex.wrapT, tex.flipY, tex.colorSpace]).toEqual([THREE.ClampToEdgeWrapping, false, THREE.SRGBColorSpace]);
    }
    // No toon: a white ramp (no toon shading).
    expect([...(rampTexture(null).image.data as Uint8Array)]).toEqual([255, 255, 255, 255]);
  });
});

describe.skipIf(!corpusPresent)('MMD material parameters from the corpus models, against their bytes', () => {
  it('Gene_light.pmx: diffuse, alpha, ambient, specular, power, side, toon and edge per material', () => {
    const bytes = readCorpus('gene/Gene_light.pmx');
    const raw = pmxMaterials(bytes);
    const r = readModel(bytes);
    if (!r.ok) throw new Error(r.error.message);
    const built = buildModelMesh(r.value);
    expect(built.materials).toHaveLength(raw.materials.length);
    const kinds = new Set<string>();
    raw.materials.forEach((m, i) => {
      const mat = built.materials[i];
      expect(rgb(mat.color), `material ${i} diffuse`).toEqual(f32(m.diffuse.slice(0, 3)));
      expect(mat.opacity).toBe(Math.fround(m.diffuse[3]));
      expect(rgb(mat.emissive), `material ${i} ambient`).toEqual(f32(m.ambient));
      expect(specularOf(mat)).toEqual({ color: f32(m.specular), power: Math.fround(m.power) });
      expect(mat.side).toBe(m.flags & 1 ? THREE.DoubleSide : THREE.FrontSide);
      expect(mat.transparent).toBe(true);
      const p = mmdParamsOf(mat)!;
      expect([p.groundShadow, p.castShadow, p.receiveShadow, p.edge]).toEqual([!!(m.flags & 2), !!(m.flags & 4), !!(m.flags & 8), !!(m.flags & 16)]);
      const want = m.toonShared ? (m.toon <= 9 ? { kind: 'shared', index: m.toon } : { kind: 'none' }) : m.toon >= 0 && m.toon < raw.textureCount ? { kind: 'file', texture: m.toon } : { kind: 'none' };
      expect(p.toon).toEqual(want);
      kinds.add(p.toon.kind);
      const toon = toonTextureOf(mat)! as THREE.Texture<{ data: Uint8Array; height: number }>;
      if (p.toon.kind === 'shared') expect([...toon.image.data.subarray(4 * (RAMP_ROWS - 1), 4 * RAMP_ROWS - 1)]).toEqual(SHARED_TOON_RAMPS[p.toon.index].shade);
      if (p.toon.kind === 'none') expect(toon.image.height).toBe(1);
      // The outline: the edge colour as shown (sRGB) and its alpha, drawn only with the edge flag.
      const edge = built.edges.materials[i];
      expect(Object.values(edge.color.getRGB({ r: 0, g: 0, b: 0 }, THREE.SRGBColorSpace)).map((x: number) => +x.toFixed(3))).toEqual(f32(m.edgeColor.slice(0, 3)).map((x) => +x.toFixed(3)));
      expect(edge.opacity).toBe(Math.fround(m.edgeColor[3]));
      expect(built.edges.drawn[i]).toBe(!!(m.flags & 16) && m.edgeSize > 0 && m.edgeColor[3] > 0);
      // The ground shadow: only where the flag asks.
      expect(built.groundShadow.materials[i].visible).toBe(!!(m.flags & 2));
    });
    console.log(`[mmd-material] Gene_light.pmx: ${raw.materials.length} materials, toons ${[...kinds].join(', ')}`);
    built.dispose();
  });

  it('miku.pmd: the same fields from the 70-byte records; toon byte 0–9 shared, 0xFF none; edge flag', () => {
    const bytes = readCorpus('mmd-viewer-js/model/low_miku/miku.pmd');
    const raw = pmdMaterials(bytes);
    const r = readModel(bytes);
    if (!r.ok) throw new Error(r.error.message);
    const built = buildModelMesh(r.value);
    expect(built.materials).toHaveLength(raw.length);
    raw.forEach((m, i) => {
      const mat = built.materials[i];
      expect(rgb(mat.color)).toEqual(f32(m.diffuse.slice(0, 3)));
      expect(mat.opacity).toBe(Math.fround(m.diffuse[3]));
      expect(rgb(mat.emissive)).toEqual(f32(m.ambient));
      expect(specularOf(mat)).toEqual({ color: f32(m.specular), power: Math.fround(m.power) });
      const p = mmdParamsOf(mat)!;
      expect(p.toon).toEqual(m.toon === 0xff ? { kind: 'none' } : { kind: 'shared', index: m.toon });
      // PMD: the edge flag byte draws the outline and the ground shadow; every material casts; alpha 0.98 receives none.
      expect([p.edge, p.groundShadow, p.castShadow, p.receiveShadow]).toEqual([m.flags === 1, m.flags === 1, true, Math.fround(m.diffuse[3]) !== Math.fround(0.98)]);
      expect(built.edges.materials[i].color.toArray()).toEqual([0, 0, 0]);
    });
    built.dispose();
  });
});
