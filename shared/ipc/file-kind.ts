/**
 * What a file is — a VMD motion, a VPD pose, a PMX or PMD model, a BVH capture, a VRM Animation, and the
 * files of other kinds people hand a motion tool by mistake: a WAV or other song (MP3, Ogg, FLAC, M4A…: the
 * containers the app's song check names, audioContainerOf), a VMD Studio scene, an image — by its
 * first bytes where they say, else by its extension (file-types.ts). The one place the command line and the
 * batch ask before choosing a reader, so a file of another kind is named as what it is ("a PMX model, not a
 * VMD motion") instead of failing the wrong reader's magic check, and a damaged .vmd stays a VMD problem.
 */
import { isVmd } from '../vmd/vmd-reader';
import { looksLikeVpd } from '../vmd/vpd';
import { isPmx } from '../pmx/pmx-reader';
import { isPmd } from '../pmx/pmd-reader';
import { AUDIO_EXTENSIONS, extensionOf } from './file-types';
import type { CodecError } from '../vmd/errors';

/** `audio`: a song other than a WAV (audioContainerOf says which). */
export type FileKind = 'vmd' | 'vpd' | 'json' | 'pmx' | 'pmd' | 'bvh' | 'vrma' | 'wav' | 'audio' | 'scene' | ImageKind;

/** The image formats named by their first bytes (TGA, which has no magic there, by its 2.0 footer or its name). */
export type ImageKind = 'png' | 'jpeg' | 'bmp' | 'tga';

/** Whether a kind is an image. */
export function isImageKind(kind: FileKind | null): kind is ImageKind {
  return kind === 'png' || kind === 'jpeg' || kind === 'bmp' || kind === 'tga';
}

/** Each kind as a sentence names it. */
export const FILE_KIND_NAMES: Readonly<Record<FileKind, string>> = {
  vmd: 'a VMD motion',
  vpd: 'a VPD pose',
  json: 'a motion as JSON',
  pmx: 'a PMX model',
  pmd: 'a PMD model',
  bvh: 'a BVH capture',
  vrma: 'a VRM Animation',
  wav: 'a WAV audio file',
  audio: 'an audio file',
  scene: 'a VMD Studio scene',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  bmp: 'a BMP image',
  tga: 'a TGA image',
};

const EXTENSION_KINDS: Readonly<Record<string, FileKind>> = {
  '.vmd': 'vmd',
  '.vpd': 'vpd',
  '.json': 'json',
  '.pmx': 'pmx',
  '.pmd': 'pmd',
  '.bvh': 'bvh',
  '.vrma': 'vrma',
  '.wav': 'wav',
  '.vmdscene': 'scene',
  '.png': 'png',
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.bmp': 'bmp',
  '.tga': 'tga',
  // The other songs the app's ♪ Music… takes.
  ...Object.fromEntries(AUDIO_EXTENSIONS.filter((e) => e !== '.wav').map((e) => [e, 'audio' as const])),
};

/** The kind an extension (lower case with its dot, as extensionOf gives it) says, or null. */
export function fileKindOfExtension(ext: string): FileKind | null {
  return EXTENSION_KINDS[ext] ?? null;
}

/** The kind a file's name says by its extension, or null. */
export function fileKindByName(name: string): FileKind | null {
  return fileKindOfExtension(extensionOf(name));
}

/** Whether the bytes begin (after a UTF-8 byte order mark and white space) with BVH's HIERARCHY, a word of its own. */
export function looksLikeBvh(b: Uint8Array): boolean {
  let i = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  while (i < b.length && (b[i] === 0x20 || (b[i] >= 0x09 && b[i] <= 0x0d))) i++;
  const word = 'HIERARCHY';
  if (b.length - i < word.length) return false;
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) return false;
  const next = b[i + word.length];
  return next === undefined || !/[0-9A-Za-z_]/.test(String.fromCharCode(next));
}

/** Whether the bytes begin with a binary glTF's magic, "glTF" (a .vrma is one). */
export function looksLikeGlb(b: Uint8Array): boolean {
  return b.length >= 4 && b[0] === 0x67 && b[1] === 0x6c && b[2] === 0x54 && b[3] === 0x46;
}

const startsWith = (b: Uint8Array, at: number, magic: readonly number[] | string): boolean => {
  const m = typeof magic === 'string' ? Array.from(magic, (c) => c.charCodeAt(0)) : magic;
  if (b.length < at + m.length) return false;
  for (let i = 0; i < m.length; i++) if (b[at + i] !== m[i]) return false;
  return true;
};

/** Whether the bytes begin as a WAV does: "RIFF", a size, "WAVE". */
export function looksLikeWav(b: Uint8Array): boolean {
  return startsWith(b, 0, 'RIFF') && startsWith(b, 8, 'WAVE');
}

/**
 * The audio containers and streams known by their first bytes (besides WAV): what the app's song check names
 * (shared/scene/audio-format.ts audioFormatOf) and what the sniffing here calls `audio`.
 *
 *   FORM····AIFF/AIFC  aiff   OggS  ogg   fLaC  flac   ····ftyp (not an image brand)  mp4
 *   1A 45 DF A3  webm (Matroska)   30 26 B2 75  asf (WMA)   ID3, or an MPEG audio frame header  mp3
 *   an ADTS header (FF F1/F9)  aac
 */
export type AudioContainer = 'aiff' | 'ogg' | 'flac' | 'mp4' | 'webm' | 'asf' | 'mp3' | 'aac';

/** ISO-BMFF brands of still images (HEIF, AVIF): an "ftyp" file that is a picture, not a song. */
const IMAGE_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1', 'avif', 'avis']);

/**
 * Whether four bytes are an MPEG audio frame header: the 11-bit sync, then a version, layer, bitrate and
 * sample rate that are not the reserved or free values (a bare sync is too common to take alone).
 */
function mpegFrameHeader(b: Uint8Array, at: number): boolean {
  if (b.length < at + 3 || b[at] !== 0xff || (b[at + 1] & 0xe0) !== 0xe0) return false;
  const version = (b[at + 1] >> 3) & 3, layer = (b[at + 1] >> 1) & 3, bitrate = b[at + 2] >> 4, rate = (b[at + 2] >> 2) & 3;
  return version !== 1 && layer !== 0 && bitrate !== 15 && rate !== 3;
}

/** The audio container the first bytes say (a WAV is looksLikeWav's), or null. */
export function audioContainerOf(b: Uint8Array): AudioContainer | null {
  if (startsWith(b, 0, 'FORM') && (startsWith(b, 8, 'AIFF') || startsWith(b, 8, 'AIFC'))) return 'aiff';
  if (startsWith(b, 0, 'OggS')) return 'ogg';
  if (startsWith(b, 0, 'fLaC')) return 'flac';
  if (b.length >= 12 && startsWith(b, 4, 'ftyp') && !IMAGE_BRANDS.has(String.fromCharCode(b[8], b[9], b[10], b[11]))) return 'mp4';
  if (startsWith(b, 0, [0x1a, 0x45, 0xdf, 0xa3])) return 'webm';
  if (startsWith(b, 0, [0x30, 0x26, 0xb2, 0x75])) return 'asf';
  if (startsWith(b, 0, 'ID3')) return 'mp3';
  // ADTS: the sync, layer 0, and a sampling frequency index it defines (0–12).
  if (b.length >= 3 && b[0] === 0xff && (b[1] & 0xf6) === 0xf0 && ((b[2] >> 2) & 0xf) < 13) return 'aac';
  if (mpegFrameHeader(b, 0)) return 'mp3';
  return null;
}

/** The scene file's "format" field (scene-file.ts SCENE_FORMAT, spelt here so the sniffing needs no scene code). */
const SCENE_FORMAT_FIELD = /^\s*\{[\s\S]*?"format"\s*:\s*"vmd-studio-scene"/;

/**
 * Whether the bytes are a VMD Studio scene's JSON: an object (after a UTF-8 byte order mark) whose "format"
 * is "vmd-studio-scene", looked for in its first 64 KiB (the app writes it first).
 */
export function looksLikeScene(b: Uint8Array): boolean {
  const start = startsWith(b, 0, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  // ASCII is enough to find the field; other bytes become other characters, never a quote or a brace.
  let text = '';
  for (let i = start, end = Math.min(b.length, start + 65536); i < end; i++) text += String.fromCharCode(b[i]);
  return SCENE_FORMAT_FIELD.test(text);
}

/** The BMP file header's "BM" with reserved zeros and a DIB header size one of the Windows and OS/2 versions has. */
function looksLikeBmp(b: Uint8Array): boolean {
  if (!startsWith(b, 0, 'BM') || b.length < 18 || b[6] | b[7] | b[8] | b[9]) return false;
  const dib = b[14] | (b[15] << 8) | (b[16] << 16) | (b[17] << 24);
  return [12, 16, 40, 52, 56, 64, 108, 124].includes(dib);
}

/** The image kind the first bytes say (a TGA by its 2.0 footer, "TRUEVISION-XFILE." in the last 18 bytes), or null. */
export function imageKindByContent(b: Uint8Array): ImageKind | null {
  if (startsWith(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(b, 0, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (looksLikeBmp(b)) return 'bmp';
  if (b.length >= 44 && startsWith(b, b.length - 18, 'TRUEVISION-XFILE.') && b[b.length - 1] === 0) return 'tga';
  return null;
}

/** The kind the first bytes say (each format's magic), or null when they say none. JSON motions are never recognised here. */
export function fileKindByContent(bytes: Uint8Array): FileKind | null {
  if (isVmd(bytes)) return 'vmd';
  if (looksLikeVpd(bytes)) return 'vpd';
  if (isPmx(bytes)) return 'pmx';
  if (isPmd(bytes)) return 'pmd';
  if (looksLikeGlb(bytes)) return 'vrma';
  if (looksLikeBvh(bytes)) return 'bvh';
  if (looksLikeWav(bytes)) return 'wav';
  if (looksLikeScene(bytes)) return 'scene';
  return imageKindByContent(bytes) ?? (audioContainerOf(bytes) ? 'audio' : null);
}

/** The refusal of a file neither its first bytes nor its name say a kind of, by a reader of motions and poses. */
export const NEITHER_MOTION_NOR_POSE: CodecError = { code: 'E_VMD_MAGIC', message: 'not a VMD motion or a VPD pose: it starts with neither "Vocaloid Motion Data" nor "Vocaloid Pose Data file"', offset: 0 };

/** What the file is: its content's kind where the first bytes say, else its name's; null when neither says. */
export function fileKindOf(name: string, bytes: Uint8Array): FileKind | null {
  return fileKindByContent(bytes) ?? fileKindByName(name);
}

/**
 * What every reader of an input document says of a 0-byte file — the app's Open… and drop, the command
 * line, the batch — rather than whatever its parser makes of no bytes ("not a VMD file").
 */
export function emptyFileError(file: string): CodecError {
  return { code: 'E_FILE_EMPTY', message: 'the file is empty (0 bytes)', file };
}

/** emptyFileError when `bytes` are empty (a read or a drop of a 0-byte file), else null. */
export function refuseEmpty(bytes: Uint8Array, file: string): CodecError | null {
  return bytes.byteLength === 0 ? emptyFileError(file) : null;
}
