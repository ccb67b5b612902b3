/**
 * SDEF skinning (renderer/src/preview/sdef.ts). Expected values are worked out by hand from SDEF's rule
 * (the file's comment: rw = w0·R0 + w1·R1, cr = (C + (C + R − rw)) / 2, p' = q·(p − C) + w0·M0·cr0 +
 * w1·M1·cr1 with q the slerp of the bones' rotations by w1), not by running the code. The GPU's drawing of
 * the same is checked against the CPU in test/e2e/preview-sdef.e2e.test.ts.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { readPmx } from '../../../shared/pmx';
import { buildModelMesh } from '../../../renderer/src/preview/model-mesh';
import { SDEF_C, SDEF_CR0, SDEF_CR1, sdefAttributes, sdefMatrix } from '../../../renderer/src/preview/sdef';
import { useFastSkinning } from '../../../renderer/src/preview/fast-skinning';
import { tinyPmx } from '../../shared/pmx-fixtures';
import { PROBES, sdefArmPmx } from '../../helpers/pmx-sdef-arm';

function model(bytes: Uint8Array) {
  const r = readPmx(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
const v = (x: number, y: number, z: number) => new THREE.Vector3(x, y, z);
const close = (a: THREE.Vector3, b: number[], digits = 4) => a.toArray().forEach((x, i) => expect(x).toBeCloseTo(b[i], digits));

describe('SDEF inputs', () => {
  it("the tiny PMX's SDEF vertex (bones 1, 2, w 0.6; C (1,2,3), R0 (4,5,6), R1 (7,8,9)) gives C and cr0, cr1, z negated", () => {
    const a = sdefAttributes(model(tinyPmx().build()))!;
    // rw = 0.6·(4,5,6) + 0.4·(7,8,9) = (5.2, 6.2, 7.2); C + R0 − rw = (−0.2, 0.8, 1.8), cr0 = (0.4, 1.4, 2.4);
    // C + R1 − rw = (2.8, 3.8, 4.8), cr1 = (1.9, 2.9, 3.9).
    expect(Array.from(a.c.subarray(8, 12))).toEqual([1, 2, -3, 1]);
    a.cr0.subarray(6, 9).forEach((x, i) => expect(x).toBeCloseTo([0.4, 1.4, -2.4][i], 5));
    a.cr1.subarray(6, 9).forEach((x, i) => expect(x).toBeCloseTo([1.9, 2.9, -3.9][i], 5));
    // The other three vertices are not SDEF: flag 0.
    expect([a.c[3], a.c[7], a.c[15]]).toEqual([0, 0, 0]);
  });

  it('a model without SDEF gets no attributes; one with SDEF gets them on its geometry', () => {
    expect(sdefAttributes(model(sdefArmPmx(false)))).toBeNull();
    const geo = buildModelMesh(model(sdefArmPmx(true))).mesh.geometry;
    expect(geo.getAttribute(SDEF_C).count).toBe(3 * PROBES.length);
    expect([geo.getAttribute(SDEF_CR0).itemSize, geo.getAttribute(SDEF_CR1).itemSize]).toEqual([3, 3]);
    expect(buildModelMesh(model(sdefArmPmx(false))).mesh.geometry.hasAttribute(SDEF_C)).toBe(false);
  });
});

describe('SDEF matrix', () => {
  // An elbow at (10, 0, 0): bone 0 stays, bone 1 turns 90° about z at the joint. C the joint, R0 and R1 a
  // unit either side along x, weights ½ and ½: rw = C, cr0 = (9.5, 0, 0), cr1 = (10.5, 0, 0).
  const C = v(10, 0, 0), cr0 = v(9.5, 0, 0), cr1 = v(10.5, 0, 0);
  const turn = new THREE.Matrix4().makeTranslation(10, 0, 0).multiply(new THREE.Matrix4().makeRotationZ(Math.PI / 2)).multiply(new THREE.Matrix4().makeTranslation(-10, 0, 0));
  const I = new THREE.Matrix4();

  it('a bent elbow: the vertex turns by half the bend about the moved centre, where BDEF2 pulls it in', () => {
    const m = sdefMatrix(I, turn, 0.5, 0.5, C, cr0, cr1, new THREE.Matrix4());
    // Centre: ½·(9.5, 0, 0) + ½·turn·(10.5, 0, 0) = ½·(9.5, 0, 0) + ½·(10, 0.5, 0) = (9.75, 0.25, 0).
    // (10, 1, 0) − C = (0, 1, 0), turned 45°: (−√½, √½, 0). So (9.75 − √½, 0.25 + √½, 0).
    close(v(10, 1, 0).applyMatrix4(m), [9.75 - Math.SQRT1_2, 0.25 + Math.SQRT1_2, 0]);
    // The normal turns by 45° too.
    close(v(0, 1, 0).transformDirection(m), [-Math.SQRT1_2, Math.SQRT1_2, 0]);
    // BDEF2 for comparison: ½·(10, 1, 0) + ½·(9, 0, 0) = (9.5, 0.5, 0), 0.71 from the joint; SDEF keeps 1.35.
    expect(v(10, 1, 0).applyMatrix4(m).distanceTo(C)).toBeCloseTo(Math.hypot(0.25 + Math.SQRT1_2, 0.25 + Math.SQRT1_2), 4);
  });

  it('at rest nothing moves, and two bones moving alike move the vertex as one bone', () => {
    // Weights 0.3 and 0.7: rw = 0.3·9 + 0.7·11 = 10.4, so cr0 = (10 + (10 + 9 − 10.4)) / 2 = 9.3 and
    // cr1 = (10 + (10 + 11 − 10.4)) / 2 = 10.3 (0.3·9.3 + 0.7·10.3 = 10, the centre).
    const c0 = v(9.3, 0, 0), c1 = v(10.3, 0, 0);
    const p = v(10.3, -0.8, 0.4);
    close(p.clone().applyMatrix4(sdefMatrix(I, I, 0.3, 0.7, C, c0, c1, new THREE.Matrix4())), [10.3, -0.8, 0.4], 6);
    const M = new THREE.Matrix4().compose(v(1, 2, 3), new THREE.Quaternion().setFromAxisAngle(v(1, 1, 0).normalize(), 0.8), v(1, 1, 1));
    const want = p.clone().applyMatrix4(M);
    close(p.clone().applyMatrix4(sdefMatrix(M, M, 0.3, 0.7, C, c0, c1, new THREE.Matrix4())), want.toArray(), 5);
  });

  it("a mesh's uniform scale in both matrices scales the result as the bones do", () => {
    const S = new THREE.Matrix4().makeScale(2, 2, 2);
    const a = v(10, 1, 0).applyMatrix4(sdefMatrix(S, S.clone().multiply(turn), 0.5, 0.5, C, cr0, cr1, new THREE.Matrix4()));
    close(a, [2 * (9.75 - Math.SQRT1_2), 2 * (0.25 + Math.SQRT1_2), 0]);
  });
});

describe('SDEF in the model mesh', () => {
  it("three.js's CPU skinning of an SDEF vertex follows SDEF; a BDEF2 twin follows the blend", () => {
    for (const sdef of [true, false]) {
      const b = buildModelMesh(model(sdefArmPmx(sdef)));
      const elbow = b.rig.bones[1];
      elbow.quaternion.setFromAxisAngle(v(0, 0, 1), Math.PI / 2);
      b.mesh.updateMatrixWorld(true);
      // Probe 0's first vertex: (5 − 0.12, 11 − 0.06, 0) in MMD (z 0 either way), weights ½ and ½.
      const p = new THREE.Vector3().fromBufferAttribute(b.mesh.geometry.getAttribute('position'), 0);
      b.mesh.applyBoneTransform(0, p);
      // By hand, relative to the joint (5, 10): d = (−0.12, 0.94). SDEF: cr0 = (4.5, 10), cr1 = (5.5, 10);
      // ½·cr0 + ½·(joint + turn·(0.5, 0)) = (4.75, 10.25); plus d turned 45°.
      const c = Math.SQRT1_2, d = [-0.12, 0.94];
      const want = sdef ? [4.75 + c * (d[0] - d[1]), 10.25 + c * (d[0] + d[1]), 0] : [5 + (d[0] + -d[1]) / 2, 10 + (d[1] + d[0]) / 2, 0];
      close(p, want, 3);
    }
  });

  it('the skinning chunks read SDEF only where the geometry has it, under a program key of their own', () => {
    const compiled = (m: THREE.Material) => {
      const shader = { vertexShader: THREE.ShaderLib.lambert.vertexShader, fragmentShader: THREE.ShaderLib.lambert.fragmentShader, uniforms: {} } as unknown as THREE.WebGLProgramParametersWithUniforms;
      m.onBeforeCompile(shader, {} as THREE.WebGLRenderer);
      return shader.vertexShader;
    };
    const withSdef = buildModelMesh(model(sdefArmPmx(true)));
    const without = buildModelMesh(model(sdefArmPmx(false)));
    const src = compiled(withSdef.materials[0]);
    expect(src).toContain(`attribute vec4 ${SDEF_C};`);
    expect(src).toContain(`if ( ${SDEF_C}.w > 0.5 ) mmdSkin = mmdSdefSkin(`);
    // Declared before main, used after the blend is made.
    expect(src.indexOf('mat4 mmdSdefSkin(')).toBeLessThan(src.indexOf('void main()'));
    expect(src.indexOf('mmdSkin = mmdSdefSkin(')).toBeGreaterThan(src.indexOf('mat4 mmdSkin = skinWeight.x'));
    expect(compiled(without.materials[0])).not.toContain('mmdSdefSkin');
    // The outline and the ground shadow share the geometry, so they skin alike.
    expect(compiled(withSdef.edges.materials[0])).toContain('mmdSdefSkin(');
    expect(compiled((withSdef.groundShadow.mesh.material as THREE.Material[])[0])).toContain('mmdSdefSkin(');
    const plain = new THREE.MeshLambertMaterial(), fast = new THREE.MeshLambertMaterial();
    useFastSkinning(plain);
    useFastSkinning(fast, { sdef: true });
    expect(fast.customProgramCacheKey()).not.toBe(plain.customProgramCacheKey());
  });
});
