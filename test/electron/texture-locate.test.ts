/**
 * readAsset finding a texture where downloaded models put it instead of where the model names it
 * (file-service.ts locateAsset): names garbled by unzipping a Shift_JIS zip (left as raw Shift_JIS bytes, or
 * those bytes read as CP437 / CP1252), and a texture folder renamed or flattened. Each folder is built here,
 * its garbled names made from the Shift_JIS bytes as the unzips make them (worked out by hand for 顔: 0x8A 0xE7,
 * which CP437 shows as "èτ").
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileService } from '../../electron/services/file-service';
import { useTempDirs } from './batch-helpers';

const mk = useTempDirs();
const files = createFileService();
const SJIS_KAMI = Buffer.from([0x94, 0xaf]); // 髪
/** テクスチャ and トップス in Shift_JIS, then as CP437 shows those bytes. */
const TEXTURE_CP437 = 'âeâNâXâ`ââ';
const TOPS_CP437 = 'âgâbâvâX';

function model(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const m = path.join(dir, 'model.pmx');
  writeFileSync(m, 'PMX ');
  return m;
}
const bytesOf = (s: string) => new TextEncoder().encode(s);

describe('readAsset: names left garbled by an unzip', () => {
  it('顔.png found as èτ.png (CP437), テクスチャ/トップス.png through a CP437 folder, 髪.png as raw Shift_JIS bytes', async () => {
    const d = mk('locate-mojibake');
    const m = model(d);
    mkdirSync(path.join(d, 'light'));
    writeFileSync(path.join(d, 'light', 'èτ.png'), bytesOf('face'));
    mkdirSync(path.join(d, TEXTURE_CP437));
    writeFileSync(path.join(d, TEXTURE_CP437, `${TOPS_CP437}.png`), bytesOf('tops'));
    writeFileSync(Buffer.concat([Buffer.from(path.join(d, 'light') + path.sep), SJIS_KAMI, Buffer.from('.PNG')]), bytesOf('hair'));

    const face = await files.readAsset(m, 'light\\顔.png');
    expect(face.ok && [Buffer.from(face.value.bytes).toString(), face.value.assetNote]).toEqual(['face', { kind: 'encoding', found: 'light/èτ.png', as: 'cp437' }]);
    const tops = await files.readAsset(m, 'テクスチャ\\トップス.png');
    expect(tops.ok && [Buffer.from(tops.value.bytes).toString(), tops.value.assetNote]).toEqual(['tops', { kind: 'encoding', found: `${TEXTURE_CP437}/${TOPS_CP437}.png`, as: 'cp437' }]);
    // Raw bytes (Linux unzip), the extension in another case: shown as the Shift_JIS it is.
    const hair = await files.readAsset(m, 'light/髪.png');
    expect(hair.ok && [Buffer.from(hair.value.bytes).toString(), hair.value.assetNote]).toEqual(['hair', { kind: 'encoding', found: 'light/髪.PNG', as: 'sjis-bytes' }]);
    // A name read as CP1252 (0x8A 0xE7 → "Šç").
    writeFileSync(path.join(d, 'Šç.bmp'), bytesOf('cp1252'));
    const w = await files.readAsset(m, '顔.bmp');
    expect(w.ok && w.value.assetNote).toEqual({ kind: 'encoding', found: 'Šç.bmp', as: 'cp1252' });
    // A name not there in any form stays not found; the exact name is preferred when both are there.
    expect(await files.readAsset(m, 'light/目.png')).toMatchObject({ ok: false, error: { code: 'E_IO_NOT_FOUND', message: 'no such file or folder' } });
    writeFileSync(path.join(d, 'light', '顔.png'), bytesOf('right'));
    const exact = await files.readAsset(m, 'light/顔.png');
    expect(exact.ok && [Buffer.from(exact.value.bytes).toString(), exact.value.assetNote]).toEqual(['right', undefined]);
  });
});

describe('readAsset: a texture folder renamed or flattened', () => {
  it('light/ renamed Textures/: the one arm.png under the model folder is used, with a note', async () => {
    const d = mk('locate-renamed');
    const m = model(d);
    mkdirSync(path.join(d, 'Textures'));
    writeFileSync(path.join(d, 'Textures', 'ARM.png'), bytesOf('arm'));
    const r = await files.readAsset(m, 'light\\arm.png');
    expect(r.ok && [Buffer.from(r.value.bytes).toString(), r.value.assetNote]).toEqual(['arm', { kind: 'moved', folder: 'light/', found: 'Textures/ARM.png' }]);
  });

  it('flattened beside the model: found there', async () => {
    const d = mk('locate-flat');
    const m = model(d);
    writeFileSync(path.join(d, 'arm.png'), bytesOf('arm'));
    const r = await files.readAsset(m, 'light/arm.png');
    expect(r.ok && r.value.assetNote).toEqual({ kind: 'moved', folder: 'light/', found: 'arm.png' });
  });

  it('two files of the name, or none, or deeper than three folders: "folder light/ not found"', async () => {
    const d = mk('locate-ambiguous');
    const m = model(d);
    for (const sub of ['a', 'b']) {
      mkdirSync(path.join(d, sub));
      writeFileSync(path.join(d, sub, 'arm.png'), bytesOf(sub));
    }
    const notFound = { ok: false, error: { code: 'E_IO_NOT_FOUND', message: 'folder light/ not found', params: { folder: 'light/' } } };
    expect(await files.readAsset(m, 'light/arm.png')).toMatchObject(notFound);
    expect(await files.readAsset(m, 'light/face.png')).toMatchObject({ ...notFound, error: { ...notFound.error } });
    mkdirSync(path.join(d, 'x', 'y', 'z', 'w'), { recursive: true });
    writeFileSync(path.join(d, 'x', 'y', 'z', 'w', 'deep.png'), bytesOf('deep'));
    expect(await files.readAsset(m, 'light/deep.png')).toMatchObject(notFound);
    writeFileSync(path.join(d, 'x', 'y', 'z', 'deep3.png'), bytesOf('deep3'));
    expect((await files.readAsset(m, 'light/deep3.png')).ok).toBe(true);
    // The folder there but not the file: plain not found (nothing searched).
    mkdirSync(path.join(d, 'light'));
    expect(await files.readAsset(m, 'light/deep3.png')).toMatchObject({ ok: false, error: { code: 'E_IO_NOT_FOUND', message: 'no such file or folder' } });
  });

  it('a linked folder leading out of the model folder is not searched', async () => {
    const d = mk('locate-link');
    const outside = path.join(d, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'secret.png'), bytesOf('secret'));
    const m = model(path.join(d, 'model'));
    symlinkSync(outside, path.join(d, 'model', 'Textures'));
    expect(await files.readAsset(m, 'light/secret.png')).toMatchObject({ ok: false, error: { code: 'E_IO_NOT_FOUND', message: 'folder light/ not found' } });
  });
});
