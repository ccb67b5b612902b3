/**
 * The service layer both transports call: `createServices` returns one handler per contract request.
 * electron/ipc.ts registers them on ipcMain; electron/server/ serves them over HTTP. Nothing here
 * imports Electron: windows and dialogs arrive as plain callbacks.
 */
import os from 'node:os';
import { errValue, okValue, type AppInfo, type DocumentState, type IpcResult, type RequestHandlers, type RequestName } from '../../shared/ipc/contract';
import { validateRequest } from '../../shared/ipc/validate';
import { createBatchService, type BatchService, type Emit, type RunBatch } from './batch-service';
import type { DialogService } from './dialog-service';
import { createFileService, type FileService } from './file-service';
import { fileStampNow, readChecked } from './file-io';
import { TIMING_EXTENSIONS } from '../../shared/ipc/file-types';
import { MAX_TIMING_FILE_BYTES } from '../../shared/key-edits/mouth-timings';
import { createRecentFiles, type RecentFilesService } from './recent-files';
import { createSceneService, type SceneService } from './scene-service';
import { createSettingsService, SettingsRefused, type SettingsService } from './settings-service';
import { createExportService, type ExportService } from './export-service';
import { createMocapService, type MocapService } from './mocap-service';
import { createRecoveryService, type RecoveryService } from './recovery-service';

export interface ServicesOptions {
  /** Folder for settings.json and recent.json. */
  settingsDir: string;
  dialogs: DialogService;
  /** Pushes an event to the window (IPC) or to connected browsers (SSE). */
  emit: Emit;
  runBatch: RunBatch;
  appInfo: Omit<AppInfo, 'nativeDialogs' | 'homeDir' | 'platform'> & Partial<Pick<AppInfo, 'homeDir' | 'platform'>>;
  /** Window hooks (Electron); the browser mode leaves them out. */
  window?: {
    setDocumentState(state: DocumentState): void;
    close(): void;
  };
  /**
   * The system's shell (Electron's shell.openPath / showItemInFolder); the browser mode leaves it out.
   * `openPath` resolves to '' on success, else the system's reason.
   */
  shell?: {
    openPath(path: string): Promise<string>;
    showItemInFolder(path: string): void;
  };
  homeDir?: string;
  /** The mocap conversions' worker script (null: in process; undefined: the bundle's). */
  mocapWorkerPath?: string | null;
  /** Electron's one window: a recovery session begun ends the window's earlier one (a reloaded page). */
  oneRecoverySession?: boolean;
}

export interface Services {
  handlers: RequestHandlers;
  files: FileService;
  scenes: SceneService;
  recent: RecentFilesService;
  settings: SettingsService;
  batch: BatchService;
  exports: ExportService;
  mocap: MocapService;
  recovery: RecoveryService;
  /** Last state the renderer reported (for the close prompt and the title). */
  documentState(): DocumentState;
}

/** Runs an async service call, turning an unexpected throw into an E_INTERNAL value. */
async function guard<T>(fn: () => Promise<IpcResult<T>>): Promise<IpcResult<T>> {
  try {
    return await fn();
  } catch (e) {
    return errValue('E_INTERNAL', (e as Error)?.message ?? String(e));
  }
}

export function createServices(o: ServicesOptions): Services {
  const recent = createRecentFiles(o.settingsDir);
  const settings = createSettingsService(o.settingsDir);
  const homeDir = o.homeDir ?? o.appInfo.homeDir ?? os.homedir();
  const files = createFileService({ recent, homeDir });
  const scenes = createSceneService({ recent });
  const batch = createBatchService({ runBatch: o.runBatch, emit: o.emit });
  const exports = createExportService();
  const mocap = createMocapService({ workerPath: o.mocapWorkerPath, emit: o.emit });
  const recovery = createRecoveryService({ settingsDir: o.settingsDir, oneSession: o.oneRecoverySession });
  let docState: DocumentState = { path: null, name: null, dirty: false };
  const info: AppInfo = { platform: process.platform, ...o.appInfo, homeDir, nativeDialogs: o.dialogs.native };

  const handlers: RequestHandlers = {
    openFile: (p, opts) => guard(() => files.openFile(p, opts)),
    pickFile: (opts) => guard(() => o.dialogs.pickFile(opts)),
    pickSaveFile: (opts) => guard(() => o.dialogs.pickSaveFile(opts)),
    pickFolder: (opts) => guard(() => o.dialogs.pickFolder(opts)),
    listDirectory: (p, opts) => guard(() => files.listDirectory(p, opts)),
    readFileHead: (p) => guard(() => files.readFileHead(p)),
    createFolder: (p) => guard(() => files.createFolder(p)),
    saveFile: (p, bytes, opts) => guard(() => files.saveFile(p, bytes, opts)),
    listRecent: () => guard(async () => okValue(await recent.list())),
    clearRecent: () => guard(async () => okValue(await recent.clear())),
    readModelFile: (p, opts) => guard(() => files.readModelFile(p, opts)),
    readAsset: (m, rel) => guard(() => files.readAsset(m, rel)),
    openScene: (p) => guard(() => scenes.openScene(p)),
    saveScene: (p, bytes, opts) => guard(() => scenes.saveScene(p, bytes, opts)),
    readAudioFile: (p) => guard(() => scenes.readAudioFile(p)),
    getSettings: () => guard(async () => okValue(await settings.get())),
    setSettings: (patch) =>
      guard(async () => {
        try {
          return okValue(await settings.set(patch));
        } catch (e) {
          if (e instanceof SettingsRefused) return errValue('E_ARGUMENT', `setSettings: ${e.message}`);
          throw e;
        }
      }),
    startBatch: (job) => guard(() => batch.start(job)),
    cancelBatch: (id) => guard(() => batch.cancel(id)),
    appInfo: () => Promise.resolve(okValue(info)),
    setDocumentState: (state) =>
      guard(async () => {
        docState = {
          path: state.path ?? null,
          name: state.name ?? null,
          dirty: state.dirty,
          ...(state.unsaved ? { unsaved: [...state.unsaved] } : {}),
          ...(state.scene !== undefined ? { scene: state.scene, nameDirty: state.nameDirty === true } : {}),
          ...(state.stageMotion ? { stageMotion: state.stageMotion } : {}),
          ...(state.busy ? { busy: true } : {}),
        };
        o.window?.setDocumentState(docState);
        return okValue(undefined);
      }),
    beginExportFile: (p, opts) => guard(() => exports.begin(p, opts)),
    writeExportChunk: (id, position, bytes) => guard(() => exports.write(id, position, bytes)),
    finishExportFile: (id) => guard(() => exports.finish(id)),
    abortExportFile: (id) => guard(() => exports.abort(id)),
    importMocap: (job) => guard(() => mocap.importMocap(job)),
    cancelMocap: (id) => guard(() => mocap.cancelMocap(id)),
    exportMocap: (p, job, opts) => guard(() => mocap.exportMocap(p, job, opts)),
    readMapFile: (p) => guard(() => mocap.readMapFile(p)),
    readTimingFile: (p) => guard(() => readChecked(p, TIMING_EXTENSIONS, 'a mouth-timing file', MAX_TIMING_FILE_BYTES)),
    fileStamp: (p) => guard(() => fileStampNow(p)),
    saveMapFile: (p, bytes, opts) => guard(() => mocap.saveMapFile(p, bytes, opts)),
    diskSpace: (p) => guard(() => exports.diskSpace(p)),
    beginRecovery: (s) => guard(() => recovery.begin(s)),
    keepRecoveryCopy: (s, info, bytes) => guard(() => recovery.keep(s, info, bytes)),
    dropRecoveryCopy: (s, doc) => guard(() => recovery.drop(s, doc)),
    listRecovery: () => guard(() => recovery.list()),
    readRecoveryCopy: (s, doc) => guard(() => recovery.read(s, doc)),
    discardRecovery: (s, doc) => guard(() => recovery.discard(s, doc)),
    revealFile: (p, how) =>
      guard(async () => {
        if (!o.shell) return errValue('E_UNSUPPORTED', 'the browser mode cannot open files or the file manager');
        if (how === 'folder') {
          o.shell.showItemInFolder(p);
          return okValue(undefined);
        }
        const why = await o.shell.openPath(p);
        return why ? errValue('E_IO', `${p}: ${why}`) : okValue(undefined);
      }),
    closeWindow: () =>
      guard(async () => {
        if (!o.window) return errValue('E_UNSUPPORTED', 'no window to close in the browser mode');
        o.window.close();
        return okValue(undefined);
      }),
  };
  return { handlers, files, scenes, recent, settings, batch, exports, mocap, recovery, documentState: () => docState };
}

/**
 * Validates untrusted arguments, then calls the handler. Both transports go through here, so a bad
 * payload is refused the same way over IPC and HTTP: as an E_ARGUMENT value, never a throw.
 */
export async function dispatch(handlers: RequestHandlers, name: string, args: unknown[]): Promise<IpcResult<unknown>> {
  const why = validateRequest(name, args);
  if (why) return errValue('E_ARGUMENT', `${name}: ${why}`);
  const fn = handlers[name as RequestName] as (...a: unknown[]) => Promise<IpcResult<unknown>>;
  return guard(() => fn(...args));
}
