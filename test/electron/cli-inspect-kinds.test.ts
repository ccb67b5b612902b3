// A file of another kind named as what it is — a WAV, a VMD Studio scene, an image, whatever its name says
// (they were "not a VMD motion or a VPD pose", E_VMD_MAGIC).
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { buildFixture } from '../helpers/vmd-fixtures';
import { ballsPmx } from '../helpers/pmx-balls';
import { useTempDirs } from './batch-helpers';
import { fileKindByContent } from '../../shared/ipc/file-kind';

const mk = useTempDirs();
const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);

const BVH = 'HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xrotation Yrotation Zrotation\n  End Site\n  {\n    OFFSET 0 1 0\n  }\n}\nMOTION\nFrames: 1\nFrame Time: 0.033333\n0 0 0\n';

const le16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const le32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];
const be32 = (n: number) => le32(n).reverse();
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

/** A WAV: 22,050 Hz mono 16-bit PCM, 11,025 samples (0.5 s) of silence. */
function wav(): Uint8Array {
  const samples = 11025;
  const fmt = [...ascii('fmt '), ...le32(16), ...le16(1) /* PCM */, ...le16(1) /* channels */, ...le32(22050), ...le32(22050 * 2) /* bytes/s */, ...le16(2) /* block align */, ...le16(16)];
  const data = [...ascii('data'), ...le32(samples * 2), ...new Array(samples * 2).fill(0)];
  return new Uint8Array([...ascii('RIFF'), ...le32(4 + fmt.length + data.length), ...ascii('WAVE'), ...fmt, ...data]);
}

/** A PNG's signature and IHDR: 300 × 200 (the rest of the file is never read). */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...be32(13), ...ascii('IHDR'), ...be32(300), ...be32(200), 8, 6, 0, 0, 0, ...be32(0)]);
/** A JPEG's SOI, an APP0 of 2 bytes' length, then SOF0: 8-bit, height 48, width 64. */
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x02, 0xff, 0xc0, 0x00, 0x11, 8, 0x00, 48, 0x00, 64, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
/** A BMP's file header and a 40-byte BITMAPINFOHEADER: 5 wide, 7 high (top-down: a negative height). */
const BMP = new Uint8Array([...ascii('BM'), ...le32(54), 0, 0, 0, 0, ...le32(54), ...le32(40), ...le32(5), ...le32(-7), ...le16(1), ...le16(24), ...new Array(24).fill(0)]);
/** A TGA's 18-byte header (no magic: type 2, true colour), 16 × 8. */
const TGA = new Uint8Array([0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, ...le16(16), ...le16(8), 32, 0]);

function files(): string {
  const d = mk('inspect-kinds');
  writeFileSync(path.join(d, 'dance.vmd'), buildFixture({ bones: [{ name: 'センター', frame: 0 }, { name: 'センター', frame: 10, pos: [1, 0, 0] }] }));
  writeFileSync(path.join(d, 'walk.bvh'), BVH);
  const pmx = ballsPmx([{ centre: [0, 0, 0], radius: 1, diffuse: [1, 0, 0, 1], ambient: [0, 0, 0], flags: 0, toon: null }]);
  writeFileSync(path.join(d, 'model.pmx'), pmx);
  // Cut in its vertices: no reader repairs that.
  writeFileSync(path.join(d, 'broken.pmx'), pmx.subarray(0, 120));
  return d;
}


describe('a WAV, a scene, an image: named as what they are, by their content', () => {
  function others(): string {
    const d = files();
    writeFileSync(path.join(d, 'tone.wav'), wav());
    writeFileSync(
      path.join(d, 'my.vmdscene'),
      JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ name: 'Miku', model: 'model.pmx', motion: 'dance.vmd', hidden: false }, { model: null, motion: null, hidden: true }], camera: 'cam/camera.vmd', audio: { path: 'tone.wav', offsetFrames: 12, volume: 1, muted: false }, aspect: { width: 4, height: 3 } }),
    );
    writeFileSync(path.join(d, 'picture.vmd'), PNG);
    writeFileSync(path.join(d, 'photo.jpg'), JPEG);
    writeFileSync(path.join(d, 'icon.bmp'), BMP);
    writeFileSync(path.join(d, 'skin.tga'), TGA);
    return d;
  }

  it('the sniffing knows a WAV, a scene and the images by their first bytes (a TGA has none to know)', () => {
    expect([wav(), new TextEncoder().encode('\ufeff {"format": "vmd-studio-scene", "version": 1}'), PNG, JPEG, BMP, TGA].map((b) => fileKindByContent(b))).toEqual(['wav', 'scene', 'png', 'jpeg', 'bmp', null]);
  });

  it('other commands name them too, with what they take', async () => {
    const d = others();
    expect((await cli(d, 'convert', 'tone.wav', '-o', 'x.json')).err).toBe(
      "vmd-studio: tone.wav: a WAV audio file, not a VMD motion or a VPD pose: convert works on motions and poses (.vmd, .vpd, .json); a song is loaded as a scene's music in the VMD Studio app (vmd-studio inspect describes a WAV)\n",
    );
    expect((await cli(d, 'mirror', 'my.vmdscene', '-o', 'x.vmd')).err).toBe(
      'vmd-studio: my.vmdscene: a VMD Studio scene, not a VMD motion: mirror works on VMD motions; open a scene in the VMD Studio app (vmd-studio inspect lists what it holds)\n',
    );
    // Content wins over the name: a PNG named .vmd is an image, in one-file commands and in a batch.
    expect((await cli(d, 'mirror', 'picture.vmd', '-o', 'x.vmd')).err).toBe('vmd-studio: picture.vmd: a PNG image, not a VMD motion: mirror works on VMD motions\n');
    const b = await cli(d, 'batch', 'mirror', '.', '-o', 'out');
    expect(b.code).toBe(1);
    expect(b.out).toContain('picture.vmd: E_VMD_MAGIC a PNG image, not a VMD motion (at byte 0)');
  });
});
