/**
 * The video's samples (renderer/src/export/yuv.ts): RGBA to I420 in BT.709 limited range. The expected values are
 * ITU-R BT.709-6's, worked out by hand: Y = 16 + 219 (0.2126 R + 0.7152 G + 0.0722 B), Cb = 128 + 224 (B − Y')/1.8556,
 * Cr = 128 + 224 (R − Y')/1.5748 with R, G, B in 0–1:
 * white 235/128/128, black 16/128/128 (not 255 and 0: limited range), red 63/102/240, blue 32/240/118.
 * Also: rows given bottom first come out top first, chroma is a 2 × 2 block's mean, an odd size keeps its edge.
 */
import { describe, expect, it } from 'vitest';
import { i420Bytes, rgbaToI420 } from '../../../renderer/src/export/yuv';

type Rgb = [number, number, number];
/** A picture of width × height, each pixel `at(x, y)`, rows top first. */
function picture(width: number, height: number, at: (x: number, y: number) => Rgb): Uint8Array {
  const out = new Uint8Array(4 * width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      out.set([...at(x, y), 255], 4 * (y * width + x));
    }
  return out;
}
const planes = (yuv: Uint8Array, w: number, h: number) => {
  const cw = Math.ceil(w / 2), ch = Math.ceil(h / 2);
  return { y: [...yuv.subarray(0, w * h)], u: [...yuv.subarray(w * h, w * h + cw * ch)], v: [...yuv.subarray(w * h + cw * ch, w * h + 2 * cw * ch)] };
};

describe('rgbaToI420 (BT.709, limited range)', () => {
  it('flat colours: white 235/128/128, black 16/128/128, red 63/102/240, blue 32/240/118', () => {
    for (const [rgb, yuv] of [
      [[255, 255, 255], [235, 128, 128]],
      [[0, 0, 0], [16, 128, 128]],
      [[255, 0, 0], [63, 102, 240]],
      [[0, 0, 255], [32, 240, 118]],
    ] as [Rgb, Rgb][]) {
      const p = planes(rgbaToI420(picture(4, 2, () => rgb), 4, 2), 4, 2);
      expect(p.y, `Y of ${rgb}`).toEqual(Array(8).fill(yuv[0]));
      expect(p.u, `Cb of ${rgb}`).toEqual([yuv[1], yuv[1]]);
      expect(p.v, `Cr of ${rgb}`).toEqual([yuv[2], yuv[2]]);
    }
  });

  it('rows bottom first (WebGL) come out top first', () => {
    // Top row white, bottom row black, as a picture; given bottom first, the black row comes first in the input.
    const top = picture(2, 2, (_x, y) => (y === 0 ? [255, 255, 255] : [0, 0, 0]));
    const bottomFirst = new Uint8Array(top.length);
    bottomFirst.set(top.subarray(8, 16), 0);
    bottomFirst.set(top.subarray(0, 8), 8);
    expect(planes(rgbaToI420(bottomFirst, 2, 2, true), 2, 2).y).toEqual([235, 235, 16, 16]);
    expect(planes(rgbaToI420(top, 2, 2, false), 2, 2).y).toEqual([235, 235, 16, 16]);
  });

  it('chroma is the 2 × 2 block’s mean colour; an odd width and height keep their edge pixels', () => {
    // Left 2 × 2 block: two red and two black pixels, mean (127.5, 0, 0): Y' = 0.1063, Cb = 128 + 224 × (−0.1063)/1.8556
    // = 115.17, Cr = 128 + 224 × (0.5 − 0.1063)/1.5748 = 184.0.
    const p = planes(rgbaToI420(picture(3, 3, (x, y) => (x < 2 && y < 2 ? ((x + y) % 2 ? [255, 0, 0] : [0, 0, 0]) : [255, 255, 255])), 3, 3), 3, 3);
    expect(i420Bytes(3, 3)).toBe(9 + 2 * 4);
    expect(p.u[0]).toBe(115);
    expect(p.v[0]).toBe(184);
    // The right column, the bottom row and the corner are white: neutral chroma.
    expect([p.u[1], p.u[2], p.u[3], p.v[1], p.v[2], p.v[3]]).toEqual([128, 128, 128, 128, 128, 128]);
    expect(p.y).toEqual([16, 63, 235, 63, 16, 235, 235, 235, 235]);
  });
});
