// A PNG sequence (renderer/src/export/video-export.ts runVideoExport, format 'png'): one file per frame through
// main's export files, and the report's size is every picture's bytes (it said 0 bytes: "0.0 MB" for nine frames of
// 0.85 MB, report nulight finding 8). The pictures are fake blobs of known sizes; main is a recording fake.
import { describe, expect, it } from 'vitest';
import { runVideoExport } from '../../../renderer/src/export/video-export';
import { okValue } from '../../../shared/ipc/contract';

describe('PNG sequence export', () => {
  it('writes NAME_000000.png … and reports the bytes of all its pictures', async () => {
    const sizes = [1000, 2500, 700];
    let drawn = -1;
    const written = new Map<string, number>();
    const open = new Map<string, { path: string; bytes: number }>();
    const api = {
      beginExportFile: async (path: string) => {
        const id = String(open.size);
        open.set(id, { path, bytes: 0 });
        return okValue({ id });
      },
      writeExportChunk: async (id: string, _at: number, bytes: Uint8Array) => {
        open.get(id)!.bytes += bytes.byteLength;
        return okValue(undefined);
      },
      finishExportFile: async (id: string) => {
        const f = open.get(id)!;
        written.set(f.path, f.bytes);
        return okValue({ path: f.path, name: f.path, stamp: { size: f.bytes, mtimeNs: '0', ino: '0' } });
      },
      abortExportFile: async () => okValue(undefined),
    };
    const source = {
      canvas: { convertToBlob: async () => new Blob([new Uint8Array(sizes[drawn])]) } as unknown as OffscreenCanvas,
      advanceTo: (f: number) => void (drawn = f),
      draw() {},
      dispose() {},
    };
    // Frames 0–2 at 30 fps: three pictures.
    const r = await runVideoExport(api as never, source, { path: '/out/stage.png', overwrite: false, format: 'png', width: 4, height: 4, fps: 30, range: { from: 0, to: 2 }, audio: null }, () => {}, new AbortController().signal);
    if (!r.ok) throw new Error(r.error.message);
    expect([...written]).toEqual([['/out/stage_000000.png', 1000], ['/out/stage_000001.png', 2500], ['/out/stage_000002.png', 700]]);
    expect(r.value.frames).toBe(3);
    expect(r.value.bytes).toBe(1000 + 2500 + 700);
    expect(r.value.path).toBe('/out/stage_000000.png');
  });
});
