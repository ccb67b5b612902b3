/**
 * Forward kinematics of a BVH motion: every joint's world rotation and position at a frame, in MMD's
 * coordinates. BVH is right-handed with Y up and the character facing +Z (toward the viewer), its
 * left side at +X; MMD is left-handed with Y up and a model facing −Z, its left (左) at +X. Mirroring Z
 * maps one onto the other with left staying left and the front turning from +Z to −Z:
 * points (x, y, z) → (x, y, −z), rotations (x, y, z, w) → (−x, −y, z, w) (quat.ts toMmd*).
 *
 * A joint's local transform is its translation, then its rotation channels composed in the order the
 * file lists them (the first outermost), angles in degrees. Its translation is its OFFSET, or, for a joint
 * with position channels, those channels: they are the joint's position in its parent's space, REPLACING
 * the OFFSET (not added to it), as Blender reads and writes BVH (io_anim_bvh: a bone's location is the
 * channels less the rest head; its exporter writes OFFSET = rest head and the channels as the absolute
 * position); an axis the joint has no channel for is 0, as there. CMU's files have a root OFFSET of 0, so
 * both readings agree on them, as on export-bvh's (export.ts writes the root OFFSET 0 too). (three.js's
 * BVHLoader adds the OFFSET instead: a file written that way with a non-zero root OFFSET reads shifted by it here.) The rest pose (f = −1) is the OFFSETs alone.
 */
import type { Quat, Vec3 } from '../vmd/records';
import type { BvhMotion } from './bvh-reader';
import { axisAngle, qmul, rotate, toMmdQuat, toMmdVec } from './quat';

const AXIS = { X: 0, Y: 1, Z: 2 } as const;

/** World transforms of every joint at one frame, MMD coordinates (3 and 4 numbers per joint). */
export interface BvhWorld {
  position: Float64Array;
  rotation: Float64Array;
}

export function newWorld(m: BvhMotion): BvhWorld {
  return { position: new Float64Array(3 * m.joints.length), rotation: new Float64Array(4 * m.joints.length) };
}

/**
 * Poses every joint at frame f (an integer index, or −1 for the rest pose: offsets only, no channels)
 * into `out`, in MMD coordinates.
 */
export function bvhWorldAt(m: BvhMotion, f: number, out: BvhWorld = newWorld(m)): BvhWorld {
  const n = m.joints.length;
  // Right-handed world first (the file's own space), converted per joint at the end.
  const wp = new Float64Array(3 * n), wr = new Float64Array(4 * n);
  const row = f < 0 ? -1 : f * m.channelCount;
  for (let j = 0; j < n; j++) {
    const J = m.joints[j];
    const t: Vec3 = [J.offset[0], J.offset[1], J.offset[2]];
    let r: Quat = [0, 0, 0, 1];
    if (row >= 0) {
      // Position channels are the position: the OFFSET goes (every axis, those without a channel being 0).
      if (J.channels.some((ch) => ch.endsWith('position'))) t[0] = t[1] = t[2] = 0;
      for (let c = 0; c < J.channels.length; c++) {
        const ch = J.channels[c];
        const v = m.values[row + J.channelStart + c];
        const axis = AXIS[ch[0] as 'X' | 'Y' | 'Z'];
        if (ch.endsWith('position')) t[axis] = v;
        else r = qmul(r, axisAngle(axis, (v * Math.PI) / 180));
      }
    }
    if (J.parent < 0) {
      wp.set(t, 3 * j);
      wr.set(r, 4 * j);
    } else {
      const pr = wr.subarray(4 * J.parent, 4 * J.parent + 4);
      const d = rotate(pr, t);
      wp[3 * j] = wp[3 * J.parent] + d[0];
      wp[3 * j + 1] = wp[3 * J.parent + 1] + d[1];
      wp[3 * j + 2] = wp[3 * J.parent + 2] + d[2];
      wr.set(qmul(pr, r), 4 * j);
    }
  }
  for (let j = 0; j < n; j++) {
    out.position.set(toMmdVec(wp.subarray(3 * j, 3 * j + 3)), 3 * j);
    out.rotation.set(toMmdQuat(wr.subarray(4 * j, 4 * j + 4)), 4 * j);
  }
  return out;
}
