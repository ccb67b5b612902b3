/**
 * createFolder (the in-app Save dialog's New folder, and a typed folder that is not there yet): the file
 * service makes the folder with its missing parents and answers its absolute path; a folder already there is
 * fine; a relative path, or a file in the way, is refused with words. Under Electron the guard lets it make
 * folders only inside a folder chosen in a dialog.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileService } from '../../electron/services/file-service';
import { createAccessList, guardHandlers } from '../../electron/services/access';
import { okValue, type RequestHandlers } from '../../shared/ipc/contract';
import { validateRequest } from '../../shared/ipc/validate';
import { useTempDirs } from './batch-helpers';

describe('createFolder', () => {
  const mk = useTempDirs();

  it('makes the folder and its missing parents (a name with spaces and Japanese too); one already there is fine', async () => {
    const root = mk('mkfolder');
    const files = createFileService({ homeDir: root });
    const want = path.join(root, 'k', '新しい フォルダ', 'deeper');
    expect(await files.createFolder(want)).toEqual(okValue(want));
    expect(statSync(want).isDirectory()).toBe(true);
    expect(await files.createFolder(want)).toEqual(okValue(want));
    expect(await files.createFolder('~/home-made')).toEqual(okValue(path.join(root, 'home-made')));
    expect(statSync(path.join(root, 'home-made')).isDirectory()).toBe(true);
  });

  it('refuses a relative path and says what is in the way of a folder', async () => {
    const root = mk('mkfolder-bad');
    const files = createFileService({ homeDir: root });
    expect(await files.createFolder('relative/dir')).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    writeFileSync(path.join(root, 'afile'), 'x');
    const r = await files.createFolder(path.join(root, 'afile', 'sub'));
    expect(r).toMatchObject({ ok: false, error: { message: expect.stringContaining('is a file, not a folder') } });
    expect(validateRequest('createFolder', [''])).not.toBeNull();
    expect(validateRequest('createFolder', ['/x'])).toBeNull();
  });

  it('under Electron: only inside a folder chosen in a dialog', async () => {
    const root = mk('mkfolder-guard');
    const chosen = path.join(root, 'chosen');
    mkdirSync(chosen);
    const calls: string[] = [];
    const handlers = { createFolder: async (d: string) => (calls.push(d), okValue(d)) } as unknown as RequestHandlers;
    const access = createAccessList();
    access.grantFolder(chosen);
    const g = guardHandlers(handlers, access);
    expect(await g.createFolder(path.join(chosen, 'new', 'deeper'))).toEqual(okValue(path.join(chosen, 'new', 'deeper')));
    expect(await g.createFolder(path.join(root, 'elsewhere'))).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    expect(await g.createFolder(path.join(chosen, '..', 'escape'))).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    expect(calls).toEqual([path.join(chosen, 'new', 'deeper')]);
  });
});
