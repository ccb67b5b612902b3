/**
 * Builds the default figure: its rig plus solid limbs (capsules, boxes, spheres), each laid from the bone's
 * joint toward its end point. All limbs are merged into ONE skinned mesh — every vertex weighted fully to
 * its limb's bone, colours per vertex — so the whole figure is a single draw call: on a software
 * rasteriser (SwiftShader) and in three.js's render loop the cost per draw call outweighed the geometry.
 * Segment counts are modest for the same reason (the figure is a stand-in, not a model).
 */
import * as THREE from 'three';
import { mergeGeometries } from 'three/examples/jsm/utils/BufferGeometryUtils.js';
import { mmdToThreePosition } from '../../../shared/vmd/camera';
import { defaultFigureBones, defaultFigureParts } from '../../../shared/skeleton/standard-figure';
import { buildRig, updateRigWorld, type Rig } from './rig';
import { useFastSkinningOn } from './fast-skinning';

export interface BuiltFigure {
  rig: Rig;
  group: THREE.Group;
  /** The limbs, one skinned mesh bound to the rig. */
  mesh: THREE.SkinnedMesh;
  dispose(): void;
}

const UP = new THREE.Vector3(0, 1, 0);

export function buildDefaultFigure(): BuiltFigure {
  const info = defaultFigureBones();
  const rig = buildRig(info);
  const group = new THREE.Group();
  group.name = 'default-figure';
  for (const r of rig.roots) group.add(r);
  const index = new Map(info.map((b, i) => [b.name, i]));
  const pieces: THREE.BufferGeometry[] = [];
  const place = new THREE.Matrix4();
  const q = new THREE.Quaternion();
  const one = new THREE.Vector3(1, 1, 1);
  for (const p of defaultFigureParts()) {
    const i = index.get(p.bone);
    if (i === undefined) continue;
    const start = new THREE.Vector3(...mmdToThreePosition(info[i].position));
    const end = new THREE.Vector3(...mmdToThreePosition(p.to));
    const dir = end.clone().sub(start);
    const len = dir.length();
    let geo: THREE.BufferGeometry;
    if (p.kind === 'sphere') geo = new THREE.SphereGeometry(p.radius, 14, 10);
    else if (p.kind === 'box') geo = new THREE.BoxGeometry(p.radius * 2, len, p.radius * 1.1);
    else geo = new THREE.CapsuleGeometry(p.radius, Math.max(len - p.radius, 0.01), 3, 10);
    // Into the bind pose (mesh space = three.js world at rest): MMD bones have no rest rotation, so a limb
    // sits at its joint, centred halfway to its end point (a sphere at the end point) and turned along it.
    q.identity();
    if (p.kind !== 'sphere' && len > 1e-6) q.setFromUnitVectors(UP, dir.clone().normalize());
    const centre = p.kind === 'sphere' ? end : start.clone().addScaledVector(dir, 0.5);
    geo.applyMatrix4(place.compose(centre, q, one));
    const n = geo.getAttribute('position').count;
    const color = new THREE.Color(p.color); // sRGB hex → linear, as a material colour would be
    const colors = new Float32Array(3 * n);
    const skinIndex = new Uint16Array(4 * n);
    const skinWeight = new Float32Array(4 * n);
    for (let v = 0; v < n; v++) {
      colors[3 * v] = color.r;
      colors[3 * v + 1] = color.g;
      colors[3 * v + 2] = color.b;
      skinIndex[4 * v] = i;
      skinWeight[4 * v] = 1;
    }
    geo.setAttribute('color', new THREE.BufferAttribute(colors, 3));
    geo.setAttribute('skinIndex', new THREE.BufferAttribute(skinIndex, 4));
    geo.setAttribute('skinWeight', new THREE.BufferAttribute(skinWeight, 4));
    pieces.push(geo);
  }
  const merged = mergeGeometries(pieces);
  for (const g of pieces) g.dispose();
  if (!merged) throw new Error('default figure: limb geometries did not merge');
  const material = new THREE.MeshLambertMaterial({ vertexColors: true });
  const mesh = new THREE.SkinnedMesh(merged, material);
  mesh.name = 'figure-limbs';
  mesh.frustumCulled = false; // the posed figure leaves its rest bounds
  group.add(mesh);
  updateRigWorld(rig);
  group.updateMatrixWorld(true);
  mesh.bind(new THREE.Skeleton(rig.bones));
  useFastSkinningOn(mesh, [material]);
  return {
    rig,
    group,
    mesh,
    dispose() {
      merged.dispose();
      material.dispose();
      mesh.skeleton.dispose();
    },
  };
}
