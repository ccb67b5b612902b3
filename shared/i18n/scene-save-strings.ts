/**
 * Strings of saving and closing a scene as a project (Save of an edited scene, Close Scene, a dropped song),
 * next to scene-docs-strings.ts; and the Video dialog's line on outlines. `en` defines the keys; `ja` has the same ones.
 */
import type { Locale } from './locale';

const en = {
  'notify.noChanges': 'Nothing to save: no unsaved changes',
  'scene.closeSceneTitle': 'Close the scene and its documents (unsaved changes are asked about first); the window is left empty',
  'scene.closedNotice': 'Closed {name}',
  'video.outlineNote': 'Outlines (MMD’s edges) are drawn in the video, whatever the preview’s Outline switch',
  'scene.droppedMusic': '{name}: a song dropped on the window has no path the scene file could name, so the scene is saved without music. Choose the song with ♪ Music… to give it a path, then save the scene again',
};

export type SceneSaveStringKey = keyof typeof en;

const ja: Record<SceneSaveStringKey, string> = {
  'notify.noChanges': '保存する変更はありません',
  'scene.closeSceneTitle': 'シーンとそのドキュメントを閉じます（未保存の変更は先に確認します）。ウィンドウは空になります',
  'scene.closedNotice': '{name} を閉じました',
  'video.outlineNote': '動画には輪郭線（エッジ）を常に描きます（プレビューの輪郭線スイッチに関わらず）',
  'scene.droppedMusic': '{name}: ウィンドウにドロップした曲にはシーンファイルに書けるパスがないため、シーンは音楽なしで保存しました。♪ 音楽… で曲を選んでパスを与えてから、シーンをもう一度保存してください',
};

export const sceneSaveStrings: Record<Locale, Record<SceneSaveStringKey, string>> = { en, ja };
