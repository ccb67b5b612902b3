// 3D preview scene builders without WebGL: the default figure's skeleton, the MMD → three.js conversion of a
// posed 左腕 checked against rotation matrices computed here in MMD coordinates, IK (with the VMD's on/off
// switch), append, camera placement, model meshes from the corpus and the TGA decoder.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { corpusDir } from '../../helpers/corpus';
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import {
  blockFromRecords,
  ikBlockFromRecords,
  buildTracks,
  buildVmd,
  encodeCameraRecord,
  encodeIkRecord,
  readVmd,
  samplePose,
  sampleCamera,
  withBlocks,
  type VmdDocument,
} from '../../../shared/vmd';
import { readModel, type ModelData } from '../../../shared/pmx';
import { defaultFigureBones, defaultFigureParts } from '../../../shared/skeleton/standard-figure';
import { buildDefaultFigure } from '../../../renderer/src/preview/figure-mesh';
import { buildRig, updateRigWorld } from '../../../renderer/src/preview/rig';
import { PoseBinding, ikSwitchesOf } from '../../../renderer/src/preview/pose-binding';
import { applyCameraPose, buildCameraPath, lightFromPose } from '../../../renderer/src/preview/camera-view';
import { buildModelMesh } from '../../../renderer/src/preview/model-mesh';
import { decodeTga } from '../../../shared/pmx/tga';
import { tinyPmx } from '../../shared/pmx-fixtures';
import { rotate, type V3 } from '../../helpers/quat';

const CORPUS = corpusDir;
const load = (rel: string) => new Uint8Array(readFileSync(path.join(CORPUS, rel)));

function axisAngle(axis: V3, deg: number): [number, number, number, number] {
  const h = (deg * Math.PI) / 360;
  return [axis[0] * Math.sin(h), axis[1] * Math.sin(h), axis[2] * Math.sin(h), Math.cos(h)];
}
const sub = (a: readonly number[], b: readonly number[]): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: readonly number[], b: readonly number[]): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const toThree = (p: readonly number[]): V3 => [p[0], p[1], -p[2]];

function figureWith(doc: VmdDocument | null) {
  const fig = buildDefaultFigure();
  const tracks = doc ? buildTracks(doc) : null;
  const binding = new PoseBinding(fig.rig, tracks, ikSwitchesOf(doc, tracks));
  return { fig, rig: fig.rig, binding, tracks };
}
function worldPos(rig: ReturnType<typeof buildRig>, name: string): V3 {
  const p = rig.bones[rig.byKey.get(name)!].getWorldPosition(new THREE.Vector3());
  return [p.x, p.y, p.z];
}

describe('default figure skeleton', () => {
  const bones = defaultFigureBones();
  const byName = new Map(bones.map((b) => [b.name, b]));
  it('has the standard MMD bones, left and right', () => {
    const core = ['全ての親', 'センター', 'グルーブ', '腰', '上半身', '上半身2', '首', '頭', '両目', '下半身'];
    const sided = ['目', '肩', '腕', '腕捩', 'ひじ', '手捩', '手首', '足', 'ひざ', '足首', 'つま先', '足ＩＫ', 'つま先ＩＫ',
      '親指０', '親指１', '親指２', '人指１', '人指２', '人指３', '中指１', '中指２', '中指３', '薬指１', '薬指２', '薬指３', '小指１', '小指２', '小指３'];
    for (const n of core) expect(byName.has(n), n).toBe(true);
    for (const s of ['左', '右']) for (const n of sided) expect(byName.has(s + n), s + n).toBe(true);
    expect(new Set(bones.map((b) => b.name)).size).toBe(bones.length);
  });
  it('has MMD rest positions: left = +X, mirror-symmetric, a plausible ~20-unit figure standing on y = 0', () => {
    for (const b of bones) {
      if (!b.name.startsWith('左')) continue;
      const r = byName.get('右' + b.name.slice(1))!;
      expect(b.position[0]).toBeGreaterThan(0);
      expect(r.position).toEqual([-b.position[0], b.position[1], b.position[2]]);
    }
    const y = (n: string) => byName.get(n)!.position[1];
    expect(y('頭')).toBeGreaterThan(y('首'));
    expect(y('首')).toBeGreaterThan(y('上半身'));
    expect(y('左ひざ')).toBeLessThan(y('左足'));
    expect(y('左足首')).toBeLessThan(y('左ひざ'));
    expect(y('左手首')).toBeLessThan(y('左腕')); // A-stance
    expect(y('左つま先')).toBeGreaterThanOrEqual(0);
    expect(byName.get('左つま先')!.position[2]).toBeLessThan(byName.get('左足首')!.position[2]); // toes point to −Z (front)
  });
  it('parents chain the limbs and IK targets the ankle and toe', () => {
    const parent = (n: string) => bones[byName.get(n)!.parent]?.name;
    expect(['左腕', '左腕捩', '左ひじ', '左手捩', '左手首'].map(parent)).toEqual(['左肩', '左腕', '左腕捩', '左ひじ', '左手捩']);
    expect(['左足', '左ひざ', '左足首', '左つま先'].map(parent)).toEqual(['下半身', '左足', '左ひざ', '左足首']);
    const ik = byName.get('左足ＩＫ')!.ik!;
    expect(bones[ik.target].name).toBe('左足首');
    expect(ik.links.map((l) => bones[l.bone].name)).toEqual(['左ひざ', '左足']);
    expect(bones[byName.get('右つま先ＩＫ')!.ik!.target].name).toBe('右つま先');
    expect(bones[byName.get('左目')!.appendParent].name).toBe('両目');
  });
  it('builds a rig whose rest world positions are the MMD positions with z negated, and limbs on every main bone', () => {
    const { rig, fig } = figureWith(null);
    updateRigWorld(rig);
    for (const b of bones) {
      const p = worldPos(rig, b.name);
      const e = toThree(b.position);
      for (let c = 0; c < 3; c++) expect(p[c]).toBeCloseTo(e[c], 5);
    }
    const parts = new Set(defaultFigureParts().map((p) => p.bone));
    for (const n of ['頭', '上半身', '左腕', '右ひじ', '左足', '右ひざ', '左中指１', '右親指０']) expect(parts.has(n), n).toBe(true);
    // One skinned mesh (one draw call); every limb's vertices ride its bone alone.
    let meshes = 0;
    fig.group.traverse((o) => void ((o as THREE.Mesh).isMesh && meshes++));
    expect(meshes).toBe(1);
    expect(fig.mesh.isSkinnedMesh).toBe(true);
    const si = fig.mesh.geometry.getAttribute('skinIndex'), sw = fig.mesh.geometry.getAttribute('skinWeight');
    const used = new Set<number>();
    for (let v = 0; v < si.count; v++) {
      used.add(si.getX(v));
      expect(sw.getX(v) + sw.getY(v) + sw.getZ(v) + sw.getW(v)).toBe(1);
    }
    const partBones = new Set(defaultFigureParts().map((p) => rig.byKey.get(p.bone)!));
    expect(used).toEqual(partBones);
  });

  it('limbs follow their bones: a posed 左腕 carries its vertices, the right arm stays', () => {
    const { fig, rig, binding } = figureWith(buildVmd({ bones: [{ name: '左腕', frame: 0, position: [0, 0, 0], rotation: axisAngle([0, 0, 1], -60) }] }));
    const geo = fig.mesh.geometry;
    const si = geo.getAttribute('skinIndex');
    const arm = rig.byKey.get('左腕')!, rArm = rig.byKey.get('右腕')!;
    const vArm = [...Array(si.count).keys()].find((v) => si.getX(v) === arm)!;
    const vRight = [...Array(si.count).keys()].find((v) => si.getX(v) === rArm)!;
    const rest = (v: number) => new THREE.Vector3().fromBufferAttribute(geo.getAttribute('position') as THREE.BufferAttribute, v);
    const restArm = rest(vArm), restRight = rest(vRight);
    binding.apply(0);
    fig.group.updateMatrixWorld(true);
    fig.mesh.skeleton.update();
    const posed = (v: number) => fig.mesh.applyBoneTransform(v, rest(v));
    // The skinned vertex is where the bone's own motion takes it: joint + R · (vertex − joint).
    const joint = new THREE.Vector3(...worldPos(rig, '左腕'));
    const expected = restArm.clone().sub(joint).applyQuaternion(rig.bones[arm].getWorldQuaternion(new THREE.Quaternion())).add(joint);
    expect(posed(vArm).distanceTo(expected)).toBeLessThan(1e-4);
    expect(posed(vArm).distanceTo(restArm)).toBeGreaterThan(0.1);
    expect(posed(vRight).distanceTo(restRight)).toBeLessThan(1e-5);
  });
});

describe('MMD → three.js pose conversion', () => {
  const bones = defaultFigureBones();
  const P = new Map(bones.map((b) => [b.name, b.position]));

  it('a 左腕 rotation about MMD Z lowers the arm so the wrist hangs straight below the shoulder joint', () => {
    const arm = P.get('左腕')!, wrist = P.get('左手首')!;
    const d = sub(wrist, arm);
    const lower = -90 - (Math.atan2(d[1], d[0]) * 180) / Math.PI; // MMD degrees about +Z to point the arm at −Y
    const q = axisAngle([0, 0, 1], lower);
    const doc = buildVmd({ bones: [{ name: '左腕', frame: 0, position: [0, 0, 0], rotation: q }] });
    const { rig, binding } = figureWith(doc);
    binding.apply(0);
    const w = worldPos(rig, '左手首');
    const len = Math.hypot(d[0], d[1]); // a rotation about Z keeps z and the length in the XY plane
    // Within float32 rounding of the stored quaternion (VMD keys are float32).
    expect(w[0]).toBeCloseTo(arm[0], 2);
    expect(w[1]).toBeCloseTo(arm[1] - len, 2);
    expect(w[2]).toBeCloseTo(-wrist[2], 2);
    // The elbow (the figure's arm is slightly bent at rest) goes where the MMD rotation matrix sends it.
    const e = worldPos(rig, '左ひじ');
    const eExp = toThree(add(arm, rotate(q, sub(P.get('左ひじ')!, arm))));
    for (let c = 0; c < 3; c++) expect(e[c]).toBeCloseTo(eExp[c], 3);
    expect(e[1]).toBeLessThan(arm[1] - 2);
  });

  it('a 左腕 rotation about MMD Y swings the arm to the figure\'s front (MMD −Z, three.js +Z)', () => {
    const arm = P.get('左腕')!, elbow = P.get('左ひじ')!;
    const q = axisAngle([0, 1, 0], 60);
    const doc = buildVmd({ bones: [{ name: '左腕', frame: 0, position: [0, 0, 0], rotation: q }] });
    const { rig, binding } = figureWith(doc);
    binding.apply(0);
    const expectedMmd = add(arm, rotate(q, sub(elbow, arm)));
    expect(expectedMmd[2]).toBeLessThan(arm[2] - 1); // in MMD terms: toward the front (−Z)
    const got = worldPos(rig, '左ひじ');
    const exp = toThree(expectedMmd);
    for (let c = 0; c < 3; c++) expect(got[c]).toBeCloseTo(exp[c], 4);
    expect(got[2]).toBeGreaterThan(1); // three.js: the figure faces +Z
  });

  it('composes rotations down the chain exactly as MMD matrices do (上半身 + 左腕 + 左ひじ, with a センター move)', () => {
    const qUpper = axisAngle([0.3, 0.9, 0.3].map((x) => x / Math.hypot(0.3, 0.9, 0.3)) as V3, 35);
    const qArm = axisAngle([0.2, 0.4, 0.89].map((x) => x / Math.hypot(0.2, 0.4, 0.89)) as V3, -50);
    const qElbow = axisAngle([0, 1, 0], 70);
    const move: V3 = [1.5, -0.5, 2];
    const doc = buildVmd({
      bones: [
        { name: 'センター', frame: 0, position: move, rotation: [0, 0, 0, 1] },
        { name: '上半身', frame: 0, position: [0, 0, 0], rotation: qUpper },
        { name: '左腕', frame: 0, position: [0, 0, 0], rotation: qArm },
        { name: '左ひじ', frame: 0, position: [0, 0, 0], rotation: qElbow },
      ],
    });
    const { rig, binding } = figureWith(doc);
    binding.apply(0);
    // MMD forward kinematics by hand: world(child) = world(parent) + R_parentWorld · (rest offset).
    const chain = ['全ての親', 'センター', 'グルーブ', '腰', '上半身', '上半身2', '左肩', '左腕', '左腕捩', '左ひじ', '左手捩', '左手首'];
    const local: Record<string, number[]> = { 上半身: qUpper, 左腕: qArm, 左ひじ: qElbow };
    let R = [0, 0, 0, 1];
    let pos: V3 = [0, 0, 0];
    let prev: V3 = [0, 0, 0];
    const mul = (a: number[], b: number[]) => [
      a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
      a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
      a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
      a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ];
    for (const n of chain) {
      const rest = P.get(n)!;
      const offset = add(sub(rest, prev), n === 'センター' ? move : [0, 0, 0]);
      pos = add(pos, rotate(R, offset));
      prev = rest as V3;
      if (local[n]) R = mul(R, local[n]);
    }
    const got = worldPos(rig, '左手首');
    const exp = toThree(pos);
    for (let c = 0; c < 3; c++) expect(got[c]).toBeCloseTo(exp[c], 3);
    // World rotation of 左ひじ in three.js = converted MMD world rotation (−x, −y, z, w), up to sign.
    const q = rig.bones[rig.byKey.get('左ひじ')!].getWorldQuaternion(new THREE.Quaternion());
    const e = [-R[0], -R[1], R[2], R[3]];
    const dot = Math.abs(q.x * e[0] + q.y * e[1] + q.z * e[2] + q.w * e[3]);
    expect(dot).toBeCloseTo(1, 5);
  });

  it('matches the codec\'s samplePose on wavefile_v2.vmd at a sub-frame, bone by bone along a chain', () => {
    const doc = readVmd(load('mmd-viewer-js/vmd/wavefile_v2.vmd'));
    if (!doc.ok) throw new Error(doc.error.message);
    const { rig, binding, tracks } = figureWith(doc.value);
    const f = 1234.5;
    binding.apply(f);
    const pose = samplePose(tracks!, f);
    const chain = ['全ての親', 'センター', 'グルーブ', '腰', '上半身', '上半身2', '首', '頭'];
    let R = new THREE.Quaternion();
    for (const n of chain) {
      const p = pose.bones[n];
      if (p) R = R.multiply(new THREE.Quaternion(-p.rotation[0], -p.rotation[1], p.rotation[2], p.rotation[3]));
      const got = rig.bones[rig.byKey.get(n)!].getWorldQuaternion(new THREE.Quaternion());
      expect(Math.abs(got.dot(R)), n).toBeGreaterThan(1 - 1e-6);
    }
    expect(pose.bones['頭']).toBeDefined();
    // The motion's センター translation is applied on top of the rest offset, z negated.
    const c = pose.bones['センター'].position;
    const w = worldPos(rig, 'センター');
    const rest = P.get('センター')!;
    expect(w[0]).toBeCloseTo(rest[0] + c[0], 4);
    expect(w[1]).toBeCloseTo(rest[1] + c[1], 4);
    expect(w[2]).toBeCloseTo(-(rest[2] + c[2]), 4);
    expect(binding.missingBones).toContain('左髪１');
    expect(binding.missingBones).not.toContain('左腕');
  });

  it('evaluates a full wavefile_v2 pose (sampling, IK, append) in well under 1 ms on average', () => {
    const doc = readVmd(load('mmd-viewer-js/vmd/wavefile_v2.vmd'));
    if (!doc.ok) throw new Error(doc.error.message);
    const { binding } = figureWith(doc.value);
    for (let f = 0; f < 200; f++) binding.apply(f * 0.5); // warm up
    const times = poseTimes(binding);
    const median = times[times.length >> 1];
    console.log(`figure pose eval: median ${median.toFixed(3)} ms, p95 ${times[Math.floor(times.length * 0.95)].toFixed(3)} ms over ${times.length} frames`);
    expect(median).toBeLessThan(1);
  });
});

describe('IK and append', () => {
  it('leg IK puts the ankle on the 足ＩＫ bone and bends the knee forward; an IK-off key leaves the leg straight', () => {
    const lift: V3 = [0, 3, 0];
    const base = buildVmd({ bones: [{ name: '左足ＩＫ', frame: 0, position: lift, rotation: [0, 0, 0, 1] }] });
    const { rig, binding } = figureWith(base);
    binding.apply(0);
    const goal = worldPos(rig, '左足ＩＫ');
    const ankle = worldPos(rig, '左足首');
    for (let c = 0; c < 3; c++) expect(ankle[c]).toBeCloseTo(goal[c], 2);
    const bones = defaultFigureBones();
    const kneeRest = bones.find((b) => b.name === '左ひざ')!.position;
    const knee = worldPos(rig, '左ひざ');
    expect(knee[2]).toBeGreaterThan(-kneeRest[2] + 0.5); // knee moves to the front (+Z in three.js)

    const off = withBlocks(base, { ik: ikBlockFromRecords([encodeIkRecord({ frame: 0, visible: 1, iks: [{ name: '左足ＩＫ', enabled: 0 }, { name: '右足ＩＫ', enabled: 1 }] })]) });
    const b2 = figureWith(off);
    b2.binding.apply(0);
    const ankleOff = worldPos(b2.rig, '左足首');
    const restAnkle = bones.find((b) => b.name === '左足首')!.position;
    for (let c = 0; c < 3; c++) expect(ankleOff[c]).toBeCloseTo(toThree(restAnkle)[c], 5);
  });

  it('an IK switch at a later frame turns IK off from that frame on', () => {
    const doc = withBlocks(buildVmd({ bones: [{ name: '右足ＩＫ', frame: 0, position: [0, 2, -1], rotation: [0, 0, 0, 1] }] }), {
      ik: ikBlockFromRecords([encodeIkRecord({ frame: 10, visible: 1, iks: [{ name: '右足ＩＫ', enabled: 0 }] })]),
    });
    const { rig, binding } = figureWith(doc);
    binding.apply(5);
    const goal = worldPos(rig, '右足ＩＫ');
    expect(worldPos(rig, '右足首')[1]).toBeCloseTo(goal[1], 2);
    binding.apply(12);
    expect(worldPos(rig, '右足首')[1]).toBeCloseTo(1.3, 4);
  });

  it('両目 turns both eyes by append (付与)', () => {
    const q = axisAngle([0, 1, 0], 20);
    const { rig, binding } = figureWith(buildVmd({ bones: [{ name: '両目', frame: 0, position: [0, 0, 0], rotation: q }] }));
    binding.apply(0);
    for (const n of ['左目', '右目']) {
      const w = rig.bones[rig.byKey.get(n)!].getWorldQuaternion(new THREE.Quaternion());
      expect(Math.abs(w.dot(new THREE.Quaternion(-q[0], -q[1], q[2], q[3]))), n).toBeGreaterThan(1 - 1e-6);
    }
  });
});

describe('camera', () => {
  it('places the three.js camera at |distance| from the target, looking at it, with the key\'s fov', () => {
    const cases = [
      { target: [0, 10, 0], rotation: [0, 0, 0], distance: -45, fov: 30 },
      { target: [1, 12, -3], rotation: [0.3, -1.1, 0.2], distance: -30, fov: 25 },
      { target: [-2, 8, 5], rotation: [-0.4, 2.5, -0.6], distance: -12, fov: 45 },
    ];
    for (const k of cases) {
      const doc = withBlocks(buildVmd({}), { camera: blockFromRecords('camera', [encodeCameraRecord({ frame: 0, ...k })]) });
      const pose = sampleCamera(buildTracks(doc).camera, 0)!;
      const cam = new THREE.PerspectiveCamera();
      expect(applyCameraPose(cam, pose)).toBe(true);
      const target = new THREE.Vector3(...toThree(k.target));
      expect(cam.position.distanceTo(target)).toBeCloseTo(Math.abs(k.distance), 3);
      const look = cam.getWorldDirection(new THREE.Vector3());
      const toTarget = target.clone().sub(cam.position).normalize();
      expect(look.dot(toTarget)).toBeGreaterThan(1 - 1e-5);
      expect(cam.fov).toBe(k.fov);
    }
    // With no rotation the MMD camera stands at −Z of the target (in front of the figure): +Z in three.js.
    const doc = withBlocks(buildVmd({}), { camera: blockFromRecords('camera', [encodeCameraRecord({ frame: 0, ...cases[0] })]) });
    const cam = new THREE.PerspectiveCamera();
    applyCameraPose(cam, sampleCamera(buildTracks(doc).camera, 0));
    expect(cam.position.z).toBeCloseTo(45, 4);
  });

  it('orients the look-through camera yaw outermost: no roll from yaw+pitch, roll only from Z', () => {
    const deg = Math.PI / 180;
    const pose = (rotation: number[]) => {
      const doc = withBlocks(buildVmd({}), { camera: blockFromRecords('camera', [encodeCameraRecord({ frame: 0, target: [0, 10, 0], rotation, distance: -20, fov: 30 })]) });
      return sampleCamera(buildTracks(doc).camera, 0)!;
    };
    const right = (cam: THREE.PerspectiveCamera) => new THREE.Vector3(1, 0, 0).applyQuaternion(cam.quaternion);
    const cam = new THREE.PerspectiveCamera();
    // Yaw 90° and pitch 30°: the camera looks at the target and its horizon stays level (right vector horizontal).
    applyCameraPose(cam, pose([-30 * deg, 90 * deg, 0]));
    expect(right(cam).y).toBeCloseTo(0, 9);
    expect(cam.position.y).toBeCloseTo(10 + 20 * 0.5, 4);
    const toTarget = new THREE.Vector3(0, 10, 0).sub(cam.position).normalize();
    expect(cam.getWorldDirection(new THREE.Vector3()).dot(toTarget)).toBeGreaterThan(1 - 1e-6);
    // Roll 20°: same place; the right vector turns 20° about the view axis, which is pitched 30°, so it rises sin 20°·cos 30°.
    const p0 = cam.position.clone();
    applyCameraPose(cam, pose([-30 * deg, 90 * deg, 20 * deg]));
    expect(cam.position.distanceTo(p0)).toBeLessThan(1e-4);
    expect(Math.abs(right(cam).y)).toBeCloseTo(Math.sin(20 * deg) * Math.cos(30 * deg), 6);
  });

  it('turns a light key into a normalised three.js direction (z negated) and a colour with 0.6 as white', () => {
    const l = lightFromPose({ color: [0.3, 0.6, 0.9], direction: [1, -2, 2] });
    expect(l.direction.map((x) => Math.round(x * 1e6) / 1e6)).toEqual([1 / 3, -2 / 3, -2 / 3].map((x) => Math.round(x * 1e6) / 1e6));
    expect(l.color.map((x) => Math.round(x * 1e6) / 1e6)).toEqual([0.5, 1, 1.5]);
    const d = lightFromPose(null); // MMD's default light (−0.5, −1, 0.5), grey 0.6
    expect(Math.hypot(...d.direction)).toBeCloseTo(1, 9);
    expect(d.direction[2]).toBeLessThan(0);
    expect(d.color).toEqual([1, 1, 1]);
    expect(Math.hypot(...lightFromPose({ color: [0.6, 0.6, 0.6], direction: [0, 0, 0] }).direction)).toBeCloseTo(1, 9);
  });

  it('draws wavefile_camera.vmd\'s path without lines across its cuts', () => {
    const doc = readVmd(load('threejs/vmds/wavefile_camera.vmd'));
    if (!doc.ok) throw new Error(doc.error.message);
    const tracks = buildTracks(doc.value);
    const view = buildCameraPath(tracks.camera);
    expect(view.cuts.length).toBeGreaterThan(0);
    const line = view.group.children[0] as THREE.LineSegments;
    const segs = line.geometry.getAttribute('position').count / 2;
    const span = tracks.camera.frames[tracks.camera.frames.length - 1] - tracks.camera.frames[0];
    expect(segs).toBe(span - view.cuts.length);
    view.dispose();
  });

  it('a camera that follows a bone: its path is the followed camera\'s, each point moved by where the bone stands', () => {
    const doc = readVmd(load('threejs/vmds/wavefile_camera.vmd'));
    if (!doc.ok) throw new Error(doc.error.message);
    const tracks = buildTracks(doc.value);
    // A bone walking +X one unit a frame and rising 0.5 a frame (MMD coordinates), from frame 0.
    const bone = (f: number) => [f, 0.5 * f, 2];
    const plain = buildCameraPath(tracks.camera);
    const followed = buildCameraPath(tracks.camera, bone);
    const pts = (v: ReturnType<typeof buildCameraPath>) => (v.group.children[0] as THREE.LineSegments).geometry.getAttribute('position');
    const a = pts(plain), b = pts(followed);
    expect(b.count).toBe(a.count);
    // Segment k starts at some frame f; the camera moves by the bone (the rotation and distance stay): in three.js
    // coordinates by (f, 0.5 f, −2). The frame is read back from the X offset and checked against Y and Z.
    for (let k = 0; k < a.count; k += 97) {
      const d = [b.getX(k) - a.getX(k), b.getY(k) - a.getY(k), b.getZ(k) - a.getZ(k)];
      const f = Math.round(d[0]);
      expect(f).toBeGreaterThanOrEqual(tracks.camera.frames[0]);
      expect(d[0]).toBeCloseTo(f, 2);
      expect(d[1]).toBeCloseTo(0.5 * f, 2);
      expect(d[2]).toBeCloseTo(-2, 2);
    }
    // The first point is the first key's frame.
    expect(b.getX(0) - a.getX(0)).toBeCloseTo(tracks.camera.frames[0], 2);
    plain.dispose();
    followed.dispose();
  });
});

describe('model meshes', () => {
  function model(rel: string): ModelData {
    const r = readModel(load(rel));
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  }
  it('keeps front faces counter-clockwise after mirroring z (winding agrees with the stored normals)', () => {
    for (const rel of ['gene/Gene_light.pmx', 'mmd-viewer-js/model/low_miku/miku.pmd']) {
      const built = buildModelMesh(model(rel));
      const pos = built.mesh.geometry.getAttribute('position');
      const nrm = built.mesh.geometry.getAttribute('normal');
      const idx = built.mesh.geometry.getIndex()!;
      let agree = 0, total = 0;
      const a = new THREE.Vector3(), b = new THREE.Vector3(), c = new THREE.Vector3(), n = new THREE.Vector3();
      for (let f = 0; f < idx.count; f += 3) {
        a.fromBufferAttribute(pos, idx.getX(f));
        b.fromBufferAttribute(pos, idx.getX(f + 1));
        c.fromBufferAttribute(pos, idx.getX(f + 2));
        n.fromBufferAttribute(nrm, idx.getX(f)).add(new THREE.Vector3().fromBufferAttribute(nrm, idx.getX(f + 1))).add(new THREE.Vector3().fromBufferAttribute(nrm, idx.getX(f + 2)));
        const cross = b.clone().sub(a).cross(c.clone().sub(a));
        if (cross.lengthSq() < 1e-12) continue;
        total++;
        if (cross.dot(n) > 0) agree++;
      }
      expect(agree / total, rel).toBeGreaterThan(0.9);
      built.dispose();
    }
  });

  it('builds Gene_light: skinned to every bone, one group per material, morph targets for its vertex morphs', () => {
    const m = model('gene/Gene_light.pmx');
    const built = buildModelMesh(m);
    expect(built.mesh.skeleton.bones).toHaveLength(m.bones.length);
    expect(built.mesh.geometry.groups).toHaveLength(m.materials.length);
    const vertexMorphs = m.morphs.filter((x) => x.kind === 'vertex').length;
    expect(built.mesh.geometry.morphAttributes.position).toHaveLength(vertexMorphs);
    expect(built.mesh.morphTargetInfluences).toHaveLength(vertexMorphs);
    // Rest pose: bone world positions are the model's positions, z negated.
    const i = m.bones.findIndex((b) => b.name === '左手首');
    const w = built.rig.bones[i].getWorldPosition(new THREE.Vector3());
    expect([w.x, w.y, w.z].map((x) => Math.round(x * 1e4) / 1e4)).toEqual(toThree(m.bones[i].position).map((x) => Math.round(x * 1e4) / 1e4));
    built.dispose();
  });

  it('drives morph targets from morph keys, expanding group morphs by their weights', () => {
    const r = readModel(tinyPmx().build());
    if (!r.ok) throw new Error(r.error.message);
    const built = buildModelMesh(r.value);
    expect(built.mesh.geometry.morphAttributes.position).toHaveLength(1);
    // The vertex morph "あ" moves vertex 3 by (0, −0.25, 0.125) in MMD → z negated in three.js.
    const attr = built.mesh.geometry.morphAttributes.position![0];
    expect([attr.getX(3), attr.getY(3), attr.getZ(3)]).toEqual([0, -0.25, -0.125]);
    const doc = buildVmd({ morphs: [{ name: 'まとめ', frame: 0, weight: 0.5 }, { name: 'まとめ', frame: 10, weight: 1 }, { name: '無い', frame: 0, weight: 1 }] });
    const tracks = buildTracks(doc);
    const binding = new PoseBinding(built.rig, tracks, ikSwitchesOf(doc, tracks), built.morphs, built.mesh.morphTargetInfluences!);
    binding.apply(5);
    // group "まとめ" = 0.7 × "あ"; its weight at frame 5 is 0.75 (linear).
    expect(built.mesh.morphTargetInfluences![0]).toBeCloseTo(0.7 * 0.75, 6);
    expect(binding.missingMorphs).toEqual(['無い']);
    // Only the morphs a motion reaches stay attached as targets.
    built.selectMorphs(['無い']);
    expect(built.mesh.geometry.morphAttributes.position).toBeUndefined();
    built.selectMorphs(['まとめ']);
    expect(built.mesh.geometry.morphAttributes.position).toHaveLength(1);
    expect(built.morphs.get('まとめ')).toEqual({ targets: [0], factors: [expect.closeTo(0.7, 6)] });
    built.dispose();
  });

  it('poses Gene_light with wavefile_v2 within the 1 ms budget', () => {
    const built = buildModelMesh(model('gene/Gene_light.pmx'));
    const doc = readVmd(load('mmd-viewer-js/vmd/wavefile_v2.vmd'));
    if (!doc.ok) throw new Error(doc.error.message);
    const tracks = buildTracks(doc.value);
    const binding = new PoseBinding(built.rig, tracks, ikSwitchesOf(doc.value, tracks), built.morphs, built.mesh.morphTargetInfluences!);
    for (let f = 0; f < 100; f++) binding.apply(f); // warm up
    const times = poseTimes(binding);
    const median = times[times.length >> 1];
    console.log(`Gene_light pose eval: median ${median.toFixed(3)} ms, p95 ${times[Math.floor(times.length * 0.95)].toFixed(3)} ms`);
    expect(median).toBeLessThan(1);
    built.dispose();
  });
});

describe('TGA decoder', () => {
  it('decodes uncompressed 24-bit bottom-up and RLE 32-bit top-down images', () => {
    const header = (type: number, w: number, h: number, bpp: number, desc: number) => [0, 0, type, 0, 0, 0, 0, 0, 0, 0, 0, 0, w, 0, h, 0, bpp, desc];
    // 2×2, bottom row first: bottom = red, green; top = blue, white (BGR order).
    const raw = Uint8Array.from([...header(2, 2, 2, 24, 0), 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255]);
    const r = decodeTga(raw);
    expect(r.ok).toBe(true);
    if (r.ok) expect(Array.from(r.value.data)).toEqual([0, 0, 255, 255, 255, 255, 255, 255, 255, 0, 0, 255, 0, 255, 0, 255]);
    // RLE, top-left origin, 8 alpha bits: a run of 3 half-transparent red, then 1 raw blue.
    const rle = Uint8Array.from([...header(10, 2, 2, 32, 0x28), 0x82, 0, 0, 255, 128, 0x00, 255, 0, 0, 255]);
    const r2 = decodeTga(rle);
    expect(r2.ok).toBe(true);
    if (r2.ok) expect(Array.from(r2.value.data)).toEqual([255, 0, 0, 128, 255, 0, 0, 128, 255, 0, 0, 128, 0, 0, 255, 255]);
    expect(decodeTga(raw.subarray(0, 25)).ok).toBe(false);
    expect(decodeTga(Uint8Array.from(header(1, 2, 2, 8, 0))).ok).toBe(false);
  });
  it('decodes the corpus PMD textures', () => {
    const r = decodeTga(load('mmd-viewer-js/model/low_miku/ro_hatune01.tga'));
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect([r.value.width, r.value.height]).toEqual([512, 512]);
      // Not a blank image: several distinct colours.
      const colours = new Set<number>();
      for (let i = 0; i < r.value.data.length; i += 4 * 997) colours.add((r.value.data[i] << 16) | (r.value.data[i + 1] << 8) | r.value.data[i + 2]);
      expect(colours.size).toBeGreaterThan(5);
    }
  });
});

/** Pose-evaluation times (ms, sorted) over the whole of wavefile_v2 in uneven sub-frame steps. */
function poseTimes(binding: { apply(f: number): void; lastPoseMs: number }): number[] {
  const times: number[] = [];
  for (let f = 0; f < 2800; f += 1.37) {
    binding.apply(f);
    times.push(binding.lastPoseMs);
  }
  return times.sort((a, b) => a - b);
}
