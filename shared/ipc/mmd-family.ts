/**
 * The files of MMD and its neighbours that VMD Studio does not read, and people coming from them hand it: an MMD
 * project (.pmm), a MikuMikuMoving motion (.mvd), a nanoem project (.nmm, .nma) or motion (.nmd), an accessory
 * (DirectX .x; MMD's .vac names one), an MME effect (.fx, .fxsub; .emm and .emd map effects to objects). They
 * were refused as "not a kind of file the app opens" (a drop, the CLI: "not a VMD motion", or "plain text, not a
 * motion" for an effect), and Open… with such a path typed did nothing (new-user pass numigrate 3, 4); each is now
 * named as what it is, with what to do instead (error-strings.ts `err.notMotion.<kind>`: the drop's notice, the
 * file dialog's line, a motion read that is one, and `inspect`).
 *
 * Known by their first bytes where the format has a signature, else by the extension:
 *   "Polygon Movie maker"     .pmm (MMD writes "Polygon Movie maker 0002")
 *   "Motion Vector Data file" .mvd (30-byte field)
 *   "xof "                    .x   (DirectX: "xof 0302txt 0032", or bin / tzip / bzip)
 * nanoem's files are protocol buffers and MME's text: no signature, the extension alone.
 * Bytes that are a format the app reads (a VMD renamed .mvd) are that format, never one of these (file-kind.ts
 * mmdFamilyOfFile).
 */
import { extensionOf } from './file-types';

export type MmdFamily = 'pmm' | 'mvd' | 'nanoem' | 'nanoemMotion' | 'accessory' | 'effect';

const BY_EXTENSION: Readonly<Record<string, MmdFamily>> = {
  '.pmm': 'pmm',
  '.mvd': 'mvd',
  '.nmm': 'nanoem',
  '.nma': 'nanoem',
  '.nmd': 'nanoemMotion',
  '.x': 'accessory',
  '.vac': 'accessory',
  '.fx': 'effect',
  '.fxsub': 'effect',
  '.emm': 'effect',
  '.emd': 'effect',
};

/** Each kind's format as the messages name it (the params' `format`). */
export const MMD_FAMILY_FORMATS: Readonly<Record<MmdFamily, string>> = {
  pmm: 'PMM', mvd: 'MVD', nanoem: 'nanoem', nanoemMotion: 'NMD', accessory: 'X', effect: 'MME',
};

const startsWith = (b: Uint8Array, magic: string): boolean => {
  if (b.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (b[i] !== magic.charCodeAt(i)) return false;
  return true;
};

/** The kind the first bytes say (the three with a signature), or null. */
export function mmdFamilyByContent(b: Uint8Array): MmdFamily | null {
  if (startsWith(b, 'Polygon Movie maker')) return 'pmm';
  if (startsWith(b, 'Motion Vector Data file')) return 'mvd';
  if (startsWith(b, 'xof ')) return 'accessory';
  return null;
}

/** The kind a file's name says by its extension, or null. */
export function mmdFamilyByName(name: string): MmdFamily | null {
  return BY_EXTENSION[extensionOf(name)] ?? null;
}
