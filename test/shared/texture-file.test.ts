/** shared/pmx/texture-file.ts: a texture's format told by its first bytes, whatever its name says. */
import { describe, expect, it } from 'vitest';
import { textureFormatOf } from '../../shared/pmx/texture-file';

const bytes = (...parts: (string | number[])[]) => Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
/** A TGA header: id length 0, no colour map, the type, 4×2 pixels, the bits per pixel. */
const tgaHeader = (type: number, bpp: number) => [0, type === 1 || type === 9 ? 1 : 0, type, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 2, 0, bpp, 0];

describe('textureFormatOf', () => {
  it('knows each format by its signature, not by the name', () => {
    expect(textureFormatOf(bytes([0x89], 'PNG\r\n', [0x1a, 0x0a], 'rest'), 'arm.tga')).toBe('png');
    expect(textureFormatOf(bytes([0xff, 0xd8, 0xff, 0xe0]), 'a.png')).toBe('jpeg');
    expect(textureFormatOf(bytes('BM', new Array(60).fill(0)), 'a.tga')).toBe('bmp');
    expect(textureFormatOf(bytes('DDS ', [124, 0, 0, 0]), 'top.png')).toBe('dds');
    expect(textureFormatOf(bytes('GIF89a', [1, 0]), 'a.bmp')).toBe('gif');
    expect(textureFormatOf(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'a.png')).toBe('webp');
  });
  it('takes a sane TGA header as TGA under any name, and a .tga that is nothing else as TGA', () => {
    expect(textureFormatOf(bytes(tgaHeader(2, 24)), 'face.png')).toBe('tga');
    expect(textureFormatOf(bytes(tgaHeader(9, 8)), 'face.sph')).toBe('tga');
    // Image type 32 (Huffman): not a sane header, but the name says TGA, so the TGA reader says what is wrong.
    expect(textureFormatOf(bytes(tgaHeader(32, 24)), 'face.tga')).toBe('tga');
    expect(textureFormatOf(bytes(tgaHeader(32, 24)), 'face.png')).toBe(null);
    expect(textureFormatOf(bytes('plain text, no picture at all'), 'a.png')).toBe(null);
    expect(textureFormatOf(new Uint8Array(0), 'a.tga')).toBe(null);
  });
});
