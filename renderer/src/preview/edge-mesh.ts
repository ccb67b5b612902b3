/**
 * MMD's outline ("edge"): the model drawn a second time, back faces only, each vertex pushed out along its
 * skinned normal by the material's edge size × the vertex's edge scale, in the material's edge colour.
 * The push grows with the distance from the camera, so the line keeps about the same width on screen as
 * the figure gets nearer or further, as in MMD. Only materials with the edge flag (0x10) draw an outline,
 * and only while the material itself is shown (a material morph can hide it).
 *
 * The outline takes its material's alpha (edge alpha × the material's, as a material morph fades it; a
 * material morph also changes the edge colour and size, setEdge) and
 * is drawn after the model's materials (the model draws in the file's order, mmd-material.ts). Its colour
 * is the file's as MMD shows it (sRGB). PMD: every material with the edge flag, at size 1 in black, on the
 * vertices whose edge flag is on (the reader gives those as edge scale 1). `setScale` is the model-wide
 * edge width factor (輪郭線太さ, 1 by default: the scene's actor edgeWidth, as nanoem's and MikuMikuMoving's
 * per-model edge size); at 0 no material draws an outline (a back face at the model's own surface would fight it).
 *
 * The outline mesh shares the model's geometry (morph targets included) and skeleton: no second copy of
 * the vertices, and it follows every pose and facial expression. It doubles the vertex work of a frame,
 * which a GPU does not notice but a software rasteriser does; the preview turns it off there by default.
 */
import * as THREE from 'three';
import type { ModelData } from '../../../shared/pmx/model-types';
import { useFastSkinningOn } from './fast-skinning';

/** Outline width per unit of edge size, as a share of the distance to the camera (≈ 1 px at MMD's default view). */
export const EDGE_WIDTH_PER_DEPTH = 0.0009;
/** PMX material flag: draw the edge. */
const EDGE_FLAG = 0x10;

const EDGE_PARS = /* glsl */ `
attribute float edgeScale;
uniform float edgeWidth;
uniform float edgeModelScale;
`;
const EDGE_PUSH = /* glsl */ `
#include <project_vertex>
{
	// View space: along the skinned normal, scaled by the depth so the width holds on screen.
	vec3 edgeNormal = normalize( normalMatrix * objectNormal );
	mvPosition.xyz += edgeNormal * ( edgeWidth * edgeModelScale * edgeScale * -mvPosition.z );
	gl_Position = projectionMatrix * mvPosition;
}
`;

export interface BuiltEdges {
  mesh: THREE.SkinnedMesh;
  materials: THREE.MeshBasicMaterial[];
  /** Materials that have the edge flag and a width and alpha now (the others draw no outline). */
  readonly drawn: readonly boolean[];
  /**
   * No outline for a material a morph has hidden. Called after each pose: three.js picks the materials
   * to draw before any per-object callback runs, so this cannot wait for the render.
   */
  sync(): void;
  /** The model-wide edge width factor (1 by default; 0: no outline). */
  setScale(scale: number): void;
  /**
   * A material's edge colour (sRGB rgba) and size as material morphs make them (morph-effects.ts); the
   * file's until then. An edge of size or alpha 0 is not drawn.
   */
  setEdge(material: number, r: number, g: number, b: number, a: number, size: number): void;
  dispose(): void;
}

/** The outline mesh for a built model mesh (add it as the mesh's child; see the file comment). */
export function buildEdgeMesh(model: ModelData, mesh: THREE.SkinnedMesh, modelMaterials: readonly THREE.Material[]): BuiltEdges {
  const geo = mesh.geometry;
  if (!geo.getAttribute('edgeScale')) geo.setAttribute('edgeScale', new THREE.BufferAttribute(new Float32Array(model.edgeScales), 1));
  const flagged = model.materials.map((m) => (m.flags & EDGE_FLAG) !== 0);
  const drawn = model.materials.map((m, i) => flagged[i] && m.edgeSize > 0 && m.edgeColor[3] > 0);
  const modelScale = { value: 1 };
  // Per material: the edge alpha and width as shown (the file's, or a material morph's).
  const alphas = model.materials.map((m) => m.edgeColor[3]);
  const widths = model.materials.map((m) => ({ value: m.edgeSize * EDGE_WIDTH_PER_DEPTH }));
  const materials = model.materials.map((m, i) => {
    const mat = new THREE.MeshBasicMaterial({
      name: `${m.name} (edge)`,
      opacity: m.edgeColor[3],
      transparent: true,
      side: THREE.BackSide,
    });
    mat.color.setRGB(m.edgeColor[0], m.edgeColor[1], m.edgeColor[2], THREE.SRGBColorSpace);
    mat.visible = drawn[i];
    mat.onBeforeCompile = (shader) => {
      shader.uniforms.edgeWidth = widths[i];
      shader.uniforms.edgeModelScale = modelScale;
      shader.vertexShader = EDGE_PARS + shader.vertexShader.replace('#include <project_vertex>', EDGE_PUSH);
    };
    mat.customProgramCacheKey = () => 'mmd-edge';
    return mat;
  });
  const edge = new THREE.SkinnedMesh(geo, materials);
  edge.name = 'model-edge';
  edge.frustumCulled = false;
  // After the model's materials (all in three.js's transparent list, mmd-material.ts).
  edge.renderOrder = 1;
  edge.bind(mesh.skeleton, mesh.bindMatrix);
  useFastSkinningOn(edge, materials);
  // Per draw: the same morph weights as the model (the model may have swapped its weight array).
  edge.onBeforeRender = () => {
    edge.morphTargetInfluences = mesh.morphTargetInfluences;
    edge.morphTargetDictionary = mesh.morphTargetDictionary;
  };
  return {
    mesh: edge,
    materials,
    drawn,
    sync() {
      for (let i = 0; i < materials.length; i++) {
        const mm = modelMaterials[i];
        materials[i].visible = drawn[i] && mm.visible && modelScale.value > 0;
        materials[i].opacity = alphas[i] * mm.opacity;
      }
    },
    setEdge(i: number, r: number, g: number, b: number, a: number, size: number) {
      if (i < 0 || i >= materials.length) return;
      materials[i].color.setRGB(r, g, b, THREE.SRGBColorSpace);
      alphas[i] = Math.min(1, Math.max(0, a));
      widths[i].value = Math.max(0, size) * EDGE_WIDTH_PER_DEPTH;
      drawn[i] = flagged[i] && size > 0 && a > 0;
    },
    setScale(scale: number) {
      modelScale.value = Math.max(0, scale);
      this.sync();
    },
    dispose() {
      for (const m of materials) m.dispose();
    },
  };
}
