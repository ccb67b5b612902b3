/**
 * Physics bake: the simulated motion of every physics-driven bone written into the VMD as keys that carry the
 * physics-off flag (99, 15), so the motion plays the same in every program, MMD with its physics on included.
 *
 * Keys those bones had inside A..B are replaced; every other record is copied byte for byte. By default the
 * per-frame keys are reduced by the fitting engine (shared/fit) within the tolerance; `raw` keeps one key per
 * frame, as other tools write. The report's error is measured by playing the output (the same simulation with
 * the baked bones following their keys) against the simulation, frame by frame.
 */
import type { ModelData } from '../pmx/model-types';
import { matchKey } from '../pmx/model-inspect';
import { reduce, DEFAULT_TOLERANCES } from '../fit/motion-fit';
import type { CodecError } from '../vmd/errors';
import { buildBoneInterpolation, PHYSICS_OFF } from '../vmd/interpolation';
import { LINEAR_CURVE } from '../vmd/bezier';
import { encodeSjis, decodeName } from '../vmd/sjis';
import { buildTracks } from '../vmd/tracks';
import { blockFromRecords, recordBytes, withBlocks, type VmdDocument } from '../vmd/vmd-document';
import { BONE } from '../vmd/vmd-layout';
import { encodeBoneRecord } from '../vmd/vmd-build';
import type { BulletInstance } from './bullet';
import { qmulInto as qmul, qrotInto as qrot } from '../skeleton/quat';
import { SEEK_SETTLE_FRAMES, Simulation } from './simulate';
import type { WorldOptions } from './world';

export interface PhysicsBakeOptions extends WorldOptions {
  /** First baked frame (default 0). From A > 0 physics restarts at A's pose and settles SEEK_SETTLE_FRAMES first. */
  from?: number;
  /** Last baked frame (default: the motion's last key, at least `from`). */
  to?: number;
  /** One key per frame, not reduced. */
  raw?: boolean;
  /** Reduction tolerance: position in units (default 0.01), rotation in degrees (default 0.1). */
  positionTolerance?: number;
  rotationToleranceDeg?: number;
  /** Told the frames simulated so far (simulation, then playback check). */
  progress?: (done: number, total: number) => void;
  /** Polled between frames; true stops the bake with E_CANCELLED. */
  cancelled?: () => boolean;
}

export interface PhysicsBakeReport {
  from: number;
  to: number;
  /** Baked bone names, in model order. */
  bones: string[];
  /** Physics bones whose names do not fit a VMD's 15-byte field: not baked (they stay simulated). */
  namesTooLong: string[];
  /** Keys written at one per frame per bone, and the keys kept after reduction (= raw with `raw`). */
  rawKeys: number;
  keptKeys: number;
  /** Keys those bones had inside A..B that were replaced. */
  replacedKeys: number;
  /** Largest world-position difference (units) and rotation difference (degrees) of a baked bone, playing the output against the simulation at every frame of A..B. */
  maxPositionError: number;
  maxRotationErrorDeg: number;
  /** Frame and bone of the largest position error. */
  worst: { frame: number; bone: string } | null;
  settleFrames: number;
}

export type PhysicsBakeResult = { ok: true; doc: VmdDocument; raw: VmdDocument; report: PhysicsBakeReport } | { ok: false; error: CodecError };

const VMD_NAME_BYTES = 15;

/** World transforms of the given bones at every frame of [from, to] (7 per bone per frame). */
function record(sim: Simulation, bones: number[], from: number, to: number, opts: PhysicsBakeOptions, phase: number): Float64Array | null {
  const n = to - from + 1;
  const out = new Float64Array(n * bones.length * 7);
  if (from > 0) sim.seek(from, SEEK_SETTLE_FRAMES);
  else sim.seek(0, 0);
  for (let f = from; f <= to; f++) {
    if (f > from) sim.advance();
    if (opts.cancelled?.()) return null;
    const w = sim.pose.worldPosition, r = sim.pose.worldRotation, o = (f - from) * bones.length * 7;
    bones.forEach((b, k) => {
      for (let c = 0; c < 3; c++) out[o + 7 * k + c] = w[3 * b + c];
      for (let c = 0; c < 4; c++) out[o + 7 * k + 3 + c] = r[4 * b + c];
    });
    opts.progress?.(phase * n + (f - from + 1), 2 * n);
  }
  return out;
}

/** Bakes the physics of `model` under `motion` into a new document (see the file comment). */
export function physicsBake(bullet: BulletInstance, model: ModelData, motion: VmdDocument, opts: PhysicsBakeOptions = {}): PhysicsBakeResult {
  const fail = (code: CodecError['code'], message: string, option?: string): PhysicsBakeResult => ({ ok: false, error: { code, message, option } });
  if (model.physicsError) return { ok: false, error: model.physicsError };
  const posTol = opts.positionTolerance ?? DEFAULT_TOLERANCES.position;
  const rotTol = opts.rotationToleranceDeg ?? DEFAULT_TOLERANCES.rotationDeg;
  if (!(posTol > 0) || !Number.isFinite(posTol)) return fail('E_ARGUMENT', `--pos-tol must be a number greater than 0, got ${posTol}`, 'pos-tol');
  if (!(rotTol > 0) || !Number.isFinite(rotTol)) return fail('E_ARGUMENT', `--rot-tol must be a number greater than 0, got ${rotTol}`, 'rot-tol');
  const tracks = buildTracks(motion);
  const from = opts.from ?? 0;
  const to = opts.to ?? Math.max(from, tracks.lastFrame);
  if (!Number.isInteger(from) || from < 0) return fail('E_ARGUMENT', `--from must be a whole frame ≥ 0, got ${from}`, 'from');
  if (!Number.isInteger(to) || to < from) return fail('E_ARGUMENT', `--to must be a whole frame ≥ --from (${from}), got ${to}`, 'to');

  const sim = new Simulation(bullet, model, motion);
  try {
    const physics = sim.physicsBones();
    if (physics.length === 0) return fail('E_PHYSICS', `model "${model.name}" has no physics-driven bones (rigid bodies of mode 1 or 2)`);
    const namesTooLong: string[] = [];
    const bones: number[] = [];
    const seen = new Set<string>();
    for (const b of physics) {
      const name = model.bones[b].name;
      if (encodeSjis(name).length > VMD_NAME_BYTES) { namesTooLong.push(name); continue; }
      // Two bones whose names match alike in a VMD would share one track: bake the first.
      const key = matchKey(name);
      if (seen.has(key)) continue;
      seen.add(key);
      bones.push(b);
    }
    // One simulation records the baked bones and their parents (local transforms need the parents' world).
    const sk = sim.pose.skeleton;
    const parents = bones.map((b) => sk.parent[b]);
    const parentSet = [...new Set(parents.filter((p) => p >= 0))];
    const all = bones.concat(parentSet);
    const simAll = record(sim, all, from, to, opts, 0);
    if (!simAll) return fail('E_CANCELLED', 'physics bake cancelled');
    const na = all.length;
    const slot = (f: number, k: number) => (f * na + k) * 7;
    const pIndex = new Map(parentSet.map((p, k) => [p, bones.length + k]));

    const n = to - from + 1, nb = bones.length;
    const recs: Uint8Array[] = [];
    const interp = buildBoneInterpolation([LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE], PHYSICS_OFF);
    const inv = new Float64Array(4), lp = new Float64Array(3), lq = new Float64Array(4);
    const nameBytes = bones.map((b) => {
      const e = encodeSjis(model.bones[b].name);
      const field = new Uint8Array(VMD_NAME_BYTES);
      field.set(e);
      return field;
    });
    for (let k = 0; k < nb; k++) {
      const b = bones[k], p = parents[k];
      for (let f = 0; f < n; f++) {
        const o = slot(f, k);
        const W = simAll;
        const wx = W[o], wy = W[o + 1], wz = W[o + 2];
        if (p >= 0) {
          const po = slot(f, pIndex.get(p)!);
          inv[0] = -W[po + 3]; inv[1] = -W[po + 4]; inv[2] = -W[po + 5]; inv[3] = W[po + 6];
          qrot(inv, 0, wx - W[po], wy - W[po + 1], wz - W[po + 2], lp, 0);
          qmul(inv, 0, W, o + 3, lq, 0);
        } else {
          lp[0] = wx; lp[1] = wy; lp[2] = wz;
          for (let c = 0; c < 4; c++) lq[c] = W[o + 3 + c];
        }
        for (let c = 0; c < 3; c++) lp[c] -= sk.restOffset[3 * b + c];
        // One hemisphere per track (w ≥ 0) so that keys slerp the short way and bytes repeat across runs.
        if (lq[3] < 0) for (let c = 0; c < 4; c++) lq[c] = -lq[c];
        recs.push(encodeBoneRecord({ name: nameBytes[k], frame: from + f, position: [lp[0], lp[1], lp[2]], rotation: [lq[0], lq[1], lq[2], lq[3]], interpolation: interp }));
      }
    }

    // Replace those bones' keys inside [from, to]; every other record stays as it was, in file order.
    const bakedKeys = new Set(bones.map((b) => matchKey(model.bones[b].name)));
    const kept: Uint8Array[] = [];
    let replacedKeys = 0;
    const block = motion.bone;
    for (let i = 0; i < block.count; i++) {
      const o = i * BONE.SIZE;
      const f = block.view.getUint32(o + BONE.FRAME, true);
      if (f >= from && f <= to && bakedKeys.has(matchKey(decodeName(block.bytes, o, BONE.NAME_LENGTH)))) { replacedKeys++; continue; }
      kept.push(recordBytes(block, i));
    }
    const rawDoc = withBlocks(motion, { bone: blockFromRecords('bone', kept.concat(recs)) });
    let out = rawDoc;
    if (!opts.raw) {
      const r = reduce(rawDoc, { position: posTol, rotationDeg: rotTol, tracks: { bones: new Set(bones.map((b) => model.bones[b].name)), morphs: new Set(), camera: false }, from, to });
      if (!r.ok) return r;
      out = r.doc;
    }
    const keptKeys = out.bone.count - kept.length;

    // Play the output against the simulation: the baked bones follow their keys (99, 15), the rest simulates.
    const play = new Simulation(bullet, model, out);
    const played = record(play, bones, from, to, { cancelled: opts.cancelled, progress: opts.progress }, 1);
    play.dispose();
    if (!played) return fail('E_CANCELLED', 'physics bake cancelled');
    let maxPos = 0, maxRot = 0, worst: PhysicsBakeReport['worst'] = null;
    for (let f = 0; f < n; f++) {
      for (let k = 0; k < nb; k++) {
        const o = (f * nb + k) * 7, so = slot(f, k);
        const d = Math.hypot(played[o] - simAll[so], played[o + 1] - simAll[so + 1], played[o + 2] - simAll[so + 2]);
        if (d > maxPos) { maxPos = d; worst = { frame: from + f, bone: model.bones[bones[k]].name }; }
        let dot = 0;
        for (let c = 3; c < 7; c++) dot += played[o + c] * simAll[so + c];
        maxRot = Math.max(maxRot, (2 * Math.acos(Math.min(1, Math.abs(dot))) * 180) / Math.PI);
      }
    }
    return {
      ok: true, doc: out, raw: rawDoc,
      report: {
        from, to, bones: bones.map((b) => model.bones[b].name), namesTooLong, rawKeys: recs.length, keptKeys, replacedKeys,
        maxPositionError: maxPos, maxRotationErrorDeg: maxRot, worst, settleFrames: from > 0 ? SEEK_SETTLE_FRAMES : 0,
      },
    };
  } finally {
    sim.dispose();
  }
}
