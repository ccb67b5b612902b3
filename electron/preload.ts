/**
 * The sandboxed preload: exposes exactly the contract's requests and event subscriptions as
 * `window.vmdStudio` — no generic invoke. Bundled to one CommonJS file (sandboxed preloads cannot
 * load modules); imports only electron and the shared contract.
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { channelOf, DROPPED_FILE_CHANNEL, EVENT_NAMES, REQUEST_NAMES, subscribeNameOf } from '../shared/ipc/contract';

const api: Record<string, unknown> = {};
for (const name of REQUEST_NAMES) {
  const channel = channelOf(name);
  api[name] = (...args: unknown[]) => ipcRenderer.invoke(channel, ...args);
}
for (const name of EVENT_NAMES) {
  const channel = channelOf(name);
  api[subscribeNameOf(name)] = (listener: (payload: unknown) => void) => {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    // A wrapper per subscription: the renderer's function does not keep its identity across the
    // bridge, so unsubscribing goes through this closure, not removeListener(listener).
    const wrapped = (_e: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, wrapped);
    return () => {
      ipcRenderer.removeListener(channel, wrapped);
    };
  };
}
api.getPathForFile = (file: unknown) => {
  let p: string | null;
  try {
    p = webUtils.getPathForFile(file as File) || null;
  } catch {
    return null;
  }
  // Only a File the person dropped or picked has a path: tell main it may open that one.
  if (p) ipcRenderer.send(DROPPED_FILE_CHANNEL, p);
  return p;
};

contextBridge.exposeInMainWorld('vmdStudio', api);
