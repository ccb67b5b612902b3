/** `inspect` of a .bvh or .vrma file: read (bounded, regular files only), described (electron/mocap/capture-info.ts), and its human lines. */
import { readInputBytes } from '../../fs/files';
import { MAX_MOTION_FILE_BYTES } from '../../../shared/ipc/validate';
import type { CodecError, Diagnostic } from '../../../shared/vmd';
import type { MocapFormat } from '../../../shared/ipc/mocap-types';
import { describeCapture, type CaptureInfo } from '../../mocap/capture-info';
import { formatMeasure } from '../format';
import { count, plural } from '../../../shared/i18n/plural';

export type { CaptureInfo } from '../../mocap/capture-info';

/** Reads and describes one .bvh or .vrma; never throws. */
export async function inspectCapture(file: string, kind: MocapFormat): Promise<{ ok: true; value: CaptureInfo; diagnostics: Diagnostic[] } | { ok: false; error: CodecError }> {
  const r = await readInputBytes(file, { maxBytes: MAX_MOTION_FILE_BYTES });
  return r.ok ? describeCapture(r.value, kind) : r;
}

/** The human lines for one capture file (after its path line). */
export function captureLines(info: CaptureInfo): string {
  if (info.format === 'bvh') {
    const mapped = info.map.mapped.length;
    return (
      `  capture (BVH)  ${plural(info.joints.length, 'joint')}, ${plural(info.endSites, 'end site')}, root ${info.roots.join(', ')}; ${plural(count(info.channels), 'channel')}\n` +
      `  length  ${plural(count(info.frames), 'frame')} at ${formatMeasure(info.fps)} fps (${info.durationSeconds.toFixed(2)} s; frames 0–${info.lastFrame} at 30 fps)\n` +
      `  map     ${info.map.source}: ${plural(mapped, 'joint')} named as humanoid parts (import-bvh binds those the model has)\n` +
      `  joints  ${info.joints.slice(0, 24).join(' ')}${info.joints.length > 24 ? ` … (+${info.joints.length - 24})` : ''}\n`
    );
  }
  return (
    `  VRM Animation  ${plural(info.humanBones.length, 'humanoid bone')}, ${plural(info.expressions.length, 'expression')}, ${plural(count(info.tracks), 'track')}\n` +
    `  length  ${info.durationSeconds.toFixed(2)} s (frames 0–${info.lastFrame} at 30 fps)\n` +
    `  bones   ${info.humanBones.join(' ')}\n` +
    (info.expressions.length ? `  expressions ${info.expressions.join(' ')}\n` : '')
  );
}
