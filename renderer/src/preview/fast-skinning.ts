/**
 * A cheaper skinning vertex shader for meshes bound at the origin (bindMatrix = identity, as ours are).
 * three.js's stock chunks transform the position by each of the 4 bone matrices and then, for the
 * normal, blend the 4 matrices and multiply by bindMatrixInverse and bindMatrix — two 4×4 matrix products
 * per vertex. Here the 4 matrices are blended once (bones with weight 0 are skipped: most MMD vertices use
 * 1 or 2 bones) and that one matrix moves both position and normal. Same linear-blend skinning, fewer
 * texture fetches and multiplies; on a software rasteriser (SwiftShader) skinning was about a third of
 * the frame. Shader chunks are swapped per material through onBeforeCompile.
 *
 * The bones are the mesh's children, so their world matrices (and the blended one) carry the mesh's own
 * place; the result is taken back into the mesh's space by bindMatrixInverse (the inverse of the mesh's
 * world matrix, three.js's attached bind mode) before the model matrix places it once. Without it a
 * mesh moved off the origin (a staged actor, the retarget ghost) was drawn at twice its offset.
 */
import * as THREE from 'three';
import { hasSdef, SDEF_PARS, SDEF_SKIN } from './sdef';
import { hasQdef, QDEF_PARS, QDEF_SKIN } from './qdef';
import { QUAT_GLSL } from './skin-quat';

/** The skinning besides the linear blend that a mesh's geometry carries (sdef.ts, qdef.ts). */
export interface SkinKinds {
  sdef?: boolean;
  qdef?: boolean;
}

/** The kinds a geometry carries. */
export const skinKindsOf = (geo: THREE.BufferGeometry): SkinKinds => ({ sdef: hasSdef(geo), qdef: hasQdef(geo) });

/** An SDEF or QDEF vertex's matrix replaces the blended one, where the geometry has them. */
const skinBase = (k: SkinKinds) => /* glsl */ `
#ifdef USE_SKINNING
	mat4 mmdSkin = skinWeight.x * getBoneMatrix( skinIndex.x );
	if ( skinWeight.y != 0.0 ) mmdSkin += skinWeight.y * getBoneMatrix( skinIndex.y );
	if ( skinWeight.z != 0.0 ) mmdSkin += skinWeight.z * getBoneMatrix( skinIndex.z );
	if ( skinWeight.w != 0.0 ) mmdSkin += skinWeight.w * getBoneMatrix( skinIndex.w );${k.sdef ? SDEF_SKIN : ''}${k.qdef ? QDEF_SKIN : ''}
#endif
`;
/** The declarations those need, after three.js's skinning ones (getBoneMatrix). */
const skinPars = (k: SkinKinds) => (k.sdef || k.qdef ? `\n#ifdef USE_SKINNING${QUAT_GLSL}${k.sdef ? SDEF_PARS : ''}${k.qdef ? QDEF_PARS : ''}#endif` : '');
const SKINNORMAL = /* glsl */ `
#ifdef USE_SKINNING
	objectNormal = ( bindMatrixInverse * ( mmdSkin * vec4( objectNormal, 0.0 ) ) ).xyz;
#endif
`;
const SKINNING = /* glsl */ `
#ifdef USE_SKINNING
	transformed = ( bindMatrixInverse * ( mmdSkin * vec4( transformed, 1.0 ) ) ).xyz;
#endif
`;

/**
 * Makes a material of a skinned mesh bound at the origin (see boundAtOrigin) use the cheaper skinning,
 * and SDEF (sdef.ts) and QDEF (qdef.ts) where `kinds` says the geometry carries them. Only the stock chunks
 * are replaced; a shader without them compiles unchanged.
 */
export function useFastSkinning(material: THREE.Material, kinds: SkinKinds = {}): void {
  const prev = material.onBeforeCompile.bind(material);
  material.onBeforeCompile = (shader, renderer) => {
    prev(shader, renderer);
    shader.vertexShader = shader.vertexShader
      .replace('#include <skinning_pars_vertex>', `#include <skinning_pars_vertex>${skinPars(kinds)}`)
      .replace('#include <skinbase_vertex>', skinBase(kinds))
      .replace('#include <skinnormal_vertex>', SKINNORMAL)
      .replace('#include <skinning_vertex>', SKINNING);
  };
  // A distinct program cache key: the same material type without the swap must not share a program.
  const key = material.customProgramCacheKey.bind(material);
  material.customProgramCacheKey = () => `${key()}|mmd-fast-skinning${kinds.sdef ? '-sdef' : ''}${kinds.qdef ? '-qdef' : ''}`;
}

/**
 * The fast skinning (with SDEF and QDEF where the mesh's geometry has them) for every material of a mesh
 * bound at the origin; a mesh bound elsewhere keeps three.js's stock skinning.
 */
export function useFastSkinningOn(mesh: THREE.SkinnedMesh, materials: readonly THREE.Material[]): void {
  if (!boundAtOrigin(mesh)) return;
  const kinds = skinKindsOf(mesh.geometry);
  for (const m of materials) useFastSkinning(m, kinds);
}

/** True when a skinned mesh's bind matrix is the identity (the fast chunks assume it). */
export function boundAtOrigin(mesh: THREE.SkinnedMesh): boolean {
  const e = mesh.bindMatrix.elements;
  for (let i = 0; i < 16; i++) if (Math.abs(e[i] - (i % 5 === 0 ? 1 : 0)) > 1e-9) return false;
  return true;
}

/** A drawn group of a mesh's geometry (three.js's typings call the hooks' last argument a scene Group). */
type DrawGroup = { start: number; count: number; materialIndex?: number };

/**
 * SDEF and QDEF in the self-shadow map. three.js draws the shadow map with depth materials of its own, one per
 * model material that alpha-tests a texture (so cut-out hair casts a cut-out shadow) and one shared by the
 * rest, and they skin with its stock chunks: SDEF vertices as BDEF2, QDEF as BDEF4. A mesh's customDepthMaterial stands in for
 * them, but one material for every group would lose each group's texture. three.js reads that property once
 * for each group it draws, in the geometry's group order, skipping groups whose material is hidden, right
 * before drawing it, and calls onAfterShadow with the group after: so here the property is a getter that
 * returns the depth material of the next group to be drawn, one per model material, each with the fast
 * skinning and the mesh's SDEF and QDEF (three.js then gives it that material's texture, alpha test and sides, as it does its own). A
 * depth material is rebuilt when its material gains or loses a texture or an alpha test (textures arrive
 * after the model is shown). Returns the depth materials, for the model's dispose; none without SDEF or QDEF.
 */
export function skinningInShadowMap(mesh: THREE.SkinnedMesh, materials: readonly THREE.Material[]): THREE.MeshDepthMaterial[] {
  const kinds = skinKindsOf(mesh.geometry);
  if (!boundAtOrigin(mesh) || !(kinds.sdef || kinds.qdef)) return [];
  const depth = materials.map(() => {
    const d = new THREE.MeshDepthMaterial();
    useFastSkinning(d, kinds);
    return d;
  });
  /** What each depth material's program was made for: texture, alpha map, alpha test. */
  const madeFor = depth.map(() => '');
  const groups = mesh.geometry.groups as DrawGroup[];
  let last = -1;
  const drawnNext = (): number => {
    for (const from of [last + 1, 0]) {
      for (let k = from; k < groups.length; k++) if (materials[groups[k].materialIndex ?? 0]?.visible) return k;
    }
    return -1;
  };
  Object.defineProperty(mesh, 'customDepthMaterial', {
    configurable: true,
    get: () => {
      const k = drawnNext();
      return k < 0 ? undefined : depth[groups[k].materialIndex ?? 0];
    },
  });
  const before = mesh.onBeforeShadow.bind(mesh), after = mesh.onAfterShadow.bind(mesh);
  mesh.onBeforeShadow = (renderer, object, camera, shadowCamera, geometry, depthMaterial, group) => {
    const i = depth.indexOf(depthMaterial as THREE.MeshDepthMaterial);
    if (i >= 0) {
      const d = depth[i];
      const made = `${d.map !== null}|${d.alphaMap !== null}|${d.alphaTest > 0}`;
      if (made !== madeFor[i]) {
        madeFor[i] = made;
        d.needsUpdate = true;
      }
    }
    before(renderer, object, camera, shadowCamera, geometry, depthMaterial, group);
  };
  mesh.onAfterShadow = (renderer, object, camera, shadowCamera, geometry, depthMaterial, group) => {
    last = groups.indexOf(group as unknown as DrawGroup);
    after(renderer, object, camera, shadowCamera, geometry, depthMaterial, group);
  };
  return depth;
}
