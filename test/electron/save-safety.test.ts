/**
 * A save never throws away someone else's change (electron/services/file-io.ts), against real temp files: a file
 * changed on disk since it was opened or last saved is refused with E_IO_CHANGED and left as it is; Overwrite
 * (replaceChanged) writes it and keeps the other version as the .bak; a read-only file is not replaced; a
 * folder that cannot be written is said about the document, not its .bak; a .bak is made when the caller asks.
 */
import { chmodSync, existsSync, mkdtempSync, promises as fsp, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFileService } from '../../electron/services/file-service';
import { createSceneService } from '../../electron/services/scene-service';
import { validateRequest } from '../../shared/ipc/validate';
import type { FileStamp } from '../../shared/ipc/contract';
import { readCorpus } from '../helpers/corpus';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-save-safety-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const walk = () => readCorpus('mc-mmd-rust/default_anim/walk.vmd');
/** The walk motion with its model name (bytes 30..49) set to `name`: same size, other bytes. */
function renamedModel(bytes: Uint8Array, name: string): Buffer {
  const b = Buffer.from(bytes);
  b.fill(0, 30, 50);
  b.write(name, 30, 'latin1');
  return b;
}
/** A modification time an hour ago, in whole seconds: a stamp taken now trusts size, time and inode. */
const anHourAgo = () => Math.floor(Date.now() / 1000) - 3600;

async function opened(files: ReturnType<typeof createFileService>, file: string): Promise<FileStamp> {
  const r = await files.openFile(file);
  if (!r.ok) throw new Error(r.error.message);
  expect(r.value.stamp).toBeDefined();
  return r.value.stamp!;
}

describe('a file changed on disk since it was opened', () => {
  it('is refused with E_IO_CHANGED and left as the other program wrote it; Overwrite saves and keeps that version as the .bak', async () => {
    const files = createFileService();
    const file = path.join(dir, 'walk.vmd');
    writeFileSync(file, walk());
    utimesSync(file, anHourAgo(), anHourAgo());
    const stamp = await opened(files, file);
    expect(stamp.sha256).toBeUndefined(); // not racy: size, time and inode are enough

    // Another program rewrites it in place (same size, same inode): only its contents and time change.
    const theirs = renamedModel(walk(), 'EXTERNAL2');
    writeFileSync(file, theirs);
    const mine = renamedModel(walk(), 'MINE');
    const r = await files.saveFile(file, mine, { overwrite: true, backup: true, expect: stamp });
    expect(r).toMatchObject({ ok: false, error: { code: 'E_IO_CHANGED', file } });
    expect(!r.ok && r.error.message).toBe('walk.vmd was changed on disk by another program since it was opened or last saved');
    expect(Buffer.compare(readFileSync(file), theirs)).toBe(0);
    expect(existsSync(file + '.bak')).toBe(false);

    // Overwrite: written, and the other program's version is the .bak (even with no backup asked for).
    const o = await files.saveFile(file, mine, { overwrite: true, backup: false, expect: stamp, replaceChanged: true });
    expect(o).toMatchObject({ ok: true, value: { path: file, backupPath: file + '.bak', replacedChanged: true } });
    expect(Buffer.compare(readFileSync(file), mine)).toBe(0);
    expect(readFileSync(file + '.bak').includes('EXTERNAL2')).toBe(true);
    expect(Buffer.compare(readFileSync(file + '.bak'), theirs)).toBe(0);
  });

  it('is caught when another program renames its own copy over the file keeping its time and size (rsync -t): the inode differs', async () => {
    const files = createFileService();
    const file = path.join(dir, 'walk.vmd');
    writeFileSync(file, walk());
    const t = anHourAgo();
    utimesSync(file, t, t);
    const stamp = await opened(files, file);
    const tmp = path.join(dir, '.walk.vmd.sync');
    writeFileSync(tmp, renamedModel(walk(), 'SYNCED'));
    utimesSync(tmp, t, t);
    renameSync(tmp, file);
    expect(statSync(file).mtimeMs).toBe(t * 1000);
    expect(await files.saveFile(file, walk(), { overwrite: true, backup: true, expect: stamp })).toMatchObject({ ok: false, error: { code: 'E_IO_CHANGED' } });
    expect(readFileSync(file).includes('SYNCED')).toBe(true);
  });

  it('a write within the clock tick of the stamp that keeps size, time and inode is caught by the bytes', async () => {
    const files = createFileService();
    const file = path.join(dir, 'walk.vmd');
    writeFileSync(file, walk());
    // Modified an hour ahead of this clock (a whole second, so it can be put back exactly): a time not yet past
    // counts as racy, as "now" does, so the stamp carries the hash however long the steps below take on a
    // loaded machine (a time of "now" would leave the stamp racy only for the 2 s that follow).
    const t = Math.floor(Date.now() / 1000) + 3600;
    utimesSync(file, t, t);
    const stamp = await opened(files, file);
    expect(stamp.sha256).toMatch(/^[0-9a-f]{64}$/);
    writeFileSync(file, renamedModel(walk(), 'SAMETICK'));
    utimesSync(file, t, t);
    const r = await files.saveFile(file, walk(), { overwrite: true, backup: true, expect: stamp });
    expect(r).toMatchObject({ ok: false, error: { code: 'E_IO_CHANGED' } });
    expect(readFileSync(file).includes('SAMETICK')).toBe(true);
  });

  it('a save right after a save (the stamp it returned) and a save of an unchanged file go through', async () => {
    const files = createFileService();
    const file = path.join(dir, 'walk.vmd');
    writeFileSync(file, walk());
    const stamp = await opened(files, file);
    const a = renamedModel(walk(), 'A');
    const first = await files.saveFile(file, a, { overwrite: true, backup: true, expect: stamp });
    if (!first.ok) throw new Error(first.error.message);
    expect(first.value.backupPath).toBe(file + '.bak');
    const b = renamedModel(walk(), 'B');
    const second = await files.saveFile(file, b, { overwrite: true, backup: false, expect: first.value.stamp });
    expect(second).toMatchObject({ ok: true, value: { backupPath: null } });
    expect(Buffer.compare(readFileSync(file), b)).toBe(0);
    // The .bak is still the file as it was opened.
    expect(Buffer.compare(readFileSync(file + '.bak'), walk())).toBe(0);
  });

  it('a file deleted since it was opened is written again (there is no other version to lose)', async () => {
    const files = createFileService();
    const file = path.join(dir, 'walk.vmd');
    writeFileSync(file, walk());
    const stamp = await opened(files, file);
    rmSync(file);
    expect(await files.saveFile(file, walk(), { overwrite: true, backup: true, expect: stamp })).toMatchObject({ ok: true, value: { backupPath: null } });
    expect(Buffer.compare(readFileSync(file), walk())).toBe(0);
  });

  it('an Overwrite whose .bak cannot be written (a link there) writes nothing: the other version is never lost', async () => {
    const files = createFileService();
    const file = path.join(dir, 'walk.vmd');
    writeFileSync(file, walk());
    utimesSync(file, anHourAgo(), anHourAgo());
    const stamp = await opened(files, file);
    const theirs = renamedModel(walk(), 'THEIRS');
    writeFileSync(file, theirs);
    await fsp.symlink(path.join(dir, 'elsewhere'), file + '.bak');
    const r = await files.saveFile(file, walk(), { overwrite: true, backup: true, expect: stamp, replaceChanged: true });
    expect(r).toMatchObject({ ok: false, error: { code: 'E_IO', file } });
    expect(!r.ok && r.error.message).toContain("the other program's version cannot be kept");
    expect(Buffer.compare(readFileSync(file), theirs)).toBe(0);
  });

  it('the scene file follows the same rule', async () => {
    const scenes = createSceneService();
    const file = path.join(dir, 's.vmdscene');
    const sceneNaming = (motion: string) => JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: null, motion }] });
    const v1 = sceneNaming('a.vmd');
    writeFileSync(file, v1);
    utimesSync(file, anHourAgo(), anHourAgo());
    const o = await scenes.openScene(file);
    if (!o.ok) throw new Error(o.error.message);
    const theirs = sceneNaming('b.vmd');
    writeFileSync(file, theirs);
    const mine = new TextEncoder().encode(sceneNaming('c.vmd'));
    expect(await scenes.saveScene(file, mine, { overwrite: true, backup: true, expect: o.value.stamp })).toMatchObject({ ok: false, error: { code: 'E_IO_CHANGED' } });
    expect(readFileSync(file, 'utf8')).toBe(theirs);
    const w = await scenes.saveScene(file, mine, { overwrite: true, backup: true, expect: o.value.stamp, replaceChanged: true });
    expect(w).toMatchObject({ ok: true, value: { backupPath: file + '.bak', replacedChanged: true } });
    expect(readFileSync(file + '.bak', 'utf8')).toBe(theirs);
  });

  it('the request validator takes a stamp and replaceChanged, and refuses a malformed stamp', () => {
    const bytes = new Uint8Array([1]);
    const stamp = { size: 1, mtimeNs: '1700000000123456789', ino: '42', sha256: 'a'.repeat(64) };
    expect(validateRequest('saveFile', ['/x/a.vmd', bytes, { overwrite: true, expect: stamp, replaceChanged: true }])).toBeNull();
    expect(validateRequest('saveScene', ['/x/a.vmdscene', bytes, { expect: { size: 1, mtimeNs: '1', ino: '2' } }])).toBeNull();
    expect(validateRequest('saveFile', ['/x/a.vmd', bytes, { expect: { size: 1, mtimeNs: '1' } }])).toBe('options: bad value for "expect"');
    expect(validateRequest('saveFile', ['/x/a.vmd', bytes, { expect: { ...stamp, sha256: 'xyz' } }])).toBe('options: bad value for "expect"');
    expect(validateRequest('saveFile', ['/x/a.vmd', bytes, { expect: { ...stamp, extra: 1 } }])).toBe('options: bad value for "expect"');
  });
});

describe('a read-only file (chmod 444) is not replaced', () => {
  it('E_IO_DENIED "walk.vmd is read-only", file and folder as they were (judged by the mode bits, so a root test sees it too)', async () => {
    const files = createFileService();
    const file = path.join(dir, 'walk.vmd');
    writeFileSync(file, walk());
    chmodSync(file, 0o444);
    const r = await files.saveFile(file, renamedModel(walk(), 'MINE'), { overwrite: true, backup: true });
    expect(r).toEqual({ ok: false, error: { code: 'E_IO_DENIED', message: 'walk.vmd is read-only', file, problem: 'readOnly' } });
    expect(Buffer.compare(readFileSync(file), walk())).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o444);
    expect(readdirSync(dir)).toEqual(['walk.vmd']);
    // The scene file too.
    const scene = path.join(dir, 's.vmdscene');
    const text = JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: null, motion: 'a.vmd' }] });
    writeFileSync(scene, text);
    chmodSync(scene, 0o444);
    expect(await createSceneService().saveScene(scene, new TextEncoder().encode(text), { overwrite: true, backup: true })).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED', problem: 'readOnly' } });
  });
});

describe('a folder that cannot be written', () => {
  it('names the document saved and says to use Save As…, not the .bak the save was making first', async () => {
    const files = createFileService();
    const file = path.join(dir, 'sleep.vmd');
    writeFileSync(file, walk());
    // Root writes in a 0555 folder: the folder's refusal is stood in for by the temp file's create failing as
    // the kernel fails it there (EACCES), for every file this folder would take.
    const open = fsp.open.bind(fsp);
    vi.spyOn(fsp, 'open').mockImplementation(((p: string, flags: string, mode?: number) =>
      path.dirname(String(p)) === dir && flags === 'wx' ? Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })) : open(p, flags, mode)) as typeof fsp.open);
    const r = await files.saveFile(file, renamedModel(walk(), 'MINE'), { overwrite: true, backup: true });
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'E_IO_DENIED',
        message: `Cannot save sleep.vmd: the folder ${dir} cannot be written (read-only or permission denied). Use Save As… to save elsewhere.`,
        file,
        problem: 'folderNotWritable',
        params: { folder: dir },
      },
    });
    // Without a backup to make (a later save), the same words.
    const later = await files.saveFile(file, renamedModel(walk(), 'MINE'), { overwrite: true, backup: false });
    expect(!later.ok && later.error.message).toBe(`Cannot save sleep.vmd: the folder ${dir} cannot be written (read-only or permission denied). Use Save As… to save elsewhere.`);
    expect(Buffer.compare(readFileSync(file), walk())).toBe(0);
  });
});
