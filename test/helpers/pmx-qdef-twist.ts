/**
 * A PMX 2.1 "forearm" built byte by byte for the QDEF tests: the arm fixture's two bones (腕 at (0, 10, 0),
 * its child ひじ at (5, 10, 0), the arm along +x) and small red triangles ("probes") on a ring of radius 1
 * about the arm's axis at the joint, each weighted half and half between the two bones. With `qdef` the
 * probes are QDEF vertices, without it BDEF4 with the same bones and weights: the same model skinned the two
 * ways. A twist of ひじ about the axis turns a QDEF probe half as far about it, at the same distance, where
 * BDEF4 pulls it towards the axis. The probes face along the axis (seen from the side of the arm they are
 * edge-on). Coordinates are MMD's. One double-sided material, no texture, no toon; no morphs, no physics.
 */
import { Bytes } from '../shared/pmx-fixtures';

export const TWIST_JOINT: [number, number, number] = [5, 10, 0];
/**
 * The probes' angles about the axis (from +y towards +z), in degrees: no two half a turn apart, so that a
 * ring turned half a turn too far (a blend on the wrong hemisphere) is not the same picture.
 */
export const RING = [0, 70, 160];
const PROBE_SIZE = 0.3;

/** Probe k's centre (MMD coordinates). */
export const ringPoint = (k: number): [number, number, number] => {
  const a = (RING[k] * Math.PI) / 180;
  return [TWIST_JOINT[0], TWIST_JOINT[1] + Math.cos(a), Math.sin(a)];
};

/** The model's name: "forearm QDEF" or "forearm BDEF4". */
export const twistName = (qdef: boolean) => `forearm ${qdef ? 'QDEF' : 'BDEF4'}`;

export function qdefTwistPmx(qdef: boolean): Uint8Array {
  const w = new Bytes();
  // PMX 2.1 (QDEF is 2.1's), UTF-16, no additional UVs, index sizes: vertex 4, texture 1, material 1, bone 1, morph 1, rigid 1.
  w.raw([0x50, 0x4d, 0x58, 0x20]).f32(2.1).u8(8).u8(0, 0, 4, 1, 1, 1, 1, 1);
  w.text(twistName(qdef)).text('forearm').text('').text('');
  w.i32(3 * RING.length);
  RING.forEach((_, k) => {
    const [x, y, z] = ringPoint(k);
    // A triangle across the ring's plane (x fixed) whose vertices average to the probe's point.
    for (const [dy, dz] of [[-PROBE_SIZE, -PROBE_SIZE / 2], [PROBE_SIZE, -PROBE_SIZE / 2], [0, PROBE_SIZE]]) {
      w.f32(x, y + dy, z + dz).f32(-1, 0, 0).f32(0, 0);
      w.u8(qdef ? 4 : 2).u8(0, 1, 0, 0).f32(0.5, 0.5, 0, 0); // QDEF or BDEF4: bones 腕, ひじ, weights ½, ½
      w.f32(1); // edge scale
    }
  });
  w.i32(3 * RING.length);
  for (let i = 0; i < 3 * RING.length; i++) w.i32(i);
  w.i32(0); // textures
  w.i32(1);
  w.text('probe').text('probe');
  // Red, lit or not; double-sided (0x01), nothing else.
  w.f32(1, 0, 0, 1).f32(0, 0, 0).f32(0).f32(0.6, 0, 0).u8(0x01);
  w.f32(0, 0, 0, 1).f32(1);
  w.u8(0xff).u8(0xff).u8(0).u8(0).u8(0xff); // no texture, no sphere, sphere off, no toon
  w.text('').i32(3 * RING.length);
  w.i32(2);
  w.text('腕').text('arm').f32(0, 10, 0).u8(0xff).i32(0).u16(0x001e).f32(5, 0, 0);
  w.text('ひじ').text('elbow').f32(...TWIST_JOINT).u8(0).i32(0).u16(0x001e).f32(5, 0, 0);
  w.i32(0); // morphs
  w.i32(0); // display frames
  w.i32(0); // rigid bodies
  w.i32(0); // joints
  w.i32(0); // soft bodies (2.1)
  return w.build();
}
