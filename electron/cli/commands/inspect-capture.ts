/**
 * `inspect` of motion capture and VRM Animation files: what a .bvh or .vrma is, at a glance, before
 * converting it (import-bvh, import-vrma). A BVH: its skeleton (joints, End Sites, roots, channels), its
 * length (frames, the capture's rate, seconds, and the frames it makes at MMD's 30 fps) and the joint
 * map the import would take (the built-in table that names most joints, or the shape guess). A .vrma:
 * its humanoid bones, expressions and length. Errors are the readers' (line or byte named).
 */
import { readInputBytes } from '../../fs/files';
import { MAX_MOTION_FILE_BYTES } from '../../../shared/ipc/validate';
import type { CodecError } from '../../../shared/vmd';
import { readBvh } from '../../../shared/bvh/bvh-reader';
import { autoMap } from '../../../shared/bvh/humanoid';
import { captureRate } from '../../../shared/bvh/import';
import { formatMeasure } from '../format';
import { readVrma } from '../../vrma/vrma-io';

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

/** The kind of capture file a path names by its extension, or null. */
export function captureKind(file: string): 'bvh' | 'vrma' | null {
  const m = /\.(bvh|vrma)$/i.exec(file);
  return m ? (m[1].toLowerCase() as 'bvh' | 'vrma') : null;
}

/** Reads and describes one .bvh or .vrma; never throws. */
export async function inspectCapture(file: string, kind: 'bvh' | 'vrma'): Promise<{ ok: true; value: CaptureInfo } | { ok: false; error: CodecError }> {
  const r = await readInputBytes(file, { maxBytes: MAX_MOTION_FILE_BYTES });
  if (!r.ok) return r;
  if (kind === 'bvh') {
    const b = readBvh(r.value);
    if (!b.ok) return b;
    const m = b.value;
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
        warnings: m.roots.length > 1 ? [`${m.roots.length} roots: the import drives the model from the first (${m.joints[m.roots[0]].name})`] : [],
      },
    };
  }
  const v = await readVrma(r.value);
  if (!v.ok) return v;
  const x = v.value;
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
      warnings: 'hips' in x.humanBones ? [] : ['no hips bone: the import has nothing to drive the model from'],
    },
  };
}

/** The human lines for one capture file (after its path line). */
export function captureLines(info: CaptureInfo): string {
  if (info.format === 'bvh') {
    const mapped = info.map.mapped.length;
    return (
      `  capture (BVH)  ${info.joints.length} joints, ${info.endSites} end sites, root ${info.roots.join(', ')}; ${info.channels} channels\n` +
      `  length  ${info.frames} frames at ${formatMeasure(info.fps)} fps (${info.durationSeconds.toFixed(2)} s; frames 0–${info.lastFrame} at 30 fps)\n` +
      `  map     ${info.map.source}: ${mapped} joint${mapped === 1 ? '' : 's'} named as humanoid parts (import-bvh binds those the model has)\n` +
      `  joints  ${info.joints.slice(0, 24).join(' ')}${info.joints.length > 24 ? ` … (+${info.joints.length - 24})` : ''}\n`
    );
  }
  return (
    `  VRM Animation  ${info.humanBones.length} humanoid bones, ${info.expressions.length} expressions, ${info.tracks} tracks\n` +
    `  length  ${info.durationSeconds.toFixed(2)} s (frames 0–${info.lastFrame} at 30 fps)\n` +
    `  bones   ${info.humanBones.join(' ')}\n` +
    (info.expressions.length ? `  expressions ${info.expressions.join(' ')}\n` : '')
  );
}
