/**
 * QDEF skinning (renderer/src/preview/qdef.ts). Expected values are worked out by hand from what
 * dual-quaternion blending does with rigid turns about one axis (half and half between a bone and one turned
 * by θ about the axis through a point: a turn by θ/2 about it, the distance to the axis kept), not by running
 * the code. The GPU's drawing of the same is checked against the CPU in test/e2e/preview-qdef.e2e.test.ts.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { readPmx } from '../../../shared/pmx';
import { Deform } from '../../../shared/pmx/model-types';
import { buildModelMesh } from '../../../renderer/src/preview/model-mesh';
import { QDEF_FLAG, qdefMatrix } from '../../../renderer/src/preview/qdef';
import { qdefTwistPmx, RING } from '../../helpers/pmx-qdef-twist';

function model(bytes: Uint8Array) {
  const r = readPmx(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
const v = (x: number, y: number, z: number) => new THREE.Vector3(x, y, z);
const close = (a: THREE.Vector3, b: number[], digits = 5) => a.toArray().forEach((x, i) => expect(x, `component ${i}`).toBeCloseTo(b[i], digits));
const deg = (d: number) => (d * Math.PI) / 180;
/** A turn by `angle` about the x axis through (5, 10, 0). */
const turnX = (angle: number) => new THREE.Matrix4().makeTranslation(5, 10, 0).multiply(new THREE.Matrix4().makeRotationX(angle)).multiply(new THREE.Matrix4().makeTranslation(-5, -10, 0));
const I = new THREE.Matrix4();

describe('QDEF matrix', () => {
  it('half and half with a bone twisted 150°: a turn of 75° about the same axis, the distance kept (BDEF4 pulls in to 0.26)', () => {
    const m = qdefMatrix([I, turnX(deg(150))], [0.5, 0.5], new THREE.Matrix4());
    close(v(5, 11, 0).applyMatrix4(m), [5, 10 + Math.cos(deg(75)), Math.sin(deg(75))]);
    close(v(0, 1, 0).transformDirection(m), [0, Math.cos(deg(75)), Math.sin(deg(75))]);
    // The linear blend for comparison: ½·(5, 11, 0) + ½·(5, 10 + cos 150°, sin 150°), 0.26 from the axis.
    const linear = v(5, 11, 0).multiplyScalar(0.5).add(v(5, 11, 0).applyMatrix4(turnX(deg(150))).multiplyScalar(0.5));
    expect(Math.hypot(linear.y - 10, linear.z)).toBeCloseTo(Math.cos(deg(75)), 5);
  });

  it('weights as four slots, zeros skipped; at rest nothing moves; bones moving alike move the vertex as one', () => {
    const p = v(5.3, 10.8, -0.4);
    close(p.clone().applyMatrix4(qdefMatrix([I, I, I, I], [0.1, 0.2, 0.3, 0.4], new THREE.Matrix4())), [5.3, 10.8, -0.4]);
    const M = new THREE.Matrix4().compose(v(1, 2, 3), new THREE.Quaternion().setFromAxisAngle(v(1, 1, 0).normalize(), 0.8), v(1, 1, 1));
    close(p.clone().applyMatrix4(qdefMatrix([M, M, I, I], [0.25, 0.75, 0, 0], new THREE.Matrix4())), p.clone().applyMatrix4(M).toArray());
  });

  it('+110° and −110°: the blend goes the short way, through 180° (the two turns put on one hemisphere)', () => {
    // Read from their matrices, the turns' quaternions have w > 0 and x of opposite signs (dot −0.34): added as
    // read, the x parts would cancel, a blend through no turn at all that leaves the point where it was.
    const m = qdefMatrix([turnX(deg(110)), turnX(deg(-110))], [0.5, 0.5], new THREE.Matrix4());
    close(v(5, 11, 0).applyMatrix4(m), [5, 9, 0]);
  });

  it("a mesh's uniform scale in every matrix scales the result as the bones do", () => {
    const S = new THREE.Matrix4().makeScale(2, 2, 2);
    const a = v(5, 11, 0).applyMatrix4(qdefMatrix([S, S.clone().multiply(turnX(deg(150)))], [0.5, 0.5], new THREE.Matrix4()));
    close(a, [10, 2 * (10 + Math.cos(deg(75))), 2 * Math.sin(deg(75))]);
  });
});

describe('QDEF in the model mesh', () => {
  it('the reader keeps QDEF as its own deform; the mesh flags those vertices and only those', () => {
    const q = model(qdefTwistPmx(true)), b = model(qdefTwistPmx(false));
    expect(Array.from(q.deform)).toEqual(new Array(3 * RING.length).fill(Deform.QDEF));
    expect(Array.from(b.deform)).toEqual(new Array(3 * RING.length).fill(Deform.BDEF4));
    expect(Array.from(buildModelMesh(q).mesh.geometry.getAttribute(QDEF_FLAG).array)).toEqual(new Array(3 * RING.length).fill(1));
    expect(buildModelMesh(b).mesh.geometry.hasAttribute(QDEF_FLAG)).toBe(false);
  });

  it("three.js's CPU skinning of a QDEF vertex follows QDEF; its BDEF4 twin follows the blend", () => {
    for (const qdef of [true, false]) {
      const built = buildModelMesh(model(qdefTwistPmx(qdef)));
      // ひじ twisted 150° about the arm's axis (x; MMD → three.js leaves a turn about x with its angle negated,
      // which the distances below do not see).
      built.rig.bones[1].quaternion.setFromAxisAngle(v(1, 0, 0), deg(150));
      built.mesh.updateMatrixWorld(true);
      // Each probe's centroid, from the axis: 1 under QDEF, cos 75° = 0.26 under BDEF4.
      for (let k = 0; k < RING.length; k++) {
        const c = v(0, 0, 0);
        for (let j = 0; j < 3; j++) {
          const p = new THREE.Vector3().fromBufferAttribute(built.mesh.geometry.getAttribute('position'), 3 * k + j);
          c.add(built.mesh.applyBoneTransform(3 * k + j, p).multiplyScalar(1 / 3));
        }
        expect(Math.hypot(c.y - 10, c.z), `probe ${k}`).toBeCloseTo(qdef ? 1 : Math.cos(deg(75)), 2);
        expect(c.x).toBeCloseTo(5, 5);
      }
    }
  });

  it('the skinning chunks read QDEF only where the geometry has it: the model, its outline, its ground shadow and its self-shadow depth', () => {
    const compiled = (m: THREE.Material) => {
      const shader = { vertexShader: THREE.ShaderLib.lambert.vertexShader, fragmentShader: THREE.ShaderLib.lambert.fragmentShader, uniforms: {} } as unknown as THREE.WebGLProgramParametersWithUniforms;
      m.onBeforeCompile(shader, {} as THREE.WebGLRenderer);
      return shader.vertexShader;
    };
    const q = buildModelMesh(model(qdefTwistPmx(true))), b = buildModelMesh(model(qdefTwistPmx(false)));
    const src = compiled(q.materials[0]);
    expect(src).toContain(`attribute float ${QDEF_FLAG};`);
    expect(src).toContain(`if ( ${QDEF_FLAG} > 0.5 ) mmdSkin = mmdQdefSkin( skinIndex, skinWeight );`);
    expect(src.indexOf('mat4 mmdQdefSkin(')).toBeLessThan(src.indexOf('void main()'));
    expect(src.indexOf('mat3 mmdMat3Of(')).toBeLessThan(src.indexOf('mat4 mmdQdefSkin('));
    expect(src).not.toContain('mmdSdefSkin');
    expect(compiled(b.materials[0])).not.toContain('mmdQdefSkin');
    expect(compiled(q.edges.materials[0])).toContain('mmdQdefSkin(');
    expect(compiled((q.groundShadow.mesh.material as THREE.Material[])[0])).toContain('mmdQdefSkin(');
    expect(q.shadowDepth).toHaveLength(1);
    expect(compiled(q.shadowDepth[0])).toContain('mmdQdefSkin(');
    expect(b.shadowDepth).toHaveLength(0);
    expect(q.materials[0].customProgramCacheKey()).toMatch(/mmd-fast-skinning-qdef/);
  });
});
