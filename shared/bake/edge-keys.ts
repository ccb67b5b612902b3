/**
 * The keys at A−1 and B+1 that leave baked bones outside A..B as the motion had them. A bone's first key holds
 * before it and its last after it, so a baked bone without a key of its own at A−1 (A > 0) or at B+1 (when the
 * motion goes on after B) gets one there, with the motion's value at that frame, linear, and the physics flag of
 * the motion's key in force there (on for a bone without keys): playback before A and after B goes on from the
 * motion's own values instead of sliding into the baked keys (an IK chain solved after B starts from them).
 */
import type { ModelData } from '../pmx/model-types';
import { buildBoneInterpolation, PHYSICS_OFF, physicsOff, setPhysicsOff } from '../vmd/interpolation';
import { LINEAR_CURVE } from '../vmd/bezier';
import { keyAtOrBefore, type MotionTracks } from '../vmd/tracks';
import { sampleBoneInto } from '../vmd/sample';
import type { VmdDocument } from '../vmd/vmd-document';
import { BONE } from '../vmd/vmd-layout';
import { encodeBoneRecord } from '../vmd/vmd-build';
import { boneTrackMap } from './world-keys';

/**
 * The keys at A−1 and B+1 that leave physics outside A..B as the motion had it (see the file comment): for each
 * baked bone without a key of its own at A−1 (A > 0) or at B+1 (when the motion goes on after B), a linear key
 * with the motion's value there and the physics flag of the motion's key in force there (on for a bone without
 * keys). With physics on the value is not used; with physics off the motion plays on from it as before.
 */
export function edgeKeys(motion: VmdDocument, tracks: MotionTracks, model: ModelData, bones: readonly number[], nameBytes: readonly Uint8Array[], from: number, to: number): Uint8Array[] {
  const tb = tracks.bones;
  const trackOf = boneTrackMap(model, tb);
  // lastFrame is over every block: a key of anything after B means the motion goes on.
  const goesOn = to + 1 <= tracks.lastFrame;
  const pos = new Float64Array(3), rot = new Float64Array(4);
  const out: Uint8Array[] = [];
  const keyAt = (k: number, t: number, f: number) => {
    let off = false;
    if (t >= 0) {
      const a = tb.start[t];
      let i = keyAtOrBefore(tb.frames, a, tb.start[t + 1], f);
      if (i < a) i = a; // before a bone's first key, the first key's flag is in force
      off = physicsOff(motion.bone.bytes, tb.record[i] * BONE.SIZE + BONE.INTERPOLATION);
      sampleBoneInto(tb, t, f, pos, rot, 0);
    } else {
      pos.fill(0);
      rot.set([0, 0, 0, 1]);
    }
    const interpolation = buildBoneInterpolation([LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE], PHYSICS_OFF);
    if (!off) setPhysicsOff(interpolation, false);
    out.push(encodeBoneRecord({ name: nameBytes[k], frame: f, position: [pos[0], pos[1], pos[2]], rotation: [rot[0], rot[1], rot[2], rot[3]], interpolation }));
  };
  bones.forEach((b, k) => {
    const t = trackOf[b];
    const a = t >= 0 ? tb.start[t] : 0, e = t >= 0 ? tb.start[t + 1] : 0;
    const hasKeyAt = (f: number) => {
      const i = t >= 0 ? keyAtOrBefore(tb.frames, a, e, f) : -1;
      return t >= 0 && i >= a && tb.frames[i] === f;
    };
    if (from > 0 && !hasKeyAt(from - 1)) keyAt(k, t, from - 1);
    if (goesOn && !hasKeyAt(to + 1)) keyAt(k, t, to + 1);
  });
  return out;
}
