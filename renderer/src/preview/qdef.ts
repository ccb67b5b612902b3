/**
 * QDEF, PMX 2.1's dual-quaternion skinning: up to four bones and weights as BDEF4, but blended as rigid
 * motions rather than as matrices. Each bone's skinning matrix [R | t] becomes a unit dual quaternion
 * (real part r, dual part ½·(t, 0)·r); the weighted sum (each r put on the first bone's hemisphere, so that
 * q and −q, the same turn, do not cancel) is normalised, and read back as one rigid motion. Where BDEF4
 * averages the bones' matrices (a twisted forearm collapses towards its axis, the "candy wrapper"), a
 * vertex weighted half and half between a bone and one turned 150° about the axis turns 75° about it and
 * keeps its distance. The mesh's place may scale the matrices (uniformly): the scale is taken out before
 * and put back after.
 *
 * As SDEF (sdef.ts) it is written as one affine matrix per vertex, [s·R | t], which the fast skinning chunks
 * (fast-skinning.ts) apply to position and normal; `qdefMatrix` makes the same on the CPU for three.js's own
 * uses of a skinned vertex (applyBoneTransform: raycasts and bounds). FORMAT.md's seeds give QDEF's fields
 * (as BDEF4's), not its algorithm; this is dual-quaternion skinning as published (Kavan et al. 2007), the
 * rule PMX 2.1 names.
 */
import * as THREE from 'three';
import type { ModelData } from '../../../shared/pmx/model-types';
import { Deform } from '../../../shared/pmx/model-types';
import { rotationOf } from './skin-quat';

/** Attribute name: 1 on QDEF vertices, 0 on the rest. */
export const QDEF_FLAG = 'qdefFlag';

/** Sets the QDEF flag on a model's geometry; true when the model has QDEF vertices. */
export function addQdefAttributes(geo: THREE.BufferGeometry, model: ModelData): boolean {
  const flag = new Float32Array(model.vertexCount);
  let any = false;
  for (let i = 0; i < model.vertexCount; i++) {
    if (model.deform[i] !== Deform.QDEF) continue;
    flag[i] = 1;
    any = true;
  }
  if (any) geo.setAttribute(QDEF_FLAG, new THREE.BufferAttribute(flag, 1));
  return any;
}

/** True when a geometry carries QDEF (the skinning chunks then read it). */
export function hasQdef(geo: THREE.BufferGeometry): boolean {
  return geo.hasAttribute(QDEF_FLAG);
}

const r0 = new THREE.Quaternion(), rk = new THREE.Quaternion(), real = new THREE.Quaternion();
const dual = new THREE.Vector4(), t = new THREE.Vector3(), tr = new THREE.Vector3();

/**
 * QDEF's matrix for one vertex: `matrices` the bones' skinning matrices and `weights` theirs (as many,
 * up to four; a 0 weight is skipped). Written into `out`.
 */
export function qdefMatrix(matrices: readonly THREE.Matrix4[], weights: readonly number[], out: THREE.Matrix4): THREE.Matrix4 {
  const s = rotationOf(matrices[0], r0);
  real.set(0, 0, 0, 0);
  dual.set(0, 0, 0, 0);
  for (let k = 0; k < matrices.length; k++) {
    let w = weights[k];
    if (w === 0) continue;
    rotationOf(matrices[k], rk);
    if (rk.dot(r0) < 0) w = -w;
    t.setFromMatrixPosition(matrices[k]);
    // ½·(t, 0)·r: vector r.w·t + t × r.xyz, scalar −t·r.xyz.
    tr.set(rk.x, rk.y, rk.z);
    const cx = t.y * rk.z - t.z * rk.y, cy = t.z * rk.x - t.x * rk.z, cz = t.x * rk.y - t.y * rk.x;
    dual.x += 0.5 * w * (rk.w * t.x + cx);
    dual.y += 0.5 * w * (rk.w * t.y + cy);
    dual.z += 0.5 * w * (rk.w * t.z + cz);
    dual.w -= 0.5 * w * t.dot(tr);
    real.set(real.x + w * rk.x, real.y + w * rk.y, real.z + w * rk.z, real.w + w * rk.w);
  }
  const len = Math.hypot(real.x, real.y, real.z, real.w);
  real.set(real.x / len, real.y / len, real.z / len, real.w / len);
  dual.multiplyScalar(1 / len);
  // The translation: 2·dual·conj(real), vector part r.w·d − d.w·r + r × d.
  const x = 2 * (real.w * dual.x - dual.w * real.x + (real.y * dual.z - real.z * dual.y));
  const y = 2 * (real.w * dual.y - dual.w * real.y + (real.z * dual.x - real.x * dual.z));
  const z = 2 * (real.w * dual.z - dual.w * real.z + (real.x * dual.y - real.y * dual.x));
  out.makeRotationFromQuaternion(real).multiplyScalar(s);
  out.elements[15] = 1;
  return out.setPosition(x, y, z);
}

/** The GLSL of the same (before main, after skin-quat.ts's QUAT_GLSL), and the line that uses it in skinbase. */
export const QDEF_PARS = /* glsl */ `
attribute float ${QDEF_FLAG};
mat4 mmdQdefSkin( vec4 index, vec4 weight ) {
	mat4 m0 = getBoneMatrix( index.x );
	float s = length( m0[0].xyz );
	vec4 r0 = mmdQuatOf( mat3( m0 ) / s );
	vec4 real = vec4( 0.0 ), dual = vec4( 0.0 );
	for ( int k = 0; k < 4; k ++ ) {
		float w = weight[ k ];
		if ( w == 0.0 ) continue;
		mat4 m = k == 0 ? m0 : getBoneMatrix( index[ k ] );
		vec4 r = k == 0 ? r0 : mmdQuatOf( mat3( m ) / length( m[0].xyz ) );
		if ( dot( r, r0 ) < 0.0 ) w = -w;
		vec3 t = m[3].xyz;
		real += w * r;
		dual += 0.5 * w * vec4( r.w * t + cross( t, r.xyz ), -dot( t, r.xyz ) );
	}
	float len = length( real );
	real /= len;
	dual /= len;
	vec3 t = 2.0 * ( real.w * dual.xyz - dual.w * real.xyz + cross( real.xyz, dual.xyz ) );
	mat3 q = s * mmdMat3Of( real );
	return mat4( vec4( q[0], 0.0 ), vec4( q[1], 0.0 ), vec4( q[2], 0.0 ), vec4( t, 1.0 ) );
}
`;
export const QDEF_SKIN = /* glsl */ `
	if ( ${QDEF_FLAG} > 0.5 ) mmdSkin = mmdQdefSkin( skinIndex, skinWeight );
`;

/**
 * Makes three.js's CPU skinning of `mesh` (applyBoneTransform) follow QDEF for its QDEF vertices, as the
 * shader does; other vertices go to the skinning it had (sdef.ts's, or three.js's own).
 */
export function qdefOnCpu(mesh: THREE.SkinnedMesh): void {
  const geo = mesh.geometry;
  const flag = geo.getAttribute(QDEF_FLAG);
  if (!flag) return;
  const before = mesh.applyBoneTransform.bind(mesh);
  const idx = geo.getAttribute('skinIndex'), wt = geo.getAttribute('skinWeight');
  const ms = [0, 1, 2, 3].map(() => new THREE.Matrix4()), m = new THREE.Matrix4();
  mesh.applyBoneTransform = ((index: number, target: THREE.Vector3) => {
    if (flag.getX(index) <= 0.5 || !target.isVector3) return before(index, target);
    const sk = mesh.skeleton;
    const bones = [idx.getX(index), idx.getY(index), idx.getZ(index), idx.getW(index)];
    bones.forEach((b, k) => ms[k].multiplyMatrices(sk.bones[b].matrixWorld, sk.boneInverses[b]));
    qdefMatrix(ms, [wt.getX(index), wt.getY(index), wt.getZ(index), wt.getW(index)], m);
    // As three.js's own: into the bind space, skinned, and back into the mesh's space.
    return target.applyMatrix4(mesh.bindMatrix).applyMatrix4(m).applyMatrix4(mesh.bindMatrixInverse);
  }) as THREE.SkinnedMesh['applyBoneTransform'];
}
