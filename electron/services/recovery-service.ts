/**
 * Recovery copies of unsaved documents (autosave), kept only under the app's own settings folder:
 *
 *   <settingsDir>/recovery/<session>/session.json    the session's liveness mark: pid, host, beatAt (heartbeat), ended
 *   <settingsDir>/recovery/<session>/<doc>.json      a copy's description (RecoveryCopyInfo, savedAt, its bytes' file,
 *                                                     size and SHA-256)
 *   <settingsDir>/recovery/<session>/<doc>.<n>.bin   the bytes Save would have written
 *
 * A session is one window (Electron) or one browser page; it names itself with a random id (beginRecovery). It is
 * live while the process that serves it runs and has not been told it ended (`end`, called by the server when a
 * page's event stream is gone, and by Electron when its window's page is replaced); this process rewrites the
 * `beatAt` of its live sessions every `heartbeatMs`. Another process's session is gone when its pid is no longer
 * running on this host, or when its heartbeat is older than `staleMs` (another host, a reused pid). Only gone
 * sessions are listed: a page never sees another live page's documents.
 *
 * Every write is atomic (atomicWrite, never through a link: followLinks false). A link or a file where the recovery
 * folder or a session's folder should be is refused (E_IO_DENIED), nothing is written there. A replaced copy's
 * new bytes go into a new file before its description names them, so a crash in between leaves the old copy whole.
 * A copy whose description does not parse or whose bytes are missing, shorter or other than described is skipped
 * with a notice, never a throw. The folder is bounded: at most `maxTotalBytes` of copies (the oldest gone sessions
 * are removed first to make room; a copy that still does not fit is refused) and at most `maxGoneSessions` gone
 * sessions kept.
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errValue, okValue, type IpcResult } from '../../shared/ipc/contract';
import { RECOVERY_DOC_ID, RECOVERY_SESSION_ID, type RecoveryCopy, type RecoveryCopyInfo, type RecoveryListing } from '../../shared/ipc/recovery-types';
import { MAX_MOTION_FILE_BYTES } from '../../shared/ipc/validate';
import { atomicWrite, readBytes } from '../fs/files';

/** The folder under the settings folder. */
export const RECOVERY_FOLDER = 'recovery';
/** How often this process marks its live sessions as alive. */
export const HEARTBEAT_MS = 10_000;
/** A session of another process whose mark is older than this is gone (its process may be on another host). */
export const STALE_MS = 60_000;
/** All copies together: four of the largest motion files. */
export const MAX_RECOVERY_BYTES = 4 * MAX_MOTION_FILE_BYTES;
/** Gone sessions kept (the oldest beyond this are removed). */
export const MAX_GONE_SESSIONS = 16;
/** A description file is a few hundred bytes. */
const MAX_META_BYTES = 64 * 1024;

export interface RecoveryOptions {
  settingsDir: string;
  heartbeatMs?: number;
  staleMs?: number;
  maxTotalBytes?: number;
  maxGoneSessions?: number;
  /**
   * One session at a time (Electron's one window): a session begun ends the others of this process (the page was
   * reloaded or replaced after a crash of its renderer).
   */
  oneSession?: boolean;
  now?: () => number;
  /** Whether process `pid` runs on this host (tests replace it). */
  pidAlive?: (pid: number) => boolean;
}

export interface RecoveryService {
  /** Marks `session` live in this process and writes its liveness mark. */
  begin(session: string): Promise<IpcResult<void>>;
  /** The session's page is gone (closed, crashed, reloaded): its copies stay, to be offered to the next page. */
  end(session: string): Promise<void>;
  /** Writes (or replaces) the copy of one document of a live session of this process. */
  keep(session: string, info: RecoveryCopyInfo, bytes: Uint8Array): Promise<IpcResult<{ savedAt: number }>>;
  /** Removes one document's copy (saved, or closed without saving); a missing one is fine. */
  drop(session: string, doc: string): Promise<IpcResult<void>>;
  /** The copies gone sessions left, newest first, and a notice for each one that could not be read. */
  list(): Promise<IpcResult<RecoveryListing>>;
  /** One copy of a gone session: its description and bytes (checked against the description). */
  read(session: string, doc: string): Promise<IpcResult<{ copy: RecoveryCopy; bytes: Uint8Array }>>;
  /** Removes a gone session's copies (one document, or all of them and the session). */
  discard(session: string, doc?: string): Promise<IpcResult<void>>;
  /** Stops the heartbeat (the process is closing). */
  close(): void;
}

interface SessionMark {
  pid: number;
  host: string;
  startedAt: number;
  beatAt: number;
  ended?: number;
}

interface StoredMeta extends RecoveryCopyInfo {
  savedAt: number;
  file: string;
  size: number;
  sha256: string;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function defaultPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, as another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A folder that must be a real folder (not a link, not a file): made when missing. Null when fine, else why not. */
async function realFolder(dir: string, make: boolean): Promise<string | null> {
  try {
    const st = await fsp.lstat(dir);
    if (st.isSymbolicLink()) return `${dir} is a link; recovery copies are never written through a link`;
    if (!st.isDirectory()) return `${dir} is not a folder`;
    return null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return `${dir}: ${(e as Error).message}`;
    if (!make) return `${dir} does not exist`;
    try {
      // The settings folder is the app's own (made as settings.json's is); the recovery folder and its sessions' are made here.
      await fsp.mkdir(path.dirname(dir), { recursive: true });
      await fsp.mkdir(dir, { mode: 0o700 });
      return realFolder(dir, false);
    } catch (e2) {
      return `${dir}: ${(e2 as Error).message}`;
    }
  }
}

/** A regular file's bytes (never through a link), or null. */
async function readPlain(file: string, maxBytes: number): Promise<Uint8Array | null> {
  try {
    const st = await fsp.lstat(file);
    if (!st.isFile()) return null;
  } catch {
    return null;
  }
  const r = await readBytes(file, { maxBytes });
  return r.ok ? r.value : null;
}

function parseMeta(raw: unknown): StoredMeta | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as Record<string, unknown>;
  const str = (v: unknown) => typeof v === 'string';
  const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  if (!str(m.doc) || !RECOVERY_DOC_ID.test(m.doc as string)) return null;
  if (!str(m.name) || !(m.path === null || str(m.path))) return null;
  if (!['motion', 'camera', 'light', 'scene'].includes(m.kind as string) || !['vmd', 'vpd', 'vmdscene'].includes(m.format as string)) return null;
  if (!num(m.keys) || !num(m.savedAt) || !num(m.size) || !str(m.file) || !/^[A-Za-z0-9_.-]+\.bin$/.test(m.file as string) || !str(m.sha256)) return null;
  return m as unknown as StoredMeta;
}

export function createRecoveryService(o: RecoveryOptions): RecoveryService {
  const root = path.join(o.settingsDir, RECOVERY_FOLDER);
  const now = o.now ?? Date.now;
  const pidAlive = o.pidAlive ?? defaultPidAlive;
  const staleMs = o.staleMs ?? STALE_MS;
  const maxTotal = o.maxTotalBytes ?? MAX_RECOVERY_BYTES;
  const maxGone = o.maxGoneSessions ?? MAX_GONE_SESSIONS;
  const host = os.hostname();
  const live = new Map<string, SessionMark>();
  /** Writes of one session run one after another (a copy replaced while its previous write is on its way). */
  const queues = new Map<string, Promise<unknown>>();
  const inOrder = <T>(session: string, fn: () => Promise<T>): Promise<T> => {
    const run = (queues.get(session) ?? Promise.resolve()).then(fn, fn);
    queues.set(session, run.catch(() => undefined));
    return run;
  };

  const sessionDir = (s: string) => path.join(root, s);
  const writeMark = async (s: string, mark: SessionMark) => {
    const why = (await realFolder(root, true)) ?? (await realFolder(sessionDir(s), true));
    if (why) return errValue<void>('E_IO_DENIED', why, { file: sessionDir(s) });
    const r = await atomicWrite(path.join(sessionDir(s), 'session.json'), new TextEncoder().encode(JSON.stringify(mark) + '\n'), { overwrite: true, followLinks: false });
    return r.ok ? okValue(undefined) : (r as IpcResult<void>);
  };

  const heartbeat = setInterval(() => {
    for (const [s, mark] of live) {
      mark.beatAt = now();
      void inOrder(s, () => writeMark(s, mark)).catch(() => undefined);
    }
  }, o.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref?.();

  const readJson = async (file: string): Promise<unknown> => {
    const b = await readPlain(file, MAX_META_BYTES);
    if (!b) return undefined;
    try {
      return JSON.parse(new TextDecoder().decode(b));
    } catch {
      return undefined;
    }
  };

  /** Whether a session folder belongs to a session that is gone, and since when it was last alive. */
  const stateOf = async (s: string): Promise<{ gone: boolean; lastAlive: number }> => {
    if (live.has(s)) return { gone: false, lastAlive: now() };
    const m = (await readJson(path.join(sessionDir(s), 'session.json'))) as Partial<SessionMark> | undefined;
    if (!m || typeof m.beatAt !== 'number' || typeof m.pid !== 'number') {
      // No readable mark (written by nothing alive, or damaged): gone, as old as its folder.
      const st = await fsp.lstat(sessionDir(s)).catch(() => null);
      return { gone: true, lastAlive: st?.mtimeMs ?? 0 };
    }
    const lastAlive = m.beatAt;
    if (typeof m.ended === 'number') return { gone: true, lastAlive };
    if (m.host === host && (m.pid === process.pid || !pidAlive(m.pid))) return { gone: true, lastAlive };
    return { gone: now() - m.beatAt > staleMs, lastAlive };
  };

  const sessionFolders = async (): Promise<string[]> => {
    if (await realFolder(root, false)) return [];
    const names = await fsp.readdir(root).catch(() => [] as string[]);
    const out: string[] = [];
    for (const n of names) {
      if (!RECOVERY_SESSION_ID.test(n)) continue;
      if (!(await realFolder(sessionDir(n), false))) out.push(n);
    }
    return out;
  };

  /** A session's copies as described, each with the problem that keeps it from being offered (or null). */
  const copiesOf = async (s: string, withBytes: boolean) => {
    const dir = sessionDir(s);
    const names = await fsp.readdir(dir).catch(() => [] as string[]);
    const out: { doc: string; meta: StoredMeta | null; problem: string | null; bytes?: Uint8Array }[] = [];
    for (const n of names) {
      const m = /^([A-Za-z0-9_-]{1,64})\.json$/.exec(n);
      if (!m || n === 'session.json') continue;
      const meta = parseMeta(await readJson(path.join(dir, n)));
      if (!meta || meta.doc !== m[1]) {
        out.push({ doc: m[1], meta: null, problem: 'its description is damaged' });
        continue;
      }
      const file = path.join(dir, meta.file);
      if (!withBytes) {
        const st = await fsp.lstat(file).catch(() => null);
        out.push({ doc: m[1], meta, problem: !st?.isFile() ? 'its bytes are missing' : st.size !== meta.size ? `its bytes are incomplete (${st.size} of ${meta.size})` : null });
        continue;
      }
      const bytes = await readPlain(file, MAX_MOTION_FILE_BYTES);
      const problem = !bytes ? 'its bytes are missing' : bytes.byteLength !== meta.size ? `its bytes are incomplete (${bytes.byteLength} of ${meta.size})` : sha256(bytes) !== meta.sha256 ? 'its bytes are not the ones written' : null;
      out.push({ doc: m[1], meta, problem, ...(bytes ? { bytes } : {}) });
    }
    return out;
  };

  const folderBytes = async (dir: string): Promise<number> => {
    let total = 0;
    for (const n of await fsp.readdir(dir).catch(() => [] as string[])) {
      const st = await fsp.lstat(path.join(dir, n)).catch(() => null);
      // The copies' bytes (descriptions and marks are a few hundred bytes each).
      if (st?.isFile() && n.endsWith('.bin')) total += st.size;
    }
    return total;
  };

  /** Removes gone sessions: beyond maxGone (oldest first), then oldest first until `room` more bytes fit. */
  const prune = async (room: number, keep: string): Promise<boolean> => {
    const all = await sessionFolders();
    const gone: { s: string; lastAlive: number; bytes: number }[] = [];
    let total = 0;
    for (const s of all) {
      const bytes = await folderBytes(sessionDir(s));
      total += bytes;
      if (s === keep) continue;
      const st = await stateOf(s);
      if (st.gone) gone.push({ s, lastAlive: st.lastAlive, bytes });
    }
    gone.sort((a, b) => a.lastAlive - b.lastAlive);
    while (gone.length > 0 && (gone.length > maxGone || total + room > maxTotal)) {
      const g = gone.shift()!;
      await fsp.rm(sessionDir(g.s), { recursive: true, force: true });
      total -= g.bytes;
    }
    return total + room <= maxTotal;
  };

  const badSession = (s: unknown) => (typeof s === 'string' && RECOVERY_SESSION_ID.test(s) ? null : errValue<never>('E_ARGUMENT', 'not a recovery session id'));
  const badDoc = (d: unknown) => (typeof d === 'string' && RECOVERY_DOC_ID.test(d) ? null : errValue<never>('E_ARGUMENT', 'not a recovery document id'));

  /** Removes a document's description and every bytes file of it but `except`. */
  const removeCopy = async (s: string, doc: string, except: string | null) => {
    const dir = sessionDir(s);
    if (except === null) await fsp.rm(path.join(dir, `${doc}.json`), { force: true });
    for (const n of await fsp.readdir(dir).catch(() => [] as string[])) {
      if (n !== except && n.startsWith(`${doc}.`) && n.endsWith('.bin')) await fsp.rm(path.join(dir, n), { force: true });
    }
  };

  return {
    begin: (s) =>
      (async () => {
        const bad = badSession(s);
        if (bad) return bad;
        if (o.oneSession) for (const other of [...live.keys()]) if (other !== s) await endSession(other);
        const t = now();
        const mark: SessionMark = live.get(s) ?? { pid: process.pid, host, startedAt: t, beatAt: t };
        mark.beatAt = t;
        live.set(s, mark);
        return inOrder(s, () => writeMark(s, mark));
      })(),
    end: (s) => endSession(s),
    keep: (s, info, bytes) =>
      inOrder(s, async () => {
        const bad = badSession(s) ?? badDoc(info.doc);
        if (bad) return bad;
        const mark = live.get(s);
        if (!mark) return errValue('E_ARGUMENT', `recovery session ${s} is not open in this window (beginRecovery first)`);
        const why = (await realFolder(root, true)) ?? (await realFolder(sessionDir(s), true));
        if (why) return errValue('E_IO_DENIED', why, { file: root });
        // Room for it: what its previous copy held is given back once it is replaced.
        const prev = parseMeta(await readJson(path.join(sessionDir(s), `${info.doc}.json`)));
        if (!(await prune(Math.max(0, bytes.byteLength - (prev?.size ?? 0)), s))) {
          return errValue('E_IO', `no room for a recovery copy of ${info.name} (${bytes.byteLength} bytes): the recovery folder holds at most ${maxTotal} bytes`, { file: root });
        }
        const savedAt = now();
        const file = `${info.doc}.${savedAt.toString(36)}${randomBytes(3).toString('hex')}.bin`;
        const w = await atomicWrite(path.join(sessionDir(s), file), bytes, { overwrite: false, followLinks: false });
        if (!w.ok) return w as IpcResult<never>;
        const meta: StoredMeta = { ...info, savedAt, file, size: bytes.byteLength, sha256: sha256(bytes) };
        const m = await atomicWrite(path.join(sessionDir(s), `${info.doc}.json`), new TextEncoder().encode(JSON.stringify(meta) + '\n'), { overwrite: true, followLinks: false });
        if (!m.ok) {
          await fsp.rm(path.join(sessionDir(s), file), { force: true });
          return m as IpcResult<never>;
        }
        await removeCopy(s, info.doc, file);
        return okValue({ savedAt });
      }),
    drop: (s, doc) =>
      inOrder(s, async () => {
        const bad = badSession(s) ?? badDoc(doc);
        if (bad) return bad;
        if (await realFolder(sessionDir(s), false)) return okValue(undefined);
        await removeCopy(s, doc, null);
        return okValue(undefined);
      }),
    list: async () => {
      const copies: RecoveryCopy[] = [];
      const notices: string[] = [];
      const all = await sessionFolders();
      for (const s of all) {
        if (!(await stateOf(s)).gone) continue;
        const found = await copiesOf(s, false);
        if (found.length === 0) {
          // A session that ended with nothing unsaved: nothing to offer, its folder goes.
          await fsp.rm(sessionDir(s), { recursive: true, force: true });
          continue;
        }
        for (const c of found) {
          if (c.problem || !c.meta) notices.push(`${c.meta?.name ?? `${c.doc}.json`} (session ${s}): ${c.problem ?? 'damaged'}; that copy is ignored`);
          else {
            const { file: _f, sha256: _h, size, ...info } = c.meta;
            copies.push({ ...info, session: s, bytes: size });
          }
        }
      }
      copies.sort((a, b) => b.savedAt - a.savedAt);
      return okValue({ copies, notices });
    },
    read: async (s, doc) => {
      const bad = badSession(s) ?? badDoc(doc);
      if (bad) return bad;
      if ((await realFolder(sessionDir(s), false)) || !(await stateOf(s)).gone) return errValue('E_IO_NOT_FOUND', `no recovery copy ${doc} of a closed session ${s}`);
      const found = (await copiesOf(s, true)).find((c) => c.doc === doc);
      if (!found?.meta) return errValue('E_IO_NOT_FOUND', `no recovery copy ${doc} in session ${s}`);
      if (found.problem || !found.bytes) return errValue('E_IO', `the recovery copy of ${found.meta.name}: ${found.problem}`, { file: path.join(sessionDir(s), found.meta.file) });
      const { file: _f, sha256: _h, size, ...info } = found.meta;
      return okValue({ copy: { ...info, session: s, bytes: size }, bytes: found.bytes });
    },
    discard: async (s, doc) => {
      const bad = badSession(s) ?? (doc === undefined ? null : badDoc(doc));
      if (bad) return bad;
      if (await realFolder(sessionDir(s), false)) return okValue(undefined);
      if (!(await stateOf(s)).gone) return errValue('E_IO_DENIED', `recovery session ${s} is still open in another window; its copies are its own`);
      return inOrder(s, async () => {
        if (doc === undefined) await fsp.rm(sessionDir(s), { recursive: true, force: true });
        else {
          await removeCopy(s, doc, null);
          if ((await copiesOf(s, false)).length === 0) await fsp.rm(sessionDir(s), { recursive: true, force: true });
        }
        return okValue(undefined);
      });
    },
    close: () => clearInterval(heartbeat),
  };

  async function endSession(s: string): Promise<void> {
    const mark = live.get(s);
    if (!mark) return;
    live.delete(s);
    mark.ended = now();
    await inOrder(s, () => writeMark(s, mark)).catch(() => undefined);
  }
}
