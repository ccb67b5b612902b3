/**
 * Camera follows a bone (shared/scene/camera-follow.ts): the followed target worked out by hand from a センター
 * move of known size, the stage's turn, the bake against the followed camera at every frame, and the scene file's
 * round trip of the follow (old scenes read as before).
 */
import { describe, expect, it } from 'vitest';
import { BONE_FLAG, type ModelBone } from '../../../shared/pmx/model-types';
import { bakeFollow, bakeFollowSpans, BoneFollower, followedCamera, onStage, spanAt } from '../../../shared/scene/camera-follow';
import { parseScene, serializeScene, type Scene } from '../../../shared/scene/scene-file';
import { emptyCameraVmd, emptyVmd, encodeBoneRecord, encodeCameraRecord } from '../../../shared/vmd/vmd-build';
import { blockFromRecords, recordBytes, type VmdDocument } from '../../../shared/vmd/vmd-document';
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

describe('camera follows a bone over spans of frames (nufollow §2)', () => {
  // センター from (0,0,0) at 0 to (3,0,−6) at 30, then held: 頭 (rest 0,17,0) stands at (3,17,−6) from 30 on.
  const dance = motion([[0, [0, 0, 0]], [30, [3, 0, -6]]]);
  const w = new BoneFollower(MODEL, dance, buildTracks(dance), '頭');
  const spans = [{ from: 100, to: 200, at: (f: number) => w.at(f) }];

  it('the span in force at a frame: inside, the keyed target plus the bone; outside, the keyed target alone', () => {
    const cam = camera([{ frame: 0, target: [0, 1, 0], distance: -30 }]);
    const track = buildTracks(cam).camera;
    const seen = (f: number) => followedCamera(sampleCamera(track, f)!, spanAt(spans, f)?.at(f) ?? null);
    // By hand: the key's target (0,1,0); inside 100…200 plus 頭 at (3,17,−6): (3,18,−6), the eye 30 toward −Z of it.
    for (const f of [100, 150, 199.5, 200]) {
      [3, 18, -6].forEach((v, i) => expect(seen(f).target[i]).toBeCloseTo(v, 6));
      [3, 18, -36].forEach((v, i) => expect(seen(f).position[i]).toBeCloseTo(v, 5));
    }
    for (const f of [0, 50, 99, 99.5, 200.5, 201, 400]) {
      expect(seen(f).target).toEqual([0, 1, 0]);
      [0, 1, -30].forEach((v, i) => expect(seen(f).position[i]).toBeCloseTo(v, 5));
    }
    // Two spans over one frame: the one starting later is in force.
    const two = [{ from: 0, to: null, id: 'a' }, { from: 150, to: 160, id: 'b' }];
    expect(spanAt(two, 155)?.id).toBe('b');
    expect(spanAt(two, 161)?.id).toBe('a');
    expect(spanAt([], 10)).toBeNull();
  });

  it('the bake writes the follow only inside the span: the camera’s own keys outside stay byte for byte', () => {
    const ease: Curve = [100, 0, 20, 127];
    const cam = camera([
      { frame: 0, target: [0, 0, 0], rotation: [0.1, 0.2, 0], distance: -40, fov: 30 },
      { frame: 50, target: [1, 2, 3], rotation: [0.2, -0.3, 0.05], distance: -20, fov: 30, curve: ease },
      { frame: 150, target: [-1, 0, 2], rotation: [0, 1, 0], distance: -25, fov: 30 },
      { frame: 250, target: [0, 3, 0], rotation: [0.3, 1.2, 0], distance: -35, fov: 30, curve: ease },
      { frame: 300, target: [2, -1, 1], rotation: [-0.1, 2, 0.1], distance: -15, fov: 30, curve: ease },
    ]);
    const tracks = buildTracks(cam);
    const baked = bakeFollowSpans(cam, tracks, spans, 320);
    const bt = buildTracks(baked.doc);
    // Every whole frame plays what the preview shows: followed inside 100…200, the camera's own keys outside.
    for (let f = 0; f <= 340; f++) {
      const inside = f >= 100 && f <= 200;
      const want = followedCamera(sampleCamera(tracks.camera, f)!, inside ? w.at(f) : null);
      const got = sampleCamera(bt.camera, f)!;
      want.target.forEach((v, i) => expect(got.target[i], `frame ${f}`).toBeCloseTo(v, 4));
      want.rotation.forEach((v, i) => expect(got.rotation[i], `frame ${f}`).toBeCloseTo(v, 4));
      expect(got.distance, `frame ${f}`).toBeCloseTo(want.distance, 4);
      // Outside the span the target is the key's own: where 頭 stands (3,17,−6) is not added.
      if (!inside) expect(Math.abs(got.target[1] - want.target[1])).toBeLessThan(1e-4);
    }
    // The keys at 0, 50, 250 and 300 lie outside the span: their records are the camera's own, byte for byte.
    const recordAt = (doc: VmdDocument, frame: number) => {
      const t = buildTracks(doc).camera;
      const k = Array.from(t.frames).indexOf(frame);
      return k < 0 ? null : Array.from(recordBytes(doc.camera, t.record[k]));
    };
    for (const f of [0, 50, 250, 300]) expect(recordAt(baked.doc, f), `key ${f}`).toEqual(recordAt(cam, f));
    // The key at 150 (inside) is moved by 頭: its target is (−1,0,2) + (3,17,−6).
    const k150 = sampleCamera(bt.camera, 150)!;
    [2, 17, -4].forEach((v, i) => expect(k150.target[i]).toBeCloseTo(v, 5));
    // Keys only where needed: none between 0 and 50 nor between 250 and 300 (the camera's own stretches).
    const frames = Array.from(bt.camera.frames);
    expect(frames.filter((f) => (f > 0 && f < 50) || (f > 250 && f < 300))).toEqual([]);
    // No key after the camera's last (300): the span ends at 200, and nothing follows after.
    expect(Math.max(...frames)).toBe(300);
  });
});

describe('scene file: cameraFollow', () => {
  const base = (extra: string) => `{"format":"vmd-studio-scene","version":1,"actors":[{"model":null,"motion":"a.vmd","hidden":false}],"activeActor":0,"camera":"c.vmd"${extra}}`;

  it('reads and writes the actor and the bone; a scene without it reads as before and writes none', () => {
    // The older single {actor, bone}: one span over the whole motion, written back in that form.
    const r = parseScene(base(',"cameraFollow":{"actor":0,"bone":"頭"}'), '/p/s.vmdscene');
    expect(r.ok && r.value.cameraFollow).toEqual([{ from: 0, to: null, actor: 0, bone: '頭' }]);
    const text = serializeScene((r as { value: Scene }).value, '/p/s.vmdscene');
    expect(JSON.parse(text).cameraFollow).toEqual({ actor: 0, bone: '頭' });
    const again = parseScene(text, '/p/s.vmdscene');
    expect(again.ok && again.value.cameraFollow).toEqual([{ from: 0, to: null, actor: 0, bone: '頭' }]);
    const old = parseScene(base(''), '/p/s.vmdscene');
    expect(old.ok && 'cameraFollow' in old.value).toBe(false);
    expect(JSON.parse(serializeScene((old as { value: Scene }).value, '/p/s.vmdscene'))).not.toHaveProperty('cameraFollow');
    const none = parseScene(base(',"cameraFollow":null'), '/p/s.vmdscene');
    expect(none.ok && none.value.cameraFollow).toBeUndefined();
  });

  it('spans round trip as a list, a field this version does not know kept; `to` absent or null is to the end', () => {
    const list = '[{"from":100,"to":200,"actor":0,"bone":"頭","ease":3},{"from":300,"actor":0,"bone":"センター"}]';
    const r = parseScene(base(`,"cameraFollow":${list}`), '/p/s.vmdscene');
    expect(r.ok && r.value.cameraFollow).toEqual([
      { from: 100, to: 200, actor: 0, bone: '頭', extra: { ease: 3 } },
      { from: 300, to: null, actor: 0, bone: 'センター' },
    ]);
    const text = serializeScene((r as { value: Scene }).value, '/p/s.vmdscene');
    expect(JSON.parse(text).cameraFollow).toEqual([
      { from: 100, to: 200, actor: 0, bone: '頭', ease: 3 },
      { from: 300, to: null, actor: 0, bone: 'センター' },
    ]);
    const again = parseScene(text, '/p/s.vmdscene');
    expect(again.ok && again.value.cameraFollow).toEqual((r as { value: Scene }).value.cameraFollow);
    // An empty list is no follow.
    const empty = parseScene(base(',"cameraFollow":[]'), '/p/s.vmdscene');
    expect(empty.ok && empty.value.cameraFollow).toBeUndefined();
    // A span ending before it starts, or a fractional frame, is named.
    const back = parseScene(base(',"cameraFollow":[{"from":200,"to":100,"actor":0,"bone":"頭"}]'), '/p/s.vmdscene');
    expect(!back.ok && back.error.message).toContain('cameraFollow[0].to');
    const half = parseScene(base(',"cameraFollow":[{"from":10.5,"actor":0,"bone":"頭"}]'), '/p/s.vmdscene');
    expect(!half.ok && half.error.message).toContain('cameraFollow[0].from');
  });

  it('names what is wrong in a follow it cannot read', () => {
    const bad = parseScene(base(',"cameraFollow":{"actor":"one","bone":"頭"}'), '/p/s.vmdscene');
    expect(!bad.ok && bad.error.code).toBe('E_SCENE_SCHEMA');
    expect(!bad.ok && bad.error.message).toContain('cameraFollow.actor');
    const noBone = parseScene(base(',"cameraFollow":{"actor":0}'), '/p/s.vmdscene');
    expect(!noBone.ok && noBone.error.message).toContain('cameraFollow.bone');
  });
});
