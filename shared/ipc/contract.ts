/**
 * The one contract between the renderer and the main-process services: every request and every pushed
 * event, with its types. Electron carries it over IPC (channel = `vmd:` + name), the browser mode over
 * HTTP + server-sent events. Both call the same service modules, so this file is the single source of truth.
 *
 * Errors cross as values (`{ ok: false, error }`), never as thrown strings: only a message survives a
 * throw across Electron's IPC. Bytes cross as Uint8Array (IPC structured clone) or raw in a binary frame
 * over HTTP (wire-frame.ts).
 */
import type { BatchJob, BatchProgress, BatchSummary } from '../batch/types';
import type { CodecError, ErrorCode, Outcome } from '../vmd/errors';
import type { MocapExportJob, MocapExportNotes, MocapImportJob, MocapImportResult } from './mocap-types';
import type { LocatedFile } from '../scene/scene-locate';
import type { RecoveryCopy, RecoveryCopyInfo, RecoveryListing } from './recovery-types';
import type { FileStamp } from './file-stamp';

/** An error as a value: the app's one error shape, `code` from the one `ErrorCode` union (shared/vmd/errors.ts). */
export type IpcError = CodecError;

/** A service's answer: the codec's `Result` without diagnostics (`Outcome`, shared/vmd/errors.ts). */
export type IpcResult<T> = Outcome<T, IpcError>;

/** Which version of a file is on disk (file-stamp.ts). */
export type { FileStamp } from './file-stamp';

/** A file read by main: its absolute path, base name and bytes. */
export interface OpenedFile {
  path: string;
  name: string;
  bytes: Uint8Array;
  /** The version read (openFile, openScene): what a save over it sends back as SaveOptions.expect. */
  stamp?: FileStamp;
  /**
   * The file's path with every link resolved (openFile, openScene): `path` is the one it was opened by (a
   * symbolic link, a folder link on the way), kept for the title and the tab; this one tells that two paths name
   * one file (the renderer's one-file-one-owner rule).
   */
  realPath?: string;
  /** A texture read by readAsset that was not where the model names it, and how it was found (file-service.ts locateAsset). */
  assetNote?: AssetNote;
}

/**
 * How readAsset found a texture that is not where the model names it:
 * - `encoding`: its name (or a folder's on the way) is the Shift_JIS bytes of the name the model stores, left
 *   as raw bytes or read as CP437 / CP1252 by an unzip that did not know the zip's encoding (`found`: the path
 *   relative to the model's folder as it reads on disk);
 * - `moved`: the folder the model names is not there (`folder`, e.g. `light/`) and the one file of that name
 *   under the model's folder is used (`found`, e.g. `Textures/arm.png`).
 */
export type AssetNote = { kind: 'encoding'; found: string; as: 'sjis-bytes' | 'cp437' | 'cp1252' } | { kind: 'moved'; folder: string; found: string };

/**
 * A scene file read by openScene: with the files it names that are not where it names them and were found
 * under its folder (shared/scene/scene-locate.ts), each granted for its role as the path written would be.
 */
export interface OpenedScene extends OpenedFile {
  located?: LocatedFile[];
}

/** Which kinds of file a picker or listing shows. */
export type { FileFilter } from './file-types';
export type { MocapExportJob, MocapFormat, MocapImportJob, MocapImportResult, MocapJointRow, MocapOptions } from './mocap-types';
import type { FileFilter } from './file-types';

export interface PickOptions {
  title?: string;
  /** Folder or file to start from. */
  defaultPath?: string;
  filter?: FileFilter;
}

export interface DirectoryEntry {
  name: string;
  path: string;
  kind: 'file' | 'dir';
  size: number;
  mtimeMs: number;
  /**
   * A name whose bytes are not UTF-8 text (a zip from Japanese Windows unpacked as Shift_JIS bytes): `name` and
   * `path` hold U+FFFD for them (no path string names the file, so it cannot be opened by them), `shownName` is the
   * name decoded as Shift_JIS (`'sjis'`) or as far as it reads (`'other'`), for the dialog to show with a mark.
   */
  notUtf8?: { shownName: string; as: 'sjis' | 'other' };
  /**
   * A UTF-8 name that reads as a Shift_JIS name garbled by an unzip that took it for CP437 or CP1252 ("âWâFâl.pmx"
   * for ジェネ.pmx: file-service.ts garbledSjisName): `name` is that Shift_JIS reading, for the dialog to offer as a
   * hint (the file opens by the name it has).
   */
  garbledSjis?: { name: string; as: 'cp437' | 'cp1252' };
}

export interface DirectoryListing {
  /** Absolute, normalised folder path. */
  path: string;
  /** Parent folder, or null at a root. */
  parent: string | null;
  /** Folders first, then files matching the filter, each sorted by name. */
  entries: DirectoryEntry[];
  /** When the path asked for was a file: that file (the listing is its folder's), for the dialog to select. */
  selected?: string;
}

/** How many first bytes readFileHead gives: enough for every magic the app tells a file by (file-kind.ts, mmd-family.ts). */
export const FILE_HEAD_BYTES = 64;

/** A file's first bytes (at most FILE_HEAD_BYTES), by readFileHead. */
export interface FileHead {
  /** Absolute path. */
  path: string;
  bytes: Uint8Array;
}

export interface SaveOptions {
  /** Replace an existing file (else E_IO_EXISTS). */
  overwrite?: boolean;
  /**
   * Keep the file being replaced as `name.vmd.bak`. The renderer asks for it on the first save of a document
   * after each open (and on Save As over another file), so the .bak is the file as it was before that opening.
   */
  backup?: boolean;
  /**
   * The version of the file the document was read from or last saved as (OpenedFile.stamp, SavedFile.stamp):
   * when the file on disk is another version, the save is refused with E_IO_CHANGED and nothing is written.
   */
  expect?: FileStamp;
  /**
   * The person answered Overwrite to E_IO_CHANGED: the save goes ahead, and the version on disk (the other
   * program's) is kept as the .bak whatever `backup` says; when it cannot be kept, nothing is written.
   */
  replaceChanged?: boolean;
}

export interface SavedFile {
  path: string;
  bytesWritten: number;
  /** The backup written by this save, or null (no previous file, or no backup asked for). */
  backupPath: string | null;
  /** Why no backup was written where one was due (the name is a link, a folder, another user's file…). */
  backupSkipped?: string;
  /** The version just written (saveFile, saveScene): the next save's SaveOptions.expect. */
  stamp?: FileStamp;
  /** The file written with every link resolved (saveFile), as OpenedFile.realPath. */
  realPath?: string;
  /** The file on disk had been changed by another program (replaceChanged): that version is now the .bak. */
  replacedChanged?: boolean;
}

export interface RecentFile {
  path: string;
  name: string;
  /** ms since epoch. */
  openedAt: number;
}

export type { Locale } from '../i18n/locale';
import type { Locale } from '../i18n/locale';

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface Settings {
  /** null = follow the system language. */
  locale: Locale | null;
  /** Folder the in-app and native dialogs start in. */
  lastDirectory: string | null;
  /** Model shown in the 3D preview (.pmx/.pmd), if any. */
  previewModel: string | null;
  window: WindowState;
  /** Small UI preferences other panels persist (panel sizes, toggles); flat, JSON values only. */
  ui: Record<string, string | number | boolean | null>;
}

export interface AppInfo {
  name: string;
  version: string;
  mode: 'electron' | 'browser';
  /** Native file dialogs available (Electron); the browser mode uses the in-app dialog with listDirectory. */
  nativeDialogs: boolean;
  platform: string;
  homeDir: string;
  versions: { node: string; electron?: string; chrome?: string; v8?: string };
}

/** What the renderer tells main about the open document (window title, unsaved-changes prompt on close). */
export interface DocumentState {
  path: string | null;
  /** The active document's name (null: none open). */
  name: string | null;
  /** Something is unsaved: the document, or in a scene any of its documents or the scene file's own content. */
  dirty: boolean;
  /** A scene's unsaved documents by file name (the close prompt names them all); absent for a lone motion. */
  unsaved?: string[];
  /** The window is a scene: its file's name ("Untitled scene" when it has none); absent for a lone motion. */
  scene?: string;
  /** In a scene, whether the active document itself is unsaved (its tab's ●). */
  nameDirty?: boolean;
  /**
   * The active document is a camera's or a light's motion (shared stageMotionKind): the native menu's Export
   * VPD/VRMA/BVH are off, as the app's own Export items are. Absent for a model's motion or none.
   */
  stageMotion?: 'camera' | 'light';
  /**
   * A job runs in the window (a video rendering, a physics bake, a Whole Motion fit, a merge, a folder batch, a capture
   * import: shell/job-guard.ts runningJob): closing the window asks first, as unsaved changes do (close-guard.ts).
   */
  busy?: boolean;
}

/**
 * The window's title, the same in Electron (main.ts) and the browser mode (the page's title): a lone motion
 * "dance.vmd * — VMD Studio"; a scene "duet.vmdscene * — camera.vmd — VMD Studio", the * after the scene
 * when anything of it is unsaved and after the active document only when that one is (as its tab's ●), so
 * a saved document is never shown with a * after it.
 */
export function windowTitle(s: DocumentState, app: string): string {
  const star = (dirty: boolean | undefined) => (dirty ? ' *' : '');
  if (s.scene === undefined) return s.name ? `${s.name}${star(s.dirty)} — ${app}` : app;
  const doc = s.name ? ` — ${s.name}${star(s.nameDirty)}` : '';
  return `${s.scene}${star(s.dirty)}${doc} — ${app}`;
}

/** Commands the native menu, accelerators and the close prompt send to the renderer. */
export const MENU_COMMANDS = [
  'open',
  'save',
  'saveAs',
  'exportVpd',
  'batch',
  'undo',
  'redo',
  'copyCurve',
  'pasteCurve',
  'about',
  /** Edit → Whole Motion…: the Batch dialog aimed at the open motion (mirror, trim, speed, shift, curves). */
  'wholeMotion',
  /** Help → Keyboard Shortcuts (F1): the keyboard and mouse reference. */
  'shortcuts',
  /** Help → Getting started: the first steps in plain words and a glossary. */
  'gettingStarted',
  /** Main was asked to close a window with unsaved changes: ask per unsaved document, save those chosen, then closeWindow(). */
  'saveAndClose',
  /** Render → Video…: the video export dialog. */
  'exportVideo',
  /** File → Export → VRM Animation (.vrma) / BVH: the active document on the active actor's model. */
  'exportVrma',
  'exportBvh',
  /** Scene → Close Scene (File → Close Scene in the native menu): asks about unsaved changes, then leaves the window empty. */
  'closeScene',
  /** File → New Motion (Ctrl+N; the toolbar's 新規): an empty motion for the shown model, asking first over unsaved changes. */
  'newMotion',
  /** File → Scene → Open Scene… / Save Scene As… / Save All / Save This Motion Only (the toolbar's Scene ▾). */
  'openScene',
  'saveSceneAs',
  'saveAll',
  'saveShown',
  /** Edit → Whole Motion → Bake physics… (Ctrl+Shift+B), Bake IK to FK…, Fit to model…, Merge with… (the Whole Motion dialog's buttons). */
  'bakePhysics',
  'bakeIk',
  'fitToModel',
  'mergeWith',
  /** File → Close (Ctrl+W): the document shown, asking first over its unsaved changes (the last one: as Close Scene). */
  'closeDocument',
  /** File → Open Recent → Clear Recent: asks first in the window (the toolbar's item asks the same). */
  'clearRecent',
  /** View → Reset layout (the toolbar's ? → Reset layout): every pane's size back to its default for the window. */
  'resetLayout',
  /** Edit → Import Mouth Timings… (the morph panel's Lip sync row, Import timings…): a timing list or .lab file to lip sync from. */
  'importMouthTimings',
] as const;
export type MenuCommandId = (typeof MENU_COMMANDS)[number];

/** Every request: name → signature. Each returns a Promise of an IpcResult. */
export interface Requests {
  /**
   * Reads a motion/pose file (any size main can hold) and remembers it in the recent list. `recent: false`: a
   * file read for a scene (an actor's motion, the camera) stays off the list: the scene is what was opened.
   */
  openFile(path: string, opts?: { recent?: boolean }): Promise<IpcResult<OpenedFile>>;
  /** Native open dialog; value null when cancelled. E_UNSUPPORTED in browser mode. */
  pickFile(opts?: PickOptions): Promise<IpcResult<string | null>>;
  /** Native save dialog; value null when cancelled. E_UNSUPPORTED in browser mode. */
  pickSaveFile(opts?: PickOptions): Promise<IpcResult<string | null>>;
  /** Native folder dialog; value null when cancelled. E_UNSUPPORTED in browser mode. */
  pickFolder(opts?: PickOptions): Promise<IpcResult<string | null>>;
  /** One folder's sub-folders and matching files ('' = home folder). */
  listDirectory(path: string, opts?: { filter?: FileFilter; showHidden?: boolean }): Promise<IpcResult<DirectoryListing>>;
  /**
   * A file's first bytes only (FILE_HEAD_BYTES): Open… of a name the app does not take tells by them what the file
   * is, as a drop does by the bytes it has (a VMD renamed .mvd opens; a real .mvd is named as MikuMikuMoving's).
   * E_FILE_EMPTY for an empty file.
   */
  readFileHead(path: string): Promise<IpcResult<FileHead>>;
  /**
   * Makes a folder and its missing parents (the in-app Save dialog's New Folder, and a typed folder that is
   * not there yet); a folder already there is fine. Value: its absolute path. Under Electron only inside a
   * folder chosen in a dialog (E_IO_DENIED elsewhere).
   */
  createFolder(path: string): Promise<IpcResult<string>>;
  /** Atomic write (temp + rename). */
  saveFile(path: string, bytes: Uint8Array, opts?: SaveOptions): Promise<IpcResult<SavedFile>>;
  listRecent(): Promise<IpcResult<RecentFile[]>>;
  clearRecent(): Promise<IpcResult<RecentFile[]>>;
  /**
   * Reads a .pmx/.pmd/.x model for the preview. `recent`: a model the person opened (Open…, a drop, Open Recent)
   * goes on the recent list when it reads as a PMX or PMD model; one read for a scene, a bake or the model the
   * preview reopens on start does not.
   */
  readModelFile(path: string, opts?: { recent?: boolean }): Promise<IpcResult<OpenedFile>>;
  /**
   * Reads a scene file (.vmdscene) and remembers it in the recent list; the renderer parses it (shared/scene).
   * `located`: its files that are not where it names them, found under its folder (shared/scene/scene-locate.ts).
   */
  openScene(path: string): Promise<IpcResult<OpenedScene>>;
  /** Atomic write of a scene file; refused (E_SCENE_…) when the bytes do not parse as a scene. */
  saveScene(path: string, bytes: Uint8Array, opts?: SaveOptions): Promise<IpcResult<SavedFile>>;
  /** Reads an audio file (WAV, MP3, OGG, FLAC, M4A/AAC…) for the renderer to decode with Web Audio. */
  readAudioFile(path: string): Promise<IpcResult<OpenedFile>>;
  /** Reads a texture or other asset a model refers to, relative to the model's folder (`\` or `/`; case-insensitive fallback). */
  readAsset(modelPath: string, relative: string): Promise<IpcResult<OpenedFile>>;
  getSettings(): Promise<IpcResult<Settings>>;
  /** Shallow merge (and `ui` merged key by key); returns the stored settings. */
  setSettings(patch: Partial<Settings>): Promise<IpcResult<Settings>>;
  startBatch(job: BatchJob): Promise<IpcResult<{ jobId: string }>>;
  /** value: whether a running job of that id was found and cancelled. */
  cancelBatch(jobId: string): Promise<IpcResult<boolean>>;
  appInfo(): Promise<IpcResult<AppInfo>>;
  setDocumentState(state: DocumentState): Promise<IpcResult<void>>;
  /** Closes the window without asking again (every unsaved document was answered Save and written, or Don't Save). */
  closeWindow(): Promise<IpcResult<void>>;

  // Streamed exports (video, PNG sequence): written into a temp file beside the target, renamed at the end.
  /** Opens an export to `path` (.mp4, .webm or .png); E_IO_EXISTS unless `overwrite`. */
  beginExportFile(path: string, opts?: { overwrite?: boolean }): Promise<IpcResult<{ id: string }>>;
  /** Writes bytes at a byte position of an open export (the muxer may go back to patch a header). */
  writeExportChunk(id: string, position: number, bytes: Uint8Array): Promise<IpcResult<void>>;
  /** Syncs and renames the export into place. */
  finishExportFile(id: string): Promise<IpcResult<SavedFile>>;
  /** Drops an open export and its temp file (nothing appears at the chosen name). */
  abortExportFile(id: string): Promise<IpcResult<void>>;
  /**
   * A written export shown by the system: 'open' opens it in its app (a video in the player), 'folder' shows it
   * selected in the file manager. E_UNSUPPORTED in the browser mode (a page cannot reach the file manager).
   */
  revealFile(path: string, how: 'open' | 'folder'): Promise<IpcResult<void>>;
  /**
   * The space left for this user on the disk a file would be written to (`path` is the file; its folder's
   * disk is asked), in bytes: the video dialog compares it with the export's rough size. null when the
   * platform gives no figure (no such folder, no statfs, or under Electron a path not chosen yet).
   */
  diskSpace(path: string): Promise<IpcResult<{ freeBytes: number } | null>>;

  // Motion capture (BVH, VRM Animation): converted off main's event loop (services/mocap-service.ts).
  /** A BVH or .vrma's bytes onto the model at `job.model` → the VMD's bytes, the report and the map table; E_CANCELLED when cancelled. */
  importMocap(job: MocapImportJob): Promise<IpcResult<MocapImportResult>>;
  /** Stops a running importMocap or exportMocap by its job id; value: whether one was running. */
  cancelMocap(id: string): Promise<IpcResult<boolean>>;
  /** A VMD's bytes played on the model (IK solved) written as .vrma or .bvh at `path`, atomically; E_IO_EXISTS unless `overwrite`. */
  exportMocap(path: string, job: MocapExportJob, opts?: SaveOptions): Promise<IpcResult<SavedFile & MocapExportNotes>>;
  /**
   * Reads a mouth-timing file for lip sync (.txt list or .lab, shared/key-edits/mouth-timings.ts); the renderer
   * decodes and parses it. At most MAX_TIMING_FILE_BYTES.
   */
  readTimingFile(path: string): Promise<IpcResult<OpenedFile>>;
  /** Reads a joint map file (.csv or .json, the CLI's --map format). */
  readMapFile(path: string): Promise<IpcResult<OpenedFile>>;
  /** Writes a joint map file (.csv or .json) atomically; E_IO_EXISTS unless `overwrite`. */
  saveMapFile(path: string, bytes: Uint8Array, opts?: SaveOptions): Promise<IpcResult<SavedFile>>;
  /**
   * The version of an open document's file on disk now (size, modification time, inode; never its bytes, so
   * no hash), or null when no file is there (moved or deleted): the renderer asks when the window gets the
   * focus back, to tell a file another program changed meanwhile (renderer/src/shell/disk-watch.ts).
   */
  fileStamp(path: string): Promise<IpcResult<FileStamp | null>>;

  // Autosave and recovery (electron/services/recovery-service.ts): copies kept in the app's own settings folder only.
  /** This window or page is recovery session `session` (a random id it made): live until its page is gone. */
  beginRecovery(session: string): Promise<IpcResult<void>>;
  /** Writes (replaces) the recovery copy of one unsaved document of this page's session: the bytes Save would write. */
  keepRecoveryCopy(session: string, info: RecoveryCopyInfo, bytes: Uint8Array): Promise<IpcResult<{ savedAt: number }>>;
  /** Removes one document's recovery copy (it was saved, or closed without saving). */
  dropRecoveryCopy(session: string, doc: string): Promise<IpcResult<void>>;
  /** The copies sessions that are gone (closed without saving, crashed) left; a live session's are never listed. */
  listRecovery(): Promise<IpcResult<RecoveryListing>>;
  /** One copy of a gone session, with its bytes (checked against what was written). Under Electron its path is granted for a save. */
  readRecoveryCopy(session: string, doc: string): Promise<IpcResult<{ copy: RecoveryCopy; bytes: Uint8Array }>>;
  /** Removes a gone session's copies: one document's, or all of them. */
  discardRecovery(session: string, doc?: string): Promise<IpcResult<void>>;
}

export type RequestName = keyof Requests;

/** Every pushed event: name → payload. */
export interface Events {
  /** A file to open: double-click, second instance, macOS open-file, Open Recent in the native menu. */
  fileOpened: { path: string };
  batchProgress: BatchProgress;
  batchDone: BatchSummary;
  menuCommand: { command: MenuCommandId };
  /** A running importMocap's fit: tracks done of total (throttled; the last has done = total). */
  mocapProgress: { id: string; done: number; total: number };
}

export type EventName = keyof Events;

/** Request names, in one list (checked against `Requests` below). */
export const REQUEST_NAMES = [
  'openFile',
  'pickFile',
  'pickSaveFile',
  'pickFolder',
  'listDirectory',
  'readFileHead',
  'createFolder',
  'saveFile',
  'listRecent',
  'clearRecent',
  'readModelFile',
  'readAsset',
  'openScene',
  'saveScene',
  'readAudioFile',
  'getSettings',
  'setSettings',
  'startBatch',
  'cancelBatch',
  'appInfo',
  'setDocumentState',
  'closeWindow',
  'beginExportFile',
  'writeExportChunk',
  'finishExportFile',
  'abortExportFile',
  'revealFile',
  'diskSpace',
  'importMocap',
  'cancelMocap',
  'exportMocap',
  'readMapFile',
  'readTimingFile',
  'saveMapFile',
  'fileStamp',
  'beginRecovery',
  'keepRecoveryCopy',
  'dropRecoveryCopy',
  'listRecovery',
  'readRecoveryCopy',
  'discardRecovery',
] as const satisfies readonly RequestName[];

export const EVENT_NAMES = ['fileOpened', 'batchProgress', 'batchDone', 'menuCommand', 'mocapProgress'] as const satisfies readonly EventName[];

// Compile-time: the lists name every request and event exactly (a missing one makes these `never`).
type Missing<All, Listed> = Exclude<All, Listed>;
const _allRequests: Missing<RequestName, (typeof REQUEST_NAMES)[number]> extends never ? true : never = true;
const _allEvents: Missing<EventName, (typeof EVENT_NAMES)[number]> extends never ? true : never = true;
void _allRequests;
void _allEvents;

/** The IPC channel of a request or event. */
export function channelOf(name: RequestName | EventName): `vmd:${string}` {
  return `vmd:${name}`;
}

/** `onFileOpened` for `fileOpened`. */
export type SubscribeName<E extends EventName> = `on${Capitalize<E>}`;

export function subscribeNameOf<E extends EventName>(name: E): SubscribeName<E> {
  return `on${name[0].toUpperCase()}${name.slice(1)}` as SubscribeName<E>;
}

/** Subscriptions: each returns its unsubscribe function (listener identity does not survive the bridge). */
export type EventSubscriptions = {
  [E in EventName as SubscribeName<E>]: (listener: (payload: Events[E]) => void) => () => void;
};

/**
 * What the renderer sees: in Electron `window.vmdStudio` from the preload, in the browser the HTTP client.
 * `getPathForFile` gives a dropped File's path (Electron) or null (browser: read the File's bytes instead).
 */
export type VmdStudioApi = Requests &
  EventSubscriptions & {
    getPathForFile(file: unknown): string | null;
  };

/** Handlers main registers: the requests without the transport. */
export type RequestHandlers = Requests;

/** Helper for service code: a success value. */
export function okValue<T>(value: T): IpcResult<T> {
  return { ok: true, value };
}

/** Helper for service code: an error value. */
export function errValue<T = never>(code: ErrorCode, message: string, extra: { file?: string; offset?: number; option?: string } = {}): IpcResult<T> {
  return { ok: false, error: { code, message, ...extra } };
}

export const DEFAULT_SETTINGS: Settings = {
  locale: null,
  lastDirectory: null,
  previewModel: null,
  window: { width: 1400, height: 900, maximized: false },
  ui: {},
};

/*
 * The one message the preload sends to main on its own, outside the requests the page calls: the page
 * cannot send on it, and nothing answers it.
 */

/**
 * The path the platform gave for a File the person dropped on the window (or picked in a file input):
 * main grants it so the request that opens it is allowed (electron/services/access.ts). Sent with
 * ipcRenderer.send before that request, on the same ordered channel.
 */
export const DROPPED_FILE_CHANNEL = 'vmd:droppedFile';
