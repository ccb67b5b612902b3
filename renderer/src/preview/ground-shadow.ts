/**
 * MMD's ground shadow (地面影): the model flattened onto the floor (y = 0) along the light's direction and
 * drawn in one dark colour, opaque as MMD's default (its "translucent" option is not drawn: blended, the
 * many triangles landing on one spot of the floor would darken it unevenly), for the materials whose
 * flag asks for it (PMX 0x02; PMD: the material's edge flag, mmd-material.ts). Like the outline
 * (edge-mesh.ts) it is a second mesh over the model's own geometry and skeleton, so it follows every
 * pose and morph. No shadow is drawn while the light comes from below the floor, nor while the preview's
 * Ground shadow switch (MMD's 表示 → 地面影表示) is off: the scene's userData.groundShadowOff, read at each sync
 * (preview-scene.ts setGroundShadow syncs every model when it changes). The video export draws this scene, so
 * it follows the switch, as MMD's render follows 地面影表示.
 */
import * as THREE from 'three';
import type { MmdMaterialParams, SceneMmdLight } from './mmd-material';
import { useFastSkinningOn } from './fast-skinning';

/** A hair above the floor, so the grid (at 0) does not fight the shadow. */
const GROUND_Y = 0.02;
/** The shadow's colour (sRGB), a little darker than the preview's background. */
export const GROUND_SHADOW_RGB: readonly [number, number, number] = [0.09, 0.1, 0.12];

const PARS = /* glsl */ `
uniform vec3 groundLightDir;
`;
const PROJECT = /* glsl */ `
#include <project_vertex>
{
	// World space: slide the point along the light's travel direction down to the floor.
	vec4 gsWorld = modelMatrix * vec4( transformed, 1.0 );
	float gsDy = min( groundLightDir.y, -1e-3 );
	gsWorld.xyz += groundLightDir * ( ( ${GROUND_Y.toFixed(3)} - gsWorld.y ) / gsDy );
	gl_Position = projectionMatrix * viewMatrix * gsWorld;
}
`;

export interface BuiltGroundShadow {
  mesh: THREE.SkinnedMesh;
  materials: THREE.MeshBasicMaterial[];
  /** Follows the model materials' visibility (a morph can hide one); call after each pose. */
  sync(): void;
  dispose(): void;
}

export function buildGroundShadow(mesh: THREE.SkinnedMesh, params: readonly MmdMaterialParams[], modelMaterials: readonly THREE.Material[]): BuiltGroundShadow {
  const dir = { value: new THREE.Vector3(0.5, -1, -0.5).normalize() };
  const wanted = params.map((p) => p.groundShadow);
  const [r, g, b] = GROUND_SHADOW_RGB;
  const materials = params.map((_, i) => {
    const mat = new THREE.MeshBasicMaterial({ name: `ground shadow ${i}`, side: THREE.DoubleSide, fog: true });
    mat.color.setRGB(r, g, b, THREE.SRGBColorSpace);
    mat.visible = wanted[i];
    mat.onBeforeCompile = (shader) => {
      shader.uniforms.groundLightDir = dir;
      shader.vertexShader = PARS + shader.vertexShader.replace('#include <project_vertex>', PROJECT);
    };
    mat.customProgramCacheKey = () => 'mmd-ground-shadow';
    return mat;
  });
  const shadow = new THREE.SkinnedMesh(mesh.geometry, materials);
  shadow.name = 'model-ground-shadow';
  shadow.frustumCulled = false;
  shadow.bind(mesh.skeleton, mesh.bindMatrix);
  useFastSkinningOn(shadow, materials);
  let lightBelow = false;
  let switchedOff = false;
  shadow.onBeforeRender = (_r, scene) => {
    shadow.morphTargetInfluences = mesh.morphTargetInfluences;
    shadow.morphTargetDictionary = mesh.morphTargetDictionary;
    const l = scene.userData.mmdLight as SceneMmdLight | undefined;
    if (l) dir.value.set(l.direction[0], l.direction[1], l.direction[2]);
  };
  const sync = () => {
    for (let i = 0; i < materials.length; i++) materials[i].visible = wanted[i] && modelMaterials[i].visible && !lightBelow && !switchedOff;
  };
  return {
    mesh: shadow,
    materials,
    sync() {
      // The light as the scene holds it now (three.js picks the drawn materials before onBeforeRender).
      const scene = shadow.parent?.parent ? sceneOf(shadow) : undefined;
      const l = scene?.userData.mmdLight as SceneMmdLight | undefined;
      lightBelow = !!l && l.direction[1] > -0.05;
      switchedOff = scene?.userData.groundShadowOff === true;
      sync();
    },
    dispose() {
      for (const m of materials) m.dispose();
    },
  };
}

/** The scene the object is in (its MMD light, the Ground shadow switch), found from the object up. */
function sceneOf(o: THREE.Object3D): THREE.Scene | undefined {
  let p: THREE.Object3D | null = o;
  while (p && !(p as THREE.Scene).isScene) p = p.parent;
  return (p as THREE.Scene | null) ?? undefined;
}
