/** Native dialogs for the DialogService interface (Electron only). */
import { dialog, type BrowserWindow, type FileFilter as ElectronFilter } from 'electron';
import { okValue, type FileFilter, type PickOptions } from '../shared/ipc/contract';
import type { DialogService } from './services/dialog-service';
import { AUDIO_EXTENSIONS, SCENE_EXTENSIONS } from './services/scene-service';

function filters(f: FileFilter | undefined): ElectronFilter[] {
  switch (f ?? 'motion') {
    case 'motion':
      return [{ name: 'VMD / VPD', extensions: ['vmd', 'vpd'] }];
    case 'vmd':
      return [{ name: 'VMD', extensions: ['vmd'] }];
    case 'vpd':
      return [{ name: 'VPD', extensions: ['vpd'] }];
    case 'model':
      return [{ name: 'PMX / PMD', extensions: ['pmx', 'pmd', 'x'] }];
    case 'scene':
      return [{ name: 'VMD Studio scene', extensions: SCENE_EXTENSIONS.map((e) => e.slice(1)) }];
    case 'audio':
      return [
        { name: 'Audio', extensions: AUDIO_EXTENSIONS.map((e) => e.slice(1)) },
        { name: '*', extensions: ['*'] },
      ];
    default:
      return [{ name: '*', extensions: ['*'] }];
  }
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
