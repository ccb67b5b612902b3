/**
 * The exported picture's samples in the form players and upload sites expect of H.264 and VP9: BT.709 YCbCr in
 * limited (TV) range, 4:2:0 (I420). Before, the canvas went to the encoder as RGB and Chromium converted it to
 * full-range BT.709 flagged as such (`yuvj420p`, sRGB transfer to ffprobe): honest, but players that ignore the
 * range flag (or assume TV range for H.264, as many do) showed black as grey and white as light grey.
 * Converting here, with the colour space given to the encoder with the frame, puts the samples and the flags
 * in the file in agreement whatever the platform's own conversion would do.
 *
 * BT.709 (ITU-R BT.709-6, item 3): Y' = 0.2126 R' + 0.7152 G' + 0.0722 B', Cb = (B' − Y') / 1.8556,
 * Cr = (R' − Y') / 1.5748; 8-bit limited range: Y = 16 + 219 Y', Cb/Cr = 128 + 224 C. The canvas's values are
 * sRGB-encoded R'G'B' and are used as they are (the picture's gamma is kept: a player decodes with BT.709's
 * transfer, which is close to how sRGB was shown before; the flags say bt709 throughout).
 */

/** The colour space the converted frames are given to the encoder with (and the file is flagged with). */
export const BT709_LIMITED: VideoColorSpaceInit = { primaries: 'bt709', transfer: 'bt709', matrix: 'bt709', fullRange: false };

const KR = 0.2126, KB = 0.0722, KG = 1 - KR - KB;
/** Limited range: Y' in 16–235, Cb/Cr in 16–240 (8 bits). */
const Y_SCALE = 219 / 255, C_SCALE = 224 / 255;
const CB_DIV = 2 * (1 - KB), CR_DIV = 2 * (1 - KR);

/** Bytes of an I420 picture of width × height (chroma planes of ⌈w/2⌉ × ⌈h/2⌉). */
export function i420Bytes(width: number, height: number): number {
  return width * height + 2 * Math.ceil(width / 2) * Math.ceil(height / 2);
}

/**
 * RGBA bytes (alpha ignored) to I420, BT.709 limited range. `bottomUp`: the rows come bottom first (WebGL's
 * readPixels), written top first. Chroma is that of each 2 × 2 block's mean colour (the edge's one or two
 * pixels at an odd size, counted twice). `out` is reused when given and big enough.
 */
export function rgbaToI420(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, bottomUp = false, out?: Uint8Array): Uint8Array {
  const cw = Math.ceil(width / 2), ch = Math.ceil(height / 2);
  const size = i420Bytes(width, height);
  const dst = out && out.length >= size ? out : new Uint8Array(size);
  const uAt = width * height, vAt = uAt + cw * ch;
  const row = (y: number) => 4 * width * (bottomUp ? height - 1 - y : y);
  for (let y = 0; y < height; y++) {
    const src = row(y), o = y * width;
    for (let x = 0; x < width; x++) {
      const i = src + 4 * x;
      dst[o + x] = Math.round(16 + Y_SCALE * (KR * rgba[i] + KG * rgba[i + 1] + KB * rgba[i + 2]));
    }
  }
  for (let cy = 0; cy < ch; cy++) {
    // An odd height's last chroma row covers one picture row (read twice: the same mean).
    const r0 = row(2 * cy), r1 = 2 * cy + 1 < height ? row(2 * cy + 1) : r0;
    for (let cx = 0; cx < cw; cx++) {
      const i = 8 * cx, j = 2 * cx + 1 < width ? i + 4 : i;
      const r = (rgba[r0 + i] + rgba[r0 + j] + rgba[r1 + i] + rgba[r1 + j]) / 4;
      const g = (rgba[r0 + i + 1] + rgba[r0 + j + 1] + rgba[r1 + i + 1] + rgba[r1 + j + 1]) / 4;
      const b = (rgba[r0 + i + 2] + rgba[r0 + j + 2] + rgba[r1 + i + 2] + rgba[r1 + j + 2]) / 4;
      const yy = KR * r + KG * g + KB * b;
      const k = cy * cw + cx;
      dst[uAt + k] = Math.round(128 + (C_SCALE * (b - yy)) / CB_DIV);
      dst[vAt + k] = Math.round(128 + (C_SCALE * (r - yy)) / CR_DIV);
    }
  }
  return dst;
}
