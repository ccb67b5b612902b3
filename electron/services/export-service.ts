/**
 * Streamed exports (a video, or one picture of a PNG sequence): the renderer encodes and muxes, and main
 * writes what it is sent, chunk by chunk at the positions the muxer asks for, into a temp file beside the
 * target (temp-files.ts names it); `finish` syncs it and renames it into place, `abort` removes it. So a
 * cancelled or failed export never leaves a partial file at the chosen name, and the whole video is never
 * held in memory, here or in the renderer. Temps still open when the process ends are removed (holdTemp).
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { errValue, okValue, type IpcResult, type SavedFile } from '../../shared/ipc/contract';
import { freeBytes, holdTemp, ioError, outputExistsError, pathExists, releaseTemp, tempPathFor, writeTargetOf } from '../fs/files';
import { sweepStaleTemps } from '../fs/temp-files';
import { EXPORT_EXTENSIONS } from '../../shared/ipc/validate';

interface OpenExport {
  target: string;
  temp: string;
  fh: import('node:fs/promises').FileHandle;
  overwrite: boolean;
  written: number;
}

export interface ExportService {
  begin(target: string, opts?: { overwrite?: boolean }): Promise<IpcResult<{ id: string }>>;
  write(id: string, position: number, bytes: Uint8Array): Promise<IpcResult<void>>;
  finish(id: string): Promise<IpcResult<SavedFile>>;
  abort(id: string): Promise<IpcResult<void>>;
  /** The space left on the disk `target` would be written to (its folder's), in bytes; null: no figure. */
  diskSpace(target: string): Promise<IpcResult<{ freeBytes: number } | null>>;
  /** Exports still open (tests). */
  readonly open: number;
}

export function createExportService(): ExportService {
  const open = new Map<string, OpenExport>();
  const drop = async (id: string, e: OpenExport) => {
    open.delete(id);
    await e.fh.close().catch(() => undefined);
    await fsp.unlink(e.temp).catch(() => undefined);
    releaseTemp(e.temp);
  };
  return {
    get open() {
      return open.size;
    },
    async begin(file, o = {}) {
      // Never against this process's working folder: a relative name landed in the folder the server was
      // started from (the repository) and was reported as written there. The dialog makes names absolute.
      if (!path.isAbsolute(file)) {
        return errValue('E_ARGUMENT', `${file}: a relative path; give the full path of the file to write`, { file });
      }
      const abs = path.normalize(file);
      const ext = path.extname(abs).toLowerCase();
      if (!EXPORT_EXTENSIONS.includes(ext)) {
        const said = ext ? `a ${ext} file` : 'a name without an extension';
        return errValue('E_UNSUPPORTED', `${path.basename(abs)}: ${said}; a video is written as .mp4 or .webm, a PNG sequence as .png`, { file: abs });
      }
      // A missing folder is named as such (ENOENT at the temp's creation read "file not found" about the video).
      const folder = path.dirname(abs);
      const st = await fsp.stat(folder).catch((e: NodeJS.ErrnoException) => e);
      if (st instanceof Error) {
        if (st.code === 'ENOENT') return errValue('E_IO_NOT_FOUND', `the folder ${folder} does not exist`, { file: folder });
        if (st.code === 'ENOTDIR') return errValue('E_IO_NOT_DIR', `${folder}: a part of the path is a file, not a folder`, { file: folder });
      } else if (!st.isDirectory()) return errValue('E_IO_NOT_DIR', `${folder} is a file, not a folder`, { file: folder });
      let target: string;
      try {
        target = await writeTargetOf(abs);
      } catch (e) {
        return { ok: false, error: ioError(e, abs) };
      }
      if (!o.overwrite && (await pathExists(target))) return { ok: false, error: outputExistsError(abs) };
      await sweepStaleTemps([path.dirname(target)]);
      const temp = tempPathFor(target);
      try {
        const fh = await fsp.open(temp, 'wx', 0o666);
        holdTemp(temp);
        const id = randomBytes(12).toString('hex');
        open.set(id, { target, temp, fh, overwrite: !!o.overwrite, written: 0 });
        return okValue({ id });
      } catch (e) {
        return { ok: false, error: ioError(e, abs) };
      }
    },
    async write(id, position, bytes) {
      const e = open.get(id);
      if (!e) return errValue('E_ARGUMENT', 'no such export (finished, aborted or never begun)');
      try {
        let done = 0;
        while (done < bytes.byteLength) {
          const r = await e.fh.write(bytes, done, bytes.byteLength - done, position + done);
          done += r.bytesWritten;
        }
        e.written += bytes.byteLength;
        return okValue(undefined);
      } catch (err) {
        await drop(id, e);
        return { ok: false, error: ioError(err, e.target) };
      }
    },
    async finish(id) {
      const e = open.get(id);
      if (!e) return errValue('E_ARGUMENT', 'no such export (finished, aborted or never begun)');
      try {
        const size = (await e.fh.stat()).size;
        await e.fh.sync();
        await e.fh.close();
        if (e.overwrite) await fsp.rename(e.temp, e.target);
        else {
          try {
            // link() fails when the target appeared meanwhile: it is not replaced.
            await fsp.link(e.temp, e.target);
            await fsp.unlink(e.temp);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'EEXIST' || (await pathExists(e.target))) {
              await drop(id, e);
              return { ok: false, error: outputExistsError(e.target) };
            }
            await fsp.rename(e.temp, e.target);
          }
        }
        open.delete(id);
        releaseTemp(e.temp);
        return okValue({ path: e.target, bytesWritten: size, backupPath: null });
      } catch (err) {
        await drop(id, e);
        return { ok: false, error: ioError(err, e.target) };
      }
    },
    async abort(id) {
      const e = open.get(id);
      if (e) await drop(id, e);
      return okValue(undefined);
    },
    async diskSpace(file) {
      // A relative name has no folder of its own here (begin refuses it too): no figure, and the dialog says nothing.
      if (!path.isAbsolute(file)) return okValue(null);
      const free = await freeBytes(path.dirname(path.normalize(file)));
      return okValue(free === null ? null : { freeBytes: free });
    },
  };
}
