/**
 * File requests of the contract: open (bytes and the version read out), save (atomic; a .bak when asked, a file
 * changed on disk since refused: file-io.ts), folder listing for the in-app dialog, and model/texture reads for
 * the preview.
 */
import { promises as fsp, Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { emptyFileError, ensureFolder, ioError, ioErrorNamed, nonUtf8Name, notRegularFileError, rawPathOf, readHead, realTarget, utf8Name } from '../fs/files';
import type { CodecError } from '../../shared/vmd/errors';
import {
  errValue,
  okValue,
  FILE_HEAD_BYTES,
  type FileHead,
  type DirectoryEntry,
  type DirectoryListing,
  type FileFilter,
  type AssetNote,
  type IpcResult,
  type OpenedFile,
  type SavedFile,
  type SaveOptions,
} from '../../shared/ipc/contract';
import { MAX_MOTION_FILE_BYTES } from '../../shared/ipc/validate';
import type { RecentFilesService } from './recent-files';
import { createBackupSaver, readChecked } from './file-io';
import { readVmd, vmdLayoutFits } from '../../shared/vmd/vmd-reader';
import { looksLikeVpd, readVpd } from '../../shared/vmd/vpd';
import { FILTER_EXTENSIONS, hasExtension, MOCAP_EXTENSIONS, MODEL_EXTENSIONS, MOTION_EXTENSIONS, PMX_PMD_EXTENSIONS } from '../../shared/ipc/file-types';
import { fileKindByContent, looksLikeBvh, looksLikeGlb } from '../../shared/ipc/file-kind';
import { encodeSjis } from '../../shared/vmd/sjis';

/** What openFile reads: motions and poses, and captures for the import dialog (BVH, VRM Animation). */
const OPENED_EXTENSIONS = [...MOTION_EXTENSIONS, ...MOCAP_EXTENSIONS];
/** What a model may refer to: textures, sphere maps, toon maps. */
export const ASSET_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.bmp', '.tga', '.dds', '.gif', '.webp', '.spa', '.sph'];
/** Larger than any real motion or model; protects main from reading a disk image by mistake. */
export const MAX_READ_BYTES = 512 * 1024 * 1024;

export function extensionsOf(filter: FileFilter): readonly string[] | null {
  return FILTER_EXTENSIONS[filter];
}

export interface FileService {
  /** `recent: false`: read for a scene (an actor's motion, its camera), so not put on the recent list. */
  openFile(file: string, opts?: { recent?: boolean }): Promise<IpcResult<OpenedFile>>;
  saveFile(file: string, bytes: Uint8Array, opts?: SaveOptions): Promise<IpcResult<SavedFile>>;
  listDirectory(dir: string, opts?: { filter?: FileFilter; showHidden?: boolean }): Promise<IpcResult<DirectoryListing>>;
  readFileHead(file: string): Promise<IpcResult<FileHead>>;
  createFolder(dir: string): Promise<IpcResult<string>>;
  readModelFile(file: string, opts?: { recent?: boolean }): Promise<IpcResult<OpenedFile>>;
  readAsset(modelPath: string, relative: string): Promise<IpcResult<OpenedFile>>;
}

export interface FileServiceOptions {
  /** Recent list to update on open and save; optional for tests. */
  recent?: RecentFilesService;
  homeDir?: string;
}

/**
 * Finds `rel` under `base`, matching each segment case-insensitively when the exact name is missing:
 * models made on Windows often spell texture names with a different case than the files on disk.
 */
export async function resolveLoose(base: string, rel: string): Promise<string | null> {
  const exact = path.resolve(base, rel);
  try {
    await fsp.access(exact);
    return exact;
  } catch {
    /* try case-insensitively */
  }
  let cur = base;
  for (const seg of rel.split('/').filter((s) => s && s !== '.')) {
    if (seg === '..') {
      cur = path.dirname(cur);
      continue;
    }
    let names: string[];
    try {
      names = await fsp.readdir(cur);
    } catch {
      return null;
    }
    const hit = names.find((n) => n === seg) ?? names.find((n) => n.toLowerCase() === seg.toLowerCase());
    if (!hit) return null;
    cur = path.join(cur, hit);
  }
  return cur;
}

/** CP437's characters for bytes 0x80–0xFF: what Windows Explorer and many unzips make of Shift_JIS names on a non-Japanese system. */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';
const cp437 = (b: Uint8Array) => Array.from(b, (c) => (c < 0x80 ? String.fromCharCode(c) : CP437_HIGH[c - 0x80])).join('');
/** CP1252's characters for 0x80–0x9F (the rest is Latin-1); by table, since a Node built with small ICU reads windows-1252 as Latin-1. */
const CP1252_80 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const cp1252 = (b: Uint8Array) => Array.from(b, (c) => (c >= 0x80 && c < 0xa0 ? CP1252_80[c - 0x80] : String.fromCharCode(c))).join('');

/** Each code page's bytes by character, the tables above read backwards (ASCII stands for itself). */
const BYTE_OF = {
  cp437: new Map(Array.from(CP437_HIGH, (ch, i) => [ch, 0x80 + i] as const)),
  cp1252: new Map(Array.from({ length: 0x80 }, (_, i) => [cp1252(Uint8Array.of(0x80 + i)), 0x80 + i] as const)),
};
const JAPANESE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff01-\uff20\uff3b-\uff40\uff5b-\uffef]/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * The Shift_JIS name a UTF-8 name stands for when an unzip on a system that is not Japanese read a Shift_JIS zip's
 * name as CP437 or CP1252 ("âWâFâl.pmx" for ジェネ.pmx): its characters back to those bytes by the tables
 * locateAsset matches textures by, read as Shift_JIS. Null when the name has no such character, is not all of one
 * code page, its bytes are not Shift_JIS, or what they read is not a Japanese name: every character that is not
 * ASCII Japanese (kanji, kana, full-width punctuation and katakana; not full-width Latin letters), at least one
 * kana, and no fewer Japanese characters than ASCII letters. Accented Latin names read as Shift_JIS make kanji
 * or full-width letters among many ASCII ones ("Hélène", "Château"), seldom kana beside few letters.
 */
export function garbledSjisName(name: string): { name: string; as: 'cp437' | 'cp1252' } | null {
  const text = name.normalize('NFC');
  if (!/[^\x00-\x7f]/.test(text)) return null;
  for (const as of ['cp437', 'cp1252'] as const) {
    const bytes: number[] = [];
    for (const ch of text) {
      const b = ch < '\x80' ? ch.charCodeAt(0) : BYTE_OF[as].get(ch);
      if (b === undefined) break;
      bytes.push(b);
    }
    if (bytes.length !== [...text].length) continue;
    let read: string;
    try {
      read = new TextDecoder('shift_jis', { fatal: true }).decode(Uint8Array.from(bytes));
    } catch {
      continue;
    }
    const chars = [...read];
    const japanese = chars.filter((c) => JAPANESE.test(c)).length;
    const letters = chars.filter((c) => /[A-Za-z]/.test(c)).length;
    if (chars.every((c) => c < '\x80' || JAPANESE.test(c)) && KANA.test(read) && japanese >= letters) return { name: read, as };
  }
  return null;
}

/** The bounds of the search for a texture whose folder is not there (locateAsset): folders deep, entries looked at. */
export const ASSET_SEARCH_DEPTH = 3;
export const ASSET_SEARCH_ENTRIES = 2000;

export type LocatedAsset = { found: string | Buffer; note?: AssetNote } | { found: null; missingFolder?: string };

/**
 * Finds a texture as resolveLoose does, then where downloaded models put it instead (MMD finds neither, but they
 * are the usual cause of a white model, and the files are right there):
 * - a name garbled by unzipping a Shift_JIS zip: an entry whose name is the Shift_JIS bytes of the name the model
 *   stores (raw bytes, as Linux unzip leaves them), or those bytes read as CP437 or CP1252 (Windows Explorer and
 *   unzips on other systems), each part of the path so matched; the note says which;
 * - a folder that is not there (`light/` renamed `Textures/`, or the pictures moved beside the model): the file's
 *   name looked for without regard to case under the model's folder (ASSET_SEARCH_DEPTH folders deep, at most
 *   ASSET_SEARCH_ENTRIES entries, links to folders not followed) and used when exactly one matches; otherwise
 *   the missing folder is named.
 * Everything found lies under `base` by name; readAsset checks it with links resolved.
 */
export async function locateAsset(base: string, rel: string): Promise<LocatedAsset> {
  const plain = await resolveLoose(base, rel);
  if (plain) return { found: plain };
  const segs = rel.split('/').filter((s) => s && s !== '.');
  if (segs.includes('..')) return { found: null };
  // Each part by its name, else by its Shift_JIS bytes as they were left or misread.
  let cur = Buffer.from(base);
  const shown: string[] = [];
  let as: 'sjis-bytes' | 'cp437' | 'cp1252' | null = null;
  let missingAt = -1;
  for (let k = 0; k < segs.length; k++) {
    const seg = segs[k];
    let names: Buffer[];
    try {
      names = await fsp.readdir(cur, { encoding: 'buffer' });
    } catch {
      missingAt = k - 1;
      break;
    }
    const lower = seg.toLowerCase();
    let hit = names.find((n) => utf8Name(n)?.toLowerCase() === lower);
    if (!hit && /[^\x00-\x7f]/.test(seg)) {
      const sjis = Buffer.from(encodeSjis(seg));
      const asciiLower = (b: Uint8Array) => Buffer.from(b.map((c) => (c >= 0x41 && c <= 0x5a ? c + 32 : c)));
      const forms = [
        ['sjis-bytes', (n: Buffer) => asciiLower(n).equals(asciiLower(sjis))],
        ['cp437', (n: Buffer) => utf8Name(n)?.toLowerCase() === cp437(sjis).toLowerCase()],
        ['cp1252', (n: Buffer) => utf8Name(n)?.toLowerCase() === cp1252(sjis).toLowerCase()],
      ] as const;
      for (const [form, match] of forms) {
        hit = names.find(match);
        if (hit) {
          as ??= form;
          break;
        }
      }
    }
    if (!hit) {
      missingAt = k;
      break;
    }
    cur = Buffer.concat([cur, Buffer.from(path.sep), hit]);
    shown.push(utf8Name(hit) ?? nonUtf8Name(hit).name);
  }
  if (missingAt < 0 && as) {
    const text = utf8Name(cur);
    return { found: text ?? cur, note: { kind: 'encoding', found: shown.join('/'), as } };
  }
  // The file's own folder (or one above it) is not there: the one file of its name under the model's folder.
  if (missingAt >= 0 && missingAt < segs.length - 1) {
    const folder = segs.slice(0, missingAt + 1).join('/') + '/';
    const hits = await findByName(base, segs[segs.length - 1]);
    if (hits.length === 1) return { found: path.join(base, ...hits[0].split('/')), note: { kind: 'moved', folder, found: hits[0] } };
    return { found: null, missingFolder: folder };
  }
  return { found: null };
}

/** Files named `name` (without regard to case) under `base`, as paths relative to it: at most two (one is all that is used). */
async function findByName(base: string, name: string): Promise<string[]> {
  const want = name.toLowerCase();
  const hits: string[] = [];
  let seen = 0;
  let level: string[] = [''];
  for (let depth = 0; depth <= ASSET_SEARCH_DEPTH && level.length && hits.length < 2; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await fsp.readdir(path.join(base, dir), { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        if (++seen > ASSET_SEARCH_ENTRIES) return hits;
        const rel = dir ? `${dir}/${e.name}` : e.name;
        // A link is not followed: a linked folder may lead out of the model's folder (or round in a loop).
        if (e.isDirectory()) next.push(rel);
        else if ((e.isFile() || e.isSymbolicLink()) && e.name.toLowerCase() === want) hits.push(rel);
      }
    }
    level = depth < ASSET_SEARCH_DEPTH ? next : [];
  }
  return hits;
}

/** `~` and `~/…` (or `~\…`) name the home folder, as in a shell; '' is home too. */
export function expandHome(dir: string, home: string): string {
  if (dir === '' || dir === '~') return home;
  if (/^~[\\/]/.test(dir)) return path.join(home, dir.slice(2));
  return dir;
}

/**
 * A texture whose name is not UTF-8 (Shift_JIS bytes left by an unzip): read by its bytes, since no path string
 * names it. The same checks as readChecked's: an asset's extension, a regular file, the size bound.
 */
async function readRawNamed(file: Buffer, shown: string): Promise<IpcResult<OpenedFile>> {
  if (!ASSET_EXTENSIONS.includes(path.extname(shown).toLowerCase())) return errValue('E_UNSUPPORTED', `not a texture file: ${path.basename(shown)}`, { file: shown });
  try {
    const st = await fsp.stat(file);
    if (!st.isFile()) return { ok: false, error: notRegularFileError(shown, st) };
    if (st.size > MAX_READ_BYTES) return errValue('E_UNSUPPORTED', `too large for a texture: ${path.basename(shown)}`, { file: shown });
    const bytes = await fsp.readFile(file);
    return okValue({ path: shown, name: path.basename(shown), bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
  } catch (e) {
    return { ok: false, error: ioError(e, shown) };
  }
}

/** A listing failure in words: a file in the way is E_IO_NOT_DIR, not Node's raw ENOTDIR. */
function listingError(e: unknown, abs: string): CodecError {
  if ((e as NodeJS.ErrnoException)?.code === 'ENOTDIR') return { code: 'E_IO_NOT_DIR', message: 'not a folder (a part of the path is a file)', file: abs };
  return ioError(e, abs);
}

/** A motion up to this size is parsed whole for the recent list: a few milliseconds at most. */
const RECENT_PARSE_BYTES = 1024 * 1024;

/**
 * Whether the bytes read as the motion format the name says (.vpd a pose, else a VMD), for the recent
 * list, in a time that does not grow with the file: a file up to RECENT_PARSE_BYTES is parsed; a larger one
 * is judged by a VPD's first line or a VMD's header and block sizes. Parsing a large file here held every
 * other request (a 91 MiB pose: 23 s); the editor parses it anyway and says what is wrong with a file that
 * only starts well.
 */
function readsAsMotion(file: string, bytes: Uint8Array): boolean {
  // A capture is judged by its first bytes: a BVH's HIERARCHY keyword, a .vrma's binary glTF magic (the
  // import dialog reads the rest, and says what is wrong with it).
  if (hasExtension(file, ['.bvh'])) return looksLikeBvh(bytes);
  if (hasExtension(file, ['.vrma'])) return bytes.byteLength >= 12 && looksLikeGlb(bytes);
  const pose = hasExtension(file, ['.vpd']);
  if (bytes.byteLength <= RECENT_PARSE_BYTES) return pose ? readVpd(bytes).ok : readVmd(bytes).ok;
  return pose ? looksLikeVpd(bytes) : vmdLayoutFits(bytes);
}

/** First bytes of a VMD motion or a VPD pose (fileKindByContent: "Vocaloid Motion Data", "Vocaloid Pose Data file"). */
function isMotionHead(head: Uint8Array): boolean {
  const kind = fileKindByContent(head);
  return kind === 'vmd' || kind === 'vpd';
}

export function createFileService(opts: FileServiceOptions = {}): FileService {
  /** Saves keep a .bak of a replaced file when asked (file-io.ts createBackupSaver; never through a link). */
  const save = createBackupSaver();
  const home = opts.homeDir ?? os.homedir();
  return {
    async openFile(file, o = {}) {
      // A VMD or VPD under another name (a dance renamed .mvd) by its first bytes, as a drop opens it (app-actions.ts).
      const r = await readChecked(file, OPENED_EXTENSIONS, 'a VMD, VPD, BVH or VRM Animation file', MAX_MOTION_FILE_BYTES, { stamp: true, byContent: isMotionHead });
      // Recent files are files that open: one that does not read as its format stays off the list, and
      // one that is gone comes off it (the editor says why in either case). A file a scene reads for an actor
      // (recent: false) stays off it: the person opened the scene, which heads the list (MMD lists the .pmm,
      // not the motions it loads), and five motions above it would push it and others off the list.
      if (r.ok && o.recent !== false && readsAsMotion(r.value.path, r.value.bytes)) await opts.recent?.add(r.value.path).catch(() => undefined);
      else if (!r.ok && r.error.code === 'E_IO_NOT_FOUND') await opts.recent?.remove(file).catch(() => undefined);
      return r;
    },

    async saveFile(file, bytes, o = {}) {
      const abs = path.resolve(file);
      if (!hasExtension(abs, MOTION_EXTENSIONS)) {
        return errValue('E_UNSUPPORTED', `save as .vmd or .vpd: ${path.basename(abs)}`, { file: abs });
      }
      const r = await save(abs, bytes, o);
      if (r.ok) {
        r.value.realPath = await realTarget(abs);
        await opts.recent?.add(abs).catch(() => undefined);
      }
      return r;
    },

    async readFileHead(file) {
      const abs = path.resolve(expandHome(file, home));
      const r = await readHead(abs, FILE_HEAD_BYTES);
      if (!r.ok) return r;
      // An empty array cannot cross the browser mode's frame, and an empty file is no kind at all.
      if (r.value.byteLength === 0) return { ok: false, error: emptyFileError(abs) };
      return okValue({ path: abs, bytes: r.value });
    },

    async createFolder(dir) {
      // An absolute path (or ~): the dialog sends the folder it shows joined with the name typed.
      const typed = expandHome(dir, home);
      if (!path.isAbsolute(typed)) return errValue('E_ARGUMENT', `not an absolute path: ${dir}`, { file: dir });
      const abs = path.resolve(typed);
      const made = await ensureFolder(abs);
      return made.ok ? okValue(abs) : made;
    },

    async listDirectory(dir, o = {}) {
      let abs = path.resolve(expandHome(dir, home));
      const exts = extensionsOf(o.filter ?? 'motion');
      let selected: string | undefined;
      // A folder on the way whose name is not UTF-8 (a Shift_JIS name) is reached by its bytes.
      let at: string | Buffer = abs.includes('\uFFFD') ? ((await rawPathOf(abs)) ?? abs) : abs;
      let dirents: import('node:fs').Dirent<Buffer>[];
      try {
        // A file's path lists its folder with the file selected (as a typed path does in OS dialogs).
        if (!(await fsp.stat(at)).isDirectory()) {
          selected = abs;
          abs = path.dirname(abs);
          at = typeof at === 'string' ? abs : at.subarray(0, Math.max(1, at.lastIndexOf(path.sep.charCodeAt(0))));
        }
        // As bytes: a name that is not UTF-8 would otherwise turn into U+FFFD and be stat-ed as no file (0 B).
        dirents = await fsp.readdir(at, { withFileTypes: true, encoding: 'buffer' });
      } catch (e) {
        return { ok: false, error: (e as NodeJS.ErrnoException)?.code === 'ENOENT' ? await ioErrorNamed(e, abs) : listingError(e, abs) };
      }
      const atBytes = typeof at === 'string' ? Buffer.from(at) : at;
      const entries: DirectoryEntry[] = [];
      for (const d of dirents) {
        const text = utf8Name(d.name);
        const bad = text === null ? nonUtf8Name(d.name) : null;
        const shown = text ?? bad!.name;
        if (!o.showHidden && shown.startsWith('.')) continue;
        const name = text ?? d.name.toString('utf8');
        const p = path.join(abs, name);
        let isDir = d.isDirectory();
        let st: import('node:fs').Stats | null = null;
        try {
          // By its bytes (a name that is not UTF-8 has its real size); follows symlinks, so linked folders list as folders.
          st = await fsp.stat(Buffer.concat([atBytes, Buffer.from(path.sep), d.name]));
          isDir = st.isDirectory();
        } catch {
          if (d.isSymbolicLink()) continue; // dangling link
        }
        if (!isDir && exts && !exts.includes(path.extname(shown).toLowerCase())) continue;
        const entry: DirectoryEntry = { name, path: p, kind: isDir ? 'dir' : 'file', size: isDir ? 0 : (st?.size ?? 0), mtimeMs: st?.mtimeMs ?? 0 };
        if (bad) entry.notUtf8 = { shownName: bad.name, as: bad.sjis ? 'sjis' : 'other' };
        // A Shift_JIS name an unzip read as CP437/CP1252: it opens, but the dialog says what it stands for.
        const garbled = text === null ? null : garbledSjisName(text);
        if (garbled) entry.garbledSjis = garbled;
        entries.push(entry);
      }
      const coll = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
      const nameOf = (e: DirectoryEntry) => e.notUtf8?.shownName ?? e.name;
      entries.sort((a, b) => (a.kind === b.kind ? coll.compare(nameOf(a), nameOf(b)) : a.kind === 'dir' ? -1 : 1));
      const parent = path.dirname(abs);
      return okValue({ path: abs, parent: parent === abs ? null : parent, entries, ...(selected ? { selected } : {}) });
    },

    async readModelFile(file, o = {}) {
      const r = await readChecked(file, MODEL_EXTENSIONS, 'a model file', MAX_READ_BYTES);
      // A model the person opened goes on the recent list as a motion does (Open Recent reopens it as a model),
      // when it reads as a PMX or PMD model; one that is gone comes off it.
      if (o.recent && r.ok && hasExtension(r.value.path, PMX_PMD_EXTENSIONS)) {
        const kind = fileKindByContent(r.value.bytes);
        if (kind === 'pmx' || kind === 'pmd') await opts.recent?.add(r.value.path).catch(() => undefined);
      } else if (o.recent && !r.ok && r.error.code === 'E_IO_NOT_FOUND') await opts.recent?.remove(file).catch(() => undefined);
      return r;
    },

    async readAsset(modelPath, relative) {
      const model = path.resolve(modelPath);
      const base = path.dirname(model);
      const rel = relative.replace(/\\/g, '/');
      if (path.isAbsolute(rel) || /^[a-zA-Z]:\//.test(rel)) return errValue('E_ARGUMENT', 'asset path must be relative to the model', { file: relative });
      const ext = path.extname(rel).toLowerCase();
      if (!ASSET_EXTENSIONS.includes(ext)) return errValue('E_UNSUPPORTED', `not a texture file: ${relative}`, { file: relative });
      // Textures belong to a model that is there: a model's folder is not a way into the disk by itself
      // (naming /nonexistent.pmx made every picture readable).
      if (!hasExtension(model, MODEL_EXTENSIONS)) return errValue('E_UNSUPPORTED', `not a model file: ${path.basename(model)}`, { file: model });
      const st = await fsp.stat(model).catch((e: unknown) => e as NodeJS.ErrnoException);
      if (!(st instanceof Stats)) return { ok: false, error: { ...ioError(st, model), message: `the model is not there: ${ioError(st, model).message}` } };
      if (!st.isFile()) return { ok: false, error: notRegularFileError(model, st) };
      const located = await locateAsset(base, rel);
      if (located.found === null) {
        const file = path.resolve(base, rel);
        // The folder the model names is not there (and its file is not elsewhere once): say so, it is what to rename.
        if (located.missingFolder) return { ok: false, error: { code: 'E_IO_NOT_FOUND', message: `folder ${located.missingFolder} not found`, file, params: { folder: located.missingFolder } } };
        return errValue('E_IO_NOT_FOUND', 'no such file or folder', { file });
      }
      const { found, note } = located;
      const shownPath = typeof found === 'string' ? found : (utf8Name(found) ?? found.toString('utf8'));
      // A texture named inside the model's folder is inside it once links are resolved too: a link there that
      // points out of it reaches nothing; so is one found elsewhere in it. (One named outside it with `..` is the
      // access list's to refuse.)
      const named = path.relative(base, path.resolve(base, rel));
      if (note || (!named.startsWith('..') && !path.isAbsolute(named))) {
        const realBase = await fsp.realpath(base);
        const inside =
          typeof found === 'string'
            ? ((r) => r !== '' && !r.startsWith('..') && !path.isAbsolute(r))(path.relative(realBase, await realTarget(found)))
            : await fsp.realpath(found, { encoding: 'buffer' }).then((r) => r.subarray(0, realBase.length + 1).equals(Buffer.from(realBase + path.sep)), () => false);
        if (!inside) return errValue('E_IO_DENIED', "readAsset: the texture's file lies outside the model's folder (through a link)", { file: shownPath });
      }
      const r = typeof found === 'string' ? await readChecked(found, ASSET_EXTENSIONS, 'a texture file', MAX_READ_BYTES) : await readRawNamed(found, shownPath);
      return r.ok && note ? okValue({ ...r.value, assetNote: note }) : r;
    },
  };
}
