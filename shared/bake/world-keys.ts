/**
 * The part every bake shares (physics bake, IK bake): bones given a world transform at every frame of a range,
 * written as keys that put them there when the output plays, and the output measured against those targets.
 *
 *  - Chains are fitted parent first, and each bone's keys are the local transform that puts it at its target
 *    world transform under its parent *as the fitted keys play it*: a parent's fitting error is absorbed by its
 *    child instead of adding up down a chain.
 *  - A key is what the player turns *before* a bone's append (付与) and bone morphs: the bone's append turn (its
 *    source's solved rotation, as the output plays it, to the ratio) and the turns and moves of the bone morphs
 *    the motion keys are taken back out of the local transform, so the player's adding them again puts the bone
 *    where it should be. An append source is fitted before the bones that read it. (An append source evaluated
 *    after its bone in MMD's order is read by the player from the frame before: not followed here; the measure
 *    would show it. The local-append flag is not read, as by shared/skeleton.)
 *  - The tolerance is met in world space: a bone's world rotation error is its key's rotation error, and its world
 *    position error the length of its key's position error, so each position axis is fitted within U/√3.
 *  - By default the per-frame values are reduced by the fitting engine (shared/fit's fitWindow, at the integer
 *    frames the targets are defined at); `raw` keeps one key per frame.
 *  - The measure plays the output with shared/skeleton's MotionPoser (the keys, then IK as the output's IK keys
 *    switch it) at every frame and compares with the targets: it does not trust the fitter's own estimate.
 */
import { fitWindow, type SampledWindow } from '../fit/track-fit';
import { buildBoneInterpolation, PHYSICS_ON } from '../vmd/interpolation';
import { LINEAR_CURVE, type Curve } from '../vmd/bezier';
import { buildTracks, type BoneTracks } from '../vmd/tracks';
import { blockFromRecords, ikBlockFromRecords, recordBytes, withBlocks, type VmdDocument } from '../vmd/vmd-document';
import { BONE } from '../vmd/vmd-layout';
import { decodeName } from '../vmd/sjis';
import { encodeBoneRecord } from '../vmd/vmd-build';
import { encodeSjis } from '../vmd/sjis';
import { matchKey } from '../pmx/model-inspect';
import type { ModelData } from '../pmx/model-types';
import { qmulInto as qmul, qconjMulInto, qinvRotInto } from '../skeleton/quat';
import { appendRotationOf, appendTranslationOf, appendTurnInto, MotionPoser, Pose, type Skeleton } from '../skeleton';

/** A bone name field of a VMD bone record (15 bytes). */
export const VMD_BONE_NAME_BYTES = 15;

/** Model bone → the first bone track of its name (matchKey), −1 where the motion has none. */
export function boneTrackMap(model: Pick<ModelData, 'bones'>, tracks: BoneTracks): Int32Array {
  const byKey = new Map<string, number>();
  tracks.names.forEach((n, t) => {
    const k = matchKey(n);
    if (!byKey.has(k)) byKey.set(k, t);
  });
  return Int32Array.from(model.bones, (b) => byKey.get(matchKey(b.name)) ?? -1);
}

/**
 * What a bake writes its keys into: `motion` without the keys of `bones` inside [from, to] (each handed to
 * `replaced`, with the bone block's bytes and the record's offset), its IK block replaced by `ikRecords` (the IK
 * switched off over the range), every other record as it was, in file order; `docWith(keys)` adds the baked keys.
 */
export function bakeBase(
  motion: VmdDocument,
  model: Pick<ModelData, 'bones'>,
  bones: readonly number[],
  from: number,
  to: number,
  ikRecords: readonly Uint8Array[],
  replaced?: (bytes: Uint8Array, offset: number) => void,
): { docWith: (keys: Uint8Array[]) => VmdDocument; replacedKeys: number } {
  const bakedKeys = new Set(bones.map((b) => matchKey(model.bones[b].name)));
  const kept: Uint8Array[] = [];
  let replacedKeys = 0;
  const block = motion.bone;
  for (let i = 0; i < block.count; i++) {
    const o = i * BONE.SIZE;
    const f = block.view.getUint32(o + BONE.FRAME, true);
    if (f >= from && f <= to && bakedKeys.has(matchKey(decodeName(block.bytes, o, BONE.NAME_LENGTH)))) {
      replacedKeys++;
      replaced?.(block.bytes, o);
      continue;
    }
    kept.push(recordBytes(block, i));
  }
  const base = withBlocks(motion, { ik: ikBlockFromRecords([...ikRecords]) });
  return { docWith: (keys) => withBlocks(base, { bone: blockFromRecords('bone', kept.concat(keys)) }), replacedKeys };
}

/** Bone i's name as a VMD's 15-byte field (the caller has checked it fits). */
export function boneNameField(name: string): Uint8Array {
  const field = new Uint8Array(VMD_BONE_NAME_BYTES);
  field.set(encodeSjis(name));
  return field;
}

/** The world transforms of `bones` (rotations made unit length: the motion's float32 keys are not quite) into out[o..], 7 per bone. */
export function readWorld(pose: Pose, bones: readonly number[], out: Float64Array, o: number): void {
  const w = pose.worldPosition, r = pose.worldRotation;
  for (let k = 0; k < bones.length; k++) {
    const b = bones[k], s = o + 7 * k;
    out[s] = w[3 * b]; out[s + 1] = w[3 * b + 1]; out[s + 2] = w[3 * b + 2];
    const len = Math.hypot(r[4 * b], r[4 * b + 1], r[4 * b + 2], r[4 * b + 3]) || 1;
    for (let c = 0; c < 4; c++) out[s + 3 + c] = r[4 * b + c] / len;
  }
}

/** The rotation angle between two unit quaternions, in degrees (stable near 0, unlike 2·acos(dot)). */
export function angleDeg(a: Float64Array, ao: number, b: Float64Array, bo: number): number {
  let d = 0, s = 0;
  for (let c = 0; c < 4; c++) {
    d += (a[ao + c] - b[bo + c]) ** 2;
    s += (a[ao + c] + b[bo + c]) ** 2;
  }
  return (4 * Math.atan2(Math.sqrt(Math.min(d, s)), Math.sqrt(Math.max(d, s))) * 180) / Math.PI;
}

/**
 * The order bones are fitted in: a bone after every baked bone its played transform is read from — its baked
 * ancestors, and the append (付与) sources its rotation or translation takes (and what theirs hang on). Without
 * appends that is the number of baked ancestors. A loop of sources (a damaged model) is cut where it closes.
 */
function generations(sk: Skeleton, bones: readonly number[]): number[] {
  const at = new Map(bones.map((b, k) => [b, k]));
  const memo = new Int32Array(bones.length).fill(-1);
  const gen = (k: number): number => {
    if (memo[k] >= 0) return memo[k];
    memo[k] = 0; // in progress: a loop back here counts nothing
    const seen = new Uint8Array(sk.count);
    const stack: number[] = [];
    const push = (i: number) => {
      if (i >= 0 && i < sk.count && !seen[i]) { seen[i] = 1; stack.push(i); }
    };
    const b = bones[k];
    seen[b] = 1;
    push(sk.parent[b]);
    const own = appendRotationOf(sk, b) ?? appendTranslationOf(sk, b);
    if (own) push(own.src);
    let g = 0;
    while (stack.length) {
      const i = stack.pop()!;
      const j = at.get(i);
      if (j !== undefined) g = Math.max(g, gen(j) + 1);
      push(sk.parent[i]);
      const a = appendRotationOf(sk, i) ?? appendTranslationOf(sk, i);
      if (a) push(a.src);
    }
    return (memo[k] = g);
  };
  return bones.map((_, k) => gen(k));
}

export interface WorldKeysJob {
  model: ModelData;
  sk: Skeleton;
  /** The bones to key (model indices) and their names as VMD fields (parallel). */
  bones: readonly number[];
  nameFields: readonly Uint8Array[];
  /** First frame of the range and its length: targets hold 7 numbers per bone per frame, frame-major. */
  from: number;
  frames: number;
  targets: Float64Array;
  /**
   * Local positions to key instead of the ones the world targets imply (3 per bone per frame, frame-major), as the
   * motion poses them (Pose.translation after MotionPoser.apply: keys plus bone morphs; the morphs are taken back
   * out here, the append translation is the player's to add): the IK bake keeps the motion's own translations (IK
   * turns bones, it does not move them), so only the rotations are fitted to the targets and a knee gets no
   * position keys of its own.
   */
  localPositions?: Float64Array;
  /** The output with the given bone records added (its other blocks, IK keys included, as it will be written). */
  docWith: (records: Uint8Array[]) => VmdDocument;
  /** The physics flag every key carries (PHYSICS_OFF for a physics bake; PHYSICS_ON otherwise). */
  flag?: readonly [number, number];
  raw?: boolean;
  positionTolerance: number;
  rotationToleranceDeg: number;
  /**
   * When given (7 per bone per frame, frame-major, as `targets`): filled with each bone's key value at every frame
   * (position x y z, rotation x y z w) — what `raw` keys, before the fitting reduces them. The IK bake's plot draws
   * these as the "before" curve; the CLI passes none and pays nothing.
   */
  perFrame?: Float64Array;
  /** Told after each bone is fitted (how many so far). */
  progress?: (fitted: number) => void;
  /** Polled between generations and bones: true stops the fit (null is returned). */
  cancelled?: () => boolean;
}

/**
 * Keys for `bones` that put each at its target world transform at every frame of the range, played in
 * `docWith(keys)` (see the file comment): fitted parents first, within the tolerances, or one per frame with
 * `raw`. Null when `cancelled` said stop.
 */
export function fitWorldKeys(job: WorldKeysJob): Uint8Array[] | null {
  const { sk, bones, targets: simW, from, model } = job;
  const n = job.frames, nb = bones.length;
  const flag = job.flag ?? PHYSICS_ON;
  const linear = buildBoneInterpolation([LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE], flag);
  const axisTol = job.positionTolerance / Math.sqrt(3);
  const gen = generations(sk, bones);
  const maxGen = Math.max(0, ...gen);
  const baked: Uint8Array[] = [];
  const pose = new Pose(sk);
  const parentW = new Float64Array(7), inv = new Float64Array(4), tq = new Float64Array(4), tp = new Float64Array(3);
  const morphT = new Float64Array(3 * sk.count), morphR = new Float64Array(4 * sk.count);
  let fitted = 0;
  for (let g = 0; g <= maxGen; g++) {
    const members = bones.map((_, k) => k).filter((k) => gen[k] === g);
    if (members.length === 0) continue;
    // The parents as the keys fitted so far play (IK as the output switches it).
    const doc = job.docWith(baked);
    const poser = new MotionPoser(sk, doc, buildTracks(doc), model);
    const parents = [...new Set(members.map((k) => sk.parent[bones[k]]).filter((p) => p >= 0))];
    const played = new Float64Array(n * parents.length * 7);
    // What the player adds around each member's key, as the output plays (MMD's order, Pose.evaluate): its bone
    // morphs before the key (R = M ⊗ key, T = key + Σ w·t), then the append turn A of its source's solved
    // rotation (A ⊗ R) and the append translation (+ r·T of the source). Left in, a chain link with an append or
    // a bone morph would take them twice: once in the fitted local rotation, once more from the player.
    const nm = members.length;
    const around = new Float64Array(n * nm * 11);
    const aroundAt = (f: number, j: number) => (f * nm + j) * 11;
    const rotAppend = members.map((k) => appendRotationOf(sk, bones[k]));
    const moveAppend = job.localPositions ? members.map(() => null) : members.map((k) => appendTranslationOf(sk, bones[k]));
    for (let f = 0; f < n; f++) {
      poser.poseAt(pose, from + f);
      readWorld(pose, parents, played, f * parents.length * 7);
      poser.boneMorphsAt(from + f, morphT, morphR);
      for (let j = 0; j < nm; j++) {
        const b = bones[members[j]], o = aroundAt(f, j);
        for (let c = 0; c < 4; c++) around[o + c] = morphR[4 * b + c];
        const ra = rotAppend[j];
        if (ra) appendTurnInto(around, o + 4, pose.solvedRotation, 4 * ra.src, ra.ratio);
        else { around[o + 4] = around[o + 5] = around[o + 6] = 0; around[o + 7] = 1; }
        const ta = moveAppend[j];
        for (let c = 0; c < 3; c++) around[o + 8 + c] = morphT[3 * b + c] + (ta ? ta.ratio * pose.solvedTranslation[3 * ta.src + c] : 0);
      }
    }
    if (job.cancelled?.()) return null;
    for (let j = 0; j < nm; j++) {
      const k = members[j], b = bones[k], p = sk.parent[b];
      const pk = parents.indexOf(p);
      // Local targets per frame: position minus the rest offset, then the rotation (one hemisphere along the track).
      const px = new Float64Array(n), py = new Float64Array(n), pz = new Float64Array(n), q = new Float64Array(4 * n);
      for (let f = 0; f < n; f++) {
        const o = (f * nb + k) * 7;
        if (p >= 0) {
          const po = (f * parents.length + pk) * 7;
          for (let c = 0; c < 7; c++) parentW[c] = played[po + c];
        } else {
          parentW.fill(0);
          parentW[6] = 1;
        }
        qinvRotInto(parentW, 3, simW[o] - parentW[0], simW[o + 1] - parentW[1], simW[o + 2] - parentW[2], tp, 0);
        inv[0] = -parentW[3]; inv[1] = -parentW[4]; inv[2] = -parentW[5]; inv[3] = parentW[6];
        qmul(inv, 0, simW, o + 3, tq, 0);
        // The key: the local rotation with the append turn and the bone morph taken back out (conj(M) ⊗ conj(A) ⊗ L),
        // only where there is one (exact identities would still turn a −0 into a 0 in the written floats).
        const ao = aroundAt(f, j);
        if (around[ao + 7] !== 1) qconjMulInto(around, ao + 4, tq, 0, tq, 0);
        if (around[ao + 3] !== 1) qconjMulInto(around, ao, tq, 0, tq, 0);
        const lp = job.localPositions;
        if (lp) {
          const lo = (f * nb + k) * 3;
          px[f] = lp[lo]; py[f] = lp[lo + 1]; pz[f] = lp[lo + 2];
        } else {
          px[f] = tp[0] - sk.restOffset[3 * b];
          py[f] = tp[1] - sk.restOffset[3 * b + 1];
          pz[f] = tp[2] - sk.restOffset[3 * b + 2];
        }
        if (around[ao + 8] !== 0 || around[ao + 9] !== 0 || around[ao + 10] !== 0) {
          px[f] -= around[ao + 8]; py[f] -= around[ao + 9]; pz[f] -= around[ao + 10];
        }
        let sign = 1;
        if (f === 0) sign = tq[3] < 0 ? -1 : 1;
        else if (tq[0] * q[4 * f - 4] + tq[1] * q[4 * f - 3] + tq[2] * q[4 * f - 2] + tq[3] * q[4 * f - 1] < 0) sign = -1;
        for (let c = 0; c < 4; c++) q[4 * f + c] = sign * tq[c];
      }
      const pf = job.perFrame;
      if (pf) {
        for (let f = 0; f < n; f++) {
          const o = (f * nb + k) * 7;
          pf[o] = px[f]; pf[o + 1] = py[f]; pf[o + 2] = pz[f];
          for (let c = 0; c < 4; c++) pf[o + 3 + c] = q[4 * f + c];
        }
      }
      const keyAt = (f: number, curves: Uint8Array | null, v?: Float64Array) =>
        encodeBoneRecord({
          name: job.nameFields[k],
          frame: from + f,
          position: v ? [v[0], v[1], v[2]] : [px[f], py[f], pz[f]],
          rotation: v ? [v[3], v[4], v[5], v[6]] : [q[4 * f], q[4 * f + 1], q[4 * f + 2], q[4 * f + 3]],
          interpolation: curves ? buildBoneInterpolation([0, 1, 2, 3].map((c) => Array.from(curves.subarray(4 * c, 4 * c + 4)) as unknown as Curve), flag) : linear,
        });
      if (job.raw) {
        for (let f = 0; f < n; f++) baked.push(keyAt(f, null));
      } else {
        // Fitted at the integer frames: the targets are defined there, and there the output is checked.
        const w: SampledWindow = {
          g0: 0,
          g1: n - 1,
          perFrame: 1,
          groups: [
            { kind: 'curve', comps: [px], tol: axisTol },
            { kind: 'curve', comps: [py], tol: axisTol },
            { kind: 'curve', comps: [pz], tol: axisTol },
            { kind: 'quat', q, tol: (job.rotationToleranceDeg * Math.PI) / 180 },
          ],
          // Key values may leave their samples by up to the tolerance where that lets a key go (checked by
          // playing the stored values; the world-space measure measures the result again).
          freeValues: true,
        };
        const fit = fitWindow(w);
        fit.frames.forEach((f, i) => baked.push(keyAt(f, fit.curves[i], fit.values?.[i])));
      }
      fitted++;
      job.progress?.(fitted);
      if (job.cancelled?.()) return null;
    }
  }
  return baked;
}

/** The largest differences between an output as played and the targets (see `measureWorld`). */
export interface WorldErrors {
  maxPosition: number;
  maxRotationDeg: number;
  /** Frame and bone of the largest position error (null: no bone). */
  worst: { frame: number; bone: string } | null;
  /** The same over the bones `seen` marks (null mask, or none marked: zeros and null). */
  maxPositionSeen: number;
  maxRotationDegSeen: number;
  worstSeen: { frame: number; bone: string } | null;
}

/**
 * `out` played (shared/skeleton's MotionPoser: its keys, then IK as its IK keys switch it) at every frame of the
 * range against the targets of `bones` (7 per bone per frame, frame-major). `afterFrame` is told each frame done
 * and may return true to stop (null is returned).
 */
export function measureWorld(
  model: ModelData,
  sk: Skeleton,
  out: VmdDocument,
  bones: readonly number[],
  targets: Float64Array,
  from: number,
  frames: number,
  seen: Uint8Array | null = null,
  afterFrame?: (done: number) => boolean,
): WorldErrors | null {
  const poser = new MotionPoser(sk, out, buildTracks(out), model);
  const pose = new Pose(sk);
  const nb = bones.length;
  const played = new Float64Array(7 * nb);
  let maxPos = 0, maxRot = 0, worst: WorldErrors['worst'] = null;
  let seenPos = 0, seenRot = 0, worstSeen: WorldErrors['worst'] = null;
  const anySeen = !!seen && bones.some((b) => seen[b] === 1);
  for (let f = 0; f < frames; f++) {
    poser.poseAt(pose, from + f);
    readWorld(pose, bones, played, 0);
    for (let k = 0; k < nb; k++) {
      const o = 7 * k, so = (f * nb + k) * 7;
      const d = Math.hypot(played[o] - targets[so], played[o + 1] - targets[so + 1], played[o + 2] - targets[so + 2]);
      const a = angleDeg(played, o + 3, targets, so + 3);
      if (d > maxPos) { maxPos = d; worst = { frame: from + f, bone: model.bones[bones[k]].name }; }
      maxRot = Math.max(maxRot, a);
      if (seen && seen[bones[k]] === 1) {
        if (!worstSeen || d > seenPos) { seenPos = d; worstSeen = { frame: from + f, bone: model.bones[bones[k]].name }; }
        seenRot = Math.max(seenRot, a);
      }
    }
    if (afterFrame?.(f + 1)) return null;
  }
  return {
    maxPosition: maxPos, maxRotationDeg: maxRot, worst,
    maxPositionSeen: anySeen ? seenPos : 0, maxRotationDegSeen: anySeen ? seenRot : 0, worstSeen: anySeen ? worstSeen : null,
  };
}
