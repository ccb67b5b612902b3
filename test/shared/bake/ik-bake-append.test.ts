// IK bake of a chain whose links take more than their keys: a knee with an append (付与) rotation from a helper bone
// the motion keys, and a thigh with a bone morph of its own (a turn and a move). No corpus model has such a chain, so
// the model is built here, byte by byte. OUT played by shared/skeleton's evaluator (its keys, its bone morphs and
// appends, IK off as OUT's IK keys say) must put the chain where the input's IK puts it, at every frame. The
// player adds the append turn and the morph again on top of a key: a key holding the whole local rotation would
// turn the knee by the append twice and the thigh by the morph twice (tens of degrees here).
import { describe, expect, it } from 'vitest';
import { ikBake } from '../../../shared/bake';
import { readModel, type ModelData } from '../../../shared/pmx';
import { buildTracks } from '../../../shared/vmd';
import { buildSkeleton, MotionPoser, Pose } from '../../../shared/skeleton';
import { appendKneeMotion, appendKneePmx } from '../../helpers/pmx-append-knee';

const deg = Math.PI / 180;

/** Angle between two rotations (x, y, z, w at ao and bo), in degrees. */
function angleDeg(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  const na = Math.hypot(a[ao], a[ao + 1], a[ao + 2], a[ao + 3]), nb = Math.hypot(b[bo], b[bo + 1], b[bo + 2], b[bo + 3]);
  let d = 0;
  for (let c = 0; c < 4; c++) d += (a[ao + c] / na) * (b[bo + c] / nb);
  return (2 * Math.acos(Math.min(1, Math.abs(d))) * 180) / Math.PI;
}
const ID = [0, 0, 0, 1];

describe('IK bake of links with an append rotation and a bone morph', () => {
  for (const ratio of [0.5, -1.5]) {
    it(`append ratio ${ratio}: OUT played with its appends and morphs is the IK pose at every frame, within the tolerance`, () => {
      const read = readModel(appendKneePmx({ ratio }), 'append-knee.pmx');
      expect(read.ok).toBe(true);
      if (!read.ok) return;
      const model: ModelData = read.value;
      expect(model.bones[3].appendParent).toBe(1);
      expect(model.bones[3].appendRatio).toBe(ratio);
      const input = appendKneeMotion();
      const r = ikBake(model, input, { rotationToleranceDeg: 0.1 });
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(r.value.report.bones).toEqual(['左足', '左ひざ']);
      expect(r.value.report.ikOff).toEqual(['左足ＩＫ']);

      // The input posed by the evaluator with its IK on, against OUT posed by the same evaluator as OUT plays
      // (its IK keys switch 左足ＩＫ off): the thigh, the knee and the ankle, world rotation and position.
      const sk = buildSkeleton(model.bones);
      const inPoser = new MotionPoser(sk, input, buildTracks(input), model);
      const out = r.value.doc;
      const outPoser = new MotionPoser(sk, out, buildTracks(out), model);
      const a = new Pose(sk), b = new Pose(sk);
      let maxRot = 0, maxPos = 0, appendSeen = 0, morphSeen = 0, ikSeen = 0;
      for (let f = 0; f <= 30; f++) {
        inPoser.poseAt(a, f);
        outPoser.poseAt(b, f);
        expect(outPoser.ikEnabledAt(f)(5)).toBe(false);
        // The things this test is about are there: ひざ補助 turned (so the knee appends a turn), ひねり's turn on
        // the thigh, and the IK bending the chain away from its keys.
        appendSeen = Math.max(appendSeen, angleDeg(a.rotation, 4, ID, 0));
        morphSeen = Math.max(morphSeen, angleDeg(a.rotation, 8, ID, 0));
        ikSeen = Math.max(ikSeen, angleDeg(a.solvedRotation, 12, a.rotation, 12));
        for (const bone of [2, 3, 4]) {
          maxRot = Math.max(maxRot, angleDeg(a.worldRotation, 4 * bone, b.worldRotation, 4 * bone));
          maxPos = Math.max(maxPos, Math.hypot(...[0, 1, 2].map((c) => a.worldPosition[3 * bone + c] - b.worldPosition[3 * bone + c])));
        }
      }
      expect(appendSeen).toBeGreaterThan(39);
      expect(morphSeen).toBeGreaterThan(24);
      expect(ikSeen).toBeGreaterThan(20);
      // Each bone within the rotation tolerance (float32 keys: a hair more); a position below the thigh within its
      // distance to the thigh (9.5 at most) times the tolerance.
      expect(maxRot).toBeLessThanOrEqual(0.1 + 1e-3);
      expect(maxPos).toBeLessThanOrEqual(9.5 * 0.1 * deg + 1e-4);
      expect(r.value.report.maxRotationErrorDeg).toBeLessThanOrEqual(0.1 + 1e-3);
    });
  }
});
