/**
 * A save's backup never goes through a link (issue: a downloaded folder holding `dance.vmd.bak → ~/.ssh/…`).
 * Real temp folders and real symbolic links; the motion service and the scene service both save this way.
 */
import { chmodSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync, existsSync, lstatSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileService } from '../../electron/services/file-service';
import { createSceneService } from '../../electron/services/scene-service';

let dir: string;
let outside: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-bak-'));
  outside = mkdtempSync(path.join(os.tmpdir(), 'vmd-bak-outside-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const OLD = Buffer.from('old bytes of the dance\nssh-ed25519 AAAA attacker\n');
const SCENE = new TextEncoder().encode('{"format":"vmd-studio-scene","version":1,"actors":[{"model":null,"motion":"dance.vmd"}]}\n');

type Saver = (file: string) => Promise<unknown>;
/** [kind, file name, the bytes saved, a fresh service's save (a new session: a backup is due again)] */
const savers: [string, string, Uint8Array, Saver][] = [
  ['motion', 'dance.vmd', new Uint8Array([9, 9, 9]), (f) => createFileService().saveFile(f, new Uint8Array([9, 9, 9]), { overwrite: true, backup: true })],
  ['scene', 'duet.vmdscene', SCENE, (f) => createSceneService().saveScene(f, SCENE, { overwrite: true, backup: true })],
];

describe.each(savers)('the %s save', (_kind, name, NEW, saveOnce) => {
  const save = (f: string, _b: Uint8Array) => saveOnce(f);
  it('does not write through a link to a file at NAME.bak: the save goes ahead, says why there is no backup, and the link target is untouched', async () => {
    const file = path.join(dir, name);
    writeFileSync(file, OLD);
    const secret = path.join(outside, 'authorized_keys');
    writeFileSync(secret, 'the real keys\n');
    symlinkSync(secret, file + '.bak');
    const r = await save(file, NEW);
    expect(r).toMatchObject({ ok: true, value: { backupPath: null, backupSkipped: expect.stringContaining('symbolic link') } });
    expect(readFileSync(secret, 'utf8')).toBe('the real keys\n');
    expect(lstatSync(file + '.bak').isSymbolicLink()).toBe(true);
    expect([...readFileSync(file)]).toEqual([...NEW]);
  });

  it('does not create the target of a dangling link at NAME.bak', async () => {
    const file = path.join(dir, name);
    writeFileSync(file, OLD);
    const target = path.join(outside, '.profile');
    symlinkSync(target, file + '.bak');
    const r = await save(file, NEW);
    expect(r).toMatchObject({ ok: true, value: { backupPath: null, backupSkipped: expect.stringContaining('symbolic link') } });
    expect(existsSync(target)).toBe(false);
  });

  it('does not write into a folder a link at NAME.bak points to, nor replace a folder there', async () => {
    const file = path.join(dir, name);
    writeFileSync(file, OLD);
    symlinkSync(outside, file + '.bak');
    expect(await save(file, NEW)).toMatchObject({ ok: true, value: { backupPath: null } });
    expect(readdirSync(outside)).toEqual([]);
    rmSync(file + '.bak');
    mkdirSync(file + '.bak');
    writeFileSync(file, OLD);
    expect(await save(file, NEW)).toMatchObject({ ok: true, value: { backupPath: null, backupSkipped: expect.stringContaining('not a regular file') } });
    expect(statSync(file + '.bak').isDirectory()).toBe(true);
    expect(readdirSync(file + '.bak')).toEqual([]);
  });

  it('does not replace a NAME.bak that has another hard link (its other name keeps its bytes)', async () => {
    const file = path.join(dir, name);
    writeFileSync(file, OLD);
    const other = path.join(dir, 'other-name');
    writeFileSync(other, 'kept\n');
    linkSync(other, file + '.bak');
    const r = await save(file, NEW);
    expect(r).toMatchObject({ ok: true, value: { backupPath: null, backupSkipped: expect.stringContaining('hard link') } });
    expect(readFileSync(other, 'utf8')).toBe('kept\n');
  });

  it('replaces a regular NAME.bak of its own, and the backup gets the mode of the file it backs up (0600 stays private)', async () => {
    const file = path.join(dir, name);
    writeFileSync(file, OLD);
    chmodSync(file, 0o600);
    writeFileSync(file + '.bak', 'an older backup');
    chmodSync(file + '.bak', 0o644);
    const r = await save(file, NEW);
    expect(r).toMatchObject({ ok: true, value: { backupPath: file + '.bak' } });
    expect(readFileSync(file + '.bak').equals(OLD)).toBe(true);
    expect(statSync(file + '.bak').mode & 0o777).toBe(0o600);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a new backup of a 0640 file is 0640, whatever the umask gives new files', async () => {
    const file = path.join(dir, name);
    writeFileSync(file, OLD);
    chmodSync(file, 0o640);
    await save(file, NEW);
    expect(statSync(file + '.bak').mode & 0o777).toBe(0o640);
  });
});
