// MMD's sphere maps on the preview's materials (sphere-map.ts): the fragment shader gets the lookup by
// the view-space normal before three.js's opaque chunk, a multiply or an sRGB add by mode, one program
// per mode (mode 3, a sub-texture, looked up at the vertex's UV1), and a texture set again reaches the
// program already built. The pictures themselves are
// checked in Chromium (test/e2e/preview-sphere.e2e.test.ts).
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { SPHERE_ANCHOR, SUB_TEXTURE_UV, setSphereMap, sphereMapOf } from '../../../renderer/src/preview/sphere-map';
import { useFastSkinning } from '../../../renderer/src/preview/fast-skinning';

function compile(material: THREE.Material) {
  const shader = {
    vertexShader: THREE.ShaderLib.lambert.vertexShader,
    fragmentShader: THREE.ShaderLib.lambert.fragmentShader,
    uniforms: {} as Record<string, THREE.IUniform>,
    defines: {} as Record<string, unknown>,
  } as unknown as THREE.WebGLProgramParametersWithUniforms & { defines: Record<string, unknown> };
  material.onBeforeCompile(shader, {} as THREE.WebGLRenderer);
  return shader;
}

describe('sphere maps', () => {
  it("three.js's Lambert shader has the chunk the sphere term goes before, after the lit colour", () => {
    const fs = THREE.ShaderLib.lambert.fragmentShader;
    expect(fs).toContain(SPHERE_ANCHOR);
    expect(fs.indexOf('vec3 outgoingLight')).toBeLessThan(fs.indexOf(SPHERE_ANCHOR));
    expect(fs.indexOf('#include <normal_fragment_begin>')).toBeLessThan(fs.indexOf(SPHERE_ANCHOR));
  });

  it('multiply (1) and add (2): the lookup, the mode, the uniform and a program of their own', () => {
    const plain = new THREE.MeshLambertMaterial();
    const tex = new THREE.Texture();
    const mul = new THREE.MeshLambertMaterial();
    setSphereMap(mul, tex, 1);
    const add = new THREE.MeshLambertMaterial();
    setSphereMap(add, tex, 2);
    const s1 = compile(mul), s2 = compile(add), s0 = compile(plain);
    expect(s0.fragmentShader).toBe(THREE.ShaderLib.lambert.fragmentShader);
    for (const [s, mode] of [[s1, 1], [s2, 2]] as const) {
      expect(s.defines.MMD_SPHERE).toBe(mode);
      expect(s.uniforms.mmdSphereMap.value).toBe(tex);
      expect(s.fragmentShader).toContain('uniform sampler2D mmdSphereMap;');
      expect(s.fragmentShader).toContain('vec2( normal.x * 0.5 + 0.5, 0.5 - normal.y * 0.5 )');
      // The stock chunk stays, once, after the sphere term.
      expect(s.fragmentShader.split(SPHERE_ANCHOR)).toHaveLength(2);
      expect(s.fragmentShader.indexOf('mmdSphere.rgb')).toBeLessThan(s.fragmentShader.indexOf(SPHERE_ANCHOR));
    }
    // The add happens on sRGB values, then back to linear light.
    expect(s1.fragmentShader).toContain('outgoingLight *= mmdSphere.rgb;');
    expect(s2.fragmentShader).toMatch(/sRGBTransferEOTF\( vec4\( sRGBTransferOETF\( vec4\( outgoingLight, 1\.0 \) \)\.rgb \+ sRGBTransferOETF\( mmdSphere \)\.rgb/);
    const keys = new Set([plain, mul, add].map((m) => m.customProgramCacheKey()));
    expect(keys.size).toBe(3);
    expect(sphereMapOf(add)).toEqual({ texture: tex, mode: 2 });
    expect(sphereMapOf(plain)).toBeNull();
  });

  it('sub-texture (3): the vertex hands its UV1 on, the lookup reads it and multiplies; modes 1 and 2 have none of it', () => {
    const tex = new THREE.Texture();
    const sub = new THREE.MeshLambertMaterial(), mul = new THREE.MeshLambertMaterial();
    setSphereMap(sub, tex, 3);
    setSphereMap(mul, tex, 1);
    const s3 = compile(sub), s1 = compile(mul);
    expect(s3.defines.MMD_SPHERE).toBe(3);
    expect(s3.vertexShader).toContain(`attribute vec2 ${SUB_TEXTURE_UV};`);
    expect(s3.vertexShader).toContain(`void main() {\n\tvMmdUv1 = ${SUB_TEXTURE_UV};`);
    expect(s3.fragmentShader.startsWith('\nvarying vec2 vMmdUv1;')).toBe(true);
    // The lookup: UV1 under mode 3, the normal otherwise; then the multiply (the add is mode 2's alone).
    expect(s3.fragmentShader).toMatch(/#if MMD_SPHERE == 3\n\tvec2 mmdSphereUv = vMmdUv1;[^\n]*\n#else\n\tvec2 mmdSphereUv = vec2\( normal\.x/);
    expect(s3.fragmentShader).toMatch(/#if MMD_SPHERE == 2\n[^\n]*\n#else\n\toutgoingLight \*= mmdSphere\.rgb;/);
    expect(s1.vertexShader).not.toContain('vMmdUv1');
    expect(s1.fragmentShader).not.toContain('varying vec2 vMmdUv1');
    expect(sub.customProgramCacheKey()).not.toBe(mul.customProgramCacheKey());
  });

  it('set again: the texture reaches the built program, the mode changes the program, the shader is changed once', () => {
    const m = new THREE.MeshLambertMaterial();
    const a = new THREE.Texture(), b = new THREE.Texture();
    setSphereMap(m, a, 1);
    const built = compile(m);
    const key1 = m.customProgramCacheKey();
    const v = m.version;
    setSphereMap(m, b, 1);
    expect(m.version).toBeGreaterThan(v); // needsUpdate
    expect(built.uniforms.mmdSphereMap.value).toBe(b);
    expect(m.customProgramCacheKey()).toBe(key1);
    setSphereMap(m, b, 2);
    expect(m.customProgramCacheKey()).not.toBe(key1);
    expect(compile(m).fragmentShader.match(/uniform sampler2D mmdSphereMap;/g)).toHaveLength(1);
  });

  it('chains after fast skinning (both changes in one program)', () => {
    const m = new THREE.MeshLambertMaterial();
    useFastSkinning(m);
    setSphereMap(m, new THREE.Texture(), 1);
    const s = compile(m);
    expect(s.vertexShader).toContain('mmdSkin');
    expect(s.fragmentShader).toContain('mmdSphereMap');
    expect(m.customProgramCacheKey()).toMatch(/mmd-fast-skinning.*mmd-sphere-1/);
  });
});
