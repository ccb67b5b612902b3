import { BONE_FLAG, type ModelData } from '../../shared/pmx/model-types';

/**
 * A model of bones and morphs only (no mesh, no physics) for the retarget's and the warnings' tests: each bone
 * rotatable, movable, visible, a chain one above the other from height 8, each morph a vertex morph of nothing.
 */
export function bareModel(name: string, bones: string[], morphs: string[]): ModelData {
  const flags = BONE_FLAG.ROTATABLE | BONE_FLAG.TRANSLATABLE | BONE_FLAG.VISIBLE | BONE_FLAG.ENABLED;
  return {
    format: 'pmx', version: 2, name, nameEn: '', comment: '', commentEn: '', vertexCount: 0, positions: new Float32Array(0), normals: new Float32Array(0),
    uvs: new Float32Array(0), skinIndices: new Uint32Array(0), skinWeights: new Float32Array(0), deform: new Uint8Array(0), edgeScales: new Float32Array(0),
    indices: new Uint32Array(0), textures: [], materials: [],
    bones: bones.map((n, i) => ({ name: n, nameEn: '', position: [0, 8 + i, 0], parent: i - 1, layer: 0, flags, tailBone: -1, tailOffset: [0, 0, 0], appendParent: -1, appendRatio: 0, fixedAxis: null, ik: null })),
    morphs: morphs.map((m) => ({ name: m, nameEn: '', panel: 3, kind: 'vertex' as const, count: 0, vertex: null, group: null, bone: null, uv: null, material: null })),
    rigidBodyCount: 0, jointCount: 0, rigidBodies: [], joints: [], softBodies: [], physicsError: null,
  };
}
