/** Native dialogs for the DialogService interface (Electron only). */
import { dialog, type BrowserWindow, type FileFilter as ElectronFilter } from 'electron';
import { okValue, type FileFilter, type PickOptions } from '../shared/ipc/contract';
import type { DialogService } from './services/dialog-service';
import { FILTER_EXTENSIONS, FILTER_NAMES } from '../shared/ipc/file-types';

const ANY: ElectronFilter = { name: FILTER_NAMES.any, extensions: ['*'] };

function filters(f: FileFilter | undefined): ElectronFilter[] {
  const filter = f ?? 'motion';
  const exts = FILTER_EXTENSIONS[filter];
  if (!exts) return [ANY];
  const own: ElectronFilter = { name: FILTER_NAMES[filter], extensions: exts.map((e) => e.slice(1)) };
  // Audio also offers every file: the platform may decode a format the list does not name.
  return filter === 'audio' ? [own, ANY] : [own];
}

export function electronDialogs(win: () => BrowserWindow | null): DialogService {
  return {
    native: true,
    async pickFile(o: PickOptions = {}) {
      const w = win();
      const opts = { title: o.title, defaultPath: o.defaultPath, filters: filters(o.filter), properties: ['openFile' as const] };
      const r = w ? await dialog.showOpenDialog(w, opts) : await dialog.showOpenDialog(opts);
      return okValue(r.canceled || !r.filePaths[0] ? null : r.filePaths[0]);
    },
    async pickSaveFile(o: PickOptions = {}) {
      const w = win();
      const opts = { title: o.title, defaultPath: o.defaultPath, filters: filters(o.filter), properties: ['createDirectory' as const, 'showOverwriteConfirmation' as const] };
      const r = w ? await dialog.showSaveDialog(w, opts) : await dialog.showSaveDialog(opts);
      return okValue(r.canceled || !r.filePath ? null : r.filePath);
    },
    async pickFolder(o: PickOptions = {}) {
      const w = win();
      const opts = { title: o.title, defaultPath: o.defaultPath, properties: ['openDirectory' as const, 'createDirectory' as const] };
      const r = w ? await dialog.showOpenDialog(w, opts) : await dialog.showOpenDialog(opts);
      return okValue(r.canceled || !r.filePaths[0] ? null : r.filePaths[0]);
    },
  };
}
