/**
 * How far two motions play apart, for tests of the fitter: both are read back from their bytes and
 * sampled with the player (shared/vmd/sample.ts) at every integer and half frame; nothing comes from
 * the fitter or from shared/fit/measure.ts. Output frame g is compared with the input at g·factor (a morph's
 * peak between output frames at the frame that shows it: morph-reference.ts).
 */
import { morphReference } from './morph-reference';
import { buildTracks, readVmd, sampleBoneInto, sampleCamera, sampleMorph, writeVmd, type VmdDocument } from '../../shared/vmd';

export interface PlayedErrors {
  position: number;
  rotationDeg: number;
  morph: number;
  /** Re-timed: how far the output plays from a morph peak given no output frame (morph-reference.ts). */
  morphUnshownPeak: number;
  cameraTarget: number;
  cameraAngleDeg: number;
  cameraDistance: number;
  cameraFov: number;
}

/** Rotation angle in degrees between two quaternions: 2·acos(|q̂1·q̂2|), written out here. */
export function rotationAngleDeg(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < 4; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  const c = Math.min(1, Math.abs(dot) / Math.sqrt(na * nb));
  return (2 * Math.atan2(Math.sqrt(Math.max(0, 1 - c * c)), c) * 180) / Math.PI;
}

function reread(doc: VmdDocument): VmdDocument {
  const r = readVmd(writeVmd(doc));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

export function playedErrors(input: VmdDocument, output: VmdDocument, opts: { factor?: number; halfFrames?: boolean; from?: number; to?: number } = {}): PlayedErrors {
  const k = opts.factor ?? 1;
  const a = buildTracks(reread(input)), b = buildTracks(reread(output));
  const last = Math.max(b.lastFrame, Math.ceil(a.lastFrame / k)) + 1;
  const from = opts.from ?? 0, to = opts.to ?? last;
  const step = opts.halfFrames === false ? 1 : 0.5;
  const e: PlayedErrors = { position: 0, rotationDeg: 0, morph: 0, morphUnshownPeak: 0, cameraTarget: 0, cameraAngleDeg: 0, cameraDistance: 0, cameraFov: 0 };
  const pa = [0, 0, 0], ra = [0, 0, 0, 1], pb = [0, 0, 0], rb = [0, 0, 0, 1];
  for (const name of new Set([...a.bones.names, ...b.bones.names])) {
    const ia = a.bones.index.get(name), ib = b.bones.index.get(name);
    if (ia === undefined || ib === undefined) throw new Error(`bone ${name} is on one side only`);
    for (let g = from; g <= to; g += step) {
      sampleBoneInto(a.bones, ia, g * k, pa, ra, 0);
      sampleBoneInto(b.bones, ib, g, pb, rb, 0);
      for (let c = 0; c < 3; c++) e.position = Math.max(e.position, Math.abs(pa[c] - pb[c]));
      e.rotationDeg = Math.max(e.rotationDeg, rotationAngleDeg(ra, rb));
    }
  }
  for (const name of new Set([...a.morphs.names, ...b.morphs.names])) {
    const ia = a.morphs.index.get(name), ib = b.morphs.index.get(name);
    if (ia === undefined || ib === undefined) throw new Error(`morph ${name} is on one side only`);
    // Re-timed, a peak between output frames is compared at the frame that shows it (morph-reference.ts);
    // one with none (both frames show other peaks: jitter denser than the output frames) at the nearer of its
    // two frames, apart, since no fit promises it.
    const ref = morphReference(a.morphs, ia, k);
    for (let g = from; g <= to; g += step) e.morph = Math.max(e.morph, Math.abs((g % 1 === 0 ? ref.at(g) : sampleMorph(a.morphs, ia, g * k)) - sampleMorph(b.morphs, ib, g)));
    for (const p of ref.unplaced) e.morphUnshownPeak = Math.max(e.morphUnshownPeak, Math.min(...[Math.floor(p.time), Math.ceil(p.time)].map((g) => Math.abs(sampleMorph(b.morphs, ib, g) - p.weight))));
  }
  if (a.camera.frames.length) {
    for (let g = from; g <= to; g += step) {
      const ca = sampleCamera(a.camera, g * k)!, cb = sampleCamera(b.camera, g)!;
      for (let c = 0; c < 3; c++) {
        e.cameraTarget = Math.max(e.cameraTarget, Math.abs(ca.target[c] - cb.target[c]));
        e.cameraAngleDeg = Math.max(e.cameraAngleDeg, (Math.abs(ca.rotation[c] - cb.rotation[c]) * 180) / Math.PI);
      }
      e.cameraDistance = Math.max(e.cameraDistance, Math.abs(ca.distance - cb.distance));
      e.cameraFov = Math.max(e.cameraFov, Math.abs(ca.fov - cb.fov));
    }
  }
  return e;
}
