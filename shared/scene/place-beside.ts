/**
 * Where a newly added actor stands (stores/scene.ts addImported): beside the actors already in the scene, to
 * their right (+X), clear of the widest of them by BESIDE_GAP, instead of at the origin inside the first one.
 * Only the actor's stage (the scene file's actors[].stage) says so: its motion's keys are not touched.
 */
import type { ActorStage } from './scene-file';

/** An actor's room on the floor at rest, in its own space (before its stage): MMD units and axes. */
export interface Footprint {
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
  /** How low and how high it reaches (its model's box; Frame All Actors fits a tall or small model whole), when known. */
  minY?: number;
  maxY?: number;
}

/** The room between the new actor and the one it stands beside, in MMD units (about 16 cm). */
export const BESIDE_GAP = 2;

/** What a model is taken to span when its own size is not known (not built yet, hidden): MMD units. */
export const DEFAULT_FOOTPRINT: Footprint = { minX: -5, maxX: 5, minZ: -3, maxZ: 3 };

/** The X extent an actor takes where it stands: its footprint turned as its stage turns it, moved there. */
function standingX(stage: ActorStage | undefined, f: Footprint): [number, number] {
  const x = stage?.position[0] ?? 0;
  const turn = ((stage?.turn ?? 0) * Math.PI) / 180;
  if (turn === 0) return [x + f.minX, x + f.maxX];
  const c = Math.cos(turn), s = Math.sin(turn);
  let lo = Infinity, hi = -Infinity;
  // A turn about the vertical axis: the four corners' X, whichever way the turn goes (either sign of s).
  for (const [px, pz] of [[f.minX, f.minZ], [f.minX, f.maxZ], [f.maxX, f.minZ], [f.maxX, f.maxZ]]) {
    for (const v of [px * c + pz * s, px * c - pz * s]) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  return [x + lo, x + hi];
}

/**
 * The stage for a new actor whose footprint is `mine` (null: not known), beside `others` (each with its stage and
 * footprint, null where not known): X just past the right-most reach of them plus BESIDE_GAP, rounded up to a
 * tenth; Y and Z 0, no turn. Undefined when there is no one to stand beside (the origin).
 */
export function placeBeside(others: readonly { stage?: ActorStage; footprint: Footprint | null }[], mine: Footprint | null): ActorStage | undefined {
  if (!others.length) return undefined;
  const known = others.map((o) => o.footprint).find((f) => f) ?? null;
  const own = mine ?? known ?? DEFAULT_FOOTPRINT;
  let right = -Infinity;
  for (const o of others) right = Math.max(right, standingX(o.stage, o.footprint ?? own)[1]);
  // Up to a tenth (a turn's cosine leaves 1e-16 behind: not a tenth more for it).
  const x = Math.ceil((right + BESIDE_GAP - own.minX) * 10 - 1e-9) / 10;
  return { position: [x, 0, 0], turn: 0 };
}
