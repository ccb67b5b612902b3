/**
 * What a model's texture file is, told by its bytes and not by its name: MMD loads textures through D3DX,
 * which looks at the content, so a PNG saved as `arm.tga` (common in downloaded models) shows in MMD. The
 * preview (renderer/src/preview/textures.ts) picks its decoder by this, and `inspect` checks each texture a
 * model uses by the same rule (checkTextureBytes), so the two agree on what can be shown.
 */
import { decodeTga, type DecodedImage } from './tga';
import { failure, success, type Outcome } from '../vmd/errors';

/** The picture formats a texture can be in: the browser decodes the first five, our own code TGA and DDS. */
export type TextureFormat = 'png' | 'jpeg' | 'bmp' | 'gif' | 'webp' | 'dds' | 'tga';

/** The formats' names as a message says them. */
export const TEXTURE_FORMAT_NAMES: Record<TextureFormat, string> = { png: 'PNG', jpeg: 'JPEG', bmp: 'BMP', gif: 'GIF', webp: 'WebP', dds: 'DDS', tga: 'TGA' };

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/**
 * A TGA has no signature: its 18-byte header is judged instead. A colour map type of 0 or 1, an image type
 * the format defines (1–3 plain, 9–11 run-length encoded), a pixel size TGA uses and a size that is not zero.
 */
function saneTgaHeader(b: Uint8Array): boolean {
  if (b.length < 18) return false;
  const mapType = b[1], type = b[2], bpp = b[16];
  const width = b[12] | (b[13] << 8), height = b[14] | (b[15] << 8);
  return mapType <= 1 && [1, 2, 3, 9, 10, 11].includes(type) && [8, 15, 16, 24, 32].includes(bpp) && width > 0 && height > 0;
}

/**
 * The format the bytes are in, by their first bytes (PNG, JPEG, BMP `BM`, GIF, WebP, DDS `DDS `), else TGA
 * when the header reads as one. A file named .tga that matches nothing is still taken as a TGA, so that its
 * reader says what is wrong with it (an image type it does not read, a cut file); anything else is null.
 */
export function textureFormatOf(bytes: Uint8Array, name = ''): TextureFormat | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, ascii('DDS '))) return 'dds';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  // 'BM' then the file size; a TGA whose id length is 0x42 and colour map type 0x4D cannot be sane anyway.
  if (startsWith(bytes, ascii('BM')) && bytes.length >= 26) return 'bmp';
  if (saneTgaHeader(bytes)) return 'tga';
  return /\.tga$/i.test(name) && bytes.length > 0 ? 'tga' : null;
}

/** A DDS the preview can show: DXT1/3/5 (S3TC, uploaded compressed where the GPU takes it) or 32/24-bit BGR(A). */
export interface DdsInfo {
  format: 'DXT1' | 'DXT3' | 'DXT5' | 'BGRA' | 'BGRX' | 'BGR';
  width: number;
  height: number;
  /** Levels stored (1 when the header names none). */
  mipmaps: number;
}

/** Why a DDS cannot be read: `format` names what it holds as DirectX tools do (BC7, R5G6B5, a cube map…). */
export interface DdsRefusal {
  problem: 'dds-format' | 'dds-truncated';
  format: string;
  message: string;
}

const DDPF_FOURCC = 0x4;
const DDSD_MIPMAPCOUNT = 0x20000;
const DDSCAPS2_CUBEMAP = 0x200;
const DDSCAPS2_VOLUME = 0x200000;

/**
 * A DDS file's header (128 bytes: 'DDS ', the 124-byte DDS_HEADER with its DDS_PIXELFORMAT at 76), judged by
 * the formats three.js's DDSLoader reads and the preview can draw: DXT1, DXT3, DXT5 and uncompressed 32-bit
 * A8R8G8B8 / X8R8G8B8 and 24-bit R8G8B8 (bytes B, G, R[, A]). Anything else (DX10 headers with BC7 and the like,
 * 16-bit formats, cube maps) is refused by name; so is a file shorter than the levels its header names.
 */
export function ddsInfo(bytes: Uint8Array): { ok: true; value: DdsInfo } | { ok: false; error: DdsRefusal } {
  const refuse = (problem: DdsRefusal['problem'], format: string, message: string) => ({ ok: false as const, error: { problem, format, message } });
  if (bytes.length < 128) return refuse('dds-truncated', 'DDS', 'DDS header truncated');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (o: number) => v.getUint32(o, true);
  const flags = u32(8), height = u32(12), width = u32(16);
  const levels = flags & DDSD_MIPMAPCOUNT ? Math.max(1, u32(28)) : 1;
  const pfFlags = u32(80), fourCC = String.fromCharCode(bytes[84], bytes[85], bytes[86], bytes[87]);
  const bits = u32(88), r = u32(92), g = u32(96), b = u32(100), a = u32(104);
  const caps2 = u32(112);
  let format: DdsInfo['format'] | null = null;
  let name: string;
  if (pfFlags & DDPF_FOURCC) {
    name = fourCC === 'DX10' ? 'DX10: BC7 or another DirectX 10 format' : fourCC.replace(/\0/g, '');
    if (fourCC === 'DXT1' || fourCC === 'DXT3' || fourCC === 'DXT5') format = fourCC;
  } else {
    const bgr = r === 0xff0000 && g === 0xff00 && b === 0xff;
    if (bits === 32 && bgr) format = a === 0xff000000 ? 'BGRA' : a === 0 ? 'BGRX' : null;
    else if (bits === 24 && bgr) format = 'BGR';
    name = format === 'BGRA' ? 'A8R8G8B8' : format === 'BGRX' ? 'X8R8G8B8' : format === 'BGR' ? 'R8G8B8' : `${bits}-bit, masks ${[r, g, b, a].map((m) => m.toString(16)).join('/')}`;
  }
  if (caps2 & (DDSCAPS2_CUBEMAP | DDSCAPS2_VOLUME)) return refuse('dds-format', caps2 & DDSCAPS2_CUBEMAP ? 'cube map' : 'volume', `DDS ${caps2 & DDSCAPS2_CUBEMAP ? 'cube map' : 'volume texture'} is not a model texture`);
  if (!format) return refuse('dds-format', name, `DDS (${name}) is not supported (DXT1, DXT3, DXT5 and 24/32-bit RGB only)`);
  if (width === 0 || height === 0) return refuse('dds-truncated', format, 'DDS has no pixels');
  let need = 128;
  for (let i = 0, w = width, h = height; i < levels; i++, w = Math.max(1, w >> 1), h = Math.max(1, h >> 1)) {
    need += format.startsWith('DXT') ? Math.ceil(w / 4) * Math.ceil(h / 4) * (format === 'DXT1' ? 8 : 16) : w * h * (format === 'BGR' ? 3 : 4);
  }
  if (bytes.length < need) return refuse('dds-truncated', format, `DDS pixel data truncated: need ${need} bytes, the file has ${bytes.length}`);
  return { ok: true, value: { format, width, height, mipmaps: levels } };
}

/** A texture file the preview can show: its format, and the pixels already read where our own code reads them. */
export interface ReadableTexture {
  format: TextureFormat;
  /** A TGA's pixels (decoded by shared/pmx/tga.ts). */
  tga?: DecodedImage;
  /** A DDS's header as judged by ddsInfo. */
  dds?: DdsInfo;
}

/**
 * Whether a texture file can be shown, by the rule the preview decodes it by: its format from its bytes, a TGA
 * decoded whole (a kind or a cut the reader refuses), a DDS's header judged. PNG, JPEG, BMP, GIF and WebP are
 * the browser's to decode; their signature is what is checked here. Refusals are `E_UNSUPPORTED` with
 * `params.texture` naming the problem (`empty`, `unknown`, `tga`, `dds-format`, `dds-truncated`) for the app's
 * own wording; the message is the English line `inspect` prints.
 */
export function checkTextureBytes(bytes: Uint8Array, name = ''): Outcome<ReadableTexture> {
  const refuse = (texture: string, message: string, more: Record<string, string | number> = {}) => failure({ code: 'E_UNSUPPORTED', message, params: { texture, ...more } });
  if (bytes.length === 0) return refuse('empty', 'the file is empty (0 bytes)');
  const format = textureFormatOf(bytes, name);
  if (!format) return refuse('unknown', 'not a picture VMD Studio reads (PNG, JPEG, BMP, GIF, WebP, DDS or TGA)');
  if (format === 'tga') {
    const r = decodeTga(bytes);
    if (!r.ok) return refuse('tga', r.error.message, { ...r.error.params });
    return success({ format, tga: r.value });
  }
  if (format === 'dds') {
    const r = ddsInfo(bytes);
    if (!r.ok) return refuse(r.error.problem, r.error.message, { format: r.error.format });
    return success({ format, dds: r.value });
  }
  return success({ format });
}
