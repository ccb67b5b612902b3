// Picking a bone in the 3D preview (renderer/src/preview/bone-pick.ts) without WebGL: projection of joints
// with a hand-made camera against positions worked out here by hand, the nearest-joint rule (radius, ties,
// points behind the camera), the preference for tracked bones over ordinary ones over tips, and the key
// found at a frame, on a VMD written field by field.
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { BONE_FLAG } from '../../../shared/pmx/model-types';
import { buildTracks, readVmd } from '../../../shared/vmd';
import { defaultFigureBones } from '../../../shared/skeleton/standard-figure';
import { buildRig, updateRigWorld } from '../../../renderer/src/preview/rig';
import {
  PICK_RADIUS_PX,
  PickTier,
  isTipBone,
  keyRecordAt,
  pickJoint,
  pickTiers,
  projectJoints,
  trackOfBone,
} from '../../../renderer/src/preview/bone-pick';
import { buildFixture, SJIS } from '../../helpers/vmd-fixtures';

/** A camera at (0, 0, 10) looking down −Z, 90° vertical field of view, on a 200 × 100 px viewport. */
function handCamera(): { camera: THREE.PerspectiveCamera; m: Float32Array | number[] } {
  const camera = new THREE.PerspectiveCamera(90, 2, 1, 100);
  camera.position.set(0, 0, 10);
  camera.updateMatrixWorld();
  const m = new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
  return { camera, m: m.elements };
}

/** Screen array (x, y, depth per joint) from a list of triples. */
const screen = (...joints: [number, number, number][]) => Float32Array.from(joints.flat());

/** A bone MMD draws and lets one grab: 表示 (visible) and 操作 (operable) on. */
const VISIBLE = BONE_FLAG.VISIBLE | BONE_FLAG.ENABLED | BONE_FLAG.ROTATABLE;

/**
 * The default figure at rest under the preview's opening view (camera at (0, 16, 52) looking at (0, 10, 0),
 * fov 30°) in a width × height viewport: its bones, the camera, and each joint projected (x, y, depth).
 */
function figureOnScreen(width: number, height: number) {
  const bones = defaultFigureBones();
  const rig = buildRig(bones);
  updateRigWorld(rig);
  const camera = new THREE.PerspectiveCamera(30, width / height, 0.5, 2000);
  camera.position.set(0, 16, 52);
  camera.lookAt(0, 10, 0);
  camera.updateMatrixWorld();
  const m = new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
  const world = new Float32Array(3 * bones.length);
  rig.bones.forEach((b, i) => world.set([b.matrixWorld.elements[12], b.matrixWorld.elements[13], b.matrixWorld.elements[14]], 3 * i));
  const out = new Float32Array(3 * bones.length);
  projectJoints(m.elements, world, bones.length, width, height, out);
  return { bones, rig, camera, out };
}

describe('projectJoints', () => {
  it('maps world points to CSS pixels as the pinhole formula says', () => {
    const { m } = handCamera();
    // Distance d in front of the camera: x_ndc = x / (d · tan 45° · aspect 2), y_ndc = y / d.
    const world = Float32Array.from([0, 0, 0, 5, 2.5, 0, -4, -1, 6, 0, 0, 20, 0, 0, -200]);
    const out = new Float32Array(15);
    projectJoints(m, world, 5, 200, 100, out);
    expect(out[0]).toBeCloseTo(100, 4);
    expect(out[1]).toBeCloseTo(50, 4);
    // (5, 2.5) at d = 10: ndc (0.25, 0.25) → x 125, y (1 − 0.25) / 2 · 100 = 37.5.
    expect(out[3]).toBeCloseTo(125, 4);
    expect(out[4]).toBeCloseTo(37.5, 4);
    // (−4, −1) at d = 4: ndc (−0.5, −0.25) → x 50, y 62.5; and nearer than the first point.
    expect(out[6]).toBeCloseTo(50, 4);
    expect(out[7]).toBeCloseTo(62.5, 4);
    expect(out[8]).toBeLessThan(out[2]);
    // Behind the camera and past the far plane: not on screen.
    expect([out[9], out[10], out[11]].every(Number.isNaN)).toBe(true);
    expect([out[12], out[13], out[14]].every(Number.isNaN)).toBe(true);
  });

  it('agrees with three.js Vector3.project on the default figure under the preview\'s opening view', () => {
    const { rig, camera, out } = figureOnScreen(400, 600);
    // 左ひじ's rest position in MMD coordinates (standard-figure.ts), z flipped for three.js.
    const elbow = new THREE.Vector3(3.9, 13.55, -0.4).project(camera);
    const i = rig.byKey.get('左ひじ')!;
    expect(out[3 * i]).toBeCloseTo(((elbow.x + 1) / 2) * 400, 3);
    expect(out[3 * i + 1]).toBeCloseTo(((1 - elbow.y) / 2) * 600, 3);
  });
});

describe('pickJoint', () => {
  const allBones = (n: number) => new Uint8Array(n).fill(PickTier.BONE);

  it('takes the nearest joint within the radius', () => {
    const s = screen([100, 100, 0.5], [108, 100, 0.5], [130, 100, 0.5]);
    expect(pickJoint(s, allBones(3), 3, 105, 100, 12)).toBe(1);
    expect(pickJoint(s, allBones(3), 3, 101, 101, 12)).toBe(0);
    expect(pickJoint(s, allBones(3), 3, 125, 103, 12)).toBe(2);
  });

  it('counts a joint exactly on the radius and nothing beyond it', () => {
    const s = screen([100, 100, 0.5]);
    expect(pickJoint(s, allBones(1), 1, 112, 100, 12)).toBe(0);
    expect(pickJoint(s, allBones(1), 1, 100, 112.01, 12)).toBe(-1);
    expect(pickJoint(s, allBones(1), 1, 300, 300, PICK_RADIUS_PX)).toBe(-1);
  });

  it('finds nothing in an empty rig or when every joint is behind the camera', () => {
    expect(pickJoint(new Float32Array(0), new Uint8Array(0), 0, 0, 0, 12)).toBe(-1);
    expect(pickJoint(screen([NaN, NaN, NaN], [NaN, NaN, NaN]), allBones(2), 2, 0, 0, 1e9)).toBe(-1);
  });

  it('breaks a tie in distance toward the camera, then toward the lower index', () => {
    // Both 5 px from the click; the second is nearer the camera (smaller depth).
    expect(pickJoint(screen([100, 100, 0.6], [110, 100, 0.3]), allBones(2), 2, 105, 100, 12)).toBe(1);
    expect(pickJoint(screen([110, 100, 0.3], [100, 100, 0.6]), allBones(2), 2, 105, 100, 12)).toBe(0);
    // Same spot, same depth (a leg IK bone on its ankle at rest): the first bone.
    expect(pickJoint(screen([50, 50, 0.4], [50, 50, 0.4]), allBones(2), 2, 52, 50, 12)).toBe(0);
  });

  it('prefers tracked bones over ordinary ones over tips, whatever the distance inside the radius', () => {
    const s = screen([100, 100, 0.5], [110, 100, 0.5], [104, 100, 0.5]);
    const tiers = Uint8Array.from([PickTier.TIP, PickTier.TRACKED, PickTier.BONE]);
    // The tip sits under the click, the ordinary bone 4 px away, the tracked one 10 px away.
    expect(pickJoint(s, tiers, 3, 100, 100, 12)).toBe(1);
    // Beyond the radius the tracked bone does not count: the ordinary bone wins over the tip.
    expect(pickJoint(s, tiers, 3, 97, 100, 12)).toBe(2);
    // Only the tip is near: it is picked rather than nothing.
    expect(pickJoint(s, tiers, 3, 90, 100, 12)).toBe(0);
    // A keyed tip under the click loses to a keyed bone 10 px away, and beats an unkeyed bone.
    const keyedTip = Uint8Array.from([PickTier.TRACKED_TIP, PickTier.TRACKED, PickTier.BONE]);
    expect(pickJoint(s, keyedTip, 3, 100, 100, 12)).toBe(1);
    expect(pickJoint(s, keyedTip, 3, 97, 100, 12)).toBe(0);
  });
});

describe('pick tiers', () => {
  it('recognises tips by name or by the hidden or not-operable flag', () => {
    for (const name of ['左人指先', '頭先', 'Hair_end', 'ArmEnd', 'end', 'Bone.End']) expect(isTipBone({ name, flags: VISIBLE }), name).toBe(true);
    for (const name of ['左ひじ', 'センター', 'Bend', 'Legend', '先生']) expect(isTipBone({ name, flags: VISIBLE }), name).toBe(false);
    expect(isTipBone({ name: '左ひじ', flags: BONE_FLAG.ROTATABLE })).toBe(true);
    // Shown but not operable (PMX 操作 off): MMD does not let one grab it, so no dot and the last pick choice.
    expect(isTipBone({ name: '左ひじ', flags: BONE_FLAG.VISIBLE | BONE_FLAG.ROTATABLE })).toBe(true);
    expect(isTipBone({ name: '左ひじ', flags: BONE_FLAG.ENABLED | BONE_FLAG.ROTATABLE })).toBe(true);
  });

  it('ranks keyed bones, then keyed tips, then other bones, then tips; maps each bone to its first track', () => {
    const bones = [
      { name: '左ひじ', flags: VISIBLE },
      { name: '左人指先', flags: VISIBLE },
      { name: '右ひじ', flags: VISIBLE },
      { name: '頭先', flags: 0 },
    ];
    // Tracks: 0 → bone 2, 1 → missing, 2 → bone 3 (a keyed tip), 3 → bone 2 again (a cut long name).
    const trackBone = Int32Array.from([2, -1, 3, 2]);
    expect(Array.from(pickTiers(bones, trackBone))).toEqual([PickTier.BONE, PickTier.TIP, PickTier.TRACKED, PickTier.TRACKED_TIP]);
    expect(PickTier.TRACKED < PickTier.TRACKED_TIP && PickTier.TRACKED_TIP < PickTier.BONE && PickTier.BONE < PickTier.TIP).toBe(true);
    expect(Array.from(trackOfBone(4, trackBone))).toEqual([-1, -1, 0, 2]);
  });

  it('on the default figure: a keyed leg IK wins its ankle, an IK bone wins the toe tip it sits on', () => {
    // A small viewport (200 × 300 px): the elbow and the upper-arm twist joint are ~16 px apart.
    const { bones, rig, camera, out: s } = figureOnScreen(200, 300);
    const at = (mmd: [number, number, number]) => {
      const p = new THREE.Vector3(mmd[0], mmd[1], -mmd[2]).project(camera);
      return [((p.x + 1) / 2) * 200, ((1 - p.y) / 2) * 300] as const;
    };
    const name = (i: number) => (i < 0 ? null : bones[i].name);
    const pick = (trackBone: number[], p: readonly [number, number]) => name(pickJoint(s, pickTiers(bones, trackBone), bones.length, p[0], p[1], PICK_RADIUS_PX));
    const idx = (n: string) => rig.byKey.get(n)!;
    // Positions from standard-figure.ts (MMD coordinates).
    const ankle = at([0.95, 1.3, 0.35]), toe = at([0.95, 0.15, -1.2]), elbow = at([3.9, 13.55, 0.4]);
    expect(pick([], ankle)).toBe('左足首');
    expect(pick([idx('左足ＩＫ')], ankle)).toBe('左足ＩＫ');
    expect(pick([], toe)).toBe('左つま先ＩＫ');
    expect(pick([idx('左ひじ'), idx('左腕')], [elbow[0] + 2, elbow[1] - 1])).toBe('左ひじ');
    // Between the elbow and the upper-arm twist joint, nearer the twist: the tracked elbow still wins
    // while it is inside the radius; without tracks the nearer joint does.
    const twist = at([2.7, 14.5, 0.4]);
    const mid: [number, number] = [elbow[0] + 0.6 * (twist[0] - elbow[0]), elbow[1] + 0.6 * (twist[1] - elbow[1])];
    expect(Math.hypot(mid[0] - elbow[0], mid[1] - elbow[1])).toBeLessThan(PICK_RADIUS_PX);
    expect(pick([idx('左ひじ')], mid)).toBe('左ひじ');
    expect(pick([], mid)).toBe('左腕捩');
  });
});

describe('keyRecordAt', () => {
  // Records in file order: 0 左腕@10, 1 センター@10, 2 左腕@0, 3 左腕@30.
  const bytes = buildFixture({
    bones: [
      { name: SJIS.左腕, frame: 10 },
      { name: SJIS.センター, frame: 10 },
      { name: SJIS.左腕, frame: 0 },
      { name: SJIS.左腕, frame: 30 },
    ],
  });
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  const bones = buildTracks(r.value).bones;
  const arm = bones.index.get('左腕')!;
  const center = bones.index.get('センター')!;

  it('gives the record of the key exactly at the frame', () => {
    expect(keyRecordAt(bones, arm, 10)).toBe(0);
    expect(keyRecordAt(bones, arm, 0)).toBe(2);
    expect(keyRecordAt(bones, arm, 30)).toBe(3);
    expect(keyRecordAt(bones, center, 10)).toBe(1);
  });

  it('gives −1 between keys, at a fractional frame and for a track that does not exist', () => {
    expect(keyRecordAt(bones, arm, 20)).toBe(-1);
    expect(keyRecordAt(bones, center, 0)).toBe(-1);
    expect(keyRecordAt(bones, arm, 10.5)).toBe(-1);
    expect(keyRecordAt(bones, 7, 10)).toBe(-1);
    expect(keyRecordAt(bones, -1, 10)).toBe(-1);
  });
});
