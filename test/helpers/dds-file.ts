/**
 * A DDS file built by hand for the texture tests (the preview's decoder, inspect's header check, the e2e's
 * folders): 'DDS ', the 124-byte header (flags, height, width, the pixel format at 76: size 32, flags, fourCC,
 * bits, masks), then the pixels. `fourCC` given ('DXT5', 'DX10'…): compressed; else 32-bit A8R8G8B8, the pixels
 * as bytes B, G, R, A.
 */
export function ddsFile(width: number, height: number, pixels: ArrayLike<number>, fourCC?: string): Uint8Array {
  const h = new DataView(new ArrayBuffer(128));
  [0x44, 0x44, 0x53, 0x20].forEach((c, i) => h.setUint8(i, c));
  h.setUint32(4, 124, true);
  h.setUint32(8, 0x1 | 0x2 | 0x4 | 0x1000, true);
  h.setUint32(12, height, true);
  h.setUint32(16, width, true);
  h.setUint32(76, 32, true);
  if (fourCC) {
    h.setUint32(80, 0x4, true);
    [...fourCC].forEach((c, i) => h.setUint8(84 + i, c.charCodeAt(0)));
  } else {
    h.setUint32(80, 0x41, true);
    h.setUint32(88, 32, true);
    h.setUint32(92, 0x00ff0000, true);
    h.setUint32(96, 0x0000ff00, true);
    h.setUint32(100, 0x000000ff, true);
    h.setUint32(104, 0xff000000, true);
  }
  h.setUint32(108, 0x1000, true);
  return Uint8Array.from([...new Uint8Array(h.buffer), ...Array.from(pixels)]);
}
