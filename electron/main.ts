/**
 * Electron main process: wiring only. Single-instance lock first; files from argv, second instances
 * and macOS open-file go to the window as `fileOpened`; one window with remembered bounds and strict
 * web preferences; the contract's handlers on ipcMain (electron/ipc.ts) backed by the same service
 * modules the browser mode uses; the native menu; closing with unsaved changes hands the questions to the renderer (per document).
 *
 * Paths: main touches only what a person chose (services/access.ts). Every path that reaches the window
 * from here (argv, open-file, second instance, Open Recent), every dialog answer, every dropped file the
 * preload reports and the recent list is granted, the remembered preview model as a model; the paths a
 * chosen scene names are granted each for its role when it opens (never a network or device path: that
 * answers E_IO_REMOTE); anything else the renderer names gets E_IO_DENIED. Links are resolved first.
 */
import { app, BrowserWindow, ipcMain, Menu, session, shell } from 'electron';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { channelOf, DROPPED_FILE_CHANNEL, windowTitle, type DocumentState, type Events, type MenuCommandId } from '../shared/ipc/contract';
import { localeFromLanguage, t as translate, type UiStringKey } from '../shared/i18n/strings';
import { filesFromArgv } from './argv';
import { electronDialogs } from './electron-dialogs';
import { registerIpcHandlers, trustedFrameCheck } from './ipc';
import { menuTemplate } from './menu';
import { createServices, type Services } from './services';
import { createAccessList, guardHandlers } from './services/access';
import { APP_NAME, APP_VERSION } from './services/app-version';
import { runBatch } from './batch/engine';
import { closeAsksRenderer } from './close-guard';

// Same settings folder as the browser mode (server/paths.ts): <appData>/vmd-studio.
app.setPath('userData', path.join(app.getPath('appData'), 'vmd-studio'));

const gotLock = app.requestSingleInstanceLock();
if (!gotLock) {
  // Another instance runs: it receives our argv through 'second-instance'.
  app.quit();
} else {
  start();
}

function start(): void {
  let win: BrowserWindow | null = null;
  let services: Services | null = null;
  let rendererReady = false;
  let forceClose = false;
  const pending: string[] = filesFromArgv(process.argv, { packaged: app.isPackaged });
  /** What the person chose: the only paths the renderer's requests may name. */
  const access = createAccessList();
  pending.forEach((f) => access.grantFile(f));

  const rendererIndex = path.join(__dirname, '../renderer/index.html');
  const appUrl = pathToFileURL(rendererIndex).href;

  const send = <E extends keyof Events>(event: E, payload: Events[E]) => {
    if (win && !win.isDestroyed()) win.webContents.send(channelOf(event), payload);
  };
  const openInWindow = (files: string[]) => {
    // Handed over by the OS or the native menu: the person opened these.
    files.forEach((f) => access.grantFile(f));
    if (!rendererReady) {
      pending.push(...files);
      return;
    }
    for (const f of files) send('fileOpened', { path: f });
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  };

  // macOS delivers double-clicked files as open-file, possibly before 'ready': register now, queue.
  app.on('open-file', (event, file) => {
    event.preventDefault();
    openInWindow([file]);
  });

  app.on('second-instance', (_e, argv, workingDirectory) => {
    openInWindow(filesFromArgv(argv, { packaged: app.isPackaged, cwd: workingDirectory }));
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  // No page may open windows or navigate away; no webview; no permission is granted.
  app.on('web-contents-created', (_e, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      if (/^https:\/\//.test(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (e, url) => {
      if (url !== contents.getURL()) e.preventDefault();
    });
    contents.on('will-attach-webview', (e) => e.preventDefault());
  });

  /** The last settings write (window bounds on close): quitting waits for it. */
  let lastWrite: Promise<unknown> = Promise.resolve();
  app.on('window-all-closed', () => {
    void lastWrite.finally(() => app.quit());
  });

  const locale = async () => {
    const s = await services!.settings.get();
    return s.locale ?? localeFromLanguage(app.getLocale());
  };

  const rebuildMenu = async () => {
    if (!services) return;
    const loc = await locale();
    const recent = await services.recent.list();
    const template = menuTemplate({
      platform: process.platform,
      t: (k: UiStringKey) => translate(k, loc),
      recent,
      appName: APP_NAME,
      command: (id: MenuCommandId) => send('menuCommand', { command: id }),
      openRecent: (p) => openInWindow([p]),
      // Asked in the window first, as the toolbar's Clear Recent asks (commands.ts clearRecentAsking).
      clearRecent: () => send('menuCommand', { command: 'clearRecent' }),
      stageMotion: services.documentState().stageMotion,
    });
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  };

  /** What the menu was last built for: a camera or light motion turns its exports off. */
  let menuStage: DocumentState['stageMotion'];
  const applyDocumentState = (s: DocumentState) => {
    if (s.stageMotion !== menuStage) {
      menuStage = s.stageMotion;
      void rebuildMenu();
    }
    if (!win) return;
    win.setTitle(windowTitle(s, APP_NAME));
    if (process.platform === 'darwin') {
      win.setDocumentEdited(s.dirty);
      win.setRepresentedFilename(s.path ?? '');
    }
  };

  void app.whenReady().then(async () => {
    session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));

    services = createServices({
      settingsDir: app.getPath('userData'),
      // One window: a page reloaded (or restarted after its renderer crashed) begins a new recovery session, ending the old one.
      oneRecoverySession: true,
      dialogs: electronDialogs(() => win),
      emit: send,
      runBatch,
      appInfo: {
        name: APP_NAME,
        version: APP_VERSION,
        mode: 'electron',
        homeDir: app.getPath('home'),
        versions: { node: process.versions.node, electron: process.versions.electron, chrome: process.versions.chrome, v8: process.versions.v8 },
      },
      // After a video export: Open video / Show in folder (the services check the path was chosen).
      shell: { openPath: (p) => shell.openPath(p), showItemInFolder: (p) => shell.showItemInFolder(p) },
      window: {
        setDocumentState: applyDocumentState,
        close: () => {
          forceClose = true;
          win?.close();
        },
      },
    });
    // Chosen in earlier sessions: the recent list (main alone writes it) and the model the preview reopens.
    for (const r of await services.recent.list()) access.grantFile(r.path);
    const remembered = (await services.settings.get()).previewModel;
    if (remembered) access.grantFile(remembered, 'model');
    const handlers = guardHandlers(services.handlers, access);
    // Keep the native Open Recent menu and the OS recent list in step with what main opened.
    const wrapped = {
      ...handlers,
      openFile: async (...a: Parameters<typeof handlers.openFile>) => {
        const r = await handlers.openFile(...a);
        // The file service put it on the list only if it reads as its format (and took a file that is gone off it).
        if (r.ok && (await services!.recent.list()).some((x) => x.path === r.value.path)) app.addRecentDocument(r.value.path);
        void rebuildMenu();
        return r;
      },
      saveFile: async (...a: Parameters<typeof handlers.saveFile>) => {
        const r = await handlers.saveFile(...a);
        if (r.ok) void rebuildMenu();
        return r;
      },
      clearRecent: async () => {
        const r = await handlers.clearRecent();
        app.clearRecentDocuments();
        void rebuildMenu();
        return r;
      },
      setSettings: async (...a: Parameters<typeof handlers.setSettings>) => {
        const r = await handlers.setSettings(...a);
        void rebuildMenu(); // the language may have changed
        return r;
      },
    };
    const isTrusted = trustedFrameCheck(appUrl);
    registerIpcHandlers(ipcMain, wrapped, isTrusted);
    // The preload reports the path the platform gave for a File the person dropped (only a real dropped
    // or picked File has one); it arrives before the request that opens it, on the same channel order.
    ipcMain.on(DROPPED_FILE_CHANNEL, (event, file: unknown) => {
      if (isTrusted(event.senderFrame as Parameters<typeof isTrusted>[0]) && typeof file === 'string' && file.length <= 4096 && !file.includes('\0')) {
        access.grantFile(file);
      }
    });
    await rebuildMenu();

    const settings = await services.settings.get();
    const ws = settings.window;
    win = new BrowserWindow({
      width: ws.width,
      height: ws.height,
      ...(ws.x !== undefined && ws.y !== undefined ? { x: ws.x, y: ws.y } : {}),
      // Below the layout's 1280×720 the page scrolls (App.vue); smaller than this is not useful.
      minWidth: 1024,
      minHeight: 600,
      title: APP_NAME,
      backgroundColor: '#1b1d22',
      show: false,
      webPreferences: {
        preload: path.join(__dirname, 'preload.cjs'),
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        spellcheck: false,
      },
    });
    if (ws.maximized) win.maximize();
    win.once('ready-to-show', () => win?.show());

    win.webContents.on('did-finish-load', () => {
      rendererReady = true;
      const files = pending.splice(0);
      for (const f of files) send('fileOpened', { path: f });
    });

    win.on('close', (e) => {
      const w = win!;
      const b = w.getNormalBounds();
      lastWrite = services!.settings.set({ window: { x: b.x, y: b.y, width: b.width, height: b.height, maximized: w.isMaximized() } }).catch(() => undefined);
      // Nothing unsaved and no job running, or a renderer that crashed (it cannot ask or save): close as the
      // platform would (close-guard.ts).
      if (!closeAsksRenderer(services!.documentState(), { forced: forceClose, crashed: w.webContents.isCrashed?.() === true })) return;
      e.preventDefault();
      // The renderer asks in the window: a running job first ("A video is rendering. Stop it and close?"), then one
      // question listing the unsaved documents (Save All / Don't Save / Choose for Each… / Cancel; one alone: Save /
      // Don't Save / Cancel), saves what was chosen, and calls closeWindow() when the window may close
      // (commands.ts saveAndClose).
      send('menuCommand', { command: 'saveAndClose' });
    });
    win.on('closed', () => {
      win = null;
    });

    await win.loadFile(rendererIndex);
  });
}
