/**
 * Streamed exports (electron/services/export-service.ts) on real temp folders, through the same dispatch
 * both transports use: chunks land at their positions in a temp beside the target, the file appears only
 * at finish, abort leaves nothing, an existing file is kept unless overwrite; the arguments are validated;
 * under Electron only the chosen file (and its PNG-sequence siblings) may be written.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServices, dispatch } from '../../electron/services';
import { noDialogs } from '../../electron/services/dialog-service';
import { createAccessList, guardHandlers } from '../../electron/services/access';
import type { RequestHandlers } from '../../shared/ipc/contract';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-export-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function handlers(): RequestHandlers {
  return createServices({ settingsDir: path.join(dir, 'settings'), dialogs: noDialogs, emit: () => undefined, runBatch: (() => undefined) as never, appInfo: { name: 't', version: '0', mode: 'browser', versions: { node: '' } } }).handlers;
}
const names = () => readdirSync(dir).filter((n) => n !== 'settings').sort();

describe('export service', () => {
  it('writes chunks at their positions into a temp, and renames it into place at finish', async () => {
    const h = handlers();
    const target = path.join(dir, 'out.mp4');
    const b = await dispatch(h, 'beginExportFile', [target]);
    if (!b.ok) throw new Error(b.error.message);
    const id = (b.value as { id: string }).id;
    expect((await dispatch(h, 'writeExportChunk', [id, 4, Uint8Array.of(5, 6, 7)])).ok).toBe(true);
    // The muxer goes back to patch the start.
    expect((await dispatch(h, 'writeExportChunk', [id, 0, Uint8Array.of(1, 2, 3, 4)])).ok).toBe(true);
    expect(existsSync(target)).toBe(false);
    expect(names()).toHaveLength(1); // the temp only
    expect(names()[0]).toMatch(/^\.vmds-.*\.tmp$/);
    const f = await dispatch(h, 'finishExportFile', [id]);
    expect(f).toMatchObject({ ok: true, value: { path: target, bytesWritten: 7 } });
    expect([...readFileSync(target)]).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(names()).toEqual(['out.mp4']);
    // The id is spent.
    expect((await dispatch(h, 'writeExportChunk', [id, 0, Uint8Array.of(1)])).ok).toBe(false);
  });

  it('abort removes the temp: nothing at the chosen name', async () => {
    const h = handlers();
    const target = path.join(dir, 'gone.webm');
    const b = await dispatch(h, 'beginExportFile', [target]);
    if (!b.ok) throw new Error(b.error.message);
    const id = (b.value as { id: string }).id;
    await dispatch(h, 'writeExportChunk', [id, 0, new Uint8Array(1000)]);
    expect((await dispatch(h, 'abortExportFile', [id])).ok).toBe(true);
    expect(names()).toEqual([]);
  });

  it('keeps an existing file unless overwrite; refuses other extensions', async () => {
    const h = handlers();
    const target = path.join(dir, 'keep.mp4');
    writeFileSync(target, 'old');
    const refused = await dispatch(h, 'beginExportFile', [target]);
    expect(refused.ok ? null : refused.error.code).toBe('E_IO_EXISTS');
    const b = await dispatch(h, 'beginExportFile', [target, { overwrite: true }]);
    if (!b.ok) throw new Error(b.error.message);
    const id = (b.value as { id: string }).id;
    await dispatch(h, 'writeExportChunk', [id, 0, Uint8Array.of(9)]);
    expect(readFileSync(target, 'utf8')).toBe('old'); // untouched until finish
    await dispatch(h, 'finishExportFile', [id]);
    expect([...readFileSync(target)]).toEqual([9]);
    const bad = await dispatch(h, 'beginExportFile', [path.join(dir, 'x.vmd')]);
    expect(bad.ok ? null : bad.error.code).toBe('E_UNSUPPORTED');
  });

  it('validates arguments: ids, positions, bytes', async () => {
    const h = handlers();
    for (const args of [['nothex!', 0, Uint8Array.of(1)], ['ab', -1, Uint8Array.of(1)], ['ab', 1.5, Uint8Array.of(1)], ['ab', 0, [1, 2]], ['ab', 0]]) {
      const r = await dispatch(h, 'writeExportChunk', args);
      expect(r.ok ? null : r.error.code, JSON.stringify(args)).toBe('E_ARGUMENT');
    }
  });

  it('under Electron writes only the chosen file and, for NAME.png, its sequence NAME_000000.png…', async () => {
    const access = createAccessList({ platform: 'linux' });
    const chosen = path.join(dir, 'seq.png');
    access.grantFile(chosen);
    const h = guardHandlers(handlers(), access, { platform: 'linux' });
    const ok = await h.beginExportFile(path.join(dir, 'seq_000012.png'));
    expect(ok.ok).toBe(true);
    if (ok.ok) await h.abortExportFile(ok.value.id);
    for (const other of [path.join(dir, 'other.mp4'), path.join(dir, 'seq_12.png'), path.join(dir, 'sequel_000001.png')]) {
      const r = await h.beginExportFile(other);
      expect(r.ok ? null : r.error.code, other).toBe('E_IO_DENIED');
    }
    expect(names()).toEqual([]);
  });

  it('refuses a relative path: nothing is written into the working folder', async () => {
    const h = handlers();
    const cwd = process.cwd();
    // The working folder moved into the temp folder: a relative name resolved against it would land there.
    const work = path.join(dir, 'cwd');
    mkdirSync(work);
    process.chdir(work);
    try {
      for (const rel of ['clip.mp4', 'sub/clip.mp4', './clip.webm', '../clip.png']) {
        const r = await dispatch(h, 'beginExportFile', [rel]);
        expect(r.ok ? null : r.error.code, rel).toBe('E_ARGUMENT');
        expect(r.ok ? '' : r.error.message, rel).toMatch(/relative path/);
      }
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(work)).toEqual([]);
    expect(names()).toEqual(['cwd']);
  });

  it('a missing folder is named as a folder; a name without an extension says so', async () => {
    const h = handlers();
    const missing = path.join(dir, 'nodir');
    const r = await dispatch(h, 'beginExportFile', [path.join(missing, 'x.mp4')]);
    expect(r.ok ? null : r.error).toEqual({ code: 'E_IO_NOT_FOUND', message: `the folder ${missing} does not exist`, file: missing });
    writeFileSync(path.join(dir, 'afile'), 'x');
    const through = await dispatch(h, 'beginExportFile', [path.join(dir, 'afile', 'x.mp4')]);
    expect(through.ok ? null : through.error.code).toBe('E_IO_NOT_DIR');
    const bare = await dispatch(h, 'beginExportFile', [path.join(dir, 'duet')]);
    expect(bare.ok ? null : bare.error).toMatchObject({ code: 'E_UNSUPPORTED', message: 'duet: a name without an extension; a video is written as .mp4 or .webm, a PNG sequence as .png' });
    expect(names()).toEqual(['afile']);
  });

  it('diskSpace: the free bytes of the disk a file would go to, as df says; null where there is no figure', async () => {
    const h = handlers();
    // df's figure for the same folder (its "avail": the blocks this user may still write), read independently.
    const dfFree = () => Number(execFileSync('df', ['-B1', '--output=avail', dir], { encoding: 'utf8' }).trim().split('\n').pop());
    const before = dfFree();
    const r = await dispatch(h, 'diskSpace', [path.join(dir, 'not-yet.mp4')]);
    const after = dfFree();
    if (!r.ok) throw new Error(r.error.message);
    const free = (r.value as { freeBytes: number }).freeBytes;
    // Other programs write meanwhile on a shared machine: within the two df readings, give or take 64 MB.
    expect(free).toBeGreaterThanOrEqual(Math.min(before, after) - 64 * 1048576);
    expect(free).toBeLessThanOrEqual(Math.max(before, after) + 64 * 1048576);
    expect(await dispatch(h, 'diskSpace', [path.join(dir, 'no-such-folder', 'x.mp4')])).toEqual({ ok: true, value: null });
    expect(await dispatch(h, 'diskSpace', ['relative/x.mp4'])).toEqual({ ok: true, value: null });
    expect((await dispatch(h, 'diskSpace', [42])).ok).toBe(false);
    expect((await dispatch(h, 'diskSpace', [])).ok).toBe(false);
  });

  it('diskSpace under Electron: a figure only for the file the person chose, else null (no figure, nothing learnt)', async () => {
    const access = createAccessList({ platform: 'linux' });
    const chosen = path.join(dir, 'chosen.mp4');
    access.grantFile(chosen);
    const h = guardHandlers(handlers(), access, { platform: 'linux' });
    const r = await h.diskSpace(chosen);
    expect(r.ok && r.value !== null && r.value.freeBytes > 0).toBe(true);
    expect(await h.diskSpace(path.join(dir, 'other.mp4'))).toEqual({ ok: true, value: null });
    expect(await h.diskSpace('/etc/x.mp4')).toEqual({ ok: true, value: null });
  });
});
