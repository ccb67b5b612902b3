import { describe, expect, it } from 'vitest';
import { buildTracks, cameraPosition, readVmd, samplePose, sampleCamera } from '../../shared/vmd';
import { SJIS, buildFixture, interpBlock } from '../helpers/vmd-fixtures';

const lin = [20, 20, 107, 107];
const f32 = (x: number) => Math.fround(x);

function tracksOf(bytes: Uint8Array) {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return buildTracks(r.value);
}

describe('bone sampling', () => {
  // Non-unit quaternion on purpose: stored keys must come back untouched.
  const rot0 = [0, 0, 0, 1.01];
  const rot1 = [0, Math.SQRT1_2, 0, Math.SQRT1_2];
  const easeIn = [[127, 0, 127, 0], lin, lin, [64, 0, 127, 64]];
  const tracks = tracksOf(
    buildFixture({
      bones: [
        { name: SJIS.センター, frame: 30, pos: [10, 0, -4], rot: rot1, interp: interpBlock(easeIn) },
        { name: SJIS.センター, frame: 10, pos: [0, 0, 0], rot: rot0 },
        { name: SJIS.センター, frame: 30, pos: [999, 999, 999] }, // duplicate (bone, frame): the first in the file wins
      ],
    }),
  );

  it('holds the first key before it and the last key after it', () => {
    expect(samplePose(tracks, 0).bones['センター'].position).toEqual([0, 0, 0]);
    expect(samplePose(tracks, 500).bones['センター'].position).toEqual([10, 0, f32(-4)]);
  });

  it('returns stored values untouched at a key (no normalising)', () => {
    expect(samplePose(tracks, 10).bones['センター'].rotation).toEqual([0, 0, 0, f32(1.01)]);
    expect(tracks.bones.duplicates).toBe(1);
    expect(samplePose(tracks, 30).bones['センター'].position).toEqual([10, 0, f32(-4)]);
  });

  it('uses the later key’s curve per channel between keys', () => {
    const p = samplePose(tracks, 20).bones['センター'].position;
    // X uses (127,0,127,0): x(s)=t solves to s where progress y is far below t=0.5.
    expect(p[0]).toBeGreaterThan(0);
    expect(p[0]).toBeLessThan(2);
    // Z is linear: halfway.
    expect(p[2]).toBeCloseTo(-2, 6);
  });

  it('slerps rotation along the shortest arc with the rotation curve', () => {
    const q = samplePose(tracks, 20).bones['センター'].rotation;
    const angle = 2 * Math.atan2(q[1], q[3]);
    expect(angle).toBeGreaterThan(0);
    expect(angle).toBeLessThan(Math.PI / 2);
    // Shortest arc: a key stored as −q must not spin the long way round.
    const t2 = tracksOf(
      buildFixture({
        bones: [
          { name: 'b', frame: 0, rot: [0, 0, 0, 1] },
          { name: 'b', frame: 10, rot: [0, -0.0871557, 0, -0.9961947] }, // = +10° about Y, stored negated
        ],
      }),
    );
    const m = samplePose(t2, 5).bones['b'].rotation;
    const half = Math.abs(2 * Math.atan2(Math.abs(m[1]), Math.abs(m[3])));
    expect(half).toBeCloseTo((5 * Math.PI) / 180, 3);
  });
});

describe('morph and light sampling', () => {
  const t = tracksOf(
    buildFixture({
      morphs: [
        { name: SJIS.まばたき, frame: 0, weight: 0 },
        { name: SJIS.まばたき, frame: 10, weight: 1 },
      ],
      lights: [
        { frame: 0, color: [0, 0, 0], direction: [0, -1, 0] },
        { frame: 4, color: [1, 0.5, 0], direction: [1, -1, 0] },
      ],
    }),
  );
  it('interpolates linearly', () => {
    const p = samplePose(t, 2.5);
    expect(p.morphs['まばたき']).toBeCloseTo(0.25, 7);
    expect(p.light!.color[0]).toBeCloseTo(0.625, 7);
    expect(p.light!.direction).toEqual([0.625, -1, 0]);
  });
});

describe('camera sampling', () => {
  const cams = [
    { frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 },
    { frame: 20, distance: -20, target: [4, 10, 2], rotation: [0.2, 0.4, 0], fov: 40 },
    { frame: 21, distance: -30, target: [-4, 8, 0], rotation: [0, -0.5, 0.1], fov: 25 },
  ];
  const t = tracksOf(buildFixture({ cameras: cams }));

  it('places the camera at target + R·(0, 0, distance): zero rotation, distance −45 → 45 units toward −Z', () => {
    const c = sampleCamera(t.camera, 0)!;
    expect(c.position[0]).toBeCloseTo(0, 9);
    expect(c.position[1]).toBeCloseTo(10, 9);
    expect(c.position[2]).toBeCloseTo(-45, 9);
  });

  it('keeps |position − target| = |distance| for any rotation', () => {
    for (let i = 0; i < 200; i++) {
      const rot: [number, number, number] = [Math.sin(i) * 3, Math.cos(i * 1.3) * 3, Math.sin(i * 0.7) * 3];
      const target: [number, number, number] = [i, -i / 2, i / 3];
      const d = -5 - i;
      const p = cameraPosition(target, rot, d);
      expect(Math.hypot(p[0] - target[0], p[1] - target[1], p[2] - target[2])).toBeCloseTo(Math.abs(d), 9);
    }
  });

  it('never interpolates across a cut (keys one frame apart), even at fractional frames', () => {
    const c = sampleCamera(t.camera, 20.5)!;
    expect(c.distance).toBe(-20);
    expect(c.fov).toBe(40);
    expect(sampleCamera(t.camera, 21)!.distance).toBe(-30);
  });

  it('interpolates between ordinary keys with the six curves', () => {
    const c = sampleCamera(t.camera, 10)!;
    expect(c.distance).toBeCloseTo(-32.5, 5);
    expect(c.fov).toBeCloseTo(35, 5);
    expect(c.target[0]).toBeCloseTo(2, 5);
  });
});

describe('camera rotation order: yaw outermost, as MMD orbits its camera', () => {
  const deg = Math.PI / 180;
  const sin30 = 0.5, cos30 = Math.sqrt(3) / 2;

  it('pitch tilts the view whatever the yaw: yaw 90° then pitch 30° raises the camera, it does not roll it', () => {
    // Worked by hand: R = Ry(−ry)·Rx(−rx)·Rz(−rz). With rx = −30°, Rx(30°)·(0, 0, −10) = (0, 10·sin30, −10·cos30);
    // then Ry(−90°) turns (x, z) = (0, −8.66) into (8.66, 0). Pitch outermost (the old XYZ order) would have
    // left the camera at the target's height, rolled instead of raised.
    const p = cameraPosition([1, 2, 3], [-30 * deg, 90 * deg, 0], -10);
    expect(p[0]).toBeCloseTo(1 + 10 * cos30, 12);
    expect(p[1]).toBeCloseTo(2 + 10 * sin30, 12);
    expect(p[2]).toBeCloseTo(3, 12);
    // The same pitch at yaw 0 stands at the same height: pitch does not depend on yaw.
    const q = cameraPosition([1, 2, 3], [-30 * deg, 0, 0], -10);
    expect(q[1]).toBeCloseTo(2 + 10 * sin30, 12);
    expect(q[2]).toBeCloseTo(3 - 10 * cos30, 12);
  });

  it('roll (Z) turns the picture about the view axis without moving the camera', () => {
    const a = cameraPosition([0, 10, 0], [0.4, -1.2, 0], -25);
    const b = cameraPosition([0, 10, 0], [0.4, -1.2, 1.3], -25);
    for (let i = 0; i < 3; i++) expect(b[i]).toBeCloseTo(a[i], 12);
  });

  it('yaw alone swings the camera round the target on a level circle', () => {
    const p = cameraPosition([0, 0, 0], [0, 90 * deg, 0], -10);
    expect(p[0]).toBeCloseTo(10, 12);
    expect(p[1]).toBeCloseTo(0, 12);
    expect(p[2]).toBeCloseTo(0, 12);
  });
});

describe('slerp all the way (no nlerp shortcut near parallel keys)', () => {
  /** Rotation by angle a (radians) about the unit axis u. */
  const axisAngle = (u: number[], a: number) => [u[0] * Math.sin(a / 2), u[1] * Math.sin(a / 2), u[2] * Math.sin(a / 2), Math.cos(a / 2)];
  const u = [0.48, 0.6, 0.64]; // unit: 0.2304 + 0.36 + 0.4096 = 1

  it('puts the in-between rotation at exactly t·θ along the arc, for small and large angles', async () => {
    const { slerpInto } = await import('../../shared/vmd/sample');
    const out = [0, 0, 0, 0];
    for (const thetaDeg of [1e-6, 0.01, 0.5, 2, 5, 60, 170]) {
      const th = thetaDeg * Math.PI / 180;
      for (const t of [0.1, 0.25, 0.5, 0.9]) {
        slerpInto(axisAngle(u, 0), 0, axisAngle(u, th), 0, t, out, 0);
        const want = axisAngle(u, t * th);
        // nlerp (the old path below 3.6°) is off by ~1e-7 here; true slerp only by float64 noise.
        for (let i = 0; i < 4; i++) expect(Math.abs(out[i] - want[i])).toBeLessThan(1e-14);
      }
    }
  });

  it('takes the shortest arc when the keys sit on opposite hemispheres', async () => {
    const { slerpInto } = await import('../../shared/vmd/sample');
    const b = axisAngle(u, 0.3).map((x) => -x); // the same rotation as axisAngle(u, 0.3)
    const out = [0, 0, 0, 0];
    slerpInto(axisAngle(u, 0), 0, b, 0, 0.5, out, 0);
    const want = axisAngle(u, 0.15);
    for (let i = 0; i < 4; i++) expect(Math.abs(out[i] - want[i])).toBeLessThan(1e-14);
  });
});
