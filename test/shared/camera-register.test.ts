// Registering the orbited view as a camera key: the inverse of the camera placement (shared/vmd/camera.ts)
// and the edit that writes it (shared/key-edits/camera-key.ts). The round trips are checked against the forward
// maths (cameraPosition, rotateByCameraEuler) and against hand-worked views, never against the inverse itself.
import { describe, expect, it } from 'vitest';
import { mulberry32 as rng } from '../helpers/rng';
import {
  cameraKeyFromView, cameraPosition, rotateByCameraEuler, unwrapAngle, type CameraView,
} from '../../shared/vmd/camera';
import { buildTracks, readVmd, writeVmd, sampleCamera, CAMERA } from '../../shared/vmd';
import { emptyVmd, encodeCameraRecord } from '../../shared/vmd/vmd-build';
import { blockFromRecords } from '../../shared/vmd/vmd-document';
import { defaultCameraInterpolation } from '../../shared/vmd/interpolation';
import { applyDiff, neighbourCameraRotation, registerCameraKey, revertDiff } from '../../shared/key-edits';
import type { VmdDocument } from '../../shared/vmd/vmd-document';

/** A small deterministic generator (mulberry32) so failures reproduce. */
/** The view an MMD pose shows: eye, target, the picture's up, fov (all from the forward maths). */
function viewOf(target: number[], rotation: number[], distance: number, fov: number): CameraView {
  return { position: cameraPosition(target as never, rotation as never, distance), target, up: rotateByCameraEuler([0, 1, 0], rotation as never), fov };
}

/** The direction the camera looks along (from the eye toward the target for a negative distance). */
function forwardOf(rotation: number[], distance: number): number[] {
  const f = rotateByCameraEuler([0, 0, 1], rotation as never);
  return distance <= 0 ? f : f.map((x) => -x);
}

function expectClose(a: readonly number[], b: readonly number[], tol: number, what: string) {
  for (let i = 0; i < b.length; i++) expect(Math.abs(a[i] - b[i]), `${what}[${i}]: ${a[i]} vs ${b[i]}`).toBeLessThan(tol);
}

describe('cameraKeyFromView: the inverse of the camera placement', () => {
  it('hand-worked views: straight on, from the side, from above', () => {
    // MMD's default camera: target (0, 10, 0), 45 in front (toward −Z), looking at it along +Z.
    let k = cameraKeyFromView({ position: [0, 10, -45], target: [0, 10, 0], up: [0, 1, 0], fov: 30 });
    expectClose(k.rotation, [0, 0, 0], 1e-12, 'rotation');
    expect(k.distance).toBeCloseTo(-45, 12);
    expect(k.fov).toBe(30);
    // Eye on +X of the target: ry = π/2 (R = Ry(−90°) turns (0, 0, −20) onto (20, 0, 0)).
    k = cameraKeyFromView({ position: [20, 0, 0], target: [0, 0, 0], up: [0, 1, 0], fov: 40.4 });
    expectClose(k.rotation, [0, Math.PI / 2, 0], 1e-12, 'rotation');
    expect(k.distance).toBeCloseTo(-20, 12);
    expect(k.fov).toBe(40);
    expectClose(cameraPosition(k.target, k.rotation, k.distance), [20, 0, 0], 1e-12, 'position');
    // From above and in front, looking down 30°: rx = −30° raises the eye (test/shared/sample.test.ts works it by hand).
    k = cameraKeyFromView({ position: [0, 10 * Math.sin(Math.PI / 6), -10 * Math.cos(Math.PI / 6)], target: [0, 0, 0], up: [0, Math.cos(Math.PI / 6), Math.sin(Math.PI / 6)], fov: 30 });
    expectClose(k.rotation, [-Math.PI / 6, 0, 0], 1e-12, 'rotation');
  });

  it('a rolled picture: rz from the up vector, the eye does not move', () => {
    const r = [0.3, -1.1, 0.7];
    const v = viewOf([1, 2, 3], r, -30, 27);
    const k = cameraKeyFromView(v);
    expectClose(k.rotation, r, 1e-12, 'rotation');
    // The same eye with the up turned back: no roll, same position.
    const k0 = cameraKeyFromView({ ...v, up: rotateByCameraEuler([0, 1, 0], [r[0], r[1], 0]) });
    expect(Math.abs(k0.rotation[2])).toBeLessThan(1e-12);
    expectClose(cameraPosition(k0.target, k0.rotation, k0.distance), v.position, 1e-12, 'position');
  });

  it('round trip: random MMD poses → view → key gives the same eye, direction and up within 1e-9', () => {
    const rand = rng(1234);
    for (let i = 0; i < 2000; i++) {
      const target = [rand() * 200 - 100, rand() * 50 - 10, rand() * 200 - 100];
      const rotation = [rand() * 8 - 4, rand() * 14 - 7, rand() * 8 - 4];
      const distance = -(0.5 + rand() * 300) * (rand() < 0.1 ? -1 : 1); // a few positive (behind-the-target) keys too
      const fov = 1 + Math.floor(rand() * 120);
      const view = viewOf(target, rotation, distance, fov);
      const k = cameraKeyFromView(view);
      expect(k.distance, 'distance is negative').toBeLessThan(0);
      expect(Math.abs(k.distance)).toBeCloseTo(Math.abs(distance), 9);
      expect(k.fov).toBe(fov);
      expectClose(k.target, target, 1e-12, `target ${i}`);
      expectClose(cameraPosition(k.target, k.rotation, k.distance), view.position, 1e-9, `position ${i}`);
      expectClose(forwardOf(k.rotation, k.distance), forwardOf(rotation, distance), 1e-9, `direction ${i}`);
      expectClose(rotateByCameraEuler([0, 1, 0], k.rotation), view.up, 1e-9, `up ${i}`);
      // Without a previous key: rx in [−π/2, π/2], ry and rz in (−π, π].
      expect(Math.abs(k.rotation[0])).toBeLessThanOrEqual(Math.PI / 2 + 1e-12);
      for (const c of [1, 2]) expect(Math.abs(k.rotation[c])).toBeLessThanOrEqual(Math.PI + 1e-12);
    }
  });

  it('with the previous key: the same orientation, each angle within half a turn of the previous one', () => {
    const rand = rng(99);
    let flipped = 0;
    for (let i = 0; i < 2000; i++) {
      const rotation = [rand() * 6 - 3, rand() * 6 - 3, rand() * 6 - 3];
      // The previous key: the pose itself several turns away, with a small change (what orbiting a little gives).
      const turns = [Math.round(rand() * 6 - 3), Math.round(rand() * 6 - 3), Math.round(rand() * 6 - 3)];
      const prev = rotation.map((a, c) => a + 2 * Math.PI * turns[c] + (rand() - 0.5) * 0.4);
      const view = viewOf([0, 10, 0], rotation, -40, 30);
      const k = cameraKeyFromView(view, prev);
      expectClose(cameraPosition(k.target, k.rotation, k.distance), view.position, 1e-9, `position ${i}`);
      expectClose(rotateByCameraEuler([0, 1, 0], k.rotation), view.up, 1e-9, `up ${i}`);
      for (let c = 0; c < 3; c++) expect(Math.abs(k.rotation[c] - prev[c]), `angle ${c} of ${i}`).toBeLessThanOrEqual(Math.PI + 1e-9);
      // Near the pose's own angles (up to the turns): the small change, not the other Euler triple.
      const back = k.rotation.map((a, c) => a - 2 * Math.PI * turns[c]);
      if (Math.abs(back[0] - rotation[0]) > 1e-6) flipped++;
      else expectClose(back, rotation, 1e-9, `angles ${i}`);
    }
    // The other triple (π − rx, ry + π, rz + π) is picked only when it is nearer: never for these small changes.
    expect(flipped).toBe(0);
  });

  it('picks the other Euler triple when the previous key is written that way (pitch past 90°)', () => {
    // The previous key pitched over the top: rx = 2.0 (> π/2). The same orientation as (π − 2, ry + π, rz + π).
    const prev = [2.0, 0.5, 0.1];
    const view = viewOf([0, 0, 0], [2.05, 0.5, 0.1], -10, 30);
    const k = cameraKeyFromView(view, prev);
    expectClose(k.rotation, [2.05, 0.5, 0.1], 1e-9, 'rotation');
    const free = cameraKeyFromView(view);
    expectClose(free.rotation, [Math.PI - 2.05, 0.5 - Math.PI, 0.1 - Math.PI], 1e-9, 'canonical rotation');
  });

  it('straight up: the yaw stays the previous key\'s, the roll takes the rest', () => {
    // rx = π/2 puts the eye right below the target (R·(0, 0, −10) = (0, −10, 0)), looking up.
    const view = viewOf([0, 0, 0], [Math.PI / 2, 0.8, 0.2], -10, 30);
    expectClose(view.position, [0, -10, 0], 1e-12, 'eye');
    const k = cameraKeyFromView(view, [1.5, 0.8, 0]);
    expect(k.rotation[0]).toBeCloseTo(Math.PI / 2, 9);
    expect(k.rotation[1]).toBeCloseTo(0.8, 9);
    expectClose(cameraPosition(k.target, k.rotation, k.distance), [0, -10, 0], 1e-9, 'position');
    expectClose(rotateByCameraEuler([0, 1, 0], k.rotation), view.up, 1e-6, 'up');
  });

  it('unwrapAngle moves by whole turns only', () => {
    expect(unwrapAngle(0.1, 2 * Math.PI * 3)).toBeCloseTo(0.1 + 6 * Math.PI, 12);
    expect(unwrapAngle(3.1, -3.1)).toBeCloseTo(3.1 - 2 * Math.PI, 12);
    expect(unwrapAngle(-1, 0)).toBe(-1);
  });
});

/** A camera document with keys at the given frames (distinct curves, perspective off on the second). */
function cameraDoc(frames: number[]): VmdDocument {
  const doc = emptyVmd('カメラ・照明');
  const recs = frames.map((frame, i) => {
    const ip = defaultCameraInterpolation();
    ip.fill(10 + i, 0, 4);
    return encodeCameraRecord({ frame, distance: -30 - i, target: [i, 10, 0], rotation: [0.1 * i, 6.5 + i, 0], fov: 30 + i, perspective: i === 1 ? 1 : 0, interpolation: ip });
  });
  return { ...doc, camera: blockFromRecords('camera', recs) };
}

function ok(o: ReturnType<typeof registerCameraKey>): Extract<ReturnType<typeof registerCameraKey>, { ok: true }>['value'] {
  if (!o.ok) throw new Error(o.error.message);
  return o.value;
}

describe('registerCameraKey', () => {
  const key = { target: [1.5, 11, -2] as [number, number, number], rotation: [0.25, 7.0, -0.125] as [number, number, number], distance: -42.5, fov: 33 };

  it('replaces the key at the frame in place: new values, its own 24 interpolation bytes and perspective kept', () => {
    const doc = cameraDoc([0, 30, 60]);
    const before = writeVmd(doc);
    const r = ok(registerCameraKey(doc, buildTracks(doc), 30, key));
    expect(r.record).toBe(1);
    expect(r.doc.camera.count).toBe(3);
    const after = writeVmd(r.doc);
    expect(after.length).toBe(before.length);
    const start = 30 + 20 + 4 + 4 + 4; // header, model name, bone and morph counts, camera count
    const rec = (bytes: Uint8Array, i: number) => bytes.subarray(start + i * CAMERA.SIZE, start + (i + 1) * CAMERA.SIZE);
    // Other keys untouched; this key's interpolation and perspective bytes as they were.
    expect(rec(after, 0)).toEqual(rec(before, 0));
    expect(rec(after, 2)).toEqual(rec(before, 2));
    const ipOf = (b: Uint8Array) => b.subarray(CAMERA.INTERPOLATION, CAMERA.INTERPOLATION + CAMERA.INTERPOLATION_LENGTH);
    expect(ipOf(rec(after, 1))).toEqual(ipOf(rec(before, 1)));
    expect(rec(after, 1)[CAMERA.PERSPECTIVE]).toBe(1);
    const pose = sampleCamera(buildTracks((readVmd(after) as { value: VmdDocument }).value).camera, 30)!;
    expectClose(pose.target, key.target, 1e-6, 'target');
    expectClose(pose.rotation, key.rotation, 1e-6, 'rotation');
    expect(pose.distance).toBeCloseTo(key.distance, 5);
    expect(pose.fov).toBe(33);
    // One reversible step.
    expect(writeVmd(revertDiff(r.doc, r.diff))).toEqual(before);
    expect(writeVmd(applyDiff(doc, r.diff))).toEqual(after);
  });

  it('adds a key where there is none, with MMD\'s default curves', () => {
    const doc = cameraDoc([0, 60]);
    const r = ok(registerCameraKey(doc, buildTracks(doc), 45, key));
    expect(r.doc.camera.count).toBe(3);
    const t = buildTracks(r.doc);
    expect([...t.camera.frames]).toEqual([0, 45, 60]);
    const k = t.camera.frames.indexOf(45);
    expect([...t.camera.curves.subarray(24 * k, 24 * k + 24)]).toEqual([20, 20, 107, 107, 20, 20, 107, 107, 20, 20, 107, 107, 20, 20, 107, 107, 20, 20, 107, 107, 20, 20, 107, 107]);
    const pose = sampleCamera(t.camera, 45)!;
    expectClose(pose.rotation, key.rotation, 1e-6, 'rotation');
    // An empty camera document gets its first key.
    const empty = { ...emptyVmd('カメラ・照明') };
    const first = ok(registerCameraKey(empty, buildTracks(empty), 0, key));
    expect(first.doc.camera.count).toBe(1);
  });

  it('unwraps against the key before the frame, else the one after', () => {
    const doc = cameraDoc([10, 40]);
    const t = buildTracks(doc);
    expect(neighbourCameraRotation(t, 20)![1]).toBeCloseTo(6.5, 5);
    expect(neighbourCameraRotation(t, 40)![1]).toBeCloseTo(6.5, 5);
    expect(neighbourCameraRotation(t, 41)![1]).toBeCloseTo(7.5, 5);
    expect(neighbourCameraRotation(t, 5)![1]).toBeCloseTo(6.5, 5);
    expect(neighbourCameraRotation(t, 10)![1]).toBeCloseTo(7.5, 5);
    expect(neighbourCameraRotation(buildTracks(emptyVmd('')), 0)).toBeNull();
  });
});
