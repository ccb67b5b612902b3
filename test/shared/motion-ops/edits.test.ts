// Unit tests of each edit on small documents built here from the layout (vmd-build.ts encoders).
import { describe, expect, it } from 'vitest';
import {
  blockFromRecords,
  buildBoneInterpolation,
  buildTracks,
  buildVmd,
  curveProgress,
  encodeBoneRecord,
  encodeCameraRecord,
  encodeIkRecord,
  encodeLightRecord,
  encodeMorphRecord,
  encodeShadowRecord,
  emptyVmd,
  getBoneCurve,
  getCameraCurve,
  ikBlockFromRecords,
  readVmd,
  sampleBoneInto,
  sampleCamera,
  splitCurveAfter,
  withBlocks,
  writeVmd,
  type Curve,
  type VmdDocument,
} from '../../../shared/vmd';
import {
  buildFromPoses,
  curveAfter,
  curveBefore,
  curveBetween,
  merge,
  mirror,
  namePattern,
  parseChannels,
  parseCurveSpec,
  parseMapping,
  poseAtFrame,
  preset,
  rename,
  shift,
  speed,
  swapLeftRight,
  trim,
} from '../../../shared/motion-ops';

const ID = [0, 0, 0, 1];
const bone = (name: string, frame: number, position: number[] = [0, 0, 0], rotation: number[] = ID, curves?: Curve[]) => ({
  name,
  frame,
  position,
  rotation,
  interpolation: curves ? buildBoneInterpolation(curves) : undefined,
});
const f32 = (x: number) => Math.fround(x);

/** Reads the frames of every bone record in file order. */
const boneFrames = (d: VmdDocument) => Array.from({ length: d.bone.count }, (_, i) => d.bone.view.getUint32(i * 111 + 15, true));
const bytesOf = (d: VmdDocument) => Buffer.from(writeVmd(d));

function must<T extends { ok: boolean }>(r: T): Extract<T, { ok: true }> {
  if (!r.ok) throw new Error(JSON.stringify((r as unknown as { error: unknown }).error));
  return r as Extract<T, { ok: true }>;
}

describe('mirror', () => {
  const doc = withBlocks(
    buildVmd({
      model: 'テスト',
      bones: [bone('左腕', 0, [1, 2, 3], [0.1, 0.2, 0.3, 0.9]), bone('右ひじ', 5, [-4, 5, 6], [-0.5, 0.5, -0.5, 0.5]), bone('センター', 5, [0, 1, 0])],
      morphs: [{ name: 'ウィンク右', frame: 3, weight: 1 }],
    }),
    {
      camera: blockFromRecords('camera', [encodeCameraRecord({ frame: 0, distance: -45, target: [1, 10, 2], rotation: [0.1, 0.2, 0.3], fov: 30 })]),
      light: blockFromRecords('light', [encodeLightRecord({ frame: 0, color: [0.6, 0.6, 0.6], direction: [-0.5, -1, 0.5] })]),
      ik: ikBlockFromRecords([encodeIkRecord({ frame: 0, visible: 1, iks: [{ name: '左足ＩＫ', enabled: 1 }, { name: '右足ＩＫ', enabled: 0 }] })]),
    },
  );

  it('swaps names and negates the mirrored components', () => {
    const r = must(mirror(doc));
    const t = buildTracks(r.value.doc);
    expect(t.bones.names).toEqual(['右腕', '左ひじ', 'センター']);
    // MMD's right wink's other side is ウィンク (no model has ウィンク左 unless it names both sides).
    expect(t.morphs.names).toEqual(['ウィンク']);
    const p = [0, 0, 0], q = [0, 0, 0, 0];
    sampleBoneInto(t.bones, 0, 0, p, q, 0);
    expect(p).toEqual([-1, 2, 3]);
    expect(q).toEqual([f32(0.1), f32(-0.2), f32(-0.3), f32(0.9)]);
    const cam = sampleCamera(t.camera, 0)!;
    expect(cam.target).toEqual([-1, 10, 2]);
    expect(cam.rotation).toEqual([f32(0.1), f32(-0.2), f32(-0.3)]);
    expect(cam.distance).toBe(-45);
    expect(t.light.direction[0]).toBe(0.5);
    // IK names swapped, enabled flags stay with their (new) name
    const ik = r.value.doc.ik.bytes;
    expect(Buffer.from(ik.subarray(9, 9 + 2)).equals(Buffer.from([0x89, 0x45]))).toBe(true); // 右
    expect(ik[9 + 20]).toBe(1);
    expect(r.value.report.extra.namesSwapped).toBe(5); // 2 bones, 1 morph, 2 IK names
    // センター (0, 1, 0) at rest: X and rotation Y, Z are 0 and the name has no side, so its bytes stay.
    expect(r.value.report.byKind.bone).toMatchObject({ kept: 3, changed: 2 });
    expect(Buffer.from(r.value.doc.bone.bytes.subarray(222, 333)).equals(Buffer.from(doc.bone.bytes.subarray(222, 333)))).toBe(true);
  });

  it('twice is byte-identical, even with garbage after the NUL and a -0', () => {
    const withJunk = withBlocks(doc, {
      bone: blockFromRecords('bone', [
        (() => {
          const r = encodeBoneRecord(bone('左足', 1, [0, 0, 0]));
          r.set([0x00, 0xfd, 0x8d, 0xb6], 4); // NUL then bytes that look like 左 — padding, not name
          new DataView(r.buffer).setFloat32(19, -0, true);
          return r;
        })(),
      ]),
    });
    const once = must(mirror(withJunk));
    expect(once.value.doc.bone.bytes.subarray(5, 8)).toEqual(new Uint8Array([0xfd, 0x8d, 0xb6])); // padding untouched
    // The −0 (and the +0s) are their own mirror: their bytes stay.
    expect(once.value.doc.bone.view.getUint32(19, true)).toBe(0x80000000);
    expect([35, 39].map((o) => once.value.doc.bone.view.getUint32(o, true))).toEqual([0, 0]); // rotation y, z
    const twice = must(mirror(once.value.doc));
    expect(bytesOf(twice.value.doc).equals(bytesOf(withJunk))).toBe(true);
    expect(bytesOf(must(mirror(must(mirror(doc)).value.doc)).value.doc).equals(bytesOf(doc))).toBe(true);
  });

  it('swapLeftRight walks characters: a trail byte 0x8D is not a 左 lead byte', () => {
    // ボ = 83 7B; "ｱ" half-width = B1; 0x8D as the trail byte of 88 8D (a kanji) followed by B6
    const name = new Uint8Array([0x88, 0x8d, 0xb6, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const copy = name.slice();
    expect(swapLeftRight(name, 0, 15)).toBe(false);
    expect(name).toEqual(copy);
  });
});

describe('trim: light and self-shadow blocks in frame order (nulight 9)', () => {
  it('writes the hold at 0 first and the kept keys after it, by frame', () => {
    // Light keys at 0, 300, 600, 900 and self-shadow keys at 0, 300, 600 (file order as listed); trim 100–700.
    const doc = withBlocks(buildVmd({}), {
      light: blockFromRecords('light', [0, 300, 600, 900].map((frame, i) => encodeLightRecord({ frame, color: [0.2 * i, 0.5, 0.5], direction: [0, -1, i / 3] }))),
      shadow: blockFromRecords('shadow', [0, 300, 600].map((frame, i) => encodeShadowRecord({ frame, mode: i % 3, distance: 0.01 * (i + 1) }))),
    });
    const out = must(trim(doc, { from: 100, to: 700 })).value.doc;
    const framesOf = (b: { bytes: Uint8Array; count: number; size: number }) =>
      Array.from({ length: b.count }, (_, i) => new DataView(b.bytes.buffer, b.bytes.byteOffset + i * b.size, 4).getUint32(0, true));
    // Light: the hold at 0 (frame 100), 300 → 200, 600 → 500, the hold at 600 (frame 700, between 600 and 900).
    expect(framesOf(out.light)).toEqual([0, 200, 500, 600]);
    // Self-shadow: the key in force at 100 (frame 0's) copied to 0, then 300 → 200, 600 → 500.
    expect(framesOf(out.shadow)).toEqual([0, 200, 500]);
    // The hold at 0 holds the light a third of the way from frame 0 to 300: colour 0 + 0.2/3, direction z 0 + (1/3)/3.
    const l0 = new DataView(out.light.bytes.buffer, out.light.bytes.byteOffset);
    expect(l0.getFloat32(4, true)).toBeCloseTo(0.2 / 3, 6);
    expect(l0.getFloat32(24, true)).toBeCloseTo(1 / 9, 6);
    expect(out.shadow.bytes[4]).toBe(0);
  });
});

describe('trim', () => {
  // A bone moving x 0 → 100 over frames 0..100 with an ease curve on X, a rotation and a morph.
  const ease: Curve = [64, 0, 64, 127];
  const lin: Curve = [20, 20, 107, 107];
  const q90 = [0, Math.SQRT1_2, 0, Math.SQRT1_2];
  const doc = withBlocks(
    buildVmd({
      bones: [
        bone('センター', 0, [0, 0, 0], ID),
        bone('センター', 100, [100, 0, 0], q90, [ease, lin, lin, ease]),
        bone('頭', 0, [0, 0, 0], ID),
        bone('頭', 10, [0, 1, 0], ID),
        bone('静止', 0),
        bone('静止', 50),
      ],
      morphs: [
        { name: 'あ', frame: 0, weight: 0 },
        { name: 'あ', frame: 40, weight: 1 },
      ],
    }),
    {
      camera: blockFromRecords('camera', [
        encodeCameraRecord({ frame: 0, distance: -10, target: [0, 0, 0], rotation: [0, 0, 0], fov: 30 }),
        encodeCameraRecord({ frame: 60, distance: -40, target: [6, 0, 0], rotation: [0, 1, 0], fov: 50 }),
      ]),
      shadow: blockFromRecords('shadow', [encodeShadowRecord({ frame: 5, mode: 1, distance: 0.01 })]),
      ik: ikBlockFromRecords([encodeIkRecord({ frame: 0, visible: 1, iks: [{ name: '右足ＩＫ', enabled: 0 }] })]),
    },
  );
  const tr = buildTracks(doc);

  it('holds the interpolated pose at A (not the previous key) and re-fits the next curve', () => {
    const r = must(trim(doc, { from: 30, to: 100 }));
    const out = buildTracks(r.value.doc);
    const c = out.bones.index.get('センター')!;
    const p = [0, 0, 0], q = [0, 0, 0, 0], p0 = [0, 0, 0], q0 = [0, 0, 0, 0];
    sampleBoneInto(out.bones, c, 0, p, q, 0);
    sampleBoneInto(tr.bones, tr.bones.index.get('センター')!, 30, p0, q0, 0);
    // independent value at 30: ease curve progress on x
    const expectX = 100 * curveProgress(ease, 0.3);
    expect(p[0]).toBeCloseTo(expectX, 4);
    expect(p[0]).not.toBeCloseTo(0, 1); // the previous key's value would be 0
    // The split curve, rounded to the grid, strays by more than the default tolerance (0.01) on this
    // 100-unit move (measured here with the player), so trim adds keys inside the cut segment.
    const want = splitCurveAfter(ease, 0.3).map((v) => Math.round(v * 127)) as unknown as Curve;
    let rounded = 0;
    for (let f = 30; f <= 100; f += 0.5) rounded = Math.max(rounded, Math.abs(100 * curveProgress(ease, f / 100) - (expectX + (100 - expectX) * curveProgress(want, (f - 30) / 70))));
    expect(rounded).toBeGreaterThan(0.01);
    const frames = Array.from(out.bones.frames.subarray(out.bones.start[c], out.bones.start[c + 1]));
    expect(frames[0]).toBe(0);
    expect(frames[frames.length - 1]).toBe(70);
    expect(frames.length).toBeGreaterThan(2);
    expect(frames.length).toBeLessThan(20); // 1e-4 of a 100-unit move and 0.1° of a 90° turn: a key every few frames
    // between keys the motion matches within the tolerance and within the reported error
    let worst = 0;
    for (let f = 30; f <= 100; f += 0.5) {
      sampleBoneInto(tr.bones, tr.bones.index.get('センター')!, f, p0, q0, 0);
      sampleBoneInto(out.bones, c, f - 30, p, q, 0);
      worst = Math.max(worst, Math.abs(p[0] - p0[0]));
      expect(Math.abs(p[0] - p0[0])).toBeLessThanOrEqual(r.value.report.extra.maxPositionError + 1e-6);
    }
    expect(worst).toBeLessThanOrEqual(0.01 + 1e-6);
    expect(r.value.report.extra.maxPositionError).toBeGreaterThan(0);
    expect(r.value.report.extra.maxRotationErrorDeg).toBeLessThanOrEqual(0.1 + 1e-6);
  });

  it('counts kept/added/dropped, drops tracks at rest, holds steps (shadow, IK)', () => {
    const r = must(trim(doc, { from: 30, to: 100 }));
    const t = buildTracks(r.value.doc);
    expect(t.bones.index.has('静止')).toBe(false); // at rest all through
    expect(r.value.report.extra.tracksDropped).toBe(1);
    // 頭: last key at 10 → hold at 0 with its value (y = 1)
    const h = t.bones.index.get('頭')!;
    expect(t.bones.position[3 * t.bones.start[h] + 1]).toBe(1);
    // morph at 30: 0.75 (linear)
    expect(t.morphs.weight[t.morphs.start[0]]).toBeCloseTo(0.75, 6);
    // shadow (key at 5) and IK (key at 0) copied to frame 0
    expect(r.value.doc.shadow.count).toBe(1);
    expect(r.value.doc.shadow.view.getUint32(0, true)).toBe(0);
    expect(r.value.doc.ik.count).toBe(1);
    // added: the hold keys of センター and 頭 at 0, and the keys that keep センター's cut curve within tolerance
    expect(r.value.report.byKind.bone).toMatchObject({ kept: 1, dropped: 5 });
    expect(r.value.report.byKind.bone.added).toBe(r.value.doc.bone.count - 1);
    expect(r.value.report.byKind.bone.added).toBeGreaterThan(2);
    expect(r.value.report.byKind.bone.changed).toBe(1);
  });

  it('writes a key at B − A for tracks that continue, cutting the curve between both cuts', () => {
    const r = must(trim(doc, { from: 30, to: 60 }));
    const out = buildTracks(r.value.doc);
    const c = out.bones.index.get('センター')!;
    expect(Array.from(out.bones.frames.subarray(out.bones.start[c], out.bones.start[c + 1]))).toEqual([0, 30]);
    const p = [0, 0, 0], q = [0, 0, 0, 0], p0 = [0, 0, 0], q0 = [0, 0, 0, 0];
    for (let f = 30; f <= 60; f++) {
      sampleBoneInto(tr.bones, tr.bones.index.get('センター')!, f, p0, q0, 0);
      sampleBoneInto(out.bones, c, f - 30, p, q, 0);
      expect(Math.abs(p[0] - p0[0])).toBeLessThanOrEqual(r.value.report.extra.maxPositionError + 1e-4);
    }
    expect(r.value.report.extra.maxPositionError).toBeLessThan(1);
    // camera: hold keys at 0 and 30, values as sampled
    const cam0 = sampleCamera(out.camera, 0)!, camA = sampleCamera(tr.camera, 30)!;
    expect(cam0.target[0]).toBeCloseTo(camA.target[0], 5);
    expect(cam0.fov).toBe(Math.round(camA.fov));
    const cam30 = sampleCamera(out.camera, 30)!, camB = sampleCamera(tr.camera, 60)!;
    expect(cam30.distance).toBeCloseTo(camB.distance, 5);
    const rec = out.camera.record[1];
    // the key now at 30 was the original key at 60 (= B): its linear curve, cut after 0.5, is still on the diagonal
    const cc = getCameraCurve(r.value.doc.camera.bytes, 0, rec * 61 + 32);
    expect(cc[0]).toBe(cc[1]);
    expect(cc[2]).toBe(cc[3]);
    expect(cc).not.toEqual([20, 20, 107, 107]);
  });

  it('--no-hold only cuts and shifts; bad ranges are errors', () => {
    const r = must(trim(doc, { from: 30, to: 100, hold: false }));
    expect(boneFrames(r.value.doc)).toEqual([70, 20]); // センター@100 and 静止@50
    expect(r.value.report.added).toBe(0);
    // The tracks gone are those with no key in 30–100: 頭 (keys at 0 and 10); あ keeps its key at 40. Past
    // every key, all four (three bones, a morph) are gone — it said 0, counting only tracks dropped for resting.
    expect(r.value.report.extra.tracksDropped).toBe(1);
    expect(must(trim(doc, { from: 101, hold: false })).value.report.extra.tracksDropped).toBe(4);
    expect(trim(doc, { from: 50, to: 10 }).ok).toBe(false);
    expect(trim(doc, { from: -1 }).ok).toBe(false);
  });
});

describe('curve splitting', () => {
  it('before/after/between agree with sampling the original curve', () => {
    const c: Curve = [90, 10, 30, 120];
    for (const t of [0.2, 0.5, 0.8]) {
      const y = curveProgress(c, t);
      const after = curveAfter(c, t).map((v) => v * 127) as unknown as Curve;
      const before = curveBefore(c, t).map((v) => v * 127) as unknown as Curve;
      for (const u of [0.1, 0.4, 0.9]) {
        expect(y + (1 - y) * curveProgress(after, u)).toBeCloseTo(curveProgress(c, t + (1 - t) * u), 9);
        expect(y * curveProgress(before, u)).toBeCloseTo(curveProgress(c, t * u), 9);
      }
    }
    const mid = curveBetween(c, 0.2, 0.7).map((v) => v * 127) as unknown as Curve;
    const y0 = curveProgress(c, 0.2), y1 = curveProgress(c, 0.7);
    for (const u of [0.25, 0.5, 0.75]) expect(y0 + (y1 - y0) * curveProgress(mid, u)).toBeCloseTo(curveProgress(c, 0.2 + 0.5 * u), 9);
  });
});

describe('merge', () => {
  const a = buildVmd({ bones: [bone('腕', 0), bone('腕', 10)], morphs: [{ name: 'あ', frame: 10, weight: 1 }] });
  const b = buildVmd({ bones: [bone('腕', 0), bone('腕', 5)] });
  it('concatenates with a gap; no pair twice', () => {
    const r = must(merge([a, b], { gap: 1 }));
    expect(boneFrames(r.value.doc)).toEqual([0, 10, 11, 16]);
    expect(r.value.report.collisions).toBe(0);
    const r3 = must(merge([a, b], { gap: 5 }));
    expect(boneFrames(r3.value.doc)).toEqual([0, 10, 15, 20]);
  });
  it('overlay: first file wins, duplicates counted', () => {
    const r = must(merge([a, b], { overlay: true }));
    expect(boneFrames(r.value.doc)).toEqual([0, 10, 5]);
    expect(r.value.report.collisions).toBe(1);
    expect(r.value.report.extra.duplicatesDropped).toBe(1);
    expect(r.value.report.warnings.length).toBe(1);
  });
});

describe('speed', () => {
  const doc = buildVmd({ bones: [0, 1, 2, 3, 5, 7].map((f) => bone('腕', f)).concat([bone('足', 1), bone('足', 3)]) });
  it('rounds half away from zero and keeps the first of colliding keys', () => {
    const r = must(speed(doc, { factor: 2 }));
    // 0→0, 1→1 (0.5), 2→1 collides, 3→2 (1.5), 5→3 (2.5), 7→4 (3.5); 足 1→1, 3→2
    expect(boneFrames(r.value.doc)).toEqual([0, 1, 2, 3, 4, 1, 2]);
    expect(r.value.report.byKind.bone.collisions).toBe(1);
    // One key: the singular, never "key(s)".
    expect(r.value.report.warnings).toContain('1 bone key landed on a frame already taken and was left out (the first in the file kept)');
    // the kept key at frame 1 is the first in the file (old frame 1)
    const slow = must(speed(doc, { factor: 0.5 }));
    expect(boneFrames(slow.value.doc)).toEqual([0, 2, 4, 6, 10, 14, 2, 6]);
    expect(slow.value.report.collisions).toBe(0);
    expect(speed(doc, { factor: 0 }).ok).toBe(false);
  });
  it('warns when camera keys become cuts', () => {
    const cam = withBlocks(emptyVmd(), {
      camera: blockFromRecords('camera', [0, 4, 6].map((frame) => encodeCameraRecord({ frame, distance: -10, target: [0, 0, 0], rotation: [0, 0, 0], fov: 30 }))),
    });
    const r = must(speed(cam, { factor: 2 }));
    expect(r.value.report.extra.newCameraCuts).toBe(1); // 4→2, 6→3
  });
});

describe('shift', () => {
  const doc = buildVmd({ bones: [bone('腕', 0, [0, 0, 0]), bone('腕', 10, [10, 0, 0])], morphs: [{ name: 'あ', frame: 4, weight: 1 }] });
  it('moves every frame and back', () => {
    const r = must(shift(doc, { by: 7 }));
    expect(boneFrames(r.value.doc)).toEqual([7, 17]);
    expect(bytesOf(must(shift(r.value.doc, { by: -7 })).value.doc).equals(bytesOf(doc))).toBe(true);
  });
  it('below 0 is an error unless --clip, which holds the pose at the cut', () => {
    const bad = shift(doc, { by: -4 });
    expect(bad.ok).toBe(false);
    const r = must(shift(doc, { by: -4, clip: true }));
    const t = buildTracks(r.value.doc);
    expect(Array.from(t.bones.frames)).toEqual([0, 6]);
    expect(t.bones.position[0]).toBeCloseTo(4, 5);
    expect(r.value.report.extra.by).toBe(-4);
  });
});

describe('preset', () => {
  const physOff = buildBoneInterpolation([[20, 20, 107, 107], [20, 20, 107, 107], [20, 20, 107, 107], [20, 20, 107, 107]], [99, 15]);
  const doc = withBlocks(
    buildVmd({
      bones: [
        { name: '左腕', frame: 0, position: [0, 0, 0], rotation: ID, interpolation: physOff },
        bone('左腕', 20),
        bone('右腕', 20),
        bone('左腕', 40),
      ],
    }),
    { camera: blockFromRecords('camera', [encodeCameraRecord({ frame: 10, distance: -10, target: [0, 0, 0], rotation: [0, 0, 0], fov: 30 })]) },
  );
  it('sets the selected channels of matching keys, keeping the physics flag', () => {
    const r = must(preset(doc, { curve: [64, 0, 64, 127], bones: '左*', channels: [3], from: 0, to: 20 }));
    const ip = (i: number) => r.value.doc.bone.bytes.subarray(i * 111 + 47, i * 111 + 111);
    expect(getBoneCurve(ip(0), 3)).toEqual([64, 0, 64, 127]);
    expect(getBoneCurve(ip(0), 0)).toEqual([20, 20, 107, 107]);
    expect([ip(0)[2], ip(0)[3]]).toEqual([99, 15]); // physics flag kept
    expect(getBoneCurve(ip(1), 3)).toEqual([64, 0, 64, 127]);
    expect(getBoneCurve(ip(2), 3)).toEqual([20, 20, 107, 107]); // 右腕 not selected
    expect(getBoneCurve(ip(3), 3)).toEqual([20, 20, 107, 107]); // frame 40 outside
    // rows 1–3 consistent: x1 of rotation is also at byte 18
    expect(ip(0)[18]).toBe(64);
    expect(r.value.report.extra.matched).toBe(2);
    expect(r.value.report.byKind.bone.changed).toBe(2);
    // camera untouched unless asked
    expect(Buffer.from(r.value.doc.camera.bytes).equals(Buffer.from(doc.camera.bytes))).toBe(true);
  });
  it('camera channels, presets and spec parsing', () => {
    const c = parseCurveSpec('ease-out');
    expect(c).toEqual({ ok: true, value: [0, 0, 64, 127] });
    const rc = must(preset(doc, { curve: [1, 2, 3, 4], camera: true, cameraChannels: [4] }));
    expect(getCameraCurve(rc.value.doc.camera.bytes, 4, 32)).toEqual([1, 2, 3, 4]);
    expect(getCameraCurve(rc.value.doc.camera.bytes, 0, 32)).toEqual([20, 20, 107, 107]);
    expect(rc.value.report.byKind.bone.changed).toBe(0); // bones left alone when only --camera
    expect(parseCurveSpec('1,2,3,400')).toEqual({
      ok: false,
      error: { code: 'E_ARGUMENT', problem: 'curveRange', params: { value: '1,2,3,400' }, message: 'curve values must be in 0..127, got "1,2,3,400"' },
    });
    expect(parseCurveSpec('wobbly')).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT', problem: 'curveUnknown', params: { value: 'wobbly' } } });
    expect(parseChannels('x,rot', 'bone')).toEqual({ ok: true, value: [0, 3] });
    expect(parseChannels('d,fov', 'camera')).toEqual({ ok: true, value: [4, 5] });
    expect(parseChannels('q', 'bone')).toEqual({
      ok: false,
      error: { code: 'E_ARGUMENT', problem: 'channelUnknown', params: { value: 'q', kind: 'bone', allowed: 'x, y, z, r' }, message: 'unknown bone channel "q": use x, y, z, r' },
    });
    expect(parseChannels(' , ', 'camera')).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT', problem: 'channelsNone', message: 'no camera channels given' } });
    expect(namePattern('/[/')).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT', problem: 'pattern', params: { value: '/[/' } } });
    const glob = namePattern('左*,?腕');
    expect(glob.ok && ['左足', '右腕', '右足'].map(glob.value)).toEqual([true, true, false]);
  });
});

describe('rename', () => {
  const doc = withBlocks(
    buildVmd({ bones: [bone('腕', 0), bone('腕', 5), bone('うで', 5), bone('足', 0)], morphs: [{ name: 'あ', frame: 0, weight: 1 }] }),
    { ik: ikBlockFromRecords([encodeIkRecord({ frame: 0, visible: 1, iks: [{ name: '足', enabled: 1 }] })]) },
  );
  it('renames from JSON, reports collisions and names that do not fit', () => {
    const m = parseMapping('{"腕":"arm","うで":"arm","足":"とてもながいあしのなまえ"}');
    if (!m.ok) throw new Error(m.error.message);
    const r = must(rename(doc, m.value));
    const t = buildTracks(r.value.doc);
    expect(t.bones.names).toEqual(['arm', '足']);
    expect(r.value.report.byKind.bone.collisions).toBe(1); // うで@5 lands on arm@5
    expect(r.value.report.warnings).toContain('1 bone key now shares a (name, frame) with an earlier key and was left out (the first in the file kept)');
    expect(r.value.report.extra.namesTooLong).toBe(1);
    expect(r.value.report.warnings.some((w) => w.includes('とてもながいあしのなまえ'))).toBe(true);
    expect(t.morphs.names).toEqual(['あ']);
  });
  it('parses CSV with header, comments and quotes; renames IK names and morphs on request', () => {
    const m = parseMapping('# bones\nold,new\n足,"leg"\nあ,a\n', 'csv');
    if (!m.ok) throw new Error(m.error.message);
    expect([...m.value.bones]).toEqual([['足', 'leg'], ['あ', 'a']]);
    const r = must(rename(doc, m.value, { morphsToo: true }));
    expect(Buffer.from(r.value.doc.ik.bytes.subarray(9, 12)).toString('latin1')).toBe('leg');
    expect(buildTracks(r.value.doc).morphs.names).toEqual(['a']);
    expect(parseMapping('a,b,c,d', 'csv')).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT', problem: 'mapColumns', params: { line: 1, columns: 4 } } });
    // A third column is a ratio (vmd_sizing's morph maps): a number, or the row is refused.
    expect(parseMapping('a,b,c', 'csv')).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT', problem: 'mapRatio', params: { line: 1 } } });
    expect(parseMapping('{bad json')).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT', problem: 'mapJsonAt', params: { line: 1 } } });
  });
  it('reads a quoted tab or line break as part of a name: a line is tab-separated only with a tab outside quotes', () => {
    const ok = (text: string) => {
      const m = parseMapping(text, 'csv');
      if (!m.ok) throw new Error(m.error.message);
      return [...m.value.bones];
    };
    expect(ok('"a\tb",x\n')).toEqual([['a\tb', 'x']]);
    expect(ok('"a\tb"\tx\r\nc\td\r\n')).toEqual([['a\tb', 'x'], ['c', 'd']]);
    expect(ok('a,b\t\n')).toEqual([['a', 'b']]); // a tab at the end is trimmed, not a separator
    expect(ok('"two\nlines",y\r\n# a comment with a " in it\nz,w\n')).toEqual([['two\nlines', 'y'], ['z', 'w']]);
    // A record that runs over two lines: an error after it names its own line.
    expect(parseMapping('"p\nq",r\nbad\n', 'csv')).toMatchObject({ ok: false, error: { params: { line: 3, columns: 1 } } });
  });
  it('a quote inside a name is part of it; only a field that starts with one is quoted, and an unclosed one is an error', () => {
    const ok = (text: string) => {
      const m = parseMapping(text, 'csv');
      if (!m.ok) throw new Error(m.error.message);
      return [...m.value.bones];
    };
    // An odd quote in a name used to open a quoted part that swallowed the lines after it.
    expect(ok('足,foot 12"\n腕,arm\n')).toEqual([['足', 'foot 12"'], ['腕', 'arm']]);
    expect(ok('左腕,left "big" arm\n')).toEqual([['左腕', 'left "big" arm']]);
    // Blanks before a quote still make a quoted field; text after its closing quote is kept.
    expect(ok('a, "b,c"\nd,"e"f\n')).toEqual([['a', 'b,c'], ['d', 'ef']]);
    // A tab at either end of a line is trimmed, between two parts it separates them.
    expect(ok('\ta,b\t\r\nc\td\n')).toEqual([['a', 'b'], ['c', 'd']]);
    expect(parseMapping('a,b\n"never closed,x\ny,z\n', 'csv')).toEqual({
      ok: false,
      error: { code: 'E_ARGUMENT', problem: 'mapQuote', params: { line: 2 }, message: 'mapping line 2: a quoted name is not closed' },
    });
  });
  it('names the line or entry of a bad mapping, never its text (the map may be any file)', () => {
    const secret = 'root:x:0:0:SECRET-LINE';
    const csv = parseMapping(`old,new\na,b\n${secret}\n`, 'csv');
    const mapError = (problem: string, message: string, params: Record<string, string | number>) => ({ ok: false, error: { code: 'E_ARGUMENT', problem, params, message } });
    expect(csv).toEqual(mapError('mapColumns', 'mapping line 3: expected two columns old,new, got 1 column', { line: 3, columns: 1 }));
    expect(parseMapping('a,b\nc,\n', 'csv')).toEqual(mapError('mapColumns', 'mapping line 2: expected two columns old,new, got an empty column', { line: 2, columns: 2 }));
    for (const json of [`{"a":"b", ${secret}}`, `["${secret}"`, `{"${secret}": 5}`, `[["a","b"], ["${secret}"]]`]) {
      const r = parseMapping(json, 'json');
      expect(!r.ok && r.error.code, json).toBe('E_ARGUMENT');
      expect(!r.ok && r.error.message, json).toMatch(/^mapping/);
      expect(!r.ok && JSON.stringify(r.error), json).not.toContain('SECRET');
    }
    expect(parseMapping(`{"a": "b", "${secret}": 5}`, 'json')).toEqual(mapError('mapEntry', 'mapping: entry 2 must map a name to a string', { entry: 2, section: 'mapping' }));
    expect(parseMapping(`[["a","b"], ["${secret}"]]`, 'json')).toEqual(mapError('mapEntry', 'mapping: entry 2 must be ["old", "new"]', { entry: 2, section: 'mapping' }));
    expect(parseMapping('"just a string"', 'json')).toEqual(mapError('mapShape', 'mapping: expected an object or a list of pairs', { section: 'mapping' }));
  });
});

describe('poses', () => {
  it('build: union of bones, rest pose where missing, morphs at 0, curves preset', () => {
    const r = must(
      buildFromPoses(
        [
          { frame: 0, pose: { model: 'ミク.osm', bones: [{ name: '頭', position: [0, 0, 0], rotation: [0, 0.1, 0, 0.995] }], morphs: [] } },
          { frame: 30, pose: { model: 'ミク.osm', bones: [{ name: '腕', position: [1, 0, 0], rotation: ID as [number, number, number, number] }], morphs: [{ name: 'あ', weight: 1 }] } },
        ],
        { curve: [64, 0, 64, 127] },
      ),
    );
    const t = buildTracks(r.value.doc);
    expect(t.bones.names).toEqual(['頭', '腕']);
    const arm = t.bones.index.get('腕')!;
    expect(Array.from(t.bones.frames.subarray(t.bones.start[arm], t.bones.start[arm + 1]))).toEqual([0, 30]);
    expect(Array.from(t.bones.position.subarray(3 * t.bones.start[arm], 3 * t.bones.start[arm] + 3))).toEqual([0, 0, 0]);
    expect(Array.from(t.morphs.weight)).toEqual([0, 1]);
    expect(r.value.report.byKind.bone).toMatchObject({ kept: 2, added: 2 });
    expect(getBoneCurve(r.value.doc.bone.bytes.subarray(47, 111), 3)).toEqual([64, 0, 64, 127]);
    const back = readVmd(writeVmd(r.value.doc));
    expect(back.ok).toBe(true);
  });
  it('build: long names fail unless skipped', () => {
    const poses = [{ frame: 0, pose: { model: 'm', bones: [{ name: 'とてもながいほねのなまえ', position: [0, 0, 0] as [number, number, number], rotation: ID as [number, number, number, number] }], morphs: [] } }];
    expect(buildFromPoses(poses).ok).toBe(false);
    const r = must(buildFromPoses(poses, { skipLongNames: true }));
    expect(r.value.doc.bone.count).toBe(0);
    expect(r.value.report.warnings.length).toBe(1);
  });
  it('pose at frame interpolates', () => {
    const doc = buildVmd({ bones: [bone('腕', 0, [0, 0, 0]), bone('腕', 10, [10, 0, 0])] });
    const r = poseAtFrame(doc, 5);
    if (!r.ok) throw new Error('pose failed');
    expect(r.value.pose.bones[0].position[0]).toBeCloseTo(5, 5);
    expect(poseAtFrame(doc, -1).ok).toBe(false);
  });
});

describe('edits leave untouched records byte-identical', () => {
  it('speed ×1 and shift 0 reproduce the file', () => {
    const doc = buildVmd({ bones: [bone('腕', 3, [1, 2, 3]), bone('腕', 9)], morphs: [{ name: 'あ', frame: 2, weight: 0.3 }] });
    expect(bytesOf(must(speed(doc, { factor: 1 })).value.doc).equals(bytesOf(doc))).toBe(true);
    expect(bytesOf(must(shift(doc, { by: 0 })).value.doc).equals(bytesOf(doc))).toBe(true);
    expect(encodeMorphRecord).toBeTypeOf('function');
  });
});
