/**
 * What retargeting does to each bone of the target, decided once from the two models and the motion's
 * track names (no sampling here):
 *
 * - `plain`: the target bone has a source bone whose track plays the same on it (same parent relation,
 *   nothing folded into it, no arm compensation, no scaling, and any append bone above it taking the same
 *   share of the same bone on both models): its records are copied byte for byte (only the name changes
 *   where the target spells it differently).
 * - `computed`: world matching. The bone's world rotation on the target is the source's world rotation
 *   of its representative bone (itself, or the deepest source bone folded into it: 上半身2 into 上半身,
 *   腕捩 into 腕, 手捩 into ひじ, グルーブ into センター, 足D/ひざD/足首D into 足/ひざ/足首, 足捩/ひざ捩 into 足/ひざ, 足先EX into
 *   つま先), turned by the arm compensation C for bones of an arm: W_t = W_s(rep) ⊗ C. Its local key is
 *   that world rotation under its target parent's, so source bones the target lacks above it (全ての親,
 *   腰, 腰キャンセル, 親指０, 肩P …) fold into it, and the world pose of every target bone is the source's.
 *   A translatable bone also gets a translation: the source representative's displacement from rest in
 *   its anchor's frame (the nearest target ancestor with a source bone), scaled by the leg-length ratio
 *   for センター, グルーブ, 全ての親, 腰 and the leg IK bones.
 * - `copy`: records copied as they are: a target bone whose rotation an append (付与) drives, keyed in
 *   the motion; or a motion track whose bone the source model lacks but the target has (fingers of a
 *   full model played through a low-poly source, say).
 * - `none`: the target bone rests (the motion says nothing about it).
 *
 * Computed keys take the physics on/off state (bytes 2–3) of the bone's own source track in force at
 * their frame, with a key where it changes. The target's IK solves its own legs: the source is posed with
 * IK off, so IK link bones take their keyed rotations, not the source's solved ones.
 */
import { BONE_FLAG, type ModelBone } from '../pmx/model-types';
import { matchKey } from '../pmx/model-inspect';
import type { Skeleton } from '../skeleton';
import { BoneNameIndex, canonicalBoneName, matchBones, type BoneMatch } from './bone-names';
import { armCompensation, measureRest, type RestMeasures } from './proportions';

export type TargetKind = 'plain' | 'computed' | 'copy' | 'none';

/** Semi-standard bones that fold into the bone above them in the chain when the target lacks them (canonical names). */
export const FOLD_CHAINS: ReadonlyArray<{ chain: readonly string[]; sided: boolean }> = [
  { chain: ['センター', 'グルーブ'], sided: false },
  { chain: ['上半身', '上半身2', '上半身3'], sided: false },
  { chain: ['腕', '腕捩'], sided: true },
  { chain: ['ひじ', '手捩'], sided: true },
  { chain: ['足', '足d', '足捩'], sided: true },
  { chain: ['ひざ', 'ひざd', 'ひざ捩'], sided: true },
  { chain: ['足首', '足首d'], sided: true },
  { chain: ['つま先', '足先ex'], sided: true },
];

/** Bones whose translation scales with the leg length (canonical names, without side). */
export const SCALED_BONES: ReadonlySet<string> = new Set(['全ての親', 'センター', 'グルーブ', '腰', '足ik', 'つま先ik']);

export interface RetargetPlan {
  source: Skeleton;
  target: Skeleton;
  sourceRest: RestMeasures;
  targetRest: RestMeasures;
  /** Target leg length over source leg length (1 with scaling off or a model without legs). */
  legRatio: number;
  match: BoneMatch;
  /** Per target bone: the source bone matched to it by name, or −1. */
  targetToSource: Int32Array;
  /** Per target bone: the source bone whose world rotation it takes (its match, or the deepest bone folded into it), or −1. */
  rep: Int32Array;
  /** Per target bone: the nearest target ancestor with a source bone (rep ≥ 0), or −1. */
  anchor: Int32Array;
  kind: TargetKind[];
  /** Per target bone: the motion track it copies or is computed from (plain/copy), −1 otherwise. */
  track: Int32Array;
  /** Per target bone: whether it gets a translation (computed bones that may move). */
  translated: Uint8Array;
  /** Per target bone: translation scale (the leg ratio for SCALED_BONES, else 1). */
  scale: Float64Array;
  /** Per target bone: arm compensation quaternion (4 per bone; identity outside the arms). */
  compensation: Float64Array;
  /** Arm compensation angles, degrees. */
  armCompensationDeg: { left: number; right: number };
  /** Per source bone: the motion track keying it (the last one, as the player does), or −1. */
  sourceTrack: Int32Array;
  /** Motion tracks (by index) that no target bone takes and that nothing folds: their names. */
  unmatchedTracks: number[];
  /** Motion tracks of source bones the target lacks whose motion reaches target bones: track → target bones it folds into. */
  folded: Map<number, number[]>;
}

const hasAppend = (b: ModelBone) => b.appendParent >= 0 && (b.flags & (BONE_FLAG.APPEND_ROTATE | BONE_FLAG.APPEND_TRANSLATE)) !== 0;

function canonicalIndex(bones: readonly ModelBone[]): Map<string, number> {
  const m = new Map<string, number>();
  bones.forEach((b, i) => {
    const k = canonicalBoneName(b.name);
    if (!m.has(k)) m.set(k, i);
  });
  return m;
}

export interface PlanOptions {
  /** Source bone name → target bone name, ahead of name matching (the rename map format's bones). */
  boneMap?: ReadonlyMap<string, string>;
  /** Scale センター/グルーブ/IK translations by the leg-length ratio (default true). */
  scale?: boolean;
}

/**
 * Plans a retarget of a motion whose bone tracks are `trackNames` (with their key counts), made for the
 * `source` skeleton, onto the `target` skeleton.
 */
export function planRetarget(source: Skeleton, target: Skeleton, trackNames: readonly string[], opts: PlanOptions = {}): RetargetPlan {
  const sb = source.bones, tb = target.bones;
  const nS = source.count, nT = target.count;
  // Names the motion keys that the source model lacks: a target bone of such a name takes that track (copied
  // below), never another source bone by an alias (matchBones' exactOnly).
  const ownNames = new Set<string>();
  for (const n of trackNames) if (!source.byKey.has(matchKey(n))) ownNames.add(matchKey(n));
  const match = matchBones(sb, tb, opts.boneMap, ownNames);
  const targetToSource = new Int32Array(nT).fill(-1);
  for (let s = 0; s < nS; s++) if (match.target[s] >= 0) targetToSource[match.target[s]] = s;
  const rep = Int32Array.from(targetToSource);

  // Fold-down: a semi-standard bone the target lacks gives its world rotation to the bone above it.
  const sIdx = canonicalIndex(sb), tIdx = canonicalIndex(tb);
  for (const { chain, sided } of FOLD_CHAINS) {
    for (const side of sided ? ['左', '右'] : ['']) {
      // The chain's head on the target: matched, or one the source has no bone for (the target's つま先
      // takes the source's 足先EX when the source has no つま先).
      let cur = tIdx.get(side + chain[0]) ?? -1;
      if (cur >= 0 && targetToSource[cur] < 0 && sIdx.has(side + chain[0])) cur = -1;
      for (let k = 1; k < chain.length; k++) {
        const t = tIdx.get(side + chain[k]) ?? -1;
        const s = sIdx.get(side + chain[k]) ?? -1;
        if (t >= 0 && targetToSource[t] >= 0) cur = t;
        else if (s >= 0 && match.target[s] < 0 && cur >= 0) rep[cur] = s;
      }
    }
  }

  const anchor = new Int32Array(nT).fill(-1);
  for (let t = 0; t < nT; t++) {
    let a = target.parent[t];
    while (a >= 0 && rep[a] < 0) a = target.parent[a];
    anchor[t] = a;
  }

  // Arm compensation: every target bone below (and including) 腕 of a side.
  const sourceRest = measureRest(sb), targetRest = measureRest(tb);
  const compensation = new Float64Array(4 * nT);
  for (let t = 0; t < nT; t++) compensation[4 * t + 3] = 1;
  const armDeg = { left: 0, right: 0 };
  for (const [side, jp] of [['left', '左'], ['right', '右']] as const) {
    const c = armCompensation(sourceRest, targetRest, side);
    armDeg[side] = (2 * Math.atan2(Math.hypot(c[0], c[1], c[2]), Math.abs(c[3])) * 180) / Math.PI;
    if (c[3] === 1) continue;
    const arm = tIdx.get(jp + '腕') ?? -1;
    if (arm < 0) continue;
    const stack = [arm];
    while (stack.length) {
      const b = stack.pop()!;
      compensation.set(c, 4 * b);
      for (const ch of target.children[b]) stack.push(ch);
    }
  }
  const isIdentity = (t: number) => compensation[4 * t + 3] === 1;

  const scaleOn = opts.scale !== false;
  const ls = sourceRest.legLength, lt = targetRest.legLength;
  const legRatio = scaleOn && ls && lt ? lt / ls : 1;
  const scale = new Float64Array(nT).fill(1);
  const translated = new Uint8Array(nT);
  for (let t = 0; t < nT; t++) {
    if (SCALED_BONES.has(canonicalBoneName(tb[t].name).replace(/^[左右]/, ''))) scale[t] = legRatio;
    translated[t] = tb[t].flags & BONE_FLAG.TRANSLATABLE ? 1 : 0;
  }

  // Motion tracks → source bones (the player's rule: matchKey, a later track of a bone wins).
  const sourceTrack = new Int32Array(nS).fill(-1);
  const trackSource = new Int32Array(trackNames.length).fill(-1);
  trackNames.forEach((n, k) => {
    const s = source.byKey.get(matchKey(n));
    if (s !== undefined) {
      sourceTrack[s] = k;
      trackSource[k] = s;
    }
  });
  const keyed = (s: number) => s >= 0 && sourceTrack[s] >= 0;

  // An append bone of the target turns as its source counterpart does when both take the same share of
  // the same bone (the same model, or two of one family): then it passes the parent relation on unchanged.
  const APPEND_FLAGS = BONE_FLAG.APPEND_ROTATE | BONE_FLAG.APPEND_TRANSLATE | BONE_FLAG.APPEND_LOCAL;
  const sameAppend = (t: number): boolean => {
    const b = tb[t];
    if (!hasAppend(b)) return true;
    const s = rep[t];
    if (s < 0 || !hasAppend(sb[s])) return false;
    return targetToSource[b.appendParent] === sb[s].appendParent && b.appendRatio === sb[s].appendRatio && (b.flags & APPEND_FLAGS) === (sb[s].flags & APPEND_FLAGS);
  };
  const kind: TargetKind[] = new Array(nT).fill('none');
  const track = new Int32Array(nT).fill(-1);
  for (let t = 0; t < nT; t++) {
    // A bone only a fold gives a source bone plays that bone (its own bone, as it were).
    const s = targetToSource[t] >= 0 ? targetToSource[t] : rep[t];
    if (s < 0) continue;
    if (hasAppend(tb[t])) {
      if (keyed(s)) {
        kind[t] = 'copy';
        track[t] = sourceTrack[s];
      }
      continue;
    }
    const a = anchor[t];
    // Target bones between t and its anchor must rest for the source's parent relation to carry over.
    let between = target.parent[t];
    let restBetween = true;
    while (between >= 0 && between !== a) {
      if (hasAppend(tb[between])) restBetween = false;
      between = target.parent[between];
    }
    const plain =
      rep[t] === s &&
      !hasAppend(sb[s]) &&
      isIdentity(t) &&
      (a < 0 || (isIdentity(a) && sameAppend(a))) &&
      (scale[t] === 1 || !translated[t]) &&
      restBetween &&
      source.parent[s] === (a >= 0 ? rep[a] : -1);
    if (plain) {
      if (keyed(s)) {
        kind[t] = 'plain';
        track[t] = sourceTrack[s];
      }
      continue;
    }
    kind[t] = 'computed';
  }

  // Tracks of bones the source model lacks: copied where the target has the bone and nothing else keys it.
  const tNames = new BoneNameIndex(tb);
  const mapped = new Map<string, string>();
  if (opts.boneMap) for (const [k, v] of opts.boneMap) mapped.set(matchKey(k), v);
  const used = new Set<number>();
  for (let t = 0; t < nT; t++) if (track[t] >= 0) used.add(track[t]);
  trackNames.forEach((n, k) => {
    if (trackSource[k] >= 0) return;
    const m = mapped.get(matchKey(n));
    const t = m !== undefined ? tNames.find(m) : tNames.find(n);
    if (t < 0 || kind[t] !== 'none' || targetToSource[t] >= 0) return;
    kind[t] = 'copy';
    track[t] = k;
    used.add(k);
  });

  // Folded: keyed source bones the target lacks, on the source chain of a computed target bone
  // (between its anchor's representative and its own representative), or append sources of those.
  const folded = new Map<number, number[]>();
  const note = (s: number, t: number) => {
    const k = sourceTrack[s];
    if (k < 0 || match.target[s] >= 0) return;
    let l = folded.get(k);
    if (!l) folded.set(k, (l = []));
    if (!l.includes(t)) l.push(t);
  };
  // An append source's chain ends at a bone that is some target bone's representative: above it, the motion is that bone's.
  const reps = new Set<number>();
  for (let t = 0; t < nT; t++) if (rep[t] >= 0) reps.add(rep[t]);
  for (let t = 0; t < nT; t++) {
    if (kind[t] !== 'computed') continue;
    const stop = anchor[t] >= 0 ? rep[anchor[t]] : -1;
    const seen = new Set<number>();
    const visit = (s: number, viaAppend: boolean) => {
      for (let b = s; b >= 0 && b !== stop && !seen.has(b) && !(viaAppend && reps.has(b)); b = source.parent[b]) {
        seen.add(b);
        note(b, t);
        const ap = sb[b].appendParent;
        if (hasAppend(sb[b]) && ap >= 0 && ap < nS) visit(ap, true);
      }
    };
    visit(rep[t], false);
  }
  const unmatchedTracks: number[] = [];
  trackNames.forEach((_, k) => {
    if (used.has(k) || folded.has(k)) return;
    const s = trackSource[k];
    if (s >= 0 && match.target[s] >= 0 && kind[match.target[s]] === 'computed') return;
    unmatchedTracks.push(k);
  });

  return {
    source,
    target,
    sourceRest,
    targetRest,
    legRatio,
    match,
    targetToSource,
    rep,
    anchor,
    kind,
    track,
    translated,
    scale,
    compensation,
    armCompensationDeg: armDeg,
    sourceTrack,
    unmatchedTracks,
    folded,
  };
}
