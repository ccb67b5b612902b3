// The test and profiling queries of renderer/src/e2e/preview-diagnostics.ts that need no WebGL:
// bones in world space on the default figure (at rest: the rest positions with MMD's z negated, no
// rotation; turned: a child follows its parent), and null for a bone the rig lacks.
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { defaultFigureBones } from '../../../shared/skeleton/standard-figure';
import { buildRig, updateRigWorld } from '../../../renderer/src/preview/rig';
import { boneWorldPosition, boneWorldQuaternion } from '../../../renderer/src/e2e/preview-diagnostics';

describe('preview diagnostics', () => {
  it('reads a joint at rest where the figure puts it, unrotated', () => {
    const bones = defaultFigureBones();
    const rig = buildRig(bones);
    updateRigWorld(rig);
    const elbow = bones.find((b) => b.name === '左ひじ')!;
    const p = boneWorldPosition(rig, '左ひじ')!;
    [elbow.position[0], elbow.position[1], -elbow.position[2]].forEach((v, i) => expect(p[i]).toBeCloseTo(v, 5));
    const q = boneWorldQuaternion(rig, '左ひじ')!;
    expect(Math.abs(q[3])).toBeCloseTo(1, 9);
    expect(boneWorldPosition(rig, '存在しない骨')).toBeNull();
    expect(boneWorldQuaternion(rig, '存在しない骨')).toBeNull();
  });

  it('a turned shoulder turns the elbow in world space', () => {
    const rig = buildRig(defaultFigureBones());
    const arm = rig.bones[rig.byKey.get('左腕')!];
    arm.quaternion.setFromAxisAngle(new THREE.Vector3(0, 0, 1), Math.PI / 2);
    updateRigWorld(rig);
    const q = boneWorldQuaternion(rig, '左ひじ')!;
    // 90° about z inherited from 左腕: (0, 0, sin 45°, cos 45°).
    [0, 0, Math.SQRT1_2, Math.SQRT1_2].forEach((v, i) => expect(q[i]).toBeCloseTo(v, 6));
  });
});
