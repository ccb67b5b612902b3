/**
 * A PMX 2.0 of UV spheres ("balls"), each its own material, built here byte by byte for the picture tests:
 * every value in it is chosen by the test, so what the preview should draw follows from the geometry and
 * the light alone. One bone (センター), BDEF1 vertices, no physics; material morphs that tint a texture
 * and UV1 morphs when asked; an additional UV (each ball's own constant UV1) when a ball has one.
 * Coordinates are MMD's.
 */
import { Bytes } from '../shared/pmx-fixtures';

export interface Ball {
  centre: [number, number, number];
  radius: number;
  diffuse: [number, number, number, number];
  ambient: [number, number, number];
  specular?: [number, number, number];
  power?: number;
  /** PMX drawing flags (0x02 ground shadow, 0x04 cast, 0x08 receive, 0x10 edge). */
  flags: number;
  edgeColor?: [number, number, number, number];
  edgeSize?: number;
  /** The colour texture, an index into `textures` (none when absent). The ball's u runs round it from +x, v from the top. */
  texture?: number;
  /** A shared toon 0–9, or a texture of `textures` by index, or none. */
  toon: { shared: number } | { texture: number } | null;
  /** The sphere map: a texture of `textures` by index and the mode byte (1 multiply, 2 add, 3 sub-texture). */
  sphere?: { texture: number; mode: number };
  /** UV1 (x, y) of every vertex of the ball; the file then has one additional UV (z, w 0; other balls 0). */
  uv1?: [number, number];
}

/** Rings × segments of each ball's mesh. */
const RINGS = 48;
const SEGMENTS = 96;

/** A material morph multiplying one ball's texture tint (everything else left as it is). */
export interface TintMorph {
  name: string;
  ball: number;
  textureTint: [number, number, number, number];
}

/** A UV1 morph moving every vertex of one ball's UV1 by (x, y). */
export interface Uv1Morph {
  name: string;
  ball: number;
  offset: [number, number];
}

export function ballsPmx(balls: readonly Ball[], textures: readonly string[] = [], tints: readonly TintMorph[] = [], uv1Morphs: readonly Uv1Morph[] = []): Uint8Array {
  const w = new Bytes();
  const addUv = balls.some((b) => b.uv1) ? 1 : 0;
  // UTF-16, the additional UVs, index sizes: vertex 4, texture 1, material 1, bone 1, morph 1, rigid 1.
  w.raw([0x50, 0x4d, 0x58, 0x20]).f32(2.0).u8(8).u8(0, addUv, 4, 1, 1, 1, 1, 1);
  w.text('balls').text('balls').text('').text('');
  const perBall = (RINGS + 1) * (SEGMENTS + 1);
  w.i32(perBall * balls.length);
  for (const b of balls) {
    for (let r = 0; r <= RINGS; r++) {
      const theta = (Math.PI * r) / RINGS; // from the top
      for (let s = 0; s <= SEGMENTS; s++) {
        const phi = (2 * Math.PI * s) / SEGMENTS;
        const n = [Math.sin(theta) * Math.cos(phi), Math.cos(theta), Math.sin(theta) * Math.sin(phi)];
        w.f32(b.centre[0] + b.radius * n[0], b.centre[1] + b.radius * n[1], b.centre[2] + b.radius * n[2]);
        w.f32(n[0], n[1], n[2]);
        w.f32(s / SEGMENTS, r / RINGS);
        if (addUv) w.f32(...(b.uv1 ?? [0, 0]), 0, 0);
        w.u8(0).u8(0); // BDEF1, bone 0
        w.f32(1); // edge scale
      }
    }
  }
  // Triangles wound so that MMD's front faces face outward (MMD: clockwise seen from the front, left-handed).
  const tris = 2 * RINGS * SEGMENTS;
  w.i32(3 * tris * balls.length);
  balls.forEach((_, k) => {
    const base = k * perBall;
    const at = (r: number, s: number) => base + r * (SEGMENTS + 1) + s;
    for (let r = 0; r < RINGS; r++)
      for (let s = 0; s < SEGMENTS; s++) {
        const a = at(r, s), b = at(r + 1, s), c = at(r + 1, s + 1), d = at(r, s + 1);
        w.i32(a, c, b, a, d, c);
      }
  });
  w.i32(textures.length);
  for (const t of textures) w.text(t);
  w.i32(balls.length);
  balls.forEach((b, k) => {
    w.text(`ball${k}`).text(`ball${k}`);
    w.f32(...b.diffuse).f32(...(b.specular ?? [0, 0, 0])).f32(b.power ?? 0).f32(...b.ambient).u8(b.flags);
    w.f32(...(b.edgeColor ?? [0, 0, 0, 1])).f32(b.edgeSize ?? 1);
    w.u8(b.texture ?? 0xff).u8(b.sphere?.texture ?? 0xff).u8(b.sphere?.mode ?? 0); // the texture and the sphere (or none)
    if (b.toon && 'shared' in b.toon) w.u8(1).u8(b.toon.shared);
    else w.u8(0).u8(b.toon ? b.toon.texture : 0xff);
    w.text('').i32(3 * tris);
  });
  w.i32(1);
  w.text('センター').text('center').f32(0, 0, 0).u8(0xff).i32(0).u16(0x001e).f32(0, 1, 0);
  w.i32(tints.length + uv1Morphs.length); // morphs: material morphs (panel 4, type 8), one multiply offset each
  for (const m of tints) {
    w.text(m.name).text(m.name).u8(4).u8(8).i32(1).u8(m.ball).u8(0);
    w.f32(1, 1, 1, 1).f32(1, 1, 1).f32(1).f32(1, 1, 1).f32(1, 1, 1, 1).f32(1); // diffuse, specular, power, ambient, edge
    w.f32(...m.textureTint).f32(1, 1, 1, 1).f32(1, 1, 1, 1); // texture, sphere and toon tints
  }
  for (const m of uv1Morphs) {
    // UV1 morphs (panel 4, type 4): every vertex of the ball.
    w.text(m.name).text(m.name).u8(4).u8(4).i32(perBall);
    for (let v = 0; v < perBall; v++) w.i32(m.ball * perBall + v).f32(...m.offset, 0, 0);
  }
  w.i32(0); // display frames
  w.i32(0); // rigid bodies
  w.i32(0); // joints
  return w.build();
}
