/**
 * What a model's texture file is, told by its bytes and not by its name: MMD loads textures through D3DX,
 * which looks at the content, so a PNG saved as `arm.tga` (common in downloaded models) shows in MMD. The
 * preview (renderer/src/preview/textures.ts) picks its decoder by this, and `inspect` checks each texture a
 * model uses by the same rule (checkTextureBytes), so the two agree on what can be shown.
 */

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
