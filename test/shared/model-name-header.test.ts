// A model's name over the 20 bytes of a motion's header is cut at a character, as MMD cuts it, and said, in
// every path that writes a header from a model's name: modelNameField itself, VPD → VMD, a motion built from
// poses, retarget (BVH/VRMA import: test/shared/bvh/import.test.ts).
import { describe, expect, it } from 'vitest';
import { modelNameField, readVmd, vpdToVmd, writeVmd, decodeName, buildVmd, type VmdDocument } from '../../shared/vmd';
import { buildFromPoses } from '../../shared/motion-ops';
import { retarget } from '../../shared/retarget';
import { BONE_FLAG, type ModelData } from '../../shared/pmx/model-types';

const MOVE = BONE_FLAG.ROTATABLE | BONE_FLAG.VISIBLE | BONE_FLAG.ENABLED | BONE_FLAG.TRANSLATABLE;

// ジェネ・ライト改変テスト版モデル: 16 two-byte characters, 32 bytes in Shift_JIS. Its first ten characters fill the
// field exactly: ジ 83 57, ェ 83 46, ネ 83 6C, ・ 81 45, ラ 83 89, イ 83 43, ト 83 67, 改 89 FC, 変 95 CF, テ 83 65
// (the bytes import-bvh writes for it; Shift_JIS tables).
const LONG = 'ジェネ・ライト改変テスト版モデル';
const LONG_FIELD = [0x83, 0x57, 0x83, 0x46, 0x83, 0x6c, 0x81, 0x45, 0x83, 0x89, 0x83, 0x43, 0x83, 0x67, 0x89, 0xfc, 0x95, 0xcf, 0x83, 0x65];
const LONG_CUT = 'ジェネ・ライト改変テ';
const LONG_NOTE = `the model's name "${LONG}" is 32 bytes in Shift_JIS, more than the 20 a VMD's header holds: written as "${LONG_CUT}"`;
// "A" and ten two-byte characters: 21 bytes; the 20th byte would be half of 造, so 19 are written and one zero.
const ODD = 'Aローポリ初音さん改造';

const back = (d: VmdDocument) => {
  const r = readVmd(writeVmd(d));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('modelNameField', () => {
  it('writes a name that fits whole, zero-padded, with no note', () => {
    const r = modelNameField('ミク');
    expect(Array.from(r.field)).toEqual([0x83, 0x7e, 0x83, 0x4e, ...new Array(16).fill(0)]);
    expect(r.note).toBeNull();
  });
  it('cuts a longer name at a character and says so, with the values for the app', () => {
    const r = modelNameField(LONG);
    expect(Array.from(r.field)).toEqual(LONG_FIELD);
    expect(r.written).toBe(LONG_CUT);
    expect(r.note).toEqual({ code: 'W_MODEL_NAME_LONG', message: LONG_NOTE, params: { name: LONG, written: LONG_CUT, bytes: 32, limit: 20 } });
    const odd = modelNameField(ODD);
    expect(odd.written).toBe('Aローポリ初音さん改');
    expect(odd.field[19]).toBe(0);
    expect(odd.field[18]).not.toBe(0);
    // A version-0001 motion's field is 10 bytes.
    expect(modelNameField(LONG, 10).written).toBe('ジェネ・ラ');
  });
});

describe('VPD → VMD names the pose\'s model as MMD does', () => {
  it('cuts an .osm name over 20 bytes instead of leaving the header empty', () => {
    const r = vpdToVmd({ model: `${LONG}.osm`, bones: [{ name: 'センター', position: [0, 0, 0], rotation: [0, 0, 0, 1] }], morphs: [], declaredBones: null, encoding: 'shift_jis' });
    if (!r.ok) throw new Error(r.error.message);
    const doc = back(r.value);
    expect(Array.from(doc.modelName)).toEqual(LONG_FIELD);
    expect(r.diagnostics).toEqual([{ code: 'W_MODEL_NAME_LONG', message: LONG_NOTE, params: { name: LONG, written: LONG_CUT, bytes: 32, limit: 20 } }]);
  });
});

describe('build (a motion from poses) names the first pose\'s model as MMD does', () => {
  it('cuts it and warns', () => {
    const r = buildFromPoses([{ frame: 0, pose: { model: `${LONG}.osm`, bones: [{ name: '頭', position: [0, 0, 0], rotation: [0, 0, 0, 1] }], morphs: [] } }]);
    if (!r.ok) throw new Error(r.error.message);
    expect(Array.from(back(r.value.doc).modelName)).toEqual(LONG_FIELD);
    expect(r.value.report.warnings).toContain(LONG_NOTE);
  });
});

describe('retarget names the target model as MMD does', () => {
  const figure = (name: string): ModelData => ({
    format: 'pmx', version: 2, name, nameEn: '', comment: '', commentEn: '', vertexCount: 0, positions: new Float32Array(0), normals: new Float32Array(0),
    uvs: new Float32Array(0), skinIndices: new Uint32Array(0), skinWeights: new Float32Array(0), deform: new Uint8Array(0), edgeScales: new Float32Array(0),
    indices: new Uint32Array(0), textures: [], materials: [],
    // A trunk as well: a model whose only standard bone is センター is no humanoid and is refused.
    bones: [
      { name: 'センター', nameEn: '', position: [0, 8, 0], parent: -1, layer: 0, flags: MOVE, tailBone: -1, tailOffset: [0, 0, 0], appendParent: -1, appendRatio: 0, fixedAxis: null, ik: null },
      { name: '上半身', nameEn: '', position: [0, 11, 0], parent: 0, layer: 0, flags: 0, tailBone: -1, tailOffset: [0, 2, 0], appendParent: -1, appendRatio: 0, fixedAxis: null, ik: null },
      { name: '下半身', nameEn: '', position: [0, 11, 0], parent: 0, layer: 0, flags: 0, tailBone: -1, tailOffset: [0, -2, 0], appendParent: -1, appendRatio: 0, fixedAxis: null, ik: null },
    ],
    morphs: [], rigidBodyCount: 0, jointCount: 0, rigidBodies: [], joints: [], softBodies: [], physicsError: null,
  });
  it('cuts the target\'s name at a character and warns (it was cut without a word)', () => {
    const motion = back(buildVmd({ model: '源', bones: [{ name: 'センター', frame: 0, position: [0, 1, 0], rotation: [0, 0, 0, 1] }] }));
    const r = retarget(motion, figure('源'), figure(LONG));
    if (!r.ok) throw new Error(r.error.message);
    expect(Array.from(back(r.value.doc).modelName)).toEqual(LONG_FIELD);
    expect(decodeName(r.value.doc.modelName)).toBe(LONG_CUT);
    expect(r.value.report.warnings).toContain(LONG_NOTE);
    // A name that fits: no such warning.
    const fits = retarget(motion, figure('源'), figure('ミク'));
    if (!fits.ok) throw new Error(fits.error.message);
    expect(fits.value.report.warnings.join('\n')).not.toContain("the model's name");
  });
});
