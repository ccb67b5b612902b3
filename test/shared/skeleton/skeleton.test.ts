/**
 * The skeleton evaluator on bones built in the test (expected values worked out by hand from the rest
 * positions and the rotations given) and on a corpus model playing a corpus dance.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BONE_FLAG, type ModelBone } from '../../../shared/pmx/model-types';
import { readModel } from '../../../shared/pmx/model-reader';
import { buildSkeleton, MotionPoser, Pose } from '../../../shared/skeleton';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { buildTracks } from '../../../shared/vmd/tracks';
import { corpusDir } from '../../helpers/corpus';

function bone(name: string, position: [number, number, number], parent: number, extra: Partial<ModelBone> = {}): ModelBone {
  return {
    name, nameEn: '', position, parent, layer: 0, flags: BONE_FLAG.ROTATABLE | BONE_FLAG.VISIBLE | BONE_FLAG.ENABLED,
    tailBone: -1, tailOffset: [0, 0, 0], appendParent: -1, appendRatio: 0, fixedAxis: null, ik: null, ...extra,
  };
}
const S = Math.SQRT1_2;
const near = (a: ArrayLike<number>, b: number[], tol = 1e-9) => b.forEach((v, k) => expect(Math.abs(a[k] - v), `component ${k}: ${a[k]} vs ${v}`).toBeLessThan(tol));
const at3 = (a: Float64Array, i: number) => Array.from(a.subarray(3 * i, 3 * i + 3));
const at4 = (a: Float64Array, i: number) => Array.from(a.subarray(4 * i, 4 * i + 4));

describe('forward kinematics', () => {
  const skel = buildSkeleton([bone('root', [0, 0, 0], -1), bone('mid', [0, 10, 0], 0), bone('tip', [0, 20, 0], 1)]);
  it('a root turned 90° about Z swings its children to −X; a child translation moves with its parent', () => {
    const pose = new Pose(skel);
    pose.rotation.set([0, 0, S, S], 0);
    pose.translation.set([1, 0, 0], 3);
    pose.evaluate();
    near(at3(pose.worldPosition, 1), [-10, 1, 0]);
    near(at3(pose.worldPosition, 2), [-20, 1, 0]);
    near(at4(pose.worldRotation, 2), [0, 0, S, S]);
  });
  it('setWorld puts a bone where it is told and keeps its local transform consistent with its parent', () => {
    const pose = new Pose(skel);
    pose.rotation.set([0, 0, S, S], 0);
    pose.evaluate();
    pose.setWorld(2, [-10, 12, 3], [0, S, 0, S]);
    const before = [...at3(pose.worldPosition, 2), ...at4(pose.worldRotation, 2)];
    pose.updateWorld(2);
    near([...at3(pose.worldPosition, 2), ...at4(pose.worldRotation, 2)], before, 1e-12);
  });
});

describe('order', () => {
  it('a bone listed before its parent is evaluated after it (the low-poly Miku lists センター before 全ての親)', () => {
    const skel = buildSkeleton([bone('センター', [0, 8, 0], 1), bone('全ての親', [0, -1, 0], -1)]);
    expect(Array.from(skel.order)).toEqual([1, 0]);
    const pose = new Pose(skel);
    pose.translation.set([0, 5, 0], 3);
    pose.evaluate();
    near(at3(pose.worldPosition, 0), [0, 13, 0]);
  });
  it('after-physics bones come last and run only in their phase', () => {
    const skel = buildSkeleton([bone('a', [0, 0, 0], -1, { flags: BONE_FLAG.AFTER_PHYSICS }), bone('b', [0, 1, 0], -1)]);
    expect(Array.from(skel.order)).toEqual([1, 0]);
    const pose = new Pose(skel);
    pose.translation.set([2, 0, 0], 0);
    pose.evaluate('beforePhysics');
    near(at3(pose.worldPosition, 0), [0, 0, 0]);
    pose.evaluate('afterPhysics');
    near(at3(pose.worldPosition, 0), [2, 0, 0]);
  });
});

describe('append (付与)', () => {
  it('a bone appending half of another bone’s rotation turns half as far; −1 turns back', () => {
    const skel = buildSkeleton([
      bone('src', [0, 0, 0], -1),
      bone('half', [5, 0, 0], -1, { flags: BONE_FLAG.ROTATABLE | BONE_FLAG.APPEND_ROTATE, appendParent: 0, appendRatio: 0.5 }),
      bone('back', [9, 0, 0], -1, { flags: BONE_FLAG.ROTATABLE | BONE_FLAG.APPEND_ROTATE | BONE_FLAG.APPEND_TRANSLATE, appendParent: 0, appendRatio: -1 }),
    ]);
    const pose = new Pose(skel);
    const a = Math.PI / 3; // 60° about Y
    pose.rotation.set([0, Math.sin(a / 2), 0, Math.cos(a / 2)], 0);
    pose.translation.set([1, 2, 3], 0);
    pose.evaluate();
    near(at4(pose.solvedRotation, 1), [0, Math.sin(a / 4), 0, Math.cos(a / 4)], 1e-12);
    near(at4(pose.solvedRotation, 2), [0, -Math.sin(a / 2), 0, Math.cos(a / 2)], 1e-12);
    near(at3(pose.worldPosition, 2), [9 - 1, -2, -3], 1e-12);
  });

  // Ratios past 64 whole turns are taken at once (a damaged ratio, up to 3.4e38, was a loop of that many products:
  // test/electron/damaged-model-cli.test.ts runs one as its own process). Here the rotation they give: the
  // source's angle times the ratio, with 2, 64 (turn by turn) and 65, 1000.5 (at once); a NaN ratio appends nothing.
  it('ratios of many turns: the source\'s angle times the ratio, turn by turn up to 64 and at once past it; NaN appends nothing', () => {
    const a = 0.7; // radians about Y
    for (const r of [2, 64, 65, 1000.5, -65]) {
      const skel = buildSkeleton([bone('src', [0, 0, 0], -1), bone('many', [5, 0, 0], -1, { flags: BONE_FLAG.ROTATABLE | BONE_FLAG.APPEND_ROTATE, appendParent: 0, appendRatio: r })]);
      const pose = new Pose(skel);
      pose.rotation.set([0, Math.sin(a / 2), 0, Math.cos(a / 2)], 0);
      pose.evaluate();
      const q = at4(pose.solvedRotation, 1), h = (r * a) / 2;
      // Either sign of the quaternion is the same rotation.
      const want = [0, Math.sin(h), 0, Math.cos(h)], sign = Math.sign(q[3] * want[3] + q[1] * want[1]) || 1;
      near(q.map((v) => v * sign), want, 1e-9);
    }
    const skel = buildSkeleton([bone('src', [0, 0, 0], -1), bone('nan', [5, 0, 0], -1, { flags: BONE_FLAG.ROTATABLE | BONE_FLAG.APPEND_ROTATE | BONE_FLAG.APPEND_TRANSLATE, appendParent: 0, appendRatio: NaN })]);
    const pose = new Pose(skel);
    pose.rotation.set([0, Math.sin(a / 2), 0, Math.cos(a / 2)], 0);
    pose.translation.set([1, 2, 3], 0);
    pose.evaluate();
    near(at4(pose.solvedRotation, 1), [0, 0, 0, 1], 1e-15);
    near(at3(pose.worldPosition, 1), [5, 0, 0], 1e-15);
  });
});

describe('IK', () => {
  // A leg: thigh at y 10, knee at y 5 (a knee link: X only, bent backwards only), ankle at 0; the IK bone at the ankle.
  const knee = { min: [-Math.PI, 0, 0] as [number, number, number], max: [-0.5 * Math.PI / 180, 0, 0] as [number, number, number] };
  const bones = [
    bone('thigh', [0, 10, 0], -1),
    bone('knee', [0, 5, 0], 0),
    bone('ankle', [0, 0, 0], 1),
    bone('toe', [0, 0, -2], 2),
    bone('legIK', [0, 0, 0], -1, {
      flags: BONE_FLAG.ROTATABLE | BONE_FLAG.TRANSLATABLE | BONE_FLAG.IK,
      ik: { target: 2, loopCount: 40, limitAngle: 2, links: [{ bone: 1, limits: knee }, { bone: 0, limits: null }] },
    }),
  ];
  const skel = buildSkeleton(bones);
  it('brings the ankle onto a reachable goal, bending the knee about X only and within its limits', () => {
    const pose = new Pose(skel);
    pose.translation.set([0, 3, -2], 3 * 4); // goal at (0, 3, −2): 7 from the hip, the leg is 10 long
    pose.evaluate();
    const ankle = at3(pose.worldPosition, 2);
    const d = Math.hypot(ankle[0], ankle[1] - 3, ankle[2] + 2);
    expect(d).toBeLessThan(1e-3);
    const k = at4(pose.solvedRotation, 1);
    expect(Math.abs(k[1]) + Math.abs(k[2])).toBeLessThan(1e-12);
    const angle = 2 * Math.atan2(k[0], k[3]);
    expect(angle).toBeLessThanOrEqual(-0.5 * Math.PI / 180 + 1e-9);
    expect(angle).toBeGreaterThanOrEqual(-Math.PI - 1e-9);
    // The bone lengths hold, as they must whatever the solver did.
    const kneeP = at3(pose.worldPosition, 1);
    expect(Math.hypot(kneeP[0], kneeP[1] - 10, kneeP[2])).toBeCloseTo(5, 9);
    expect(Math.hypot(ankle[0] - kneeP[0], ankle[1] - kneeP[1], ankle[2] - kneeP[2])).toBeCloseTo(5, 9);
    // The toe below the chain follows the ankle.
    const toe = at3(pose.worldPosition, 3);
    expect(Math.hypot(toe[0] - ankle[0], toe[1] - ankle[1], toe[2] - ankle[2])).toBeCloseTo(2, 9);
  });
  it('switched off, the chain keeps the motion’s rotations', () => {
    const pose = new Pose(skel);
    pose.translation.set([0, 3, -2], 3 * 4);
    pose.evaluate('all', () => false);
    near(at3(pose.worldPosition, 2), [0, 0, 0]);
  });
  it('gives the same bits on every run', () => {
    const run = () => {
      const pose = new Pose(skel);
      pose.translation.set([0.3, 2.5, -1.7], 3 * 4);
      pose.evaluate();
      return Buffer.from(pose.worldRotation.buffer).toString('hex');
    };
    expect(run()).toBe(run());
  });
});

describe('a corpus model playing a corpus dance', () => {
  const model = readModel(new Uint8Array(readFileSync(path.join(corpusDir, 'mmd-viewer-js/model/low_miku/miku.pmd'))));
  const doc = readVmd(new Uint8Array(readFileSync(path.join(corpusDir, 'mmd-viewer-js/vmd/wavefile_v2.vmd'))));
  it('poses every frame without NaN, with the feet on their IK goals where the legs reach', () => {
    if (!model.ok || !doc.ok) throw new Error('corpus files did not read');
    const skel = buildSkeleton(model.value.bones);
    const poser = new MotionPoser(skel, doc.value, buildTracks(doc.value));
    const pose = new Pose(skel);
    const ik = skel.byKey.get('左足ＩＫ')!;
    const ankle = skel.byKey.get('左足首')!, knee = skel.byKey.get('左ひざ')!, hip = skel.byKey.get('左足')!;
    const rest = skel.restPosition;
    const len = (a: number, b: number) => Math.hypot(rest[3 * a] - rest[3 * b], rest[3 * a + 1] - rest[3 * b + 1], rest[3 * a + 2] - rest[3 * b + 2]);
    const leg = len(hip, knee) + len(knee, ankle);
    let reachable = 0;
    let worst = 0;
    for (let f = 0; f <= 6000; f += 7.5) {
      poser.poseAt(pose, f);
      for (const v of pose.worldPosition) expect(Number.isFinite(v)).toBe(true);
      const g = at3(pose.worldPosition, ik), a = at3(pose.worldPosition, ankle), h = at3(pose.worldPosition, hip);
      // The dance was made for a taller Miku: on the low-poly one (legs 4.75 long) the goal is often out of
      // reach. Where it lies well within reach, the foot lands on it.
      if (Math.hypot(g[0] - h[0], g[1] - h[1], g[2] - h[2]) > 0.9 * leg) continue;
      reachable++;
      worst = Math.max(worst, Math.hypot(g[0] - a[0], g[1] - a[1], g[2] - a[2]));
    }
    expect(reachable).toBeGreaterThan(50);
    expect(worst).toBeLessThan(0.01);
  });
});
