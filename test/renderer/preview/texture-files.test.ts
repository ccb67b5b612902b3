/**
 * Texture files decoded by their content, not their name (preview/textures.ts decodeTexture): a PNG saved as
 * .tga (common in downloaded models) goes to the browser's decoder and shows, as MMD (D3DX) shows it; a TGA
 * saved as .png goes to our TGA reader. The browser's decoder is a stub here (happy-dom has none): the test
 * checks which decoder got the bytes and what texture came back.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as THREE from 'three';
import { applyTextures, decodeTexture, setCompressedTextureSupport, type ReadAsset } from '../../../renderer/src/preview/textures';
import { buildModelMesh } from '../../../renderer/src/preview/model-mesh';
import { toonTextureOf } from '../../../renderer/src/preview/mmd-material';
import { SHARED_TOON_RAMPS, rampTexture } from '../../../renderer/src/preview/mmd-toon';
import { readModel } from '../../../shared/pmx';
import { failure, success } from '../../../shared/vmd/errors';
import { tinyPmx } from '../../shared/pmx-fixtures';
import { rewritePmxTextures } from '../../helpers/pmx-textures';
import { ddsFile as dds } from '../../helpers/dds-file';
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


describe('decodeTexture: DDS through three.js DDSLoader', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setCompressedTextureSupport({ extensions: { has: () => false } } as never);
  });

  it('an uncompressed A8R8G8B8 DDS becomes its pixels, RGBA, top row first', async () => {
    vi.stubGlobal('createImageBitmap', async () => {
      throw new Error('The source image could not be decoded.');
    });
    // 2×2, stored top row first (B, G, R, A): red, green / blue, half-transparent white.
    const file = dds(2, 2, [0, 0, 255, 255, 0, 255, 0, 255, 255, 0, 0, 255, 255, 255, 255, 128]);
    const tex = await decodeTexture(file, 'light/top.dds');
    const img = tex.image as { width: number; height: number; data: Uint8Array };
    expect([img.width, img.height]).toEqual([2, 2]);
    expect(Array.from(img.data)).toEqual([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128]);
    expect(tex.flipY).toBe(false);
  });

  it('a DXT5 DDS is uploaded compressed where the context takes S3TC, and named plainly where it does not', async () => {
    // One 4×4 DXT5 block (16 bytes; its content does not matter to the upload).
    const file = dds(4, 4, new Array(16).fill(0), 'DXT5');
    await expect(decodeTexture(file, 'light/top.dds')).rejects.toThrow('DDS (DXT5) textures cannot be shown here: convert top.dds to PNG');
    expect(setCompressedTextureSupport({ extensions: { has: (n: string) => n.startsWith('WEBGL_compressed_texture_s3tc') } } as never)).toBe(true);
    const tex = await decodeTexture(file, 'light/top.dds');
    expect(tex).toBeInstanceOf(THREE.CompressedTexture);
    expect(tex.format).toBe(THREE.RGBA_S3TC_DXT5_Format);
    const img = tex.image as { width: number; height: number };
    expect([img.width, img.height]).toEqual([4, 4]);
  });

  it('a DDS of a format the loader does not read (DX10 header) is refused by its name', async () => {
    await expect(decodeTexture(dds(4, 4, new Array(40).fill(0), 'DX10'), 'light/top.dds')).rejects.toThrow(/DDS \(DX10: BC7/);
  });
});

/**
 * A PMX material's own toon file named as one of MMD's shared toons (toon01.bmp … toon10.bmp, any case) that is
 * not beside the model: MMD takes its Data\toonNN.bmp, so the preview draws that shared ramp and lists nothing;
 * a toon file of another name that is not there is listed as before. tinyPmx's one material 肌 is pointed at
 * the toon named here (texture 1); its colour texture (texture 0) is there.
 */
describe('applyTextures: PMX toon files named as the shared toons', () => {
  afterEach(() => vi.unstubAllGlobals());

  async function withToon(toonName: string, present: string[] = []) {
    vi.stubGlobal('createImageBitmap', async () => ({ width: 2, height: 1, close() {} }));
    const bytes = rewritePmxTextures(tinyPmx().build(), ['tex\\skin.png', toonName], (m) => {
      m.toonShared = false;
      m.toon = 1;
    });
    const r = readModel(bytes);
    if (!r.ok) throw new Error(r.error.message);
    const built = buildModelMesh(r.value);
    const asked: string[] = [];
    const read: ReadAsset = async (rel) => {
      asked.push(rel);
      return rel === 'tex\\skin.png' || present.includes(rel) ? success(png) : failure({ code: 'E_IO_NOT_FOUND', message: 'no such file or folder' });
    };
    const out = await applyTextures(built, read);
    return { out, toon: toonTextureOf(built.materials[0]) as THREE.DataTexture, asked };
  }
  const rampOf = (i: number) => Array.from((rampTexture(SHARED_TOON_RAMPS[i]).image as { data: Uint8Array }).data);

  it('Toon02.BMP not in the folder: the shared ramp 2 (index 1), no problem row', async () => {
    const { out, toon, asked } = await withToon('Toon02.BMP');
    expect(asked).toContain('Toon02.BMP'); // looked for beside the model first
    expect(out.problems).toEqual([]);
    expect(Array.from((toon.image as { data: Uint8Array }).data)).toEqual(rampOf(1));
    expect(rampOf(1)).not.toEqual(rampOf(0));
  });

  it('toon10.bmp: ramp 10 (index 9)', async () => {
    const { out, toon } = await withToon('toon10.bmp');
    expect(out.problems).toEqual([]);
    expect(Array.from((toon.image as { data: Uint8Array }).data)).toEqual(rampOf(9));
  });

  it('toon01.bmp beside the model is the model own picture; mytoon.bmp missing is listed', async () => {
    const own = await withToon('toon01.bmp', ['toon01.bmp']);
    expect(own.out.problems).toEqual([]);
    expect(own.toon.image).toEqual({ width: 2, height: 1, close: expect.any(Function) });
    const mine = await withToon('mytoon.bmp');
    expect(mine.out.problems.map((p) => [p.path, p.materials])).toEqual([['mytoon.bmp', ['肌']]]);
  });
});

describe('applyTextures: a texture main found elsewhere is used, with a row saying where', () => {
  afterEach(() => vi.unstubAllGlobals());
  it('the note comes back with the path the model stores and its materials; the texture is on the material', async () => {
    vi.stubGlobal('createImageBitmap', async () => ({ width: 2, height: 1, close() {} }));
    const r = readModel(tinyPmx().build());
    if (!r.ok) throw new Error(r.error.message);
    const built = buildModelMesh(r.value);
    const note = { kind: 'encoding', found: 'tex/skin.png', as: 'cp437' } as const;
    const out = await applyTextures(built, async () => success({ bytes: png, note }));
    expect(out.problems).toEqual([]);
    expect(out.notes).toEqual([{ path: 'tex\\skin.png', note, materials: ['肌'] }]);
    expect(built.materials[0].map).not.toBeNull();
  });
});

describe('applyTextures: each problem keeps its code and values (the list words it in the app language)', () => {
  afterEach(() => vi.unstubAllGlobals());
  it('a folder not found, a DXT5 DDS without S3TC, a PNG the browser refuses', async () => {
    vi.stubGlobal('createImageBitmap', async () => {
      throw new Error('The source image could not be decoded.');
    });
    const bytes = rewritePmxTextures(tinyPmx().build(), ['light\\arm.png', 'light\\top.dds', 'bad.png'], (m) => {
      m.sphere = 1;
      m.sphereMode = 1;
      m.toonShared = false;
      m.toon = 2;
    });
    const r = readModel(bytes);
    if (!r.ok) throw new Error(r.error.message);
    const read: ReadAsset = async (rel) =>
      rel === 'light\\arm.png'
        ? { ok: false, error: { code: 'E_IO_NOT_FOUND', message: 'folder light/ not found', params: { folder: 'light/' } } }
        : success(rel === 'bad.png' ? png.slice(0, 40) : dds(4, 4, new Array(16).fill(0), 'DXT5'));
    const out = await applyTextures(buildModelMesh(r.value), read);
    expect(out.problems.map(({ path, code, params, reason }) => ({ path, code, params, reason }))).toEqual([
      { path: 'bad.png', code: 'E_UNSUPPORTED', params: { texture: 'decode', format: 'PNG' }, reason: 'The source image could not be decoded.' },
      { path: 'light\\arm.png', code: 'E_IO_NOT_FOUND', params: { folder: 'light/' }, reason: 'folder light/ not found' },
      { path: 'light\\top.dds', code: 'E_UNSUPPORTED', params: { texture: 'dds-gpu', format: 'DXT5', name: 'top.dds' }, reason: 'DDS (DXT5) textures cannot be shown here: convert top.dds to PNG' },
    ]);
  });
});
