// New-user pass (nubegin 2): a song, a texture and notes renamed .vmd, opened as a motion, were all "not a VMD file
// (at byte 0)". notAMotion (shared/ipc/file-kind.ts) says what such a file is and what its name should be, from its
// bytes written here (and the corpus's TGA textures, which have no TGA 2.0 footer); a motion, a pose, a damaged one
// and a capture are left to their own messages.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { looksLikeTgaHeader, looksLikeText, notAMotion, notAMotionError } from '../../shared/ipc/file-kind';
import { fileKindByContent, mmdFamilyOfFile } from '../../shared/ipc/file-kind';
import { mmdFamilyByContent, mmdFamilyByName } from '../../shared/ipc/mmd-family';
import { corpusPath, corpusPresent } from '../helpers/corpus';
import { pcm16Wav } from '../helpers/wav';

const ascii = (s: string) => new TextEncoder().encode(s);
const bytes = (...parts: (number[] | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...ascii(p)] : p)));
const MP3 = bytes('ID3', [4, 0, 0, 0, 0, 0, 0]);
const AIFF = bytes('FORM', [0, 0, 0, 4], 'AIFF');
const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const PMD = bytes([0x50, 0x6d, 0x64, 0, 0, 0x80, 0x3f]);
const PMX = bytes('PMX ', [0, 0, 0, 0x40]);
/** A TGA's 18-byte header (type 2, 2 × 2, 24 bits) and its 12 bytes of pixels, no footer. */
const TGA = bytes([0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 24, 0], new Array(12).fill(0x80));

describe('what a file opened as a motion is instead', () => {
  it('a song: its format and the name ♪ Music… takes, unless it has one; a format Music… does not take, said so', () => {
    expect(notAMotion('song_as_motion.vmd', MP3)).toEqual({ kind: 'audio', format: 'MP3', rename: 'song_as_motion.mp3', says: 'audioRename' });
    expect(notAMotion('C:\\dl\\tone.vpd', pcm16Wav(new Int16Array(80), 1, 8000))).toEqual({ kind: 'audio', format: 'WAV', rename: 'tone.wav', says: 'audioRename' });
    expect(notAMotion('song.mp3', MP3)).toEqual({ kind: 'audio', format: 'MP3', rename: '', says: 'audio' });
    expect(notAMotion('noext', MP3)).toEqual({ kind: 'audio', format: 'MP3', rename: 'noext.mp3', says: 'audioRename' });
    expect(notAMotion('old.vmd', AIFF)).toEqual({ kind: 'audio', format: 'AIFF', rename: '', says: 'audioOther' });
  });

  it('an image (a TGA by its header too), a model (renamed as its format), plain text', () => {
    expect(notAMotion('photo.vmd', PNG)).toEqual({ kind: 'image', format: 'PNG', rename: '', says: 'image' });
    expect(fileKindByContent(TGA)).toBeNull();
    expect(notAMotion('pic.vmd', TGA)).toEqual({ kind: 'image', format: 'TGA', rename: '', says: 'image' });
    expect(notAMotion('/m/miku.vmd', PMD)).toEqual({ kind: 'model', format: 'PMD', rename: 'miku.pmd', says: 'modelRename' });
    expect(notAMotion('gene.vmd', PMX)).toEqual({ kind: 'model', format: 'PMX', rename: 'gene.pmx', says: 'modelRename' });
    expect(notAMotion('gene.pmx', PMX)).toEqual({ kind: 'model', format: 'PMX', rename: '', says: 'model' });
    expect(notAMotion('notes.vmd', ascii('my dance\r\nfrom 0 to 300\t(slow)\n'))).toEqual({ kind: 'text', format: '', rename: '', says: 'text' });
    expect(notAMotion('メモ.vmd', ascii('ダンスのメモ\n'))).toEqual({ kind: 'text', format: '', rename: '', says: 'text' });
  });

  it('a motion, a pose, one cut short, a pose or JSON gone wrong, a capture, unknown binary: null (their own messages)', () => {
    const vmd = bytes('Vocaloid Motion Data 0002', [0, 0, 0, 0, 0]);
    expect(notAMotion('dance.vmd', vmd)).toBeNull();
    expect(notAMotion('pose.vpd', ascii('Vocaloid Pose Data file\r\n'))).toBeNull();
    expect(notAMotion('cut.vmd', ascii('Vocaloid M'))).toBeNull();
    expect(notAMotion('cut.vmd', ascii('Voc'))).toBeNull();
    expect(notAMotion('broken.vpd', ascii('hello\n'))).toBeNull();
    expect(notAMotion('dance.json', ascii('{"bones": ['))).toBeNull();
    expect(notAMotion('walk.vmd', ascii('HIERARCHY\nROOT Hips\n'))).toBeNull();
    expect(notAMotion('junk.vmd', bytes([0x12, 0, 0x34, 0x56, 1, 2, 3, 4, 5, 6]))).toBeNull();
  });

  it('the error: E_VMD_MAGIC, the English line, what the app phrases it from, no byte offset', () => {
    expect(notAMotionError('song.vmd', MP3, '/dl/song.vmd')).toEqual({
      code: 'E_VMD_MAGIC',
      message: 'a song (MP3), not a motion: rename it song.mp3, then load it with ♪ Music…',
      params: { notMotion: 'audioRename', format: 'MP3', rename: 'song.mp3' },
      file: '/dl/song.vmd',
    });
    expect(notAMotionError('old.vmd', AIFF)?.message).toBe('a song (AIFF), not a motion; ♪ Music… takes songs as WAV, MP3, Ogg, FLAC, M4A, AAC or WebM');
    expect(notAMotionError('gene.pmx', PMX)?.message).toBe('a model (PMX), not a motion: open it with Model…');
    expect(notAMotionError('dance.vmd', bytes('Vocaloid Motion Data 0002'))).toBeNull();
  });
});

describe('the sniffs behind it', () => {
  it('plain text: no control byte but tab, line breaks, form feed and escape; a UTF-16 byte order mark', () => {
    expect(looksLikeText(ascii('a\tb\r\nc\f\x1b[0m'))).toBe(true);
    expect(looksLikeText(bytes([0xff, 0xfe, 0x41, 0]))).toBe(true);
    expect(looksLikeText(bytes('abc', [0], 'def'))).toBe(false);
    expect(looksLikeText(bytes('abc', [0x7f]))).toBe(false);
    expect(looksLikeText(new Uint8Array(0))).toBe(false);
  });

  it('a TGA header: a defined type, a size, a depth, and as many bytes as a plain image needs', () => {
    expect(looksLikeTgaHeader(TGA)).toBe(true);
    expect(looksLikeTgaHeader(TGA.subarray(0, 29))).toBe(false); // one pixel byte short
    const rle = TGA.slice(0, 20);
    rle[2] = 10; // RLE: its size is not known from the header
    expect(looksLikeTgaHeader(rle)).toBe(true);
    const badType = TGA.slice();
    badType[2] = 4;
    expect(looksLikeTgaHeader(badType)).toBe(false);
    const badDepth = TGA.slice();
    badDepth[16] = 23;
    expect(looksLikeTgaHeader(badDepth)).toBe(false);
    expect(looksLikeTgaHeader(MP3)).toBe(false);
  });

  it.skipIf(!corpusPresent)('the corpus textures (TGA without the 2.0 footer) read as images by their header', () => {
    for (const f of ['ro_hatune01.tga', 'ro_hatune02.tga']) {
      const b = new Uint8Array(readFileSync(corpusPath(`mmd-viewer-js/model/low_miku/${f}`)));
      expect(fileKindByContent(b)).toBeNull();
      expect(notAMotion('pic.vmd', b)).toEqual({ kind: 'image', format: 'TGA', rename: '', says: 'image' });
    }
  });
});

// New-user pass (numigrate 3, 4): MMD's project, MikuMikuMoving's and nanoem's files, an accessory and MME effects were
// "not a VMD motion or a VPD pose" (the .pmm), "plain text, not a motion" (the effects), or "not a kind of file the
// app opens" (a drop). Each is named as what it is, by its signature where the format has one, else by its name.
describe("MMD's other files", () => {
  /** The first bytes each program writes (MMD: "Polygon Movie maker 0002"; MMM: a 30-byte field; DirectX text/binary). */
  const PMM = bytes('Polygon Movie maker 0002', new Array(6).fill(0), 'x');
  const MVD = bytes('Motion Vector Data file', new Array(7).fill(0), [1, 0, 0, 0]);
  const X_TEXT = ascii('xof 0302txt 0032\nHeader {\n 1;\n 0;\n 1;\n}\n');
  const X_BIN = bytes('xof 0303bin 0032', [0x1f, 0, 0x01, 0]);
  const FX = ascii('float4x4 WorldViewProjMatrix : WORLDVIEWPROJECTION;\ntechnique MainTec { pass DrawObject { } }\n');
  const EMM = ascii('[Info]\r\nVersion = 3\r\n\r\n[Effect]\r\nObj = none\r\n');
  /** A protocol buffer's first bytes (field 1, length-delimited): nanoem's files have no signature. */
  const PROTOBUF = bytes([0x0a, 0x05, 0x31, 0x2e, 0x30, 0x2e, 0x30, 0x12, 0x00]);
  const VMD = bytes('Vocaloid Motion Data 0002', new Array(5).fill(0), new Array(20).fill(0), [0, 0, 0, 0, 0, 0, 0, 0]);

  it('by their first bytes: a PMM, an MVD, a DirectX .x (text or binary); nothing else has one', () => {
    expect([PMM, MVD, X_TEXT, X_BIN].map(mmdFamilyByContent)).toEqual(['pmm', 'mvd', 'accessory', 'accessory']);
    for (const b of [FX, EMM, PROTOBUF, VMD, ascii('Polygon'), ascii('xof')]) expect(mmdFamilyByContent(b)).toBeNull();
  });

  it('by their names (any case): .pmm, .mvd, nanoem .nmm/.nma/.nmd, accessories .x/.vac, effects .fx/.fxsub/.emm/.emd', () => {
    const names = ['a.pmm', 'a.MVD', 'a.nmm', 'a.nma', 'a.nmd', 'stage.X', 'a.vac', 'a.fx', 'a.fxsub', 'a.emm', 'a.emd', 'a.vmd', 'a.txt', 'x', 'dir/a.pmx'];
    expect(names.map(mmdFamilyByName)).toEqual(['pmm', 'mvd', 'nanoem', 'nanoem', 'nanoemMotion', 'accessory', 'accessory', 'effect', 'effect', 'effect', 'effect', null, null, null, null]);
  });

  it('a file: its bytes where they say one, whatever its name; a format the app reads (a renamed VMD) is none; else its name', () => {
    expect(mmdFamilyOfFile('dance.vmd', PMM)).toBe('pmm');
    expect(mmdFamilyOfFile('stage.dat', X_TEXT)).toBe('accessory');
    expect(mmdFamilyOfFile('dance.mvd', VMD)).toBeNull();
    expect(mmdFamilyOfFile('project.pmm', VMD)).toBeNull();
    expect(mmdFamilyOfFile('project.nmm', PROTOBUF)).toBe('nanoem');
    expect(mmdFamilyOfFile('effect.fx', FX)).toBe('effect');
    // Without bytes (a path the file dialog did not read): the name.
    expect(mmdFamilyOfFile('/m/project.pmm')).toBe('pmm');
    expect(mmdFamilyOfFile('/m/dance.vmd')).toBeNull();
  });

  it('opened as a motion: E_VMD_MAGIC saying what it is and what to do (not "plain text" for an effect), with the params the app phrases', () => {
    expect(notAMotion('project.pmm', PMM)).toEqual({ kind: 'mmd', format: 'PMM', rename: '', says: 'pmm' });
    expect(notAMotion('dance.vmd', PMM)?.says).toBe('pmm');
    expect(notAMotion('motion.mvd', MVD)?.says).toBe('mvd');
    expect(notAMotion('project.nmm', PROTOBUF)?.says).toBe('nanoem');
    expect(notAMotion('motion.nmd', PROTOBUF)?.says).toBe('nanoemMotion');
    expect(notAMotion('stage.x', X_TEXT)?.says).toBe('accessory');
    expect(notAMotion('effect.fx', FX)?.says).toBe('effect');
    expect(notAMotion('effect.emm', EMM)?.says).toBe('effect');
    expect(notAMotion('dance.mvd', VMD)).toBeNull();
    expect(notAMotionError('project.pmm', PMM, '/p/project.pmm')).toEqual({
      code: 'E_VMD_MAGIC',
      message: 'a MikuMikuDance project (.pmm), not a motion; VMD Studio does not read it. In MMD, save each model’s motion and the camera as .vmd (File → Save motion data, with that model or the camera chosen), then open them here and keep them together with Save Scene As… (Scene ▾)',
      params: { notMotion: 'pmm', format: 'PMM', rename: '' },
      file: '/p/project.pmm',
    });
    expect(notAMotionError('effect.fx', FX)?.message).toBe('an MME effect, not a motion; VMD Studio does not run effects: its preview and videos draw with their own toon shading and self-shadow');
  });
});

