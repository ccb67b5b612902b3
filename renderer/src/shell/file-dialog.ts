/**
 * Asking the user for a path. Under Electron: the native dialogs through main. In the browser mode:
 * the in-app dialog (FileDialog.vue) browsing folders with `listDirectory`. One promise-based call
 * for both, so commands do not care which one answers.
 */
import { reactive } from 'vue';
import type { FileFilter, IpcError } from '../../../shared/ipc/contract';
import { useApi } from '../api';
import { useNotifyStore, type NoticeText } from '../stores/notify';
import { useSettingsStore } from '../stores/settings';
import { isAbsoluteTyped } from '../paths';

export type FileDialogMode = 'open' | 'save' | 'folder';

export interface FileDialogRequest {
  mode: FileDialogMode;
  title: string;
  filter: FileFilter;
  /** Folder to start in. */
  directory?: string | null;
  /** File name proposed in save mode. */
  fileName?: string;
  /** A line under the title saying why this is asked (a native dialog: shown as a notice before it opens). */
  note?: string;
  /**
   * Save mode: why the caller cannot take this path (Save As onto a file another open document has), or null.
   * The in-app dialog says it in its error line and stays open, before asking to replace the file; a native
   * dialog cannot, so the caller refuses it after (workspace saveAs's notice).
   */
  refuse?: (path: string) => NoticeText | null;
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
  // '' is no folder (a document never saved has none): the last folder used, as null does.
  const directory = req.directory || settings.settings.lastDirectory || '';
  if (!settings.nativeDialogs) return showFileDialog({ ...req, directory });
  // The system's dialog has no room for it.
  if (req.note) useNotifyStore().info(req.note);
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


/**
 * What the save dialog's name box holds: a plain name (saved in the folder shown), or a path — full
 * (`/home/me/out.vmd`, `~/out.vmd`, `C:\m\out.vmd`) or relative to the folder shown (`sub/out.vmd`) —
 * which names the folder to save in and the file name. `name` is '' when the path ends in a separator
 * (a folder only: the dialog goes there).
 */
export function splitTypedPath(typed: string, currentDir: string): { dir: string | null; name: string } {
  const p = typed.trim();
  const cut = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  if (cut < 0) return p === '~' ? { dir: '~', name: '' } : { dir: null, name: p };
  let head = p.slice(0, cut) || p.slice(0, 1); // "/out.vmd": the root
  if (/^[a-zA-Z]:$/.test(head)) head += p[cut]; // "C:\\out.vmd": the drive's root
  const name = p.slice(cut + 1);
  return { dir: isAbsoluteTyped(p) ? head : join(currentDir, head), name };
}

/** Why a folder could not be listed, in words (and in the UI language when shown). */
export function listingErrorText(e: Pick<IpcError, 'code' | 'message' | 'file'>): NoticeText {
  const path = e.file ?? '';
  switch (e.code) {
    case 'E_IO_NOT_FOUND':
      return { key: 'dialog.err.notFound', params: { path } };
    case 'E_IO_NOT_DIR':
      return { key: 'dialog.err.notFolder', params: { path } };
    case 'E_IO_DENIED':
      return { key: 'dialog.err.denied', params: { path } };
    default:
      return { key: 'dialog.err.other', params: { path, reason: e.message } };
  }
}
