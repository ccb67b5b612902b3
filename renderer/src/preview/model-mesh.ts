/**
 * Builds a three.js SkinnedMesh from a parsed PMX/PMD: geometry (MMD → three.js: z negated, triangle
 * winding reversed to match), skin indices and weights (SDEF's centre and points as attributes for
 * sdef.ts, QDEF's flag for qdef.ts, both skinned in the self-shadow map too), one material group per model
 * material, vertex morphs as relative morph targets, bone / material / UV morphs as CPU effects
 * (morph-effects.ts), group morphs expanded onto both, and the rig the motion drives. Textures arrive later
 * (textures.ts).
 */
import * as THREE from 'three';
import type { ModelData } from '../../../shared/pmx/model-types';
import { matchKey } from '../../../shared/pmx/model-inspect';
import { buildRig, updateRigWorld, type Rig } from './rig';
import type { MorphBinding } from './pose-binding';
import { skinningInShadowMap, useFastSkinningOn } from './fast-skinning';
import { addSdefAttributes, sdefOnCpu } from './sdef';
import { addQdefAttributes, qdefOnCpu } from './qdef';
import { buildEdgeMesh, type BuiltEdges } from './edge-mesh';
import { MorphEffects } from './morph-effects';
import { expandMorph, keyableMorph, morphIndexByName } from '../../../shared/skeleton/bone-morphs';
import { SUB_TEXTURE_UV, sphereMapOf, subTextureUv } from './sphere-map';
import { ToonSet } from './mmd-toon';
import { castShadowByMaterial, createLightUniforms, createMmdMaterial, mmdMaterialParams, syncLightUniforms, toonTextureOf, type MmdMaterialParams } from './mmd-material';
import { buildGroundShadow, type BuiltGroundShadow } from './ground-shadow';

export interface BuiltModel {
  model: ModelData;
  mesh: THREE.SkinnedMesh;
  rig: Rig;
  materials: THREE.MeshLambertMaterial[];
  /**
   * Motion morph matching key → binding: targets index the active morph targets, effects the slots of
   * `morphEffects` (bone, material, UV morphs). Every morph the model has is a key, reaching something or not.
   */
  morphs: Map<string, MorphBinding>;
  /** Bone, material and UV morphs (weights set by the pose binding). */
  morphEffects: MorphEffects;
  /** Vertex morphs the model has (the most morph targets it can attach). */
  vertexMorphCount: number;
  selectMorphs(names: readonly string[] | null): void;
  /** MMD's outline for the model (edge-mesh.ts), a child of `mesh`. */
  edges: BuiltEdges;
  /** MMD's ground shadow (ground-shadow.ts), a child of `mesh`. */
  groundShadow: BuiltGroundShadow;
  /** Each material's MMD parameters (mmd-material.ts), in file order. */
  params: MmdMaterialParams[];
  /** The self-shadow map's depth material per material when the model has SDEF or QDEF (fast-skinning.ts skinningInShadowMap); else none. */
  shadowDepth: readonly THREE.MeshDepthMaterial[];
  /** True once `dispose` ran (a texture load that finishes later drops what it decoded). */
  readonly disposed: boolean;
  dispose(): void;
}

export function buildModelMesh(model: ModelData): BuiltModel {
  const n = model.vertexCount;
  const geo = new THREE.BufferGeometry();
  const pos = new Float32Array(model.positions);
  const nrm = new Float32Array(model.normals);
  for (let i = 2; i < 3 * n; i += 3) {
    pos[i] = -pos[i];
    nrm[i] = -nrm[i];
  }
  geo.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  geo.setAttribute('normal', new THREE.BufferAttribute(nrm, 3));
  const uvAttr = new THREE.BufferAttribute(new Float32Array(model.uvs), 2);
  geo.setAttribute('uv', uvAttr);
  // A sub-texture sphere's coordinates (sphere-map.ts), when a material has one and the file an additional UV.
  const uv1Attr = subTextureUv(model);
  if (uv1Attr) geo.setAttribute(SUB_TEXTURE_UV, uv1Attr);
  const boneCount = model.bones.length;
  const skinIndex = boneCount <= 65535 ? new Uint16Array(4 * n) : new Float32Array(4 * n);
  for (let i = 0; i < 4 * n; i++) skinIndex[i] = Math.min(model.skinIndices[i], Math.max(boneCount - 1, 0));
  geo.setAttribute('skinIndex', new THREE.BufferAttribute(skinIndex, 4));
  geo.setAttribute('skinWeight', new THREE.BufferAttribute(new Float32Array(model.skinWeights), 4));
  addSdefAttributes(geo, model); // SDEF vertices (sdef.ts): their centre and the two points, when the model has any
  addQdefAttributes(geo, model); // QDEF vertices (qdef.ts), flagged, when the model has any
  // Mirroring z flips handedness: MMD's front faces would face away in three.js, so each triangle's
  // winding is reversed (a, b, c → a, c, b) — checked against the stored normals in the tests.
  const index = n > 65535 ? new Uint32Array(model.indices.length) : new Uint16Array(model.indices.length);
  for (let f = 0; f + 2 < model.indices.length; f += 3) {
    index[f] = model.indices[f];
    index[f + 1] = model.indices[f + 2];
    index[f + 2] = model.indices[f + 1];
  }
  geo.setIndex(new THREE.BufferAttribute(index, 1));
  let start = 0;
  model.materials.forEach((m, i) => {
    geo.addGroup(start, m.indexCount, i);
    start += m.indexCount;
  });

  // Vertex morphs → relative morph targets.
  const targetOf = new Map<number, number>();
  const morphAttrs: THREE.BufferAttribute[] = [];
  model.morphs.forEach((m, mi) => {
    if (m.kind !== 'vertex' || !m.vertex || (model.format === 'pmd' && m.panel === 0)) return;
    const d = new Float32Array(3 * n);
    const { indices, offsets } = m.vertex;
    for (let k = 0; k < indices.length; k++) {
      const v = indices[k];
      d[3 * v] += offsets[3 * k];
      d[3 * v + 1] += offsets[3 * k + 1];
      d[3 * v + 2] -= offsets[3 * k + 2];
    }
    const attr = new THREE.BufferAttribute(d, 3);
    attr.name = m.name;
    targetOf.set(mi, morphAttrs.length);
    morphAttrs.push(attr);
  });
  // MMD's material (mmd-material.ts): toon ramp, specular, self-shadow, in the file's draw order.
  const toons = new ToonSet();
  const light = createLightUniforms();
  const params = model.materials.map((m) => mmdMaterialParams(model, m));
  const materials = model.materials.map((m, i) => createMmdMaterial(params[i], m.name, light, toons.textureFor(params[i].toon)));
  const effects = new MorphEffects(model, materials, uvAttr, uv1Attr);

  type Expansion = { morph: number[]; factor: number[]; slot: number[]; slotFactor: number[] };
  /**
   * Morph index → the model morph indices of vertex morphs it moves and the effect slots (bone, material,
   * UV morphs) it drives, with factors (group morphs expand, nesting multiplies their weights: the shared
   * expansion MotionPoser's bone morphs use too).
   */
  const expand = (mi: number, out: Expansion) =>
    expandMorph(model.morphs, mi, 1, (leaf, factor) => {
      const slot = effects.slotOf.get(leaf);
      if (targetOf.has(leaf)) {
        out.morph.push(leaf);
        out.factor.push(factor);
      } else if (slot !== undefined) {
        out.slot.push(slot);
        out.slotFactor.push(factor);
      }
    });
  const expanded = new Map<string, Expansion>();
  // A motion's morph name means the first keyable morph of that name that reaches anything (bone-morphs.ts).
  for (const [key, mi] of morphIndexByName(model)) {
    const e: Expansion = { morph: [], factor: [], slot: [], slotFactor: [] };
    expand(mi, e);
    expanded.set(key, e);
  }
  /** Matching keys of every morph the model has (PMD's "base" is no morph to key), reaching anything or not. */
  const present = new Set<string>();
  model.morphs.forEach((m) => {
    if (keyableMorph(model, m)) present.add(matchKey(m.name));
  });
  const morphs = new Map<string, MorphBinding>();

  const rig = buildRig(model.bones);
  const mesh = new THREE.SkinnedMesh(geo, materials);
  mesh.name = 'model';
  for (const r of rig.roots) mesh.add(r);
  updateRigWorld(rig);
  mesh.updateMatrixWorld(true);
  mesh.bind(new THREE.Skeleton(rig.bones));
  mesh.frustumCulled = false; // the skinned pose can leave the rest-pose bounds
  // The self-shadow map (preview-scene.ts turns the light's shadow on as the self-shadow keys say), drawn
  // by the materials whose flags ask for it.
  castShadowByMaterial(mesh, params);
  mesh.receiveShadow = true;
  mesh.onBeforeRender = (_r, scene) => syncLightUniforms(light, scene);
  useFastSkinningOn(mesh, materials);
  const shadowDepth = skinningInShadowMap(mesh, materials); // SDEF and QDEF in the self-shadow map too (after castShadowByMaterial's hooks)
  sdefOnCpu(mesh);
  qdefOnCpu(mesh);
  // The outline rides on the mesh (hidden with it); the preview decides whether it is shown.
  const edges = buildEdgeMesh(model, mesh, materials);
  mesh.add(edges.mesh);
  effects.attachEdges(edges);
  const groundShadow = buildGroundShadow(mesh, params, materials);
  mesh.add(groundShadow.mesh);
  const built: BuiltModel = {
    model,
    mesh,
    edges,
    groundShadow,
    params,
    shadowDepth,
    rig,
    materials,
    morphs,
    morphEffects: effects,
    vertexMorphCount: morphAttrs.length,
    /**
     * Keeps as morph targets only the vertex morphs the given motion morph names reach (null: all).
     * A GPU evaluates every attached target per vertex; a model with 150 morphs and a motion using 5
     * should not pay for 150 (SwiftShader and small GPUs notice). Materials and UVs go back to base: the
     * next binding poses them from its own motion.
     */
    selectMorphs(names: readonly string[] | null) {
      const used = new Set<number>(names === null ? targetOf.keys() : []);
      const wanted = names === null ? [...expanded.keys()] : names.map(matchKey);
      for (const k of wanted) expanded.get(k)?.morph.forEach((mi) => used.add(mi));
      const active = [...used].sort((a, b) => a - b);
      const slot = new Map(active.map((mi, i) => [mi, i]));
      if (active.length) {
        geo.morphAttributes.position = active.map((mi) => morphAttrs[targetOf.get(mi)!]);
        geo.morphTargetsRelative = true;
      } else delete geo.morphAttributes.position;
      mesh.morphTargetInfluences = active.length ? new Array(active.length).fill(0) : undefined;
      mesh.morphTargetDictionary = active.length ? Object.fromEntries(active.map((mi, i) => [model.morphs[mi].name, i])) : undefined;
      morphs.clear();
      for (const k of wanted) {
        const e = expanded.get(k);
        if (!e || morphs.has(k)) continue;
        const b: MorphBinding = { targets: e.morph.map((mi) => slot.get(mi)!), factors: [...e.factor] };
        if (e.slot.length) b.effects = { runtime: effects, slots: [...e.slot], factors: [...e.slotFactor] };
        morphs.set(k, b);
      }
      // Morphs the model has but the selection left out, or that move nothing the preview draws (flip,
      // impulse, uv2–uv4, uv1 without a sub-texture), still count as present (not "missing").
      for (const k of present) if (!morphs.has(k)) morphs.set(k, { targets: [], factors: [] });
      effects.reset();
    },
    disposed: false,
    dispose() {
      if (built.disposed) return;
      (built as { disposed: boolean }).disposed = true;
      edges.dispose();
      groundShadow.dispose();
      geo.dispose();
      for (const m of materials) {
        m.map?.dispose();
        sphereMapOf(m)?.texture.dispose();
        toonTextureOf(m)?.dispose(); // a model's own toon file (the shared ramps are the ToonSet's)
        m.dispose();
      }
      for (const d of shadowDepth) d.dispose();
      toons.dispose();
      mesh.skeleton.dispose();
    },
  };
  built.selectMorphs(null);
  return built;
}
