/**
 * A three.js skeleton built from model bone records (PMX, PMD or the default figure), with what posing needs:
 * rest offsets, name lookup on MMD's matching key, transform order, IK and append (付与) data.
 *
 * MMD → three.js: positions (x, y, z) → (x, y, −z); quaternions (x, y, z, w) → (−x, −y, z, w)
 * (shared/vmd/camera.ts). MMD bones have no rest rotation, so a bone's local rest transform is a
 * translation by (its position − its parent's position), converted.
 */
import * as THREE from 'three';
import type { Vec3 } from '../../../shared/vmd/records';
import { mmdToThreePosition } from '../../../shared/vmd/camera';
import { BONE_FLAG, type ModelBone } from '../../../shared/pmx/model-types';
import { matchKey } from '../../../shared/pmx/model-inspect';

export interface RigIk {
  /** The IK bone (its position is the goal). */
  bone: number;
  /** The effector moved onto the goal. */
  target: number;
  loopCount: number;
  limitAngle: number;
  links: { bone: number; min: THREE.Vector3 | null; max: THREE.Vector3 | null; xOnly: boolean }[];
}

export interface Rig {
  info: ModelBone[];
  bones: THREE.Bone[];
  /** Root bones' holder; add this to the scene (or the bones to a SkinnedMesh). */
  roots: THREE.Bone[];
  /** Rest local offsets, 3 per bone, three.js coordinates. */
  rest: Float32Array;
  /** Bone index by matchKey(name); the first bone of a name wins. */
  byKey: Map<string, number>;
  /** Transform order: after-physics last, then by layer, then by index. */
  order: number[];
  /** IK solver setup per IK bone index. */
  iks: Map<number, RigIk>;
}

/** MMD Euler limits → three.js: X and Y change sign (so min and max swap), Z stays. */
export function limitsToThree(min: Vec3, max: Vec3): { min: THREE.Vector3; max: THREE.Vector3 } {
  return { min: new THREE.Vector3(-max[0], -max[1], min[2]), max: new THREE.Vector3(-min[0], -min[1], max[2]) };
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
  const order = info.map((_, i) => i);
  const after = (i: number) => (info[i].flags & BONE_FLAG.AFTER_PHYSICS ? 1 : 0);
  order.sort((a, b) => after(a) - after(b) || info[a].layer - info[b].layer || a - b);
  const iks = new Map<number, RigIk>();
  info.forEach((b, i) => {
    if (!b.ik) return;
    iks.set(i, {
      bone: i,
      target: b.ik.target,
      loopCount: Math.max(1, Math.min(b.ik.loopCount, 256)),
      limitAngle: b.ik.limitAngle > 0 ? b.ik.limitAngle : Math.PI,
      links: b.ik.links.map((l) => {
        if (!l.limits) return { bone: l.bone, min: null, max: null, xOnly: false };
        const { min, max } = limitsToThree(l.limits.min, l.limits.max);
        const xOnly = min.y === 0 && max.y === 0 && min.z === 0 && max.z === 0;
        return { bone: l.bone, min, max, xOnly };
      }),
    });
  });
  return { info, bones, roots, rest, byKey, order, iks };
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
