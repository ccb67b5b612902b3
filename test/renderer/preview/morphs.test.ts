// The preview's bone, material and UV morphs (no WebGL: plain three.js objects). Expected values are
// computed here from the fixture's numbers (test/shared/pmx-fixtures.ts morphPmx) and the rules MMD uses:
// bone morphs on top of the motion's local transform, material multiply = 1 + (v − 1)·w, add = v·w,
// result = base · Π multiply + Σ add, UV += w·(dx, dy).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { corpusDir } from '../../helpers/corpus';
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { buildTracks, buildVmd, type BoneKeyInput } from '../../../shared/vmd';
import { readModel, readPmx, type ModelData } from '../../../shared/pmx';
import { buildModelMesh, type BuiltModel } from '../../../renderer/src/preview/model-mesh';
import { PoseBinding, ikSwitchesOf } from '../../../renderer/src/preview/pose-binding';
import { BONE_MORPH_ON_HEAD, morphPmx } from '../../shared/pmx-fixtures';
import { specularOf, tintsOf } from '../../../renderer/src/preview/mmd-material';
import { SUB_TEXTURE_UV } from '../../../renderer/src/preview/sphere-map';
import { EDGE_WIDTH_PER_DEPTH } from '../../../renderer/src/preview/edge-mesh';
import { axisAngle, rotate, type Q, type V3 } from '../../helpers/quat';

const CORPUS = corpusDir;


function fixture(opts: { subTexture?: boolean } = {}): ModelData {
  const r = readPmx(morphPmx(opts).build());
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Builds the model and binds a motion to it, as the preview engine does (selectMorphs, then a PoseBinding). */
function bind(built: BuiltModel, morphs: { name: string; frame: number; weight: number }[], bones: BoneKeyInput[] = []) {
  const doc = buildVmd({ morphs, bones });
  const tracks = buildTracks(doc);
  built.selectMorphs(tracks.morphs.names);
  return new PoseBinding(built.rig, tracks, ikSwitchesOf(doc, tracks), built.morphs, built.mesh.morphTargetInfluences ?? null);
}
/** A morph at weight 1 on frame 0 and 0 on frame 10: frame 5 is 0.5 (morphs interpolate linearly). */
const fade = (name: string) => [{ name, frame: 0, weight: 1 }, { name, frame: 10, weight: 0 }];

/** Hamilton product a·b (apply b, then a). */
function mul(a: Q, b: Q): Q {
  const [ax, ay, az, aw] = a, [bx, by, bz, bw] = b;
  return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
}
const toThreeQ = (q: Q): Q => [-q[0], -q[1], q[2], q[3]];
const toThreeP = (p: readonly number[]): V3 => [p[0], p[1], -p[2]];
/** Quaternions q and −q are the same rotation. */
function expectSameRotation(actual: THREE.Quaternion, expected: Q) {
  const a = [actual.x, actual.y, actual.z, actual.w];
  const sign = a[0] * expected[0] + a[1] * expected[1] + a[2] * expected[2] + a[3] * expected[3] < 0 ? -1 : 1;
  a.forEach((v, i) => expect(v * sign, `component ${i}`).toBeCloseTo(expected[i], 5));
}
function expectVec(actual: { x: number; y: number; z: number }, expected: readonly number[]) {
  [actual.x, actual.y, actual.z].forEach((v, i) => expect(v, `component ${i}`).toBeCloseTo(expected[i], 5));
}
function expectColor(actual: THREE.Color, expected: readonly number[]) {
  [actual.r, actual.g, actual.b].forEach((v, i) => expect(v, `channel ${i}`).toBeCloseTo(expected[i], 6));
}

// The fixture's bone morph 骨 on 頭, in MMD coordinates: translate (1, 2, 3), rotate 60° about (1, 2, 2).
const { t: MORPH_T, axis: MORPH_AXIS, angle: MORPH_ANGLE } = BONE_MORPH_ON_HEAD;
// A motion key on 頭 (MMD coordinates): 40° about (0, 0, 1) and a move of (0.25, 0, 0.5).
const MOTION_Q = axisAngle([0, 0, 1], (40 * Math.PI) / 180);
const MOTION_T: V3 = [0.25, 0, 0.5];
const HEAD_KEYS: BoneKeyInput[] = [0, 10].map((frame) => ({ name: '頭', frame, position: MOTION_T, rotation: MOTION_Q }));

describe('bone morphs', () => {
  /** 頭 and 鼻 after the morph at weight w (the morph part scaled by `factor`, for group morphs). */
  function expectHeadPosed(built: BuiltModel, w: number) {
    const head = built.rig.bones[1], nose = built.rig.bones[2];
    // Local transform: rest offset (0, 7, 1) + motion + w·t; rotation = slerp(identity, q, w) · motion (MMD order).
    const morphQ = axisAngle(MORPH_AXIS, MORPH_ANGLE * w); // slerp from identity = same axis, angle × w
    const localMmd: V3 = [0 + MOTION_T[0] + w * MORPH_T[0], 7 + MOTION_T[1] + w * MORPH_T[1], 1 + MOTION_T[2] + w * MORPH_T[2]];
    expectVec(head.position, toThreeP(localMmd));
    const rotMmd = mul(morphQ, MOTION_Q);
    expectSameRotation(head.quaternion, toThreeQ(rotMmd));
    // World: 鼻 sits at (0, 0, −2) from 頭 at rest; rotate that in MMD space, then mirror z.
    const headWorldMmd: V3 = [localMmd[0], 8 + localMmd[1], localMmd[2]];
    const noseMmd = rotate(rotMmd, [0, 0, -2]).map((v, i) => v + headWorldMmd[i]);
    expectVec(nose.getWorldPosition(new THREE.Vector3()), toThreeP(noseMmd));
    // 目 appends 頭's local rotation: it sees the morph, so the morph came before append.
    expectSameRotation(built.rig.bones[3].quaternion, toThreeQ(rotMmd));
  }

  it('adds w·t and slerp(identity, q, w) on top of the motion at weights 1, 0.5 and 0', () => {
    const built = buildModelMesh(fixture());
    const binding = bind(built, fade('骨'), HEAD_KEYS);
    binding.apply(0);
    expectHeadPosed(built, 1);
    binding.apply(5);
    expectHeadPosed(built, 0.5);
    binding.apply(10);
    expectHeadPosed(built, 0);
    // Not accumulated across frames: back at weight 1 it is exactly the weight-1 pose again.
    binding.apply(0);
    binding.apply(0);
    expectHeadPosed(built, 1);
    built.dispose();
  });

  it('moves a bone that has no motion track', () => {
    const built = buildModelMesh(fixture());
    const binding = bind(built, [{ name: '骨', frame: 0, weight: 1 }]);
    binding.apply(0);
    const head = built.rig.bones[1];
    expectVec(head.position, toThreeP([1, 9, 4]));
    expectSameRotation(head.quaternion, toThreeQ(axisAngle(MORPH_AXIS, MORPH_ANGLE)));
    expectVec(built.rig.bones[0].position, [0, 8, 0]); // センター untouched
    built.dispose();
  });

  it('a group morph reaching a bone morph applies it with the group factor (まとめ = 骨 × 0.5)', () => {
    const built = buildModelMesh(fixture());
    expect(built.morphs.get('まとめ')?.effects?.factors).toEqual([0.5]);
    const binding = bind(built, fade('まとめ'), HEAD_KEYS);
    binding.apply(0);
    expectHeadPosed(built, 0.5);
    binding.apply(5);
    expectHeadPosed(built, 0.25);
    // A flip morph (反転) is not simulated: it counts as present but moves nothing.
    const flip = bind(built, [{ name: '反転', frame: 0, weight: 1 }], HEAD_KEYS);
    flip.apply(0);
    expect(flip.missingMorphs).toEqual([]);
    expectHeadPosed(built, 0);
    built.dispose();
  });
});

describe('material morphs', () => {
  // Base values from the fixture: A diffuse (0.8, 0.6, 0.4, 1) ambient 0.5; B diffuse (0.2, 0.4, 0.6, 0.5) ambient (0.2, 0.4, 0.2).
  const E = 1; // the MMD material holds the ambient as `emissive`, unscaled (mmd-material.ts)
  function expectBase(built: BuiltModel) {
    const [a, b] = built.materials;
    expectColor(a.color, [0.8, 0.6, 0.4]);
    expectColor(a.emissive, [0.5 * E, 0.5 * E, 0.5 * E]);
    // Every MMD material blends, in the file's order, whatever its alpha (mmd-material.ts).
    expect([a.opacity, a.transparent, a.visible]).toEqual([1, true, true]);
    expectColor(b.color, [0.2, 0.4, 0.6]);
    expectColor(b.emissive, [0.2 * E, 0.4 * E, 0.2 * E]);
    expect(b.opacity).toBeCloseTo(0.5, 6);
    expect([b.transparent, b.visible]).toEqual([true, true]);
  }

  it('starts at the base values', () => {
    expectBase(buildModelMesh(fixture()));
  });

  it('multiply on one material: lerps the factors from 1 by w, hides at alpha 0, returns to base at 0', () => {
    const built = buildModelMesh(fixture());
    const [a] = built.materials;
    const binding = bind(built, fade('乗算'));
    binding.apply(0); // w = 1: diffuse × (0.5, 1, 0, 0), ambient × (0, 2, 1)
    expectColor(a.color, [0.4, 0.6, 0]);
    expectColor(a.emissive, [0, 1 * E, 0.5 * E]);
    expect(a.opacity).toBe(0);
    expect(a.visible).toBe(false);
    // Material B is not addressed.
    expectColor(built.materials[1].color, [0.2, 0.4, 0.6]);
    expect(built.materials[1].opacity).toBeCloseTo(0.5, 6);
    binding.apply(5); // w = 0.5: factors 1 + (v − 1)·0.5 = diffuse (0.75, 1, 0.5, 0.5), ambient (0.5, 1.5, 1)
    expectColor(a.color, [0.6, 0.6, 0.2]);
    expectColor(a.emissive, [0.25 * E, 0.75 * E, 0.5 * E]);
    expect(a.opacity).toBeCloseTo(0.5, 6);
    expect([a.transparent, a.visible]).toEqual([true, true]);
    binding.apply(10);
    expectBase(built);
    built.dispose();
  });

  it('add on every material (−1): adds v·w to each, returns to base at 0', () => {
    const built = buildModelMesh(fixture());
    const [a, b] = built.materials;
    const binding = bind(built, fade('加算'));
    binding.apply(0); // + (0.125, 0.25, −0.375, −0.5), ambient + (0.125, 0, 0)
    expectColor(a.color, [0.925, 0.85, 0.025]);
    expectColor(a.emissive, [0.625 * E, 0.5 * E, 0.5 * E]);
    expect(a.opacity).toBeCloseTo(0.5, 6);
    expect([a.transparent, a.visible]).toEqual([true, true]);
    expectColor(b.color, [0.325, 0.65, 0.225]);
    expectColor(b.emissive, [0.325 * E, 0.4 * E, 0.2 * E]);
    expect(b.opacity).toBe(0);
    expect(b.visible).toBe(false);
    binding.apply(5);
    expectColor(a.color, [0.8625, 0.725, 0.2125]);
    expect(b.opacity).toBeCloseTo(0.25, 6);
    expect(b.visible).toBe(true);
    binding.apply(10);
    // Back to base (every material blends in MMD's draw order, so blending stays on).
    expectBase(built);
    built.dispose();
  });

  it('multiply and add together: base × multiply + add', () => {
    const built = buildModelMesh(fixture());
    const [a] = built.materials;
    const binding = bind(built, [{ name: '乗算', frame: 0, weight: 0.5 }, { name: '加算', frame: 0, weight: 0.5 }]);
    binding.apply(0);
    // (0.8, 0.6, 0.4) × (0.75, 1, 0.5) + 0.5 × (0.125, 0.25, −0.375); alpha 1 × 0.5 + 0.5 × −0.5
    expectColor(a.color, [0.6625, 0.725, 0.0125]);
    expect(a.opacity).toBeCloseTo(0.25, 6);
    built.dispose();
  });

  it("specular, power, edge colour and size, and the texture / sphere / toon tints (MMD's full material morph)", () => {
    const r = readPmx(morphPmx({ look: true }).build());
    if (!r.ok) throw new Error(r.error.message);
    const built = buildModelMesh(r.value);
    const b = built.materials[1], edge = built.edges.materials[1];
    // The edge material's width uniform, as its shader gets it.
    const shader = { uniforms: {} as Record<string, { value: number }>, vertexShader: '#include <project_vertex>', fragmentShader: '' };
    edge.onBeforeCompile(shader as never, undefined as never);
    const width = () => shader.uniforms.edgeWidth.value / EDGE_WIDTH_PER_DEPTH;
    const srgb = (rgb: number[]) => new THREE.Color().setRGB(rgb[0], rgb[1], rgb[2], THREE.SRGBColorSpace).toArray();
    const closeTo = (got: number[], want: number[]) => got.forEach((x, i) => expect(x).toBeCloseTo(want[i], 6));
    const NEUTRAL = [1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0];
    // The file's values: specular (0.1, 0.2, 0.4), power 1, edge black, alpha 1, size 1; no tint.
    closeTo(specularOf(b)!.color, [0.1, 0.2, 0.4]);
    expect(tintsOf(b)).toEqual(NEUTRAL);
    expect(width()).toBeCloseTo(1, 6);

    const binding = bind(built, [...fade('ルック'), { name: 'ルック加', frame: 0, weight: 1 }, { name: 'ルック加', frame: 1, weight: 0 }]);
    binding.apply(0); // both at 1: base × multiply + add
    closeTo(specularOf(b)!.color, [0.1 * 2 + 0.25, 0.2 * 0.5, 0]);
    expect(specularOf(b)!.power).toBeCloseTo(1 * 3 + 1, 6);
    closeTo(edge.color.toArray(), srgb([0.25, 0, 0]));
    expect(width()).toBeCloseTo(1 * 2 + 0.5, 6);
    built.edges.sync();
    expect(edge.opacity).toBeCloseTo(0.5 * 0.5, 6); // edge alpha 1 × 0.5 + 0, times B's alpha 0.5
    closeTo(tintsOf(b)!, [0.5, 1, 1, 1, 0, 0.125, 0, 0, 1, 1, 1, 0.5, 0, 0, 0, 0.25, 1, 0.25, 1, 1, 0.5, 0, 0, 0]);
    binding.apply(5); // ルック at 0.5 alone: factors 1 + (v − 1) × 0.5
    closeTo(specularOf(b)!.color, [0.15, 0.15, 0.2]);
    expect(specularOf(b)!.power).toBeCloseTo(2, 6);
    expect(width()).toBeCloseTo(1.5, 6);
    built.edges.sync();
    expect(edge.opacity).toBeCloseTo(0.75 * 0.5, 6);
    closeTo(tintsOf(b)!, [0.75, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 0.75, 0, 0, 0, 0, 1, 0.625, 1, 1, 0, 0, 0, 0]);
    // Material A is not addressed: its tints stay neutral.
    expect(tintsOf(built.materials[0])).toEqual(NEUTRAL);
    binding.apply(10); // back to the file's values
    closeTo(specularOf(b)!.color, [0.1, 0.2, 0.4]);
    expect(specularOf(b)!.power).toBeCloseTo(1, 6);
    expect(width()).toBeCloseTo(1, 6);
    closeTo(edge.color.toArray(), [0, 0, 0]);
    expect(tintsOf(b)).toEqual(NEUTRAL);
    built.dispose();
  });

  it('recomputes nothing while the weights stay the same', () => {
    const built = buildModelMesh(fixture());
    const [a] = built.materials;
    const binding = bind(built, fade('乗算'));
    binding.apply(5);
    expect(binding.morphsChanged).toBe(true);
    expect(binding.effectsChanged).toBe(true);
    // A marker the recompute would overwrite: it survives a frame with the same weight.
    a.color.setRGB(9, 9, 9);
    binding.apply(5);
    expect(binding.effectsChanged).toBe(false);
    expect(binding.morphsChanged).toBe(false);
    expect(a.color.r).toBe(9);
    binding.apply(6);
    expect(binding.effectsChanged).toBe(true);
    expectColor(a.color, [0.8 * (1 - 0.5 * 0.4), 0.6, 0.4 * (1 - 0.4)]); // w = 0.4
    built.dispose();
  });

  it('a new motion selection puts the materials back to base', () => {
    const built = buildModelMesh(fixture());
    bind(built, fade('加算')).apply(0);
    expect(built.materials[1].visible).toBe(false);
    bind(built, [{ name: 'ない', frame: 0, weight: 1 }]).apply(0);
    expectBase(built);
    built.dispose();
  });
});

describe('UV morphs', () => {
  const base = [0, 0.5, 0.25, 0.5, 0.5, 0.5, 0.75, 0.5];
  const uvOf = (built: BuiltModel) => Array.from(built.mesh.geometry.getAttribute('uv').array as Float32Array);

  it('moves the base UV by w·(dx, dy) (z, w unused) and returns to base at 0', () => {
    const built = buildModelMesh(fixture());
    const attr = built.mesh.geometry.getAttribute('uv') as THREE.BufferAttribute;
    expect(uvOf(built)).toEqual(base);
    const binding = bind(built, fade('UV'));
    let version = attr.version;
    binding.apply(0); // vertex 1 + (0.25, −0.5), vertex 2 + (−0.125, 0.25)
    expect(uvOf(built)).toEqual([0, 0.5, 0.5, 0, 0.375, 0.75, 0.75, 0.5]);
    expect(attr.version).toBeGreaterThan(version);
    version = attr.version;
    binding.apply(0);
    expect(attr.version).toBe(version); // unchanged weight: no re-upload
    binding.apply(5);
    expect(uvOf(built)).toEqual([0, 0.5, 0.375, 0.25, 0.4375, 0.625, 0.75, 0.5]);
    binding.apply(10);
    expect(uvOf(built)).toEqual(base);
    built.dispose();
  });

  it('without a sub-texture sphere: no UV1 attribute, and a uv1 morph moves nothing yet counts as present', () => {
    const built = buildModelMesh(fixture());
    expect(built.mesh.geometry.hasAttribute(SUB_TEXTURE_UV)).toBe(false);
    const attr = built.mesh.geometry.getAttribute('uv') as THREE.BufferAttribute;
    const binding = bind(built, [{ name: 'UV1', frame: 0, weight: 1 }, { name: '空', frame: 0, weight: 1 }, { name: 'ない', frame: 0, weight: 1 }]);
    expect(built.morphs.get('UV1')?.effects).toBeUndefined();
    const version = attr.version;
    binding.apply(0);
    expect(uvOf(built)).toEqual(base);
    expect(attr.version).toBe(version);
    expect(binding.missingMorphs).toEqual(['ない']);
    built.dispose();
  });

  it('with a sub-texture sphere (mode 3): UV1 (x, y) is an attribute, and the uv1 morph moves it by w·(dx, dy), the base UV left alone', () => {
    const built = buildModelMesh(fixture({ subTexture: true }));
    const uv1 = built.mesh.geometry.getAttribute(SUB_TEXTURE_UV) as THREE.BufferAttribute;
    const uv1Of = () => Array.from(uv1.array as Float32Array);
    // The fixture's UV1 is (i/8, 0.75, 5, 6) on vertex i: x and y only.
    const uv1Base = [0, 0.75, 0.125, 0.75, 0.25, 0.75, 0.375, 0.75];
    expect(uv1Of()).toEqual(uv1Base);
    const binding = bind(built, fade('UV1'));
    binding.apply(0); // vertex 0 + (1, 1)
    expect(uv1Of()).toEqual([1, 1.75, ...uv1Base.slice(2)]);
    binding.apply(5);
    expect(uv1Of()).toEqual([0.5, 1.25, ...uv1Base.slice(2)]);
    expect(uvOf(built)).toEqual(base);
    binding.apply(10);
    expect(uv1Of()).toEqual(uv1Base);
    built.dispose();
  });
});

describe('Gene_light material and UV morphs', () => {
  function gene(): ModelData {
    const r = readModel(new Uint8Array(readFileSync(path.join(CORPUS, 'gene/Gene_light.pmx'))));
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  }

  it('every material morph tints what it addresses and nothing else, and undoes at 0', () => {
    const m = gene();
    const built = buildModelMesh(m);
    const before = built.materials.map((x) => [x.color.r, x.color.g, x.color.b, x.opacity, x.emissive.r]);
    for (const morph of m.morphs.filter((x) => x.kind === 'material')) {
      const binding = bind(built, fade(morph.name));
      expect(binding.missingMorphs).toEqual([]);
      binding.apply(0);
      const mm = morph.material!;
      built.materials.forEach((mat, i) => {
        const k = Array.from(mm.indices).findIndex((t) => t === i || t === -1);
        if (k < 0) {
          expect([mat.color.r, mat.color.g, mat.color.b, mat.opacity, mat.emissive.r], `${morph.name} material ${i}`).toEqual(before[i]);
          return;
        }
        const d = m.materials[i].diffuse, v = mm.diffuse.subarray(4 * k, 4 * k + 4);
        const one = (j: number) => (mm.operations[k] === 0 ? d[j] * v[j] : d[j] + v[j]);
        expectColor(mat.color, [one(0), one(1), one(2)]);
        expect(mat.opacity).toBeCloseTo(Math.min(1, Math.max(0, one(3))), 6);
      });
      binding.apply(10);
      built.materials.forEach((mat, i) => expect([mat.color.r, mat.color.g, mat.color.b, mat.opacity, mat.emissive.r]).toEqual(before[i]));
    }
    built.dispose();
  });

  it('the UV morph moves the UVs it lists and only those', () => {
    const m = gene();
    const built = buildModelMesh(m);
    const morph = m.morphs.find((x) => x.kind === 'uv')!;
    const binding = bind(built, fade(morph.name));
    binding.apply(5);
    const uv = built.mesh.geometry.getAttribute('uv').array as Float32Array;
    const expected = Float32Array.from(m.uvs);
    const { indices, offsets } = morph.uv!;
    for (let k = 0; k < indices.length; k++) {
      expected[2 * indices[k]] += 0.5 * offsets[4 * k];
      expected[2 * indices[k] + 1] += 0.5 * offsets[4 * k + 1];
    }
    let worst = 0;
    for (let i = 0; i < uv.length; i++) worst = Math.max(worst, Math.abs(uv[i] - expected[i]));
    expect(worst).toBeLessThan(1e-6);
    // The check above means something only if the morph moves UVs at all.
    expect(offsets.some((v, i) => i % 4 < 2 && v !== 0)).toBe(true);
    binding.apply(10);
    expect(Array.from(uv)).toEqual(Array.from(m.uvs));
    built.dispose();
  });
});
