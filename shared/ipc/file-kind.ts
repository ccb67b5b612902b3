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
import { AUDIO_EXTENSIONS, extensionOf, PMX_PMD_EXTENSIONS } from './file-types';
import { MMD_FAMILY_FORMATS, mmdFamilyByContent, mmdFamilyByName, type MmdFamily } from './mmd-family';
import type { CodecError } from '../vmd/errors';
import { t } from '../i18n/strings';

/** `audio`: a song other than a WAV (audioContainerOf says which); `video`: a film (videoContainerOf says which), as the app's Render → Video… writes. */
export type FileKind = 'vmd' | 'vpd' | 'json' | 'pmx' | 'pmd' | 'bvh' | 'vrma' | 'wav' | 'audio' | 'video' | 'scene' | ImageKind;

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
  video: 'a video',
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
  '.mp4': 'video',
  '.m4v': 'video',
  '.mov': 'video',
  '.mkv': 'video',
  '.avi': 'video',
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

/** MPEG audio bit rates in kbit/s by [MPEG-1?][layer bits: 3 Layer I, 2 Layer II, 1 Layer III] and index 1–14. */
const MPEG_BITRATES: Readonly<Record<'1' | '2', Readonly<Record<number, readonly number[]>>>> = {
  '1': {
    3: [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    2: [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    1: [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  },
  '2': {
    3: [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    2: [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    1: [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  },
};
/** Sample rates by version bits (3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5) and rate index. */
const MPEG_SAMPLE_RATES: Readonly<Record<number, readonly number[]>> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/**
 * The length in bytes of the MPEG audio frame whose header is at `at`, or null when the bytes there are not a
 * frame header: the 11-bit sync, then a version, layer, bit rate and sample rate that are not the reserved
 * values, and not the free bit rate (index 0: no length to check, and a bare sync is too common to take alone).
 */
function mpegFrameLength(b: Uint8Array, at: number): number | null {
  if (b.length < at + 3 || b[at] !== 0xff || (b[at + 1] & 0xe0) !== 0xe0) return null;
  const version = (b[at + 1] >> 3) & 3, layer = (b[at + 1] >> 1) & 3, bitrate = b[at + 2] >> 4, rate = (b[at + 2] >> 2) & 3, padding = (b[at + 2] >> 1) & 1;
  if (version === 1 || layer === 0 || bitrate === 0 || bitrate === 15 || rate === 3) return null;
  const kbps = MPEG_BITRATES[version === 3 ? '1' : '2'][layer][bitrate - 1];
  const hz = MPEG_SAMPLE_RATES[version][rate];
  if (layer === 3) return (Math.floor((12 * kbps * 1000) / hz) + padding) * 4;
  return Math.floor(((layer === 1 && version !== 3 ? 72 : 144) * kbps * 1000) / hz) + padding;
}

/**
 * Whether the bytes begin (after a UTF-16 byte order mark) as UTF-16 text: FF FE then a little-endian ASCII
 * character, or FE FF then a big-endian one (Windows Notepad's "Unicode" scene, `{` or white space first).
 */
export function looksLikeUtf16Text(b: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (b.length < 4) return null;
  const ascii = (c: number) => c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0x20 && c < 0x7f);
  if (b[0] === 0xff && b[1] === 0xfe && b[3] === 0 && ascii(b[2])) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff && b[2] === 0 && ascii(b[3])) return 'utf-16be';
  return null;
}

/**
 * Whether the bytes begin with an MPEG audio stream: a frame header, and a second one where the first frame
 * ends when the bytes reach that far. UTF-16 text with its byte order mark (FF FE 7B 00: `{`) reads as a
 * Layer I header, and so was called an MP3; such bytes need the second header to be one.
 */
function mpegStream(b: Uint8Array): boolean {
  const len = mpegFrameLength(b, 0);
  if (len === null) return false;
  if (b.length >= len + 3) return mpegFrameLength(b, len) !== null;
  return looksLikeUtf16Text(b) === null;
}

/** The audio container the first bytes say (a WAV is looksLikeWav's), or null. */
export function audioContainerOf(b: Uint8Array): AudioContainer | null {
  if (startsWith(b, 0, 'FORM') && (startsWith(b, 8, 'AIFF') || startsWith(b, 8, 'AIFC'))) return 'aiff';
  if (startsWith(b, 0, 'OggS')) return 'ogg';
  if (startsWith(b, 0, 'fLaC')) return 'flac';
  if (b.length >= 12 && startsWith(b, 4, 'ftyp') && !IMAGE_BRANDS.has(String.fromCharCode(b[8], b[9], b[10], b[11])) && videoContainerOf(b) === null) return 'mp4';
  if (startsWith(b, 0, [0x1a, 0x45, 0xdf, 0xa3]) && videoContainerOf(b) === null) return 'webm';
  if (startsWith(b, 0, [0x30, 0x26, 0xb2, 0x75])) return 'asf';
  if (startsWith(b, 0, 'ID3')) return 'mp3';
  // ADTS: the sync, layer 0, and a sampling frequency index it defines (0–12).
  if (b.length >= 3 && b[0] === 0xff && (b[1] & 0xf6) === 0xf0 && ((b[2] >> 2) & 0xf) < 13) return 'aac';
  if (mpegStream(b)) return 'mp3';
  return null;
}

/**
 * The video containers known by their first bytes: what the app's Render → Video… writes (MP4, WebM) and the
 * films people keep beside them (QuickTime MOV, Matroska MKV, AVI).
 */
export type VideoContainer = 'mp4' | 'mov' | 'webm' | 'mkv' | 'avi';

/** Each video container as a message names it ("a video (MP4)"). */
export const VIDEO_CONTAINER_NAMES: Readonly<Record<VideoContainer, string>> = { mp4: 'MP4', mov: 'MOV', webm: 'WebM', mkv: 'MKV', avi: 'AVI' };

/** ISO-BMFF brands of audio only (iTunes M4A/M4B/M4P, Flash F4A/F4B): the "ftyp" of a song. */
const AUDIO_BRANDS = new Set(['M4A ', 'M4B ', 'M4P ', 'F4A ', 'F4B ']);
/** ISO-BMFF brands of films: the generic ISO and MP4 ones (an "ftyp" of these is a video unless its moov says sound only), M4V, QuickTime, 3GPP, DASH, Sony's XAVC. */
const VIDEO_BRANDS = new Set(['isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso7', 'iso8', 'iso9', 'mp41', 'mp42', 'avc1', 'M4V ', 'M4VH', 'M4VP', 'qt  ', '3gp4', '3gp5', '3gp6', '3g2a', 'dash', 'mmp4', 'MSNV', 'XAVC', 'f4v ']);

/** A big-endian unsigned 32-bit word at `at`. */
export const u32be = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

/**
 * The ISO-BMFF boxes (MP4, M4A, MOV) in [from, to) of `b`, each as [type, body start, end]: a 32-bit size (1: a
 * 64-bit size follows the type; 0: to the end), cut at `to`; the walk stops at a size too small to be a box.
 */
export function isoBoxes(b: Uint8Array, from: number, to: number): [string, number, number][] {
  const out: [string, number, number][] = [];
  for (let at = from; at + 8 <= to; ) {
    let size = u32be(b, at), head = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = u32be(b, at + 8) * 2 ** 32 + u32be(b, at + 12);
      head = 16;
    } else if (size === 0) size = to - at;
    if (size < head) break;
    out.push([String.fromCharCode(b[at + 4], b[at + 5], b[at + 6], b[at + 7]), at + head, Math.min(to, at + size)]);
    at += size;
  }
  return out;
}

/**
 * The handler types of an ISO-BMFF file's tracks (moov → trak → mdia → hdlr: "vide", "soun"…) where its moov
 * box lies in `b` (a file written for streaming has it first; others at the end, past what was read): null when not.
 */
function isoTrackHandlers(b: Uint8Array): string[] | null {
  const boxes = (from: number, to: number) => isoBoxes(b, from, to);
  const moov = boxes(0, b.length).find((x) => x[0] === 'moov');
  if (!moov) return null;
  const handlers: string[] = [];
  for (const trak of boxes(moov[1], moov[2]).filter((x) => x[0] === 'trak')) {
    const mdia = boxes(trak[1], trak[2]).find((x) => x[0] === 'mdia');
    const hdlr = mdia && boxes(mdia[1], mdia[2]).find((x) => x[0] === 'hdlr');
    // A full box: version and flags, pre_defined, then the handler type.
    if (hdlr && hdlr[1] + 12 <= hdlr[2]) handlers.push(String.fromCharCode(b[hdlr[1] + 8], b[hdlr[1] + 9], b[hdlr[1] + 10], b[hdlr[1] + 11]));
  }
  return handlers;
}

/**
 * Whether a Matroska/WebM file's first bytes hold a video track: a CodecID element (0x86, a one-byte size)
 * whose value starts "V_" (V_VP8, V_VP9, V_AV1, V_MPEG4/ISO/AVC…); the Tracks element comes before the clusters.
 */
function matroskaHasVideo(b: Uint8Array): boolean {
  for (let i = 0, end = b.length - 3; i < end; i++) if (b[i] === 0x86 && b[i + 1] > 0x82 && b[i + 1] < 0xa0 && b[i + 2] === 0x56 && b[i + 3] === 0x5f) return true;
  return false;
}

/**
 * The video container the first bytes say, or null (a song in the same containers is audioContainerOf's):
 *   ····ftyp  mp4 (mov for QuickTime's "qt  "): a video when its moov box (where read) has a "vide" track, else
 *     when its brands are a film's (VIDEO_BRANDS) and not a song's (M4A: AUDIO_BRANDS, the major brand)
 *   1A 45 DF A3  webm (DocType "webm") or mkv (Matroska), when a track's codec is a video's
 *   RIFF····AVI   avi
 */
export function videoContainerOf(b: Uint8Array): VideoContainer | null {
  if (startsWith(b, 0, 'RIFF') && startsWith(b, 8, 'AVI ')) return 'avi';
  if (startsWith(b, 0, [0x1a, 0x45, 0xdf, 0xa3])) {
    if (!matroskaHasVideo(b)) return null;
    // The DocType is in the EBML header, the first few dozen bytes.
    const head = String.fromCharCode(...b.subarray(0, 64));
    return head.includes('webm') ? 'webm' : 'mkv';
  }
  if (b.length < 16 || !startsWith(b, 4, 'ftyp')) return null;
  const brandAt = (at: number) => String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);
  const major = brandAt(8);
  if (IMAGE_BRANDS.has(major)) return null;
  const container = major === 'qt  ' ? 'mov' : 'mp4';
  const handlers = isoTrackHandlers(b);
  if (handlers !== null && handlers.length > 0) return handlers.includes('vide') ? container : null;
  if (AUDIO_BRANDS.has(major)) return null;
  // The compatible brands follow the minor version, to the end of the ftyp box.
  const ftypEnd = Math.min(b.length, u32be(b, 0));
  const brands = [major];
  for (let at = 16; at + 4 <= ftypEnd; at += 4) brands.push(brandAt(at));
  return brands.some((x) => VIDEO_BRANDS.has(x)) ? container : null;
}

/** Each audio container as a message names it ("an audio file (M4A)"). */
const AUDIO_CONTAINER_NAMES: Readonly<Record<AudioContainer, string>> = { aiff: 'AIFF', ogg: 'Ogg', flac: 'FLAC', mp4: 'M4A', webm: 'WebM', asf: 'WMA', mp3: 'MP3', aac: 'AAC' };

/**
 * A kind as a sentence names it, with the format where the bytes say it: "an audio file (MP3)", "a video
 * (MP4)"; other kinds as FILE_KIND_NAMES has them.
 */
export function fileKindName(kind: FileKind, bytes?: Uint8Array): string {
  if (bytes && kind === 'audio') {
    const c = audioContainerOf(bytes);
    if (c) return `${FILE_KIND_NAMES.audio} (${AUDIO_CONTAINER_NAMES[c]})`;
  }
  if (bytes && kind === 'video') {
    const c = videoContainerOf(bytes);
    if (c) return `${FILE_KIND_NAMES.video} (${VIDEO_CONTAINER_NAMES[c]})`;
  }
  return FILE_KIND_NAMES[kind];
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
  if (videoContainerOf(bytes)) return 'video';
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

/** The kinds whose extension picks the reader in MMD and the app, so that a file of one named as another is refused there. */
const MOTION_NAME_KINDS: readonly FileKind[] = ['vmd', 'vpd', 'json'];
const KIND_EXTENSION: Partial<Record<FileKind, string>> = { vmd: '.vmd', vpd: '.vpd' };

/**
 * A motion or pose under another of their names — a .vpd holding a VMD motion, a .vmd holding a VPD pose, a
 * .json holding either: what the name says and what the first bytes say, or null. MMD and the app open these
 * files by their extension and refuse such a file, so the command line never takes one as what its bytes say
 * (it once wrote `laugh.vmd` holding a pose, mirrored a VMD into `laugh.vpd`).
 */
export function misnamedMotion(name: string, bytes: Uint8Array): { named: FileKind; is: FileKind; ext: string } | null {
  const ext = extensionOf(name);
  const named = fileKindOfExtension(ext);
  if (named === null || !MOTION_NAME_KINDS.includes(named)) return null;
  const is = fileKindByContent(bytes);
  return is !== null && is !== named && KIND_EXTENSION[is] ? { named, is, ext } : null;
}

/**
 * What is said of a misnamed motion or pose (misnamedMotion), or null: what it is, what name it has and the
 * name to give it ("a VMD motion named .vpd: … rename it laugh.vmd"). `name`: the file as typed or listed (the
 * new name is its base name with the right extension). Every command but inspect refuses such a file with this
 * (a batch as that file's failed row); inspect describes it and warns with it.
 */
export function misnamedMessage(name: string, bytes: Uint8Array): string | null {
  const m = misnamedMotion(name, bytes);
  if (!m) return null;
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const renamed = base.slice(0, base.length - m.ext.length) + KIND_EXTENSION[m.is];
  return `${FILE_KIND_NAMES[m.is]} named ${m.ext}: MMD and VMD Studio open a file by its extension and refuse this one; rename it ${renamed}`;
}

/** misnamedMessage as the error of a command that refuses the file: the code the named format's reader gives its wrong bytes. */
export function misnamedError(name: string, bytes: Uint8Array, file?: string): CodecError | null {
  const message = misnamedMessage(name, bytes);
  if (message === null) return null;
  const named = fileKindByName(name);
  return { code: named === 'vpd' ? 'E_VPD_MAGIC' : named === 'json' ? 'E_JSON_SYNTAX' : 'E_VMD_MAGIC', message, ...(file !== undefined ? { file } : {}) };
}

/**
 * Whether the first bytes are a TGA's 18-byte header, for a TGA without the 2.0 footer (imageKindByContent's
 * test; most textures have none): a colour map type of 0 or 1, an image type TGA defines (1–3 plain, 9–11 RLE),
 * a width and a height, a pixel depth of 8, 15, 16, 24 or 32, the descriptor's two reserved bits clear, and for
 * a plain image exactly as many bytes as the header says, or more (only a picture passes all of these). Only
 * for saying what a file that failed as a motion is: not a kind fileKindByContent gives.
 */
export function looksLikeTgaHeader(b: Uint8Array): boolean {
  if (b.length < 18 || b[1] > 1 || ![1, 2, 3, 9, 10, 11].includes(b[2])) return false;
  const width = b[12] | (b[13] << 8), height = b[14] | (b[15] << 8), depth = b[16];
  if (!width || !height || ![8, 15, 16, 24, 32].includes(depth) || b[17] & 0xc0) return false;
  if (b[2] > 3) return true;
  const mapBytes = b[1] ? (b[5] | (b[6] << 8)) * Math.ceil(b[7] / 8) : 0;
  return b.length >= 18 + b[0] + mapBytes + width * height * Math.ceil(depth / 8);
}

/**
 * Whether the first bytes (up to 4 KiB) read as plain text: a UTF-16 byte order mark, or no control byte but tab,
 * line feed, form feed, carriage return and escape (UTF-8 and Shift_JIS text have none; a binary file has them,
 * a NUL first, within its first bytes).
 */
export function looksLikeText(b: Uint8Array): boolean {
  if (b.length === 0) return false;
  if (startsWith(b, 0, [0xff, 0xfe]) || startsWith(b, 0, [0xfe, 0xff])) return true;
  for (let i = 0, end = Math.min(b.length, 4096); i < end; i++) {
    const c = b[i];
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d && c !== 0x1b) || c === 0x7f) return false;
  }
  return true;
}

/**
 * Which of MMD's and its neighbours' files (mmd-family.ts) this is: its first bytes' kind where they say one;
 * else, unless they are a format the app reads (a VMD renamed .mvd opens as the VMD it is), its name's. Without
 * bytes (a path not read: the file dialog), its name's.
 */
export function mmdFamilyOfFile(name: string, bytes?: Uint8Array): MmdFamily | null {
  if (bytes) {
    const c = mmdFamilyByContent(bytes);
    if (c) return c;
    if (fileKindByContent(bytes) !== null) return null;
  }
  return mmdFamilyByName(name);
}

/** What a file handed over as a motion or a pose is instead (notAMotion); `mmd`: an MMD project, an accessory, an effect… (mmd-family.ts). */
export type NotMotionKind = 'audio' | 'image' | 'model' | 'video' | 'text' | 'mmd';

/**
 * Which sentence says it (error-strings.ts `err.notMotion.<says>`): a song or a model to rename first, a song ♪ Music…
 * does not take; for MMD's files, the kind (mmd-family.ts MmdFamily).
 */
export type NotMotionSays = Exclude<NotMotionKind, 'mmd'> | 'audioRename' | 'audioOther' | 'modelRename' | MmdFamily;

export interface NotAMotion {
  kind: NotMotionKind;
  /** Its format as people name it: MP3, PNG, PMD, MP4 ('' for text). */
  format: string;
  /** The name it needs for the app to take it (song.mp3, miku.pmd); '' where its name is right or none would help. */
  rename: string;
  says: NotMotionSays;
}

/** The extension ♪ Music… takes for each song container (AIFF and WMA: none, it does not take them). */
const MUSIC_EXTENSION: Partial<Record<AudioContainer | 'wav', string>> = { wav: '.wav', mp3: '.mp3', ogg: '.ogg', flac: '.flac', mp4: '.m4a', webm: '.webm', aac: '.aac' };

const IMAGE_FORMATS: Readonly<Record<ImageKind, string>> = { png: 'PNG', jpeg: 'JPEG', bmp: 'BMP', tga: 'TGA' };

/**
 * A file opened as a motion or a pose (`name`: its name or path) whose bytes are a song, an image, a model, a
 * video, plain text, or one of MMD's other files (a project, an accessory, an effect…: mmd-family.ts): what it is, or null (a motion, a pose, a capture, a scene, a JSON motion: their own
 * messages; bytes that say nothing: the reader's "not a VMD file"). Plain text named .vpd or .json is null too
 * (a pose or a JSON motion gone wrong: its reader says where). New users drop a song or a texture renamed .vmd,
 * or notes, and were told only "not a VMD file (at byte 0)" (E_VMD_MAGIC); the app and the command line now
 * say what it is and what to do with it, in the same words (notAMotionMessage).
 */
export function notAMotion(name: string, bytes: Uint8Array): NotAMotion | null {
  const ext = extensionOf(name);
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const renamed = (to: string) => (ext ? base.slice(0, base.length - ext.length) : base) + to;
  const mmd = (f: MmdFamily): NotAMotion => ({ kind: 'mmd', format: MMD_FAMILY_FORMATS[f], rename: '', says: f });
  // An MMD project, a MikuMikuMoving motion, an accessory by their first bytes, whatever their name.
  const family = mmdFamilyByContent(bytes);
  if (family) return mmd(family);
  const kind = fileKindByContent(bytes);
  if (kind === 'wav' || kind === 'audio') {
    const c = kind === 'wav' ? 'wav' : audioContainerOf(bytes)!;
    const format = c === 'wav' ? 'WAV' : AUDIO_CONTAINER_NAMES[c];
    const to = MUSIC_EXTENSION[c];
    if (!to) return { kind: 'audio', format, rename: '', says: 'audioOther' };
    // A song already named as ♪ Music… takes it (song.mp3 given to the command line) needs no new name.
    if ((AUDIO_EXTENSIONS as readonly string[]).includes(ext)) return { kind: 'audio', format, rename: '', says: 'audio' };
    return { kind: 'audio', format, rename: renamed(to), says: 'audioRename' };
  }
  if (isImageKind(kind)) return { kind: 'image', format: IMAGE_FORMATS[kind], rename: '', says: 'image' };
  if (kind === 'pmx' || kind === 'pmd') {
    const format = kind.toUpperCase();
    if ((PMX_PMD_EXTENSIONS as readonly string[]).includes(ext)) return { kind: 'model', format, rename: '', says: 'model' };
    return { kind: 'model', format, rename: renamed(`.${kind}`), says: 'modelRename' };
  }
  if (kind === 'video') return { kind: 'video', format: VIDEO_CONTAINER_NAMES[videoContainerOf(bytes)!], rename: '', says: 'video' };
  if (kind !== null) return null;
  // The others (nanoem's, MME's text) by their name: an effect is text, but "plain text, not a motion" told its owner nothing.
  const named = mmdFamilyByName(name);
  if (named) return mmd(named);
  if (looksLikeTgaHeader(bytes)) return { kind: 'image', format: 'TGA', rename: '', says: 'image' };
  // Text starting as a motion or a pose does ("Vocaloid M", a VMD cut short) is a damaged one: the reader says so.
  const vocaloid = 'Vocaloid';
  if (startsWith(bytes, 0, vocaloid.slice(0, Math.min(bytes.length, vocaloid.length)))) return null;
  if (ext !== '.vpd' && ext !== '.json' && looksLikeText(bytes)) return { kind: 'text', format: '', rename: '', says: 'text' };
  return null;
}

/** What is said of a file that is not a motion (notAMotion), in English: the command line's message and the app's English line. */
export function notAMotionMessage(n: NotAMotion): string {
  return t(`err.notMotion.${n.says}`, 'en', { format: n.format, rename: n.rename });
}

/**
 * A file opened as a motion or a pose that is a song, an image, a model, a video or text (notAMotion), as the
 * error the app and the command line give it: E_VMD_MAGIC, as the VMD reader's refusal was, saying what it is
 * and what to do; `params` let the app say it in Japanese. No byte offset: the file is named as what it is, and
 * "at byte 0" told a new user nothing. Null when it is none of those.
 */
export function notAMotionError(name: string, bytes: Uint8Array, file?: string): CodecError | null {
  const n = notAMotion(name, bytes);
  if (!n) return null;
  return { code: 'E_VMD_MAGIC', message: notAMotionMessage(n), params: { notMotion: n.says, format: n.format, rename: n.rename }, ...(file !== undefined ? { file } : {}) };
}
