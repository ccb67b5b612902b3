/**
 * Names an audio file's format from its first bytes (and its extension when the bytes say nothing), so
 * that a song Web Audio cannot decode gets a message naming the format — "AIFF audio", "WAV (format
 * 0x0161, WMA)" — instead of the platform's bare EncodingError.
 *
 *   RIFF····WAVE  WAV; the fmt chunk's format tag (1 PCM, 3 float, 0xFFFE extensible, others named)
 *   FORM····AIFF/AIFC  AIFF     ID3 / FF Ex  MP3 (or ADTS AAC: FF F1/F9)     OggS  Ogg     fLaC  FLAC
 *   ····ftyp  MP4/M4A (AAC or ALAC)   1A 45 DF A3  WebM/Matroska   30 26 B2 75  WMA (ASF)
 */
import { riffChunk } from './wav';
import { fileKindByContent, type FileKind } from '../ipc/file-kind';

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));

const WAV_TAGS: Record<number, string> = {
  0x0001: 'PCM',
  0x0003: 'float',
  0x0002: 'ADPCM',
  0x0006: 'A-law',
  0x0007: 'µ-law',
  0x0011: 'IMA ADPCM',
  0x0055: 'MP3',
  0x0161: 'WMA',
  0xfffe: 'extensible',
};

/** The fmt chunk's format tag of a RIFF/WAVE file, or null when the chunk is not found. */
function wavFormatTag(b: Uint8Array): number | null {
  const fmt = riffChunk(b, 'fmt ');
  return fmt && fmt.at + 2 <= b.length ? b[fmt.at] | (b[fmt.at + 1] << 8) : null;
}

/** A short English name of the format (`WAV (PCM)`, `MP3`, `Ogg`, `FLAC`, `MP4/M4A`, `AIFF`, …). */
export function audioFormatOf(bytes: Uint8Array, name = ''): string {
  const b = bytes;
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WAVE') {
    const tag = wavFormatTag(b);
    if (tag === null) return 'WAV (no format chunk)';
    return `WAV (${WAV_TAGS[tag] ?? 'format 0x' + tag.toString(16).padStart(4, '0')})`;
  }
  if (b.length >= 12 && ascii(b, 0, 4) === 'FORM' && (ascii(b, 8, 4) === 'AIFF' || ascii(b, 8, 4) === 'AIFC')) return ascii(b, 8, 4) === 'AIFC' ? 'AIFF-C' : 'AIFF';
  if (b.length >= 4 && ascii(b, 0, 4) === 'OggS') return 'Ogg';
  if (b.length >= 4 && ascii(b, 0, 4) === 'fLaC') return 'FLAC';
  if (b.length >= 12 && ascii(b, 4, 4) === 'ftyp') return 'MP4/M4A';
  if (b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return 'WebM/Matroska';
  if (b.length >= 4 && b[0] === 0x30 && b[1] === 0x26 && b[2] === 0xb2 && b[3] === 0x75) return 'WMA (ASF)';
  if (b.length >= 3 && ascii(b, 0, 3) === 'ID3') return 'MP3';
  if (b.length >= 2 && b[0] === 0xff && (b[1] & 0xf6) === 0xf0) return 'AAC (ADTS)';
  if (b.length >= 2 && b[0] === 0xff && (b[1] & 0xe0) === 0xe0) return 'MP3';
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1];
  return ext ? `.${ext.toLowerCase()} file of unknown format` : 'unknown format';
}

/**
 * What a file given as a song is instead, when its first bytes say so: a kind the shared sniffing knows
 * (ipc/file-kind.ts: an MMD file, a scene, a PNG/JPEG/BMP/TGA image) or a picture, document or archive only
 * a song's check asks about.
 */
export type NotAudioKind = Exclude<FileKind, 'wav' | 'json'> | 'gif' | 'webp' | 'pdf' | 'zip';

/**
 * The kind of file the bytes recognisably are when they are not audio (by their magic: PNG, JPEG, a VMD…),
 * or null when they say nothing (they may still be audio of a format no check here knows).
 */
export function notAudioKind(bytes: Uint8Array): NotAudioKind | null {
  const b = bytes;
  const known = fileKindByContent(b);
  if (known !== null && known !== 'wav' && known !== 'json') return known;
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return 'gif';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'webp';
  if (b.length >= 5 && ascii(b, 0, 5) === '%PDF-') return 'pdf';
  if (b.length >= 4 && ascii(b, 0, 4) === 'PK\x03\x04') return 'zip';
  return null;
}
