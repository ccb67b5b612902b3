// Retargeting with bone morphs (MMD rule, shared/skeleton/bone-morphs.ts). The source has 腰 between センター and
// 下半身, the target has none, so the target's 下半身 is computed from the source's world pose. A source bone morph
// turns 腰 by 60° about (1, 2, 2) at weight 1; the motion keys 下半身 and fades the morph from 1 (frame 0) to 0
// (frame 30). Expected world rotations are computed here: センター and 腰 have no keys, so the source's 下半身 turns
// by slerp(identity, q, w) (the same axis at w times the angle) ⊗ its key.
import { describe, expect, it } from 'vitest';
import { BONE_FLAG, type ModelBone, type ModelData, type ModelMorph } from '../../../shared/pmx/model-types';
import { retarget } from '../../../shared/retarget';
import { buildSkeleton, MotionPoser, Pose } from '../../../shared/skeleton';
import { buildTracks, buildVmd, readVmd, writeVmd, type VmdDocument } from '../../../shared/vmd';
import { axisAngle, qmul } from '../../helpers/quat';

const ROT = BONE_FLAG.ROTATABLE | BONE_FLAG.VISIBLE | BONE_FLAG.ENABLED;
const SRC_AXIS = [1, 2, 2], SRC_ANGLE = Math.PI / 3;

function boneMorph(name: string, bone: number, q: readonly number[]): ModelMorph {
  return {
    name, nameEn: '', panel: 4, kind: 'bone', count: 1, vertex: null, group: null, uv: null, material: null,
    bone: { indices: Int32Array.of(bone), translations: Float32Array.of(0, 0, 0), rotations: Float32Array.from(q) },
  };
}

function model(name: string, spec: [string, [number, number, number], string | null][], morphs: ModelMorph[]): ModelData {
  const bones: ModelBone[] = [];
  for (const [n, position, parent] of spec) {
    bones.push({
      name: n, nameEn: '', position, parent: parent === null ? -1 : bones.findIndex((b) => b.name === parent), layer: 0,
      flags: parent === null ? ROT | BONE_FLAG.TRANSLATABLE : ROT, tailBone: -1, tailOffset: [0, 0, 0], appendParent: -1, appendRatio: 0, fixedAxis: null, ik: null,
    });
  }
  return {
    format: 'pmx', version: 2, name, nameEn: '', comment: '', commentEn: '', vertexCount: 0, positions: new Float32Array(0), normals: new Float32Array(0),
    uvs: new Float32Array(0), skinIndices: new Uint32Array(0), skinWeights: new Float32Array(0), deform: new Uint8Array(0), edgeScales: new Float32Array(0),
    indices: new Uint32Array(0), textures: [], materials: [], bones, morphs, rigidBodyCount: 0, jointCount: 0, rigidBodies: [], joints: [], softBodies: [], physicsError: null,
  };
}

const source = model('src', [['センター', [0, 8, 0], null], ['腰', [0, 9.5, 0.3], 'センター'], ['下半身', [0, 9.8, 0], '腰'], ['左足', [1, 9.4, 0], '下半身']],
  [boneMorph('骨', 1, axisAngle(SRC_AXIS, SRC_ANGLE))]);
const targetBones: [string, [number, number, number], string | null][] = [['センター', [0, 8, 0], null], ['下半身', [0, 9.8, 0], 'センター'], ['左足', [1, 9.4, 0], '下半身']];
/** The target's own bone morph of the same name turns 下半身 90° about X: the output's morph keys play it too. */
const TGT_Q = axisAngle([1, 0, 0], Math.PI / 2);

const KEY_Q = axisAngle([0, 1, 0], (25 * Math.PI) / 180);
const motion = buildVmd({
  model: 'src',
  bones: [0, 30].map((frame) => ({ name: '下半身', frame, position: [0, 0, 0], rotation: KEY_Q })),
  morphs: [{ name: '骨', frame: 0, weight: 1 }, { name: '骨', frame: 30, weight: 0 }],
});

function angleDeg(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const dot = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / (Math.hypot(a[0], a[1], a[2], a[3]) * Math.hypot(b[0], b[1], b[2], b[3]));
  return (2 * Math.acos(Math.min(1, dot)) * 180) / Math.PI;
}

/** Plays the output on the target (with its bone morphs, as the preview does) and checks 下半身's world rotation at every frame. */
function expectSourceLook(target: ModelData, out: VmdDocument) {
  const written = readVmd(writeVmd(out));
  if (!written.ok) throw new Error(written.error.message);
  const sk = buildSkeleton(target.bones);
  const poser = new MotionPoser(sk, written.value, buildTracks(written.value), target);
  const pose = new Pose(sk);
  const lower = target.bones.findIndex((b) => b.name === '下半身');
  for (let f = 0; f <= 30; f++) {
    poser.poseAt(pose, f);
    const expected = qmul(axisAngle(SRC_AXIS, SRC_ANGLE * (1 - f / 30)), KEY_Q);
    // Re-fitted within the default 0.1°, float32 keys.
    expect(angleDeg(pose.worldRotation.subarray(4 * lower, 4 * lower + 4), expected), `下半身 at ${f}`).toBeLessThan(0.101);
  }
}

describe('retarget: bone morphs', () => {
  it("the computed bone shows the source's bone morph (the source posed with its morphs); the target has none", () => {
    const target = model('tgt', targetBones, []);
    const r = retarget(motion, source, target);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.details.refitted.map((x) => x.bone)).toContain('下半身');
    expectSourceLook(target, r.value.doc);
  });

  it("the target's own bone morph of the output's morph track is taken out of the computed keys (shown once, not twice)", () => {
    const target = model('tgt', targetBones, [boneMorph('骨', 1, TGT_Q)]);
    const r = retarget(motion, source, target);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.details.unmatchedMorphs).toEqual([]); // 骨 is written, so the target plays it
    expectSourceLook(target, r.value.doc);
  });

  it("the target's bone morph on a bone above the computed one (センター, copied) is in the pose the computed key is solved under", () => {
    const target = model('tgt', targetBones, [boneMorph('骨', 0, TGT_Q)]);
    const r = retarget(motion, source, target);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.details.refitted.map((x) => x.bone)).not.toContain('センター');
    expectSourceLook(target, r.value.doc);
  });
});
