/**
 * File → New Motion (issue 30): a new, unsaved, empty motion for the shown model (its name in the VMD
 * header, as MMD writes it), opened as a lone motion is: a one-actor scene with the preview's model. Over
 * unsaved changes it asks first, as opening a file does (scene.confirmReplace).
 */
import { emptyVmd } from '../../../shared/vmd/vmd-build';
import { writeVmd } from '../../../shared/vmd/vmd-writer';
import { useDocumentStore } from '../stores/document';
import { usePreviewStore } from '../stores/preview';
import { useSceneStore } from '../stores/scene';
import { useSettingsStore } from '../stores/settings';

export async function newMotion(): Promise<boolean> {
  const name = useSettingsStore().t('preview.newMotionName');
  if (!(await useSceneStore().confirmReplace(name))) return false;
  let blank;
  try {
    blank = emptyVmd(usePreviewStore().model?.name ?? '');
  } catch {
    // A model name Shift_JIS cannot hold in the header's 20 bytes: a motion for no named model.
    blank = emptyVmd();
  }
  return useDocumentStore().openBytes(name, writeVmd(blank));
}
