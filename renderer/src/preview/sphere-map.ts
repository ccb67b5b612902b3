/**
 * MMD's sphere maps on the preview's Lambert materials. A sphere map is a picture looked up by the
 * surface's view-space normal (u = nx/2 + ½, v = ½ − ny/2: the picture's top where the surface faces up,
 * as MMD's shader does) and then either multiplies the lit colour (mode 1, `.sph`) or is added to it
 * (mode 2, `.spa`). MMD does this arithmetic on the sRGB values it shows, so the add happens in sRGB here
 * too: added in linear light, a dark surface would brighten far less than MMD shows (sRGB 64 on a dark
 * grey raised it by 11–23, not 64). A multiply is the same either way up to the transfer curve's small
 * linear toe. Mode 3 (a sub-texture on the additional UV1) is not drawn. The shader change is made
 * through onBeforeCompile, chained after any other (fast-skinning.ts).
 */
import type * as THREE from 'three';

export type SphereMode = 1 | 2;

/** The stock fragment chunk the sphere term goes before: the lit colour is `outgoingLight` there. */
export const SPHERE_ANCHOR = '#include <opaque_fragment>';

const SPHERE_PARS = /* glsl */ `
uniform sampler2D mmdSphereMap;
`;

const SPHERE_FRAGMENT = /* glsl */ `
{
	vec2 mmdSphereUv = vec2( normal.x * 0.5 + 0.5, 0.5 - normal.y * 0.5 );
	vec4 mmdSphere = texture2D( mmdSphereMap, mmdSphereUv );
#ifdef MMD_MATERIAL
	mmdSphere.rgb = mmdTint( mmdSphere.rgb, mmdSphereMul, mmdSphereAdd ); // a material morph's tint (mmd-material.ts)
#endif
#if MMD_SPHERE == 2
	outgoingLight = sRGBTransferEOTF( vec4( sRGBTransferOETF( vec4( outgoingLight, 1.0 ) ).rgb + sRGBTransferOETF( mmdSphere ).rgb, 1.0 ) ).rgb;
#else
	outgoingLight *= mmdSphere.rgb;
#endif
	diffuseColor.a *= mmdSphere.a;
}
${SPHERE_ANCHOR}
`;

interface SphereState {
  texture: THREE.Texture;
  mode: SphereMode;
  /** The shader's uniform (one object, so a replaced texture reaches a program already built). */
  uniform: { value: THREE.Texture };
}

const STATE = Symbol('mmdSphere');
type WithSphere = THREE.Material & { [STATE]?: SphereState };

/** The sphere map a material draws, or null. */
export function sphereMapOf(material: THREE.Material): { texture: THREE.Texture; mode: SphereMode } | null {
  const s = (material as WithSphere)[STATE];
  return s ? { texture: s.texture, mode: s.mode } : null;
}

/**
 * Makes a material draw a sphere map (mode 1 multiplies, 2 adds). Setting it again replaces the texture
 * or mode without stacking shader changes; the caller owns the texture (disposed with the model).
 */
export function setSphereMap(material: THREE.Material, texture: THREE.Texture, mode: SphereMode): void {
  const m = material as WithSphere;
  const had = m[STATE];
  if (had) {
    had.texture = had.uniform.value = texture;
    had.mode = mode;
  } else {
    m[STATE] = { texture, mode, uniform: { value: texture } };
    const prev = material.onBeforeCompile.bind(material);
    material.onBeforeCompile = (shader, renderer) => {
      prev(shader, renderer);
      const s = m[STATE];
      if (!s || !shader.fragmentShader.includes(SPHERE_ANCHOR)) return;
      shader.uniforms.mmdSphereMap = s.uniform;
      shader.defines = { ...shader.defines, MMD_SPHERE: s.mode };
      shader.fragmentShader = SPHERE_PARS + shader.fragmentShader.replace(SPHERE_ANCHOR, SPHERE_FRAGMENT);
    };
    // Programs differ by mode; the texture is a uniform, so models with the same mode share one.
    const key = material.customProgramCacheKey.bind(material);
    material.customProgramCacheKey = () => `${key()}|mmd-sphere-${m[STATE]?.mode ?? 0}`;
  }
  material.needsUpdate = true;
}
