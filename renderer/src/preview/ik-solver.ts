/**
 * Cyclic-coordinate-descent IK the way MMD runs it: per iteration, each link from the effector's parent up
 * turns so the effector points at the IK bone, by at most the chain's limit angle per step; links with
 * Euler limits are clamped, and knee-style links (X axis only) turn about X alone — projecting onto the
 * YZ plane keeps a straight leg from locking.
 */
import * as THREE from 'three';
import type { Rig, RigIk } from './rig';

const goal = new THREE.Vector3();
const eff = new THREE.Vector3();
const linkPos = new THREE.Vector3();
const toEff = new THREE.Vector3();
const toGoal = new THREE.Vector3();
const axis = new THREE.Vector3();
const invQ = new THREE.Quaternion();
const q = new THREE.Quaternion();
const euler = new THREE.Euler();
const X = new THREE.Vector3(1, 0, 0);

/** Solves one IK chain in place; world matrices of the links' subtrees are kept current. */
export function solveIk(rig: Rig, ik: RigIk): void {
  const bones = rig.bones;
  const effector = bones[ik.target];
  // World matrices are kept current by the caller and by each link update below, so read them directly
  // (getWorldPosition would recompute every ancestor on each call).
  goal.setFromMatrixPosition(bones[ik.bone].matrixWorld);
  for (let it = 0; it < ik.loopCount; it++) {
    for (const l of ik.links) {
      const link = bones[l.bone];
      linkPos.setFromMatrixPosition(link.matrixWorld);
      eff.setFromMatrixPosition(effector.matrixWorld);
      invQ.setFromRotationMatrix(link.matrixWorld).invert();
      toEff.subVectors(eff, linkPos).applyQuaternion(invQ);
      toGoal.subVectors(goal, linkPos).applyQuaternion(invQ);
      if (l.xOnly) {
        toEff.x = 0;
        toGoal.x = 0;
        if (toEff.lengthSq() < 1e-12 || toGoal.lengthSq() < 1e-12) continue;
        toEff.normalize();
        toGoal.normalize();
        let angle = Math.atan2(toEff.y * toGoal.z - toEff.z * toGoal.y, toEff.dot(toGoal));
        angle = Math.max(-ik.limitAngle, Math.min(ik.limitAngle, angle));
        euler.setFromQuaternion(link.quaternion, 'XYZ');
        const x = Math.max(l.min!.x, Math.min(l.max!.x, euler.x + angle));
        link.quaternion.setFromAxisAngle(X, x);
      } else {
        if (toEff.lengthSq() < 1e-12 || toGoal.lengthSq() < 1e-12) continue;
        toEff.normalize();
        toGoal.normalize();
        const dot = Math.max(-1, Math.min(1, toEff.dot(toGoal)));
        let angle = Math.acos(dot);
        if (angle < 1e-5) continue;
        angle = Math.min(angle, ik.limitAngle);
        axis.crossVectors(toEff, toGoal);
        if (axis.lengthSq() < 1e-12) continue;
        axis.normalize();
        q.setFromAxisAngle(axis, angle);
        link.quaternion.multiply(q);
        if (l.min && l.max) {
          euler.setFromQuaternion(link.quaternion, 'XYZ');
          euler.set(
            Math.max(l.min.x, Math.min(l.max.x, euler.x)),
            Math.max(l.min.y, Math.min(l.max.y, euler.y)),
            Math.max(l.min.z, Math.min(l.max.z, euler.z)),
            'XYZ',
          );
          link.quaternion.setFromEuler(euler);
        }
      }
      link.updateMatrixWorld(true);
    }
    eff.setFromMatrixPosition(effector.matrixWorld);
    if (eff.distanceToSquared(goal) < 1e-10) break;
  }
}
