/**
 * Under Electron, main reads and writes only what a person chose: the renderer runs web content, and a
 * page that went wrong must not be able to list, read or overwrite anything else on the disk.
 *
 * Granted (by electron/main.ts): native dialog results (a file, or a folder and everything in it),
 * dropped files (the preload reports the path the platform gave for a real dropped File), files from
 * the command line, a second instance and macOS open-file, the recent list (main alone writes it, from
 * opens and saves that were themselves granted), the preview model kept in settings, and the files a
 * granted scene file names (when it is opened). A model's textures are read from the chosen model's own
 * folder. Everything else is E_IO_DENIED.
 *
 * `guardHandlers` wraps the contract's handlers with these checks; it is plain Node, so tests run it
 * without Electron. The browser mode does not use it: there the in-page dialog is the person's choice
 * and the token guards the rest (see README.md, "Security").
 */
import path from 'node:path';
import { OP_OPTION_SPECS } from '../../shared/batch/op-specs';
import type { BatchJob } from '../../shared/batch/types';
import { errValue, type IpcResult, type RequestHandlers, type Requests } from '../../shared/ipc/contract';
import { parseScene, sceneFileRefs } from '../../shared/scene/scene-file';

export interface AccessList {
  /** Grants one file (read and write): a dialog's answer, a drop, a file handed over by the OS. */
  grantFile(file: string): void;
  /** Grants a folder and everything under it (a folder dialog's answer). */
  grantFolder(dir: string): void;
  /** True for a granted file, a granted folder, or anything inside a granted folder. */
  allows(p: string): boolean;
}

export interface AccessOptions {
  /** Defaults to process.platform; Windows and macOS compare paths case-insensitively. */
  platform?: string;
}

function pathApi(platform: string): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** True when `child` is `parent` or lies under it (both absolute and normalised). */
function isInside(p: path.PlatformPath, child: string, parent: string): boolean {
  const r = p.relative(parent, child);
  return r === '' || (!r.startsWith('..') && !p.isAbsolute(r));
}

export function createAccessList(opts: AccessOptions = {}): AccessList {
  const platform = opts.platform ?? process.platform;
  const p = pathApi(platform);
  const fold = platform === 'linux' ? (s: string) => s : (s: string) => s.toLowerCase();
  const norm = (s: string) => fold(p.resolve(s));
  const files = new Set<string>();
  const folders = new Set<string>();
  return {
    grantFile(file) {
      if (typeof file === 'string' && file.length > 0) files.add(norm(file));
    },
    grantFolder(dir) {
      if (typeof dir === 'string' && dir.length > 0) folders.add(norm(dir));
    },
    allows(target) {
      if (typeof target !== 'string' || target.length === 0 || target.includes('\0')) return false;
      const t = norm(target);
      if (files.has(t)) return true;
      for (const f of folders) if (isInside(p, t, f)) return true;
      return false;
    },
  };
}

/** The refusal every ungranted path gets; names the request and the path, says how to choose it. */
export function denied<T = never>(request: string, file: string, what = 'a file'): IpcResult<T> {
  return errValue<T>('E_IO_DENIED', `${request}: ${what} that was not chosen in this session; choose it in a dialog, drop it on the window or open it from the File menu`, { file });
}

/** The batch option names that hold a path to read (the `file` kind in OP_OPTION_SPECS: rename's map). */
function fileOptionsOf(job: BatchJob): string[] {
  const specs = OP_OPTION_SPECS[job.op] ?? [];
  return specs.filter((s) => s.kind === 'file').map((s) => s.name);
}

/**
 * Requests whose first argument is a file to read or write. Listed by name (not through the handler
 * types) so a request added to the contract later is named here once and needs nothing else.
 */
const FILE_REQUESTS: readonly string[] = ['openFile', 'saveFile', 'readModelFile', 'openScene', 'saveScene', 'readAudioFile'];

type AnyHandler = (...args: unknown[]) => Promise<IpcResult<unknown>>;

/**
 * The contract's handlers with every path checked against `access`: reads, writes, listings and batch
 * folders outside what the person chose answer E_IO_DENIED without touching the disk; the dialogs'
 * answers are granted as they come back.
 */
export function guardHandlers(h: RequestHandlers, access: AccessList, opts: AccessOptions = {}): RequestHandlers {
  const p = pathApi(opts.platform ?? process.platform);
  const grantAnswer = (grant: (x: string) => void) => (r: IpcResult<string | null>) => {
    if (r.ok && typeof r.value === 'string') grant(r.value);
    return r;
  };
  const out: Record<string, AnyHandler> = { ...(h as unknown as Record<string, AnyHandler>) };
  for (const name of FILE_REQUESTS) {
    const inner = out[name];
    if (!inner) continue;
    out[name] = (file: unknown, ...rest: unknown[]) =>
      typeof file === 'string' && access.allows(file) ? inner(file, ...rest) : Promise.resolve(denied(name, String(file)));
  }
  const guarded: Partial<RequestHandlers> = {
    // A scene the person chose names the motion, model, camera and music it holds: opening it grants them
    // (each is still read by its own request, with its own extension and size checks).
    openScene: (file) =>
      (out.openScene as Requests['openScene'])(file).then((r) => {
        if (r.ok) {
          const scene = parseScene(r.value.bytes, r.value.path);
          if (scene.ok) for (const ref of sceneFileRefs(scene.value)) access.grantFile(ref.path);
        }
        return r;
      }),
    pickFile: (o) => h.pickFile(o).then(grantAnswer((f) => access.grantFile(f))),
    pickSaveFile: (o) => h.pickSaveFile(o).then(grantAnswer((f) => access.grantFile(f))),
    pickFolder: (o) => h.pickFolder(o).then(grantAnswer((d) => access.grantFolder(d))),
    listDirectory: (d, o) => (d !== '' && access.allows(d) ? h.listDirectory(d, o) : Promise.resolve(denied('listDirectory', d, 'a folder'))),
    readAsset: (model, rel) => {
      if (!access.allows(model)) return Promise.resolve(denied('readAsset', model, 'a model'));
      // Textures come from the chosen model's own folder, whatever `..` the model's file names.
      const base = p.dirname(p.resolve(model));
      const target = p.resolve(base, rel.replace(/\\/g, '/'));
      if (!isInside(p, target, base)) return Promise.resolve(denied('readAsset', target, "a file outside the model's folder"));
      return h.readAsset(model, rel);
    },
    startBatch: (job) => {
      for (const [what, dir] of [
        ['input folder', job.inputDir],
        ['output folder', job.outputDir],
      ] as const) {
        if (!access.allows(dir)) return Promise.resolve(denied('startBatch', dir, `the ${what}`));
      }
      for (const name of fileOptionsOf(job)) {
        const v = job.options[name];
        if (typeof v === 'string' && v !== '' && !access.allows(v)) return Promise.resolve(denied('startBatch', v, `the --${name} file`));
      }
      return h.startBatch(job);
    },
    // An export goes where the person chose; a PNG sequence chosen as NAME.png writes NAME_000000.png… beside it.
    beginExportFile: (file, o) => {
      const seq = /^(.*)_\d{6}\.png$/i.exec(file);
      const allowed = access.allows(file) || (seq !== null && access.allows(`${seq[1]}.png`));
      return allowed ? h.beginExportFile(file, o) : Promise.resolve(denied('beginExportFile', file));
    },
    setSettings: (patch) => {
      // The preview model is reopened at the next start without asking: only one chosen now may be kept.
      const m = patch.previewModel;
      if (typeof m === 'string' && !access.allows(m)) return Promise.resolve(denied('setSettings', m, 'a model'));
      return h.setSettings(patch);
    },
    listRecent: () =>
      h.listRecent().then((r) => {
        if (r.ok) for (const f of r.value) access.grantFile(f.path);
        return r;
      }),
  };
  return { ...(out as unknown as RequestHandlers), ...guarded };
}
