/**
 * MMD's material on three.js: a MeshLambertMaterial (its uniforms, skinning, morph targets, fog and shadow
 * map plumbing) whose lighting is replaced through onBeforeCompile by MMD's own arithmetic, done on the
 * values MMD shows (sRGB), as MMD does:
 *
 *   base    = saturate(ambient + diffuse × light colour)          the lit colour, no angle in it
 *   colour  = base × texture (× or + sphere map, sphere-map.ts)    alpha = diffuse alpha × texture alpha
 *   toon    = toon ramp at v = ½ − ½·(N·L)                          (mmd-toon.ts)
 *   spec    = specular × light colour × max(0, N·H)^power
 *   with self-shadow (the light casts a shadow map), on a material that receives it (PMX 0x08):
 *           comp = min(saturate(3·N·L), shadow);  toon = mix(ramp's bottom colour, 1, comp);  spec × comp
 *           (MMD's self-shadow pass, as MME's full.fx has it: lerp(shadow colour, colour + specular, comp),
 *           the shadow colour being the colour × the toon's colour: so the shadow's depth is the toon's, and
 *           a material without a toon, white, shows none, as in MMD); a material that does not receive is
 *           drawn as without self-shadow (MMD's plain pass), its toon still read by N·L
 *   shown   = colour × toon + spec
 *   material morphs also tint the texture, the sphere map and the toon (mmdTint), and change the specular
 *   and power (setMmdMorphLook, from morph-effects.ts)
 *
 * `color` holds the diffuse, `emissive` the ambient (MMD's names: both are plain sRGB numbers from the
 * file, used as such), `opacity` the alpha; the light's colour is MMD's own (0.6 grey by default), set on
 * the model's shared uniforms from the scene (`scene.userData.mmdLight`, preview-scene.ts) before each
 * draw. The direction is the scene's directional light's (the same one that casts the shadow map).
 * Multiplications are done in linear light (the same product up to the sRGB curve's small toe); the
 * specular is added in sRGB, as MMD adds it.
 */
import * as THREE from 'three';
import type { ModelData, ModelMaterial } from '../../../shared/pmx/model-types';
import { toonRefOf, type ToonRef } from './mmd-toon';

/** PMX material flags. */
export const MATERIAL_FLAG = { doubleSided: 0x01, groundShadow: 0x02, castShadow: 0x04, receiveShadow: 0x08, edge: 0x10 } as const;

/** Everything the picture takes from one model material, in MMD's terms (for the material and the tests). */
export interface MmdMaterialParams {
  diffuse: [number, number, number];
  alpha: number;
  ambient: [number, number, number];
  specular: [number, number, number];
  power: number;
  toon: ToonRef;
  doubleSided: boolean;
  /** Drawn on the ground shadow (PMX flag 0x02; PMD: the material's edge flag, "edge and shadow"). */
  groundShadow: boolean;
  /** Casts into the self-shadow map (PMX 0x04; PMD: every material). */
  castShadow: boolean;
  /** Receives the self-shadow (PMX 0x08; PMD: every material but those of alpha 0.98, MMD's switch). */
  receiveShadow: boolean;
  edge: boolean;
  edgeColor: [number, number, number, number];
  edgeSize: number;
}

const PMD_NO_SELF_SHADOW_ALPHA = Math.fround(0.98);

/** The MMD parameters of material `m` of `model`, by the format's rules. */
export function mmdMaterialParams(model: Pick<ModelData, 'format' | 'textures'>, m: ModelMaterial): MmdMaterialParams {
  const pmd = model.format === 'pmd';
  const f = m.flags;
  return {
    diffuse: [m.diffuse[0], m.diffuse[1], m.diffuse[2]],
    alpha: m.diffuse[3],
    ambient: [m.ambient[0], m.ambient[1], m.ambient[2]],
    specular: [m.specular[0], m.specular[1], m.specular[2]],
    power: m.specularity,
    toon: toonRefOf(m, model.textures.length),
    doubleSided: (f & MATERIAL_FLAG.doubleSided) !== 0,
    groundShadow: pmd ? (f & MATERIAL_FLAG.edge) !== 0 : (f & MATERIAL_FLAG.groundShadow) !== 0,
    castShadow: pmd ? true : (f & MATERIAL_FLAG.castShadow) !== 0,
    receiveShadow: pmd ? Math.fround(m.diffuse[3]) !== PMD_NO_SELF_SHADOW_ALPHA : (f & MATERIAL_FLAG.receiveShadow) !== 0,
    edge: (f & MATERIAL_FLAG.edge) !== 0,
    edgeColor: [m.edgeColor[0], m.edgeColor[1], m.edgeColor[2], m.edgeColor[3]],
    edgeSize: m.edgeSize,
  };
}

/** Uniforms a model's materials share: the scene light's MMD colour (set per draw from the scene). */
export interface MmdLightUniforms {
  mmdLightColor: { value: THREE.Vector3 };
}

export function createLightUniforms(): MmdLightUniforms {
  return { mmdLightColor: { value: new THREE.Vector3(0.6, 0.6, 0.6) } };
}

/** What a scene carries for MMD materials (preview-scene.ts sets it): the light as MMD has it. */
export interface SceneMmdLight {
  color: [number, number, number];
  /** The direction the light travels, three.js coordinates, normalised. */
  direction: [number, number, number];
}

/** Copies the scene's MMD light colour into a model's uniforms (call from the mesh's onBeforeRender). */
export function syncLightUniforms(u: MmdLightUniforms, scene: THREE.Object3D): void {
  const l = scene.userData.mmdLight as SceneMmdLight | undefined;
  if (l) u.mmdLightColor.value.set(l.color[0], l.color[1], l.color[2]);
}

const PARS = /* glsl */ `
#define MMD_MATERIAL
uniform vec3 mmdLightColor;
uniform vec3 mmdSpecular;
uniform float mmdPower;
uniform float mmdReceive;
uniform sampler2D mmdToonMap;
// A material morph's tints of the texture, sphere map and toon (multiply, then add), as MMD's peers apply
// them to the colour as shown (sRGB): c = mix(1, c × mul.rgb, mul.a), then saturate(c + (c − 1) × add.a) + add.rgb.
uniform vec4 mmdTextureMul;
uniform vec4 mmdTextureAdd;
uniform vec4 mmdSphereMul;
uniform vec4 mmdSphereAdd;
uniform vec4 mmdToonMul;
uniform vec4 mmdToonAdd;
vec3 mmdTint( vec3 linear, vec4 mul, vec4 add ) {
	if ( mul == vec4( 1.0 ) && add == vec4( 0.0 ) ) return linear;
	vec3 c = sRGBTransferOETF( vec4( linear, 1.0 ) ).rgb;
	c = mix( vec3( 1.0 ), c * mul.rgb, mul.a );
	c = clamp( c + ( c - 1.0 ) * add.a, 0.0, 1.0 ) + add.rgb;
	return sRGBTransferEOTF( vec4( c, 1.0 ) ).rgb;
}
`;

/** The texture, tinted by material morphs (three.js's map_fragment with the tint). */
const MAP = /* glsl */ `
#ifdef USE_MAP
	vec4 sampledDiffuseColor = texture2D( map, vMapUv );
	sampledDiffuseColor.rgb = mmdTint( sampledDiffuseColor.rgb, mmdTextureMul, mmdTextureAdd );
	diffuseColor *= sampledDiffuseColor;
#endif
`;

/** The lit base colour, before the texture (map_fragment multiplies it in). */
const BASE = /* glsl */ `vec4 diffuseColor = vec4( sRGBTransferEOTF( vec4( clamp( emissive + diffuse * mmdLightColor, 0.0, 1.0 ), 1.0 ) ).rgb, opacity );`;

/** Instead of Lambert's light accumulation: the toon factor (linear) and the specular (sRGB). */
const LIGHT = /* glsl */ `
vec3 mmdToon = vec3( 1.0 );
vec3 mmdSpec = vec3( 0.0 );
{
#if NUM_DIR_LIGHTS > 0
	vec3 mmdL = directionalLights[ 0 ].direction;
#else
	vec3 mmdL = normalize( vec3( 0.5, 1.0, 0.5 ) );
#endif
	float mmdNdotL = dot( normal, mmdL );
	// How lit the surface is under the self-shadow (MMD's comp): 1 without it.
	float mmdComp = 1.0;
	bool mmdSelfShadow = false;
#if defined( USE_SHADOWMAP ) && NUM_DIR_LIGHT_SHADOWS > 0
	// Only a material that receives (PMX 0x08) takes MMD's self-shadow pass; one that does not keeps its N·L ramp.
	mmdSelfShadow = receiveShadow && mmdReceive > 0.5;
	if ( mmdSelfShadow ) {
		DirectionalLightShadow mmdDls = directionalLightShadows[ 0 ];
		float mmdShadow = getShadow( directionalShadowMap[ 0 ], mmdDls.shadowMapSize, mmdDls.shadowIntensity, mmdDls.shadowBias, mmdDls.shadowRadius, vDirectionalShadowCoord[ 0 ] );
		mmdComp = min( clamp( mmdNdotL * 3.0, 0.0, 1.0 ), mmdShadow );
	}
#endif
	if ( mmdSelfShadow ) mmdToon = mix( texture2D( mmdToonMap, vec2( 0.5, 1.0 ) ).rgb, vec3( 1.0 ), mmdComp );
	else mmdToon = texture2D( mmdToonMap, vec2( 0.5, 0.5 - 0.5 * mmdNdotL ) ).rgb;
	mmdToon = mmdTint( mmdToon, mmdToonMul, mmdToonAdd );
	vec3 mmdH = normalize( normalize( vViewPosition ) + mmdL );
	float mmdNdotH = max( dot( normal, mmdH ), 0.0 );
	// Direct3D's pow(x, 0) is 1: a power of 0 adds the whole specular colour, as MMD shows it.
	// In the self-shadow MMD blends toward a shadow colour without the specular: it fades with comp.
	mmdSpec = mmdComp * ( mmdPower > 0.0 ? pow( mmdNdotH, mmdPower ) : 1.0 ) * mmdSpecular * mmdLightColor;
}
`;

const OUTGOING_STOCK = 'vec3 outgoingLight = reflectedLight.directDiffuse + reflectedLight.indirectDiffuse + totalEmissiveRadiance;';

/** After the sphere map (which acts on outgoingLight before opaque_fragment): toon, then specular in sRGB. */
const FINISH = /* glsl */ `
gl_FragColor.rgb = sRGBTransferEOTF( vec4( clamp( sRGBTransferOETF( vec4( gl_FragColor.rgb * mmdToon, 1.0 ) ).rgb + mmdSpec, 0.0, 1.0 ), 1.0 ) ).rgb;
#include <tonemapping_fragment>
`;

/** Per-material state kept beside the three.js material. */
interface MmdState {
  params: MmdMaterialParams;
  uniforms: {
    mmdSpecular: { value: THREE.Vector3 };
    mmdPower: { value: number };
    mmdReceive: { value: number };
    mmdToonMap: { value: THREE.Texture };
    mmdTextureMul: { value: THREE.Vector4 };
    mmdTextureAdd: { value: THREE.Vector4 };
    mmdSphereMul: { value: THREE.Vector4 };
    mmdSphereAdd: { value: THREE.Vector4 };
    mmdToonMul: { value: THREE.Vector4 };
    mmdToonAdd: { value: THREE.Vector4 };
  };
}

/** The order of a material's tints in setMmdMorphLook's `tints`: each a multiply rgba, then an add rgba. */
export const TINT_TARGETS = ['texture', 'sphere', 'toon'] as const;
const STATE = Symbol('mmdMaterial');
type WithMmd = THREE.MeshLambertMaterial & { [STATE]?: MmdState };

/** Replaces `needle` in `src`, or throws: a three.js update that moved a chunk must fail loudly, not draw wrong. */
function replaceOnce(src: string, needle: string, by: string): string {
  if (!src.includes(needle)) throw new Error(`MMD material: shader chunk not found: ${needle}`);
  return src.replace(needle, by);
}

/**
 * A material drawing `m` as MMD does (see the file comment). `toon` is the ramp texture to start with
 * (a model's own toon file replaces it when loaded: setToonTexture).
 */
export function createMmdMaterial(params: MmdMaterialParams, name: string, light: MmdLightUniforms, toon: THREE.Texture): THREE.MeshLambertMaterial {
  const mat = new THREE.MeshLambertMaterial({
    name,
    color: new THREE.Color(params.diffuse[0], params.diffuse[1], params.diffuse[2]),
    emissive: new THREE.Color(params.ambient[0], params.ambient[1], params.ambient[2]),
    opacity: params.alpha,
    // Every material blends, in the file's order (MMD draws them in order, alpha on, depth written):
    // three.js keeps one mesh's groups in order within its transparent list.
    transparent: true,
    depthWrite: true,
    side: params.doubleSided ? THREE.DoubleSide : THREE.FrontSide,
    alphaTest: 0.01,
  });
  // MMD draws a double-sided material in one pass (three.js would draw back faces first, then front).
  mat.forceSinglePass = true;
  mat.visible = params.alpha > 0;
  const state: MmdState = {
    params,
    uniforms: {
      mmdSpecular: { value: new THREE.Vector3(params.specular[0], params.specular[1], params.specular[2]) },
      mmdPower: { value: params.power },
      mmdReceive: { value: params.receiveShadow ? 1 : 0 },
      mmdToonMap: { value: toon },
      mmdTextureMul: { value: new THREE.Vector4(1, 1, 1, 1) },
      mmdTextureAdd: { value: new THREE.Vector4(0, 0, 0, 0) },
      mmdSphereMul: { value: new THREE.Vector4(1, 1, 1, 1) },
      mmdSphereAdd: { value: new THREE.Vector4(0, 0, 0, 0) },
      mmdToonMul: { value: new THREE.Vector4(1, 1, 1, 1) },
      mmdToonAdd: { value: new THREE.Vector4(0, 0, 0, 0) },
    },
  };
  (mat as WithMmd)[STATE] = state;
  mat.onBeforeCompile = (shader) => {
    Object.assign(shader.uniforms, state.uniforms, light);
    let fs = PARS + shader.fragmentShader;
    fs = replaceOnce(fs, 'vec4 diffuseColor = vec4( diffuse, opacity );', BASE);
    fs = replaceOnce(fs, '#include <map_fragment>', MAP);
    fs = replaceOnce(fs, '#include <lights_lambert_fragment>', LIGHT);
    fs = replaceOnce(fs, '#include <lights_fragment_begin>', '');
    fs = replaceOnce(fs, '#include <lights_fragment_maps>', '');
    fs = replaceOnce(fs, '#include <lights_fragment_end>', '');
    fs = replaceOnce(fs, OUTGOING_STOCK, 'vec3 outgoingLight = diffuseColor.rgb;');
    fs = replaceOnce(fs, '#include <tonemapping_fragment>', FINISH);
    shader.fragmentShader = fs;
  };
  mat.customProgramCacheKey = () => 'mmd-material';
  return mat;
}

/** The MMD parameters a material was made from, or null for another material. */
export function mmdParamsOf(material: THREE.Material): MmdMaterialParams | null {
  return (material as WithMmd)[STATE]?.params ?? null;
}

/** The toon texture a material draws with. */
export function toonTextureOf(material: THREE.Material): THREE.Texture | null {
  return (material as WithMmd)[STATE]?.uniforms.mmdToonMap.value ?? null;
}

/**
 * What material morphs make of a material beyond its colour, ambient and alpha (morph-effects.ts): the
 * specular colour and power, and the tints: 24 numbers of `tints` from `at`, in TINT_TARGETS order, each a
 * multiply rgba then an add rgba (1s and 0s leave the material as the file has it).
 */
export function setMmdMorphLook(material: THREE.Material, r: number, g: number, b: number, power: number, tints: ArrayLike<number>, at: number): void {
  const s = (material as WithMmd)[STATE];
  if (!s) return;
  const u = s.uniforms;
  u.mmdSpecular.value.set(r, g, b);
  u.mmdPower.value = power;
  [u.mmdTextureMul, u.mmdTextureAdd, u.mmdSphereMul, u.mmdSphereAdd, u.mmdToonMul, u.mmdToonAdd].forEach((x, k) =>
    x.value.set(tints[at + 4 * k], tints[at + 4 * k + 1], tints[at + 4 * k + 2], tints[at + 4 * k + 3]),
  );
}

/** The tint uniforms, in setMmdMorphLook's order (tests). */
export function tintsOf(material: THREE.Material): number[] | null {
  const u = (material as WithMmd)[STATE]?.uniforms;
  if (!u) return null;
  return [u.mmdTextureMul, u.mmdTextureAdd, u.mmdSphereMul, u.mmdSphereAdd, u.mmdToonMul, u.mmdToonAdd].flatMap((x) => x.value.toArray());
}

/** The specular colour and power uniforms (tests). */
export function specularOf(material: THREE.Material): { color: [number, number, number]; power: number } | null {
  const s = (material as WithMmd)[STATE];
  if (!s) return null;
  const c = s.uniforms.mmdSpecular.value;
  return { color: [c.x, c.y, c.z], power: s.uniforms.mmdPower.value };
}

/**
 * Only the materials whose flag says so cast into the self-shadow map (PMX 0x04; PMD: all). three.js casts
 * per object, so the model's mesh casts when any material does, and during the shadow pass each group of a
 * material that does not cast is drawn with no triangles (its count set to 0 before that one draw and put
 * back right after it; the picture's own pass never sees the change).
 */
export function castShadowByMaterial(mesh: THREE.Mesh, params: readonly MmdMaterialParams[]): void {
  mesh.castShadow = params.some((p) => p.castShadow);
  if (params.every((p) => p.castShadow)) return;
  type DrawGroup = { start: number; count: number; materialIndex?: number };
  let held: { group: DrawGroup; count: number } | null = null;
  mesh.onBeforeShadow = (_r, _o, _c, _s, _g, _d, drawn) => {
    // three.js passes the geometry's draw group here (its typings name it a scene Group).
    const group = drawn as unknown as DrawGroup | null;
    if (!group || params[group.materialIndex ?? 0]?.castShadow !== false) return;
    held = { group, count: group.count };
    group.count = 0;
  };
  mesh.onAfterShadow = () => {
    if (held) held.group.count = held.count;
    held = null;
  };
}

/** Replaces the toon picture (a model's own toon file, loaded after the model is shown). */
export function setToonTexture(material: THREE.Material, tex: THREE.Texture): void {
  const s = (material as WithMmd)[STATE];
  if (s) s.uniforms.mmdToonMap.value = tex;
}
