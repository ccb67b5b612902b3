/**
 * Which of a model's bones one can see move: those that deform vertices (a skin weight above 0) or that the
 * model displays (PMX's visible flag, what PMX Editor and MMD draw and let one select). Physics models also
 * have helper bones with neither, such as the weights (錘) hanging below a cloak: they move most in a bake but
 * show nothing, so a plot of "the bone that moves most" should not pick one.
 */
import { BONE_FLAG, type ModelData } from './model-types';

/** Per bone: 1 when it deforms a vertex or is displayed, else 0. */
export function seenBoneMask(model: Pick<ModelData, 'bones' | 'skinIndices' | 'skinWeights'>): Uint8Array {
  const seen = new Uint8Array(model.bones.length);
  const idx = model.skinIndices, w = model.skinWeights;
  for (let i = 0; i < w.length; i++) if (w[i] > 0 && idx[i] < seen.length) seen[idx[i]] = 1;
  model.bones.forEach((b, i) => {
    if (b.flags & BONE_FLAG.VISIBLE) seen[i] = 1;
  });
  return seen;
}

/** Of `names` (in their order), those of bones the model shows (seenBoneMask); a name the model lacks is left out. */
export function seenBones(model: Pick<ModelData, 'bones' | 'skinIndices' | 'skinWeights'>, names: readonly string[]): string[] {
  const mask = seenBoneMask(model);
  const index = new Map<string, number>();
  model.bones.forEach((b, i) => {
    if (!index.has(b.name)) index.set(b.name, i);
  });
  return names.filter((n) => {
    const i = index.get(n);
    return i !== undefined && mask[i] === 1;
  });
}
