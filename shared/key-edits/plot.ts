/**
 * The live plot under the curve: what a key's curve does to the motion between the previous key of
 * its track and this key, one value per frame. Position and camera channels give the value itself;
 * a bone's rotation gives the angle turned so far in degrees (slerp turns at a constant rate in angle,
 * so the angle is the curve's progress times the whole angle between the two quaternions).
 */
import { curveProgress, type Curve } from '../vmd/bezier';
import { quatAngleDeg } from '../vmd/quat-angle';
import type { MotionTracks } from '../vmd/tracks';
import { locate, type KeyRef } from './key-ref';

export interface ChannelSeries {
  /** Frame of the previous key and of this key. */
  from: number;
  to: number;
  /** One value per frame from `from` to `to` inclusive. */
  values: Float64Array;
  /** Value at the previous key and at this key. */
  start: number;
  end: number;
  unit: 'position' | 'degrees' | 'distance' | 'fov';
}

const DEG = 180 / Math.PI;

/** Angle in degrees between the rotations of two keys (shortest arc). */
export function angleBetween(r: Float32Array, a: number, b: number): number {
  return quatAngleDeg(r, 4 * a, r, 4 * b);
}

/**
 * The series for `channel` of key `ref` using `curve` for that channel (the curve being dragged, not
 * necessarily the stored one). Null when the key is the first of its track (nothing to interpolate)
 * or is not a bone or camera key. `out` is reused when long enough (no allocation while dragging).
 */
export function channelSeries(tracks: MotionTracks, ref: KeyRef, recordCount: number, channel: number, curve: Curve, out?: Float64Array): ChannelSeries | null {
  if (ref.kind !== 'bone' && ref.kind !== 'camera') return null;
  const loc = locate(tracks, ref, recordCount);
  if (!loc || loc.key === loc.start) return null;
  const k1 = loc.key, k0 = k1 - 1;
  const t = ref.kind === 'bone' ? tracks.bones : tracks.camera;
  const from = t.frames[k0], to = t.frames[k1];
  const n = to - from + 1;
  const values = out && out.length >= n ? out.subarray(0, n) : new Float64Array(n);
  let start = 0, end = 0;
  let unit: ChannelSeries['unit'] = 'position';
  if (ref.kind === 'bone') {
    const b = tracks.bones;
    if (channel < 3) {
      start = b.position[3 * k0 + channel];
      end = b.position[3 * k1 + channel];
    } else {
      start = 0;
      end = angleBetween(b.rotation, k0, k1);
      unit = 'degrees';
    }
  } else {
    const c = tracks.camera;
    if (channel < 3) {
      start = c.target[3 * k0 + channel];
      end = c.target[3 * k1 + channel];
    } else if (channel === 3) {
      // Three Euler angles share one curve: plot the one that changes most, in degrees.
      let best = 0, span = -1;
      for (let i = 0; i < 3; i++) {
        const d = Math.abs(c.rotation[3 * k1 + i] - c.rotation[3 * k0 + i]);
        if (d > span) { span = d; best = i; }
      }
      start = c.rotation[3 * k0 + best] * DEG;
      end = c.rotation[3 * k1 + best] * DEG;
      unit = 'degrees';
    } else if (channel === 4) {
      start = c.distance[k0];
      end = c.distance[k1];
      unit = 'distance';
    } else {
      start = c.fov[k0];
      end = c.fov[k1];
      unit = 'fov';
    }
  }
  // A camera cut (keys one frame apart) holds: the curve has no effect there.
  for (let i = 0; i < n; i++) {
    const p = i === n - 1 ? 1 : curveProgress(curve, i / (n - 1));
    values[i] = start + (end - start) * p;
  }
  return { from, to, values, start, end, unit };
}
