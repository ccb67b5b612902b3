/**
 * Asking the user for a path. Under Electron: the native dialogs through main. In the browser mode:
 * the in-app dialog (FileDialog.vue) browsing folders with `listDirectory`. One promise-based call
 * for both, so commands do not care which one answers.
 */
import { reactive } from 'vue';
import type { FileFilter } from '../../../shared/ipc/contract';
import { useApi } from '../api';
import { useNotifyStore } from '../stores/notify';
import { useSettingsStore } from '../stores/settings';

export type FileDialogMode = 'open' | 'save' | 'folder';

export interface FileDialogRequest {
  mode: FileDialogMode;
  title: string;
  filter: FileFilter;
  /** Folder to start in. */
  directory?: string | null;
  /** File name proposed in save mode. */
  fileName?: string;
}

/** The chosen path; `overwrite` is true when the user already agreed to replace an existing file. */
export interface PickedPath {
  path: string;
  overwrite: boolean;
}

/** The request the in-app dialog is showing (null = closed). */
export const fileDialogState = reactive({
  request: null as FileDialogRequest | null,
  resolve: null as ((p: PickedPath | null) => void) | null,
});

/** Shows the in-app dialog; resolves with the choice or null on cancel. A new request cancels a pending one. */
export function showFileDialog(req: FileDialogRequest): Promise<PickedPath | null> {
  fileDialogState.resolve?.(null);
  return new Promise((resolve) => {
    fileDialogState.request = req;
    fileDialogState.resolve = (p) => {
      fileDialogState.request = null;
      fileDialogState.resolve = null;
      resolve(p);
    };
  });
}

function join(dir: string, name: string): string {
  const sep = dir.includes('\\') && !dir.includes('/') ? '\\' : '/';
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

/** Native dialog when the app has one, else the in-app dialog. */
export async function pickPath(req: FileDialogRequest): Promise<PickedPath | null> {
  const settings = useSettingsStore();
  const directory = req.directory ?? settings.settings.lastDirectory ?? '';
  if (!settings.nativeDialogs) return showFileDialog({ ...req, directory });
  const api = useApi();
  const defaultPath = req.fileName ? (directory ? join(directory, req.fileName) : req.fileName) : directory || undefined;
  const opts = { title: req.title, filter: req.filter, defaultPath };
  const r = req.mode === 'open' ? await api.pickFile(opts) : req.mode === 'save' ? await api.pickSaveFile(opts) : await api.pickFolder(opts);
  if (!r.ok) {
    useNotifyStore().error(r.error);
    return null;
  }
  // Native save dialogs ask about replacing an existing file themselves.
  return r.value ? { path: r.value, overwrite: req.mode === 'save' } : null;
}
