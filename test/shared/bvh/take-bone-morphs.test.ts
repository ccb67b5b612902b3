// The BVH and VRM Animation exports pose the model with its bone morphs (MMD rule, shared/skeleton/bone-morphs.ts):
// both go through humanoidTake. Expected values are computed here from the numbers below: a bone morph turns
// 頭 by 60° about (1, 2, 2) and moves 下半身 by (1, 2, 3) at weight 1; MMD's rule adds w·t to the translation and
// puts slerp(identity, q, w) (the same axis at w times the angle) before the motion's rotation. The parents of
// 頭 and 下半身 have no keys, so world = local.
import { describe, expect, it } from 'vitest';
import { BONE_FLAG, type ModelBone, type ModelData, type ModelMorph } from '../../../shared/pmx/model-types';
import { exportBvh } from '../../../shared/bvh/export';
import { humanoidTake } from '../../../shared/bvh/take';
import { motionToVrma } from '../../../shared/bvh/vrma';
import { buildVmd, type BoneKeyInput } from '../../../shared/vmd';
import { axisAngle, qmul, type Q } from '../../helpers/quat';

const ROT = BONE_FLAG.ROTATABLE | BONE_FLAG.VISIBLE | BONE_FLAG.ENABLED;
const MORPH_AXIS = [1, 2, 2], MORPH_ANGLE = Math.PI / 3, MORPH_T = [1, 2, 3];
const HIPS_REST = [0, 10, 0];

function humanoid(withMorph: boolean): ModelData {
  const bones: ModelBone[] = [];
  const add = (name: string, position: [number, number, number], parent: string | null, extra: Partial<ModelBone> = {}) =>
    bones.push({
      name, nameEn: '', position, parent: parent === null ? -1 : bones.findIndex((b) => b.name === parent), layer: 0, flags: ROT,
      tailBone: -1, tailOffset: [0, 0, 0], appendParent: -1, appendRatio: 0, fixedAxis: null, ik: null, ...extra,
    });
  add('センター', [0, 8, 0], null, { flags: ROT | BONE_FLAG.TRANSLATABLE });
  add('下半身', [0, 10, 0], 'センター', { tailOffset: [0, -2, 0] });
  add('上半身', [0, 10.5, 0], 'センター');
  add('首', [0, 14, 0], '上半身');
  add('頭', [0, 15, 0], '首', { tailOffset: [0, 1.5, 0] });
  const q = axisAngle(MORPH_AXIS, MORPH_ANGLE);
  const morph: ModelMorph = {
    name: '骨', nameEn: '', panel: 4, kind: 'bone', count: 2, vertex: null, group: null, uv: null, material: null,
    bone: { indices: Int32Array.of(4, 1), translations: Float32Array.of(0, 0, 0, ...MORPH_T), rotations: Float32Array.of(...q, 0, 0, 0, 1) },
  };
  return {
    format: 'pmx', version: 2, name: 'humanoid', nameEn: '', comment: '', commentEn: '', vertexCount: 0, positions: new Float32Array(0), normals: new Float32Array(0),
    uvs: new Float32Array(0), skinIndices: new Uint32Array(0), skinWeights: new Float32Array(0), deform: new Uint8Array(0), edgeScales: new Float32Array(0),
    indices: new Uint32Array(0), textures: [], materials: [], bones, morphs: withMorph ? [morph] : [], rigidBodyCount: 0, jointCount: 0, rigidBodies: [], joints: [], softBodies: [], physicsError: null,
  };
}

const KEY_Q = axisAngle([0, 0, 1], (40 * Math.PI) / 180);
const HEAD_KEYS: BoneKeyInput[] = [0, 10].map((frame) => ({ name: '頭', frame, position: [0, 0, 0], rotation: KEY_Q }));
/** The morph at weight 1 on frame 0 and 0 on frame 10: frame f has 1 − f/10. */
const motion = buildVmd({ bones: HEAD_KEYS, morphs: [{ name: '骨', frame: 0, weight: 1 }, { name: '骨', frame: 10, weight: 0 }] });
const weightAt = (f: number) => 1 - f / 10;

/** Angle in degrees between two rotations (either sign). */
function angleDeg(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const dot = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / (Math.hypot(a[0], a[1], a[2], a[3]) * Math.hypot(b[0], b[1], b[2], b[3]));
  return (2 * Math.acos(Math.min(1, dot)) * 180) / Math.PI;
}

describe('humanoidTake (BVH and VRMA export): bone morphs', () => {
  it("turns the head and moves the hips by the model's bone morph at weights 1, 0.5 and 0", () => {
    const r = humanoidTake(motion, humanoid(true));
    if (!r.ok) throw new Error(r.error.message);
    const t = r.value;
    const head = t.parts.indexOf('head'), n = t.parts.length;
    for (const f of [0, 5, 10]) {
      const w = weightAt(f);
      const expected = qmul(axisAngle(MORPH_AXIS, MORPH_ANGLE * w), KEY_Q);
      expect(angleDeg(t.worldRotation.subarray((f * n + head) * 4, (f * n + head) * 4 + 4), expected), `head at ${f}`).toBeLessThan(1e-4);
      for (let c = 0; c < 3; c++) expect(t.hipsPosition[3 * f + c], `hips ${c} at ${f}`).toBeCloseTo(HIPS_REST[c] + w * MORPH_T[c], 5);
    }
  });

  it("BVH: the head's channels turn by the morph's angle against the model without it, and agree where the weight is 0", () => {
    const a = exportBvh(motion, humanoid(true)), b = exportBvh(motion, humanoid(false));
    if (!a.ok || !b.ok) throw new Error('export failed');
    // Joints in the file's order; every joint has Zrotation Xrotation Yrotation, the hips 3 positions first.
    const joints = [...a.value.text.matchAll(/(?:ROOT|JOINT) (\S+)/g)].map((m) => m[1]);
    const head = joints.indexOf('head');
    expect(head).toBeGreaterThan(0);
    const rows = (text: string) => text.split('MOTION')[1].trim().split('\n').slice(2).map((l) => l.trim().split(/\s+/).map(Number));
    const ra = rows(a.value.text), rb = rows(b.value.text);
    expect(ra.length).toBe(11);
    const headQ = (row: number[]): Q => {
      const [z, x, y] = row.slice(3 + 3 * head, 6 + 3 * head).map((d) => (d * Math.PI) / 180);
      // BVH channel order Z, X, Y: R = Rz · Rx · Ry.
      return qmul(qmul(axisAngle([0, 0, 1], z), axisAngle([1, 0, 0], x)), axisAngle([0, 1, 0], y)) as Q;
    };
    for (const f of [0, 5, 10]) expect(angleDeg(headQ(ra[f]), headQ(rb[f])), `head at ${f}`).toBeCloseTo(MORPH_ANGLE * weightAt(f) * (180 / Math.PI), 3);
  });

  it("VRMA: the head's rotation track turns by the morph's angle against the model without it", () => {
    const a = motionToVrma(motion, humanoid(true)), b = motionToVrma(motion, humanoid(false));
    if (!a.ok || !b.ok) throw new Error('export failed');
    const headTrack = (v: typeof a.value.vrma) => v.tracks.find((t) => t.node === v.humanBones.head && t.path === 'rotation')!;
    const ta = headTrack(a.value.vrma), tb = headTrack(b.value.vrma);
    expect(ta.interpolation).toBe('LINEAR');
    for (const f of [0, 5, 10]) {
      expect(angleDeg(ta.values.subarray(4 * f, 4 * f + 4), tb.values.subarray(4 * f, 4 * f + 4)), `head at ${f}`).toBeCloseTo(MORPH_ANGLE * weightAt(f) * (180 / Math.PI), 3);
    }
  });
});
