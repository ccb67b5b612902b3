/**
 * What SDEF (sdef.ts) and QDEF (qdef.ts) skinning share: a skinning matrix's rotation as a quaternion, on
 * the CPU and in GLSL, and the quaternion's matrix back. A bone's skinning matrix carries the mesh's place,
 * which may scale it (uniformly): the scale is divided out before the rotation is read.
 */
import * as THREE from 'three';

const unscaled = new THREE.Matrix4(), sc = new THREE.Vector3();

/** A matrix's rotation into `out`, its (uniform) scale divided out; returns the scale. */
export function rotationOf(m: THREE.Matrix4, out: THREE.Quaternion): number {
  const s = sc.setFromMatrixColumn(m, 0).length();
  unscaled.copy(m).multiplyScalar(1 / s);
  out.setFromRotationMatrix(unscaled);
  return s;
}

/** GLSL: mmdQuatOf (a rotation matrix's quaternion) and mmdMat3Of (a unit quaternion's matrix). */
export const QUAT_GLSL = /* glsl */ `
// A rotation matrix's quaternion (x, y, z, w), by the largest of w, x, y, z (no loss near 180°).
vec4 mmdQuatOf( mat3 m ) {
	float tr = m[0][0] + m[1][1] + m[2][2];
	if ( tr > 0.0 ) {
		float s = 0.5 / sqrt( tr + 1.0 );
		return vec4( ( m[1][2] - m[2][1] ) * s, ( m[2][0] - m[0][2] ) * s, ( m[0][1] - m[1][0] ) * s, 0.25 / s );
	} else if ( m[0][0] > m[1][1] && m[0][0] > m[2][2] ) {
		float s = 2.0 * sqrt( 1.0 + m[0][0] - m[1][1] - m[2][2] );
		return vec4( 0.25 * s, ( m[1][0] + m[0][1] ) / s, ( m[2][0] + m[0][2] ) / s, ( m[1][2] - m[2][1] ) / s );
	} else if ( m[1][1] > m[2][2] ) {
		float s = 2.0 * sqrt( 1.0 + m[1][1] - m[0][0] - m[2][2] );
		return vec4( ( m[1][0] + m[0][1] ) / s, 0.25 * s, ( m[2][1] + m[1][2] ) / s, ( m[2][0] - m[0][2] ) / s );
	}
	float s = 2.0 * sqrt( 1.0 + m[2][2] - m[0][0] - m[1][1] );
	return vec4( ( m[2][0] + m[0][2] ) / s, ( m[2][1] + m[1][2] ) / s, 0.25 * s, ( m[0][1] - m[1][0] ) / s );
}
mat3 mmdMat3Of( vec4 q ) {
	float x = q.x, y = q.y, z = q.z, w = q.w;
	return mat3(
		1.0 - 2.0 * ( y * y + z * z ), 2.0 * ( x * y + z * w ), 2.0 * ( x * z - y * w ),
		2.0 * ( x * y - z * w ), 1.0 - 2.0 * ( x * x + z * z ), 2.0 * ( y * z + x * w ),
		2.0 * ( x * z + y * w ), 2.0 * ( y * z - x * w ), 1.0 - 2.0 * ( x * x + y * y ) );
}
`;
