/**
 * Model textures: bytes from main (resolved relative to the model file), decoded here — TGA by our own
 * decoder, BMP/PNG/JPG by the browser — and put on the materials. A texture that is missing or does not
 * decode is reported by path; the model still shows in its material colour.
 */
import * as THREE from 'three';
import type { BuiltModel } from './model-mesh';
import { TEXTURE_FORMAT_NAMES, checkTextureBytes, ddsInfo } from '../../../shared/pmx/texture-file';
import { DDSLoader } from 'three/examples/jsm/loaders/DDSLoader.js';
import { fileNameOf } from '../paths';
import { failure, success, type CodecError, type Outcome } from '../../../shared/vmd/errors';
import { SUB_TEXTURE_UV, drawnSphere, setSphereMap } from './sphere-map';
import { SHARED_TOON_RAMPS, rampTexture, setToonSampling } from './mmd-toon';
import { sharedToonIndex } from '../../../shared/pmx/pmd-reader';
import { setToonTexture } from './mmd-material';
import { textureUsers } from '../../../shared/pmx/model-inspect';
import type { TextureNote, TextureProblem } from '../stores/preview';
import type { AssetNote } from '../../../shared/ipc/contract';

/** A texture's bytes, with how main found it when it was not where the model names it (a garbled name, a moved folder). */
export interface AssetBytes {
  bytes: Uint8Array;
  note?: AssetNote;
}
export type ReadAsset = (relativePath: string) => Promise<Outcome<Uint8Array | AssetBytes>>;

export type { TextureProblem, TextureNote } from '../stores/preview';

/** A texture that could not be decoded: its code and values (the app words it by them: shared/i18n/texture-reason.ts). */
export class TextureError extends Error {
  constructor(readonly error: Pick<CodecError, 'code' | 'message' | 'params'>) {
    super(error.message);
  }
}

/**
 * Whether the WebGL context takes S3TC (DXT) textures with sRGB decoding (WEBGL_compressed_texture_s3tc and
 * _srgb): desktop GPUs do; set by the renderer that draws the preview (frame-presenter.ts). Without it a
 * DXT-compressed DDS is listed as one that cannot be shown here, not drawn black.
 */
let s3tc = false;
export function setCompressedTextureSupport(renderer: Pick<THREE.WebGLRenderer, 'extensions'>): boolean {
  s3tc = renderer.extensions.has('WEBGL_compressed_texture_s3tc') && renderer.extensions.has('WEBGL_compressed_texture_s3tc_srgb');
  return s3tc;
}

/**
 * A DDS through three.js's DDSLoader (a maintained reader of DXT1/3/5 and 24/32-bit RGB), once its header
 * was judged by the rule inspect uses (texture-file.ts ddsInfo), so the loader never meets a format it does
 * not read. DXT stays compressed on the GPU (it cannot be decoded here: no S3TC decoder is maintained for the
 * browser); uncompressed pixels become a DataTexture as a TGA's do.
 */
function decodeDds(bytes: Uint8Array, path: string): THREE.Texture {
  const info = ddsInfo(bytes);
  if (!info.ok) throw new TextureError({ code: 'E_UNSUPPORTED', message: info.error.message, params: { texture: info.error.problem, format: info.error.format } }); // checkTextureBytes refused it before
  const { format, width, height } = info.value;
  const buffer = bytes.slice().buffer;
  // X8R8G8B8: the loader reads 32-bit pixels only with an alpha mask; given one, the X byte is set opaque below.
  if (format === 'BGRX') new DataView(buffer).setUint32(104, 0xff000000, true);
  const compressed = format.startsWith('DXT');
  if (compressed && !s3tc) {
    const message = `DDS (${format}) textures cannot be shown here: convert ${fileNameOf(path)} to PNG`;
    throw new TextureError({ code: 'E_UNSUPPORTED', message, params: { texture: 'dds-gpu', format, name: fileNameOf(path) } });
  }
  const dds = new DDSLoader().parse(buffer, true);
  if (compressed) {
    // A chain that stops before 1×1 is incomplete for mipmapped sampling (drawn black): the top level alone then.
    const full = dds.mipmaps.length === Math.floor(Math.log2(Math.max(width, height))) + 1;
    const mips = full ? dds.mipmaps : dds.mipmaps.slice(0, 1);
    const tex = new THREE.CompressedTexture(mips as THREE.CompressedTexture['mipmaps'], width, height, dds.format as THREE.CompressedPixelFormat);
    tex.minFilter = full ? THREE.LinearMipmapLinearFilter : THREE.LinearFilter;
    tex.magFilter = THREE.LinearFilter;
    return tex;
  }
  const data = dds.mipmaps[0].data as Uint8Array;
  // No alpha stored (X8R8G8B8), or every alpha 0 as tools write that keep none: opaque, as TGA and BMP.
  let anyAlpha = false;
  if (format === 'BGRA') for (let i = 3; i < data.length && !anyAlpha; i += 4) anyAlpha = data[i] !== 0;
  if (!anyAlpha) for (let i = 3; i < data.length; i += 4) data[i] = 255;
  const tex = new THREE.DataTexture(data, width, height, THREE.RGBAFormat);
  tex.generateMipmaps = true;
  tex.minFilter = THREE.LinearMipmapLinearFilter;
  tex.magFilter = THREE.LinearFilter;
  return tex;
}

/**
 * Decodes image bytes into a texture (rows top first, flipY off: MMD UVs have v growing downward). The
 * decoder is picked by the bytes (shared/pmx/texture-file.ts), not by the name: a PNG saved as .tga shows,
 * as in MMD.
 */
export async function decodeTexture(bytes: Uint8Array, path: string): Promise<THREE.Texture> {
  // The rule inspect checks a model's textures by (shared/pmx/texture-file.ts): the format, a TGA read whole.
  const checked = checkTextureBytes(bytes, path);
  if (!checked.ok) throw new TextureError(checked.error);
  const { format, tga } = checked.value;
  let tex: THREE.Texture;
  if (tga) {
    const { width, height, data } = tga;
    tex = new THREE.DataTexture(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width, height, THREE.RGBAFormat);
    tex.generateMipmaps = true;
    tex.minFilter = THREE.LinearMipmapLinearFilter;
    tex.magFilter = THREE.LinearFilter;
  } else if (format === 'dds') {
    tex = decodeDds(bytes, path);
  } else {
    const blob = new Blob([bytes as Uint8Array<ArrayBuffer>]);
    // The browser's refusal ("The source image could not be decoded.") is kept as the message, for bug reports.
    const bitmap = await createImageBitmap(blob, { imageOrientation: 'none', premultiplyAlpha: 'none' }).catch((e: unknown) => {
      throw new TextureError({ code: 'E_UNSUPPORTED', message: e instanceof Error ? e.message : String(e), params: { texture: 'decode', format: TEXTURE_FORMAT_NAMES[format] } });
    });
    tex = new THREE.Texture(bitmap as unknown as HTMLImageElement);
  }
  tex.flipY = false;
  tex.colorSpace = THREE.SRGBColorSpace;
  tex.wrapS = tex.wrapT = THREE.RepeatWrapping;
  tex.needsUpdate = true;
  tex.name = path;
  tex.userData.format = format;
  return tex;
}

/**
 * True when the texture has see-through pixels (then the material blends). Decoded bitmaps are checked
 * on a 128×128 copy: enough to tell a hair texture with cut-outs from an opaque one.
 */
function hasAlpha(tex: THREE.Texture): boolean {
  // DXT3 and DXT5 store alpha (their pixels cannot be read back here); DXT1 as the loader gives it has none.
  if (tex instanceof THREE.CompressedTexture) return tex.format !== THREE.RGB_S3TC_DXT1_Format;
  const img = tex.image as { data?: Uint8Array; width?: number; height?: number } | undefined;
  if (img?.data) {
    for (let i = 3; i < img.data.length; i += 4) if (img.data[i] < 250) return true;
    return false;
  }
  if (tex.userData.format === 'jpeg') return false; // JPEG has no alpha
  try {
    const canvas = new OffscreenCanvas(128, 128);
    const ctx = canvas.getContext('2d');
    if (!ctx) return true;
    ctx.drawImage(tex.image as CanvasImageSource, 0, 0, 128, 128);
    const px = ctx.getImageData(0, 0, 128, 128).data;
    for (let i = 3; i < px.length; i += 4) if (px[i] < 250) return true;
    return false;
  } catch {
    return true;
  }
}

/**
 * Loads every texture the materials use and applies it: the colour texture, the sphere map (modes 1
 * and 2, and 3 on a model with an additional UV: sphere-map.ts) and the model's own toon files (a toon
 * picture is decoded on its own, clamped, since the same file may also be a colour texture). Returns the
 * textures that could not be read or decoded.
 */
export async function applyTextures(built: BuiltModel, readAsset: ReadAsset): Promise<{ problems: TextureProblem[]; notes: TextureNote[]; loaded: number }> {
  const { model, materials } = built;
  const wanted = new Set<number>();
  const toonWanted = new Set<number>();
  const valid = (i: number) => i >= 0 && i < model.textures.length;
  const subTexture = built.mesh.geometry.hasAttribute(SUB_TEXTURE_UV);
  model.materials.forEach((m, i) => {
    if (valid(m.texture)) wanted.add(m.texture);
    if (drawnSphere(m.sphereMode, subTexture) && valid(m.sphereTexture)) wanted.add(m.sphereTexture);
    const toon = built.params[i].toon;
    if (toon.kind === 'file') toonWanted.add(toon.texture);
  });
  const textures = new Map<number, THREE.Texture>();
  const toons = new Map<number, THREE.Texture>();
  const problems: TextureProblem[] = [];
  // Each problem names the materials using the file, so the model's maker knows which part shows without it.
  const users = textureUsers(model);
  const problem = (ti: number, e: Pick<CodecError, 'code' | 'message' | 'params'>) => {
    const path = model.textures[ti];
    if (!problems.some((p) => p.path === path)) problems.push({ path, reason: e.message, code: e.code, ...(e.params ? { params: e.params } : {}), materials: users[ti] });
  };
  // A texture found elsewhere than the model names it is used, with a row saying where (what to fix in the folder).
  const notes: TextureNote[] = [];
  const bytesOf = new Map<number, Promise<Outcome<Uint8Array>>>();
  const read = (ti: number) => {
    let p = bytesOf.get(ti);
    if (!p) {
      const got = readAsset(model.textures[ti]).then((r): Outcome<Uint8Array> => {
        if (!r.ok || r.value instanceof Uint8Array) return r as Outcome<Uint8Array>;
        if (r.value.note) notes.push({ path: model.textures[ti], note: r.value.note, materials: users[ti] });
        return success(r.value.bytes);
      });
      bytesOf.set(ti, (p = got.catch((e: unknown) => failure({ code: 'E_IO', message: String(e) }))));
    }
    return p;
  };
  // A toon file named toon01.bmp … toon10.bmp that is not beside the model: MMD's shared toon of that name
  // (MMD takes its own Data\toonNN.bmp), as a PMD's toon table has it; not a missing file.
  const sharedToons = new Map<number, number>();
  const load = async (ti: number, into: Map<number, THREE.Texture>, toon: boolean) => {
    const path = model.textures[ti];
    const r = await read(ti);
    const shared = toon && !r.ok && r.error.code === 'E_IO_NOT_FOUND' ? sharedToonIndex(path) : null;
    if (shared !== null) return void sharedToons.set(ti, shared);
    if (!r.ok) return problem(ti, r.error);
    try {
      const tex = await decodeTexture(r.value, path);
      if (toon) setToonSampling(tex);
      into.set(ti, tex);
    } catch (e) {
      problem(ti, e instanceof TextureError ? e.error : { code: 'E_UNSUPPORTED', message: e instanceof Error ? e.message : String(e) });
    }
  };
  await Promise.all([...[...wanted].map((ti) => load(ti, textures, false)), ...[...toonWanted].map((ti) => load(ti, toons, true))]);
  if (built.disposed) {
    // The model was replaced (or the pane closed) while its textures loaded: give back what was decoded.
    for (const tex of [...textures.values(), ...toons.values()]) {
      (tex.image as ImageBitmap | undefined)?.close?.();
      tex.dispose();
    }
    return { problems, notes, loaded: 0 };
  }
  model.materials.forEach((m, i) => {
    const mat = materials[i];
    const toon = built.params[i].toon;
    const toonTex = toon.kind === 'file' ? toons.get(toon.texture) : undefined;
    // Each material owns its toon texture (disposed with it): a second user of the file gets a clone.
    if (toonTex) setToonTexture(mat, toonTex.userData.mmdUsed ? toonTex.clone() : ((toonTex.userData.mmdUsed = true), toonTex));
    // The material owns this ramp as it would its own file (disposed with it); toon00 leaves the white one.
    const shared = toon.kind === 'file' && !toonTex ? sharedToons.get(toon.texture) : undefined;
    if (shared !== undefined && shared >= 0) setToonTexture(mat, rampTexture(SHARED_TOON_RAMPS[shared]));
    const sphere = textures.get(m.sphereTexture);
    if (sphere && drawnSphere(m.sphereMode, subTexture)) setSphereMap(mat, sphere, m.sphereMode);
    const tex = textures.get(m.texture);
    if (!tex) return;
    // MMD's (ambient + diffuse·light)·texture: the MMD material multiplies the texture into the lit base.
    mat.map = tex;
    if (hasAlpha(tex)) mat.alphaTest = 0.05;
    mat.needsUpdate = true;
  });
  problems.sort((a, b) => a.path.localeCompare(b.path));
  notes.sort((a, b) => a.path.localeCompare(b.path));
  return { problems, notes, loaded: textures.size + toons.size };
}
