/**
 * Camera follows a bone (shared/scene/camera-follow.ts): the followed target worked out by hand from a センター
 * move of known size, the stage's turn, the bake against the followed camera at every frame, and the scene file's
 * round trip of the follow (old scenes read as before).
 */
import { describe, expect, it } from 'vitest';
import { BONE_FLAG, type ModelBone } from '../../../shared/pmx/model-types';
import { bakeFollow, BoneFollower, followedCamera, onStage } from '../../../shared/scene/camera-follow';
import { parseScene, serializeScene, type Scene } from '../../../shared/scene/scene-file';
import { emptyCameraVmd, emptyVmd, encodeBoneRecord, encodeCameraRecord } from '../../../shared/vmd/vmd-build';
import { blockFromRecords, type VmdDocument } from '../../../shared/vmd/vmd-document';
import { buildTracks } from '../../../shared/vmd/tracks';
import { sampleCamera } from '../../../shared/vmd/sample';
import { buildCameraInterpolation } from '../../../shared/vmd/interpolation';
import type { Curve } from '../../../shared/vmd/bezier';

function bone(name: string, position: [number, number, number], parent: number): ModelBone {
  return {
    name, nameEn: '', position, parent, layer: 0, flags: BONE_FLAG.ROTATABLE | BONE_FLAG.TRANSLATABLE | BONE_FLAG.VISIBLE | BONE_FLAG.ENABLED,
    tailBone: -1, tailOffset: [0, 0, 0], appendParent: -1, appendRatio: 0, fixedAxis: null, ik: null,
  };
}
/** 全ての親 at the origin, センター at 8 above it, 頭 at 17 (a child of センター). */
const MODEL = { bones: [bone('全ての親', [0, 0, 0], -1), bone('センター', [0, 8, 0], 0), bone('頭', [0, 17, 0], 1)] };

/** センター keys: (frame, position), linear between them (a new key's curve, 20 20 107 107, is the straight line). */
function motion(keys: [number, [number, number, number]][]): VmdDocument {
  const doc = emptyVmd('test');
  return { ...doc, bone: blockFromRecords('bone', keys.map(([frame, position]) => encodeBoneRecord({ name: 'センター', frame, position, rotation: [0, 0, 0, 1] }))) };
}

/** A camera document from keys (a curve of its own on some). */
function camera(keys: { frame: number; target: [number, number, number]; rotation?: [number, number, number]; distance?: number; fov?: number; curve?: Curve }[]): VmdDocument {
  const doc = emptyCameraVmd();
  return {
    ...doc,
    camera: blockFromRecords('camera', keys.map((k) => encodeCameraRecord({ frame: k.frame, target: k.target, rotation: k.rotation ?? [0, 0, 0], distance: k.distance ?? -30, fov: k.fov ?? 30, interpolation: k.curve ? buildCameraInterpolation(Array(6).fill(k.curve)) : undefined }))),
  };
}

describe('camera follows a bone', () => {
  // センター moves from (0,0,0) at frame 0 to (3,0,−6) at frame 30, linearly: at frame 15 it is (1.5,0,−3), so
  // 頭 (rest 0,17,0 under it) stands at (1.5,17,−3).
  const dance = motion([[0, [0, 0, 0]], [30, [3, 0, -6]]]);
  const follower = new BoneFollower(MODEL, dance, buildTracks(dance), '頭');

  it("the followed target is the keyed target plus the bone's world position; the eye keeps its offset from it", () => {
    const head = follower.at(15)!;
    [1.5, 17, -3].forEach((v, i) => expect(head[i]).toBeCloseTo(v, 9));
    const cam = camera([{ frame: 0, target: [0, 1, 0], distance: -30 }]);
    const pose = followedCamera(sampleCamera(buildTracks(cam).camera, 15)!, head);
    // Target (0,1,0) + (1.5,17,−3); no rotation, distance −30: the eye 30 toward −Z of it.
    [1.5, 18, -3].forEach((v, i) => expect(pose.target[i]).toBeCloseTo(v, 6));
    [1.5, 18, -33].forEach((v, i) => expect(pose.position[i]).toBeCloseTo(v, 5));
    expect(pose.distance).toBeCloseTo(-30, 6);
  });

  it("an actor placed on the stage moves the bone with it: turned 90° (x' = z, z' = −x), then moved", () => {
    const placed = new BoneFollower(MODEL, dance, buildTracks(dance), '頭', { position: [10, 0, 0], turn: 90 });
    const p = placed.at(15)!;
    // (1.5, 17, −3) turned: x' = −3, z' = −1.5; then + (10, 0, 0).
    [7, 17, -1.5].forEach((v, i) => expect(p[i]).toBeCloseTo(v, 9));
    expect(onStage([1, 2, 3], null)).toEqual([1, 2, 3]);
  });

  it('a bone the model lacks follows nothing', () => {
    const none = new BoneFollower(MODEL, dance, buildTracks(dance), '左目');
    expect(none.bone).toBeNull();
    expect(none.at(10)).toBeNull();
  });

  it('the bake plays as the followed camera at every frame, with fewer keys where the bone stands still', () => {
    // センター still until 20, moving 20→50, still after: the camera's keys at 0, 40, 41 (a cut), 60 and 80 (eased).
    const walk = motion([[0, [0, 0, 0]], [20, [0, 0, 0]], [50, [4, 1, -8]]]);
    const w = new BoneFollower(MODEL, walk, buildTracks(walk), '頭');
    const ease: Curve = [100, 0, 20, 127];
    const cam = camera([
      { frame: 0, target: [0, 0, 0], rotation: [0.1, 0.2, 0], distance: -40, fov: 30 },
      { frame: 40, target: [1, 2, 3], rotation: [0.2, -0.3, 0.05], distance: -20, fov: 40, curve: ease },
      { frame: 41, target: [-1, 0, 2], rotation: [0, 1, 0], distance: -25, fov: 20 },
      { frame: 60, target: [0, 3, 0], rotation: [0.3, 1.2, 0], distance: -35, fov: 25 },
      { frame: 80, target: [2, -1, 1], rotation: [-0.1, 2, 0.1], distance: -15, fov: 45, curve: ease },
    ]);
    const tracks = buildTracks(cam);
    const baked = bakeFollow(cam, tracks, (f) => w.at(f)!, 100);
    const bt = buildTracks(baked.doc);
    let worst = 0;
    for (let f = 0; f <= 120; f++) {
      const want = followedCamera(sampleCamera(tracks.camera, f)!, w.at(f));
      const got = sampleCamera(bt.camera, f)!;
      const d = [...want.target.map((v, i) => v - got.target[i]), ...want.rotation.map((v, i) => v - got.rotation[i]), ...want.position.map((v, i) => v - got.position[i]), want.distance - got.distance];
      worst = Math.max(worst, ...d.map(Math.abs));
      // A VMD keeps a whole-degree FOV: a key at every frame holds the followed FOV rounded (exact where it is whole).
      expect(Math.abs(want.fov - got.fov)).toBeLessThanOrEqual(0.5);
      if (Number.isInteger(want.fov)) expect(got.fov).toBe(want.fov);
      expect(got.perspective).toBe(want.perspective);
    }
    expect(worst).toBeLessThanOrEqual(1e-4);
    // The rule: between two of the camera's keys (0–40, 40–41, 41–60, 60–80, then 80 to the end, 100) a key at every
    // frame where the bone moves in it (it does from 20 to 50: 0…40, 41, 42…60), else the two keys: 80, 100. 63, not 101.
    expect(baked.keys).toBe(41 + 1 + 19 + 1 + 1);
    // The eased key at 80 keeps its curve (the bone stands still from 60 on): half way, the ease is not the linear mid.
    const mid = sampleCamera(bt.camera, 70)!;
    const lin = (x: number, y: number) => x + (y - x) / 2;
    expect(Math.abs(mid.distance - lin(-35, -15))).toBeGreaterThan(1);
    // Light and self-shadow blocks, and the header name, are the camera document's.
    expect(baked.doc.modelName).toEqual(cam.modelName);
  });
});

describe('scene file: cameraFollow', () => {
  const base = (extra: string) => `{"format":"vmd-studio-scene","version":1,"actors":[{"model":null,"motion":"a.vmd","hidden":false}],"activeActor":0,"camera":"c.vmd"${extra}}`;

  it('reads and writes the actor and the bone; a scene without it reads as before and writes none', () => {
    const r = parseScene(base(',"cameraFollow":{"actor":0,"bone":"頭"}'), '/p/s.vmdscene');
    expect(r.ok && r.value.cameraFollow).toEqual({ actor: 0, bone: '頭' });
    const text = serializeScene((r as { value: Scene }).value, '/p/s.vmdscene');
    expect(JSON.parse(text).cameraFollow).toEqual({ actor: 0, bone: '頭' });
    const again = parseScene(text, '/p/s.vmdscene');
    expect(again.ok && again.value.cameraFollow).toEqual({ actor: 0, bone: '頭' });
    const old = parseScene(base(''), '/p/s.vmdscene');
    expect(old.ok && 'cameraFollow' in old.value).toBe(false);
    expect(JSON.parse(serializeScene((old as { value: Scene }).value, '/p/s.vmdscene'))).not.toHaveProperty('cameraFollow');
    const none = parseScene(base(',"cameraFollow":null'), '/p/s.vmdscene');
    expect(none.ok && none.value.cameraFollow).toBeUndefined();
  });

  it('names what is wrong in a follow it cannot read', () => {
    const bad = parseScene(base(',"cameraFollow":{"actor":"one","bone":"頭"}'), '/p/s.vmdscene');
    expect(!bad.ok && bad.error.code).toBe('E_SCENE_SCHEMA');
    expect(!bad.ok && bad.error.message).toContain('cameraFollow.actor');
    const noBone = parseScene(base(',"cameraFollow":{"actor":0}'), '/p/s.vmdscene');
    expect(!noBone.ok && noBone.error.message).toContain('cameraFollow.bone');
  });
});
