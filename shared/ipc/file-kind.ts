/**
 * What a file is — a VMD motion, a VPD pose, a PMX or PMD model, a BVH capture, a VRM Animation — by its
 * first bytes where they say, else by its extension (file-types.ts). The one place the command line and the
 * batch ask before choosing a reader, so a file of another kind is named as what it is ("a PMX model, not a
 * VMD motion") instead of failing the wrong reader's magic check, and a damaged .vmd stays a VMD problem.
 */
import { isVmd } from '../vmd/vmd-reader';
import { looksLikeVpd } from '../vmd/vpd';
import { isPmx } from '../pmx/pmx-reader';
import { isPmd } from '../pmx/pmd-reader';
import { extensionOf } from './file-types';
import type { CodecError } from '../vmd/errors';

export type FileKind = 'vmd' | 'vpd' | 'json' | 'pmx' | 'pmd' | 'bvh' | 'vrma';

/** Each kind as a sentence names it. */
export const FILE_KIND_NAMES: Readonly<Record<FileKind, string>> = {
  vmd: 'a VMD motion',
  vpd: 'a VPD pose',
  json: 'a motion as JSON',
  pmx: 'a PMX model',
  pmd: 'a PMD model',
  bvh: 'a BVH capture',
  vrma: 'a VRM Animation',
};

const EXTENSION_KINDS: Readonly<Record<string, FileKind>> = {
  '.vmd': 'vmd',
  '.vpd': 'vpd',
  '.json': 'json',
  '.pmx': 'pmx',
  '.pmd': 'pmd',
  '.bvh': 'bvh',
  '.vrma': 'vrma',
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

/** The kind the first bytes say (each format's magic), or null when they say none. JSON is never recognised here. */
export function fileKindByContent(bytes: Uint8Array): FileKind | null {
  if (isVmd(bytes)) return 'vmd';
  if (looksLikeVpd(bytes)) return 'vpd';
  if (isPmx(bytes)) return 'pmx';
  if (isPmd(bytes)) return 'pmd';
  if (looksLikeGlb(bytes)) return 'vrma';
  if (looksLikeBvh(bytes)) return 'bvh';
  return null;
}

/** The refusal of a file neither its first bytes nor its name say a kind of, by a reader of motions and poses. */
export const NEITHER_MOTION_NOR_POSE: CodecError = { code: 'E_VMD_MAGIC', message: 'not a VMD motion or a VPD pose: it starts with neither "Vocaloid Motion Data" nor "Vocaloid Pose Data file"', offset: 0 };

/** What the file is: its content's kind where the first bytes say, else its name's; null when neither says. */
export function fileKindOf(name: string, bytes: Uint8Array): FileKind | null {
  return fileKindByContent(bytes) ?? fileKindByName(name);
}
