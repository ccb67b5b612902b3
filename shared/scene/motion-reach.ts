/**
 * How far a motion carries its model across the floor: the range of its センター and 全ての親 keys' X and Z
 * (MMD units, the actor's own frame). A VMD segment's curve only eases between its two keys, so the keys'
 * range is the path's. The preview's framing (renderer/src/preview/scene-actors.ts) adds it to a model's
 * rest footprint, so a walk imported from a capture is in view along its whole path, not only at frame 0.
 */
import type { BoneTracks } from '../vmd/tracks';
import { sampleBoneInto } from '../vmd/sample';
import type { Footprint } from './place-beside';

/** Bones whose translation moves the whole body (the others move under them). */
const BODY_MOVERS = ['センター', '全ての親'] as const;

/** The X/Z range the body moves through ({0,0,0,0} for a motion that keeps it in place). */
export function motionReach(bones: BoneTracks): Footprint {
  const r: Footprint = { minX: 0, maxX: 0, minZ: 0, maxZ: 0 };
  for (const name of BODY_MOVERS) {
    const t = bones.names.indexOf(name);
    if (t < 0) continue;
    let x0 = 0, x1 = 0, z0 = 0, z1 = 0;
    for (let k = bones.start[t]; k < bones.start[t + 1]; k++) {
      const x = bones.position[3 * k], z = bones.position[3 * k + 2];
      if (!Number.isFinite(x) || !Number.isFinite(z)) continue;
      x0 = Math.min(x0, x); x1 = Math.max(x1, x);
      z0 = Math.min(z0, z); z1 = Math.max(z1, z);
    }
    // Two movers add: the widest the sum can reach.
    r.minX += x0; r.maxX += x1; r.minZ += z0; r.maxZ += z1;
  }
  return r;
}

/**
 * The reach as seen from where the body stands at frame `f` (motionReach less the センター and 全ての親 positions
 * there): what to add to a box that already holds the body at frame f (a model's posed box), so the path is
 * counted once. Frame All Actors added the whole path to a posed box that held frame f's place already, and a
 * walk was framed too wide by as far as it had walked.
 */
export function motionReachFrom(bones: BoneTracks, f: number): Footprint {
  const r = motionReach(bones);
  const pos = new Float64Array(3), rot = new Float64Array(4);
  for (const name of BODY_MOVERS) {
    const t = bones.names.indexOf(name);
    if (t < 0 || bones.start[t] === bones.start[t + 1]) continue;
    sampleBoneInto(bones, t, f, pos, rot, 0);
    const x = Number.isFinite(pos[0]) ? pos[0] : 0, z = Number.isFinite(pos[2]) ? pos[2] : 0;
    r.minX -= x; r.maxX -= x; r.minZ -= z; r.maxZ -= z;
  }
  // The place at f lies inside the range (a key's value or between two), so 0 stays inside: a hair of rounding aside.
  r.minX = Math.min(r.minX, 0); r.maxX = Math.max(r.maxX, 0); r.minZ = Math.min(r.minZ, 0); r.maxZ = Math.max(r.maxZ, 0);
  return r;
}

/** A reach turned by an actor's stage turn (degrees about Y, as the preview turns the model), as a box again. */
export function turnReach(f: Footprint, turnDeg: number): Footprint {
  if (!turnDeg) return f;
  // The preview turns the model by −turn about three.js's Y, whose Z is MMD's −Z (companion-actors.ts
  // placeObject): in MMD's X/Z, x' = x cos a + z sin a, z' = −x sin a + z cos a with a = turn.
  const a = (turnDeg * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
  const out: Footprint = { minX: Infinity, maxX: -Infinity, minZ: Infinity, maxZ: -Infinity };
  for (const x of [f.minX, f.maxX])
    for (const z of [f.minZ, f.maxZ]) {
      const X = x * c + z * s, Z = -x * s + z * c;
      out.minX = Math.min(out.minX, X); out.maxX = Math.max(out.maxX, X);
      out.minZ = Math.min(out.minZ, Z); out.maxZ = Math.max(out.maxZ, Z);
    }
  return out;
}
