/** Folder listing for the in-app file dialog: `~`, a file's path, and failures said in words (real temp folders). */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileService, expandHome } from '../../electron/services/file-service';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-listing-'));
});
afterEach(() => {
  try {
    chmodSync(path.join(dir, 'locked'), 0o755);
  } catch {
    /* not made */
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('listDirectory', () => {
  it('expands ~ and ~/… to the home folder', async () => {
    mkdirSync(path.join(dir, 'motions'));
    writeFileSync(path.join(dir, 'motions', 'a.vmd'), 'x');
    const files = createFileService({ homeDir: dir });
    expect(await files.listDirectory('~')).toMatchObject({ ok: true, value: { path: dir } });
    const sub = await files.listDirectory('~/motions');
    expect(sub.ok && sub.value.path).toBe(path.join(dir, 'motions'));
    expect(sub.ok && sub.value.entries.map((e) => e.name)).toEqual(['a.vmd']);
    expect(expandHome('~\\x', '/h')).toBe(path.join('/h', 'x'));
    // Only a leading ~ followed by a separator (or alone) is home: ~user and a~b are names.
    expect(expandHome('~user/x', '/h')).toBe('~user/x');
    expect(expandHome('/a/~/b', '/h')).toBe('/a/~/b');
  });

  it('lists the folder of a file path with that file selected', async () => {
    writeFileSync(path.join(dir, 'b.vmd'), 'x');
    writeFileSync(path.join(dir, 'c.vmd'), 'x');
    const r = await createFileService().listDirectory(path.join(dir, 'b.vmd'));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.path).toBe(dir);
    expect(r.value.selected).toBe(path.join(dir, 'b.vmd'));
    expect(r.value.entries.map((e) => e.name)).toEqual(['b.vmd', 'c.vmd']);
    // A folder's listing has no selection.
    const d = await createFileService().listDirectory(dir);
    expect(d.ok && 'selected' in d.value).toBe(false);
  });

  it('says in words why a folder cannot be listed (no raw ENOTDIR)', async () => {
    writeFileSync(path.join(dir, 'b.vmd'), 'x');
    const files = createFileService();
    const through = await files.listDirectory(path.join(dir, 'b.vmd', 'inside'));
    expect(through).toEqual({ ok: false, error: { code: 'E_IO_NOT_DIR', message: 'not a folder (a part of the path is a file)', file: path.join(dir, 'b.vmd', 'inside') } });
    expect(JSON.stringify(through)).not.toMatch(/ENOTDIR/);
    expect(await files.listDirectory(path.join(dir, 'nope'))).toMatchObject({ ok: false, error: { code: 'E_IO_NOT_FOUND', message: 'no such file or folder' } });
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable folder is E_IO_DENIED with a plain message', async () => {
    const locked = path.join(dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o000);
    const r = await createFileService().listDirectory(locked);
    expect(r).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED', message: 'permission denied' } });
  });
});
