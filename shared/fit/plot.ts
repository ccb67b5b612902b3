/**
 * One channel of one track played over a frame range, as evenly spaced samples: what the Whole Motion
 * dialog draws to compare a fitted result with the original before it is applied. Bone channels 0–2
 * are the position X/Y/Z, 3 the rotation's angle from rest (degrees); a morph's only channel is its
 * weight; camera channels are target X/Y/Z, the X angle (degrees, as stored), distance and fov.
 */
import { quatAngleDeg } from '../vmd/quat-angle';
import { sampleBoneInto, sampleCamera, sampleMorph } from '../vmd/sample';
import type { MotionTracks } from '../vmd/tracks';

const IDENTITY = [0, 0, 0, 1];

export type PlotKind = 'bone' | 'morph' | 'camera';

/** Values at `n` frames from `from` to `to`; null when the track is not in these tracks. */
export function channelPlot(tracks: MotionTracks, kind: PlotKind, name: string, channel: number, from: number, to: number, n: number): Float64Array | null {
  const out = new Float64Array(n);
  const at = (i: number) => (n > 1 ? from + ((to - from) * i) / (n - 1) : from);
  if (kind === 'bone') {
    const t = tracks.bones.index.get(name);
    if (t === undefined) return null;
    const p = [0, 0, 0], r = [0, 0, 0, 1];
    for (let i = 0; i < n; i++) {
      sampleBoneInto(tracks.bones, t, at(i), p, r, 0);
      if (channel < 3) out[i] = p[channel];
      else {
        out[i] = quatAngleDeg(r, 0, IDENTITY, 0);
      }
    }
    return out;
  }
  if (kind === 'morph') {
    const t = tracks.morphs.index.get(name);
    if (t === undefined) return null;
    for (let i = 0; i < n; i++) out[i] = sampleMorph(tracks.morphs, t, at(i));
    return out;
  }
  if (!tracks.camera.frames.length) return null;
  for (let i = 0; i < n; i++) {
    const c = sampleCamera(tracks.camera, at(i))!;
    out[i] = channel < 3 ? c.target[channel] : channel === 3 ? (c.rotation[0] * 180) / Math.PI : channel === 4 ? c.distance : c.fov;
  }
  return out;
}

/** The original's and the result's plot of one channel over the same played time (the result re-timed by 1/factor). */
export interface FitOverlay {
  original: Float64Array;
  result: Float64Array;
  /** Frames the plot spans in the original (0 to its last frame). */
  from: number;
  to: number;
}

/**
 * The overlay a fit preview draws, in the Whole Motion dialog and in the curve pane's plot alike: `n`
 * samples of the channel over the original's frames and over the result's matching frames (÷ factor
 * for a re-timing); null when either motion lacks the track.
 */
export function fitOverlay(before: MotionTracks, after: MotionTracks, factor: number, kind: PlotKind, name: string, channel: number, n: number): FitOverlay | null {
  const last = before.lastFrame;
  const ch = kind === 'morph' ? 0 : Math.min(channel, kind === 'bone' ? 3 : 5);
  const original = channelPlot(before, kind, name, ch, 0, last, n);
  const result = channelPlot(after, kind, name, ch, 0, last / factor, n);
  return original && result ? { original, result, from: 0, to: last } : null;
}
