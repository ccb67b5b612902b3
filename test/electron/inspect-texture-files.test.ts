/**
 * `vmd-studio inspect MODEL` on messy real-world model folders (made from the corpus's Gene at test time:
 * helpers/messy-models.ts): a texture that is there but that the app cannot show is listed as a missing one
 * is, by the rule the preview decodes by (shared/pmx/texture-file.ts checkTextureBytes); one the app shows
 * under a wrong extension is not.
 */
import { copyFileSync, cpSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/cli-in-process';
import { useTempDirs } from './batch-helpers';
import { corpusPresent } from '../helpers/corpus';
import { geneFolder, withTextures } from '../helpers/messy-models';

const mk = useTempDirs();
const cli = (argv: string[], cwd: string) => runCliCaptured(argv, cwd);

/** A DDS header of the DX10 kind (BC7 and other DirectX 10 formats), 4×4, with 16 bytes of block. */
function dx10Dds(): Uint8Array {
  const h = new DataView(new ArrayBuffer(148 + 16));
  [0x44, 0x44, 0x53, 0x20].forEach((c, i) => h.setUint8(i, c));
  h.setUint32(4, 124, true);
  h.setUint32(8, 0x1007, true);
  h.setUint32(12, 4, true);
  h.setUint32(16, 4, true);
  h.setUint32(76, 32, true);
  h.setUint32(80, 0x4, true);
  [...'DX10'].forEach((c, i) => h.setUint8(84 + i, c.charCodeAt(0)));
  h.setUint32(128, 98, true); // DXGI_FORMAT_BC7_UNORM
  return new Uint8Array(h.buffer);
}

describe.skipIf(!corpusPresent)('inspect MODEL: textures that are there but cannot be shown', () => {
  it('lists a DX10 DDS and a Huffman TGA as unreadable with their reasons; a PNG named .tga is not listed', async () => {
    const d = mk('inspect-tex-unreadable');
    geneFolder(d, { textures: withTextures([7, 'light/top.dds'], [1, 'light/arm.tga'], [3, 'light/face.tga']) });
    writeFileSync(path.join(d, 'light', 'top.dds'), dx10Dds());
    copyFileSync(path.join(d, 'light', 'arm.png'), path.join(d, 'light', 'arm.tga'));
    // A TGA header of image type 32 (Huffman-coded colour map), which nothing here reads.
    writeFileSync(path.join(d, 'light', 'face.tga'), Uint8Array.from([0, 1, 32, 0, 0, 0, 1, 24, 0, 0, 0, 0, 4, 0, 4, 0, 8, 0, 0, 0, 0]));
    const r = await cli(['inspect', 'Gene_light.pmx'], d);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('\n  texture unreadable: light/top.dds (トップス): DDS (DX10: BC7 or another DirectX 10 format) is not supported (DXT1, DXT3, DXT5 and 24/32-bit RGB only)\n');
    expect(r.out).toContain('\n  texture unreadable: light/face.tga (顔): TGA image type 32 is not supported (colour-mapped, true colour and grey only)\n');
    expect(r.out).not.toContain('arm.tga');
    expect(r.out).not.toContain('texture missing');
    const j = JSON.parse((await cli(['inspect', '--json', 'Gene_light.pmx'], d)).out);
    expect(j.missingTextures).toEqual([]);
    expect(j.unreadableTextures.map((x: { path: string; materials: string[]; file: string }) => [x.path, x.materials, x.file])).toEqual([
      ['light/face.tga', ['顔'], path.join(d, 'light', 'face.tga')],
      ['light/top.dds', ['トップス'], path.join(d, 'light', 'top.dds')],
    ]);
  });

  it('a PMX toon file named toon01.bmp / Toon02.BMP that is not there is MMD shared toon: not listed; mytoon.bmp is', async () => {
    const d = mk('inspect-tex-toon');
    const toons: Record<string, number> = { 髪: 10, 手肌: 11, トップス: 12 };
    geneFolder(d, {
      textures: [...withTextures(), 'toon01.bmp', 'Toon02.BMP', 'mytoon.bmp'],
      edit: (m) => {
        if (m.name in toons) (m.toonShared = false), (m.toon = toons[m.name]);
      },
    });
    const r = await cli(['inspect', 'Gene_light.pmx'], d);
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toContain('toon01.bmp');
    expect(r.out).not.toContain('Toon02.BMP');
    expect(r.out).toContain(`\n  texture missing: mytoon.bmp (トップス), not in ${d}\n`);
  });

  it('names garbled by a Shift_JIS zip unzipped as CP437 or raw bytes: found, with a line saying how; a renamed folder: used from there', async () => {
    const d = mk('inspect-tex-mojibake');
    // As the report's build.py makes them: light/顔.png as CP437 "èτ.png", 髪.png as its raw Shift_JIS bytes.
    geneFolder(d, { textures: withTextures([3, 'light/顔.png'], [0, 'light/髪.png']) });
    renameSync(path.join(d, 'light', 'face.png'), path.join(d, 'light', 'èτ.png'));
    renameSync(path.join(d, 'light', 'hair2.png'), Buffer.concat([Buffer.from(path.join(d, 'light') + path.sep), Buffer.from([0x94, 0xaf]), Buffer.from('.png')]));
    const r = await cli(['inspect', 'Gene_light.pmx'], d);
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toContain('texture missing');
    const why = "(the zip's names were extracted in another encoding; re-extract with Japanese encoding, e.g. `unzip -O cp932`)";
    expect(r.out).toContain(`\n  texture found elsewhere: light/顔.png (顔): found as light/èτ.png ${why}\n`);
    expect(r.out).toContain(`\n  texture found elsewhere: light/髪.png (髪): found as light/髪.png ${why}\n`);

    const e = mk('inspect-tex-renamed');
    geneFolder(e, { into: 'Textures' });
    const r2 = await cli(['inspect', 'Gene_light.pmx'], e);
    expect(r2.out).toContain('\n  texture found elsewhere: light/arm.png (手肌): light/ is not there: used Textures/arm.png\n');
    expect(r2.out).not.toContain('texture missing');
    // Two copies of every picture under the model's folder: none is picked, the missing folder is named.
    const f = mk('inspect-tex-twice');
    geneFolder(f, { into: 'Textures' });
    cpSync(path.join(f, 'Textures'), path.join(f, 'old'), { recursive: true });
    const r3 = await cli(['inspect', 'Gene_light.pmx'], f);
    expect(r3.out).toContain(`\n  texture missing: light/arm.png (手肌), folder light/ not found in ${f}\n`);
  });
});

describe.skipIf(!corpusPresent)('inspect SCENE: its models\' textures found elsewhere', () => {
  it('warns of each, with the model, as inspect MODEL lines it; --json foundTextures', async () => {
    // Before (fixmisc3): `inspect MODEL` said "texture found elsewhere" for a name garbled by a Shift_JIS zip or a
    // renamed folder, and `inspect SCENE` on a scene of that model said nothing (MMD shows those materials white).
    const d = mk('inspect-scene-tex-found');
    // Gene with light/顔.png stored as CP437 reads its Shift_JIS bytes (8A E7: "èτ"), and Gene with its light/ renamed.
    const garbled = geneFolder(path.join(d, 'models', 'garbled'), { textures: withTextures([3, 'light/顔.png']) });
    renameSync(path.join(d, 'models', 'garbled', 'light', 'face.png'), path.join(d, 'models', 'garbled', 'light', 'èτ.png'));
    geneFolder(path.join(d, 'models', 'moved'), { into: 'Textures' });
    writeFileSync(
      path.join(d, 'duet.vmdscene'),
      JSON.stringify({
        format: 'vmd-studio-scene',
        version: 1,
        actors: [
          { model: 'models/garbled/Gene_light.pmx', motion: null, hidden: false },
          { model: 'models/moved/Gene_light.pmx', motion: null, hidden: false },
        ],
      }),
    );
    expect(garbled).toBe(path.join(d, 'models', 'garbled', 'Gene_light.pmx'));
    const r = await cli(['inspect', 'duet.vmdscene'], d);
    expect(r.code, r.err).toBe(0);
    const why = "(the zip's names were extracted in another encoding; re-extract with Japanese encoding, e.g. `unzip -O cp932`)";
    const warnings = r.out.split('\n').filter((l) => l.startsWith('  warning'));
    expect(warnings).toContain(`  warning models/garbled/Gene_light.pmx: texture found elsewhere: light/顔.png (顔): found as light/èτ.png ${why}`);
    expect(warnings).toContain('  warning models/moved/Gene_light.pmx: texture found elsewhere: light/arm.png (手肌): light/ is not there: used Textures/arm.png');
    // Every one of the moved model's 10 textures, and the garbled model's one: nothing else is said of them.
    expect(warnings.filter((l) => l.includes('texture found elsewhere')).length).toBe(11);
    expect(r.out).not.toContain('not found');
    const j = JSON.parse((await cli(['inspect', '--json', 'duet.vmdscene'], d)).out.trim().split('\n')[0]);
    expect(j.missing).toEqual([]);
    expect(j.foundTextures[0]).toEqual({ texture: 'light/顔.png', model: 'models/garbled/Gene_light.pmx', materials: ['顔'], note: { kind: 'encoding', found: 'light/èτ.png', as: 'cp437' } });
    expect(j.foundTextures.slice(1).map((x: { model: string; texture: string; note: { kind: string; found: string } }) => [x.model, x.texture, x.note.kind, x.note.found])).toContainEqual(['models/moved/Gene_light.pmx', 'light/hair2.png', 'moved', 'Textures/hair2.png']);
  });
});
