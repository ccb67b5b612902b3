/**
 * A scene file's role in the UI's language (issue 30: scene errors said "(actor 1 motion)", "(camera)",
 * "(audio)" in the Japanese UI). shared/scene's roleLabel stays the English one for the CLI and logs.
 */
import type { SceneFileRef } from '../../../shared/scene/scene-file';
import type { NoticeText } from './notify';
import { useSettingsStore } from './settings';

export function sceneRoleText(ref: SceneFileRef): string {
  const t = useSettingsStore().t;
  if (ref.role === 'model') return t('scene.role.actorModel', { n: (ref.actor ?? 0) + 1 });
  if (ref.role === 'motion') return t('scene.role.actorMotion', { n: (ref.actor ?? 0) + 1 });
  if (ref.role === 'camera') return t('scene.role.camera');
  return t('scene.role.audio');
}

/** `sceneRoleText` as a notice's text: rendered in the UI's language when shown (a notice that stays follows a switch). */
export function sceneRoleNotice(ref: SceneFileRef): NoticeText {
  if (ref.role === 'model') return { key: 'scene.role.actorModel', params: { n: (ref.actor ?? 0) + 1 } };
  if (ref.role === 'motion') return { key: 'scene.role.actorMotion', params: { n: (ref.actor ?? 0) + 1 } };
  return { key: ref.role === 'camera' ? 'scene.role.camera' : 'scene.role.audio' };
}
