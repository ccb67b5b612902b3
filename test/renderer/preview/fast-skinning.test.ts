// The cheaper skinning chunks: swapped into the vertex shader of the materials of our skinned meshes
// (which are bound at the origin), with their own program cache key; a mesh bound elsewhere is refused.
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { boundAtOrigin, useFastSkinning } from '../../../renderer/src/preview/fast-skinning';
import { buildDefaultFigure } from '../../../renderer/src/preview/figure-mesh';

function compiled(material: THREE.Material): string {
  const shader = { vertexShader: THREE.ShaderLib.lambert.vertexShader, fragmentShader: THREE.ShaderLib.lambert.fragmentShader, uniforms: {} } as unknown as THREE.WebGLProgramParametersWithUniforms;
  material.onBeforeCompile(shader, {} as THREE.WebGLRenderer);
  return shader.vertexShader;
}

describe('fast skinning', () => {
  it('replaces the three stock skinning chunks and keys its own program', () => {
    const plain = new THREE.MeshLambertMaterial();
    const fast = new THREE.MeshLambertMaterial();
    useFastSkinning(fast);
    const src = compiled(fast);
    for (const chunk of ['skinbase_vertex', 'skinnormal_vertex', 'skinning_vertex']) {
      expect(THREE.ShaderLib.lambert.vertexShader).toContain(`#include <${chunk}>`);
      expect(src).not.toContain(`#include <${chunk}>`);
    }
    // One blended matrix moves position and normal; zero-weight bones are not fetched.
    expect(src.match(/mmdSkin \*/g)).toHaveLength(2);
    // Taken back into the mesh's space (its bones carry its place): a mesh moved off the origin is placed once.
    expect(src).toContain('transformed = ( bindMatrixInverse * ( mmdSkin * vec4( transformed, 1.0 ) ) ).xyz;');
    expect(src).toContain('objectNormal = ( bindMatrixInverse * ( mmdSkin * vec4( objectNormal, 0.0 ) ) ).xyz;');
    expect(src).toContain('if ( skinWeight.w != 0.0 )');
    expect(compiled(plain)).toBe(THREE.ShaderLib.lambert.vertexShader);
    expect(fast.customProgramCacheKey()).not.toBe(plain.customProgramCacheKey());
  });

  it('the default figure is bound at the origin and uses it; a mesh bound elsewhere is not at the origin', () => {
    const fig = buildDefaultFigure();
    expect(boundAtOrigin(fig.mesh)).toBe(true);
    expect(compiled(fig.mesh.material as THREE.Material)).toContain('mmdSkin');
    const moved = new THREE.SkinnedMesh(new THREE.BufferGeometry(), new THREE.MeshBasicMaterial());
    moved.position.set(0, 1, 0);
    moved.updateMatrixWorld(true);
    moved.bind(new THREE.Skeleton([new THREE.Bone()]));
    expect(boundAtOrigin(moved)).toBe(false);
  });
});
