/**
 * Strings of camera authoring in the preview (registering the orbited view as a camera key) and of the
 * output frame (the scene's aspect, letterboxed when looking through the camera), next to strings.ts
 * like the other areas. `en` defines the keys; `ja` must have the same ones.
 */
import type { Locale } from './locale';

const en = {
  'camera.register': 'Register view',
  'camera.registerTitle': 'Register the current view as the camera key at frame {frame} (K): target, angles, distance and view angle from the orbit view; playing back through the camera shows this view',
  'camera.registerDone': 'Camera key registered at frame {frame}',
  'camera.registerReplaced': 'Camera key at frame {frame} replaced (its curves kept)',
  'camera.register.noDocument': 'Open a camera motion to register views into',
  'camera.register.notCamera': 'The open motion has no camera keys: open a camera VMD to register views into',
  'camera.register.lookingThrough': 'Off while looking through the camera: untick “Through camera”, orbit the free view, then register it',
  'camera.register.otherCamera': 'The reference camera loaded with Camera… is shown and takes no keys: “Edit this camera” makes it the scene’s camera (✕ beside Camera… removes it)',
  'camera.register.noPreview': 'The 3D preview is not running',
  'camera.aspect': 'Aspect',
  'camera.aspectTitle': 'The output frame’s aspect: looking through the camera shows this shape, with bars around it',
};

export type CameraStringKey = keyof typeof en;

const ja: Record<CameraStringKey, string> = {
  'camera.register': '視点を登録',
  'camera.registerTitle': '今の視点をフレーム {frame} のカメラキーとして登録します (K)。注視点・角度・距離・視野角を視点から取り、カメラ視点で再生するとこの見え方になります',
  'camera.registerDone': 'フレーム {frame} にカメラキーを登録しました',
  'camera.registerReplaced': 'フレーム {frame} のカメラキーを置き換えました（補間曲線はそのまま）',
  'camera.register.noDocument': '登録先のカメラモーションを開いてください',
  'camera.register.notCamera': '開いているモーションにカメラキーがありません。カメラ VMD を開いてください',
  'camera.register.lookingThrough': 'カメラ視点で見ている間は使えません。「カメラ視点」を外し、自由視点を回してから登録してください',
  'camera.register.otherCamera': '「カメラ…」で読み込んだ参考カメラを表示中で、キーは登録できません。「このカメラを編集」でシーンのカメラにしてください（「カメラ…」横の ✕ で外せます）',
  'camera.register.noPreview': '3D プレビューが動いていません',
  'camera.aspect': '画面',
  'camera.aspectTitle': '出力画面の縦横比。カメラ視点ではこの形で、周りに帯を付けて表示します',
};

export const cameraStrings: Record<Locale, Record<CameraStringKey, string>> = { en, ja };
