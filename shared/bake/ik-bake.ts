/**
 * IK bake (MMD users' 「IKをFKに焼き込み」): the pose IK gives a motion's IK chains written into the motion as
 * rotation keys of the bones those chains turn, with those IK bones switched off, so that the legs (or any chain)
 * can be edited bone by bone, or played by a program without IK.
 *
 * What "plays the same" means here: OUT played (shared/skeleton's MotionPoser: the keys, then IK as OUT's IK keys
 * switch it) puts every baked bone at the world position and rotation the input gives it with its IK on, within the
 * tolerance, at every frame of A..B. The input's pose is evaluated by the same MotionPoser the preview's stand-ins,
 * `sample` and the physics bake use: there is no second IK solver here.
 *
 *  - Baked IK bones: those given (`bones`), or by default every IK bone of the model that the motion has on at some
 *    frame of A..B. Baked bones: every link of their chains (足ＩＫ → 左足, 左ひざ; つま先ＩＫ → 左足首), in model
 *    order. The effector (足首 for 足ＩＫ) is not turned by its own chain, only moved with its parent; it is keyed
 *    when another baked chain turns it (つま先ＩＫ's link).
 *  - Keys are fitted with physics bake's engine (shared/bake/world-keys.ts): parents first, each bone's key the local
 *    transform that puts it at its IK-on world transform under its parent as the fitted keys play, within the
 *    tolerance (default 0.01 units, 0.1°), or one per frame with `raw`.
 *  - The baked IK bones are switched off over A..B by IK keys (shared/bake/ik-off.ts): at A, the motion's IK keys
 *    inside A..B with the chains off, and at B+1, when the motion goes on, back to the state the motion had there.
 *  - Keys the motion had for the baked bones inside A..B are replaced. Each baked bone gets a key at A−1 and, when the
 *    motion goes on, at B+1 with the motion's own value there (shared/bake/edge-keys.ts), so that outside A..B, where
 *    the IK is on again, it solves from the motion's values as before. Every other record is copied byte for byte.
 *  - Refused with E_IK, nothing written: a model without IK bones, a named bone that is not one of its IK bones, or
 *    IK bones the motion has off over all of A..B.
 */
import { denseRefusal } from '../edit-core/dense-limit';
import type { ModelData } from '../pmx/model-types';
import { matchKey } from '../pmx/model-inspect';
import { failure, success, type CodecError, type Outcome } from '../vmd/errors';
import { encodeSjis } from '../vmd/sjis';
import type { VmdDocument } from '../vmd/vmd-document';
import { encodeBoneRecord } from '../vmd/vmd-build';
import { buildBoneInterpolation } from '../vmd/interpolation';
import { LINEAR_CURVE } from '../vmd/bezier';
import { buildSkeleton, ikEnabledAt, MotionPoser, Pose } from '../skeleton';
import { bakeBase, boneNameField, fitWorldKeys, measureWorld, readWorld, VMD_BONE_NAME_BYTES } from './world-keys';
import { ikOffPlan } from './ik-off';
import { edgeKeys } from './edge-keys';
import { bakeModelName, bakeStart, type BakeRangeOptions, type BakeReportBase } from './options';

export interface IkBakeOptions extends BakeRangeOptions {
  /** IK bones to bake, by name (as the model names them; matched as a VMD does). Default: every IK bone on somewhere in A..B. */
  bones?: readonly string[];
  /**
   * Also give `perFrame`: the output as a raw bake would key it (the baked bones keyed at every frame of A..B with
   * the values the fitting reduces: the IK's pose frame by frame). The editor's plot draws it as "before".
   */
  perFrame?: boolean;
}

/**
 * The IK bake's figures: `ikOff` the IK bones baked and switched off over A..B, `bones` the links of their chains;
 * `namesTooLong` links whose names do not fit (their chain is not baked nor switched off); `ikNamesTooLong` IK bones
 * not baked; the error of a baked bone or a baked chain's effector, playing OUT (IK off over A..B) against the input
 * with its IK on.
 */
export type IkBakeReport = BakeReportBase;

export interface IkBakedMotion {
  doc: VmdDocument;
  report: IkBakeReport;
  /** With `perFrame` asked: the output with one key per frame of A..B for each baked bone (see IkBakeOptions). */
  perFrame?: VmdDocument;
}

export type IkBakeResult = Outcome<IkBakedMotion>;

/** The IK block's name field (20 bytes). */
const IK_NAME_BYTES = 20;
const PROGRESS_STEPS = 3;

/** Bone records of per-frame key values (7 per bone per frame, frame-major), linear, as a raw bake writes them. */
function perFrameKeys(values: Float64Array, nameFields: readonly Uint8Array[], from: number, n: number): Uint8Array[] {
  const linear = buildBoneInterpolation([LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE]);
  const nb = nameFields.length, out: Uint8Array[] = [];
  for (let k = 0; k < nb; k++) {
    for (let f = 0; f < n; f++) {
      const o = (f * nb + k) * 7;
      out.push(encodeBoneRecord({ name: nameFields[k], frame: from + f, position: [values[o], values[o + 1], values[o + 2]], rotation: [values[o + 3], values[o + 4], values[o + 5], values[o + 6]], interpolation: linear }));
    }
  }
  return out;
}

/** Bakes the IK of `model` under `motion` into rotation keys of the chains' bones (see the file comment). */
export function ikBake(model: ModelData, motion: VmdDocument, opts: IkBakeOptions = {}): IkBakeResult {
  const fail = (code: CodecError['code'], message: string, extra: Partial<CodecError> = {}): IkBakeResult => failure({ code, message, ...extra });
  const begun = bakeStart(motion, opts, 'ik-bake');
  if ('code' in begun) return failure(begun);
  const { tracks, range: { posTol, rotTol, from, to } } = begun;

  const sk = buildSkeleton(model.bones);
  const modelName = bakeModelName(model);
  const allIk = model.bones.flatMap((b, i) => (sk.iks[i] ? [i] : []));
  if (allIk.length === 0) return fail('E_IK', `${modelName} has no IK bones: there is no IK to bake`, { params: { reason: 'no-ik' } });
  const poser = new MotionPoser(sk, motion, tracks, model);

  // The IK bones asked for, or every one the motion has on somewhere in A..B (at A, or at an IK key inside it).
  let chosen: number[];
  if (opts.bones && opts.bones.length) {
    chosen = [];
    for (const name of opts.bones) {
      const k = matchKey(name);
      const i = allIk.find((b) => matchKey(model.bones[b].name) === k);
      if (i === undefined) {
        const list = allIk.map((b) => model.bones[b].name).join(', ');
        return fail('E_IK', `${modelName} has no IK bone "${name}" (its IK bones: ${list})`, { option: 'bones', params: { reason: 'unknown', name, list } });
      }
      if (!chosen.includes(i)) chosen.push(i);
    }
    chosen.sort((a, b) => a - b);
  } else chosen = allIk;
  const switchFrames = [from, ...Array.from(poser.ik.frames).filter((f) => f > from && f <= to)];
  const onSomewhere = (b: number) => switchFrames.some((f) => ikEnabledAt(poser.ik, model.bones[b].name, f));
  const ikOn = chosen.filter(onSomewhere);
  if (ikOn.length === 0) {
    const names = chosen.map((b) => model.bones[b].name).join(', ');
    return fail('E_IK', `the motion has ${chosen.length === 1 ? 'its IK bone' : 'the IK bones'} ${names} off over all of frames ${from}–${to}: there is no IK to bake`, { params: { reason: 'off', names, from, to } });
  }

  // The chains' links, in model order; IK bones a VMD cannot name, and links it cannot name, are left out.
  const ikNamesTooLong: string[] = [], namesTooLong: string[] = [];
  const ikBones: number[] = [];
  for (const b of ikOn) {
    const name = model.bones[b].name;
    if (encodeSjis(name).length > IK_NAME_BYTES) { ikNamesTooLong.push(name); continue; }
    const links = sk.iks[b]!.links.map((l) => l.bone);
    const long = links.filter((l) => encodeSjis(model.bones[l].name).length > VMD_BONE_NAME_BYTES);
    if (long.length) {
      for (const l of long) if (!namesTooLong.includes(model.bones[l].name)) namesTooLong.push(model.bones[l].name);
      continue;
    }
    ikBones.push(b);
  }
  const linkSet = new Set(ikBones.flatMap((b) => sk.iks[b]!.links.map((l) => l.bone)));
  const bones: number[] = [];
  const seenKeys = new Set<string>();
  for (let i = 0; i < model.bones.length; i++) {
    if (!linkSet.has(i)) continue;
    // Two bones whose names match alike in a VMD would share one track: bake the first.
    const key = matchKey(model.bones[i].name);
    if (seenKeys.has(key)) continue;
    seenKeys.add(key);
    bones.push(i);
  }
  if (bones.length === 0) {
    return fail('E_IK', `no IK bone could be baked: names too long for a VMD (${[...ikNamesTooLong, ...namesTooLong].join(', ')})`, { params: { reason: 'names', names: [...ikNamesTooLong, ...namesTooLong].join(', ') } });
  }
  const dense = denseRefusal('ik-bake', from, to, bones.length, undefined, true);
  if (dense) return failure(dense);

  // The input posed with its IK at every frame: the targets. Measured on the links and each chain's effector.
  const effectors = ikBones.map((b) => sk.iks[b]!.target).filter((t) => !bones.includes(t));
  const measured = [...bones, ...new Set(effectors)];
  const n = to - from + 1, nb = bones.length, nm = measured.length;
  const total = PROGRESS_STEPS * n;
  const pose = new Pose(sk);
  const posed = new Float64Array(n * nm * 7);
  const localPositions = new Float64Array(n * nb * 3);
  for (let f = 0; f < n; f++) {
    poser.poseAt(pose, from + f);
    readWorld(pose, measured, posed, f * nm * 7);
    // The motion's own translation of each baked bone (IK does not change it): written as it is.
    for (let k = 0; k < nb; k++) for (let c = 0; c < 3; c++) localPositions[(f * nb + k) * 3 + c] = pose.translation[3 * bones[k] + c];
    if ((f & 63) === 63 && opts.cancelled?.()) return fail('E_CANCELLED', 'IK bake cancelled');
    opts.progress?.(f + 1, total);
  }
  // The baked bones' targets alone (the first nb of each frame).
  const targets = new Float64Array(n * nb * 7);
  for (let f = 0; f < n; f++) targets.set(posed.subarray(f * nm * 7, f * nm * 7 + nb * 7), f * nb * 7);

  const ik = ikOffPlan(model, motion, ikBones, from, to, tracks.lastFrame);
  // The motion without the baked bones' keys inside [from, to], the IK switched off over it.
  const { docWith, replacedKeys } = bakeBase(motion, model, bones, from, to, ik.records);
  const nameFields = bones.map((b) => boneNameField(model.bones[b].name));
  const perFrame = opts.perFrame ? new Float64Array(n * nb * 7) : undefined;
  const baked = fitWorldKeys({
    model, sk, bones, nameFields, from, frames: n, targets, localPositions, docWith, raw: opts.raw, perFrame,
    positionTolerance: posTol, rotationToleranceDeg: rotTol,
    progress: (fitted) => opts.progress?.(n + Math.round((fitted / nb) * n), total),
    cancelled: opts.cancelled,
  });
  if (!baked) return fail('E_CANCELLED', 'IK bake cancelled');
  const edges = edgeKeys(motion, tracks, model, bones, nameFields, from, to);
  const out = docWith(baked.concat(edges));

  const err = measureWorld(model, sk, out, measured, posed, from, n, null, (done) => {
    opts.progress?.(2 * n + done, total);
    return (done & 63) === 0 && !!opts.cancelled?.();
  });
  if (!err) return fail('E_CANCELLED', 'IK bake cancelled');
  return success({
    doc: out,
    ...(perFrame ? { perFrame: docWith(perFrameKeys(perFrame, nameFields, from, n).concat(edges)) } : {}),
    report: {
      from, to,
      ikOff: ik.names,
      bones: bones.map((b) => model.bones[b].name),
      namesTooLong, ikNamesTooLong,
      rawKeys: n * nb, keptKeys: baked.length, replacedKeys, edgeKeys: edges.length,
      maxPositionError: err.maxPosition, maxRotationErrorDeg: err.maxRotationDeg, worst: err.worst,
    },
  });
}
