/**
 * A PMX 2.0 "arm" built byte by byte for the SDEF tests: two bones, 腕 at (0, 10, 0) and its child ひじ at
 * the joint (5, 10, 0), and small red triangles ("probes") about the joint, each weighted between the two
 * bones. With `sdef` the probes are SDEF vertices (centre the joint, R0 and R1 a unit either side of it
 * along the arm), without it BDEF2 with the same bones and weights: the same model skinned the two ways.
 * Coordinates are MMD's. One double-sided material, no texture, no toon; no morphs, no physics. With
 * `wall`, the probes cast a self-shadow (0x04) onto a second material: a white wall with toon01 that
 * receives it (0x08) and casts none, a square facing −z at z = WALL_Z behind the arm; and a third, a
 * "stencil" beside the arm that casts through its texture, `stencil.png` (stencilPng): opaque but for a
 * hole (HOLE, in UV) and its top-left texel, which every probe's UV (0, 0) reads. Both on 腕 (which no
 * test turns).
 */
import { Bytes } from '../shared/pmx-fixtures';
import { encodePng } from './png';

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

/** The wall's plane (MMD z) and its corners' x and y. */
export const WALL_Z = 3;
const WALL = { x: [-5, 15], y: [0, 20] };
/** The stencil: a square in the probes' plane (z 0) right of the arm, its texture over the whole of it. */
export const STENCIL = { x: [9, 12], y: [5.5, 8.5], z: 0 };
/** The stencil texture's hole, in UV (v grows downward, as stored). */
export const HOLE = { u: [0.125, 0.3125], v: [0.375, 0.625] };
const STENCIL_TEXELS = 16;

/** The stencil's texture: opaque blue, see-through in HOLE and at its top-left texel. */
export function stencilPng(): Uint8Array {
  const n = STENCIL_TEXELS, data = new Uint8Array(4 * n * n);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const u = (x + 0.5) / n, v = (y + 0.5) / n;
      const hole = (u > HOLE.u[0] && u < HOLE.u[1] && v > HOLE.v[0] && v < HOLE.v[1]) || (x === 0 && y === 0);
      data.set([40, 60, 230, hole ? 0 : 255], 4 * (y * n + x));
    }
  return encodePng({ width: n, height: n, data });
}

export function sdefArmPmx(sdef: boolean, opts: { wall?: boolean } = {}): Uint8Array {
  const w = new Bytes();
  // UTF-16, no additional UVs, index sizes: vertex 4, texture 1, material 1, bone 1, morph 1, rigid 1.
  w.raw([0x50, 0x4d, 0x58, 0x20]).f32(2.0).u8(8).u8(0, 0, 4, 1, 1, 1, 1, 1);
  w.text(armName(sdef)).text('arm').text('').text('');
  w.i32(3 * PROBES.length + (opts.wall ? 8 : 0));
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
  const first = 3 * PROBES.length;
  if (opts.wall) {
    for (const [x, y] of [[WALL.x[0], WALL.y[0]], [WALL.x[1], WALL.y[0]], [WALL.x[1], WALL.y[1]], [WALL.x[0], WALL.y[1]]]) {
      w.f32(x, y, WALL_Z).f32(0, 0, -1).f32(0, 0).u8(0).u8(0).f32(1); // BDEF1 on 腕
    }
    // The stencil, UV (0, 0) at its top-left corner.
    for (const [x, y, u, v] of [[STENCIL.x[0], STENCIL.y[0], 0, 1], [STENCIL.x[1], STENCIL.y[0], 1, 1], [STENCIL.x[1], STENCIL.y[1], 1, 0], [STENCIL.x[0], STENCIL.y[1], 0, 0]]) {
      w.f32(x, y, STENCIL.z).f32(0, 0, -1).f32(u, v).u8(0).u8(0).f32(1);
    }
  }
  w.i32(3 * PROBES.length + (opts.wall ? 12 : 0));
  for (let i = 0; i < 3 * PROBES.length; i++) w.i32(i);
  // Two triangles for each square, wound as the balls' are (MMD's front faces clockwise seen from the front).
  for (const q of opts.wall ? [first, first + 4] : []) w.i32(q, q + 2, q + 1, q, q + 3, q + 2);
  w.i32(opts.wall ? 1 : 0); // textures
  if (opts.wall) w.text('stencil.png');
  w.i32(opts.wall ? 3 : 1);
  w.text('probe').text('probe');
  // Red, lit or not; double-sided (0x01), casting a self-shadow (0x04) when there is a wall to take it.
  w.f32(1, 0, 0, 1).f32(0, 0, 0).f32(0).f32(0.6, 0, 0).u8(opts.wall ? 0x05 : 0x01);
  w.f32(0, 0, 0, 1).f32(1);
  w.u8(0xff).u8(0xff).u8(0).u8(0).u8(0xff); // no texture, no sphere, sphere off, no toon
  w.text('').i32(3 * PROBES.length);
  if (opts.wall) {
    w.text('wall').text('wall');
    // White (ambient 0.5 + diffuse 0.5 × light), receiving the self-shadow (0x08) only; MMD darkens a
    // shadowed pixel by its toon's far side, so the wall has one (shared toon01).
    w.f32(0.5, 0.5, 0.5, 1).f32(0, 0, 0).f32(0).f32(0.5, 0.5, 0.5).u8(0x08);
    w.f32(0, 0, 0, 1).f32(1);
    w.u8(0xff).u8(0xff).u8(0).u8(1).u8(0);
    w.text('').i32(6);
    w.text('stencil').text('stencil');
    // Its texture's colour as lit; double-sided, casting (0x05).
    w.f32(1, 1, 1, 1).f32(0, 0, 0).f32(0).f32(0.5, 0.5, 0.5).u8(0x05);
    w.f32(0, 0, 0, 1).f32(1);
    w.u8(0).u8(0xff).u8(0).u8(0).u8(0xff); // texture 0, no sphere, no toon
    w.text('').i32(6);
  }
  w.i32(2);
  w.text('腕').text('arm').f32(0, 10, 0).u8(0xff).i32(0).u16(0x001e).f32(5, 0, 0);
  w.text('ひじ').text('elbow').f32(...JOINT).u8(0).i32(0).u16(0x001e).f32(5, 0, 0);
  w.i32(0); // morphs
  w.i32(0); // display frames
  w.i32(0); // rigid bodies
  w.i32(0); // joints
  return w.build();
}
