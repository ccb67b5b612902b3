/**
 * Scene and music file requests of the contract: open a scene file (bytes out, and the files it names found
 * beside it when they are not where it names them; the renderer parses it with shared/scene), save one atomically (refusing bytes that are not a scene), and read an audio file's bytes
 * for the renderer to decode with Web Audio. Like file-service.ts, plain Node with no Electron, so the
 * tests run it against temp folders.
 */
import path from 'node:path';
import { errValue, type IpcResult, type OpenedFile, type OpenedScene, type SavedFile, type SaveOptions } from '../../shared/ipc/contract';
import { parseScene, SCENE_EXTENSION } from '../../shared/scene/scene-file';
import type { RecentFilesService } from './recent-files';
import { createBackupSaver, readChecked } from './file-io';
import { locateOnDisk } from './scene-locate';
import { AUDIO_EXTENSIONS, hasExtension, SCENE_EXTENSIONS } from '../../shared/ipc/file-types';
import { MAX_SCENE_FILE_BYTES } from '../../shared/ipc/validate';

/** A scene file names a few paths; anything near this size is not one (the server's and the validator's bound too). */
export const MAX_SCENE_BYTES = MAX_SCENE_FILE_BYTES;
/** A long song as 32-bit float WAV at 96 kHz stereo is ~46 MB a minute; this allows ~10 minutes. */
export const MAX_AUDIO_BYTES = 512 * 1024 * 1024;

export interface SceneService {
  openScene(file: string): Promise<IpcResult<OpenedScene>>;
  saveScene(file: string, bytes: Uint8Array, opts?: SaveOptions): Promise<IpcResult<SavedFile>>;
  readAudioFile(file: string): Promise<IpcResult<OpenedFile>>;
}

export interface SceneServiceOptions {
  /** Recent list: opened and saved scenes go in (Recent Scenes filters it by extension). */
  recent?: RecentFilesService;
}

export function createSceneService(opts: SceneServiceOptions = {}): SceneService {
  const save = createBackupSaver();
  return {
    async openScene(file) {
      const r = await readChecked(file, SCENE_EXTENSIONS, 'a scene file', MAX_SCENE_BYTES, { stamp: true });
      if (!r.ok) {
        // A scene that is gone comes off the recent list, as a motion does (the renderer says so).
        if (r.error.code === 'E_IO_NOT_FOUND') await opts.recent?.remove(file).catch(() => undefined);
        return r;
      }
      await opts.recent?.add(r.value.path).catch(() => undefined);
      // A file the scene names that is not there as written may lie beside it (a friend's absolute paths, a
      // name in another case): found here, granted by access.ts for its role, used by the renderer.
      const parsed = parseScene(r.value.bytes, r.value.path);
      const located = parsed.ok ? await locateOnDisk(parsed.value, r.value.path) : [];
      return located.length ? { ok: true, value: { ...r.value, located } } : r;
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
      const r = await save(abs, bytes, o);
      if (r.ok) await opts.recent?.add(abs).catch(() => undefined);
      return r;
    },

    readAudioFile: (file) => readChecked(file, AUDIO_EXTENSIONS, 'an audio file', MAX_AUDIO_BYTES),
  };
}
