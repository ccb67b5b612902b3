/**
 * A small TGA decoder (PMD models often use .tga textures, which browsers cannot decode).
 *
 *   header 18 bytes: id length u8 @0 | colour map type u8 @1 | image type u8 @2 (1 colour-mapped, 2 true
 *   colour, 3 grey, 9/10/11 the same run-length encoded) | colour map spec @3: first entry u16 @3, length
 *   u16 @5, entry bits u8 @7 (15, 16, 24, 32) | x, y origin u16 @8,@10 | width u16 @12 | height u16 @14 |
 *   bits per pixel u8 @16 (8, 16, 24, 32; a colour-mapped pixel is an 8- or 16-bit index) | descriptor u8
 *   @17 (bits 0–3: alpha bits; bit 4: right-to-left; bit 5: top-left origin)
 *   then the id, the colour map (its entries in BGR(A) order), pixels in BGR(A) order, bottom row first
 *   unless bit 5 is set. MMD (D3DX) reads colour-mapped TGAs, which older models ship (8-bit face textures).
 * Returns RGBA rows top first, or why not (`E_UNSUPPORTED`: a kind this decoder does not read, or a file that ends early).
 */
import { failure, success, type Failure, type Outcome } from '../vmd/errors';
export interface DecodedImage {
  width: number;
  height: number;
  /** RGBA, top row first. */
  data: Uint8ClampedArray;
}

/** A refusal: `params.tga` names the problem (`type`, `bits`, `map`, `empty`, `truncated`, `index`) and `value` its number, for the app's own wording. */
const bad = (message: string, tga = 'truncated', value?: number): Failure => failure({ code: 'E_UNSUPPORTED', message, params: { tga, ...(value !== undefined ? { value } : {}) } });

export function decodeTga(bytes: Uint8Array): Outcome<DecodedImage> {
  if (bytes.length < 18) return bad('TGA header truncated');
  const idLength = bytes[0], mapType = bytes[1], type = bytes[2];
  const mapFirst = bytes[3] | (bytes[4] << 8), mapLength = bytes[5] | (bytes[6] << 8), mapBits = bytes[7];
  const width = bytes[12] | (bytes[13] << 8), height = bytes[14] | (bytes[15] << 8);
  const bpp = bytes[16], desc = bytes[17];
  if (![1, 2, 3, 9, 10, 11].includes(type)) return bad(`TGA image type ${type} is not supported (colour-mapped, true colour and grey only)`, 'type', type);
  const mapped = type === 1 || type === 9;
  const grey = type === 3 || type === 11;
  if (mapped ? bpp !== 8 && bpp !== 16 : grey ? bpp !== 8 : ![16, 24, 32].includes(bpp)) return bad(`TGA with ${bpp} bits per pixel is not supported`, 'bits', bpp);
  if (mapped && (mapType !== 1 || ![15, 16, 24, 32].includes(mapBits))) return bad(`TGA colour map of ${mapType !== 1 ? 'no' : mapBits + '-bit'} entries is not supported`, 'map');
  if (width === 0 || height === 0) return bad('TGA has no pixels', 'empty');
  const px = bpp >> 3;
  const mapStart = 18 + idLength;
  const entry = Math.ceil(mapBits / 8);
  let off = mapStart + (mapType === 1 ? mapLength * entry : 0);
  if (off > bytes.length) return bad(`TGA colour map truncated: need ${off} bytes`);
  const count = width * height;
  const rle = type >= 9;
  if (!rle && off + count * px > bytes.length) return bad(`TGA pixel data truncated: need ${count * px} bytes at ${off}`);
  const alphaBits = desc & 0x0f;
  // The colour map as RGBA. 32-bit entries carry alpha; a map whose alphas are all 0 (as tools write that
  // store no alpha) is opaque, as a 32-bit true-colour TGA without alpha bits is.
  let palette: Uint8Array | null = null;
  if (mapped) {
    palette = new Uint8Array(4 * mapLength);
    let anyAlpha = false;
    for (let k = 0; k < mapLength; k++) {
      const o = mapStart + k * entry, d = 4 * k;
      if (entry === 2) {
        const v = bytes[o] | (bytes[o + 1] << 8);
        palette[d] = (((v >> 10) & 31) * 255) / 31;
        palette[d + 1] = (((v >> 5) & 31) * 255) / 31;
        palette[d + 2] = ((v & 31) * 255) / 31;
        palette[d + 3] = 255;
      } else {
        palette[d] = bytes[o + 2];
        palette[d + 1] = bytes[o + 1];
        palette[d + 2] = bytes[o];
        palette[d + 3] = entry === 4 ? bytes[o + 3] : 255;
        if (entry === 4 && bytes[o + 3] !== 0) anyAlpha = true;
      }
    }
    if (entry === 4 && !anyAlpha) for (let k = 0; k < mapLength; k++) palette[4 * k + 3] = 255;
  }
  const out = new Uint8ClampedArray(4 * count);
  const topFirst = (desc & 0x20) !== 0;
  const rightFirst = (desc & 0x10) !== 0;
  let i = 0;
  let badIndex = -1;
  const put = (o: number) => {
    const x = i % width, y = Math.floor(i / width);
    const row = topFirst ? y : height - 1 - y;
    const col = rightFirst ? width - 1 - x : x;
    const d = 4 * (row * width + col);
    if (palette) {
      const k = (px === 2 ? bytes[o] | (bytes[o + 1] << 8) : bytes[o]) - mapFirst;
      if (k < 0 || k >= mapLength) badIndex = k + mapFirst;
      else out.set(palette.subarray(4 * k, 4 * k + 4), d);
    } else if (grey) {
      out[d] = out[d + 1] = out[d + 2] = bytes[o];
      out[d + 3] = 255;
    } else if (px === 2) {
      const v = bytes[o] | (bytes[o + 1] << 8);
      out[d] = ((v >> 10) & 31) * 255 / 31;
      out[d + 1] = ((v >> 5) & 31) * 255 / 31;
      out[d + 2] = (v & 31) * 255 / 31;
      out[d + 3] = alphaBits ? (v & 0x8000 ? 255 : 0) : 255;
    } else {
      out[d] = bytes[o + 2];
      out[d + 1] = bytes[o + 1];
      out[d + 2] = bytes[o];
      // Many tools write 32-bit TGAs with an all-zero alpha and no alpha bits declared: then alpha is opaque.
      out[d + 3] = px === 4 && alphaBits ? bytes[o + 3] : 255;
    }
    i++;
  };
  if (!rle) {
    for (; i < count; ) put(off + i * px);
  } else {
    while (i < count) {
      if (off >= bytes.length) return bad(`TGA run-length data truncated at ${off}`);
      const h = bytes[off++];
      const n = (h & 0x7f) + 1;
      if (h & 0x80) {
        if (off + px > bytes.length) return bad(`TGA run-length data truncated at ${off}`);
        for (let k = 0; k < n && i < count; k++) put(off);
        off += px;
      } else {
        if (off + n * px > bytes.length) return bad(`TGA run-length data truncated at ${off}`);
        for (let k = 0; k < n && i < count; k++) put(off + k * px);
        off += n * px;
      }
    }
  }
  if (badIndex >= 0) return bad(`TGA pixel names colour ${badIndex}, which its colour map (${mapFirst}–${mapFirst + mapLength - 1}) does not hold`, 'index', badIndex);
  return success({ width, height, data: out });
}
