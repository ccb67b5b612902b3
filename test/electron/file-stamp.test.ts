/**
 * fileStamp (electron/services/file-io.ts fileStampNow), the request the renderer's focus check uses
 * (renderer/src/shell/disk-watch.ts): a real temp file's version from its stat alone, equal to the stamp openFile
 * gave for the same version (less the hash, which needs the bytes), another after a write, null once the file is
 * gone or when a folder stands at the name.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices, dispatch } from '../../electron/services';
import { noDialogs } from '../../electron/services/dialog-service';
import { okValue } from '../../shared/ipc/contract';

const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-stamp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A VMD header with no keys: a file openFile reads. */
const emptyVmd = (name: string) => {
  const b = Buffer.alloc(30 + 20 + 4 * 5);
  b.write('Vocaloid Motion Data 0002', 0, 'latin1');
  b.write(name, 30, 'latin1');
  return b;
};

describe('fileStamp', () => {
  const { handlers: s } = createServices({
    settingsDir: mkdtempSync(path.join(dir, 'settings-')),
    dialogs: noDialogs,
    emit: () => undefined,
    runBatch: async () => okValue({ jobId: '', op: 'inspect', results: [], ok: 0, failed: 0, cancelled: false } as never),
    appInfo: { name: 'VMD Studio', version: '9.9.9', mode: 'browser', versions: { node: process.versions.node } },
    homeDir: dir,
  });

  it('is the version openFile read, from the stat alone; another after a write; null when gone or not a file', async () => {
    const file = path.join(dir, 'walk.vmd');
    writeFileSync(file, emptyVmd('a'));
    const st = statSync(file, { bigint: true });
    const opened = await s.openFile(file);
    expect(opened.ok).toBe(true);
    const stamp = await s.fileStamp(file);
    expect(stamp).toEqual({ ok: true, value: { size: 70, mtimeNs: st.mtimeNs.toString(), ino: st.ino.toString() } });
    if (!opened.ok) return;
    const { sha256: _hash, ...read } = opened.value.stamp!;
    expect(stamp.ok && stamp.value).toEqual(read);

    // An editor's save: a temp file renamed over it (another inode), one byte longer.
    writeFileSync(`${file}.tmp`, Buffer.concat([emptyVmd('b'), Buffer.from([0])]));
    renameSync(`${file}.tmp`, file);
    const after = await s.fileStamp(file);
    const st2 = statSync(file, { bigint: true });
    expect(after).toEqual({ ok: true, value: { size: 71, mtimeNs: st2.mtimeNs.toString(), ino: st2.ino.toString() } });

    unlinkSync(file);
    expect(await s.fileStamp(file)).toEqual({ ok: true, value: null });
    mkdirSync(file);
    expect(await s.fileStamp(file)).toEqual({ ok: true, value: null });
    expect(await s.fileStamp(path.join(dir, 'no-folder', 'x.vmd'))).toEqual({ ok: true, value: null });
  });

  it('refuses anything but one path, through the same argument check as the other requests', async () => {
    expect(await dispatch(s, 'fileStamp', [])).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    expect(await dispatch(s, 'fileStamp', [42])).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    expect(await dispatch(s, 'fileStamp', [path.join(dir, 'a.vmd'), 'x'])).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
  });
});
