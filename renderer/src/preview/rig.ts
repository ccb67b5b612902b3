/**
 * A three.js skeleton built from model bone records (PMX, PMD or the default figure), with what posing needs:
 * rest offsets, name lookup on MMD's matching key, transform order, IK and append (付与) data.
 *
 * MMD → three.js: positions (x, y, z) → (x, y, −z); quaternions (x, y, z, w) → (−x, −y, z, w)
 * (shared/vmd/camera.ts). MMD bones have no rest rotation, so a bone's local rest transform is a
 * translation by (its position − its parent's position), converted.
 */
import * as THREE from 'three';
import { mmdToThreePosition } from '../../../shared/vmd/camera';
import type { ModelBone } from '../../../shared/pmx/model-types';
import { buildSkeleton, Pose, type Skeleton } from '../../../shared/skeleton';
import { matchKey } from '../../../shared/pmx/model-inspect';

export interface Rig {
  info: ModelBone[];
  bones: THREE.Bone[];
  /** Root bones' holder; add this to the scene (or the bones to a SkinnedMesh). */
  roots: THREE.Bone[];
  /** Rest local offsets, 3 per bone, three.js coordinates. */
  rest: Float32Array;
  /** Bone index by matchKey(name); the first bone of a name wins. */
  byKey: Map<string, number>;
  /**
   * The same bones for shared/skeleton, which poses them (append, IK: PoseBinding.solve), and the pose it
   * works in; the three.js bones show the result.
   */
  skeleton: Skeleton;
  pose: Pose;
}

export function buildRig(info: ModelBone[]): Rig {
  const bones = info.map((b) => {
    const bone = new THREE.Bone();
    bone.name = b.name;
    return bone;
  });
  const rest = new Float32Array(3 * info.length);
  const roots: THREE.Bone[] = [];
  info.forEach((b, i) => {
    const p = mmdToThreePosition(b.position);
    const q = b.parent >= 0 ? mmdToThreePosition(info[b.parent].position) : [0, 0, 0];
    rest[3 * i] = p[0] - q[0];
    rest[3 * i + 1] = p[1] - q[1];
    rest[3 * i + 2] = p[2] - q[2];
    bones[i].position.set(rest[3 * i], rest[3 * i + 1], rest[3 * i + 2]);
    if (b.parent >= 0) bones[b.parent].add(bones[i]);
    else roots.push(bones[i]);
  });
  const byKey = new Map<string, number>();
  info.forEach((b, i) => {
    const k = matchKey(b.name);
    if (!byKey.has(k)) byKey.set(k, i);
  });
  const skeleton = buildSkeleton(info);
  return { info, bones, roots, rest, byKey, skeleton, pose: new Pose(skeleton) };
}

/** Puts every bone back at rest (identity rotation, rest offset). */
export function resetRig(rig: Rig): void {
  const r = rig.rest;
  for (let i = 0; i < rig.bones.length; i++) {
    const b = rig.bones[i];
    b.position.set(r[3 * i], r[3 * i + 1], r[3 * i + 2]);
    b.quaternion.set(0, 0, 0, 1);
  }
}

/** Updates world matrices of the whole rig (each root and its subtree). */
export function updateRigWorld(rig: Rig): void {
  for (const root of rig.roots) root.updateMatrixWorld(true);
}
