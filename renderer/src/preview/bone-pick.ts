/**
 * Picking a bone by clicking its joint in the 3D preview, as plain math over typed arrays (no three.js,
 * no DOM, so tests drive it with hand-made cameras and joints): project joint world positions to CSS
 * pixels once per click, rank each bone (tracked by the motion, an ordinary bone, a tip), and take the
 * best-ranked joint within a radius of the click, nearest first.
 */
import { BONE_FLAG, type ModelBone } from '../../../shared/pmx/model-types';
import type { NamedTracks } from '../../../shared/vmd/tracks';
import { keyAtFrame } from '../../../shared/key-edits/key-ref';

/** How far from a joint (CSS px) a click still picks it. */
export const PICK_RADIUS_PX = 12;

/**
 * Pick preference, lower wins over any distance within the radius: bones the motion keys (the click
 * selects their track), then tips it keys (many exported motions carry one key for every bone, 頭先 and
 * センター先 included), other bones (only their name is shown), then tips and hidden bones.
 */
export const PickTier = { TRACKED: 0, TRACKED_TIP: 1, BONE: 2, TIP: 3 } as const;

/**
 * Whether a bone is a tip: hidden or not operable (PMX 表示 / 操作 off: MMD does not draw or let you grab
 * it), or named like the zero-length end bones modelling tools add (頭先, 左人指先, Hair_end, ArmEnd). A tip
 * sits on or just past its parent's visible end, so it would otherwise steal clicks meant for a real joint;
 * no dot is drawn for it (joint-dots.ts).
 */
export function isTipBone(bone: Pick<ModelBone, 'name' | 'flags'>): boolean {
  if (!(bone.flags & BONE_FLAG.VISIBLE) || !(bone.flags & BONE_FLAG.ENABLED)) return true;
  const n = bone.name;
  return /先$/.test(n) || /(?:^|[^A-Za-z])end$/i.test(n) || /[a-z]End$/.test(n);
}

/**
 * Tier of every rig bone (PickTier) into `out` (resized when needed; returned). `trackBone` is the pose
 * binding's map from bone track to rig bone (−1 when the rig lacks it).
 */
export function pickTiers(bones: readonly Pick<ModelBone, 'name' | 'flags'>[], trackBone: ArrayLike<number>, out?: Uint8Array): Uint8Array {
  const tiers = out && out.length === bones.length ? out : new Uint8Array(bones.length);
  for (let i = 0; i < bones.length; i++) tiers[i] = isTipBone(bones[i]) ? PickTier.TIP : PickTier.BONE;
  for (let t = 0; t < trackBone.length; t++) {
    const b = trackBone[t];
    if (b >= 0 && b < bones.length) tiers[b] = tiers[b] === PickTier.TIP ? PickTier.TRACKED_TIP : PickTier.TRACKED;
  }
  return tiers;
}

/**
 * The first bone track bound to each rig bone, −1 for bones no track moves (several names can match one
 * bone when a long name was cut to the VMD's 15 bytes; the first in the file is the one sampling uses).
 */
export function trackOfBone(boneCount: number, trackBone: ArrayLike<number>): Int32Array {
  const out = new Int32Array(boneCount).fill(-1);
  for (let t = 0; t < trackBone.length; t++) {
    const b = trackBone[t];
    if (b >= 0 && b < boneCount && out[b] < 0) out[b] = t;
  }
  return out;
}

/**
 * Projects points with a view-projection matrix (16 numbers, column-major as three.js stores them) to a
 * viewport of width × height CSS px: out gets x from the left, y from the top and the NDC depth (−1 near
 * plane … 1 far plane) per point. Points behind the camera or outside the near/far range get NaN, which
 * pickJoint skips. No allocation.
 */
export function projectJoints(m: ArrayLike<number>, world: ArrayLike<number>, count: number, width: number, height: number, out: Float32Array): void {
  for (let i = 0; i < count; i++) {
    const x = world[3 * i], y = world[3 * i + 1], z = world[3 * i + 2];
    const cx = m[0] * x + m[4] * y + m[8] * z + m[12];
    const cy = m[1] * x + m[5] * y + m[9] * z + m[13];
    const cz = m[2] * x + m[6] * y + m[10] * z + m[14];
    const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
    const o = 3 * i;
    const d = cz / cw;
    if (!(cw > 0) || !(d >= -1 && d <= 1)) {
      out[o] = out[o + 1] = out[o + 2] = NaN;
      continue;
    }
    out[o] = ((cx / cw + 1) / 2) * width;
    out[o + 1] = ((1 - cy / cw) / 2) * height;
    out[o + 2] = d;
  }
}

/**
 * The joint a click at (x, y) picks among `count` projected joints (x, y, depth per joint, as written by
 * projectJoints), or −1 when none lies within `radius`. Best tier first; within a tier the nearest on
 * screen; equal distances go to the joint nearer the camera (the one drawn in front), then the lower index.
 */
export function pickJoint(screen: ArrayLike<number>, tiers: ArrayLike<number>, count: number, x: number, y: number, radius: number): number {
  let best = -1, bestTier = Infinity, bestD2 = Infinity, bestDepth = Infinity;
  const r2 = radius * radius;
  for (let i = 0; i < count; i++) {
    const dx = screen[3 * i] - x, dy = screen[3 * i + 1] - y;
    const d2 = dx * dx + dy * dy;
    // NaN (behind the camera) fails this comparison too.
    if (!(d2 <= r2)) continue;
    const tier = tiers[i], depth = screen[3 * i + 2];
    if (tier > bestTier) continue;
    if (tier === bestTier && (d2 > bestD2 || (d2 === bestD2 && depth >= bestDepth))) continue;
    best = i;
    bestTier = tier;
    bestD2 = d2;
    bestDepth = depth;
  }
  return best;
}

/** Record index of track `track`'s key exactly at `frame` (a fractional frame has none), or −1. */
export function keyRecordAt(bones: NamedTracks, track: number, frame: number): number {
  if (!Number.isInteger(frame) || track < 0 || track >= bones.names.length) return -1;
  const k = keyAtFrame(bones.frames, bones.start[track], bones.start[track + 1], frame);
  return k < 0 ? -1 : bones.record[k];
}
