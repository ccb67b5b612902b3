/**
 * SDEF (spherical deform), the PMX skinning MMD uses at elbows and knees so that a bent joint keeps its
 * volume. An SDEF vertex has BDEF2's two bones and weight, and a centre C with two points R0, R1 (model
 * space). Where BDEF2 blends the two bones' matrices (a bent elbow collapses towards the bone), SDEF turns
 * the vertex about C by the two bones' rotations blended on the sphere, and moves C as the bones move it:
 *
 *   rw = w0·R0 + w1·R1,  cr0 = (C + (C + R0 − rw)) / 2,  cr1 = (C + (C + R1 − rw)) / 2   (once, here)
 *   q = slerp(rotation of M0, rotation of M1, w1)
 *   p' = q·(p − C) + w0·M0·cr0 + w1·M1·cr1,   n' = q·n                                    (per frame)
 *
 * with M0, M1 the bones' skinning matrices. This is the rule MMD's peers apply (saba, nanoem,
 * babylon-mmd's shader, which we read for it); FORMAT.md's seeds give SDEF's fields, not its algorithm.
 * At rest (both matrices the identity) p' = p, and when both bones move alike p' is that one movement,
 * as BDEF2 gives.
 *
 * It is written as one affine matrix per vertex, [q | w0·M0·cr0 + w1·M1·cr1 − q·C], which the fast
 * skinning chunks (fast-skinning.ts) then apply to position and normal as they do the blended one.
 * The same matrix is made on the CPU (`sdefMatrix`) for three.js's own uses of a skinned vertex
 * (applyBoneTransform: raycasts and bounds).
 */
import * as THREE from 'three';
import type { ModelData } from '../../../shared/pmx/model-types';
import { Deform } from '../../../shared/pmx/model-types';
import { rotationOf } from './skin-quat';

/** Attribute names: C with w = 1 on SDEF vertices (0 elsewhere), and cr0, cr1. */
export const SDEF_C = 'sdefC';
export const SDEF_CR0 = 'sdefCR0';
export const SDEF_CR1 = 'sdefCR1';

export interface SdefAttributes {
  /** 4 per vertex: C (three.js's coordinates: z negated), then 1 for an SDEF vertex, 0 for the rest. */
  c: Float32Array;
  /** 3 per vertex: cr0 and cr1 (z negated). */
  cr0: Float32Array;
  cr1: Float32Array;
}

/** The per-vertex SDEF inputs of a model in three.js's coordinates, or null when no vertex is SDEF. */
export function sdefAttributes(model: ModelData): SdefAttributes | null {
  const s = model.sdef;
  if (!s) return null;
  const n = model.vertexCount;
  const c = new Float32Array(4 * n), cr0 = new Float32Array(3 * n), cr1 = new Float32Array(3 * n);
  let any = false;
  for (let i = 0; i < n; i++) {
    if (model.deform[i] !== Deform.SDEF) continue;
    any = true;
    const w0 = model.skinWeights[4 * i], w1 = model.skinWeights[4 * i + 1];
    for (let k = 0; k < 3; k++) {
      const sign = k === 2 ? -1 : 1; // MMD → three.js: z negated, as the positions
      const C = s[9 * i + k], R0 = s[9 * i + 3 + k], R1 = s[9 * i + 6 + k];
      const rw = w0 * R0 + w1 * R1;
      c[4 * i + k] = sign * C;
      cr0[3 * i + k] = sign * (C + (C + R0 - rw)) * 0.5;
      cr1[3 * i + k] = sign * (C + (C + R1 - rw)) * 0.5;
    }
    c[4 * i + 3] = 1;
  }
  return any ? { c, cr0, cr1 } : null;
}

/** Sets the SDEF attributes on a model's geometry; true when the model has SDEF vertices. */
export function addSdefAttributes(geo: THREE.BufferGeometry, model: ModelData): boolean {
  const a = sdefAttributes(model);
  if (!a) return false;
  geo.setAttribute(SDEF_C, new THREE.BufferAttribute(a.c, 4));
  geo.setAttribute(SDEF_CR0, new THREE.BufferAttribute(a.cr0, 3));
  geo.setAttribute(SDEF_CR1, new THREE.BufferAttribute(a.cr1, 3));
  return true;
}

/** True when a geometry carries SDEF attributes (the skinning chunks then read them). */
export function hasSdef(geo: THREE.BufferGeometry): boolean {
  return geo.hasAttribute(SDEF_C);
}

const q0 = new THREE.Quaternion(), q1 = new THREE.Quaternion(), r = new THREE.Matrix4(), r3 = new THREE.Matrix3();
const v0 = new THREE.Vector3(), v1 = new THREE.Vector3();

/**
 * SDEF's matrix for one vertex: `m0`, `m1` the two bones' skinning matrices, `w0`, `w1` their weights,
 * `c`, `cr0`, `cr1` the vertex's attributes (three.js's coordinates). Written into `out`.
 */
export function sdefMatrix(m0: THREE.Matrix4, m1: THREE.Matrix4, w0: number, w1: number, c: THREE.Vector3, cr0: THREE.Vector3, cr1: THREE.Vector3, out: THREE.Matrix4): THREE.Matrix4 {
  const s = rotationOf(m0, q0);
  rotationOf(m1, q1);
  q0.slerp(q1, w1); // three.js's slerp takes the shorter arc
  r.makeRotationFromQuaternion(q0).multiplyScalar(s);
  r.elements[15] = 1;
  const off = v0.copy(cr0).applyMatrix4(m0).multiplyScalar(w0).add(v1.copy(cr1).applyMatrix4(m1).multiplyScalar(w1));
  const rc = v1.copy(c).applyMatrix3(r3.setFromMatrix4(r));
  out.copy(r).setPosition(off.sub(rc));
  return out;
}

/**
 * The GLSL of the same: attributes and functions (before main, after skin-quat.ts's QUAT_GLSL) and the line
 * that replaces the blended matrix of an SDEF vertex (inside skinbase, after `mmdSkin` is made).
 */
export const SDEF_PARS = /* glsl */ `
attribute vec4 ${SDEF_C};
attribute vec3 ${SDEF_CR0};
attribute vec3 ${SDEF_CR1};
// Spherical blend along the shorter arc; nearly equal rotations blend linearly (sin θ ≈ 0).
vec4 mmdSlerp( vec4 a, vec4 b, float t ) {
	float d = dot( a, b );
	if ( d < 0.0 ) { b = -b; d = -d; }
	if ( d > 0.9995 ) return normalize( mix( a, b, t ) );
	float th = acos( d );
	return ( sin( ( 1.0 - t ) * th ) * a + sin( t * th ) * b ) / sin( th );
}
mat4 mmdSdefSkin( mat4 m0, mat4 m1, float w0, float w1 ) {
	float s0 = length( m0[0].xyz ), s1 = length( m1[0].xyz );
	mat3 q = s0 * mmdMat3Of( mmdSlerp( mmdQuatOf( mat3( m0 ) / s0 ), mmdQuatOf( mat3( m1 ) / s1 ), w1 ) );
	vec3 off = ( m0 * vec4( ${SDEF_CR0}, 1.0 ) ).xyz * w0 + ( m1 * vec4( ${SDEF_CR1}, 1.0 ) ).xyz * w1;
	return mat4( vec4( q[0], 0.0 ), vec4( q[1], 0.0 ), vec4( q[2], 0.0 ), vec4( off - q * ${SDEF_C}.xyz, 1.0 ) );
}
`;
export const SDEF_SKIN = /* glsl */ `
	if ( ${SDEF_C}.w > 0.5 ) mmdSkin = mmdSdefSkin( getBoneMatrix( skinIndex.x ), getBoneMatrix( skinIndex.y ), skinWeight.x, skinWeight.y );
`;

/**
 * Makes three.js's CPU skinning of `mesh` (applyBoneTransform: raycasts, bounding volumes) follow SDEF
 * for its SDEF vertices, as the shader does.
 */
export function sdefOnCpu(mesh: THREE.SkinnedMesh): void {
  const geo = mesh.geometry;
  const cA = geo.getAttribute(SDEF_C), r0A = geo.getAttribute(SDEF_CR0), r1A = geo.getAttribute(SDEF_CR1);
  if (!cA || !r0A || !r1A) return;
  const linear = mesh.applyBoneTransform.bind(mesh);
  const idx = geo.getAttribute('skinIndex'), wt = geo.getAttribute('skinWeight');
  const m0 = new THREE.Matrix4(), m1 = new THREE.Matrix4(), m = new THREE.Matrix4();
  const c = new THREE.Vector3(), cr0 = new THREE.Vector3(), cr1 = new THREE.Vector3();
  mesh.applyBoneTransform = ((index: number, target: THREE.Vector3) => {
    if (cA.getW(index) <= 0.5 || !target.isVector3) return linear(index, target);
    const sk = mesh.skeleton;
    const skinMatrix = (b: number, out: THREE.Matrix4) => out.multiplyMatrices(sk.bones[b].matrixWorld, sk.boneInverses[b]);
    skinMatrix(idx.getX(index), m0);
    skinMatrix(idx.getY(index), m1);
    sdefMatrix(m0, m1, wt.getX(index), wt.getY(index), c.fromBufferAttribute(cA as THREE.BufferAttribute, index), cr0.fromBufferAttribute(r0A, index), cr1.fromBufferAttribute(r1A, index), m);
    // As three.js's own: into the bind space, skinned, and back into the mesh's space.
    return target.applyMatrix4(mesh.bindMatrix).applyMatrix4(m).applyMatrix4(mesh.bindMatrixInverse);
  }) as THREE.SkinnedMesh['applyBoneTransform'];
}
