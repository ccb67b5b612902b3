// PMX / PMD reader: hand-built fixtures with known values, every truncation, and the corpus models checked
// against an independent parser (mmd-parser).
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { corpusDir } from '../helpers/corpus';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readModel, readPmx, readPmd, inspectModel, compareMotionToModel, matchKey, namesSharingKey, sharedKeyNames, BONE_FLAG, Deform } from '../../shared/pmx';
import { readVmd, buildTracks, inspectVmd, type Diagnostic } from '../../shared/vmd';
import { checkBoneRefs } from '../../shared/pmx/pmx-reader';
import { bone as physicsBone } from '../helpers/physics-model';
import { mikuWithBadBones } from '../helpers/damaged-models';
import { morphPmx, tinyPmx, tinyPmd } from './pmx-fixtures';

const CORPUS = corpusDir;
const load = (rel: string) => new Uint8Array(readFileSync(path.join(CORPUS, rel)));
/** PMX morph type byte per kind (the spec's numbering, written out here rather than taken from the reader). */
const MORPH_TYPE: Record<string, number> = { group: 0, vertex: 1, bone: 2, uv: 3, uv1: 4, uv2: 5, uv3: 6, uv4: 7, material: 8, flip: 9, impulse: 10 };
const MMDParser = createRequire(import.meta.url)('mmd-parser') as { Parser: new () => { parsePmx(b: ArrayBuffer, ltr: boolean): any; parsePmd(b: ArrayBuffer, ltr: boolean): any } };

function mustRead(bytes: Uint8Array) {
  const r = readModel(bytes);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r;
}

describe('PMX fixture', () => {
  for (const variant of [
    { utf8: false, boneIndexSize: 2, vertexIndexSize: 1, materialIndexSize: 1 },
    { utf8: true, boneIndexSize: 1, vertexIndexSize: 4, materialIndexSize: 2 },
    { utf8: false, boneIndexSize: 4, vertexIndexSize: 2, materialIndexSize: 4 },
  ] as const) {
    it(`reads every field (${JSON.stringify(variant)})`, () => {
      const r = mustRead(tinyPmx(variant).build());
      expect(r.diagnostics).toEqual([]);
      const m = r.value;
      expect(m.format).toBe('pmx');
      expect(m.version).toBe(2);
      expect([m.name, m.nameEn, m.comment, m.commentEn]).toEqual(['テスト', 'Test', 'コメント', 'comment']);
      expect(m.vertexCount).toBe(4);
      expect(Array.from(m.positions.subarray(9, 12))).toEqual([3, 6, 9]);
      expect(Array.from(m.normals.subarray(3, 6))).toEqual([0, 1, 0]);
      expect(Array.from(m.uvs.subarray(4, 6))).toEqual([0.5, 0.5]);
      expect(Array.from(m.deform)).toEqual([Deform.BDEF1, Deform.BDEF2, Deform.SDEF, Deform.BDEF4]);
      expect(Array.from(m.edgeScales)).toEqual([1, 0.5, 2, 0]);
      // BDEF1 → (0, w 1); BDEF2 → (0, 1, w .75/.25); SDEF as BDEF2 (1, 2, .6/.4); BDEF4 as stored
      expect(Array.from(m.skinIndices)).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 1, 2, 0, 0, 0, 1, 2, 3]);
      const w = Array.from(m.skinWeights, (x) => Math.round(x * 1000) / 1000);
      expect(w).toEqual([1, 0, 0, 0, 0.75, 0.25, 0, 0, 0.6, 0.4, 0, 0, 0.1, 0.2, 0.3, 0.4]);
      // SDEF's C, R0, R1 (the fixture writes 1…9 for vertex 2); the other vertices' slots stay zero.
      expect(Array.from(m.sdef!.subarray(18, 27))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(Array.from(m.sdef!).filter((x, i) => (i < 18 || i >= 27) && x !== 0)).toEqual([]);
      expect(Array.from(m.indices)).toEqual([0, 1, 2, 1, 2, 3]);
      expect(m.textures).toEqual(['tex\\skin.png']);
      expect(m.materials).toHaveLength(1);
      const mat = m.materials[0];
      expect(mat.name).toBe('肌');
      expect(mat.diffuse.map((x) => Math.round(x * 100) / 100)).toEqual([0.8, 0.7, 0.6, 1]);
      expect([mat.texture, mat.sphereTexture, mat.sphereMode, mat.toonShared, mat.toon, mat.indexCount, mat.flags, mat.edgeSize]).toEqual([0, -1, 0, true, 3, 6, 0x11, 1.5]);
      expect(m.bones.map((b) => b.name)).toEqual(['センター', '左足', '左ひざ', '左足ＩＫ', '右目']);
      expect(m.bones.map((b) => b.parent)).toEqual([-1, 0, 1, -1, 0]);
      expect(m.bones[1].tailBone).toBe(2);
      expect(m.bones[0].tailOffset).toEqual([0, 1, 0]);
      expect(m.bones[3].layer).toBe(1);
      const ik = m.bones[3].ik!;
      expect(ik.target).toBe(2);
      expect(ik.loopCount).toBe(40);
      expect(ik.limitAngle).toBe(2);
      expect(ik.links.map((l) => l.bone)).toEqual([1, 0]);
      expect(ik.links[0].limits!.min).toEqual([-3, 0, 0]);
      expect(ik.links[0].limits!.max[0]).toBeCloseTo(-0.01, 6);
      expect(ik.links[1].limits).toBeNull();
      const eye = m.bones[4];
      expect(eye.flags & BONE_FLAG.APPEND_ROTATE).toBeTruthy();
      expect([eye.appendParent, eye.appendRatio, eye.fixedAxis]).toEqual([0, 0.5, [0, 1, 0]]);
      expect(m.morphs.map((x) => [x.name, x.kind, x.panel, x.count])).toEqual([
        ['あ', 'vertex', 3, 2], ['まとめ', 'group', 4, 1], ['骨', 'bone', 4, 1], ['目UV', 'uv', 2, 2], ['色', 'material', 4, 2],
        ['フリップ', 'flip', 4, 1], ['インパルス', 'impulse', 4, 1],
      ]);
      expect(Array.from(m.morphs[0].vertex!.indices)).toEqual([1, 3]);
      expect(Array.from(m.morphs[0].vertex!.offsets)).toEqual([0.5, 0, 0, 0, -0.25, 0.125]);
      expect(m.morphs[1].group!.weights[0]).toBeCloseTo(0.7, 6);
      // Each kind fills only its own field.
      expect(m.morphs.map((x) => [!!x.vertex, !!x.group, !!x.bone, !!x.uv, !!x.material].map(Number).join(''))).toEqual(['10000', '01000', '00100', '00010', '00001', '00000', '00000']);
      const bm = m.morphs[2].bone!;
      expect(Array.from(bm.indices)).toEqual([1]);
      expect(Array.from(bm.translations)).toEqual([0.5, -1, 2]);
      expect(Array.from(bm.rotations).map(Math.fround)).toEqual([0, 0.6, 0, 0.8].map(Math.fround));
      const uv = m.morphs[3].uv!;
      expect(Array.from(uv.indices)).toEqual([1, 3]);
      expect(Array.from(uv.offsets)).toEqual([0.125, -0.25, 0.5, 1, -1, 2, -3, 4]);
      const mm = m.morphs[4].material!;
      expect(Array.from(mm.indices)).toEqual([0, -1]);
      expect(Array.from(mm.operations)).toEqual([0, 1]);
      expect(Array.from(mm.diffuse)).toEqual([0.5, 0.25, 2, 0, -0.5, 0, 0.25, -1]);
      expect(Array.from(mm.specular)).toEqual([1, 2, 3, 0, 0, 0]);
      expect(Array.from(mm.specularity)).toEqual([4, -2]);
      expect(Array.from(mm.ambient)).toEqual([0.125, 0.25, 0.375, 0.0625, 0, 0]);
      expect(Array.from(mm.edgeColor)).toEqual([0.5, 0.625, 0.75, 0.875, 0, 0, 0, -0.25]);
      expect(Array.from(mm.edgeSize)).toEqual([1.5, -0.75]);
      expect(Array.from(mm.textureTint)).toEqual([2, 2.5, 3, 3.5, 0, 0, 0, 0]);
      expect(Array.from(mm.sphereTint)).toEqual([4.5, 5, 5.5, 6, 0, 0, 0, 0]);
      expect(Array.from(mm.toonTint)).toEqual([6.5, 7, 7.5, 8, 0, 0, 0, 0.5]);
      expect([m.rigidBodyCount, m.jointCount]).toEqual([1, 0]);
    });
  }

  it('keeps the first additional UV as stored (a sub-texture sphere reads it); none without one; a second is skipped', () => {
    expect(mustRead(tinyPmx().build()).value.uv1).toBeNull();
    const uv1 = [0, 0.75, 5, 6, 0.125, 0.75, 5, 6, 0.25, 0.75, 5, 6, 0.375, 0.75, 5, 6];
    const one = mustRead(morphPmx().build()).value, two = mustRead(morphPmx({ uv2: true }).build()).value;
    expect(Array.from(one.uv1!)).toEqual(uv1);
    expect(Array.from(two.uv1!)).toEqual(uv1);
    // Past the second UV the vertices read as with one: deform, bone, edge scale, and all that follows.
    expect({ ...two, uv1: null }).toEqual({ ...one, uv1: null });
  });

  it('returns a truncation error with an offset for every cut before the physics section, never throws', () => {
    const w = tinyPmx();
    const full = w.build();
    for (let n = 0; n < w.marks.frames; n++) {
      const r = readPmx(full.subarray(0, n));
      expect(r.ok, `cut at ${n}`).toBe(false);
      if (!r.ok) {
        expect(['E_PMX_TRUNCATED', 'E_PMX_MAGIC']).toContain(r.error.code);
        if (n >= 4) expect(r.error.offset, `cut at ${n}: ${r.error.message}`).toBeLessThanOrEqual(n);
      }
    }
    // Cut inside the physics section: the model still reads, with a diagnostic.
    const r = readPmx(full.subarray(0, w.marks.rigid + 6));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.diagnostics.map((d) => d.code)).toContain('W_PMX_PHYSICS');
  });

  it('gives a typed truncation error at the start of the offsets for a cut inside a bone, UV or material morph', () => {
    for (const variant of [{ boneIndexSize: 2, vertexIndexSize: 1, materialIndexSize: 1 }, { boneIndexSize: 4, vertexIndexSize: 4, materialIndexSize: 2 }] as const) {
      const w = tinyPmx(variant);
      const full = w.build();
      // Offset sizes written by the fixture: bone idx + 28; 2 × (vertex idx + 16); 2 × (material idx + 113).
      const spans = [
        ['boneMorph', 2, variant.boneIndexSize + 28],
        ['uvMorph', 3, 2 * (variant.vertexIndexSize + 16)],
        ['materialMorph', 4, 2 * (variant.materialIndexSize + 113)],
      ] as const;
      for (const [mark, morph, size] of spans) {
        const start = w.marks[mark];
        // The next morph's name length follows the offsets directly: the sizes above are the whole span.
        expect(new DataView(full.buffer).getInt32(start + size, true), mark).toBeGreaterThan(0);
        for (const cut of [start, start + 1, start + (size >> 1), start + size - 1]) {
          const r = readPmx(full.subarray(0, cut));
          expect(r.ok, `${mark} cut at ${cut}`).toBe(false);
          if (r.ok) continue;
          expect(r.error.code).toBe('E_PMX_TRUNCATED');
          expect(r.error.offset, r.error.message).toBe(start);
          expect(r.error.message).toContain(`morph ${morph} offsets`);
        }
        // Cut right after the offsets: the error has moved on past them.
        const after = readPmx(full.subarray(0, start + size));
        expect(after.ok).toBe(false);
        if (!after.ok) expect(after.error.offset).toBeGreaterThanOrEqual(start + size);
      }
    }
  });

  it('refuses a bone, UV vertex or material index out of range in a morph offset, naming its offset', () => {
    for (const bi of [1, 2, 4] as const) {
      const w = tinyPmx({ boneIndexSize: bi, materialIndexSize: 2 });
      const cases: [string, (d: DataView, o: number) => void, RegExp][] = [
        ['boneMorph', (d, o) => (bi === 1 ? d.setInt8(o, 5) : bi === 2 ? d.setInt16(o, 5, true) : d.setInt32(o, 5, true)), /bone 5; the model has 5/],
        ['boneMorph', (d, o) => (bi === 1 ? d.setInt8(o, -1) : bi === 2 ? d.setInt16(o, -1, true) : d.setInt32(o, -1, true)), /bone -1/],
        ['uvMorph', (d, o) => d.setUint8(o, 4), /vertex 4; the model has 4/],
        ['materialMorph', (d, o) => d.setInt16(o, 1, true), /material 1; the model has 1/],
        ['materialMorph', (d, o) => d.setInt16(o, -2, true), /material -2/],
      ];
      for (const [mark, corrupt, msg] of cases) {
        const bytes = w.build();
        corrupt(new DataView(bytes.buffer), w.marks[mark]);
        const r = readPmx(bytes);
        expect(r.ok, `${mark} ${msg}`).toBe(false);
        if (r.ok) continue;
        expect(r.error.code).toBe('E_PMX_INDEX');
        expect(r.error.offset).toBe(w.marks[mark]);
        expect(r.error.message).toMatch(msg);
      }
    }
  });

  it('keeps an unknown material morph operation as a diagnostic, not an error', () => {
    const w = tinyPmx();
    const bytes = w.build();
    bytes[w.marks.materialOp] = 7;
    const r = readPmx(bytes);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'W_PMX_MORPH', offset: w.marks.materialOp })]);
    expect(Array.from(r.value.morphs[4].material!.operations)).toEqual([7, 1]);
  });

  it('refuses an absurd vertex count before allocating for it', () => {
    const w = tinyPmx();
    const bytes = w.build();
    new DataView(bytes.buffer).setInt32(w.marks.vertices, 0x7fffffff, true);
    const r = readPmx(bytes);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('E_PMX_TRUNCATED');
      expect(r.error.offset).toBe(w.marks.vertices + 4);
      expect(r.error.message).toMatch(/vertices/);
    }
  });

  it('rejects a face index out of range, naming its offset', () => {
    const w = tinyPmx();
    const bytes = w.build();
    bytes[w.marks.faces + 4 + 2] = 9; // third index of the first triangle → vertex 9 of 4
    const r = readPmx(bytes);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.offset).toBe(w.marks.faces + 4 + 2);
    if (!r.ok) expect(r.error.code).toBe('E_PMX_INDEX');
  });

  // A bone at NaN or 1e20 poses its whole branch there: a retarget onto it wrote NaN and Infinity keys.
  it('refuses a bone whose position is NaN, infinite or past ±10,000,000, naming the bone, the axis and the offset (PMX and PMD)', () => {
    const pattern = new Uint8Array(new Float32Array([1, 10, 0]).buffer); // 左足's position in both fixtures
    const cases: [number, number, string][] = [[1, NaN, 'position y is NaN, not a number'], [0, 1e10, 'position x is 1.00e+10, beyond ±10,000,000'], [2, -Infinity, 'position z is -Infinity, not a number']];
    for (const built of [tinyPmx().build(), tinyPmd().build()]) {
      const at = built.findIndex((_, i) => pattern.every((x, k) => built[i + k] === x));
      expect(at).toBeGreaterThan(0);
      expect(readModel(built).ok).toBe(true);
      for (const [k, v, message] of cases) {
        const b = built.slice();
        new DataView(b.buffer).setFloat32(at + 4 * k, v, true);
        const r = readModel(b);
        expect(r.ok).toBe(false);
        if (r.ok) continue;
        expect(r.error).toMatchObject({ code: 'E_PMX_NUMBER', message: `bone 1 "左足": ${message}`, offset: at + 4 * k });
      }
    }
  });

  it('names an unknown deform type and an unknown morph type by their own codes and byte offsets', () => {
    const w = tinyPmx();
    // Vertex 0: position, normal, UV (8 floats = 32 bytes) after the count, then its deform type byte.
    const deformAt = w.marks.vertices + 4 + 32;
    const badDeform = w.build();
    expect(badDeform[deformAt]).toBe(0);
    badDeform[deformAt] = 9;
    const d = readPmx(badDeform);
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.error).toMatchObject({ code: 'E_PMX_DEFORM', offset: deformAt, message: 'vertex 0: unknown deform type 9' });
    // Morph 0: count, two UTF-16 names of 2 bytes each (4-byte lengths), its panel byte, then its type byte.
    const typeAt = w.marks.morphs + 4 + 6 + 6 + 1;
    const badMorph = w.build();
    expect(badMorph[typeAt]).toBe(1);
    badMorph[typeAt] = 11;
    const m = readPmx(badMorph);
    expect(m.ok).toBe(false);
    if (!m.ok) expect(m.error).toMatchObject({ code: 'E_PMX_MORPH', offset: typeAt, message: 'morph 0: unknown morph type 11' });
  });

  it('respects a Uint8Array view with a byteOffset', () => {
    const inner = tinyPmx().build();
    const outer = new Uint8Array(inner.length + 7);
    outer.set(inner, 5);
    const r = mustRead(outer.subarray(5, 5 + inner.length));
    expect(r.value.bones).toHaveLength(5);
  });

  it('rejects non-model bytes', () => {
    const r = readModel(new TextEncoder().encode('Vocaloid Motion Data 0002'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('E_PMX_MAGIC');
  });
});

describe('PMD fixture', () => {
  it('reads vertices, materials with sphere maps, bones, the IK with its knee limit and base-relative morphs', () => {
    const r = mustRead(tinyPmd().build());
    expect(r.diagnostics).toEqual([]);
    const m = r.value;
    expect(m.format).toBe('pmd');
    expect(m.sdef ?? null).toBeNull(); // PMD has no SDEF
    expect(m.name).toBe('センター');
    expect(m.vertexCount).toBe(3);
    expect(Array.from(m.positions.subarray(3, 6))).toEqual([1, 2, 3]);
    expect(Array.from(m.skinWeights.subarray(0, 8)).map((x) => Math.round(x * 100) / 100)).toEqual([1, 0, 0, 0, 0.3, 0.7, 0, 0]);
    expect(Array.from(m.edgeScales)).toEqual([1, 0, 1]);
    expect(Array.from(m.skinIndices.subarray(0, 4))).toEqual([0, 1, 0, 0]);
    expect(Array.from(m.indices)).toEqual([0, 1, 2]);
    expect(m.textures).toEqual(['skin.bmp', 'shine.sph']);
    expect([m.materials[0].texture, m.materials[0].sphereTexture, m.materials[0].sphereMode, m.materials[0].toon]).toEqual([0, 1, 1, 2]);
    expect(m.materials[0].diffuse).toEqual([1, 0.5, 0.25, 0.5]);
    expect(m.bones.map((b) => b.name)).toEqual(['センター', '左足', '左ひざ', '左足ＩＫ', '足首']);
    expect(m.bones.map((b) => b.parent)).toEqual([-1, 0, 1, -1, 2]);
    const ik = m.bones[3].ik!;
    expect(ik.target).toBe(4);
    expect(ik.loopCount).toBe(30);
    expect(ik.limitAngle).toBeCloseTo(2, 6); // 0.5 × 4
    expect(ik.links.map((l) => l.bone)).toEqual([2, 1]);
    expect(ik.links[0].limits).not.toBeNull(); // ひざ
    expect(ik.links[1].limits).toBeNull();
    expect(m.morphs.map((x) => x.name)).toEqual(['base', 'あ']);
    expect(Array.from(m.morphs[1].vertex!.indices)).toEqual([2]); // base entry 1 → vertex 2
    expect(Array.from(m.morphs[1].vertex!.offsets)).toEqual([0, 0.5, 0]);
  });

  it('returns an error (never throws) for every cut before the optional tail', () => {
    const w = tinyPmd();
    const full = w.build();
    for (let n = 0; n < w.marks.tail; n++) {
      const r = readPmd(full.subarray(0, n));
      expect(r.ok, `cut at ${n}`).toBe(false);
    }
    expect(readPmd(full.subarray(0, w.marks.tail)).ok).toBe(true);
  });
});

describe('PMD bone groups (表示枠)', () => {
  const DEFAULTS = Array.from({ length: 10 }, (_, k) => `toon${String(k + 1).padStart(2, '0')}.bmp`);

  it('reads the groups in file order with their bones, after a Root frame of bone 0 (no group holds it), and their English names', () => {
    const r = mustRead(tinyPmd({ display: { groups: ['Legs', 'IK'], entries: [[2, 1], [1, 1], [3, 2]], en: ['legs', 'ik'] } }).build());
    expect(r.diagnostics).toEqual([]);
    expect(r.value.displayFrameCount).toBe(2); // the file's groups: what the File panel counts
    expect(r.value.displayFrames).toEqual([
      { name: 'Root', nameEn: 'Root', special: true, bones: [0], morphs: [] },
      { name: 'Legs', nameEn: 'legs', special: false, bones: [2, 1], morphs: [] },
      { name: 'IK', nameEn: 'ik', special: false, bones: [3], morphs: [] },
    ]);
    expect(r.value.bones.map((b) => b.nameEn)).toEqual(['center', 'leg_L', 'knee_L', 'leg IK_L', 'ankle']);
  });

  it('a group that holds bone 0 gets no Root frame before it', () => {
    const r = mustRead(tinyPmd({ display: { groups: ['All'], entries: [[0, 1], [1, 1]] } }).build());
    expect(r.value.displayFrames?.map((f) => [f.name, f.bones])).toEqual([['All', [0, 1]]]);
  });

  it('entries naming a bone or a group past the model are left out, with one W_PMD_DISPLAY note at the first; the rest (toons) still reads', () => {
    const w = tinyPmd({ display: { groups: ['Legs'], entries: [[1, 1], [5, 1], [2, 2], [2, 0], [2, 1]] }, toons: DEFAULTS.map((t, k) => (k === 2 ? 'own.bmp' : t)) });
    const r = mustRead(w.build());
    // Entry 1 (bone 5 of 5) is the first bad one: 4 bytes of count, then 3 bytes per entry.
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'W_PMD_DISPLAY', offset: w.marks.boneDisplay + 4 + 3, params: { n: 3, bone: 5, group: 1, bones: 5, groups: 1 } })]);
    expect(r.value.displayFrames?.map((f) => [f.name, f.bones])).toEqual([['Root', [0]], ['Legs', [1, 2]]]);
    expect(r.value.textures).toContain('own.bmp');
  });

  it('a bone display count past the file is a W_PMD_TAIL note at the count with the truncation named, and no groups', () => {
    const w = tinyPmd({ display: { groups: ['Legs'], entries: [[1, 1]] } });
    const b = w.build();
    new DataView(b.buffer, b.byteOffset).setUint32(w.marks.boneDisplay, 1000, true);
    const r = mustRead(b);
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'W_PMD_TAIL', offset: w.marks.boneDisplay + 4 })]);
    expect(String(r.diagnostics[0].params?.why)).toMatch(/bone display list: count 1000/);
    expect(r.value.displayFrames).toBeUndefined();
  });

  it('the corpus PMD (low-poly Miku): its 7 groups with their bones and English names; its 先 and IK先 bones are in none', () => {
    // Worked out with a separate Python reader of the file (cp932 names, 1-based group bytes).
    const m = mustRead(load('mmd-viewer-js/model/low_miku/miku.pmd')).value;
    expect(m.displayFrameCount).toBe(7);
    const f = m.displayFrames!;
    expect(f.map((x) => [x.name, x.nameEn, x.bones.length])).toEqual([
      ['Root', 'Root', 1], ['全ての親', 'all', 1], ['ＩＫ', 'IK', 7], ['体(上)', 'Body[u]', 6], ['髪', 'Hair', 17], ['腕', 'Arms', 10], ['体(下)', 'Body[l]', 6], ['足', 'Legs', 6],
    ]);
    const names = (k: number) => f[k].bones.map((i) => m.bones[i].name);
    expect(names(0)).toEqual(['センター']);
    expect(names(2)).toEqual(['ﾈｸﾀｲＩＫ', '左髪ＩＫ', '右髪ＩＫ', '左足ＩＫ', '右足ＩＫ', '左つま先ＩＫ', '右つま先ＩＫ']);
    expect(names(5)).toEqual(['左肩', '左腕', '左ひじ', '左手首', '左袖', '右肩', '右腕', '右ひじ', '右手首', '右袖']);
    expect(names(7)).toEqual(['左足', '左ひざ', '左足首', '右足', '右ひざ', '右足首']);
    const listed = new Set(f.flatMap((x) => x.bones.map((i) => m.bones[i].name)));
    for (const b of ['センター先', 'ﾈｸﾀｲＩＫ先', '左つま先ＩＫ先', '頭先', '左手先']) expect(listed.has(b), b).toBe(false);
  });
});

describe('PMD toon file names', () => {
  // The fixture's material has toon byte 2: entry 2 of the table (the third name) decides.
  const toonOf = (toons?: string[]) => {
    const m = mustRead(tinyPmd(toons ? { toons } : {}).build()).value;
    const mat = m.materials[0];
    return { shared: mat.toonShared, toon: mat.toon, textures: m.textures };
  };
  const DEFAULTS = Array.from({ length: 10 }, (_, k) => `toon${String(k + 1).padStart(2, '0')}.bmp`);

  it('no table, or the default table: shared toon 2 (toon03), as before', () => {
    expect(toonOf()).toEqual({ shared: true, toon: 2, textures: ['skin.bmp', 'shine.sph'] });
    expect(toonOf(DEFAULTS)).toEqual({ shared: true, toon: 2, textures: ['skin.bmp', 'shine.sph'] });
  });

  it('a file of its own in entry 2 is a toon file beside the model, added once to the textures', () => {
    const t = [...DEFAULTS];
    t[2] = 'miku_toon.bmp';
    expect(toonOf(t)).toEqual({ shared: false, toon: 2, textures: ['skin.bmp', 'shine.sph', 'miku_toon.bmp'] });
  });

  it("a shared name in another entry is that shared toon (MMD's rule); toon00 is no toon; an empty entry keeps the index", () => {
    const t = [...DEFAULTS];
    t[2] = 'TOON07.BMP';
    expect(toonOf(t)).toMatchObject({ shared: true, toon: 6 });
    t[2] = 'toon00.bmp';
    expect(toonOf(t)).toMatchObject({ shared: true, toon: -1 });
    t[2] = '';
    expect(toonOf(t)).toMatchObject({ shared: true, toon: 2 });
  });

  it('the corpus PMD keeps its shared toons (its table is the default one)', () => {
    const m = mustRead(load('mmd-viewer-js/model/low_miku/miku.pmd')).value;
    expect(m.materials.every((x) => x.toonShared)).toBe(true);
    expect(m.textures.filter((x) => /toon/i.test(x))).toEqual([]);
  });
});

describe('corpus models', () => {
  const models = [
    'gene/Gene_light.pmx',
    'mmd-viewer-js/model/low_miku/miku.pmd',
    'babylon-mmd/res/model/bone_flag_test.pmx',
    'babylon-mmd/res/model/constraint_test.pmx',
    'babylon-mmd/res/model/matcap_sample.pmx',
    'babylon-mmd/res/model/uv_morph_test.pmx',
    'vmd_sizing/archive/debug_bone6.pmx',
  ];
  for (const rel of models) {
    it(`${rel} agrees with mmd-parser`, () => {
      const bytes = load(rel);
      const r = mustRead(bytes);
      expect(r.diagnostics).toEqual([]);
      const m = r.value;
      const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      const ref = rel.endsWith('.pmd') ? new MMDParser.Parser().parsePmd(ab, false) : new MMDParser.Parser().parsePmx(ab, false);
      expect(m.name).toBe(ref.metadata.modelName);
      expect(m.vertexCount).toBe(ref.metadata.vertexCount);
      expect(m.indices.length).toBe(ref.faces.length * 3);
      for (const i of [0, m.vertexCount >> 1, m.vertexCount - 1].filter((i) => i >= 0 && m.vertexCount)) {
        expect(Array.from(m.positions.subarray(3 * i, 3 * i + 3))).toEqual(ref.vertices[i].position.map(Math.fround));
        expect(Array.from(m.uvs.subarray(2 * i, 2 * i + 2))).toEqual(ref.vertices[i].uv.map(Math.fround));
      }
      // Edge: PMX's per-vertex scale; PMD's "edge off" flag (0 = drawn → scale 1).
      for (let i = 0; i < m.vertexCount; i += 7) {
        const v = ref.vertices[i];
        expect(m.edgeScales[i]).toBe(rel.endsWith('.pmd') ? (v.edgeFlag === 0 ? 1 : 0) : Math.fround(v.edgeRatio));
      }
      for (let f = 0; f < ref.faces.length; f += 97) expect(Array.from(m.indices.subarray(3 * f, 3 * f + 3))).toEqual(ref.faces[f].indices);
      expect(m.bones.map((b) => b.name)).toEqual(ref.bones.map((b: any) => b.name));
      expect(m.bones.map((b) => b.parent)).toEqual(ref.bones.map((b: any) => (b.parentIndex === 0xffff ? -1 : b.parentIndex)));
      m.bones.forEach((b, i) => expect(b.position).toEqual(ref.bones[i].position.map(Math.fround)));
      // Skin weights sum to 1 per vertex.
      for (let i = 0; i < m.vertexCount; i += 13) {
        const s = m.skinWeights[4 * i] + m.skinWeights[4 * i + 1] + m.skinWeights[4 * i + 2] + m.skinWeights[4 * i + 3];
        expect(Math.abs(s - 1)).toBeLessThan(1e-3);
      }
      const used = m.materials.reduce((a, x) => a + x.indexCount, 0);
      expect(used).toBe(m.indices.length);
      if (rel.endsWith('.pmx')) {
        expect(m.textures).toEqual(ref.textures);
        expect(m.morphs.map((x) => x.name)).toEqual(ref.morphs.map((x: any) => x.name));
        expect(m.materials.map((x) => x.texture)).toEqual(ref.materials.map((x: any) => x.textureIndex));
        for (const [i, b] of m.bones.entries()) {
          const rb = ref.bones[i];
          if (rb.ik) {
            expect(b.ik!.target).toBe(rb.ik.effector);
            expect(b.ik!.links.map((l) => l.bone)).toEqual(rb.ik.links.map((l: any) => l.index));
            expect(b.ik!.limitAngle).toBe(Math.fround(rb.ik.maxAngle));
          } else expect(b.ik).toBeNull();
          if (rb.grant) {
            expect(b.appendParent).toBe(rb.grant.parentIndex);
            expect(b.appendRatio).toBe(Math.fround(rb.grant.ratio));
          }
        }
        expect(m.rigidBodyCount).toBe(ref.metadata.rigidBodyCount);
        expect(m.jointCount).toBe(ref.metadata.constraintCount);
      } else {
        expect(m.morphs.map((x) => x.name)).toEqual(ref.morphs.map((x: any) => x.name));
        const iks = m.bones.filter((b) => b.ik);
        expect(iks).toHaveLength(ref.iks.length);
        for (const rk of ref.iks) {
          const b = m.bones[rk.target];
          expect(b.ik!.target).toBe(rk.effector);
          expect(b.ik!.links.map((l) => l.bone)).toEqual(rk.links.map((l: any) => l.index));
        }
      }
    });
  }

  it('Gene_light: material, UV and group morph offsets parse in range and agree with mmd-parser', () => {
    const bytes = load('gene/Gene_light.pmx');
    const m = mustRead(bytes).value;
    const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const ref = new MMDParser.Parser().parsePmx(ab, false);
    const byKind = (k: string) => m.morphs.filter((x) => x.kind === k);
    expect([byKind('material').length, byKind('uv').length, byKind('group').length, byKind('bone').length]).toEqual([3, 1, 3, 0]);
    m.morphs.forEach((x, i) => {
      const r = ref.morphs[i];
      expect(x.count, x.name).toBe(r.elementCount);
      expect(MORPH_TYPE[x.kind], x.name).toBe(r.type);
      if (x.material) {
        const mm = x.material;
        expect(mm.indices.length).toBe(x.count);
        for (let k = 0; k < x.count; k++) {
          const e = r.elements[k];
          expect(mm.indices[k]).toBeGreaterThanOrEqual(-1);
          expect(mm.indices[k]).toBeLessThan(m.materials.length);
          expect([mm.indices[k], mm.operations[k]]).toEqual([e.index, e.type]);
          const f32 = (a: number[]) => a.map(Math.fround);
          expect(Array.from(mm.diffuse.subarray(4 * k, 4 * k + 4))).toEqual(f32(e.diffuse));
          expect(Array.from(mm.specular.subarray(3 * k, 3 * k + 3))).toEqual(f32(e.specular));
          expect(mm.specularity[k]).toBe(Math.fround(e.shininess));
          expect(Array.from(mm.ambient.subarray(3 * k, 3 * k + 3))).toEqual(f32(e.ambient));
          expect(Array.from(mm.edgeColor.subarray(4 * k, 4 * k + 4))).toEqual(f32(e.edgeColor));
          expect(mm.edgeSize[k]).toBe(Math.fround(e.edgeSize));
          expect(Array.from(mm.textureTint.subarray(4 * k, 4 * k + 4))).toEqual(f32(e.textureColor));
          expect(Array.from(mm.sphereTint.subarray(4 * k, 4 * k + 4))).toEqual(f32(e.sphereTextureColor));
          expect(Array.from(mm.toonTint.subarray(4 * k, 4 * k + 4))).toEqual(f32(e.toonColor));
        }
      }
      if (x.uv) {
        expect(x.uv.indices.length).toBe(x.count);
        expect(x.uv.offsets.length).toBe(4 * x.count);
        for (let k = 0; k < x.count; k++) {
          expect(x.uv.indices[k]).toBeLessThan(m.vertexCount);
          expect(x.uv.indices[k]).toBe(r.elements[k].index);
          expect(Array.from(x.uv.offsets.subarray(4 * k, 4 * k + 4))).toEqual(r.elements[k].uv.map(Math.fround));
        }
      }
      if (x.group) {
        expect(x.group.indices.length).toBe(x.count);
        for (let k = 0; k < x.count; k++) {
          expect(x.group.indices[k]).toBeGreaterThanOrEqual(0);
          expect(x.group.indices[k]).toBeLessThan(m.morphs.length);
          expect(x.group.indices[k]).toBe(r.elements[k].index);
          expect(x.group.weights[k]).toBe(Math.fround(r.elements[k].ratio));
        }
      }
    });
  });

  it('Gene_light: leg IK with a limited knee, eye append, textures present next to the model', () => {
    const m = mustRead(load('gene/Gene_light.pmx')).value;
    expect(m.name).toBe('ジェネ / Gene');
    const byName = new Map(m.bones.map((b, i) => [b.name, i]));
    const ik = m.bones[byName.get('左足ＩＫ')!].ik!;
    expect(m.bones[ik.target].name).toBe('左足首');
    expect(ik.links.map((l) => m.bones[l.bone].name)).toEqual(['左ひざ', '左足']);
    expect(ik.links[0].limits!.min[0]).toBeLessThan(-2);
    const eye = m.bones[byName.get('左目')!];
    expect(m.bones[eye.appendParent].name).toBe('両目');
    for (const t of m.textures) expect(existsSync(path.join(CORPUS, 'gene', t.replace(/\\/g, '/'))), t).toBe(true);
  });
});

describe('inspectModel and compareMotionToModel', () => {
  it('lists the model name, bones and morphs (PMD base morph hidden)', () => {
    const r = inspectModel(load('mmd-viewer-js/model/low_miku/miku.pmd'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.name).toBe('ローポリ初音さん');
    expect(r.value.bones).toContain('左足ＩＫ');
    expect(r.value.morphs).not.toContain('base');
    expect(r.value.morphs).toContain('にやり');
    expect(r.value.iks).toContain('右つま先ＩＫ');
  });

  it('counts vertices by skinning: each corpus PMX as mmd-parser reads its vertex types, the fixture one of each, a PMD all BDEF2', () => {
    for (const rel of ['gene/Gene_light.pmx', 'babylon-mmd/res/model/matcap_sample.pmx']) {
      const bytes = load(rel);
      const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      const ref = new MMDParser.Parser().parsePmx(ab, false);
      const want = [0, 0, 0, 0, 0];
      for (const v of ref.vertices) want[v.type]++;
      const r = inspectModel(bytes);
      if (!r.ok) throw new Error(r.error.message);
      const s = r.value.skinning;
      expect([s.bdef1, s.bdef2, s.bdef4, s.sdef, s.qdef], rel).toEqual(want);
    }
    const tiny = inspectModel(tinyPmx().build());
    expect(tiny.ok && tiny.value.skinning).toEqual({ bdef1: 1, bdef2: 1, bdef4: 1, sdef: 1, qdef: 0 });
    const pmd = inspectModel(load('mmd-viewer-js/model/low_miku/miku.pmd'));
    expect(pmd.ok && pmd.value.skinning).toEqual({ bdef1: 0, bdef2: pmd.ok ? pmd.value.vertexCount : -1, bdef4: 0, sdef: 0, qdef: 0 });
  });

  it('matches names ignoring a cut last character', () => {
    // 8 two-byte characters = 16 bytes: a 15-byte VMD field cuts the last one, leaving 7 characters.
    const long = 'あいうえおかきく';
    expect(matchKey(long)).toBe('あいうえおかき');
    expect(matchKey('あいうえおかき\uFFFD')).toBe('あいうえおかき');
    const c = compareMotionToModel({ bones: ['あいうえおかき', 'センター', '無い骨'], morphs: ['あ', 'ない'] }, { bones: [long, 'センター'], morphs: ['あ'] });
    expect(c.missingBones).toEqual(['無い骨']);
    expect(c.missingMorphs).toEqual(['ない']);
    expect([c.matchedBones, c.matchedMorphs]).toEqual([2, 1]);
  });

  // New-user pass numorph 2: Gene's eye_surprise_geo_L and eye_surprise_geo_R (18 bytes) are both eye_surprise_ge in a
  // 15-byte key; inspect named one of them. Each cut name lists every model name it stands for.
  it('a cut name two model names share lists both, and says which names a key cannot tell apart', () => {
    const model = { bones: ['センター'], morphs: ['eye_surprise_geo_L', 'eye_surprise_geo_R', 'browOuterUpRight', 'あ'] };
    const c = compareMotionToModel({ bones: [], morphs: ['eye_surprise_ge', 'browOuterUpRigh', 'あ'] }, model);
    expect(c.cutMorphs).toEqual([
      { motion: 'eye_surprise_ge', model: 'eye_surprise_geo_L', models: ['eye_surprise_geo_L', 'eye_surprise_geo_R'] },
      { motion: 'browOuterUpRigh', model: 'browOuterUpRight', models: ['browOuterUpRight'] },
    ]);
    expect(namesSharingKey('eye_surprise_geo_R', model.morphs)).toEqual(['eye_surprise_geo_L']);
    expect(namesSharingKey('browOuterUpRight', model.morphs)).toEqual([]);
    expect(namesSharingKey('あ', model.morphs)).toEqual([]);
    expect([...sharedKeyNames(model.morphs)]).toEqual([['eye_surprise_ge', ['eye_surprise_geo_L', 'eye_surprise_geo_R']]]);
  });

  it('wavefile_v2.vmd on the low-poly Miku it was made for lacks only the bones that model does not have', () => {
    const doc = readVmd(load('mmd-viewer-js/vmd/wavefile_v2.vmd'));
    if (!doc.ok) throw new Error(doc.error.message);
    const info = inspectVmd(doc.value, buildTracks(doc.value));
    const model = inspectModel(load('mmd-viewer-js/model/low_miku/miku.pmd'));
    if (!model.ok) throw new Error(model.error.message);
    const c = compareMotionToModel(info, model.value);
    const have = new Set(model.value.bones);
    // Independent check: exact-name set difference (no name in either list is long enough to be cut).
    expect(c.missingBones).toEqual(info.bones.filter((b) => !have.has(b)));
    expect(c.missingBones).toContain('左腕捩');
    expect(c.missingBones).not.toContain('センター');
    expect(c.matchedBones).toBeGreaterThan(60);
    // Gene uses ARKit-style morph names: the wavefile's mouth shapes are missing there.
    const gene = inspectModel(load('gene/Gene_light.pmx'));
    if (!gene.ok) throw new Error(gene.error.message);
    const g = compareMotionToModel(info, gene.value);
    expect(g.missingBones).not.toContain('左腕');
    expect(g.missingBones).toContain('左髪１');
  });
});

describe('bone references a skeleton cannot use are repaired, and each repair is a note', () => {
  const bone = (name: string, parent: number) => physicsBone(name, [0, 0, 0], parent);

  it('a parent out of range or the bone itself: a root, W_MODEL_BONE_PARENT with the bone and the parent', () => {
    const bones = [bone('a', -1), bone('b', 7), bone('c', 2), bone('d', -5)];
    const notes: Diagnostic[] = [];
    checkBoneRefs(bones, notes);
    expect(bones.map((b) => b.parent)).toEqual([-1, -1, -1, -1]);
    expect(notes.map((d) => [d.code, d.params])).toEqual([
      ['W_MODEL_BONE_PARENT', { i: 1, name: 'b', parent: 7 }],
      ['W_MODEL_BONE_PARENT', { i: 2, name: 'c', parent: 2 }],
      ['W_MODEL_BONE_PARENT', { i: 3, name: 'd', parent: -5 }],
    ]);
  });

  it('an IK chain naming a bone out of range loses its IK: W_MODEL_IK_RANGE', () => {
    const bones = [bone('root', -1), bone('knee', 0), bone('ik', 0)];
    bones[2].ik = { target: 1, loopCount: 40, limitAngle: 1, links: [{ bone: 9, limits: null }] };
    const notes: Diagnostic[] = [];
    checkBoneRefs(bones, notes);
    expect(bones[2].ik).toBeNull();
    expect(notes.map((d) => [d.code, d.params])).toEqual([['W_MODEL_IK_RANGE', { i: 2, name: 'ik' }]]);
  });

  it('a parent cycle is cut at its lowest-numbered bone; a bone hanging below the cycle keeps its parent', () => {
    // 0 → 4 → 3 → 4: bone 0 hangs below the cycle of 3 and 4 (it was the one made a root, and the cycle stayed
    // until bone 3's own walk). 1 → 2 → 1 is a second cycle.
    const bones = [bone('below', 4), bone('p', 2), bone('q', 1), bone('x', 4), bone('y', 3)];
    const notes: Diagnostic[] = [];
    checkBoneRefs(bones, notes);
    expect(bones.map((b) => b.parent)).toEqual([4, -1, 1, -1, 3]);
    expect(notes.map((d) => [d.code, d.params])).toEqual([
      ['W_MODEL_BONE_CYCLE', { i: 3, name: 'x' }],
      ['W_MODEL_BONE_CYCLE', { i: 1, name: 'p' }],
    ]);
    expect(notes[0].message).toBe('bone 3 "x" is in a parent cycle; made a root');
  });

  it('in a real file: the low-poly Miku with a parent out of range and a loop of two reads, with both notes', () => {
    const r = mustRead(mikuWithBadBones());
    expect(r.diagnostics.map((d) => [d.code, d.params])).toEqual([
      ['W_MODEL_BONE_PARENT', { i: 5, name: 'ﾈｸﾀｲ１', parent: 0x7000 }],
      ['W_MODEL_BONE_CYCLE', { i: 2, name: '上半身' }],
    ]);
    const bones = r.value.bones;
    expect([bones[5].parent, bones[2].parent, bones[3].parent]).toEqual([-1, -1, 2]);
  });
});
