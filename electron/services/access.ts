/**
 * Under Electron, main reads and writes only what a person chose: the renderer runs web content, and a
 * page that went wrong must not be able to list, read or overwrite anything else on the disk.
 *
 * Granted (by electron/main.ts): native dialog results (a file, or a folder and everything in it),
 * dropped files (the preload reports the path the platform gave for a real dropped File), files from
 * the command line, a second instance and macOS open-file, the recent list (main alone writes it, from
 * opens and saves that were themselves granted) and the preview model kept in settings. Everything else
 * is E_IO_DENIED.
 *
 * A scene file is someone else's words: opening a chosen scene grants each path it names for its role
 * only (`GrantKind`): a motion or camera path as a motion (openFile, saveFile), a model as a model
 * (readModelFile, and readAsset for textures under its own folder), the music as audio (readAudioFile);
 * never as a folder, never for a kind its real file's extension does not have, nothing that is not a
 * regular file. A file found in the scene's folder for a path that is not there (a friend's absolute path, a
 * name in another case: shared/scene/scene-locate.ts) is granted as that path would be, and only when its
 * real file lies in the scene folder's real folder. A network or device path it names (`\\host\share\…`, `//host/share/…`, `\\?\…`, `\\.\…`,
 * CON…) is not granted and not touched: asking for it answers E_IO_REMOTE, which the renderer shows,
 * unless the person chose that path in a dialog (or it lies on the share the scene itself was opened
 * from).
 *
 * Every check resolves links first (`check`): a path is allowed when its real file is a granted file's
 * real file, or lies in a granted folder's real folder. A link inside a chosen folder that points out of
 * it reaches nothing; a granted file never passes as a folder (listDirectory and a batch's folders need a
 * folder chosen in a dialog).
 *
 * `guardHandlers` wraps the contract's handlers with these checks; it is plain Node, so tests run it
 * without Electron. The browser mode does not use it: there the in-page dialog is the person's choice and
 * the token guards the rest (see README.md, "Security").
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { OP_OPTION_SPECS } from '../../shared/batch/op-specs';
import type { BatchJob } from '../../shared/batch/types';
import { errValue, okValue, type IpcResult, type RequestHandlers, type Requests } from '../../shared/ipc/contract';
import { AUDIO_EXTENSIONS, hasExtension, MODEL_EXTENSIONS, MOTION_EXTENSIONS } from '../../shared/ipc/file-types';
import { parseScene, sceneFileRefs, type SceneFileRole } from '../../shared/scene/scene-file';
import type { LocatedFile } from '../../shared/scene/scene-locate';
import { RECOVERY_UNTITLED_SCENE } from '../../shared/scene/recovery-layout';
import { realTarget } from '../fs/files';

/**
 * What a granted file may be used as: `any` for what the person chose (a dialog, a drop, the command
 * line, the recent list); a scene's paths each for their role only.
 */
export type GrantKind = 'any' | 'motion' | 'model' | 'audio';

export interface AccessList {
  /** Grants one file (read and write): a dialog's answer, a drop, a file handed over by the OS; or, with a kind, for that use only. */
  grantFile(file: string, kind?: GrantKind): void;
  /** Grants a folder and everything under it (a folder dialog's answer). */
  grantFolder(dir: string): void;
  /** Without touching the disk: a granted file (of one of `kinds`; any kind when omitted), or anything inside a granted folder. */
  allows(p: string, kinds?: readonly GrantKind[]): boolean;
  /** Without touching the disk: a granted folder or anything inside one; a granted file never counts. */
  allowsFolder(p: string): boolean;
  /**
   * As allows / allowsFolder, with every link resolved first, in `p` and in what was granted: its real file
   * must be a granted file's (of one of `kinds`) or lie in a granted folder. A network or device path is
   * checked as written (never resolved, which would connect to its host).
   */
  check(p: string, need: readonly GrantKind[] | 'folder'): Promise<boolean>;
}

export interface AccessOptions {
  /** Defaults to process.platform; Windows and macOS compare paths case-insensitively. */
  platform?: string;
  /**
   * The real path of `p` (links resolved). Default: the file system's, when `platform` is this machine's;
   * the path itself otherwise (tests of another platform's rules).
   */
  realPath?: (p: string) => Promise<string>;
}

function pathApi(platform: string): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** True when `child` is `parent` or lies under it (both absolute and normalised). */
function isInside(p: path.PlatformPath, child: string, parent: string): boolean {
  const r = p.relative(parent, child);
  return r === '' || (!r.startsWith('..') && !p.isAbsolute(r));
}

/** Windows' reserved device names: `CON`, `NUL.vmd`, `com1.wav` name a device, not a file, in any folder. */
const DOS_DEVICE = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/**
 * Whether `p` is a network or device path, whatever the platform: UNC (`\\host\share`, `//host/share`,
 * WebDAV `\\host@SSL@443\DavWWWRoot`), the Win32 device and long-path namespaces (`\\?\…`, `\\.\…`, `\??\…`),
 * or a name Windows keeps for a device (`CON`, `NUL.vmd`, `COM1`…) as its last part.
 */
export function isRemoteOrDevicePath(p: string): boolean {
  if (/^[\\/]{2}/.test(p) || /^\\\?\?\\/.test(p)) return true;
  const base = p.split(/[\\/]/).pop() ?? '';
  return DOS_DEVICE.test(base.trim());
}

/** The `\\host\share` a UNC path lies on, lower case; null for any other path (and for the device namespaces). */
export function uncShareOf(p: string): string | null {
  const m = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)/.exec(p);
  if (!m || m[1] === '?' || m[1] === '.') return null;
  return `\\\\${m[1]}\\${m[2]}`.toLowerCase();
}

/** What a scene's path may be used as, and the extensions its real file must have for that. */
const ROLE_KIND: Record<SceneFileRole, { kind: GrantKind; exts: readonly string[] }> = {
  motion: { kind: 'motion', exts: MOTION_EXTENSIONS },
  camera: { kind: 'motion', exts: MOTION_EXTENSIONS },
  model: { kind: 'model', exts: MODEL_EXTENSIONS },
  audio: { kind: 'audio', exts: AUDIO_EXTENSIONS },
};

/** How long a check waits for grants whose real paths are still being resolved. */
const GRANT_WAIT_MS = 3000;

export function createAccessList(opts: AccessOptions = {}): AccessList {
  const platform = opts.platform ?? process.platform;
  const p = pathApi(platform);
  const fold = platform === 'linux' ? (s: string) => s : (s: string) => s.toLowerCase();
  const norm = (s: string) => fold(p.resolve(s));
  const real =
    opts.realPath ??
    (platform === process.platform ? (s: string) => realTarget(s).catch(() => path.resolve(s)) : (s: string) => Promise.resolve(s));
  /** Granted files by path as written, and by real path once resolved: the kinds each may be used as. */
  const files = new Map<string, Set<GrantKind>>();
  const realFiles = new Map<string, Set<GrantKind>>();
  const folders = new Set<string>();
  const realFolders = new Set<string>();
  /** Real paths still being resolved: a check waits for them. */
  const pending = new Set<Promise<void>>();

  const add = (m: Map<string, Set<GrantKind>>, key: string, kind: GrantKind) => {
    let set = m.get(key);
    if (!set) m.set(key, (set = new Set()));
    set.add(kind);
  };
  const resolving = (lexical: string, done: (r: string) => void) => {
    // Never resolved: a network path (resolving would connect to its host) or a device.
    if (isRemoteOrDevicePath(lexical)) return;
    const job = real(lexical).then(
      (r) => done(norm(r)),
      () => undefined,
    );
    const tracked = job.finally(() => pending.delete(tracked));
    pending.add(tracked);
  };
  const fits = (set: Set<GrantKind> | undefined, kinds: readonly GrantKind[] | undefined) =>
    !!set && (kinds === undefined || set.has('any') || kinds.some((k) => set.has(k)));
  const inFolder = (t: string, among: Set<string>) => {
    for (const f of among) if (isInside(p, t, f)) return true;
    return false;
  };
  const valid = (s: unknown): s is string => typeof s === 'string' && s.length > 0 && !s.includes('\0');

  return {
    grantFile(file, kind = 'any') {
      if (!valid(file)) return;
      add(files, norm(file), kind);
      resolving(file, (r) => add(realFiles, r, kind));
    },
    grantFolder(dir) {
      if (!valid(dir)) return;
      folders.add(norm(dir));
      resolving(dir, (r) => realFolders.add(r));
    },
    allows(target, kinds) {
      if (!valid(target)) return false;
      const t = norm(target);
      return fits(files.get(t), kinds) || inFolder(t, folders);
    },
    allowsFolder(target) {
      return valid(target) && inFolder(norm(target), folders);
    },
    async check(target, need) {
      if (!valid(target)) return false;
      const kinds = need === 'folder' ? null : need;
      if (isRemoteOrDevicePath(target)) {
        // As written only: chosen (a dialog, the command line, a drop, the recent list), in a chosen folder,
        // or named by a scene opened from that same share.
        const t = norm(target);
        return inFolder(t, folders) || (kinds !== null && fits(files.get(t), kinds));
      }
      const r = norm(await real(target));
      const hit = () => inFolder(r, realFolders) || (kinds !== null && fits(realFiles.get(r), kinds));
      if (hit() || pending.size === 0) return hit();
      // A grant still being resolved (granted a moment ago) may be the one: wait for it, but not for ever
      // (a drive that does not answer); one not resolved by then does not count.
      await Promise.race([Promise.all([...pending]), new Promise((done) => setTimeout(done, GRANT_WAIT_MS).unref?.())]);
      return hit();
    },
  };
}

/** The refusal every ungranted path gets; names the request and the path, says how to choose it. */
export function denied<T = never>(request: string, file: string, what = 'a file'): IpcResult<T> {
  return errValue<T>('E_IO_DENIED', `${request}: ${what} that was not chosen in this session; choose it in a dialog, drop it on the window or open it from the File menu`, { file });
}

/** The refusal of a network or device path nobody chose: typed, so the renderer can say what happened. */
export function remoteRefused<T = never>(request: string, file: string): IpcResult<T> {
  return errValue<T>(
    'E_IO_REMOTE',
    `${request}: a network or device path that was not chosen in this session is not opened (it would connect to another computer); choose it in a dialog if you trust it`,
    { file },
  );
}

/** The batch option names that hold a path to read (the `file` kind in OP_OPTION_SPECS: rename's map). */
function fileOptionsOf(job: BatchJob): string[] {
  const specs = OP_OPTION_SPECS[job.op] ?? [];
  return specs.filter((s) => s.kind === 'file').map((s) => s.name);
}

/**
 * Requests whose first argument is a file to read or write, and what a granted file must be granted as
 * for each. Listed by name (not through the handler types) so a request added to the contract later is
 * named here once and needs nothing else.
 */
const FILE_REQUESTS: Readonly<Record<string, readonly GrantKind[]>> = {
  openFile: ['motion', 'any'],
  // Its first bytes only, of a file the person chose (Open… of a renamed VMD), or a scene's motion.
  readFileHead: ['motion', 'any'],
  saveFile: ['motion', 'any'],
  readModelFile: ['model', 'any'],
  openScene: ['any'],
  saveScene: ['any'],
  readAudioFile: ['audio', 'any'],
  readMapFile: ['any'],
  readTimingFile: ['any'],
  saveMapFile: ['any'],
  // Only a file the person opened or saved (an open document's): its size and times, never its bytes.
  fileStamp: ['motion', 'any'],
};

type AnyHandler = (...args: unknown[]) => Promise<IpcResult<unknown>>;

/**
 * Grants what a chosen scene names, each path for its role: not a network or device path (unless on the
 * scene's own share), not a path whose real file has another kind's extension or is not a regular file.
 * A file found beside the scene for a path that is not there (`located`: scene-service.ts, by
 * shared/scene/scene-locate.ts) is granted for that path's role with the same checks, and only when it is a
 * regular file whose real path lies in the scene folder's real path (a link there pointing out reaches nothing).
 */
async function grantSceneRefs(
  access: AccessList,
  scenePath: string,
  bytes: Uint8Array,
  realPath: (p: string) => Promise<string>,
  sameMachine: boolean,
  pa: path.PlatformPath,
  located: readonly LocatedFile[] = [],
): Promise<void> {
  const scene = parseScene(bytes, scenePath);
  if (!scene.ok) return;
  const share = uncShareOf(scenePath);
  const sceneDir = pa.dirname(pa.resolve(scenePath));
  /** Whether the file found for a path lies in the scene's folder, links resolved, and is a regular file of the role's kind. */
  const foundInside = async (found: string, exts: readonly string[]) => {
    if (isRemoteOrDevicePath(found) || isRemoteOrDevicePath(scenePath) || !hasExtension(found, exts)) return false;
    const [r, dir] = await Promise.all([realPath(found).catch(() => null), realPath(sceneDir).catch(() => null)]);
    if (r === null || dir === null) return false;
    const [rr, dd] = [pa.resolve(r), pa.resolve(dir)];
    if (rr === dd || !isInside(pa, rr, dd) || isRemoteOrDevicePath(r) || !hasExtension(r, exts)) return false;
    if (!sameMachine) return true;
    const st = await fsp.stat(r).catch(() => null);
    return !!st && st.isFile();
  };
  for (const ref of sceneFileRefs(scene.value)) {
    const { kind, exts } = ROLE_KIND[ref.role];
    const found = located.find((l) => l.path === ref.path)?.found;
    if (found !== undefined && (await foundInside(found, exts))) access.grantFile(found, kind);
    if (!hasExtension(ref.path, exts)) continue;
    if (isRemoteOrDevicePath(ref.path)) {
      // A scene opened from a share may name files on that same share (already connected); nothing else.
      if (share !== null && uncShareOf(ref.path) === share) access.grantFile(ref.path, kind);
      continue;
    }
    if (sameMachine) {
      // Through a link, the file it reaches must still be of this kind and a regular file (or not there yet).
      const r = await realPath(ref.path).catch(() => null);
      if (r === null || isRemoteOrDevicePath(r) || !hasExtension(r, exts)) continue;
      const st = await fsp.stat(r).catch(() => null);
      if (st && !st.isFile()) continue;
    }
    access.grantFile(ref.path, kind);
  }
}

/**
 * The first file a scene layout (autosave's copy of a scene) names that this window may not read for its role, or
 * null when it may read them all; a layout that does not read as a scene is refused as its own path. A local path
 * with nothing there (a scene's missing motion, kept as the scene names it) reaches nothing and is let through; a
 * network or device path is never looked at.
 */
async function sceneRefNotAllowed(access: AccessList, scenePath: string, bytes: Uint8Array): Promise<string | null> {
  const scene = parseScene(bytes, scenePath);
  if (!scene.ok) return scenePath;
  for (const ref of sceneFileRefs(scene.value)) {
    if (await access.check(ref.path, [ROLE_KIND[ref.role].kind, 'any'])) continue;
    if (isRemoteOrDevicePath(ref.path) || (await fsp.lstat(ref.path).then(() => true, () => false))) return ref.path;
  }
  return null;
}

/**
 * The contract's handlers with every path checked against `access`: reads, writes, listings and batch
 * folders outside what the person chose answer E_IO_DENIED (E_IO_REMOTE for a network or device path)
 * without touching the disk; the dialogs' answers are granted as they come back.
 */
export function guardHandlers(h: RequestHandlers, access: AccessList, opts: AccessOptions = {}): RequestHandlers {
  const platform = opts.platform ?? process.platform;
  const p = pathApi(platform);
  const sameMachine = platform === process.platform && !opts.realPath;
  const realPath = opts.realPath ?? (sameMachine ? (s: string) => realTarget(s) : (s: string) => Promise.resolve(s));
  const refuse = <T>(request: string, file: string, what?: string): IpcResult<T> => (isRemoteOrDevicePath(file) ? remoteRefused<T>(request, file) : denied<T>(request, file, what));
  const grantAnswer = (grant: (x: string) => void) => (r: IpcResult<string | null>) => {
    if (r.ok && typeof r.value === 'string') grant(r.value);
    return r;
  };
  const out: Record<string, AnyHandler> = { ...(h as unknown as Record<string, AnyHandler>) };
  for (const [name, kinds] of Object.entries(FILE_REQUESTS)) {
    const inner = out[name];
    if (!inner) continue;
    out[name] = async (file: unknown, ...rest: unknown[]) =>
      typeof file === 'string' && (await access.check(file, kinds)) ? inner(file, ...rest) : refuse(name, String(file));
  }
  const guarded: Partial<RequestHandlers> = {
    // A scene the person chose names the motions, models, camera and music it holds: opening it grants
    // each for its role (and each is still read by its own request, with its own extension and size checks).
    openScene: (file) =>
      (out.openScene as Requests['openScene'])(file).then(async (r) => {
        if (r.ok) await grantSceneRefs(access, r.value.path, r.value.bytes, realPath, sameMachine, p, r.value.located);
        return r;
      }),
    pickFile: (o) => h.pickFile(o).then(grantAnswer((f) => access.grantFile(f))),
    pickSaveFile: (o) => h.pickSaveFile(o).then(grantAnswer((f) => access.grantFile(f))),
    pickFolder: (o) => h.pickFolder(o).then(grantAnswer((d) => access.grantFolder(d))),
    listDirectory: async (d, o) => (d !== '' && (await access.check(d, 'folder')) ? h.listDirectory(d, o) : refuse('listDirectory', d, 'a folder')),
    // A new folder only inside a folder chosen in a dialog: the path as written, and the nearest part of it
    // that exists with its links resolved (a link there pointing out of the chosen folder reaches nothing).
    createFolder: async (d) => {
      let at = p.resolve(d);
      if (sameMachine) while (!(await fsp.stat(at).then(() => true, () => false)) && p.dirname(at) !== at) at = p.dirname(at);
      return access.allowsFolder(d) && (await access.check(at, 'folder')) ? h.createFolder(d) : refuse('createFolder', d, 'a folder');
    },
    readAsset: async (model, rel) => {
      if (!(await access.check(model, ['model', 'any']))) return refuse('readAsset', model, 'a model');
      // Textures come from the chosen model's own folder, whatever `..` the model's file names (the file
      // service checks the same of the file it finds, links resolved).
      const base = p.dirname(p.resolve(model));
      const target = p.resolve(base, rel.replace(/\\/g, '/'));
      if (!isInside(p, target, base)) return denied('readAsset', target, "a file outside the model's folder");
      return h.readAsset(model, rel);
    },
    startBatch: async (job) => {
      for (const [what, dir] of [
        ['input folder', job.inputDir],
        ['output folder', job.outputDir],
      ] as const) {
        if (!(await access.check(dir, 'folder'))) return refuse('startBatch', dir, `the ${what}`);
      }
      for (const name of fileOptionsOf(job)) {
        const v = job.options[name];
        if (typeof v === 'string' && v !== '' && !(await access.check(v, ['any']))) return refuse('startBatch', v, `the --${name} file`);
      }
      return h.startBatch(job);
    },
    // An export goes where the person chose; a PNG sequence chosen as NAME.png writes NAME_000000.png… beside it.
    beginExportFile: (file, o) => {
      const seq = /^(.*)_\d{6}\.png$/i.exec(file);
      const allowed = access.allows(file) || (seq !== null && access.allows(`${seq[1]}.png`));
      return allowed ? h.beginExportFile(file, o) : Promise.resolve(denied('beginExportFile', file));
    },
    // The free space of the disk an export goes to, only where the person chose to write (as beginExportFile):
    // elsewhere no figure (null, as a platform without one), so the dialog says nothing and nothing is learnt.
    diskSpace: (file) => (access.allows(file) ? h.diskSpace(file) : Promise.resolve(okValue(null))),
    // Only a file the person chose (an export's target: its save dialog granted it) is opened or shown.
    // (a PNG sequence chosen as NAME.png wrote NAME_000000.png…, the path its report names).
    revealFile: (file, how) => {
      const seq = /^(.*)_\d{6}\.png$/i.exec(file);
      const allowed = access.allows(file) || (seq !== null && access.allows(`${seq[1]}.png`));
      return allowed ? h.revealFile(file, how) : Promise.resolve(denied('revealFile', file));
    },
    // A capture goes onto a model the person chose (the actor's model, one picked in the import dialog),
    // or onto the standard skeleton (model null: no file read); the capture itself arrives as bytes the
    // renderer read through openFile or a drop.
    importMocap: async (job) => (job.model === null || job.modelBytes !== undefined || (await access.check(job.model, ['model', 'any'])) ? h.importMocap(job) : refuse('importMocap', job.model, 'a model')),
    // An export goes where the person chose in the save dialog, played on a model the person chose.
    exportMocap: async (file, job, o) => {
      if (!access.allows(file)) return denied('exportMocap', file);
      if (job.model !== null && !(await access.check(job.model, ['model', 'any']))) return refuse('exportMocap', job.model, 'a model');
      return h.exportMocap(file, job, o);
    },
    setSettings: async (patch) => {
      // The preview model is reopened at the next start without asking: only one chosen now may be kept.
      const m = patch.previewModel;
      if (typeof m === 'string' && !(await access.check(m, ['model', 'any']))) return refuse('setSettings', m, 'a model');
      return h.setSettings(patch);
    },
    // A recovery copy keeps its file's path only when that file may be written now (a save of it would be allowed):
    // a path the page was never given is kept as no path (the copy is offered as an untitled document).
    // A scene's layout copy names only files this window was given, each for its role: recovering it grants them again.
    keepRecoveryCopy: async (session, info, bytes) => {
      if (info.kind === 'scene') {
        const refused = await sceneRefNotAllowed(access, info.path ?? RECOVERY_UNTITLED_SCENE, bytes);
        if (refused !== null) return refuse('keepRecoveryCopy', refused);
      }
      return h.keepRecoveryCopy(session, info.path !== null && !(await access.check(info.path, ['motion', 'any'])) ? { ...info, path: null, stamp: undefined } : info, bytes);
    },
    // A recovered document keeps its file: it was allowed when its copy was kept, so its Save may write there again
    // (still with the usual check that the file on disk is the version it was read as: SaveOptions.expect).
    // A recovered scene layout grants its scene file (for Save Scene) and what it names, by role, as opening the scene did.
    readRecoveryCopy: (session, doc) =>
      h.readRecoveryCopy(session, doc).then(async (r) => {
        if (!r.ok) return r;
        const { copy, bytes } = r.value;
        if (copy.kind === 'scene') {
          if (copy.path) access.grantFile(copy.path);
          await grantSceneRefs(access, copy.path ?? RECOVERY_UNTITLED_SCENE, bytes, realPath, sameMachine, p);
        } else if (copy.path) access.grantFile(copy.path, 'motion');
        return r;
      }),
    listRecent: () =>
      h.listRecent().then((r) => {
        if (r.ok) for (const f of r.value) access.grantFile(f.path);
        return r;
      }),
  };
  return { ...(out as unknown as RequestHandlers), ...guarded };
}
