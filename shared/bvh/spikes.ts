/**
 * Capture glitches: a joint that flips out and back within a few capture frames (an Euler flip or a marker
 * swap in the capture: CMU 131_01's RThumb turns 171° between frames 236 and 237 and 179° back at 242→243),
 * far beyond how fast it moves just before and after. Fitted as any other sample, such a flip becomes a
 * one-frame turn of the bone (a 135° thumb on Gene at output frame 60); import.ts reports each one found
 * (bone, frames, degrees) and, asked (--despike, the dialog's Remove glitches), replaces the joint's
 * rotation over the glitch by the slerp between its neighbours.
 *
 * Found on each mapped joint's local rotation (its channels, parent-relative): a step into the glitch and one
 * out of it within MAX_GLITCH_S, each at least JUMP_MIN_DEG and JUMP_RATIO × the fastest other step from
 * MAX_GLITCH_S before to MAX_GLITCH_S after (the glitch's own frames included); the frames either side
 * within what that speed covers over the gap (+ RETURN_SLACK_DEG); the glitch frames off the slerp between
 * those two by at least DEVIATION_MIN_DEG. A real turn, however fast, has frames on its way (a jump is one
 * frame) and does not jump back to where it left.
 */
import type { BvhMotion } from './bvh-reader';
import type { Quat } from '../vmd/records';
import { axisAngle, qmul, quatToEuler } from './quat';

export const JUMP_MIN_DEG = 25;
export const JUMP_RATIO = 4;
export const DEVIATION_MIN_DEG = 25;
export const RETURN_SLACK_DEG = 3;
/** Longest glitch, seconds (12 frames at 120 fps, 3 at 30). */
export const MAX_GLITCH_S = 0.1;

export interface CaptureSpike {
  joint: number;
  /** First and last capture frame of the glitch (the frames before and after it are good). */
  from: number;
  to: number;
  /** Largest angle of a glitch frame off the slerp between the good frames either side. */
  deg: number;
}

const AXES = { X: 0, Y: 1, Z: 2 } as const;

/** The joint's rotation channels as a quaternion at frame f (the file's space, channel order), or null without rotation channels. */
function localAt(m: BvhMotion, j: number, f: number): Quat | null {
  const J = m.joints[j];
  let r: Quat = [0, 0, 0, 1];
  let any = false;
  for (let c = 0; c < J.channels.length; c++) {
    const ch = J.channels[c];
    if (!ch.endsWith('rotation')) continue;
    any = true;
    r = qmul(r, axisAngle(AXES[ch[0] as 'X' | 'Y' | 'Z'], (m.values[f * m.channelCount + J.channelStart + c] * Math.PI) / 180));
  }
  return any ? r : null;
}

function angle(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const d = Math.min(1, Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]));
  return (2 * Math.acos(d) * 180) / Math.PI;
}

export function slerp(a: ArrayLike<number>, b: ArrayLike<number>, u: number): Quat {
  let [bx, by, bz, bw] = [b[0], b[1], b[2], b[3]];
  let d = a[0] * bx + a[1] * by + a[2] * bz + a[3] * bw;
  if (d < 0) {
    [bx, by, bz, bw] = [-bx, -by, -bz, -bw];
    d = -d;
  }
  let s0 = 1 - u, s1 = u;
  if (d < 0.9995) {
    const th = Math.acos(Math.min(1, d));
    s0 = Math.sin((1 - u) * th) / Math.sin(th);
    s1 = Math.sin(u * th) / Math.sin(th);
  }
  const q: Quat = [s0 * a[0] + s1 * bx, s0 * a[1] + s1 * by, s0 * a[2] + s1 * bz, s0 * a[3] + s1 * bw];
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** Glitches of the given joints, in joint then frame order. `rate`: capture frames per second. */
export function findSpikes(m: BvhMotion, joints: readonly number[], rate: number): CaptureSpike[] {
  const N = m.frameCount;
  const W = Math.max(1, Math.round(MAX_GLITCH_S * rate));
  const out: CaptureSpike[] = [];
  for (const j of joints) {
    if (N < 3) break;
    const q: Quat[] = [];
    for (let f = 0; f < N; f++) {
      const r = localAt(m, j, f);
      if (!r) break;
      q.push(r);
    }
    if (q.length < N) continue;
    const step = new Float64Array(N - 1);
    for (let f = 0; f < N - 1; f++) step[f] = angle(q[f], q[f + 1]);
    const fastest = (a: number, b: number) => {
      let v = 0;
      for (let f = Math.max(0, a); f <= Math.min(N - 2, b); f++) v = Math.max(v, step[f]);
      return v;
    };
    for (let s = 1; s < N - 1; s++) {
      // The step into the glitch: frame s − 1 is good, s the first bad one; e the last bad one, e + 1 good again.
      if (step[s - 1] < JUMP_MIN_DEG) continue;
      for (let e = s; e <= Math.min(s + W - 1, N - 2); e++) {
        if (step[e] < JUMP_MIN_DEG) continue;
        // The fastest the joint turns around and within the glitch, the two jumps left out.
        let speed = 0;
        for (let k = Math.max(0, s - 1 - W); k <= Math.min(N - 2, e + W); k++) if (k !== s - 1 && k !== e) speed = Math.max(speed, step[k]);
        if (Math.min(step[s - 1], step[e]) < JUMP_RATIO * speed) continue;
        const gap = e - s + 2;
        if (angle(q[s - 1], q[e + 1]) > gap * speed + RETURN_SLACK_DEG) continue;
        let dev = 0;
        for (let k = s; k <= e; k++) dev = Math.max(dev, angle(q[k], slerp(q[s - 1], q[e + 1], (k - s + 1) / gap)));
        if (dev < DEVIATION_MIN_DEG) continue;
        out.push({ joint: j, from: s, to: e, deg: dev });
        s = e;
        break;
      }
    }
  }
  return out;
}

/**
 * The capture with each glitch's rotation channels replaced by the slerp between the good frames either
 * side (written back in the joint's channel order); other channels and frames as they were. Joints with
 * fewer than three rotation channels are left as they are (a slerp may need the missing axis).
 */
export function removeSpikes(m: BvhMotion, spikes: readonly CaptureSpike[]): { motion: BvhMotion; fixed: CaptureSpike[] } {
  const values = m.values.slice();
  const fixed: CaptureSpike[] = [];
  for (const sp of spikes) {
    const J = m.joints[sp.joint];
    const rc = J.channels.map((ch, c) => (ch.endsWith('rotation') ? c : -1)).filter((c) => c >= 0);
    if (rc.length !== 3) continue;
    const order = rc.map((c) => AXES[J.channels[c][0] as 'X' | 'Y' | 'Z']) as (0 | 1 | 2)[];
    const a = localAt(m, sp.joint, sp.from - 1)!, b = localAt(m, sp.joint, sp.to + 1)!;
    const gap = sp.to - sp.from + 2;
    for (let f = sp.from; f <= sp.to; f++) {
      const e = quatToEuler(slerp(a, b, (f - sp.from + 1) / gap), order);
      rc.forEach((c, i) => (values[f * m.channelCount + J.channelStart + c] = (e[order[i]] * 180) / Math.PI));
    }
    fixed.push(sp);
  }
  return { motion: { ...m, values }, fixed };
}
