// MotionPoser applies the motion's bone morphs by the preview's rule (shared/skeleton/bone-morphs.ts, the one
// implementation both use). Expected values are computed here from the fixture's numbers
// (test/shared/pmx-fixtures.ts morphPmx: 骨 moves 頭 by (1, 2, 3) and turns it 60° about (1, 2, 2); まとめ is
// 骨 × 0.5; 目 appends 頭's rotation) and MMD's rule: translation += w·t, rotation = slerp(identity, q, w) ⊗ the
// motion's, before append and IK. slerp from identity is the same axis at w times the angle.
import { describe, expect, it } from 'vitest';
import { readPmx, type ModelData } from '../../../shared/pmx';
import { buildTracks, buildVmd, type BoneKeyInput } from '../../../shared/vmd';
import { buildSkeleton, MotionPoser, Pose } from '../../../shared/skeleton';
import { Simulation } from '../../../shared/physics';
import { BONE_MORPH_ON_HEAD, morphPmx } from '../pmx-fixtures';
import { axisAngle, rotate, qmul, type Q, type V3 } from '../../helpers/quat';
import { testBullet } from '../../helpers/bullet';

function fixture(): ModelData {
  const r = readPmx(morphPmx().build());
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
const HEAD = 1, NOSE = 2, EYE = 3;
const { t: MORPH_T, axis: MORPH_AXIS, angle: MORPH_ANGLE } = BONE_MORPH_ON_HEAD;
const MOTION_Q = axisAngle([0, 0, 1], (40 * Math.PI) / 180);
const MOTION_T: V3 = [0.25, 0, 0.5];
const HEAD_KEYS: BoneKeyInput[] = [0, 10].map((frame) => ({ name: '頭', frame, position: MOTION_T, rotation: MOTION_Q }));
/** A morph at weight 1 on frame 0 and 0 on frame 10: frame 5 is 0.5. */
const fade = (name: string) => [{ name, frame: 0, weight: 1 }, { name, frame: 10, weight: 0 }];

/** The angle between two rotations (the file's float32 quaternions are not exactly unit: both are normalised). */
function expectRotation(actual: ArrayLike<number>, o: number, expected: readonly number[], what: string) {
  const a = [actual[o], actual[o + 1], actual[o + 2], actual[o + 3]];
  const dot = Math.abs(a[0] * expected[0] + a[1] * expected[1] + a[2] * expected[2] + a[3] * expected[3]) / (Math.hypot(...a) * Math.hypot(...expected));
  expect(2 * Math.acos(Math.min(1, dot)), `${what}: angle (rad)`).toBeLessThan(1e-6);
}

/** 頭's local transform, 鼻's world position and 目's appended rotation for the morph at weight w. */
function expectPosed(pose: Pose, w: number) {
  const morphQ = axisAngle(MORPH_AXIS, MORPH_ANGLE * w);
  const t: V3 = [MOTION_T[0] + w * MORPH_T[0], MOTION_T[1] + w * MORPH_T[1], MOTION_T[2] + w * MORPH_T[2]];
  const rot = qmul(morphQ, MOTION_Q);
  for (let k = 0; k < 3; k++) expect(pose.solvedTranslation[3 * HEAD + k], `頭 t${k} at w ${w}`).toBeCloseTo(t[k], 12);
  expectRotation(pose.solvedRotation, 4 * HEAD, rot, `頭 rotation at w ${w}`);
  // World: 頭 rests at (0, 15, 1) under センター (0, 8, 0); 鼻 at (0, 0, −2) from 頭.
  const head: V3 = [t[0], 15 + t[1], 1 + t[2]];
  const nose = rotate(rot, [0, 0, -2]).map((v, i) => v + head[i]);
  for (let k = 0; k < 3; k++) expect(pose.worldPosition[3 * NOSE + k], `鼻 world ${k} at w ${w}`).toBeCloseTo(nose[k], 6); // float32 keys
  // 目 appends 頭's rotation: it sees the morph, so the morph came before append.
  expectRotation(pose.solvedRotation, 4 * EYE, rot, `目 rotation at w ${w}`);
}

describe('MotionPoser: bone morphs', () => {
  it('adds w·t and slerp(identity, q, w) on top of the motion at weights 1, 0.5 and 0, before append', () => {
    const m = fixture();
    const doc = buildVmd({ morphs: fade('骨'), bones: HEAD_KEYS });
    const poser = new MotionPoser(buildSkeleton(m.bones), doc, buildTracks(doc), m);
    const pose = new Pose(poser.skeleton);
    for (const [f, w] of [[0, 1], [5, 0.5], [10, 0], [2.5, 0.75], [0, 1]]) {
      poser.poseAt(pose, f);
      expectPosed(pose, w);
    }
  });

  it('a group morph reaching a bone morph applies it with the group factor (まとめ = 骨 × 0.5)', () => {
    const m = fixture();
    const doc = buildVmd({ morphs: fade('まとめ'), bones: HEAD_KEYS });
    const poser = new MotionPoser(buildSkeleton(m.bones), doc, buildTracks(doc), m);
    const pose = new Pose(poser.skeleton);
    poser.poseAt(pose, 0);
    expectPosed(pose, 0.5);
    poser.poseAt(pose, 5);
    expectPosed(pose, 0.25);
  });

  it('moves a bone with no track; a flip morph and an unknown name move nothing', () => {
    const m = fixture();
    const doc = buildVmd({ morphs: [{ name: '骨', frame: 0, weight: 1 }, { name: '反転', frame: 0, weight: 1 }, { name: 'ない', frame: 0, weight: 1 }] });
    const poser = new MotionPoser(buildSkeleton(m.bones), doc, buildTracks(doc), m);
    const pose = new Pose(poser.skeleton);
    poser.poseAt(pose, 0);
    for (let k = 0; k < 3; k++) expect(pose.solvedTranslation[3 * HEAD + k]).toBeCloseTo(MORPH_T[k], 12);
    expectRotation(pose.solvedRotation, 4 * HEAD, axisAngle(MORPH_AXIS, MORPH_ANGLE), '頭');
    expect([...pose.solvedTranslation.subarray(0, 3)]).toEqual([0, 0, 0]); // センター untouched
  });

  it("the Node physics simulation poses with them (a model's motion plays as in the preview)", async () => {
    const m = fixture();
    const doc = buildVmd({ morphs: fade('骨'), bones: HEAD_KEYS });
    const sim = new Simulation(await testBullet(), m, doc);
    sim.seek(5, 0);
    expectPosed(sim.pose, 0.5);
    sim.advance();
    expectPosed(sim.pose, 0.4);
    sim.dispose();
  });
});
