// New-user pass (nubegin 2): a song, a texture and notes renamed .vmd, opened as a motion, were all "not a VMD file
// (at byte 0)". notAMotion (shared/ipc/file-kind.ts) says what such a file is and what its name should be, from its
// bytes written here (and the corpus's TGA textures, which have no TGA 2.0 footer); a motion, a pose, a damaged one
// and a capture are left to their own messages.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { looksLikeTgaHeader, looksLikeText, notAMotion, notAMotionError } from '../../shared/ipc/file-kind';
import { fileKindByContent } from '../../shared/ipc/file-kind';
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
