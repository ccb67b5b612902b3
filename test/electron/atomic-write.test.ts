// atomicWrite on real temp folders: mode and owner kept, links written through, long names, the
// stale-temp sweep and its rule, and the messages for folders that cannot be made or written.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { atomicWrite, ensureFolder, folderError, holdTemp, releaseTemp, watchTemps } from '../../electron/fs/files';
import { createFileService } from '../../electron/services/file-service';
import { hostTag, isStaleTemp, STALE_AGE_MS, sweepStaleTemps, tempName, TEMP_NAME_RE } from '../../electron/fs/temp-files';

const dirs: string[] = [];
function mk(tag: string): string {
  const d = mkdtempSync(path.join(os.tmpdir(), `vmd-aw-${tag}-`));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) {
    try {
      chmodSync(d, 0o755);
    } catch {
      /* gone */
    }
    rmSync(d, { recursive: true, force: true });
  }
});

const bytes = (s: string) => new TextEncoder().encode(s);
const isRoot = process.getuid?.() === 0;
/** Names in `dir` that look like any temp this tool ever made. */
const tempsIn = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('.vmds-') || n.startsWith('.vmd-studio-tmp-'));

/** A PID that is certainly not running: a child that has already exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('atomicWrite keeps what an editor keeps', () => {
  it.skipIf(process.platform === 'win32')('a 0600 file stays 0600 (and 0640 stays 0640) when replaced', async () => {
    const d = mk('mode');
    for (const mode of [0o600, 0o640, 0o755]) {
      const f = path.join(d, `m${mode.toString(8)}.vmd`);
      writeFileSync(f, 'old');
      chmodSync(f, mode);
      const r = await atomicWrite(f, bytes('new contents'), { overwrite: true });
      expect(r.ok).toBe(true);
      expect(readFileSync(f, 'utf8')).toBe('new contents');
      expect(statSync(f).mode & 0o7777, f).toBe(mode);
    }
  });

  it.skipIf(process.platform === 'win32')('a new file gets the mode any new file gets here (umask), not the temp file\'s 0600', async () => {
    const d = mk('newmode');
    writeFileSync(path.join(d, 'reference'), 'x');
    const r = await atomicWrite(path.join(d, 'new.vmd'), bytes('x'));
    expect(r.ok).toBe(true);
    expect(statSync(path.join(d, 'new.vmd')).mode & 0o777).toBe(statSync(path.join(d, 'reference')).mode & 0o777);
  });

  it.skipIf(!isRoot)('the owner and group are kept where the process may set them (root here)', async () => {
    const d = mk('owner');
    const f = path.join(d, 'theirs.vmd');
    writeFileSync(f, 'old');
    chownSync(f, 65534, 65534);
    chmodSync(f, 0o640);
    expect((await atomicWrite(f, bytes('new'), { overwrite: true })).ok).toBe(true);
    const st = statSync(f);
    expect([st.uid, st.gid, st.mode & 0o7777]).toEqual([65534, 65534, 0o640]);
  });

  it('a save through a symbolic link writes the link\'s target and keeps the link', async () => {
    const d = mk('link');
    mkdirSync(path.join(d, 'real'));
    mkdirSync(path.join(d, 'links'));
    const target = path.join(d, 'real', 'dance.vmd');
    writeFileSync(target, 'old');
    chmodSync(target, 0o600);
    const link = path.join(d, 'links', 'dance.vmd');
    symlinkSync('../real/dance.vmd', link); // relative, from another folder
    const r = await atomicWrite(link, bytes('saved through the link'), { overwrite: true });
    expect(r.ok).toBe(true);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('../real/dance.vmd');
    expect(readFileSync(target, 'utf8')).toBe('saved through the link');
    if (process.platform !== 'win32') expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(tempsIn(path.join(d, 'links'))).toEqual([]);
    expect(tempsIn(path.join(d, 'real'))).toEqual([]);
  });

  it('the app\'s Save (file service) through a link: the target gets the bytes, the link stays, the .bak holds the old file', async () => {
    const d = mk('applink');
    mkdirSync(path.join(d, 'real'));
    const target = path.join(d, 'real', 'song.vmd');
    writeFileSync(target, 'version 1');
    const link = path.join(d, 'song.vmd');
    symlinkSync(target, link);
    const r = await createFileService().saveFile(link, bytes('version 2'), { overwrite: true, backup: true });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('version 2');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(link + '.bak', 'utf8')).toBe('version 1');
  });

  it('a link to a link is followed to the end; a dangling link gets its target created', async () => {
    const d = mk('chain');
    const file = path.join(d, 'file.vmd');
    writeFileSync(file, 'old');
    symlinkSync(file, path.join(d, 'one.vmd'));
    symlinkSync('one.vmd', path.join(d, 'two.vmd'));
    expect((await atomicWrite(path.join(d, 'two.vmd'), bytes('deep'), { overwrite: true })).ok).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('deep');
    expect(lstatSync(path.join(d, 'two.vmd')).isSymbolicLink() && lstatSync(path.join(d, 'one.vmd')).isSymbolicLink()).toBe(true);
    symlinkSync('later.vmd', path.join(d, 'dangling.vmd'));
    expect((await atomicWrite(path.join(d, 'dangling.vmd'), bytes('made'))).ok).toBe(true);
    expect(readFileSync(path.join(d, 'later.vmd'), 'utf8')).toBe('made');
    expect(lstatSync(path.join(d, 'dangling.vmd')).isSymbolicLink()).toBe(true);
  });

  it('followLinks: false (batch outputs) replaces the link itself and leaves its target alone', async () => {
    const d = mk('nofollow');
    const elsewhere = path.join(d, 'elsewhere.vmd');
    writeFileSync(elsewhere, 'keep me');
    const link = path.join(d, 'out.vmd');
    symlinkSync(elsewhere, link);
    expect((await atomicWrite(link, bytes('output'), { overwrite: true, followLinks: false })).ok).toBe(true);
    expect(lstatSync(link).isFile()).toBe(true);
    expect(readFileSync(link, 'utf8')).toBe('output');
    expect(readFileSync(elsewhere, 'utf8')).toBe('keep me');
  });

  it('a 240-byte name (78 Japanese characters + .vmd) and a 255-byte name are written', async () => {
    const d = mk('long');
    const n240 = 'あ'.repeat(78) + 'ab.vmd'; // 78×3 + 2 + 4 bytes
    const n255 = 'x'.repeat(251) + '.vmd';
    expect(Buffer.byteLength(n240)).toBe(240);
    expect(Buffer.byteLength(n255)).toBe(255);
    for (const n of [n240, n255]) {
      const r = await atomicWrite(path.join(d, n), bytes(n));
      expect(r.ok, n).toBe(true);
      expect(readFileSync(path.join(d, n), 'utf8')).toBe(n);
      expect((await atomicWrite(path.join(d, n), bytes('again'), { overwrite: true })).ok).toBe(true);
    }
    expect(tempsIn(d)).toEqual([]);
  });

  it('without overwrite an existing file is E_IO_EXISTS and stays as it was', async () => {
    const d = mk('exists');
    const f = path.join(d, 'a.vmd');
    writeFileSync(f, 'old');
    const r = await atomicWrite(f, bytes('new'));
    expect(r.ok ? null : r.error.code).toBe('E_IO_EXISTS');
    expect(readFileSync(f, 'utf8')).toBe('old');
    expect(tempsIn(d)).toEqual([]);
  });
});

describe('watchTemps (the CLI holds its signal handlers only while a temp file exists)', () => {
  it('says true while a write holds its temp and false once it is renamed, failed or released', async () => {
    const d = mk('watch');
    const seen: boolean[] = [];
    const unwatch = watchTemps((pending) => seen.push(pending));
    try {
      expect(seen).toEqual([false]);
      expect((await atomicWrite(path.join(d, 'a.vmd'), new Uint8Array(10))).ok).toBe(true);
      expect(seen).toEqual([false, true, false]);
      // Two held at once: one true, then false only when both are gone.
      holdTemp(path.join(d, 'x.tmp'));
      holdTemp(path.join(d, 'y.tmp'));
      releaseTemp(path.join(d, 'x.tmp'));
      expect(seen).toEqual([false, true, false, true]);
      releaseTemp(path.join(d, 'y.tmp'));
      expect(seen).toEqual([false, true, false, true, false]);
      // A write that fails (the file exists, no overwrite) never makes a temp.
      expect((await atomicWrite(path.join(d, 'a.vmd'), new Uint8Array(10))).ok).toBe(false);
      expect(seen).toEqual([false, true, false, true, false]);
    } finally {
      unwatch();
    }
    holdTemp(path.join(d, 'z.tmp'));
    releaseTemp(path.join(d, 'z.tmp'));
    expect(seen).toHaveLength(5);
  });
});

describe('temp names and the stale-temp sweep', () => {
  it('temp names are short and fixed-length whatever the final name', () => {
    const a = tempName();
    expect(a).toMatch(/^\.vmds-[0-9a-z]+-[0-9a-z]{4}-[0-9a-z]{6}\.tmp$/);
    expect(Buffer.byteLength(tempName(4194304))).toBeLessThanOrEqual(27);
    expect(a.startsWith(`.vmds-${process.pid.toString(36)}-`)).toBe(true);
    expect(tempName()).not.toBe(a);
  });

  it('removes only this tool\'s stale temps: dead writer on this host, or older than an hour', async () => {
    const d = mk('sweep');
    const now = Date.now();
    const dead = deadPid();
    const host = hostTag();
    const other = host === 'zzzz' ? 'yyyy' : 'zzzz';
    const old = (now - STALE_AGE_MS - 60_000) / 1000;
    const files: Record<string, { swept: boolean; mtime?: number; dir?: boolean; link?: boolean }> = {
      [`.vmds-${dead.toString(36)}-${host}-abc123.tmp`]: { swept: true }, // killed writer, this host
      [`.vmds-${process.pid.toString(36)}-${host}-abc123.tmp`]: { swept: false }, // a live writer (this test)
      [`.vmds-${dead.toString(36)}-${other}-abc123.tmp`]: { swept: false }, // another host's, recent: its PID means nothing here
      [`.vmds-${dead.toString(36)}-${other}-def456.tmp`]: { swept: true, mtime: old }, // another host's, over an hour old
      [`.vmds-${process.pid.toString(36)}-${host}-def456.tmp`]: { swept: true, mtime: old }, // over an hour: stale whoever wrote it
      '.vmd-studio-tmp-0123456789ab-dance.vmd': { swept: true, mtime: old }, // old-pattern name, old
      '.vmd-studio-tmp-0123456789ab-walk.vmd': { swept: false }, // old-pattern name, recent
      [`.vmds-${dead.toString(36)}-${host}-abc123.tmp.keep`]: { swept: false, mtime: old }, // not the exact pattern
      [`.vmds-${dead.toString(36)}-${host}-ABC123.tmp`]: { swept: false, mtime: old }, // upper case: not ours
      'dance.vmd': { swept: false, mtime: old },
      [`.vmds-${dead.toString(36)}-${host}-dir000.tmp`]: { swept: false, mtime: old, dir: true }, // a folder, never
      [`.vmds-${dead.toString(36)}-${host}-lnk000.tmp`]: { swept: false, link: true }, // a link, never
    };
    writeFileSync(path.join(d, 'link-target'), 'x');
    for (const [n, f] of Object.entries(files)) {
      const p = path.join(d, n);
      if (f.dir) mkdirSync(p);
      else if (f.link) symlinkSync('link-target', p);
      else writeFileSync(p, 'partial');
      if (f.mtime !== undefined) utimesSync(p, f.mtime, f.mtime);
    }
    await new Promise((r) => setTimeout(r, 5));
    // The run starts after the files were left (as a re-run after a kill does).
    const removed = await sweepStaleTemps([d, path.join(d, 'missing-folder')], { startedAt: Date.now() });
    const expected = Object.entries(files).filter(([, f]) => f.swept).map(([n]) => path.join(d, n));
    expect(removed.sort()).toEqual(expected.sort());
    const left = new Set(readdirSync(d));
    for (const [n, f] of Object.entries(files)) expect(left.has(n), n).toBe(!f.swept);
  });

  it('a dead writer\'s temp modified after the run started is kept (rule: older than the run start)', () => {
    const n = `.vmds-${deadPid().toString(36)}-${hostTag()}-abc123.tmp`;
    const t = Date.now();
    expect(isStaleTemp(n, t - 10, t)).toBe(true);
    expect(isStaleTemp(n, t + 10, t)).toBe(false);
  });

  it('a save sweeps the folder it writes into', async () => {
    const d = mk('savesweep');
    const stale = path.join(d, `.vmds-${deadPid().toString(36)}-${hostTag()}-q1w2e3.tmp`);
    writeFileSync(stale, 'left by a killed run');
    await new Promise((r) => setTimeout(r, 5)); // mtime strictly before the save starts
    expect((await atomicWrite(path.join(d, 'saved.vmd'), bytes('x'))).ok).toBe(true);
    expect(tempsIn(d)).toEqual([]);
    expect(readdirSync(d)).toEqual(['saved.vmd']);
  });
});

describe('folders that cannot be made or written say so', () => {
  it('a path whose parent is a file: names the file, not "ENOENT … mkdir"', async () => {
    const d = mk('notdir');
    writeFileSync(path.join(d, 'out'), 'I am a file');
    const r = await ensureFolder(path.join(d, 'out', 'sub'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toBe(`cannot create the folder ${path.join(d, 'out', 'sub')}: ${path.join(d, 'out')} is a file, not a folder`);
    const w = await atomicWrite(path.join(d, 'out', 'x.vmd'), bytes('x'));
    expect(w.ok ? '' : w.error.message).toBe(`cannot write in the folder ${path.join(d, 'out')}: ${path.join(d, 'out')} is a file, not a folder`);
  });

  it('a missing folder for a save is "no such folder"', async () => {
    const d = mk('nofolder');
    const w = await atomicWrite(path.join(d, 'missing', 'x.vmd'), bytes('x'));
    expect(w.ok ? null : [w.error.code, w.error.message]).toEqual(['E_IO_NOT_FOUND', `no such folder: ${path.join(d, 'missing')} (create it first, or write into a folder that exists)`]);
    // Told apart from a missing file: the app offers to make the folder again (renderer stores/save-refusal.ts).
    expect(w.ok ? null : [w.error.problem, w.error.params]).toEqual(['folderMissing', { folder: path.join(d, 'missing') }]);
  });

  // Root ignores permission bits, so a real read-only folder is tested by the CLI run as another user
  // (test/electron/cli-messages.test.ts); here the mapping of the errors the kernel gives a non-root user.
  it('the mapping: EACCES/EPERM/EROFS on an existing folder, EACCES/ENOENT from mkdir under a read-only one', async () => {
    const d = mk('map');
    const ro = path.join(d, 'ro');
    mkdirSync(ro);
    const err = (code: string) => Object.assign(new Error(`${code}: denied, open`), { code });
    expect(await folderError(ro, err('EACCES'), false)).toEqual({ code: 'E_IO_DENIED', message: `the folder ${ro} cannot be written (read-only or permission denied)`, file: ro });
    expect((await folderError(ro, err('EPERM'), false)).code).toBe('E_IO_DENIED');
    expect((await folderError(ro, err('EROFS'), false)).message).toBe(`the folder ${ro} cannot be written (read-only file system)`);
    const sub = path.join(ro, 'a', 'b');
    expect(await folderError(sub, err('EACCES'), true)).toEqual({ code: 'E_IO_DENIED', message: `cannot create the folder ${sub}: ${ro} cannot be written (read-only or permission denied)`, file: sub });
    // ENOENT from mkdir where the parent is writable is not a denial: a plain message naming the folder.
    const plain = await folderError(sub, err('ENOENT'), true);
    expect(plain.message.startsWith(`cannot create the folder ${sub}: `)).toBe(true);
    expect(plain.message).not.toMatch(/mkdir/);
  });
});
