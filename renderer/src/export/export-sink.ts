/**
 * Where an export's bytes go: main (Electron IPC or the browser mode's server, the same contract calls)
 * writes them into a temp file beside the chosen name and renames it at the end (electron/services/
 * export-service.ts). `writable` is the WritableStream mediabunny's StreamTarget writes into: each chunk
 * goes out as one request at its byte position, awaited, so the muxer waits for the disk (backpressure)
 * and nothing piles up in memory.
 */
import type { StreamTargetChunk } from 'mediabunny';
import type { IpcError, IpcResult, Requests, SavedFile } from '../../../shared/ipc/contract';

type ExportApi = Pick<Requests, 'beginExportFile' | 'writeExportChunk' | 'finishExportFile' | 'abortExportFile'>;

/** An error value from main, carried through the streams as a throw and turned back into a value. */
export class ExportIoError extends Error {
  constructor(readonly error: IpcError) {
    super(error.message);
  }
}

export interface ExportSink {
  readonly writable: WritableStream<StreamTargetChunk>;
  /** Bytes sent so far. */
  readonly bytes: number;
  /** Renames the temp into place. */
  finish(): Promise<IpcResult<SavedFile>>;
  /** Removes the temp (nothing appears at the chosen name). */
  abort(): Promise<void>;
}

export async function openExportSink(api: ExportApi, path: string, overwrite: boolean): Promise<IpcResult<ExportSink>> {
  const begun = await api.beginExportFile(path, { overwrite });
  if (!begun.ok) return begun;
  const id = begun.value.id;
  let bytes = 0;
  let closed = false;
  const writable = new WritableStream<StreamTargetChunk>({
    async write(chunk) {
      const r = await api.writeExportChunk(id, chunk.position, chunk.data);
      if (!r.ok) throw new ExportIoError(r.error);
      bytes += chunk.data.byteLength;
    },
  });
  return {
    ok: true,
    value: {
      writable,
      get bytes() {
        return bytes;
      },
      async finish() {
        closed = true;
        return api.finishExportFile(id);
      },
      async abort() {
        if (closed) return;
        closed = true;
        await api.abortExportFile(id);
      },
    },
  };
}

/** Writes one whole small file (a PNG of a sequence) through the same temp-and-rename path. */
export async function writeWholeFile(api: ExportApi, path: string, data: Uint8Array, overwrite: boolean): Promise<IpcResult<SavedFile>> {
  const begun = await api.beginExportFile(path, { overwrite });
  if (!begun.ok) return begun;
  const w = await api.writeExportChunk(begun.value.id, 0, data);
  if (!w.ok) {
    await api.abortExportFile(begun.value.id);
    return w;
  }
  return api.finishExportFile(begun.value.id);
}
