/**
 * Registers every contract request on ipcMain through one helper that checks the sender frame and
 * validates the arguments before a service sees them (dispatch in services/index.ts). Anything else
 * sending on a `vmd:` channel (another frame, a navigated page) gets an E_IO_DENIED value.
 */
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { channelOf, errValue, REQUEST_NAMES, type IpcResult, type RequestHandlers } from '../shared/ipc/contract';
import { dispatch } from './services';

/** The part of a WebFrameMain the check reads. */
export interface SenderFrame {
  url: string;
  parent: unknown;
}

/**
 * Trusts only the app's own top-level page: `file://…/dist/renderer/index.html` (any query/hash),
 * or the dev server's origin when one is given.
 */
export function trustedFrameCheck(appUrl: string): (frame: SenderFrame | null | undefined) => boolean {
  const app = new URL(appUrl);
  return (frame) => {
    if (!frame || frame.parent) return false;
    let u: URL;
    try {
      u = new URL(frame.url);
    } catch {
      return false;
    }
    if (app.protocol === 'file:') return u.protocol === 'file:' && u.pathname === app.pathname;
    return u.origin === app.origin;
  };
}

export type IpcMainLike = Pick<IpcMain, 'handle' | 'removeHandler'>;

/** Registers all handlers; returns a function that removes them. */
export function registerIpcHandlers(
  ipcMain: IpcMainLike,
  handlers: RequestHandlers,
  isTrusted: (frame: SenderFrame | null | undefined) => boolean,
): () => void {
  for (const name of REQUEST_NAMES) {
    ipcMain.handle(channelOf(name), async (event: IpcMainInvokeEvent, ...args: unknown[]): Promise<IpcResult<unknown>> => {
      if (!isTrusted(event.senderFrame as SenderFrame | null)) {
        return errValue('E_IO_DENIED', `${name}: request from an untrusted frame refused`);
      }
      return dispatch(handlers, name, args);
    });
  }
  return () => REQUEST_NAMES.forEach((name) => ipcMain.removeHandler(channelOf(name)));
}
