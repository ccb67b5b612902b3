/**
 * Bone morphs (PMX) on a pose, the one implementation of MMD's rule: the preview (renderer/src/preview/
 * morph-effects.ts) and every engine that poses a model outside it (MotionPoser: the physics simulation and
 * bake, the CLI) call it.
 *
 * MMD rule — a bone morph at weight w adds to its bones' local transforms as the motion samples them, before
 * append and IK read them: translation += w·t, rotation = slerp(identity, q, w) ⊗ rotation. Group morphs reach
 * their members with their weights multiplied (nested groups multiply again). All in MMD coordinates.
 */
import { drawsSubTexture, type ModelData, type ModelMorph } from '../pmx/model-types';
import { matchKey } from '../pmx/model-inspect';
import { qmulInto } from './quat';

/** Deepest group nesting followed (group cycles are malformed: the walk stops there). */
export const MORPH_GROUP_DEPTH = 8;

/**
 * Calls `leaf(morph index, factor)` for every non-group morph that morph `mi` reaches at factor `factor`:
 * itself, or a group's members with the group's weights multiplied in (to MORPH_GROUP_DEPTH levels).
 */
export function expandMorph(morphs: readonly ModelMorph[], mi: number, factor: number, leaf: (mi: number, factor: number) => void, depth = 0): void {
  const m = morphs[mi];
  if (!m || depth > MORPH_GROUP_DEPTH) return;
  if (m.kind === 'group') {
    if (m.group) for (let k = 0; k < m.group.indices.length; k++) expandMorph(morphs, m.group.indices[k], factor * m.group.weights[k], leaf, depth + 1);
  } else leaf(mi, factor);
}

/** Whether a motion may key this morph: PMD's "base" (panel 0) is the vertex table of the others, not a morph. */
export function keyableMorph(model: Pick<ModelData, 'format'>, m: ModelMorph): boolean {
  return !(model.format === 'pmd' && m.panel === 0);
}

/** One bone morph's offsets as applied: rotations unit length (a zero quaternion, no rotation given, as identity). */
export interface BoneMorphOffsets {
  bones: Int32Array;
  /** (x, y, z) per offset. */
  translations: Float64Array;
  /** Unit (x, y, z, w) per offset. */
  rotations: Float64Array;
}

export function boneMorphOffsets(m: ModelMorph): BoneMorphOffsets | null {
  if (m.kind !== 'bone' || !m.bone || m.count === 0) return null;
  const n = m.bone.indices.length, mr = m.bone.rotations;
  const rotations = new Float64Array(4 * n);
  for (let k = 0; k < n; k++) {
    const x = mr[4 * k], y = mr[4 * k + 1], z = mr[4 * k + 2], w = mr[4 * k + 3];
    const len = Math.hypot(x, y, z, w);
    if (len > 1e-9) rotations.set([x / len, y / len, z / len, w / len], 4 * k);
    else rotations.set([0, 0, 0, 1], 4 * k);
  }
  return { bones: m.bone.indices, translations: Float64Array.from(m.bone.translations), rotations };
}

const S = new Float64Array(4);

/**
 * slerp(identity, q, w) into S: the shorter way round (q and −q are one rotation), and for angles under
 * about 3.6° (cos of half the angle ≥ 0.9995) a normalised linear blend, as three.js's slerp does.
 */
function slerpFromIdentity(q: Float64Array, o: number, w: number): void {
  let x = q[o], y = q[o + 1], z = q[o + 2], qw = q[o + 3];
  let dot = qw;
  if (dot < 0) { x = -x; y = -y; z = -z; qw = -qw; dot = -dot; }
  let s = 1 - w, t = w;
  const near = dot >= 0.9995;
  if (!near) {
    const theta = Math.acos(dot), sin = Math.sin(theta);
    s = Math.sin(s * theta) / sin;
    t = Math.sin(t * theta) / sin;
  }
  S[0] = x * t; S[1] = y * t; S[2] = z * t; S[3] = s + qw * t;
  if (!near) return;
  const l = Math.hypot(S[0], S[1], S[2], S[3]);
  if (l > 0) for (let k = 0; k < 4; k++) S[k] /= l;
  else { S[0] = S[1] = S[2] = 0; S[3] = 1; }
}

/**
 * MMD rule — bone morphs: adds one bone morph at weight w to local transforms T (3 per bone) and R (4 per
 * bone, x y z w), MMD coordinates: T += w·t, R = slerp(identity, q, w) ⊗ R. Bones out of range are skipped.
 */
export function applyBoneMorph(d: BoneMorphOffsets, w: number, T: Float64Array, R: Float64Array): void {
  if (w === 0) return;
  const n = R.length >> 2;
  for (let k = 0; k < d.bones.length; k++) {
    const b = d.bones[k];
    if (b < 0 || b >= n) continue;
    T[3 * b] += w * d.translations[3 * k];
    T[3 * b + 1] += w * d.translations[3 * k + 1];
    T[3 * b + 2] += w * d.translations[3 * k + 2];
    slerpFromIdentity(d.rotations, 4 * k, w);
    qmulInto(S, 0, R, 4 * b, R, 4 * b);
  }
}

/**
 * A model's bone morphs keyed from a motion's morph tracks: per track, the bone morphs it reaches with their
 * factors. Which model morph a track name means: the first keyable morph of that name that reaches anything
 * (a vertex, bone, material or UV morph with offsets), as the preview binds names (model-mesh.ts).
 */
export class MotionBoneMorphs {
  private readonly offsets: BoneMorphOffsets[] = [];
  /** Per motion morph track: (offset index, factor) pairs. */
  private readonly reach: { at: number[]; factor: number[] }[];
  /** Weight per bone morph for the frame being posed. */
  private readonly weights: Float64Array;
  /** Whether any track reaches a bone morph (else apply does nothing). */
  readonly any: boolean;

  /** `trackNames`: the motion's morph track names; null for a track that is to reach nothing. */
  constructor(model: MorphModel, trackNames: readonly (string | null)[]) {
    const slot = new Map<number, number>();
    model.morphs.forEach((m, mi) => {
      const d = boneMorphOffsets(m);
      if (d) { slot.set(mi, this.offsets.length); this.offsets.push(d); }
    });
    const byKey = morphIndexByName(model);
    this.reach = trackNames.map((name) => {
      const r = { at: [] as number[], factor: [] as number[] };
      const mi = name === null ? undefined : byKey.get(matchKey(name));
      if (mi !== undefined) expandMorph(model.morphs, mi, 1, (leaf, f) => {
        const s = slot.get(leaf);
        if (s !== undefined) { r.at.push(s); r.factor.push(f); }
      });
      return r;
    });
    this.weights = new Float64Array(this.offsets.length);
    this.any = this.reach.some((r) => r.at.length > 0);
  }

  /**
   * The bone morphs at the tracks' weights as offsets from rest, into T (3 per bone: Σ w·t) and R (4 per bone:
   * the turns composed, as apply composes them); bones no morph reaches get 0 and identity. A solver that keys
   * what plays takes these back out of each key (T − Σ w·t, conj(turns) ⊗ R).
   */
  fromRest(weightOf: (track: number) => number, T: Float64Array, R: Float64Array): void {
    T.fill(0);
    for (let i = 0; i < R.length; i += 4) { R[i] = R[i + 1] = R[i + 2] = 0; R[i + 3] = 1; }
    this.apply(weightOf, T, R);
  }

  /** Adds the bone morphs at the tracks' weights (`weightOf(track)`) to local transforms T, R. */
  apply(weightOf: (track: number) => number, T: Float64Array, R: Float64Array): void {
    if (!this.any) return;
    const W = this.weights;
    W.fill(0);
    for (let t = 0; t < this.reach.length; t++) {
      const r = this.reach[t];
      if (r.at.length === 0) continue;
      const w = weightOf(t);
      if (w === 0) continue;
      for (let k = 0; k < r.at.length; k++) W[r.at[k]] += w * r.factor[k];
    }
    for (let s = 0; s < this.offsets.length; s++) applyBoneMorph(this.offsets[s], W[s], T, R);
  }
}

/** The model parts that say which morphs move something drawn. */
export type MorphModel = Pick<ModelData, 'format' | 'morphs'> & Partial<Pick<ModelData, 'materials' | 'uv1'>>;

/**
 * Whether a non-group morph moves anything the preview draws: a vertex morph, or a bone, material or base-UV
 * morph with offsets, or a uv1 morph where the model draws a sub-texture (drawsSubTexture).
 */
export function morphReachesAnything(model: MorphModel, m: ModelMorph): boolean {
  if (m.kind === 'vertex') return m.vertex !== null;
  if (m.count === 0) return false;
  if (m.kind === 'uv1') return m.uv !== null && drawsSubTexture(model);
  return (m.kind === 'bone' && m.bone !== null) || (m.kind === 'material' && m.material !== null) || (m.kind === 'uv' && m.uv !== null);
}

/**
 * Motion morph name (matching key) → model morph index: the first keyable morph of that name whose expansion
 * reaches anything (morphReachesAnything).
 */
export function morphIndexByName(model: MorphModel): Map<string, number> {
  const out = new Map<string, number>();
  model.morphs.forEach((m, mi) => {
    if (!keyableMorph(model, m)) return;
    const key = matchKey(m.name);
    if (out.has(key)) return;
    let reaches = false;
    expandMorph(model.morphs, mi, 1, (leaf) => { reaches ||= morphReachesAnything(model, model.morphs[leaf]); });
    if (reaches) out.set(key, mi);
  });
  return out;
}
