/**
 * What a motion capture (.bvh) or VRM Animation (.vrma) file is, at a glance, before converting it
 * (import-bvh, import-vrma): `vmd-studio inspect` and `batch inspect` both describe captures here. A BVH:
 * its skeleton (joints, End Sites, roots, channels), its length (frames, the capture's rate as import-bvh
 * takes it, seconds, and the frames it makes at MMD's 30 fps) and the joint map the import would take (the
 * built-in table that names most joints, or the shape guess). A .vrma: its humanoid bones, expressions
 * and length. Errors are the readers' (line or byte named).
 */
import type { CodecError, Diagnostic } from '../../shared/vmd';
import type { MocapFormat } from '../../shared/ipc/mocap-types';
import { readBvh } from '../../shared/bvh/bvh-reader';
import { autoMap } from '../../shared/bvh/humanoid';
import { captureRate } from '../../shared/bvh/import';
import { readVrma } from '../vrma/vrma-io';

export interface BvhInfo {
  format: 'bvh';
  /** Joints with channels or children (End Sites counted apart), in file order. */
  joints: string[];
  endSites: number;
  roots: string[];
  channels: number;
  frames: number;
  fps: number;
  durationSeconds: number;
  /** Frames 0…lastFrame at 30 fps that the import makes (import-bvh's lastFrame). */
  lastFrame: number;
  /** The map the import takes without --map: its source and each mapped joint's humanoid part. */
  map: { source: string; mapped: { joint: string; part: string }[] };
  warnings: string[];
}

export interface VrmaInfo {
  format: 'vrma';
  humanBones: string[];
  expressions: string[];
  tracks: number;
  durationSeconds: number;
  lastFrame: number;
  warnings: string[];
}

export type CaptureInfo = BvhInfo | VrmaInfo;

/**
 * Describes one .bvh or .vrma from its bytes; never throws. `diagnostics`: its warnings with their codes and values
 * (`warnings` holds their English lines), for `inspect --lang ja` (note.<code>, shared/i18n/warning-strings.ts).
 */
export async function describeCapture(bytes: Uint8Array, kind: MocapFormat): Promise<{ ok: true; value: CaptureInfo; diagnostics: Diagnostic[] } | { ok: false; error: CodecError }> {
  if (kind === 'bvh') {
    const b = readBvh(bytes);
    if (!b.ok) return b;
    const m = b.value;
    const notes: Diagnostic[] = m.roots.length > 1 ? [{ code: 'W_CAPTURE_ROOTS', message: `${m.roots.length} roots: the import drives the model from the first (${m.joints[m.roots[0]].name})`, params: { n: m.roots.length, root: m.joints[m.roots[0]].name } }] : [];
    const map = autoMap(m);
    // The rate and the frames at 30 fps as import-bvh takes them (a Frame Time of 0.008333 is 120 fps).
    const rate = captureRate(m);
    const duration = m.frameCount / rate;
    return {
      ok: true,
      value: {
        format: 'bvh',
        joints: m.joints.filter((j) => !j.endSite).map((j) => j.name),
        endSites: m.joints.filter((j) => j.endSite).length,
        roots: m.roots.map((i) => m.joints[i].name),
        channels: m.channelCount,
        frames: m.frameCount,
        fps: rate,
        durationSeconds: duration,
        lastFrame: Math.max(0, Math.floor(((m.frameCount - 1) * 30) / rate + 1e-9)),
        map: { source: map.source, mapped: map.parts.flatMap((p, j) => (p ? [{ joint: m.joints[j].name, part: p }] : [])) },
        warnings: notes.map((d) => d.message),
      },
      diagnostics: notes,
    };
  }
  const v = await readVrma(bytes);
  if (!v.ok) return v;
  const x = v.value;
  const notes: Diagnostic[] = 'hips' in x.humanBones ? [] : [{ code: 'W_VRMA_NO_HIPS', message: 'no hips bone: the import has nothing to drive the model from', params: {} }];
  let end = 0;
  for (const t of x.tracks) if (t.times.length) end = Math.max(end, t.times[t.times.length - 1]);
  return {
    ok: true,
    value: {
      format: 'vrma',
      humanBones: Object.keys(x.humanBones),
      expressions: Object.keys(x.expressions),
      tracks: x.tracks.length,
      durationSeconds: end,
      lastFrame: Math.ceil(end * 30 - 1e-9),
      warnings: notes.map((d) => d.message),
    },
    diagnostics: notes,
  };
}
