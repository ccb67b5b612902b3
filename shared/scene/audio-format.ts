/**
 * Names an audio file's format from its first bytes (and its extension when the bytes say nothing), so
 * that a song Web Audio cannot decode gets a message naming the format — "AIFF audio", "WAV (format
 * 0x0161, WMA)" — instead of the platform's bare EncodingError.
 *
 *   RIFF····WAVE  WAV; the fmt chunk's format tag (1 PCM, 3 float, 0xFFFE extensible, others named)
 *   the others by their magic as ipc/file-kind.ts audioContainerOf knows them (the one place: the command
 *   line's sniffing asks it too): AIFF, MP3, AAC (ADTS), Ogg, FLAC, MP4/M4A, WebM/Matroska, WMA (ASF).
 * Also what a song's first bytes say cheaply of its rate, channels and length (audioHeaderInfo), for
 * `vmd-studio inspect`.
 */
import { riffChunk } from './wav';
import { audioContainerOf, fileKindByContent, isoBoxes, u32be, type AudioContainer, type FileKind } from '../ipc/file-kind';

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

/** Each container's name in a message (AIFF says AIFF or AIFF-C by its form type). */
const CONTAINER_NAMES: Readonly<Record<Exclude<AudioContainer, 'aiff'>, string>> = {
  ogg: 'Ogg',
  flac: 'FLAC',
  mp4: 'MP4/M4A',
  webm: 'WebM/Matroska',
  asf: 'WMA (ASF)',
  mp3: 'MP3',
  aac: 'AAC (ADTS)',
};

/** A short English name of the format (`WAV (PCM)`, `MP3`, `Ogg`, `FLAC`, `MP4/M4A`, `AIFF`, …). */
export function audioFormatOf(bytes: Uint8Array, name = ''): string {
  const b = bytes;
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WAVE') {
    const tag = wavFormatTag(b);
    if (tag === null) return 'WAV (no format chunk)';
    return `WAV (${WAV_TAGS[tag] ?? 'format 0x' + tag.toString(16).padStart(4, '0')})`;
  }
  const container = audioContainerOf(b);
  if (container === 'aiff') return ascii(b, 8, 4) === 'AIFC' ? 'AIFF-C' : 'AIFF';
  if (container) return CONTAINER_NAMES[container];
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1];
  return ext ? `.${ext.toLowerCase()} file of unknown format` : 'unknown format';
}

/**
 * What a file given as a song is instead, when its first bytes say so: a kind the shared sniffing knows
 * (ipc/file-kind.ts: an MMD file, a scene, a PNG/JPEG/BMP/TGA image) or a picture, document or archive only
 * a song's check asks about.
 */
export type NotAudioKind = Exclude<FileKind, 'wav' | 'audio' | 'json'> | 'gif' | 'webp' | 'pdf' | 'zip';

/**
 * The kind of file the bytes recognisably are when they are not audio (by their magic: PNG, JPEG, a VMD…),
 * or null when they say nothing (they may still be audio of a format no check here knows).
 */
export function notAudioKind(bytes: Uint8Array): NotAudioKind | null {
  const b = bytes;
  const known = fileKindByContent(b);
  if (known !== null && known !== 'wav' && known !== 'audio' && known !== 'json') return known;
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return 'gif';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'webp';
  if (b.length >= 5 && ascii(b, 0, 5) === '%PDF-') return 'pdf';
  if (b.length >= 4 && ascii(b, 0, 4) === 'PK\x03\x04') return 'zip';
  return null;
}

/** What a song's header says (audioHeaderInfo); null where it does not say it cheaply. */
export interface AudioHeaderInfo {
  sampleRate: number | null;
  channels: number | null;
  durationSeconds: number | null;
}

const u32le = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

/**
 * FLAC: the STREAMINFO block that must follow "fLaC" (4-byte block header, then min/max block and frame
 * sizes, 20 bits of sample rate, 3 of channels − 1, 5 of bits − 1, 36 of total samples; 0 = unknown).
 */
function flacInfo(b: Uint8Array): AudioHeaderInfo | null {
  if (b.length < 26 || (b[4] & 0x7f) !== 0) return null;
  const rate = (b[18] << 12) | (b[19] << 4) | (b[20] >> 4);
  const total = (b[21] & 0x0f) * 2 ** 32 + u32be(b, 22);
  return { sampleRate: rate || null, channels: ((b[20] >> 1) & 7) + 1, durationSeconds: rate && total ? total / rate : null };
}

/** MPEG audio sample rates by version (3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5) and rate index. */
const MPEG_RATES: Readonly<Record<number, readonly number[]>> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/**
 * MP3: past an ID3v2 tag (10 bytes, a syncsafe size, a footer when flagged), the first frame header's rate
 * and channels; the length where that frame is a Xing/Info (LAME) or VBRI header counting the frames —
 * else none (a constant-bitrate file's length would be a guess from its size).
 */
function mp3Info(b: Uint8Array): AudioHeaderInfo | null {
  let at = 0;
  if (b.length >= 10 && ascii(b, 0, 3) === 'ID3') at = 10 + ((b[6] & 0x7f) << 21 | (b[7] & 0x7f) << 14 | (b[8] & 0x7f) << 7 | (b[9] & 0x7f)) + (b[5] & 0x10 ? 10 : 0);
  // Some encoders pad between the tag and the first frame.
  while (at < b.length && b[at] === 0) at++;
  if (at + 4 > b.length || b[at] !== 0xff || (b[at + 1] & 0xe0) !== 0xe0) return null;
  const version = (b[at + 1] >> 3) & 3, layer = (b[at + 1] >> 1) & 3, rateIndex = (b[at + 2] >> 2) & 3;
  const rate = MPEG_RATES[version]?.[rateIndex];
  if (!rate || layer === 0) return null;
  const mono = b[at + 3] >> 6 === 3;
  const perFrame = layer === 3 ? 384 : layer === 2 || version === 3 ? 1152 : 576;
  // The Xing/Info tag follows the frame's side information (Layer III); VBRI sits 32 bytes after the header.
  const side = version === 3 ? (mono ? 17 : 32) : mono ? 9 : 17;
  let frames: number | null = null;
  const x = at + 4 + side;
  if (x + 12 <= b.length && (ascii(b, x, 4) === 'Xing' || ascii(b, x, 4) === 'Info') && u32be(b, x + 4) & 1) frames = u32be(b, x + 8);
  else if (at + 36 + 18 <= b.length && ascii(b, at + 36, 4) === 'VBRI') frames = u32be(b, at + 36 + 14);
  return { sampleRate: rate, channels: mono ? 1 : 2, durationSeconds: frames ? (frames * perFrame) / rate : null };
}

/** Ogg: the first page's first packet, a Vorbis or Opus identification header (rate, channels); no length (it is in the last page). */
function oggInfo(b: Uint8Array): AudioHeaderInfo | null {
  if (b.length < 28) return null;
  const p = 27 + b[26];
  if (p + 16 <= b.length && b[p] === 1 && ascii(b, p + 1, 6) === 'vorbis') return { sampleRate: u32le(b, p + 12), channels: b[p + 11], durationSeconds: null };
  // Opus always plays at 48 kHz (the header's rate is the input's, for information).
  if (p + 10 <= b.length && ascii(b, p, 8) === 'OpusHead') return { sampleRate: 48000, channels: b[p + 9], durationSeconds: null };
  return null;
}

/** MP4/M4A: the movie header (moov → mvhd: time scale and duration) where the moov box lies in `b`. */
function mp4Info(b: Uint8Array): AudioHeaderInfo | null {
  /** The body of the first box named `name` among those in [from, to), or undefined. */
  const box = (from: number, to: number, name: string) => isoBoxes(b, from, to).find((x) => x[0] === name);
  const moov = box(0, b.length, 'moov');
  const mvhd = moov && box(moov[1], moov[2], 'mvhd');
  if (!mvhd) return null;
  const [, m, end] = mvhd;
  const v1 = b[m] === 1;
  if (m + (v1 ? 32 : 20) > end) return null;
  const scale = u32be(b, m + (v1 ? 20 : 12));
  const duration = v1 ? u32be(b, m + 24) * 2 ** 32 + u32be(b, m + 28) : u32be(b, m + 16);
  return { sampleRate: null, channels: null, durationSeconds: scale ? duration / scale : null };
}

/**
 * What a song's first bytes say of its rate, channels and length, where its header gives them without
 * decoding: FLAC (all three), MP3 (rate, channels; the length from a Xing/Info or VBRI frame), Ogg Vorbis
 * or Opus (rate, channels), MP4/M4A (the length, when its moov box is in the bytes). Null for other formats
 * (a WAV: wav.ts) and headers not read.
 */
export function audioHeaderInfo(bytes: Uint8Array): AudioHeaderInfo | null {
  switch (audioContainerOf(bytes)) {
    case 'flac':
      return flacInfo(bytes);
    case 'mp3':
      return mp3Info(bytes);
    case 'ogg':
      return oggInfo(bytes);
    case 'mp4':
      return mp4Info(bytes);
    default:
      return null;
  }
}
