/**
 * What a save over a file asks when main refused it to keep someone else's work (electron/services/file-io.ts):
 * the file was changed by another program since it was opened or last saved (E_IO_CHANGED: Overwrite, which
 * keeps that version as the .bak, / Save As… / Cancel), or it is read-only, or its folder cannot be written
 * (E_IO_DENIED: Save As… / Cancel), or its folder is not there any more (E_IO_NOT_FOUND, folderMissing: moved or
 * deleted since; Make the folder again and save / Save As… / Cancel). The document's save (stores/workspace.ts) and the scene file's
 * (stores/scene.ts) ask the same question in the same words.
 */
import type { IpcError } from '../../../shared/ipc/contract';
import type { FileFilter } from '../../../shared/ipc/file-types';
import { useConfirmStore } from './confirm';
import type { NoticeText } from './notify';
import { useSettingsStore } from './settings';
import { fileNameOf, folderOf } from '../paths';

export type RefusedSaveAnswer = 'overwrite' | 'saveAs' | 'makeFolder' | 'cancel';

/**
 * Asks what to do with a save refused by `error` (of the file `target`), or resolves null when the refusal is
 * not one that a question helps with (the caller shows the error as a notice).
 */
export async function askAboutRefusedSave(error: IpcError, target: string): Promise<RefusedSaveAnswer | null> {
  const name = fileNameOf(target);
  const saveAs = { choice: 'saveAs', label: 'save.saveAs' } as const;
  const cancel = { choice: 'cancel', label: 'close.cancel' } as const;
  let choice;
  if (error.code === 'E_IO_CHANGED') {
    // Overwrite first (Enter): it loses nothing, as the other program's version becomes the .bak.
    choice = await useConfirmStore().ask({
      title: { key: 'save.changedTitle' },
      message: { key: 'save.changedAsk', params: { name } },
      buttons: [{ choice: 'overwrite', label: 'save.overwrite' }, saveAs, cancel],
    });
  } else if (error.code === 'E_IO_DENIED' && (error.problem === 'readOnly' || error.problem === 'folderNotWritable')) {
    const message: NoticeText =
      error.problem === 'readOnly'
        ? { key: 'save.readOnlyAsk', params: { name } }
        : { key: 'save.folderAsk', params: { name, folder: String(error.params?.folder ?? folderOf(target)) } };
    choice = await useConfirmStore().ask({ title: { key: 'save.deniedTitle' }, message, buttons: [saveAs, cancel] });
  } else if (error.code === 'E_IO_NOT_FOUND' && error.problem === 'folderMissing') {
    // Its folder was moved or deleted since: made again (the caller makes it, then saves), or Save As….
    choice = await useConfirmStore().ask({
      title: { key: 'save.deniedTitle' },
      message: { key: 'save.folderMissingAsk', params: { name, folder: missingFolder(error, target) } },
      buttons: [{ choice: 'makeFolder', label: 'save.makeFolder' }, saveAs, cancel],
    });
  } else {
    return null;
  }
  return choice === 'overwrite' || choice === 'saveAs' || choice === 'makeFolder' ? choice : 'cancel';
}

/** The folder a save refused with `folderMissing` names (main's params), else the target's folder. */
export function missingFolder(error: IpcError, target: string): string {
  return String(error.params?.folder ?? folderOf(target));
}

/** What a pose written from a motion leaves out (stores/workspace.ts poseLoss). */
export interface PoseLossCounts {
  frame: number;
  keys: number;
  camera: number;
  light: number;
  shadow: number;
  ik: number;
}

/**
 * A motion saved as a pose (.vpd `target`, one frame): "A pose (.vpd) holds one frame: … the pose at frame N is
 * saved; K keys at other frames and … are not", Save the pose / Cancel. True: write the pose.
 */
export async function askPoseLoss(loss: PoseLossCounts, target: string): Promise<boolean> {
  const s = useSettingsStore();
  const parts = (['keys', 'camera', 'light', 'shadow', 'ik'] as const).filter((k) => loss[k] > 0).map((k) => s.t(`save.poseLost.${k}`, { n: loss[k] }));
  const lost = parts.join(s.t('save.poseLostJoin'));
  const choice = await useConfirmStore().ask({
    title: { key: 'save.poseTitle' },
    message: { key: 'save.poseAsk', params: { name: fileNameOf(target), frame: loss.frame, lost, n: loss.keys + loss.camera + loss.light + loss.shadow + loss.ik } },
    buttons: [
      { choice: 'save', label: 'save.savePose' },
      { choice: 'cancel', label: 'close.cancel' },
    ],
  });
  return choice === 'save';
}

/** A path the save dialog gave: `overwrite` when the user already agreed to replace an existing file. */
export interface PickedSavePath {
  path: string;
  overwrite: boolean;
}

/** The save dialog as the shell asks it (shell/file-dialog.ts pickPath), for a store below the shell. */
export type SavePathPicker = (req: { mode: 'save'; title: string; filter: FileFilter; directory: string | null; fileName: string }) => Promise<PickedSavePath | null>;

let picker: SavePathPicker | null = null;

/** The app (app.ts) attaches the shell's save dialog, as it attaches Save All: stores import no shell. */
export function attachSavePicker(p: SavePathPicker): void {
  picker = p;
}

/** The Save As… of a refused save: the save dialog in the file's folder with its name proposed (null: cancelled, or no dialog attached). */
export function pickElsewhere(target: string, filter: FileFilter): Promise<PickedSavePath | null> {
  if (!picker) return Promise.resolve(null);
  return picker({ mode: 'save', title: useSettingsStore().t('dialog.saveTitle'), filter, directory: folderOf(target) || null, fileName: fileNameOf(target) });
}
