/**
 * How far a motion carries its model across the floor: the range of its センター and 全ての親 keys' X and Z
 * (MMD units, the actor's own frame). A VMD segment's curve only eases between its two keys, so the keys'
 * range is the path's. The preview's framing (renderer/src/preview/scene-actors.ts) adds it to a model's
 * rest footprint, so a walk imported from a capture is in view along its whole path, not only at frame 0.
 */
import type { BoneTracks } from '../vmd/tracks';
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
