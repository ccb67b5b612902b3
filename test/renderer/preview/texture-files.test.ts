/**
 * Texture files decoded by their content, not their name (preview/textures.ts decodeTexture): a PNG saved as
 * .tga (common in downloaded models) goes to the browser's decoder and shows, as MMD (D3DX) shows it; a TGA
 * saved as .png goes to our TGA reader. The browser's decoder is a stub here (happy-dom has none): the test
 * checks which decoder got the bytes and what texture came back.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as THREE from 'three';
import { decodeTexture } from '../../../renderer/src/preview/textures';
import { encodePng } from '../../helpers/png';

const png = encodePng({ width: 2, height: 1, data: Uint8Array.from([255, 0, 0, 255, 0, 0, 255, 255]) });
/** A 2×1 true-colour TGA, top row first: blue, then green (BGR order in the file). */
const tga = Uint8Array.from([0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 24, 0x20, 255, 0, 0, 0, 255, 0]);

describe('decodeTexture picks the decoder by the bytes', () => {
  afterEach(() => vi.unstubAllGlobals());

  function stubBitmaps() {
    const bitmap = { width: 2, height: 1, close() {} };
    const calls: Blob[] = [];
    vi.stubGlobal('createImageBitmap', async (b: Blob) => (calls.push(b), bitmap));
    return { bitmap, calls };
  }

  it('a PNG named arm.tga is given to the browser and becomes the texture', async () => {
    const { bitmap, calls } = stubBitmaps();
    const tex = await decodeTexture(png, 'light/arm.tga');
    expect(calls.length).toBe(1);
    expect(new Uint8Array(await calls[0].arrayBuffer())).toEqual(png);
    expect(tex.image).toBe(bitmap);
    expect(tex.flipY).toBe(false);
  });

  it('a TGA named face.png is read by the TGA reader', async () => {
    const { calls } = stubBitmaps();
    const tex = await decodeTexture(tga, 'light/face.png');
    expect(calls.length).toBe(0);
    expect(tex).toBeInstanceOf(THREE.DataTexture);
    const img = tex.image as { width: number; height: number; data: Uint8Array };
    expect([img.width, img.height]).toEqual([2, 1]);
    expect(Array.from(img.data)).toEqual([0, 0, 255, 255, 0, 255, 0, 255]);
  });

  it('bytes of no picture format are refused by name, not sent to a decoder', async () => {
    const { calls } = stubBitmaps();
    await expect(decodeTexture(new TextEncoder().encode('hello, this is text and no picture'), 'light/notes.png')).rejects.toThrow(/not a picture/);
    expect(calls.length).toBe(0);
  });
});
