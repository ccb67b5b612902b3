/**
 * Strings of the scene's documents in the window (actor tabs, the camera document, Save All, the title),
 * next to scene-strings.ts (the scene file and the music). `en` defines the keys; `ja` has the same ones.
 */
import type { Locale } from './locale';

const en = {
  'scene.untitled': 'Untitled scene',
  'scene.cameraExists': 'The scene already has a camera document ({name}); open it from its tab',
  'scene.notInScene': '{n} document(s) were never saved and are not named in the scene file: save them, then save the scene again',
  'scene.documents': 'Scene documents',
  'scene.actorTab': 'Actor {n}',
  'scene.actorTitle': 'Edit this actor’s motion: {file}',
  'scene.cameraTab': 'Camera',
  'scene.cameraTitle': 'Edit the camera document (camera, light and self-shadow keys): {file}',
  'scene.noFile': 'no motion file',
  'scene.hide': 'Hide this actor’s model in the preview',
  'scene.show': 'Show this actor’s model in the preview',
  'scene.addActor': '+ Actor',
  'scene.addActorTitle': 'Add a motion to the scene: a camera VMD becomes the camera document, any other a new actor',
  'scene.addTitle': 'Add a motion to the scene',
  'scene.saveAll': 'Save All',
  'scene.saveAllTitle': 'Save every unsaved document of the scene (and the scene file, when it has one)',
  'scene.unsaved': 'unsaved',
  'scene.recent': 'Recent Scenes',
  'scene.noRecent': 'No recent scenes',
  'scene.closeTitle': 'Unsaved changes',
  'scene.closeAsk': 'Save the changes to {name} before closing?',
  'scene.replaceTitle': 'Replace the scene?',
  'scene.replaceAsk': 'Opening {file} replaces the scene. The unsaved changes to {names} will be lost.',
  'scene.replaceOpen': 'Open and Discard',
  'scene.addCamera': '+ New camera',
  'scene.addCameraTitle': 'Add an empty camera document to the scene (camera and light keys): insert keys on its rows, or orbit the view and register it (K)',
};

export type SceneDocsStringKey = keyof typeof en;

const ja: Record<SceneDocsStringKey, string> = {
  'scene.untitled': '無題のシーン',
  'scene.cameraExists': 'シーンにはすでにカメラドキュメント（{name}）があります。そのタブから開いてください',
  'scene.notInScene': '{n} 件のドキュメントは一度も保存されていないため、シーンファイルに含まれていません。保存してからシーンをもう一度保存してください',
  'scene.documents': 'シーンのドキュメント',
  'scene.actorTab': 'アクター {n}',
  'scene.actorTitle': 'このアクターのモーションを編集: {file}',
  'scene.cameraTab': 'カメラ',
  'scene.cameraTitle': 'カメラドキュメント（カメラ・照明・セルフ影のキー）を編集: {file}',
  'scene.noFile': 'モーションファイルなし',
  'scene.hide': 'プレビューでこのアクターのモデルを隠す',
  'scene.show': 'プレビューでこのアクターのモデルを表示',
  'scene.addActor': '+ アクター',
  'scene.addActorTitle': 'シーンにモーションを追加: カメラの VMD はカメラドキュメントに、それ以外は新しいアクターになります',
  'scene.addTitle': 'シーンにモーションを追加',
  'scene.saveAll': 'すべて保存',
  'scene.saveAllTitle': 'シーンの未保存のドキュメントをすべて保存します（シーンファイルがあればそれも）',
  'scene.unsaved': '未保存',
  'scene.recent': '最近のシーン',
  'scene.noRecent': '最近のシーンはありません',
  'scene.closeTitle': '未保存の変更',
  'scene.closeAsk': '閉じる前に {name} の変更を保存しますか？',
  'scene.replaceTitle': 'シーンを置き換えますか？',
  'scene.replaceAsk': '{file} を開くとシーンが置き換えられます。{names} の未保存の変更は失われます。',
  'scene.replaceOpen': '破棄して開く',
  'scene.addCamera': '+ 新しいカメラ',
  'scene.addCameraTitle': 'シーンに空のカメラドキュメント（カメラ・照明のキー）を追加します。行にキーを挿入するか、視点を回して登録してください (K)',
};

export const sceneDocsStrings: Record<Locale, Record<SceneDocsStringKey, string>> = { en, ja };
