/**
 * A PMX 2.0 "arm" built byte by byte for the SDEF tests: two bones, 腕 at (0, 10, 0) and its child ひじ at
 * the joint (5, 10, 0), and small red triangles ("probes") about the joint, each weighted between the two
 * bones. With `sdef` the probes are SDEF vertices (centre the joint, R0 and R1 a unit either side of it
 * along the arm), without it BDEF2 with the same bones and weights: the same model skinned the two ways.
 * Coordinates are MMD's. One double-sided material, no texture, no toon; no morphs, no physics.
 */
import { Bytes } from '../shared/pmx-fixtures';

export const JOINT: [number, number, number] = [5, 10, 0];
export const SDEF_R0: [number, number, number] = [4, 10, 0];
export const SDEF_R1: [number, number, number] = [6, 10, 0];
/** Half the width of a probe triangle. */
export const PROBE_SIZE = 0.12;

export interface Probe {
  /** The probe's centroid (MMD coordinates). */
  at: [number, number, number];
  /** The weight of 腕 (ひじ has the rest). */
  w0: number;
}

/** Above and below the joint, on it and a little either side. */
export const PROBES: Probe[] = [
  { at: [5, 11, 0], w0: 0.5 },
  { at: [5, 9, 0], w0: 0.5 },
  { at: [4.6, 11.2, 0], w0: 0.7 },
  { at: [5.4, 8.8, 0], w0: 0.3 },
];

/** The model's name: "arm SDEF" or "arm BDEF2" (a test can tell which is shown). */
export const armName = (sdef: boolean) => `arm ${sdef ? 'SDEF' : 'BDEF2'}`;

export function sdefArmPmx(sdef: boolean): Uint8Array {
  const w = new Bytes();
  // UTF-16, no additional UVs, index sizes: vertex 4, texture 1, material 1, bone 1, morph 1, rigid 1.
  w.raw([0x50, 0x4d, 0x58, 0x20]).f32(2.0).u8(8).u8(0, 0, 4, 1, 1, 1, 1, 1);
  w.text(armName(sdef)).text('arm').text('').text('');
  w.i32(3 * PROBES.length);
  for (const p of PROBES) {
    // A triangle whose vertices average to the probe's point.
    const corners = [[-PROBE_SIZE, -PROBE_SIZE / 2], [PROBE_SIZE, -PROBE_SIZE / 2], [0, PROBE_SIZE]];
    for (const [dx, dy] of corners) {
      w.f32(p.at[0] + dx, p.at[1] + dy, p.at[2]).f32(0, 0, -1).f32(0, 0);
      if (sdef) w.u8(3).u8(0).u8(1).f32(p.w0).f32(...JOINT).f32(...SDEF_R0).f32(...SDEF_R1);
      else w.u8(1).u8(0).u8(1).f32(p.w0);
      w.f32(1); // edge scale
    }
  }
  w.i32(3 * PROBES.length);
  for (let i = 0; i < 3 * PROBES.length; i++) w.i32(i);
  w.i32(0); // textures
  w.i32(1);
  w.text('probe').text('probe');
  // Red, lit or not; double-sided (0x01), nothing else.
  w.f32(1, 0, 0, 1).f32(0, 0, 0).f32(0).f32(0.6, 0, 0).u8(0x01);
  w.f32(0, 0, 0, 1).f32(1);
  w.u8(0xff).u8(0xff).u8(0).u8(0).u8(0xff); // no texture, no sphere, sphere off, no toon
  w.text('').i32(3 * PROBES.length);
  w.i32(2);
  w.text('腕').text('arm').f32(0, 10, 0).u8(0xff).i32(0).u16(0x001e).f32(5, 0, 0);
  w.text('ひじ').text('elbow').f32(...JOINT).u8(0).i32(0).u16(0x001e).f32(5, 0, 0);
  w.i32(0); // morphs
  w.i32(0); // display frames
  w.i32(0); // rigid bodies
  w.i32(0); // joints
  return w.build();
}
