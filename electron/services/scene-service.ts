/**
 * Scene and music file requests of the contract: open a scene file (bytes out; the renderer parses it with
 * shared/scene), save one atomically (refusing bytes that are not a scene), and read an audio file's bytes
 * for the renderer to decode with Web Audio. Like file-service.ts, plain Node with no Electron, so the
 * tests run it against temp folders.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { atomicWrite, ioError, readBytes } from '../fs/files';
import { errValue, okValue, type IpcResult, type OpenedFile, type SavedFile, type SaveOptions } from '../../shared/ipc/contract';
import { parseScene, SCENE_EXTENSION } from '../../shared/scene/scene-file';
import type { RecentFilesService } from './recent-files';
import { AUDIO_EXTENSIONS, hasExtension, SCENE_EXTENSIONS } from '../../shared/ipc/file-types';

/** A scene file names a few paths; anything near this size is not one. */
export const MAX_SCENE_BYTES = 4 * 1024 * 1024;
/** A long song as 32-bit float WAV at 96 kHz stereo is ~46 MB a minute; this allows ~10 minutes. */
export const MAX_AUDIO_BYTES = 512 * 1024 * 1024;

export interface SceneService {
  openScene(file: string): Promise<IpcResult<OpenedFile>>;
  saveScene(file: string, bytes: Uint8Array, opts?: SaveOptions): Promise<IpcResult<SavedFile>>;
  readAudioFile(file: string): Promise<IpcResult<OpenedFile>>;
}

export interface SceneServiceOptions {
  /** Recent list: opened and saved scenes go in (Recent Scenes filters it by extension). */
  recent?: RecentFilesService;
}

async function readLimited(file: string, exts: readonly string[], what: string, maxBytes: number): Promise<IpcResult<OpenedFile>> {
  const abs = path.resolve(file);
  if (!exts.includes(path.extname(abs).toLowerCase())) {
    return errValue('E_UNSUPPORTED', `not ${what} (${exts.join(', ')}): ${path.basename(abs)}`, { file: abs });
  }
  try {
    const st = await fsp.stat(abs);
    if (st.isDirectory()) return errValue('E_IO', 'is a folder, not a file', { file: abs });
    if (st.size > maxBytes) return errValue('E_IO', `file is too large (${st.size} bytes; at most ${maxBytes})`, { file: abs });
    if (st.size === 0) return errValue('E_IO', 'the file is empty (0 bytes)', { file: abs });
  } catch (e) {
    return { ok: false, error: ioError(e, abs) };
  }
  const r = await readBytes(abs);
  if (!r.ok) return r;
  return okValue({ path: abs, name: path.basename(abs), bytes: r.value });
}

export function createSceneService(opts: SceneServiceOptions = {}): SceneService {
  /** Scene files this session already backed up (the .bak is the file as it was before this session). */
  const backedUp = new Set<string>();
  return {
    async openScene(file) {
      const r = await readLimited(file, SCENE_EXTENSIONS, 'a scene file', MAX_SCENE_BYTES);
      if (r.ok) await opts.recent?.add(r.value.path).catch(() => undefined);
      return r;
    },

    async saveScene(file, bytes, o = {}) {
      const abs = path.resolve(file);
      if (!hasExtension(abs, SCENE_EXTENSIONS)) {
        return errValue('E_UNSUPPORTED', `save a scene as ${SCENE_EXTENSION}: ${path.basename(abs)}`, { file: abs });
      }
      if (bytes.length > MAX_SCENE_BYTES) return errValue('E_ARGUMENT', `a scene file of ${bytes.length} bytes is larger than ${MAX_SCENE_BYTES}`, { file: abs });
      // Never write something that would not open again: the bytes must parse as a scene.
      const parsed = parseScene(bytes, abs);
      if (!parsed.ok) return { ok: false, error: { ...parsed.error, file: abs } };
      let exists = false;
      try {
        const st = await fsp.stat(abs);
        if (st.isDirectory()) return errValue('E_IO', 'is a folder, not a file', { file: abs });
        exists = true;
      } catch {
        /* new file */
      }
      if (exists && !o.overwrite) return errValue('E_IO_EXISTS', 'the file exists', { file: abs });
      let backupPath: string | null = null;
      if (exists && o.backup && !backedUp.has(abs)) {
        const prev = await readBytes(abs);
        if (!prev.ok) return prev;
        const w = await atomicWrite(abs + '.bak', prev.value, { overwrite: true });
        if (!w.ok) return w;
        backupPath = abs + '.bak';
      }
      const w = await atomicWrite(abs, bytes, { overwrite: !!o.overwrite });
      if (!w.ok) return w;
      if (exists && o.backup) backedUp.add(abs);
      await opts.recent?.add(abs).catch(() => undefined);
      return okValue({ path: abs, bytesWritten: bytes.length, backupPath });
    },

    readAudioFile: (file) => readLimited(file, AUDIO_EXTENSIONS, 'an audio file', MAX_AUDIO_BYTES),
  };
}
