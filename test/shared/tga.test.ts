/**
 * Colour-mapped TGA (image types 1 and 9: 8-bit indices into a colour map), as older MMD models ship them
 * (8-bit face and hair textures). Each file is built byte by byte here; the expected pixels are the map's
 * entries in the order the indices name them, worked out by hand (TGA stores BGR(A); the result is RGBA,
 * top row first).
 */
import { describe, expect, it } from 'vitest';
import { decodeTga } from '../../shared/pmx/tga';

/** The 18-byte header of a colour-mapped TGA. */
function header(o: { type: number; idLength?: number; first?: number; length: number; entryBits: number; width: number; height: number; desc: number }): number[] {
  return [o.idLength ?? 0, 1, o.type, (o.first ?? 0) & 0xff, (o.first ?? 0) >> 8, o.length & 0xff, o.length >> 8, o.entryBits, 0, 0, 0, 0, o.width, 0, o.height, 0, 8, o.desc];
}
const rgbaOf = (r: { ok: boolean; value?: { data: Uint8ClampedArray } }) => (r.ok ? Array.from(r.value!.data) : r);

describe('decodeTga: colour-mapped images', () => {
  it('type 1, 24-bit map, bottom row first', () => {
    // Map (BGR): 0 = red, 1 = green, 2 = (R 0x30, G 0x20, B 0x10).
    const map = [0, 0, 255, 0, 255, 0, 0x10, 0x20, 0x30];
    // 3×2, bottom row stored first: bottom = 0 1 2, top = 2 2 0.
    const file = Uint8Array.from([...header({ type: 1, length: 3, entryBits: 24, width: 3, height: 2, desc: 0 }), ...map, 0, 1, 2, 2, 2, 0]);
    const red = [255, 0, 0, 255], green = [0, 255, 0, 255], c2 = [0x30, 0x20, 0x10, 255];
    const r = decodeTga(file);
    expect(r.ok && [r.value.width, r.value.height]).toEqual([3, 2]);
    expect(rgbaOf(r)).toEqual([...c2, ...c2, ...red, ...red, ...green, ...c2]);
  });

  it('type 9 (run-length), 32-bit map with alpha starting at entry 5, an image id, top row first', () => {
    // Map entries 5 and 6 (BGRA): 5 = blue at alpha 128, 6 = orange (R 255, G 128, B 0) opaque.
    const map = [255, 0, 0, 128, 0, 128, 255, 255];
    // 4×1: a run of 3 × index 6 (0x80 | 2), then 1 raw pixel (0x00) of index 5.
    const file = Uint8Array.from([...header({ type: 9, idLength: 2, first: 5, length: 2, entryBits: 32, width: 4, height: 1, desc: 0x28 }), 0x41, 0x42, ...map, 0x82, 6, 0x00, 5]);
    const orange = [255, 128, 0, 255], blue = [0, 0, 255, 128];
    expect(rgbaOf(decodeTga(file))).toEqual([...orange, ...orange, ...orange, ...blue]);
  });

  it('right-to-left origin bit, and a 32-bit map whose alphas are all 0 is opaque', () => {
    const map = [0, 0, 255, 0, 255, 255, 255, 0]; // 0 = red, 1 = white; alpha bytes 0
    const file = Uint8Array.from([...header({ type: 1, length: 2, entryBits: 32, width: 2, height: 1, desc: 0x30 }), ...map, 0, 1]);
    expect(rgbaOf(decodeTga(file))).toEqual([255, 255, 255, 255, 255, 0, 0, 255]);
  });

  it('refuses an index past the map and a map that is cut short', () => {
    const map = [0, 0, 255];
    const past = decodeTga(Uint8Array.from([...header({ type: 1, length: 1, entryBits: 24, width: 2, height: 1, desc: 0 }), ...map, 0, 3]));
    expect(past.ok).toBe(false);
    if (!past.ok) expect(past.error.message).toMatch(/colour 3/);
    expect(decodeTga(Uint8Array.from([...header({ type: 1, length: 4, entryBits: 24, width: 2, height: 1, desc: 0 }), ...map])).ok).toBe(false);
  });
});
