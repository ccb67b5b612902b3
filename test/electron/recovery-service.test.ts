/**
 * Recovery copies (electron/services/recovery-service.ts) on real temp folders: written atomically under the settings
 * folder's recovery/, replaced, removed, pruned to the size cap and the gone-session count; a session is listed only
 * once gone (ended, its process not running, its heartbeat stale), never while live; a link where the recovery folder
 * or a session's folder should be is refused and nothing is written through it; damaged or partial copies are skipped
 * with a notice. Also through dispatch (the arguments checked as both transports check them) and, under Electron, the
 * access guard (a path never granted is not kept; a recovered copy's path is granted for its save).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecoveryService, type RecoveryService } from '../../electron/services/recovery-service';
import { createServices, dispatch } from '../../electron/services';
import { noDialogs } from '../../electron/services/dialog-service';
import { createAccessList, guardHandlers } from '../../electron/services/access';
import type { RecoveryCopyInfo } from '../../shared/ipc/recovery-types';

let dir: string;
const open: RecoveryService[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-recovery-'));
});
afterEach(() => {
  open.splice(0).forEach((s) => s.close());
  rmSync(dir, { recursive: true, force: true });
});

const S1 = 'sessionAAAA1';
const S2 = 'sessionBBBB2';
const info = (doc: string, over: Partial<RecoveryCopyInfo> = {}): RecoveryCopyInfo => ({ doc, name: `${doc}.vmd`, path: `/music/${doc}.vmd`, kind: 'motion', format: 'vmd', keys: 3, ...over });
const bytes = (n: number, fill = 7) => new Uint8Array(n).fill(fill);
const rec = () => path.join(dir, 'recovery');

function service(o: Partial<Parameters<typeof createRecoveryService>[0]> = {}): RecoveryService {
  const s = createRecoveryService({ settingsDir: dir, heartbeatMs: 60_000, ...o });
  open.push(s);
  return s;
}
function ok<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('recovery service', () => {
  it('writes a copy as its bytes and a description under recovery/<session>/, and replaces it whole', async () => {
    const a = service();
    ok(await a.begin(S1));
    ok(await a.keep(S1, info('1'), bytes(100, 1)));
    const folder = path.join(rec(), S1);
    const files = () => readdirSync(folder).filter((n) => !n.startsWith('.')).sort();
    expect(files()).toEqual(['1.json', expect.stringMatching(/^1\.[0-9a-z]+\.bin$/), 'session.json'].sort());
    const meta1 = JSON.parse(readFileSync(path.join(folder, '1.json'), 'utf8'));
    expect(readFileSync(path.join(folder, meta1.file))).toEqual(Buffer.from(bytes(100, 1)));
    expect(meta1.sha256).toBe(createHash('sha256').update(bytes(100, 1)).digest('hex'));
    const mark = JSON.parse(readFileSync(path.join(folder, 'session.json'), 'utf8'));
    expect(mark.pid).toBe(process.pid);

    // Replaced: the new bytes in a new file, the old one gone, one description.
    ok(await a.keep(S1, info('1', { keys: 4 }), bytes(50, 2)));
    const meta2 = JSON.parse(readFileSync(path.join(folder, '1.json'), 'utf8'));
    expect(meta2.file).not.toBe(meta1.file);
    expect(files()).toEqual(['1.json', meta2.file, 'session.json'].sort());
    expect(readFileSync(path.join(folder, meta2.file))).toEqual(Buffer.from(bytes(50, 2)));
    expect(meta2.keys).toBe(4);

    // Removed (saved, or closed without saving).
    ok(await a.drop(S1, '1'));
    expect(files()).toEqual(['session.json']);
  });

  it('lists a session only once it is gone: never a live one of this process; an ended one, with its copies', async () => {
    const a = service();
    ok(await a.begin(S1));
    ok(await a.begin(S2));
    ok(await a.keep(S1, info('1'), bytes(10)));
    ok(await a.keep(S2, info('7', { name: 'cam.vmd', kind: 'camera', actor: 'Camera' }), bytes(20)));
    expect(ok(await a.list()).copies).toEqual([]);
    // Another page of the same process cannot read or discard a live session's copies either.
    expect((await a.read(S1, '1')).ok).toBe(false);
    expect((await a.discard(S1)).ok).toBe(false);
    expect(existsSync(path.join(rec(), S1, '1.json'))).toBe(true);

    await a.end(S1);
    const l = ok(await a.list());
    expect(l.copies.map((c) => [c.session, c.doc, c.name, c.bytes, c.path])).toEqual([[S1, '1', '1.vmd', 10, '/music/1.vmd']]);
    expect(l.notices).toEqual([]);
    const r = ok(await a.read(S1, '1'));
    expect(r.bytes).toEqual(bytes(10));
    expect(r.copy.keys).toBe(3);
    // An ended session writes no more.
    expect((await a.keep(S1, info('2'), bytes(5))).ok).toBe(false);
  });

  it("tells another process's sessions by their mark: a pid no longer running is gone, a running one is live until its heartbeat is stale", async () => {
    let t = 1_000_000;
    const alive = new Set<number>();
    const a = service({ now: () => t });
    ok(await a.begin(S1));
    ok(await a.keep(S1, info('1'), bytes(10)));
    // The same folder seen from another process: its mark names a pid on this host that is not this process.
    const markFile = path.join(rec(), S1, 'session.json');
    const other = 999_999;
    const mark = JSON.parse(readFileSync(markFile, 'utf8'));
    writeFileSync(markFile, JSON.stringify({ ...mark, pid: other }));
    const b = service({ now: () => t, staleMs: 60_000, pidAlive: (pid) => alive.has(pid) });
    // Its process runs: live.
    alive.add(other);
    expect(ok(await b.list()).copies).toEqual([]);
    // Its heartbeat is older than staleMs (another host, a reused pid): gone.
    t += 61_000;
    expect(ok(await b.list()).copies.map((c) => c.doc)).toEqual(['1']);
    t -= 61_000;
    expect(ok(await b.list()).copies).toEqual([]);
    // Its process is no longer running: gone at once.
    alive.delete(other);
    expect(ok(await b.list()).copies.map((c) => c.doc)).toEqual(['1']);
  });

  it('keeps the heartbeat of its live sessions: beatAt is rewritten', async () => {
    let t = 5000;
    const a = service({ now: () => t, heartbeatMs: 20 });
    ok(await a.begin(S1));
    const markFile = path.join(rec(), S1, 'session.json');
    expect(JSON.parse(readFileSync(markFile, 'utf8')).beatAt).toBe(5000);
    t = 9000;
    await expect.poll(() => JSON.parse(readFileSync(markFile, 'utf8')).beatAt, { timeout: 5000 }).toBe(9000);
  });

  it('one session at a time (Electron): a session begun ends the earlier one, whose copies are then offered', async () => {
    const a = service({ oneSession: true });
    ok(await a.begin(S1));
    ok(await a.keep(S1, info('1'), bytes(10)));
    ok(await a.begin(S2));
    expect(ok(await a.list()).copies.map((c) => c.session)).toEqual([S1]);
  });

  it('discards a gone session (one copy, or all): its folder goes once empty; an ended session with nothing left goes too', async () => {
    const a = service();
    ok(await a.begin(S1));
    ok(await a.keep(S1, info('1'), bytes(10)));
    ok(await a.keep(S1, info('2'), bytes(10)));
    await a.end(S1);
    ok(await a.discard(S1, '1'));
    expect(ok(await a.list()).copies.map((c) => c.doc)).toEqual(['2']);
    ok(await a.discard(S1, '2'));
    expect(existsSync(path.join(rec(), S1))).toBe(false);

    ok(await a.begin(S2));
    await a.end(S2);
    expect(existsSync(path.join(rec(), S2))).toBe(true);
    expect(ok(await a.list()).copies).toEqual([]);
    expect(existsSync(path.join(rec(), S2))).toBe(false);
  });

  it('prunes the oldest gone sessions to stay within the size cap, and refuses a copy that cannot fit', async () => {
    let t = 1000;
    const a = service({ now: () => t, maxTotalBytes: 1000 });
    const sessions = ['oldsessionA', 'midsessionB', 'newsessionC'];
    for (const s of sessions) {
      t += 1000;
      ok(await a.begin(s));
      ok(await a.keep(s, info('1'), bytes(300)));
      await a.end(s);
    }
    // 900 bytes of copies (plus small marks and descriptions, counted too); 300 more need the oldest gone.
    t += 1000;
    ok(await a.begin(S1));
    ok(await a.keep(S1, info('1'), bytes(300)));
    const left = readdirSync(rec()).sort();
    expect(left).toEqual([S1, 'midsessionB', 'newsessionC'].sort());
    // More than the cap even with every gone session removed: refused, and nothing of it is written.
    const r = await a.keep(S1, info('2'), bytes(2000));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.message).toMatch(/no room for a recovery copy of 2\.vmd/);
    expect(readdirSync(path.join(rec(), S1)).some((n) => n.startsWith('2.'))).toBe(false);
    // The live session's own copy is never pruned.
    expect(existsSync(path.join(rec(), S1, '1.json'))).toBe(true);
  });

  it('keeps at most maxGoneSessions gone sessions, removing the oldest', async () => {
    let t = 1000;
    const a = service({ now: () => t, maxGoneSessions: 2 });
    for (const s of ['sessionOne1', 'sessionTwo2', 'sessionThree3']) {
      t += 1000;
      ok(await a.begin(s));
      ok(await a.keep(s, info('1'), bytes(5)));
      await a.end(s);
    }
    ok(await a.begin(S1));
    ok(await a.keep(S1, info('1'), bytes(5)));
    expect(readdirSync(rec()).sort()).toEqual([S1, 'sessionThree3', 'sessionTwo2'].sort());
  });

  it('refuses a link where the recovery folder is, and writes nothing through it', async () => {
    const elsewhere = path.join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, rec());
    const a = service();
    const r = await a.begin(S1);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.code).toBe('E_IO_DENIED');
    expect(!r.ok && r.error.message).toMatch(/is a link/);
    expect((await a.keep(S1, info('1'), bytes(10))).ok).toBe(false);
    expect(readdirSync(elsewhere)).toEqual([]);
    // Nothing listed from there either.
    expect(ok(await a.list()).copies).toEqual([]);
  });

  it("refuses a link where a session's folder is, and never replaces a file through a link inside it", async () => {
    const elsewhere = path.join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    mkdirSync(rec());
    symlinkSync(elsewhere, path.join(rec(), S1));
    const a = service();
    expect((await a.begin(S1)).ok).toBe(false);
    expect(readdirSync(elsewhere)).toEqual([]);

    // A link planted at a description's name inside a real session folder: replaced by the file, its target untouched.
    ok(await a.begin(S2));
    const victim = path.join(elsewhere, 'victim.txt');
    writeFileSync(victim, 'keep me');
    symlinkSync(victim, path.join(rec(), S2, '1.json'));
    ok(await a.keep(S2, info('1'), bytes(10)));
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
  });

  it('skips damaged and partial copies with a notice, not a crash, and still offers the good ones', async () => {
    const a = service();
    ok(await a.begin(S1));
    for (const d of ['good', 'short', 'changed', 'nobytes', 'badjson']) ok(await a.keep(S1, info(d), bytes(40, 3)));
    await a.end(S1);
    const folder = path.join(rec(), S1);
    const metaOf = (d: string) => JSON.parse(readFileSync(path.join(folder, `${d}.json`), 'utf8'));
    // A crash mid-write of the bytes (shorter), other bytes than described, the bytes gone, a description cut off.
    writeFileSync(path.join(folder, metaOf('short').file), bytes(12, 3));
    writeFileSync(path.join(folder, metaOf('changed').file), bytes(40, 9));
    rmSync(path.join(folder, metaOf('nobytes').file));
    writeFileSync(path.join(folder, 'badjson.json'), '{"doc":"badjson","na');
    // A stray file and a folder of another name are not sessions or copies.
    writeFileSync(path.join(rec(), 'notes.txt'), 'x');
    const b = service();
    const l = ok(await b.list());
    expect(l.copies.map((c) => c.doc).sort()).toEqual(['changed', 'good']);
    expect(l.notices.sort()).toEqual([
      `badjson.json (session ${S1}): its description is damaged; that copy is ignored`,
      `nobytes.vmd (session ${S1}): its bytes are missing; that copy is ignored`,
      `short.vmd (session ${S1}): its bytes are incomplete (12 of 40); that copy is ignored`,
    ]);
    // Same length but other bytes: found when read (its hash), refused with the reason, nothing opened.
    const r = await b.read(S1, 'changed');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.message).toBe('the recovery copy of changed.vmd: its bytes are not the ones written');
    expect(ok(await b.read(S1, 'good')).bytes).toEqual(bytes(40, 3));
  });

  it('goes through dispatch: arguments checked (ids, info, bytes), bytes and description round-trip', async () => {
    const h = createServices({ settingsDir: dir, dialogs: noDialogs, emit: () => undefined, runBatch: (() => undefined) as never, appInfo: { name: 't', version: '0', mode: 'browser', versions: { node: '' } } });
    open.push(h.recovery);
    expect((await dispatch(h.handlers, 'beginRecovery', ['../../etc'])).ok).toBe(false);
    expect((await dispatch(h.handlers, 'beginRecovery', ['short'])).ok).toBe(false);
    ok(await dispatch(h.handlers, 'beginRecovery', [S1]));
    const bad = await dispatch(h.handlers, 'keepRecoveryCopy', [S1, { ...info('1'), extra: 1 }, bytes(3)]);
    expect(!bad.ok && bad.error.code).toBe('E_ARGUMENT');
    expect((await dispatch(h.handlers, 'keepRecoveryCopy', [S1, info('../x'), bytes(3)])).ok).toBe(false);
    expect((await dispatch(h.handlers, 'keepRecoveryCopy', [S1, info('1'), [1, 2, 3]])).ok).toBe(false);
    expect((await dispatch(h.handlers, 'keepRecoveryCopy', [S1, info('1'), new Uint8Array(0)])).ok).toBe(false);
    ok(await dispatch(h.handlers, 'keepRecoveryCopy', [S1, info('1', { actor: 'Miku' }), bytes(3, 5)]));
    await h.recovery.end(S1);
    const l = ok(await dispatch(h.handlers, 'listRecovery', [])) as { copies: { actor?: string }[] };
    expect(l.copies[0].actor).toBe('Miku');
    const r = ok(await dispatch(h.handlers, 'readRecoveryCopy', [S1, '1'])) as { bytes: Uint8Array };
    expect(r.bytes).toEqual(bytes(3, 5));
    ok(await dispatch(h.handlers, 'discardRecovery', [S1]));
    expect(existsSync(path.join(rec(), S1))).toBe(false);
  });

  it('under Electron: a path the page was never granted is kept as none; a recovered copy grants its path for the save', async () => {
    const h = createServices({ settingsDir: path.join(dir, 'settings'), dialogs: noDialogs, emit: () => undefined, runBatch: (() => undefined) as never, appInfo: { name: 't', version: '0', mode: 'electron', versions: { node: '' } }, oneRecoverySession: true });
    open.push(h.recovery);
    const access = createAccessList();
    const g = guardHandlers(h.handlers, access);
    const chosen = path.join(dir, 'chosen.vmd');
    const secret = path.join(dir, 'secret.vmd');
    writeFileSync(chosen, 'x');
    writeFileSync(secret, 'x');
    access.grantFile(chosen);
    ok(await g.beginRecovery(S1));
    ok(await g.keepRecoveryCopy(S1, info('1', { path: chosen }), bytes(3)));
    ok(await g.keepRecoveryCopy(S1, info('2', { path: secret }), bytes(3)));
    await h.recovery.end(S1);
    const l = ok(await g.listRecovery());
    expect(Object.fromEntries(l.copies.map((c) => [c.doc, c.path]))).toEqual({ '1': chosen, '2': null });
    // A fresh start (nothing granted): reading the copy grants its file for a save (as a motion).
    const access2 = createAccessList();
    const g2 = guardHandlers(h.handlers, access2);
    expect(access2.allows(chosen)).toBe(false);
    ok(await g2.readRecoveryCopy(S1, '1'));
    expect(access2.allows(chosen, ['motion'])).toBe(true);
  });
  it("under Electron: a scene's layout copy names only files the window was given; recovering it grants the scene and what it names, each for its role", async () => {
    const h = createServices({ settingsDir: path.join(dir, 'settings'), dialogs: noDialogs, emit: () => undefined, runBatch: (() => undefined) as never, appInfo: { name: 't', version: '0', mode: 'electron', versions: { node: '' } }, oneRecoverySession: true });
    open.push(h.recovery);
    const proj = path.join(dir, 'proj');
    mkdirSync(proj);
    const file = (n: string) => path.join(proj, n);
    for (const n of ['duet.vmdscene', 'miku.pmx', 'dance.vmd', 'camera.vmd', 'song.wav', 'other.vmd']) writeFileSync(file(n), 'x');
    const sceneText = (o: Record<string, unknown>) => new TextEncoder().encode(JSON.stringify({ format: 'vmd-studio-scene', version: 1, ...o }));
    // The layout autosave writes: one actor's motion by path, the other's from its copy (motion null), a song;
    // gone.vmd is a motion the scene named that is not on disk (kept as the scene names it).
    const layout = sceneText({ actors: [{ model: 'miku.pmx', motion: 'dance.vmd' }, { model: null, motion: null, recoveryCopy: '2' }, { model: null, motion: 'gone.vmd' }], camera: 'camera.vmd', audio: { path: 'song.wav' } });
    const sceneInfo = info('scene', { name: 'duet.vmdscene', path: file('duet.vmdscene'), kind: 'scene', format: 'vmdscene', keys: 3 });
    const access = createAccessList();
    const g = guardHandlers(h.handlers, access);
    ok(await g.beginRecovery(S1));
    // The window was given the scene and what it names (as opening the scene grants them)…
    access.grantFile(file('duet.vmdscene'));
    access.grantFile(file('miku.pmx'), 'model');
    access.grantFile(file('dance.vmd'), 'motion');
    access.grantFile(file('camera.vmd'), 'motion');
    // …but not yet the song: a layout naming a file the window was never given is refused, and nothing is kept.
    const refused = await g.keepRecoveryCopy(S1, sceneInfo, layout);
    expect(refused).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED', file: file('song.wav') } });
    access.grantFile(file('song.wav'), 'audio');
    // Nor one naming other.vmd, which it was not given either.
    expect(await g.keepRecoveryCopy(S1, sceneInfo, sceneText({ actors: [{ model: null, motion: 'other.vmd' }] }))).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED', file: file('other.vmd') } });
    ok(await g.keepRecoveryCopy(S1, sceneInfo, layout));
    await h.recovery.end(S1);
    // A fresh start (nothing granted): Recover reads the layout, which grants the scene for Save Scene and each file
    // for its role only; other.vmd (never named by the layout) stays closed.
    const access2 = createAccessList();
    const g2 = guardHandlers(h.handlers, access2);
    expect(access2.allows(file('dance.vmd'))).toBe(false);
    const r = ok(await g2.readRecoveryCopy(S1, 'scene'));
    expect(r.copy.kind).toBe('scene');
    expect(access2.allows(file('duet.vmdscene'))).toBe(true);
    expect(access2.allows(file('miku.pmx'), ['model'])).toBe(true);
    expect(access2.allows(file('dance.vmd'), ['motion'])).toBe(true);
    expect(access2.allows(file('camera.vmd'), ['motion'])).toBe(true);
    expect(access2.allows(file('song.wav'), ['audio'])).toBe(true);
    expect(access2.allows(file('dance.vmd'), ['model'])).toBe(false);
    expect(access2.allows(file('other.vmd'))).toBe(false);
  });
});
