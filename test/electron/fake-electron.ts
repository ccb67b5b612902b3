/**
 * Stand-in for the `electron` module in the `electron` test project (aliased in vitest.config.ts):
 * Electron's binary is not available here, and main-process logic is tested as plain modules anyway.
 * Only what those modules touch at import time is provided.
 */
type Handler = (event: unknown, ...args: unknown[]) => unknown;

export const ipcMain = {
  handlers: new Map<string, Handler>(),
  listeners: new Map<string, Handler>(),
  on(channel: string, fn: Handler) {
    this.listeners.set(channel, fn);
  },
  handle(channel: string, fn: Handler) {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, fn);
  },
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  },
};

export const app = {
  isPackaged: false,
  getPath: (name: string) => `/tmp/fake-electron/${name}`,
  getLocale: () => 'en-US',
};

export const dialog = {
  showOpenDialog: async () => ({ canceled: true, filePaths: [] as string[] }),
  showSaveDialog: async () => ({ canceled: true, filePath: '' }),
  showMessageBox: async () => ({ response: 2 }),
};

export const webUtils = { getPathForFile: () => '' };
export const contextBridge = { exposeInMainWorld: () => undefined };
export const ipcRenderer = { invoke: async () => undefined, send: () => undefined, on: () => undefined, removeListener: () => undefined };
export const Menu = { buildFromTemplate: (t: unknown) => t, setApplicationMenu: () => undefined };
export default { ipcMain, app, dialog, webUtils, contextBridge, ipcRenderer, Menu };
