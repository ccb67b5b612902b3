/**
 * Native dialogs behind an interface, so the services and their tests do not need Electron.
 * Electron supplies an implementation in electron/electron-dialogs.ts; the browser mode has none
 * (the renderer shows its in-app dialog there), so its pickers answer E_UNSUPPORTED.
 */
import { errValue, type IpcResult, type PickOptions } from '../../shared/ipc/contract';

export interface DialogService {
  readonly native: boolean;
  pickFile(opts?: PickOptions): Promise<IpcResult<string | null>>;
  pickSaveFile(opts?: PickOptions): Promise<IpcResult<string | null>>;
  pickFolder(opts?: PickOptions): Promise<IpcResult<string | null>>;
}

const unsupported = () => Promise.resolve(errValue<string | null>('E_UNSUPPORTED', 'native dialogs are not available in the browser mode'));

export const noDialogs: DialogService = {
  native: false,
  pickFile: unsupported,
  pickSaveFile: unsupported,
  pickFolder: unsupported,
};
