/** Small models built in the test for physics: bones, rigid bodies and joints given, everything else empty. */
import type { ModelBone, ModelData, ModelJoint, ModelRigidBody } from '../../shared/pmx/model-types';
import type { Vec3 } from '../../shared/vmd/records';

export function bone(name: string, position: Vec3, parent = -1): ModelBone {
  return { name, nameEn: '', position, parent, layer: 0, flags: 0x1f, tailBone: -1, tailOffset: [0, 0, 0], appendParent: -1, appendRatio: 0, fixedAxis: null, ik: null };
}

export function body(name: string, b: number, mode: number, shape: number, size: Vec3, position: Vec3, more: Partial<ModelRigidBody> = {}): ModelRigidBody {
  return {
    name, nameEn: '', bone: b, group: 0, mask: 0xffff, shape, size, position, rotation: [0, 0, 0], mass: 1,
    linearDamping: 0, angularDamping: 0, restitution: 0, friction: 0.5, mode, offset: 0, ...more,
  };
}

export function joint(name: string, a: number, b: number, position: Vec3, more: Partial<ModelJoint> = {}): ModelJoint {
  const z: Vec3 = [0, 0, 0];
  return {
    name, nameEn: '', type: 0, bodyA: a, bodyB: b, position, rotation: z, linearLower: z, linearUpper: z, angularLower: z, angularUpper: z,
    linearSpring: z, angularSpring: z, offset: 0, ...more,
  };
}

export function physicsModel(bones: ModelBone[], rigidBodies: ModelRigidBody[], joints: ModelJoint[] = []): ModelData {
  return {
    format: 'pmx', version: 2, name: 'test', nameEn: '', comment: '', commentEn: '', vertexCount: 0, positions: new Float32Array(0), normals: new Float32Array(0),
    uvs: new Float32Array(0), skinIndices: new Uint32Array(0), skinWeights: new Float32Array(0), deform: new Uint8Array(0), edgeScales: new Float32Array(0),
    indices: new Uint32Array(0), textures: [], materials: [], bones, morphs: [], rigidBodyCount: rigidBodies.length, jointCount: joints.length,
    rigidBodies, joints, softBodies: [], physicsError: null,
  };
}
