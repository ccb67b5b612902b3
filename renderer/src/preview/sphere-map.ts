/**
 * MMD's sphere maps on the preview's Lambert materials. A sphere map is a picture looked up by the
 * surface's view-space normal (u = nx/2 + ½, v = ½ − ny/2: the picture's top where the surface faces up,
 * as MMD's shader does) and then either multiplies the lit colour (mode 1, `.sph`) or is added to it
 * (mode 2, `.spa`). MMD does this arithmetic on the sRGB values it shows, so the add happens in sRGB here
 * too: added in linear light, a dark surface would brighten far less than MMD shows (sRGB 64 on a dark
 * grey raised it by 11–23, not 64). A multiply is the same either way up to the transfer curve's small
 * linear toe. Mode 3, a sub-texture, is looked up by the vertex's additional UV1 (x, y as stored) instead
 * of the normal and multiplies, as MMD's shader (MME's full.fx, which reproduces it: `SpTex = Tex2`, then the
 * multiply unless the sphere adds) does; a model without an additional UV has no sub-texture to draw. The
 * shader change is made through onBeforeCompile, chained after any other (fast-skinning.ts).
 */
import * as THREE from 'three';
import { drawsSubTexture, type ModelData } from '../../../shared/pmx/model-types';

export type SphereMode = 1 | 2 | 3;

/** The vertex attribute a sub-texture sphere (mode 3) is looked up by: the model's additional UV1, x and y. */
export const SUB_TEXTURE_UV = 'mmdUv1';

/**
 * The attribute SUB_TEXTURE_UV for a model with an additional UV and a material whose sphere is a
 * sub-texture (its UV1 morphs move it, morph-effects.ts); null otherwise, so other models carry nothing more.
 */
export function subTextureUv(model: ModelData): THREE.BufferAttribute | null {
  const uv1 = model.uv1;
  if (!uv1 || !drawsSubTexture(model)) return null;
  const xy = new Float32Array(2 * model.vertexCount);
  for (let i = 0; i < model.vertexCount; i++) {
    xy[2 * i] = uv1[4 * i];
    xy[2 * i + 1] = uv1[4 * i + 1];
  }
  return new THREE.BufferAttribute(xy, 2);
}

/** Whether the preview draws a material's sphere in this mode (`subTexture`: the mesh has SUB_TEXTURE_UV). */
export const drawnSphere = (mode: number, subTexture: boolean): mode is SphereMode => mode === 1 || mode === 2 || (mode === 3 && subTexture);

/** The stock fragment chunk the sphere term goes before: the lit colour is `outgoingLight` there. */
export const SPHERE_ANCHOR = '#include <opaque_fragment>';

const SPHERE_PARS = /* glsl */ `
uniform sampler2D mmdSphereMap;
`;

/** Mode 3: the vertex's UV1 handed to the fragment. */
const SUB_TEXTURE_VERTEX_PARS = /* glsl */ `
attribute vec2 ${SUB_TEXTURE_UV};
varying vec2 vMmdUv1;
`;
const SUB_TEXTURE_FRAGMENT_PARS = /* glsl */ `
varying vec2 vMmdUv1;
`;
const MAIN = 'void main() {';

const SPHERE_FRAGMENT = /* glsl */ `
{
#if MMD_SPHERE == 3
	vec2 mmdSphereUv = vMmdUv1; // a sub-texture: the additional UV1 as stored
#else
	vec2 mmdSphereUv = vec2( normal.x * 0.5 + 0.5, 0.5 - normal.y * 0.5 );
#endif
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
 * Makes a material draw a sphere map (mode 1 multiplies, 2 adds, 3 multiplies a sub-texture: its mesh must
 * have SUB_TEXTURE_UV). Setting it again replaces the texture or mode without stacking shader changes; the
 * caller owns the texture (disposed with the model).
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
      if (s.mode === 3) {
        shader.vertexShader = SUB_TEXTURE_VERTEX_PARS + shader.vertexShader.replace(MAIN, `${MAIN}\n\tvMmdUv1 = ${SUB_TEXTURE_UV};`);
        shader.fragmentShader = SUB_TEXTURE_FRAGMENT_PARS + shader.fragmentShader;
      }
    };
    // Programs differ by mode; the texture is a uniform, so models with the same mode share one.
    const key = material.customProgramCacheKey.bind(material);
    material.customProgramCacheKey = () => `${key()}|mmd-sphere-${m[STATE]?.mode ?? 0}`;
  }
  material.needsUpdate = true;
}
