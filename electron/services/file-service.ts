/**
 * File requests of the contract: open (bytes and the version read out), save (atomic; a .bak when asked, a file
 * changed on disk since refused: file-io.ts), folder listing for the in-app dialog, and model/texture reads for
 * the preview.
 */
import { promises as fsp, Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureFolder, ioError, ioErrorNamed, nonUtf8Name, notRegularFileError, rawPathOf, realTarget, utf8Name } from '../fs/files';
import type { CodecError } from '../../shared/vmd/errors';
import {
  errValue,
  okValue,
  type DirectoryEntry,
  type DirectoryListing,
  type FileFilter,
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

/** `~` and `~/…` (or `~\…`) name the home folder, as in a shell; '' is home too. */
export function expandHome(dir: string, home: string): string {
  if (dir === '' || dir === '~') return home;
  if (/^~[\\/]/.test(dir)) return path.join(home, dir.slice(2));
  return dir;
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

export function createFileService(opts: FileServiceOptions = {}): FileService {
  /** Saves keep a .bak of a replaced file when asked (file-io.ts createBackupSaver; never through a link). */
  const save = createBackupSaver();
  const home = opts.homeDir ?? os.homedir();
  return {
    async openFile(file, o = {}) {
      const r = await readChecked(file, OPENED_EXTENSIONS, 'a VMD, VPD, BVH or VRM Animation file', MAX_MOTION_FILE_BYTES, { stamp: true });
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
      const found = await resolveLoose(base, rel);
      if (!found) return errValue('E_IO_NOT_FOUND', 'no such file or folder', { file: path.resolve(base, rel) });
      // A texture named inside the model's folder is inside it once links are resolved too: a link there that
      // points out of it reaches nothing. (One named outside it with `..` is the access list's to refuse.)
      const named = path.relative(base, path.resolve(base, rel));
      if (!named.startsWith('..') && !path.isAbsolute(named)) {
        const [realBase, realFound] = await Promise.all([fsp.realpath(base), realTarget(found)]);
        const r = path.relative(realBase, realFound);
        if (r === '' || r.startsWith('..') || path.isAbsolute(r)) return errValue('E_IO_DENIED', "readAsset: the texture's file lies outside the model's folder (through a link)", { file: found });
      }
      return readChecked(found, ASSET_EXTENSIONS, 'a texture file', MAX_READ_BYTES);
    },
  };
}
