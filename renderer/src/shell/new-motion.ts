/**
 * File → New Motion (issue 30): a new, unsaved, empty motion for the shown model (its name in the VMD
 * header, as MMD writes it), opened as a lone motion is: a one-actor scene with the preview's model. Over
 * unsaved changes it asks first, as opening a file does (scene.confirmReplace); the document itself is made by
 * the app action (shell/app-actions.ts newMotion).
 */
import { useSceneStore } from '../stores/scene';
import { useSettingsStore } from '../stores/settings';
import { newMotion as newMotionAction } from './app-actions';

export async function newMotion(): Promise<boolean> {
  const name = useSettingsStore().t('preview.newMotionName');
  if (!(await useSceneStore().confirmReplace(name))) return false;
  newMotionAction(name);
  return true;
}
