// IK bake of a chain whose links take more than their keys: a knee with an append (付与) rotation from a helper bone
// the motion keys, and a thigh with a bone morph of its own (a turn and a move). No corpus model has such a chain, so
// the model is built here, byte by byte. OUT played by shared/skeleton's evaluator (its keys, its bone morphs and
// appends, IK off as OUT's IK keys say) must put the chain where the input's IK puts it, at every frame. The
// player adds the append turn and the morph again on top of a key: a key holding the whole local rotation would
// turn the knee by the append twice and the thigh by the morph twice (tens of degrees here).
import { describe, expect, it } from 'vitest';
import { ikBake } from '../../../shared/bake';
import { readModel, type ModelData } from '../../../shared/pmx';
import { blockFromRecords, buildTracks, emptyVmd, encodeBoneRecord, encodeMorphRecord, withBlocks, type VmdDocument } from '../../../shared/vmd';
import { buildSkeleton, MotionPoser, Pose } from '../../../shared/skeleton';
import { Bytes } from '../pmx-fixtures';

const deg = Math.PI / 180;
/** (x, y, z, w) of a turn by `a` radians about a unit axis. */
const turn = (ax: number, ay: number, az: number, a: number) => [ax * Math.sin(a / 2), ay * Math.sin(a / 2), az * Math.sin(a / 2), Math.cos(a / 2)];

/**
 * A PMX 2.0 with six bones (bone index size 2, UTF-16 names), no mesh:
 *  0 センター (0, 10, 0), root; 1 ひざ補助 (1, 5, 0) under it, a helper the motion turns;
 *  2 左足 (1, 10, 0) under センター; 3 左ひざ (1, 5, 0) under 左足, appending `ratio` of ひざ補助's rotation;
 *  4 左足首 (1, 0.5, 0) under 左ひざ; 5 左足ＩＫ (1, 0.5, 0), root, IK to 左足首, 40 loops, limit 2 rad,
 *  links 左ひざ (X from −180° to −0.5°) and 左足 (no limits).
 * One bone morph ひねり: 左足 moved by (0, 0.2, 0) and turned 25° about Y.
 */
function appendKneePmx(ratio: number): Uint8Array {
  const w = new Bytes();
  const t = (s: string) => w.text(s);
  w.raw([0x50, 0x4d, 0x58, 0x20]).f32(2.0).u8(8).u8(0, 0, 1, 1, 1, 2, 1, 1);
  t('付与ひざ'); t('append knee'); t(''); t('');
  w.i32(0).i32(0).i32(0).i32(0); // vertices, faces, textures, materials
  w.i32(6);
  const ROT_VIS_ON = 0x001a, MOVE = 0x0004, APPEND_ROTATE = 0x0100, IK = 0x0020;
  const bone = (name: string, pos: number[], parent: number, flags: number) => {
    t(name); t('');
    w.f32(...pos).idx(2, parent).i32(0).u16(flags).f32(0, -1, 0); // tail as an offset (flag 0x0001 clear)
  };
  bone('センター', [0, 10, 0], -1, ROT_VIS_ON | MOVE);
  bone('ひざ補助', [1, 5, 0], 0, ROT_VIS_ON);
  bone('左足', [1, 10, 0], 0, ROT_VIS_ON);
  bone('左ひざ', [1, 5, 0], 2, ROT_VIS_ON | APPEND_ROTATE);
  w.idx(2, 1).f32(ratio);
  bone('左足首', [1, 0.5, 0], 3, ROT_VIS_ON);
  bone('左足ＩＫ', [1, 0.5, 0], -1, ROT_VIS_ON | MOVE | IK);
  w.idx(2, 4).i32(40).f32(2).i32(2);
  w.idx(2, 3).u8(1).f32(-Math.PI, 0, 0).f32(-0.5 * deg, 0, 0);
  w.idx(2, 2).u8(0);
  w.i32(1);
  t('ひねり'); t('twist'); w.u8(4).u8(2).i32(1).idx(2, 2).f32(0, 0.2, 0).f32(...turn(0, 1, 0, 25 * deg));
  w.i32(0).i32(0).i32(0); // display frames, rigid bodies, joints
  return w.build();
}

/** 30 frames: the IK goal walks forward and up, センター drops, ひざ補助 turns 40° about X, ひねり goes 0 → 1. */
function motion(): VmdDocument {
  const id = [0, 0, 0, 1];
  const bones = [
    encodeBoneRecord({ name: '左足ＩＫ', frame: 0, position: [0, 2, -1.5], rotation: id }),
    encodeBoneRecord({ name: '左足ＩＫ', frame: 30, position: [0.5, 3.5, 1.5], rotation: id }),
    encodeBoneRecord({ name: 'センター', frame: 0, position: [0, 0, 0], rotation: id }),
    encodeBoneRecord({ name: 'センター', frame: 30, position: [0, -1, 0], rotation: id }),
    encodeBoneRecord({ name: 'ひざ補助', frame: 0, position: [0, 0, 0], rotation: id }),
    encodeBoneRecord({ name: 'ひざ補助', frame: 30, position: [0, 0, 0], rotation: turn(1, 0, 0, 40 * deg) }),
  ];
  const morphs = [encodeMorphRecord({ name: 'ひねり', frame: 0, weight: 0 }), encodeMorphRecord({ name: 'ひねり', frame: 30, weight: 1 })];
  return withBlocks(emptyVmd('付与ひざ'), { bone: blockFromRecords('bone', bones), morph: blockFromRecords('morph', morphs) });
}

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
      const read = readModel(appendKneePmx(ratio), 'append-knee.pmx');
      expect(read.ok).toBe(true);
      if (!read.ok) return;
      const model: ModelData = read.value;
      expect(model.bones[3].appendParent).toBe(1);
      expect(model.bones[3].appendRatio).toBe(ratio);
      const input = motion();
      const r = ikBake(model, input, { rotTol: 0.1 });
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
