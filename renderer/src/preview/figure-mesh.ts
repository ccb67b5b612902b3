/**
 * Builds the default figure: its rig plus solid limbs (capsules, boxes, spheres) parented to the bones,
 * each laid from the bone's joint toward its end point. Rigid parts, no skinning: cheap to draw.
 */
import * as THREE from 'three';
import { mmdToThreePosition } from '../../../shared/vmd/camera';
import { defaultFigureBones, defaultFigureParts } from './default-figure';
import { buildRig, updateRigWorld, type Rig } from './rig';

export interface BuiltFigure {
  rig: Rig;
  group: THREE.Group;
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
  const materials = new Map<number, THREE.MeshLambertMaterial>();
  const geometries: THREE.BufferGeometry[] = [];
  const mat = (c: number) => {
    let m = materials.get(c);
    if (!m) materials.set(c, (m = new THREE.MeshLambertMaterial({ color: c })));
    return m;
  };
  for (const p of defaultFigureParts()) {
    const i = index.get(p.bone);
    if (i === undefined) continue;
    const start = new THREE.Vector3(...mmdToThreePosition(info[i].position));
    const end = new THREE.Vector3(...mmdToThreePosition(p.to));
    const dir = end.clone().sub(start);
    const len = dir.length();
    let geo: THREE.BufferGeometry;
    if (p.kind === 'sphere') geo = new THREE.SphereGeometry(p.radius, 20, 14);
    else if (p.kind === 'box') geo = new THREE.BoxGeometry(p.radius * 2, len, p.radius * 1.1);
    else geo = new THREE.CapsuleGeometry(p.radius, Math.max(len - p.radius, 0.01), 6, 12);
    geometries.push(geo);
    const mesh = new THREE.Mesh(geo, mat(p.color));
    mesh.castShadow = true;
    mesh.name = `part:${p.bone}`;
    // Bone-local: rest rotations are identity, so the offset from the joint is just (end − start) / 2.
    if (p.kind === 'sphere') mesh.position.copy(dir);
    else {
      mesh.position.copy(dir).multiplyScalar(0.5);
      if (len > 1e-6) mesh.quaternion.setFromUnitVectors(UP, dir.clone().normalize());
    }
    rig.bones[i].add(mesh);
  }
  updateRigWorld(rig);
  return {
    rig,
    group,
    dispose() {
      for (const g of geometries) g.dispose();
      for (const m of materials.values()) m.dispose();
    },
  };
}
